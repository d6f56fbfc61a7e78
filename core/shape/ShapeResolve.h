#pragma once
// Shape knowledge for the user's own model: bind the inputs' symbolic dims, then give every value a
// static shape — ONNX shape inference (data propagation on), partial evaluation of the shape
// arithmetic by the reference executor (Shape → Gather → Concat → Reshape, Resize sizes, ...), and,
// for what only data can tell (NonZero, a Loop's scan outputs, control flow), one traced run of the
// reference executor on seeded sample inputs. Used by every fusing verb and the GUI alike.
//
// The default binding (described for users in docs/shapes.md, the one place; in short):
//   - a dim the user bound (--input-shape, --batch) keeps that value;
//   - one symbol has one value everywhere it appears;
//   - H and W of a 4-D input whose dim 1 is 3 (an NCHW image) get the smallest multiple of the
//     model's spatial reduction (the product of Conv/pool strides along the deepest path) that is
//     >= 224, so every stride and every skip connection lines up;
//   - every other unbound dim is 1.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "core/ir/Model.h"
#include "core/onnx/OnnxIO.h"
#include "core/util/Result.h"

namespace fw {

struct DimBinding {
  std::string input;   // graph input name
  size_t dim = 0;      // index of the dim in the input's shape
  std::string symbol;  // the symbolic name ("" for an unnamed dim)
  int64_t value = 0;
  std::string rule;    // "image" or "default 1"
};

struct ResolveOptions {
  bool bindDefaults = true;  // false: leave unbound dims symbolic (fwb info)
  bool traceIfNeeded = true; // run the executor when shapes or control flow need it
  uint64_t seed = 1;         // sample inputs of the traced run (randomInputs)
  int threads = 0;
  const std::atomic<bool>* cancel = nullptr;
};

struct ShapeResolution {
  std::vector<DimBinding> defaults;        // dims bound by the default rule (not by the user)
  size_t evaluatedValues = 0;              // values the partial evaluation computed
  std::vector<std::string> tracedValues;   // values (scope-qualified) whose shape came from the traced run
  std::vector<std::string> unresolved;     // "node 'X' (Op): value 'y'" still without a static shape
  bool traced = false;                     // the traced run happened and succeeded
  std::string traceError;                  // why the traced run failed (empty when it ran or was not needed)
  ExecTrace trace;                         // control flow of the traced run
  std::vector<std::string> warnings;

  // One line naming each default-bound dim and its value, e.g.
  // "shapes: bound by default x[0] N=1, x[2] H=224, x[3] W=224 (override with --input-shape)"; "" if none.
  std::string bindingLine() const;
};

// Spatial reduction of the model per spatial axis (H, W, D): the largest product of Conv/pool
// strides along that axis (divided by upsampling factors) over any path; 1 when there is none.
std::vector<int64_t> spatialReduction(const Graph& g);

// The default value for each unbound dim of the graph inputs (see the rule above). Does not change
// the model.
std::vector<DimBinding> defaultBinding(const Graph& g);

// Binds, infers, evaluates and traces as described above; the model's values get their shapes.
// Errors only for what no step can fix (an input of unknown rank); everything else is reported.
Result<ShapeResolution> resolveShapes(Model& model, const ResolveOptions& opts = {});

// Values of `g` (and of its subgraph bodies, scope-qualified) without a static shape, as
// "node 'X' (Op): value 'y' [shape]" — at most `limit` of them.
std::vector<std::string> valuesWithoutStaticShape(const Graph& g, size_t limit = 20);

}  // namespace fw
