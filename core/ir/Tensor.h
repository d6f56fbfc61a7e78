#pragma once
// Tensor: an immutable, shared block of elements. Copying a Tensor copies a pointer, never the data.
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/ir/DType.h"

namespace fw {

class Tensor {
 public:
  Tensor() = default;
  // Raw little-endian bytes; size must equal numel * dtypeSize(dtype).
  Tensor(DType dtype, std::vector<int64_t> dims, std::vector<uint8_t> bytes);
  // String tensors.
  Tensor(std::vector<int64_t> dims, std::vector<std::string> strings);

  template <class T>
  static Tensor fromVector(DType dtype, std::vector<int64_t> dims, const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
    return Tensor(dtype, std::move(dims), std::move(bytes));
  }
  static Tensor floats(std::vector<int64_t> dims, const std::vector<float>& v) {
    return fromVector(DType::Float32, std::move(dims), v);
  }
  static Tensor int64s(std::vector<int64_t> dims, const std::vector<int64_t>& v) {
    return fromVector(DType::Int64, std::move(dims), v);
  }
  static Tensor scalarFloat(float v) { return floats({}, {v}); }
  static Tensor scalarInt64(int64_t v) { return int64s({}, {v}); }

  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t numel() const;
  size_t byteSize() const { return bytes_ ? bytes_->size() : 0; }
  bool empty() const { return !bytes_ && !strings_; }

  const uint8_t* rawData() const { return bytes_ ? bytes_->data() : nullptr; }
  // The shared, immutable byte storage (null for strings): copies and reshapes share it.
  std::shared_ptr<const std::vector<uint8_t>> byteStorage() const { return bytes_; }
  template <class T>
  std::span<const T> data() const {
    if (!bytes_) return {};
    return {reinterpret_cast<const T*>(bytes_->data()), bytes_->size() / sizeof(T)};
  }
  const std::vector<std::string>& strings() const;

  // Element i converted to double / int64 (any numeric dtype incl. float16/bfloat16).
  double getDouble(int64_t i) const;
  int64_t getInt64(int64_t i) const;
  // Whole tensor converted (numeric dtypes only).
  std::vector<float> toFloats() const;
  std::vector<int64_t> toInt64s() const;

  // Same data, other shape (numel must match). Shares storage.
  Tensor reshaped(std::vector<int64_t> dims) const;

  bool sameContent(const Tensor& o) const;

 private:
  DType dtype_ = DType::Undefined;
  std::vector<int64_t> dims_;
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
  std::shared_ptr<const std::vector<std::string>> strings_;
};

using TensorPtr = std::shared_ptr<const Tensor>;

float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float bfloat16ToFloat(uint16_t h);

}  // namespace fw
