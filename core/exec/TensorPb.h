#pragma once
// Single tensors as serialized onnx TensorProto files (the ONNX backend-test layout:
// test_data_set_0/input_0.pb, output_0.pb, ...).
#include <string>

#include "core/exec/Executor.h"
#include "core/ir/Tensor.h"
#include "core/util/Result.h"

namespace fw {

// Reads a TensorProto file; `name` (optional) receives the tensor's name.
Result<Tensor> readTensorPb(const std::string& path, std::string* name = nullptr);
// Reads a value file of the kind the model declares: a TensorProto, a SequenceProto (of tensors) or an
// OptionalProto (empty, a tensor or a sequence of tensors).
enum class PbKind { Tensor, Sequence, Optional };
Result<RunValue> readValuePb(const std::string& path, PbKind kind);
// Writes atomically.
Status writeTensorPb(const std::string& path, const Tensor& t, const std::string& name = {});

}  // namespace fw
