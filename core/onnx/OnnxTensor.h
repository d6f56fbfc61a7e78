#pragma once
// Conversions between onnx protobuf messages and the IR. Internal to core/onnx (includes onnx headers).
#include <onnx/onnx_pb.h>

#include <string>

#include "core/ir/Graph.h"
#include "core/util/Result.h"

namespace fw::onnxio {

// `where` names the file and tensor for messages; baseDir resolves external data ("" forbids it).
Result<Tensor> tensorFromProto(const onnx::TensorProto& tp, const std::string& baseDir,
                               const std::string& where);
Result<Tensor> sparseToDense(const onnx::SparseTensorProto& sp, const std::string& baseDir,
                             const std::string& where);
void tensorToProto(const Tensor& t, const std::string& name, onnx::TensorProto* tp);

// While one is alive on this thread, exportGraph writes large initializers as dims and type only (no
// data): what shape inference needs, without copying gigabytes of weights.
class ShapesOnlyExport {
 public:
  ShapesOnlyExport();
  ~ShapesOnlyExport();
  ShapesOnlyExport(const ShapesOnlyExport&) = delete;
  ShapesOnlyExport& operator=(const ShapesOnlyExport&) = delete;

 private:
  bool saved_;
};

// Reads elem type and shape of a tensor TypeProto; non-tensor types are kept opaque.
void typeFromProto(const onnx::TypeProto& tp, Value& v);
void typeToProto(const Value& v, onnx::TypeProto* tp);

}  // namespace fw::onnxio
