#pragma once
// One preparation path for every consumer (each fwb verb, the GUI, tune, compare): load a model
// source, validate it, bind its inputs' open dims and give every value a shape
// (core/shape/ShapeResolve.h). Two steps, so the GUI can load once and bind per input-shape setting:
//   loadChecked(source)           -> LoadedSource   (import + validation; once per file)
//   bindShapes(loaded, overrides) -> PreparedModel  (the user's binding, then the default binding,
//                                                    inference, partial evaluation, traced run)
// prepareModel does both.
#include <string>
#include <vector>

#include "core/io/ModelSource.h"
#include "core/ir/Model.h"
#include "core/onnx/OnnxIO.h"
#include "core/shape/ShapeResolve.h"
#include "core/util/Result.h"

namespace fw {

struct LoadedSource {
  Model model;          // as imported (and validated): symbolic dims kept
  ImportReport report;  // warnings, the declared I/O shapes, whether strict inference passed
};

struct PreparedModel {
  Model model;                // bound and shaped
  ImportReport report;
  ShapeResolution shapes;     // how the dims were bound, the traced run, what stayed unresolved
};

// Loads `source` (a path or zoo:NAME?k=v) and validates it; the first problem is the error, naming the
// file, node and field.
Result<LoadedSource> loadChecked(const std::string& source, const LoadOptions& opts = {});
// `bind` (NAME=dims or SYMBOL=N, applied before the default binding), then resolveShapes.
Result<PreparedModel> bindShapes(const LoadedSource& loaded, const std::vector<ShapeOverride>& bind = {},
                                 const ResolveOptions& resolve = {});
Result<PreparedModel> prepareModel(const std::string& source, const LoadOptions& opts = {},
                                   const std::vector<ShapeOverride>& bind = {}, const ResolveOptions& resolve = {});

// How many times bindShapes ran in this process (tests check that a level toggle binds nothing).
size_t bindShapesCalls();

}  // namespace fw
