#include "core/exec/TensorPb.h"

#include <onnx/onnx_pb.h>
#include <onnx/onnx-data.pb.h>

#include <filesystem>

#include "core/onnx/OnnxTensor.h"
#include "core/util/FileUtil.h"

namespace fw {

Result<Tensor> readTensorPb(const std::string& path, std::string* name) {
  auto bytes = readFileBytes(path);
  if (!bytes.ok()) return bytes.error();
  onnx::TensorProto tp;
  if (!tp.ParseFromString(*bytes)) return Error::badInput(path + ": not a serialized onnx TensorProto");
  if (name) *name = tp.name();
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return onnxio::tensorFromProto(tp, dir, path);
}

namespace {
Result<RunValue> sequenceValue(const onnx::SequenceProto& sp, const std::string& dir, const std::string& path) {
  if (sp.elem_type() != onnx::SequenceProto::TENSOR && sp.elem_type() != onnx::SequenceProto::UNDEFINED)
    return Error::badInput(path + ": only sequences of tensors are supported (elem_type " +
                           std::to_string(sp.elem_type()) + ")");
  RunValue v;
  v.kind = RunValue::Kind::Sequence;
  for (const auto& tp : sp.tensor_values()) {
    auto t = onnxio::tensorFromProto(tp, dir, path);
    if (!t.ok()) return t.error();
    v.items.push_back(std::move(t).value());
  }
  if (!v.items.empty()) v.elemType = v.items[0].dtype();
  return v;
}
}  // namespace

Result<RunValue> readValuePb(const std::string& path, PbKind kind) {
  if (kind == PbKind::Tensor) {
    auto t = readTensorPb(path);
    if (!t.ok()) return t.error();
    return RunValue::of(std::move(t).value());
  }
  auto bytes = readFileBytes(path);
  if (!bytes.ok()) return bytes.error();
  const std::string dir = std::filesystem::path(path).parent_path().string();
  if (kind == PbKind::Sequence) {
    onnx::SequenceProto sp;
    if (!sp.ParseFromString(*bytes)) return Error::badInput(path + ": not a serialized onnx SequenceProto");
    return sequenceValue(sp, dir, path);
  }
  onnx::OptionalProto op;
  if (!op.ParseFromString(*bytes)) return Error::badInput(path + ": not a serialized onnx OptionalProto");
  if (op.has_tensor_value()) {
    auto t = onnxio::tensorFromProto(op.tensor_value(), dir, path);
    if (!t.ok()) return t.error();
    return RunValue::of(std::move(t).value());
  }
  if (op.has_sequence_value()) return sequenceValue(op.sequence_value(), dir, path);
  if (op.elem_type() != onnx::OptionalProto::UNDEFINED && op.elem_type() != onnx::OptionalProto::TENSOR &&
      op.elem_type() != onnx::OptionalProto::SEQUENCE)
    return Error::badInput(path + ": only optionals of tensors or sequences are supported");
  RunValue v;
  v.kind = RunValue::Kind::None;
  return v;
}

Status writeTensorPb(const std::string& path, const Tensor& t, const std::string& name) {
  onnx::TensorProto tp;
  onnxio::tensorToProto(t, name, &tp);
  std::string bytes;
  if (!tp.SerializeToString(&bytes)) return Error::internal("cannot serialize tensor '" + name + "'");
  return writeFileAtomic(path, bytes);
}

}  // namespace fw
