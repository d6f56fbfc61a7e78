#include "core/ir/DType.h"

namespace fw {

size_t dtypeSize(DType t) {
  switch (t) {
    case DType::Float32: return 4;
    case DType::UInt8: return 1;
    case DType::Int8: return 1;
    case DType::UInt16: return 2;
    case DType::Int16: return 2;
    case DType::Int32: return 4;
    case DType::Int64: return 8;
    case DType::Bool: return 1;
    case DType::Float16: return 2;
    case DType::Float64: return 8;
    case DType::UInt32: return 4;
    case DType::UInt64: return 8;
    case DType::Complex64: return 8;
    case DType::Complex128: return 16;
    case DType::BFloat16: return 2;
    case DType::String:
    case DType::Undefined: return 0;
  }
  return 0;
}

std::string_view dtypeName(DType t) {
  switch (t) {
    case DType::Float32: return "float32";
    case DType::UInt8: return "uint8";
    case DType::Int8: return "int8";
    case DType::UInt16: return "uint16";
    case DType::Int16: return "int16";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Bool: return "bool";
    case DType::Float16: return "float16";
    case DType::Float64: return "float64";
    case DType::UInt32: return "uint32";
    case DType::UInt64: return "uint64";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
    case DType::BFloat16: return "bfloat16";
    case DType::String: return "string";
    case DType::Undefined: return "undefined";
  }
  return "undefined";
}

std::optional<DType> dtypeFromInt(int32_t v) {
  if (v < 0 || v > 16) return std::nullopt;
  return static_cast<DType>(v);
}

bool isFloating(DType t) {
  return t == DType::Float32 || t == DType::Float16 || t == DType::Float64 || t == DType::BFloat16;
}

bool isInteger(DType t) {
  switch (t) {
    case DType::UInt8:
    case DType::Int8:
    case DType::UInt16:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt32:
    case DType::UInt64: return true;
    default: return false;
  }
}

}  // namespace fw
