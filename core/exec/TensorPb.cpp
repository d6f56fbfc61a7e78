#include "core/exec/TensorPb.h"

#include <onnx/onnx_pb.h>

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

Status writeTensorPb(const std::string& path, const Tensor& t, const std::string& name) {
  onnx::TensorProto tp;
  onnxio::tensorToProto(t, name, &tp);
  std::string bytes;
  if (!tp.SerializeToString(&bytes)) return Error::internal("cannot serialize tensor '" + name + "'");
  return writeFileAtomic(path, bytes);
}

}  // namespace fw
