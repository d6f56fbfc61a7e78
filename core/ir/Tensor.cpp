#include "core/ir/Tensor.h"

#include <cassert>
#include <cmath>
#include <stdexcept>

namespace fw {

namespace {
int64_t product(const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t x : d) n *= x;
  return n;
}
}  // namespace

Tensor::Tensor(DType dtype, std::vector<int64_t> dims, std::vector<uint8_t> bytes)
    : dtype_(dtype),
      dims_(std::move(dims)),
      bytes_(std::make_shared<const std::vector<uint8_t>>(std::move(bytes))) {}

Tensor::Tensor(std::vector<int64_t> dims, std::vector<std::string> strings)
    : dtype_(DType::String),
      dims_(std::move(dims)),
      strings_(std::make_shared<const std::vector<std::string>>(std::move(strings))) {}

int64_t Tensor::numel() const { return product(dims_); }

const std::vector<std::string>& Tensor::strings() const {
  static const std::vector<std::string> kEmpty;
  return strings_ ? *strings_ : kEmpty;
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1u;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  float v;
  if (exp == 0) {
    v = std::ldexp(static_cast<float>(mant), -24);
  } else if (exp == 31) {
    v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else {
    v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xffu) == 0xffu) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;  // may carry into exponent: correct
  return static_cast<uint16_t>(half);
}

float bfloat16ToFloat(uint16_t h) {
  const uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

double Tensor::getDouble(int64_t i) const {
  const uint8_t* p = rawData();
  assert(p);
  switch (dtype_) {
    case DType::Float32: return reinterpret_cast<const float*>(p)[i];
    case DType::Float64: return reinterpret_cast<const double*>(p)[i];
    case DType::Float16: return halfToFloat(reinterpret_cast<const uint16_t*>(p)[i]);
    case DType::BFloat16: return bfloat16ToFloat(reinterpret_cast<const uint16_t*>(p)[i]);
    case DType::Int8: return reinterpret_cast<const int8_t*>(p)[i];
    case DType::UInt8: return p[i];
    case DType::Bool: return p[i] ? 1.0 : 0.0;
    case DType::Int16: return reinterpret_cast<const int16_t*>(p)[i];
    case DType::UInt16: return reinterpret_cast<const uint16_t*>(p)[i];
    case DType::Int32: return reinterpret_cast<const int32_t*>(p)[i];
    case DType::UInt32: return reinterpret_cast<const uint32_t*>(p)[i];
    case DType::Int64: return static_cast<double>(reinterpret_cast<const int64_t*>(p)[i]);
    case DType::UInt64: return static_cast<double>(reinterpret_cast<const uint64_t*>(p)[i]);
    default: return 0.0;
  }
}

int64_t Tensor::getInt64(int64_t i) const {
  const uint8_t* p = rawData();
  assert(p);
  switch (dtype_) {
    case DType::Int64: return reinterpret_cast<const int64_t*>(p)[i];
    case DType::Int32: return reinterpret_cast<const int32_t*>(p)[i];
    case DType::UInt64: return static_cast<int64_t>(reinterpret_cast<const uint64_t*>(p)[i]);
    default: return static_cast<int64_t>(getDouble(i));
  }
}

std::vector<float> Tensor::toFloats() const {
  const int64_t n = numel();
  std::vector<float> out(static_cast<size_t>(n));
  if (dtype_ == DType::Float32 && bytes_ && bytes_->size() == out.size() * 4) {
    if (n) std::memcpy(out.data(), bytes_->data(), out.size() * 4);
    return out;
  }
  for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = static_cast<float>(getDouble(i));
  return out;
}

std::vector<int64_t> Tensor::toInt64s() const {
  const int64_t n = numel();
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = getInt64(i);
  return out;
}

Tensor Tensor::reshaped(std::vector<int64_t> dims) const {
  Tensor t = *this;
  if (product(dims) != numel()) throw std::logic_error("Tensor::reshaped: element count differs");
  t.dims_ = std::move(dims);
  return t;
}

bool Tensor::sameContent(const Tensor& o) const {
  if (dtype_ != o.dtype_ || dims_ != o.dims_) return false;
  if (dtype_ == DType::String) return strings() == o.strings();
  if (bytes_ == o.bytes_) return true;
  if (!bytes_ || !o.bytes_) return byteSize() == o.byteSize();
  return *bytes_ == *o.bytes_;
}

}  // namespace fw
