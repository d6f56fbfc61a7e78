#pragma once
// ONNX import/export on the real onnx library. onnx headers stay inside core/onnx/*.cpp.
#include <map>
#include <string>
#include <vector>

#include "core/ir/Model.h"
#include "core/util/Result.h"

namespace fw {

// --input-shape NAME=1,3,224,224 (NAME is a graph input) or SYMBOL=4 (binds a symbolic dim).
struct ShapeOverride {
  std::string name;
  std::vector<Dim> dims;
};
Result<ShapeOverride> parseShapeOverride(const std::string& text);  // "x=1,3,224,224", "batch=4"

struct ImportOptions {
  std::vector<ShapeOverride> shapeOverrides;
  bool inferShapes = true;
  // Strict: a shape-inference error fails the import. Lenient (default): the model still loads with
  // whatever shapes could be inferred, and the error is kept in ImportReport::warnings.
  bool strictShapeInference = false;
};

// Everything a loader wants to say about a model besides the model itself.
struct ImportReport {
  std::vector<std::string> warnings;
  size_t constantsFolded = 0;     // Constant nodes turned into initializers
  bool wasUnsorted = false;       // node list was not in topological order
  // Shape inference at import ran in strict mode without an error: validateModel need not run it
  // again on this model as loaded (validateModel(m, !report.strictShapesOk)).
  bool strictShapesOk = false;
  // Shapes of the graph inputs and outputs as the file declares them, before any --input-shape
  // binding: the contract a fused export keeps (fusion/Export.h).
  std::map<std::string, Shape> declaredShapes;
};

// Reads a .onnx file. External data is resolved inside the model's folder only.
Result<Model> loadOnnxFile(const std::string& path, const ImportOptions& opts = {},
                           ImportReport* report = nullptr);
// Parses serialized ModelProto bytes; baseDir resolves external data ("" forbids external data).
Result<Model> parseOnnxBytes(const std::string& bytes, const std::string& sourceName,
                             const std::string& baseDir, const ImportOptions& opts = {},
                             ImportReport* report = nullptr);

// Serializes a model to ModelProto bytes.
Result<std::string> serializeOnnx(const Model& model);
struct SaveOptions {
  // Store main-graph initializers of at least `minExternalBytes` in a side file (ONNX external
  // data), as models over protobuf's 2 GiB limit must. The location is relative to the model.
  bool externalData = false;
  size_t minExternalBytes = 1024;
  std::string dataFileName;  // default: <model file name>.data
};
// Writes atomically (temp file + rename), the side data file first.
Status saveOnnxFile(const Model& model, const std::string& path, const SaveOptions& opts = {});

// Runs onnx shape inference on the model and stores dtypes/shapes on every value it can.
Status inferShapes(Model& model, const std::vector<ShapeOverride>& overrides = {},
                   bool strict = false, std::vector<std::string>* warnings = nullptr);

// Shape inference again, with the values in `known` (by value name; e.g. shape arithmetic the
// reference executor evaluated) standing in as constants for the nodes producing them. Shapes and
// dtypes are stored on every value inference reaches; failures become warnings.
Status inferShapesWithConstants(Model& model, const std::map<std::string, Tensor>& known,
                                std::vector<std::string>* warnings = nullptr);

// Is `op` an operator of the ONNX standard domain at `opset` (libonnx's schema registry)?
bool isOnnxOp(const std::string& op, int64_t opset);

// onnx::checker::check_model on the exported model; error text on failure.
Status checkOnnx(const Model& model);

}  // namespace fw
