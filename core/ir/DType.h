#pragma once
// Element types. Numeric values equal onnx::TensorProto_DataType so conversion is a cast.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fw {

enum class DType : int32_t {
  Undefined = 0,
  Float32 = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Float64 = 11,
  UInt32 = 12,
  UInt64 = 13,
  Complex64 = 14,
  Complex128 = 15,
  BFloat16 = 16,
};

// Bytes per element; 0 for String/Undefined (variable or unknown size).
size_t dtypeSize(DType t);
std::string_view dtypeName(DType t);            // "float32", "int64", ...
std::optional<DType> dtypeFromInt(int32_t onnxType);  // nullopt if not a known ONNX type
bool isFloating(DType t);
bool isInteger(DType t);

}  // namespace fw
