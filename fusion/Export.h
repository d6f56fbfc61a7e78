#pragma once
// The fused model as ONNX: every multi-node kernel becomes one node of domain "fwb.fused" whose
// op_type names a model-local function (IR >= 8) holding the kernel's member nodes - standard ops
// only. Single-node kernels stay plain nodes; folded weights are ordinary initializers. Any runtime
// that inlines functions computes the original results, and Netron shows a kernel as one node.
#include <map>
#include <string>
#include <vector>

#include "core/ir/Model.h"
#include "core/util/Result.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

inline constexpr const char* kFusedDomain = "fwb.fused";

Result<Model> exportFused(const FusionResult& r);

// What a user would deploy, as a runtime sees it: exportFused, serialised to ONNX bytes and parsed
// back. Verification runs this (not the in-memory rewrite), so it checks the fusion, the exporter and
// the function bodies together. `label` names the model in errors ("m.onnx (fused -O2)").
Result<Model> exportedAndReimported(const FusionResult& r, const std::string& label);
// Any model serialised to ONNX bytes and parsed back (shape inference runs on the way in).
Result<Model> reimported(const Model& m, const std::string& label);

// The fused model a user deploys, keeping the contract of the model they gave. `declared` holds the
// graph inputs' and outputs' shapes as the file declares them (ImportReport::declaredShapes; they
// may have symbolic dims), `bound` is the model with every value shaped at the bound dims (what
// fusion and the simulator ran on), `r` is fuseModel(bound, opts).
//   - no open input dims: exportFused(r);
//   - open dims, `staticShapes` false: fusion runs again on `bound` with genericShapes (no rewrite
//     bakes a bound dim into a constant), and the export's graph inputs and outputs get the declared
//     shapes back (names and element types are unchanged); intermediate values carry no shape, so a
//     runtime infers them at whatever binding it is given;
//   - open dims, `staticShapes` true: exportFused(r) as analysed, valid only at the bound dims.
// `note` (optional) receives one line saying which of these happened and at what the dims stood.
Result<Model> exportForDeployment(const std::map<std::string, Shape>& declared, const Model& bound,
                                  const FusionResult& r, const FusionOptions& opts, bool staticShapes,
                                  std::string* note = nullptr);

// "x[0] batch=1, x[2] height=224" for every symbolic dim of `declared` that is a graph input of
// `bound`, with its value in `bound` (empty: every input dim is static).
std::vector<std::string> openInputDims(const std::map<std::string, Shape>& declared, const Model& bound);

}  // namespace fw::fusion
