// RtTensor: storage classes, allocation (from the run's buffer pool when there is one), conversion
// from and to fw::Tensor, sequences and empty optionals.
#include "core/exec/RtTensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "core/exec/MemoryPlan.h"
#include "core/exec/OpContext.h"
#include "core/exec/RunLimits.h"

namespace fw::exec {

Store storeOf(DType t) {
  switch (t) {
    case DType::Float32:
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float64: return Store::F32;
    case DType::Int8:
    case DType::UInt8:
    case DType::Int16:
    case DType::UInt16:
    case DType::Int32:
    case DType::UInt32:
    case DType::Int64:
    case DType::UInt64: return Store::I64;
    case DType::Bool: return Store::U8;
    case DType::String: return Store::Str;
    default: return Store::None;
  }
}

int64_t numelOf(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

namespace {
template <class T>
std::shared_ptr<T[]> makeArray(int64_t n) {
  return std::shared_ptr<T[]>(new T[static_cast<size_t>(std::max<int64_t>(n, 1))]);
}
}  // namespace

RtTensor RtTensor::alloc(DType dtype, std::vector<int64_t> dims) {
  RtTensor r;
  r.dtype = dtype;
  r.dims = std::move(dims);
  {
    const Store st = storeOf(dtype);
    const int64_t eb = st == Store::F32 ? 4 : st == Store::I64 ? 8 : st == Store::Str ? 32 : 1;
    const auto bytes = checkedBytes(r.dims, eb);
    if (!bytes) throw LimitExceeded("a tensor of shape " + dimsStr(r.dims) + " has an element count that overflows 64 bits");
    if (const RunLimits* l = currentLimits(); l && l->maxTensorBytes > 0 && *bytes > l->maxTensorBytes)
      throw LimitExceeded("a tensor of shape " + dimsStr(r.dims) + " needs " + std::to_string(*bytes) +
                          " bytes, above the memory budget of " + std::to_string(l->maxTensorBytes) +
                          " bytes (raise it with --max-memory)");
  }
  const int64_t n = r.numel();
  const Store st = storeOf(dtype);
  if (st == Store::None) {
    r.dtype = DType::Undefined;
    return r;
  }
  if (st != Store::Str && currentLimits() && currentLimits()->pool) {
    const size_t eb = st == Store::F32 ? 4 : st == Store::I64 ? 8 : 1;
    auto p = currentLimits()->pool->take(static_cast<size_t>(std::max<int64_t>(n, 1)) * eb);
    r.data_ = p.get();
    r.hold_ = std::move(p);
    return r;
  }
  switch (st) {
    case Store::F32: {
      auto p = makeArray<float>(n);
      r.data_ = p.get();
      r.hold_ = p;
      break;
    }
    case Store::I64: {
      auto p = makeArray<int64_t>(n);
      r.data_ = p.get();
      r.hold_ = p;
      break;
    }
    case Store::U8: {
      auto p = makeArray<uint8_t>(n);
      r.data_ = p.get();
      r.hold_ = p;
      break;
    }
    case Store::Str: {
      auto p = makeArray<std::string>(n);
      r.data_ = p.get();
      r.hold_ = p;
      break;
    }
    case Store::None: break;
  }
  return r;
}

RtTensor RtTensor::zeros(DType dtype, std::vector<int64_t> dims) {
  RtTensor r = alloc(dtype, std::move(dims));
  const int64_t n = r.numel();
  switch (r.store()) {
    case Store::F32: std::fill(r.mf(), r.mf() + n, 0.f); break;
    case Store::I64: std::fill(r.mi(), r.mi() + n, int64_t{0}); break;
    case Store::U8: std::fill(r.mb(), r.mb() + n, uint8_t{0}); break;
    default: break;
  }
  return r;
}

RtTensor RtTensor::fromTensor(const Tensor& t) {
  const DType dt = t.dtype();
  const int64_t n = t.numel();
  const bool direct =
      storedAsIs(dt) && t.rawData() != nullptr && t.byteSize() == static_cast<size_t>(n) * dtypeSize(dt);
  if (direct) {
    RtTensor r;
    r.dtype = dt;
    r.dims = t.dims();
    // Held through the tensor's own byte storage, so every run over the same initializer sees the
    // same owner (OneDnn.h caches reordered weights per owner).
    auto keep = t.byteStorage();
    r.data_ = const_cast<uint8_t*>(keep->data());
    r.hold_ = keep;
    return r;
  }
  RtTensor r = alloc(dt, t.dims());
  switch (r.store()) {
    case Store::F32:
      for (int64_t k = 0; k < n; ++k) r.mf()[k] = static_cast<float>(t.getDouble(k));
      break;
    case Store::I64:
      for (int64_t k = 0; k < n; ++k) r.mi()[k] = t.getInt64(k);
      break;
    case Store::U8:
      for (int64_t k = 0; k < n; ++k) r.mb()[k] = t.getDouble(k) != 0 ? 1 : 0;
      break;
    case Store::Str: {
      const auto& s = t.strings();
      for (int64_t k = 0; k < n && k < static_cast<int64_t>(s.size()); ++k) r.ms()[k] = s[static_cast<size_t>(k)];
      break;
    }
    case Store::None: break;
  }
  return r;
}

RtTensor RtTensor::fromModelTensor(const Tensor& t) {
  const DType dt = t.dtype();
  const auto keep = t.byteStorage();
  const Store st = storeOf(dt);
  if (dt == DType::Float32 || dt == DType::Int64 || dt == DType::Bool || !keep || st == Store::Str ||
      st == Store::None) {
    RtTensor r = fromTensor(t);
    r.stable_ = keep != nullptr && r.raw() == keep->data();  // the model's own bytes
    return r;
  }
  struct Entry {
    std::weak_ptr<const std::vector<uint8_t>> source;
    DType dtype;
    std::vector<int64_t> dims;
    RtTensor converted;
  };
  static std::mutex m;
  static std::unordered_map<const void*, Entry> cache;
  static int64_t cachedBytes = 0;
  constexpr int64_t kMaxCachedBytes = int64_t{4} << 30;
  {
    std::lock_guard<std::mutex> lock(m);
    const auto it = cache.find(keep.get());
    if (it != cache.end() && it->second.source.lock() == keep && it->second.dtype == dt && it->second.dims == t.dims())
      return it->second.converted;
  }
  // Converted outside any run's limits and buffer pool: the copy outlives the run.
  RtTensor r;
  {
    const RunLimits none;  // named: the scope keeps a pointer to it
    LimitScope outside(none);
    r = fromTensor(t);
  }
  const int64_t bytes = r.numel() * (r.store() == Store::F32 ? 4 : r.store() == Store::I64 ? 8 : 1);
  std::lock_guard<std::mutex> lock(m);
  for (auto it = cache.begin(); it != cache.end();) {  // entries whose model is gone
    if (it->second.source.expired()) {
      cachedBytes -= it->second.converted.numel() * (it->second.converted.store() == Store::F32 ? 4 : it->second.converted.store() == Store::I64 ? 8 : 1);
      it = cache.erase(it);
    } else {
      ++it;
    }
  }
  if (cachedBytes + bytes <= kMaxCachedBytes) {
    r.stable_ = true;  // kept, and handed to every run, while the model's tensor lives
    cache[keep.get()] = Entry{keep, dt, t.dims(), r};
    cachedBytes += bytes;
  }
  return r;
}

RtTensor RtTensor::scalarF(float v) {
  RtTensor r = alloc(DType::Float32, {});
  r.mf()[0] = v;
  return r;
}
RtTensor RtTensor::scalarI(int64_t v) {
  RtTensor r = alloc(DType::Int64, {});
  r.mi()[0] = v;
  return r;
}
RtTensor RtTensor::vecI(const std::vector<int64_t>& v) {
  RtTensor r = alloc(DType::Int64, {static_cast<int64_t>(v.size())});
  if (!v.empty()) std::memcpy(r.mi(), v.data(), v.size() * 8);
  return r;
}

namespace {
template <class T>
Tensor packInts(DType dt, const std::vector<int64_t>& dims, const int64_t* src, int64_t n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] = static_cast<T>(src[k]);
  return Tensor::fromVector(dt, dims, v);
}
// A tensor whose run-time store is its logical dtype's bytes: one copy into the Tensor's storage, no
// staging vector and no zero fill first (a graph output of 20 MB took 3.8-7.9 ms after its last kernel with
// both, each a fresh allocation the kernel faults in page by page).
template <typename T>
Tensor copiedAsIs(DType dt, const std::vector<int64_t>& dims, const T* src, int64_t n) {
  const auto* p = reinterpret_cast<const uint8_t*>(src);
  return Tensor(dt, dims, std::vector<uint8_t>(p, p + static_cast<size_t>(n) * sizeof(T)));
}
}  // namespace

RtTensor RtTensor::sequence(DType elem, std::vector<RtTensor> items) {
  RtTensor r;
  r.kind = Kind::Sequence;
  r.dtype = elem;
  r.items_ = std::make_shared<std::vector<RtTensor>>(std::move(items));
  r.itemCount_ = r.items_->size();
  return r;
}

RtTensor RtTensor::appended(const RtTensor& seq, RtTensor t) {
  RtTensor r;
  r.kind = Kind::Sequence;
  r.dtype = t.dtype;
  if (seq.items_ && seq.itemCount_ == seq.items_->size()) {
    seq.items_->push_back(std::move(t));
    r.items_ = seq.items_;
  } else {
    r.items_ = std::make_shared<std::vector<RtTensor>>();
    r.items_->reserve(seq.items().size() + 1);
    r.items_->assign(seq.items().begin(), seq.items().end());
    r.items_->push_back(std::move(t));
  }
  r.itemCount_ = r.items_->size();
  return r;
}

RtTensor RtTensor::none(DType elem) {
  RtTensor r;
  r.kind = Kind::None;
  r.dtype = elem;
  return r;
}

std::span<const RtTensor> RtTensor::items() const {
  return items_ ? std::span<const RtTensor>(items_->data(), itemCount_) : std::span<const RtTensor>();
}

Tensor RtTensor::toTensor() const {
  if (kind != Kind::Tensor) return Tensor();
  const int64_t n = numel();
  switch (dtype) {
    case DType::Float32:
      return copiedAsIs(dtype, dims, f(), n);
    case DType::Float64: {
      std::vector<double> v(f(), f() + n);
      return Tensor::fromVector(dtype, dims, v);
    }
    case DType::Float16: {
      std::vector<uint16_t> v(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] = floatToHalf(f()[k]);
      return Tensor::fromVector(dtype, dims, v);
    }
    case DType::BFloat16: {
      std::vector<uint16_t> v(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) {
        uint32_t x;
        std::memcpy(&x, &f()[k], 4);
        if (std::isnan(f()[k])) {
          v[static_cast<size_t>(k)] = 0x7fc0;
        } else {
          const uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
          v[static_cast<size_t>(k)] = static_cast<uint16_t>((x + rounding) >> 16);
        }
      }
      return Tensor::fromVector(dtype, dims, v);
    }
    case DType::Int8: return packInts<int8_t>(dtype, dims, i(), n);
    case DType::UInt8: return packInts<uint8_t>(dtype, dims, i(), n);
    case DType::Int16: return packInts<int16_t>(dtype, dims, i(), n);
    case DType::UInt16: return packInts<uint16_t>(dtype, dims, i(), n);
    case DType::Int32: return packInts<int32_t>(dtype, dims, i(), n);
    case DType::UInt32: return packInts<uint32_t>(dtype, dims, i(), n);
    case DType::Int64:
      return copiedAsIs(dtype, dims, i(), n);
    case DType::UInt64: return packInts<uint64_t>(dtype, dims, i(), n);
    case DType::Bool:
      return copiedAsIs(dtype, dims, b(), n);
    case DType::String: return Tensor(dims, std::vector<std::string>(s(), s() + n));
    default: return Tensor();
  }
}

double RtTensor::getD(int64_t k) const {
  switch (store()) {
    case Store::F32: return f()[k];
    case Store::I64: return static_cast<double>(i()[k]);
    case Store::U8: return b()[k];
    default: return 0;
  }
}
int64_t RtTensor::getI(int64_t k) const {
  switch (store()) {
    case Store::F32: return static_cast<int64_t>(f()[k]);
    case Store::I64: return i()[k];
    case Store::U8: return b()[k];
    default: return 0;
  }
}
std::vector<int64_t> RtTensor::toInts() const {
  std::vector<int64_t> v(static_cast<size_t>(numel()));
  for (size_t k = 0; k < v.size(); ++k) v[k] = getI(static_cast<int64_t>(k));
  return v;
}
std::vector<float> RtTensor::toFloats() const {
  std::vector<float> v(static_cast<size_t>(numel()));
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(getD(static_cast<int64_t>(k)));
  return v;
}

}  // namespace fw::exec
