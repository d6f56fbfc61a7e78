#pragma once
// One validation pass after import, shared by every verb and the GUI: attribute types and ranges per
// op, shape consistency (libonnx strict shape inference plus our own checks), index ranges of
// constant indices, and checked arithmetic on every element/byte count. A model that breaks the spec
// is refused by fuse/simulate/verify/render/run (exit 2, one message naming node, attribute and
// rule); `fwb info` and the GUI's node list still show it, with the problems listed.
#include <string>
#include <vector>

#include "core/ir/Model.h"
#include "core/util/Result.h"

namespace fw {

struct Problem {
  std::string node;     // node name ("" for a graph-level problem); scoped inside bodies ("If_0/then_branch/n")
  std::string op;       // op type
  std::string field;    // attribute or input/value the rule is about
  std::string message;  // "node 'conv' (Conv): attribute 'strides' = [0,0]: every stride must be >= 1"
};

struct ValidationReport {
  std::vector<Problem> problems;
  bool ok() const { return problems.empty(); }
  // BadInput naming the first problem (and how many more there are).
  Error error(const std::string& source) const;
};

// `strictInference`: also run libonnx shape inference in strict mode (errors become problems).
ValidationReport validateModel(const Model& m, bool strictInference = true);

}  // namespace fw
