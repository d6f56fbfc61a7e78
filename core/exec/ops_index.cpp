// Indexing, scattering, sorting and region ops: GatherElements, ScatterElements, Scatter, GatherND,
// ScatterND, Compress, Unique, TopK, NonMaxSuppression, RoiAlign, MaxRoiPool, ReverseSequence,
// MaxUnpool, DepthToSpace, SpaceToDepth, GridSample.
//
// Every index read from a tensor is range-checked before use (a clean error naming the input and the
// bad value); the checks run in a serial pre-pass so the copy loops can run in parallel unchecked.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/exec/Kernel.h"

namespace fw::exec {
namespace {

// ---- element-type dispatch ----------------------------------------------------------------------

template <class T>
const T* dataOf(const RtTensor& t) {
  return static_cast<const T*>(t.raw());
}
template <class T>
T* mdataOf(RtTensor& t) {
  return static_cast<T*>(t.mraw());
}

// Calls f(T{}) with T the storage type of `s`; false for a storage class without elements.
template <class F>
bool byStore(Store s, F&& f) {
  switch (s) {
    case Store::F32: f(float{}); return true;
    case Store::I64: f(int64_t{}); return true;
    case Store::U8: f(uint8_t{}); return true;
    case Store::Str: f(std::string{}); return true;
    default: return false;
  }
}

// A fresh tensor with the values of x (outputs never alias their inputs' storage when modified).
RtTensor cloneOf(const RtTensor& x) {
  RtTensor y = RtTensor::alloc(x.dtype, x.dims);
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    std::copy(dataOf<T>(x), dataOf<T>(x) + x.numel(), mdataOf<T>(y));
  });
  return y;
}

std::string str(int64_t v) { return std::to_string(v); }

// Normalises a possibly negative index against `dim`; false when out of [-dim, dim).
inline bool normIndex(int64_t& v, int64_t dim) {
  if (v < 0) v += dim;
  return v >= 0 && v < dim;
}

Error badIndex(const OpContext& c, const char* input, int64_t at, int64_t v, int64_t dim) {
  return c.fail("input '" + std::string(input) + "' has index " + str(v) + " at position " + str(at) +
                ", out of range [" + str(-dim) + ", " + str(dim) + ")");
}

// The integer tensor behind index input k, or an error naming it.
Result<const RtTensor*> indexInput(const OpContext& c, size_t k, const char* name) {
  if (!c.has(k)) return c.fail("missing input '" + std::string(name) + "'");
  const RtTensor& t = c.input(k);
  if (t.store() != Store::I64) return c.fail("input '" + std::string(name) + "' must be an integer tensor");
  return &t;
}

Result<int64_t> axisAttr(const OpContext& c, int64_t def, int64_t rank) {
  const int64_t a = c.attrInt("axis", def);
  const int64_t n = normAxis(a, rank);
  if (n < 0 || n >= rank) return c.fail("attribute 'axis' " + str(a) + " out of range for rank " + str(rank));
  return n;
}

// ---- GatherElements / ScatterElements / Scatter ------------------------------------------------

// For an indices tensor `idx` indexing `data` along `axis` (same rank): checks the shapes and the
// index values, and returns the normalised indices.
Result<std::vector<int64_t>> elementIndices(const OpContext& c, const RtTensor& data, const RtTensor& idx,
                                            int64_t axis, const char* name) {
  if (idx.rank() != data.rank())
    return c.fail("input '" + std::string(name) + "' has rank " + str(static_cast<int64_t>(idx.rank())) +
                  ", data has rank " + str(static_cast<int64_t>(data.rank())));
  for (size_t d = 0; d < data.rank(); ++d)
    if (static_cast<int64_t>(d) != axis && idx.dims[d] > data.dims[d])
      return c.fail("input '" + std::string(name) + "' shape " + dimsStr(idx.dims) + " exceeds data shape " +
                    dimsStr(data.dims) + " off the axis");
  const int64_t dim = data.dims[static_cast<size_t>(axis)];
  std::vector<int64_t> v(idx.i(), idx.i() + idx.numel());
  for (size_t k = 0; k < v.size(); ++k)
    if (!normIndex(v[k], dim)) return badIndex(c, name, static_cast<int64_t>(k), idx.i()[k], dim);
  return v;
}

// Calls fn(k, off) for every element k of an index-shaped tensor of `dims`, with `off` the data
// offset of its position with the axis coordinate set to zero. Rows split over the pool when
// `parallel` (the callback must then be safe to run concurrently on distinct k).
template <class F>
void forEachElement(const std::vector<int64_t>& dims, const std::vector<int64_t>& dataStrides, int64_t axis,
                    bool parallel, F&& fn) {
  const size_t r = dims.size();
  const int64_t len = dims[r - 1], rows = len == 0 ? 0 : numelOf(dims) / len;
  const int64_t lastStride = static_cast<int64_t>(r - 1) == axis ? 0 : dataStrides[r - 1];
  auto body = [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      int64_t rem = row, base = 0;
      for (size_t d = r - 1; d-- > 0;) {
        const int64_t coord = rem % dims[d];
        rem /= dims[d];
        if (static_cast<int64_t>(d) != axis) base += coord * dataStrides[d];
      }
      for (int64_t j = 0; j < len; ++j) fn(row * len + j, base + j * lastStride);
    }
  };
  if (parallel)
    parallelFor(rows, len, body);
  else
    body(0, rows);
}

Status opGatherElements(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input 'data'");
  FW_ASSIGN_OR_RETURN(const RtTensor* idx, indexInput(c, 1, "indices"));
  const RtTensor& x = c.input(0);
  if (x.rank() == 0) return c.fail("data must have rank >= 1");
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, 0, static_cast<int64_t>(x.rank())));
  FW_ASSIGN_OR_RETURN(const std::vector<int64_t> ind, elementIndices(c, x, *idx, axis, "indices"));
  RtTensor y = RtTensor::alloc(x.dtype, idx->dims);
  const std::vector<int64_t> st = stridesOf(x.dims);
  const int64_t axStride = st[static_cast<size_t>(axis)];
  if (y.numel() > 0)
    byStore(x.store(), [&](auto tag) {
      using T = decltype(tag);
      const T* src = dataOf<T>(x);
      T* dst = mdataOf<T>(y);
      forEachElement(idx->dims, st, axis, true,
                     [&](int64_t k, int64_t off) { dst[k] = src[off + ind[static_cast<size_t>(k)] * axStride]; });
    });
  c.out[0] = std::move(y);
  return {};
}

enum class Reduce { None, Add, Mul, Max, Min };

Result<Reduce> reductionAttr(const OpContext& c) {
  if (c.opset < 16) return Reduce::None;
  const std::string r = c.attrStr("reduction", "none");
  if (r == "none") return Reduce::None;
  if (r == "add") return Reduce::Add;
  if (r == "mul") return Reduce::Mul;
  if (r == "max") return Reduce::Max;
  if (r == "min") return Reduce::Min;
  return c.fail("attribute 'reduction' must be none, add or mul, got '" + r + "'");
}

template <class T>
inline void applyReduce(T& dst, const T& v, Reduce red) {
  if constexpr (std::is_same_v<T, std::string>) {
    dst = v;
  } else {
    switch (red) {
      case Reduce::None: dst = v; break;
      case Reduce::Add: dst = static_cast<T>(dst + v); break;
      case Reduce::Mul: dst = static_cast<T>(dst * v); break;
      case Reduce::Max: dst = std::max(dst, v); break;
      case Reduce::Min: dst = std::min(dst, v); break;
    }
  }
}

Status opScatterElements(OpContext& c) {
  if (!c.has(0) || !c.has(2)) return c.fail("expects data, indices and updates");
  FW_ASSIGN_OR_RETURN(const RtTensor* idx, indexInput(c, 1, "indices"));
  const RtTensor& x = c.input(0);
  const RtTensor& upd = c.input(2);
  if (x.rank() == 0) return c.fail("data must have rank >= 1");
  if (upd.dims != idx->dims)
    return c.fail("updates shape " + dimsStr(upd.dims) + " differs from indices shape " + dimsStr(idx->dims));
  if (upd.store() != x.store()) return c.fail("updates and data differ in type");
  FW_ASSIGN_OR_RETURN(const Reduce red, reductionAttr(c));
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, 0, static_cast<int64_t>(x.rank())));
  FW_ASSIGN_OR_RETURN(const std::vector<int64_t> ind, elementIndices(c, x, *idx, axis, "indices"));
  RtTensor y = cloneOf(x);
  const std::vector<int64_t> st = stridesOf(x.dims);
  const int64_t axStride = st[static_cast<size_t>(axis)];
  if (upd.numel() > 0)
    byStore(x.store(), [&](auto tag) {
      using T = decltype(tag);
      const T* u = dataOf<T>(upd);
      T* dst = mdataOf<T>(y);
      // Serial: duplicate indices accumulate (reductions) or the last one wins, in index order.
      forEachElement(idx->dims, st, axis, false, [&](int64_t k, int64_t off) {
        applyReduce(dst[off + ind[static_cast<size_t>(k)] * axStride], u[k], red);
      });
    });
  c.out[0] = std::move(y);
  return {};
}

// ---- GatherND / ScatterND -----------------------------------------------------------------------

// Offsets (in elements of data) of the slices addressed by the last axis of `idx` (after `batch`
// leading batch axes shared with data), checked against data's dims.
struct NdAddress {
  std::vector<int64_t> offsets;  // one per index tuple, batch offset included
  int64_t slice = 1;             // elements per addressed slice
  std::vector<int64_t> outDims;  // idx.dims[:-1] + data.dims[batch + k:]
};

Result<NdAddress> ndAddress(const OpContext& c, const RtTensor& data, const RtTensor& idx, int64_t batch) {
  const int64_t r = static_cast<int64_t>(data.rank()), q = static_cast<int64_t>(idx.rank());
  if (q < 1) return c.fail("input 'indices' must have rank >= 1");
  if (batch < 0 || batch >= std::min(r, q))
    return c.fail("attribute 'batch_dims' " + str(batch) + " must be less than both ranks (" + str(r) + ", " + str(q) + ")");
  for (int64_t d = 0; d < batch; ++d)
    if (data.dims[static_cast<size_t>(d)] != idx.dims[static_cast<size_t>(d)])
      return c.fail("batch dims of data " + dimsStr(data.dims) + " and indices " + dimsStr(idx.dims) + " differ");
  const int64_t k = idx.dims[static_cast<size_t>(q - 1)];
  if (k < 1 || k > r - batch)
    return c.fail("last dim of 'indices' (" + str(k) + ") must be in [1, " + str(r - batch) + "] for data " + dimsStr(data.dims));
  NdAddress a;
  a.outDims.assign(idx.dims.begin(), idx.dims.end() - 1);
  for (int64_t d = batch + k; d < r; ++d) {
    a.outDims.push_back(data.dims[static_cast<size_t>(d)]);
    a.slice *= data.dims[static_cast<size_t>(d)];
  }
  const std::vector<int64_t> st = stridesOf(data.dims);
  const int64_t batches = numelOf(std::vector<int64_t>(data.dims.begin(), data.dims.begin() + batch));
  const int64_t tuples = k == 0 ? 0 : idx.numel() / k;
  const int64_t perBatch = batches == 0 ? 0 : tuples / batches;
  const int64_t batchStride = batch == 0 ? 0 : st[static_cast<size_t>(batch - 1)];
  a.offsets.resize(static_cast<size_t>(tuples));
  const int64_t* iv = idx.i();
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = perBatch == 0 ? 0 : (t / perBatch) * batchStride;
    for (int64_t j = 0; j < k; ++j) {
      const size_t d = static_cast<size_t>(batch + j);
      int64_t v = iv[t * k + j];
      if (!normIndex(v, data.dims[d])) return badIndex(c, "indices", t * k + j, iv[t * k + j], data.dims[d]);
      off += v * st[d];
    }
    a.offsets[static_cast<size_t>(t)] = off;
  }
  return a;
}

Status opGatherND(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input 'data'");
  FW_ASSIGN_OR_RETURN(const RtTensor* idx, indexInput(c, 1, "indices"));
  const RtTensor& x = c.input(0);
  FW_ASSIGN_OR_RETURN(const NdAddress a, ndAddress(c, x, *idx, c.attrInt("batch_dims", 0)));
  RtTensor y = RtTensor::alloc(x.dtype, a.outDims);
  const int64_t n = static_cast<int64_t>(a.offsets.size()), s = a.slice;
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = dataOf<T>(x);
    T* dst = mdataOf<T>(y);
    parallelFor(n, s, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) std::copy(src + a.offsets[static_cast<size_t>(t)], src + a.offsets[static_cast<size_t>(t)] + s, dst + t * s);
    });
  });
  c.out[0] = std::move(y);
  return {};
}

Status opScatterND(OpContext& c) {
  if (!c.has(0) || !c.has(2)) return c.fail("expects data, indices and updates");
  FW_ASSIGN_OR_RETURN(const RtTensor* idx, indexInput(c, 1, "indices"));
  const RtTensor& x = c.input(0);
  const RtTensor& upd = c.input(2);
  if (upd.store() != x.store()) return c.fail("updates and data differ in type");
  FW_ASSIGN_OR_RETURN(const Reduce red, reductionAttr(c));
  FW_ASSIGN_OR_RETURN(const NdAddress a, ndAddress(c, x, *idx, 0));
  if (upd.dims != a.outDims)
    return c.fail("updates shape " + dimsStr(upd.dims) + " must be " + dimsStr(a.outDims) + " for data " +
                  dimsStr(x.dims) + " and indices " + dimsStr(idx->dims));
  RtTensor y = cloneOf(x);
  const int64_t s = a.slice;
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* u = dataOf<T>(upd);
    T* dst = mdataOf<T>(y);
    for (size_t t = 0; t < a.offsets.size(); ++t)
      for (int64_t j = 0; j < s; ++j) applyReduce(dst[a.offsets[t] + j], u[static_cast<int64_t>(t) * s + j], red);
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- Compress -----------------------------------------------------------------------------------

Status opCompress(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects input and condition");
  const RtTensor& x0 = c.input(0);
  const RtTensor& cond = c.input(1);
  if (cond.rank() != 1) return c.fail("input 'condition' must be 1-D, got " + dimsStr(cond.dims));
  const bool hasAxis = c.attrs.getInt("axis").has_value();
  const RtTensor x = hasAxis ? x0 : x0.reshaped({x0.numel()});
  if (x.rank() == 0) return c.fail("input must have rank >= 1");
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, 0, static_cast<int64_t>(x.rank())));
  const int64_t dim = x.dims[static_cast<size_t>(axis)];
  std::vector<int64_t> keep;
  for (int64_t k = 0; k < cond.numel(); ++k) {
    if (cond.getD(k) == 0) continue;
    if (k >= dim) return c.fail("input 'condition' selects index " + str(k) + " beyond the axis size " + str(dim));
    keep.push_back(k);
  }
  std::vector<int64_t> od = x.dims;
  od[static_cast<size_t>(axis)] = static_cast<int64_t>(keep.size());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dims[d];
  RtTensor y = RtTensor::alloc(x.dtype, od);
  const int64_t nk = static_cast<int64_t>(keep.size());
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = dataOf<T>(x);
    T* dst = mdataOf<T>(y);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < nk; ++k) {
        const T* s = src + (o * dim + keep[static_cast<size_t>(k)]) * inner;
        std::copy(s, s + inner, dst + (o * nk + k) * inner);
      }
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- Unique -------------------------------------------------------------------------------------

template <class T>
inline int cmpElem(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    // NaN sorts after every number; NaNs compare equal to each other.
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

Status opUnique(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x0 = c.input(0);
  const bool sorted = c.attrInt("sorted", 1) != 0;
  const bool hasAxis = c.attrs.getInt("axis").has_value();
  const RtTensor x = hasAxis ? x0 : x0.reshaped({x0.numel()});
  if (x.rank() == 0) return c.fail("input must have rank >= 1 when 'axis' is given");
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, 0, static_cast<int64_t>(x.rank())));
  const int64_t n = x.dims[static_cast<size_t>(axis)];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dims[d];

  // Slices along the axis: order them (stable, so the first occurrence leads its group), group equal
  // neighbours.
  std::vector<int64_t> order(static_cast<size_t>(n)), groupOf(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> firsts, counts;  // per group, in sorted order
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* v = dataOf<T>(x);
    auto cmpSlice = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const int r = cmpElem(v[(o * n + a) * inner + i], v[(o * n + b) * inner + i]);
          if (r) return r;
        }
      return 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cmpSlice(a, b) < 0; });
    for (size_t k = 0; k < order.size(); ++k) {
      if (k == 0 || cmpSlice(order[k - 1], order[k]) != 0) {
        firsts.push_back(order[k]);
        counts.push_back(0);
      }
      groupOf[static_cast<size_t>(order[k])] = static_cast<int64_t>(firsts.size()) - 1;
      ++counts.back();
    }
  });
  const int64_t g = static_cast<int64_t>(firsts.size());
  // Output position of each group: sorted order, or order of first occurrence.
  std::vector<int64_t> pos(static_cast<size_t>(g));
  std::iota(pos.begin(), pos.end(), 0);
  if (!sorted) {
    std::vector<int64_t> byFirst(static_cast<size_t>(g));
    std::iota(byFirst.begin(), byFirst.end(), 0);
    std::sort(byFirst.begin(), byFirst.end(), [&](int64_t a, int64_t b) { return firsts[static_cast<size_t>(a)] < firsts[static_cast<size_t>(b)]; });
    for (int64_t k = 0; k < g; ++k) pos[static_cast<size_t>(byFirst[static_cast<size_t>(k)])] = k;
  }
  std::vector<int64_t> yd = x.dims;
  yd[static_cast<size_t>(axis)] = g;
  RtTensor y = RtTensor::alloc(x.dtype, yd);
  RtTensor ind = RtTensor::alloc(DType::Int64, {g}), inv = RtTensor::alloc(DType::Int64, {n}),
           cnt = RtTensor::alloc(DType::Int64, {g});
  for (int64_t k = 0; k < g; ++k) {
    const size_t p = static_cast<size_t>(pos[static_cast<size_t>(k)]);
    ind.mi()[p] = firsts[static_cast<size_t>(k)];
    cnt.mi()[p] = counts[static_cast<size_t>(k)];
  }
  for (int64_t k = 0; k < n; ++k) inv.mi()[k] = pos[static_cast<size_t>(groupOf[static_cast<size_t>(k)])];
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = dataOf<T>(x);
    T* dst = mdataOf<T>(y);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < g; ++k) {
        const T* s = src + (o * n + ind.i()[k]) * inner;
        std::copy(s, s + inner, dst + (o * g + k) * inner);
      }
  });
  c.out[0] = std::move(y);
  if (c.out.size() > 1) c.out[1] = std::move(ind);
  if (c.out.size() > 2) c.out[2] = std::move(inv);
  if (c.out.size() > 3) c.out[3] = std::move(cnt);
  return {};
}

// ---- TopK ---------------------------------------------------------------------------------------

Status opTopK(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input 'X'");
  const RtTensor& x = c.input(0);
  if (x.rank() == 0) return c.fail("input 'X' must have rank >= 1");
  if (x.store() != Store::F32 && x.store() != Store::I64) return c.fail("input 'X' must be numeric");
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, -1, static_cast<int64_t>(x.rank())));
  int64_t k = 0;
  if (c.opset < 10) {
    auto ka = c.attrs.getInt("k");
    if (!ka) return c.fail("missing attribute 'k'");
    k = *ka;
  } else {
    if (!c.has(1)) return c.fail("missing input 'K'");
    if (c.input(1).numel() != 1) return c.fail("input 'K' must hold one value, got shape " + dimsStr(c.input(1).dims));
    k = c.input(1).getI(0);
  }
  const int64_t n = x.dims[static_cast<size_t>(axis)];
  if (k < 0 || k > n) return c.fail("k = " + str(k) + " out of range [0, " + str(n) + "] for axis size");
  const bool largest = c.opset < 11 || c.attrInt("largest", 1) != 0;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dims[d];
  std::vector<int64_t> od = x.dims;
  od[static_cast<size_t>(axis)] = k;
  RtTensor vals = RtTensor::alloc(x.dtype, od), idx = RtTensor::alloc(DType::Int64, od);
  // The output is always sorted (allowed for sorted=0); equal values keep the lower index first.
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T>) {
      const T* src = dataOf<T>(x);
      T* vo = mdataOf<T>(vals);
      int64_t* io = idx.mi();
      const int64_t lines = outer * inner;
      const int64_t cost = n * std::max<int64_t>(1, static_cast<int64_t>(std::log2(static_cast<double>(k + 1))));
      parallelFor(lines, cost, [&](int64_t b, int64_t e) {
        std::vector<T> buf(static_cast<size_t>(n));
        std::vector<int64_t> ord(static_cast<size_t>(n));
        for (int64_t line = b; line < e; ++line) {
          const int64_t o = line / inner, i = line % inner;
          const T* s = src + o * n * inner + i;
          for (int64_t j = 0; j < n; ++j) buf[static_cast<size_t>(j)] = s[j * inner];
          std::iota(ord.begin(), ord.end(), 0);
          auto before = [&](int64_t a, int64_t bb) {
            const int r = cmpElem(buf[static_cast<size_t>(a)], buf[static_cast<size_t>(bb)]);
            if (r != 0) return largest ? r > 0 : r < 0;
            return a < bb;
          };
          std::partial_sort(ord.begin(), ord.begin() + k, ord.end(), before);
          const int64_t ob = o * k * inner + i;
          for (int64_t j = 0; j < k; ++j) {
            vo[ob + j * inner] = buf[static_cast<size_t>(ord[static_cast<size_t>(j)])];
            io[ob + j * inner] = ord[static_cast<size_t>(j)];
          }
        }
      });
    }
  });
  c.out[0] = std::move(vals);
  if (c.out.size() > 1) c.out[1] = std::move(idx);
  return {};
}

// ---- NonMaxSuppression --------------------------------------------------------------------------

struct Box {
  float y0, x0, y1, x1, area;
};

inline Box makeBox(const float* b, bool centerPoint) {
  Box r{};
  if (centerPoint) {  // [x_center, y_center, width, height]
    r.x0 = b[0] - b[2] / 2;
    r.x1 = b[0] + b[2] / 2;
    r.y0 = b[1] - b[3] / 2;
    r.y1 = b[1] + b[3] / 2;
  } else {  // [y1, x1, y2, x2], either corner pair
    r.y0 = std::min(b[0], b[2]);
    r.y1 = std::max(b[0], b[2]);
    r.x0 = std::min(b[1], b[3]);
    r.x1 = std::max(b[1], b[3]);
  }
  r.area = (r.x1 - r.x0) * (r.y1 - r.y0);
  return r;
}

inline bool suppresses(const Box& a, const Box& b, float iouThreshold) {
  const float ix0 = std::max(a.x0, b.x0), ix1 = std::min(a.x1, b.x1);
  if (ix1 <= ix0) return false;
  const float iy0 = std::max(a.y0, b.y0), iy1 = std::min(a.y1, b.y1);
  if (iy1 <= iy0) return false;
  if (a.area <= 0 || b.area <= 0) return false;
  const float inter = (ix1 - ix0) * (iy1 - iy0);
  const float uni = a.area + b.area - inter;
  if (uni <= 0) return false;
  return inter / uni > iouThreshold;
}

Status opNonMaxSuppression(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects boxes and scores");
  const RtTensor boxes = asFloat(c.input(0)), scores = asFloat(c.input(1));
  if (boxes.rank() != 3 || boxes.dims[2] != 4) return c.fail("input 'boxes' must be [batch, boxes, 4], got " + dimsStr(boxes.dims));
  if (scores.rank() != 3) return c.fail("input 'scores' must be [batch, classes, boxes], got " + dimsStr(scores.dims));
  const int64_t B = boxes.dims[0], N = boxes.dims[1], C = scores.dims[1];
  if (scores.dims[0] != B || scores.dims[2] != N)
    return c.fail("input 'scores' " + dimsStr(scores.dims) + " does not match boxes " + dimsStr(boxes.dims));
  const int64_t maxOut = c.has(2) && c.input(2).numel() > 0 ? c.input(2).getI(0) : 0;
  const float iouThr = c.has(3) && c.input(3).numel() > 0 ? static_cast<float>(c.input(3).getD(0)) : 0.f;
  const bool hasScoreThr = c.has(4) && c.input(4).numel() > 0;
  const float scoreThr = hasScoreThr ? static_cast<float>(c.input(4).getD(0)) : 0.f;
  if (iouThr < 0 || iouThr > 1) return c.fail("input 'iou_threshold' must be in [0, 1], got " + std::to_string(iouThr));
  const int64_t cpb = c.attrInt("center_point_box", 0);
  if (cpb != 0 && cpb != 1) return c.fail("attribute 'center_point_box' must be 0 or 1");

  std::vector<Box> bx(static_cast<size_t>(B * N));
  for (int64_t k = 0; k < B * N; ++k) bx[static_cast<size_t>(k)] = makeBox(boxes.f() + k * 4, cpb == 1);
  // One selection list per (batch, class), run in parallel and concatenated in order.
  std::vector<std::vector<int64_t>> picked(static_cast<size_t>(B * C));
  if (maxOut > 0)
    parallelFor(B * C, N * 8, [&](int64_t b, int64_t e) {
      std::vector<int64_t> cand;
      std::vector<const Box*> kept;
      for (int64_t bc = b; bc < e; ++bc) {
        const int64_t batch = bc / C;
        const float* sc = scores.f() + bc * N;
        cand.clear();
        for (int64_t j = 0; j < N; ++j)
          if (!hasScoreThr || sc[j] > scoreThr) cand.push_back(j);
        std::stable_sort(cand.begin(), cand.end(), [&](int64_t a, int64_t bb) { return sc[a] > sc[bb]; });
        kept.clear();
        auto& out = picked[static_cast<size_t>(bc)];
        for (int64_t j : cand) {
          if (static_cast<int64_t>(out.size()) >= maxOut) break;
          const Box& cb = bx[static_cast<size_t>(batch * N + j)];
          bool drop = false;
          for (const Box* kb : kept)
            if (suppresses(*kb, cb, iouThr)) {
              drop = true;
              break;
            }
          if (drop) continue;
          kept.push_back(&cb);
          out.push_back(j);
        }
      }
    });
  int64_t total = 0;
  for (const auto& p : picked) total += static_cast<int64_t>(p.size());
  RtTensor y = RtTensor::alloc(DType::Int64, {total, 3});
  int64_t row = 0;
  for (int64_t bc = 0; bc < B * C; ++bc)
    for (int64_t j : picked[static_cast<size_t>(bc)]) {
      y.mi()[row * 3] = bc / C;
      y.mi()[row * 3 + 1] = bc % C;
      y.mi()[row * 3 + 2] = j;
      ++row;
    }
  c.out[0] = std::move(y);
  return {};
}

// ---- RoiAlign / MaxRoiPool ----------------------------------------------------------------------

// One bilinear sample: four corner offsets within a plane and their weights (all zero outside).
struct Sample {
  int64_t o[4];
  float w[4];
};

Sample bilinearSample(float y, float x, int64_t H, int64_t W) {
  Sample s{};
  if (!(y >= -1.f && y <= static_cast<float>(H) && x >= -1.f && x <= static_cast<float>(W))) return s;  // NaN too
  y = std::max(y, 0.f);
  x = std::max(x, 0.f);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= H - 1) {
    y0 = y1 = H - 1;
    y = static_cast<float>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= W - 1) {
    x0 = x1 = W - 1;
    x = static_cast<float>(x0);
  } else {
    x1 = x0 + 1;
  }
  const float ly = y - static_cast<float>(y0), lx = x - static_cast<float>(x0), hy = 1.f - ly, hx = 1.f - lx;
  s.o[0] = y0 * W + x0;
  s.o[1] = y0 * W + x1;
  s.o[2] = y1 * W + x0;
  s.o[3] = y1 * W + x1;
  s.w[0] = hy * hx;
  s.w[1] = hy * lx;
  s.w[2] = ly * hx;
  s.w[3] = ly * lx;
  return s;
}

Result<std::vector<int64_t>> roiBatchIndices(const OpContext& c, size_t k, int64_t rois, int64_t batch) {
  FW_ASSIGN_OR_RETURN(const RtTensor* bi, indexInput(c, k, "batch_indices"));
  if (bi->numel() != rois) return c.fail("input 'batch_indices' has " + str(bi->numel()) + " entries for " + str(rois) + " rois");
  std::vector<int64_t> v(bi->i(), bi->i() + rois);
  for (int64_t r = 0; r < rois; ++r)
    if (v[static_cast<size_t>(r)] < 0 || v[static_cast<size_t>(r)] >= batch)
      return c.fail("input 'batch_indices' has index " + str(v[static_cast<size_t>(r)]) + " at position " + str(r) +
                    ", out of range [0, " + str(batch) + ")");
  return v;
}

Status opRoiAlign(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X, rois and batch_indices");
  const RtTensor x = asFloat(c.input(0)), rois = asFloat(c.input(1));
  if (x.rank() != 4) return c.fail("input 'X' must be 4-D (N, C, H, W), got " + dimsStr(x.dims));
  if (rois.rank() != 2 || rois.dims[1] != 4) return c.fail("input 'rois' must be [num_rois, 4], got " + dimsStr(rois.dims));
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3], R = rois.dims[0];
  FW_ASSIGN_OR_RETURN(const std::vector<int64_t> bidx, roiBatchIndices(c, 2, R, N));
  const std::string mode = c.attrStr("mode", "avg");
  if (mode != "avg" && mode != "max") return c.fail("attribute 'mode' must be avg or max, got '" + mode + "'");
  const std::string ctm = c.attrStr("coordinate_transformation_mode", c.opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (ctm != "half_pixel" && ctm != "output_half_pixel")
    return c.fail("attribute 'coordinate_transformation_mode' must be half_pixel or output_half_pixel, got '" + ctm + "'");
  const bool halfPixel = ctm == "half_pixel";
  const int64_t PH = c.attrInt("output_height", 1), PW = c.attrInt("output_width", 1), ratio = c.attrInt("sampling_ratio", 0);
  const float scale = c.attrFloat("spatial_scale", 1.f);
  if (PH <= 0 || PW <= 0) return c.fail("attributes 'output_height' and 'output_width' must be positive");
  if (ratio < 0 || ratio > 4096) return c.fail("attribute 'sampling_ratio' must be in [0, 4096], got " + str(ratio));
  if (PH * PW > (1 << 26)) return c.fail("output_height x output_width too large");
  for (int64_t k = 0; k < R * 4; ++k)
    if (!std::isfinite(rois.f()[k])) return c.fail("input 'rois' has a non-finite coordinate in row " + str(k / 4));
  // Adaptive sampling (sampling_ratio 0) takes ceil(roi size / output size) samples per bin side; a
  // huge roi must not turn into billions of samples.
  if (ratio == 0)
    for (int64_t r = 0; r < R; ++r) {
      const float* roi = rois.f() + r * 4;
      const double gh = std::ceil(std::fabs(static_cast<double>(roi[3] - roi[1]) * scale) / static_cast<double>(PH));
      const double gw = std::ceil(std::fabs(static_cast<double>(roi[2] - roi[0]) * scale) / static_cast<double>(PW));
      if (gh * gw * static_cast<double>(PH * PW) > static_cast<double>(1 << 28))
        return c.fail("roi " + str(r) + " needs " + std::to_string(gh * gw) + " samples per bin (adaptive sampling_ratio); too many");
    }
  RtTensor y = RtTensor::alloc(x.dtype, {R, C, PH, PW});
  const bool isMax = mode == "max";
  const float off = halfPixel ? 0.5f : 0.f;
  parallelFor(R, C * PH * PW * 16, [&](int64_t rb, int64_t re) {
    std::vector<Sample> samples;
    for (int64_t r = rb; r < re; ++r) {
      const float* roi = rois.f() + r * 4;
      const float sw = roi[0] * scale - off, sh = roi[1] * scale - off;
      float rw = roi[2] * scale - off - sw, rh = roi[3] * scale - off - sh;
      if (!halfPixel) {
        rw = std::max(rw, 1.f);
        rh = std::max(rh, 1.f);
      }
      const float binH = rh / static_cast<float>(PH), binW = rw / static_cast<float>(PW);
      const int64_t gh = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rh / static_cast<float>(PH)));
      const int64_t gw = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rw / static_cast<float>(PW)));
      const int64_t per = std::max<int64_t>(gh, 0) * std::max<int64_t>(gw, 0);
      const float count = static_cast<float>(std::max<int64_t>(per, 1));
      // Samples of every bin, shared by all channels.
      samples.clear();
      for (int64_t ph = 0; ph < PH; ++ph)
        for (int64_t pw = 0; pw < PW; ++pw)
          for (int64_t iy = 0; iy < gh; ++iy) {
            const float yy = sh + static_cast<float>(ph) * binH + (static_cast<float>(iy) + .5f) * binH / static_cast<float>(gh);
            for (int64_t ix = 0; ix < gw; ++ix) {
              const float xx = sw + static_cast<float>(pw) * binW + (static_cast<float>(ix) + .5f) * binW / static_cast<float>(gw);
              samples.push_back(bilinearSample(yy, xx, H, W));
            }
          }
      for (int64_t ch = 0; ch < C; ++ch) {
        const float* plane = x.f() + (bidx[static_cast<size_t>(r)] * C + ch) * H * W;
        float* out = y.mf() + (r * C + ch) * PH * PW;
        for (int64_t bin = 0; bin < PH * PW; ++bin) {
          const Sample* s = samples.data() + bin * per;
          float acc = 0.f;
          for (int64_t k = 0; k < per; ++k) {
            const Sample& p = s[k];
            if (isMax) {
              // As the ONNX reference: the largest weighted corner term.
              const float v = std::max(std::max(p.w[0] * plane[p.o[0]], p.w[1] * plane[p.o[1]]),
                                       std::max(p.w[2] * plane[p.o[2]], p.w[3] * plane[p.o[3]]));
              acc = k == 0 ? v : std::max(acc, v);
            } else {
              acc += p.w[0] * plane[p.o[0]] + p.w[1] * plane[p.o[1]] + p.w[2] * plane[p.o[2]] + p.w[3] * plane[p.o[3]];
            }
          }
          out[bin] = isMax ? acc : acc / count;
        }
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

Status opMaxRoiPool(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X and rois");
  const RtTensor x = asFloat(c.input(0)), rois = asFloat(c.input(1));
  if (x.rank() != 4) return c.fail("input 'X' must be 4-D (N, C, H, W), got " + dimsStr(x.dims));
  if (rois.rank() != 2 || rois.dims[1] != 5)
    return c.fail("input 'rois' must be [num_rois, 5] (batch_id, x1, y1, x2, y2), got " + dimsStr(rois.dims));
  const std::vector<int64_t> pooled = c.attrInts("pooled_shape");
  if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0) return c.fail("attribute 'pooled_shape' must be two positive ints");
  const float scale = c.attrFloat("spatial_scale", 1.f);
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3], R = rois.dims[0];
  const int64_t PH = pooled[0], PW = pooled[1];
  for (int64_t r = 0; r < R; ++r) {
    const float b = rois.f()[r * 5];
    if (!(b >= 0) || b >= static_cast<float>(N) || b != std::floor(b))
      return c.fail("input 'rois' has batch index " + std::to_string(b) + " in row " + str(r) + ", out of range [0, " + str(N) + ")");
    for (int k = 1; k < 5; ++k)
      if (!std::isfinite(rois.f()[r * 5 + k])) return c.fail("input 'rois' has a non-finite coordinate in row " + str(r));
  }
  RtTensor y = RtTensor::alloc(x.dtype, {R, C, PH, PW});
  parallelFor(R * C, PH * PW * 8, [&](int64_t b, int64_t e) {
    for (int64_t rc = b; rc < e; ++rc) {
      const int64_t r = rc / C, ch = rc % C;
      const float* roi = rois.f() + r * 5;
      auto px = [&](float v) {  // scaled, rounded, kept well inside int64
        return static_cast<int64_t>(std::round(std::clamp(v * scale, -1e12f, 1e12f)));
      };
      const int64_t x0 = px(roi[1]), y0 = px(roi[2]), x1 = px(roi[3]), y1 = px(roi[4]);
      const int64_t rh = std::max<int64_t>(y1 - y0 + 1, 1), rw = std::max<int64_t>(x1 - x0 + 1, 1);
      const float bh = static_cast<float>(rh) / static_cast<float>(PH), bw = static_cast<float>(rw) / static_cast<float>(PW);
      const float* plane = x.f() + (static_cast<int64_t>(roi[0]) * C + ch) * H * W;
      float* out = y.mf() + rc * PH * PW;
      for (int64_t ph = 0; ph < PH; ++ph) {
        const int64_t hs = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<float>(ph) * bh)) + y0, 0, H);
        const int64_t he = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<float>(ph + 1) * bh)) + y0, 0, H);
        for (int64_t pw = 0; pw < PW; ++pw) {
          const int64_t ws = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<float>(pw) * bw)) + x0, 0, W);
          const int64_t we = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<float>(pw + 1) * bw)) + x0, 0, W);
          float m = 0.f;
          if (he > hs && we > ws) {
            m = -std::numeric_limits<float>::infinity();
            for (int64_t h = hs; h < he; ++h)
              for (int64_t w = ws; w < we; ++w) m = std::max(m, plane[h * W + w]);
          }
          out[ph * PW + pw] = m;
        }
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- ReverseSequence ----------------------------------------------------------------------------

Status opReverseSequence(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  FW_ASSIGN_OR_RETURN(const RtTensor* lens, indexInput(c, 1, "sequence_lens"));
  const RtTensor& x = c.input(0);
  if (x.rank() < 2) return c.fail("input must have rank >= 2, got " + dimsStr(x.dims));
  const int64_t ba = c.attrInt("batch_axis", 1), ta = c.attrInt("time_axis", 0);
  if (!((ba == 0 && ta == 1) || (ba == 1 && ta == 0)))
    return c.fail("attributes 'batch_axis' and 'time_axis' must be 0 and 1 in some order, got " + str(ba) + ", " + str(ta));
  const int64_t B = x.dims[static_cast<size_t>(ba)], T = x.dims[static_cast<size_t>(ta)];
  if (lens->rank() != 1 || lens->numel() != B)
    return c.fail("input 'sequence_lens' must be [" + str(B) + "], got " + dimsStr(lens->dims));
  for (int64_t b = 0; b < B; ++b)
    if (lens->i()[b] < 0 || lens->i()[b] > T)
      return c.fail("input 'sequence_lens' has " + str(lens->i()[b]) + " at position " + str(b) + ", out of range [0, " + str(T) + "]");
  const int64_t inner = numelOf(std::vector<int64_t>(x.dims.begin() + 2, x.dims.end()));
  const int64_t bStride = (ba == 0 ? T : 1) * inner, tStride = (ta == 0 ? B : 1) * inner;
  RtTensor y = RtTensor::alloc(x.dtype, x.dims);
  byStore(x.store(), [&](auto tag) {
    using T_ = decltype(tag);
    const T_* src = dataOf<T_>(x);
    T_* dst = mdataOf<T_>(y);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t len = lens->i()[b];
      for (int64_t t = 0; t < T; ++t) {
        const int64_t st = t < len ? len - 1 - t : t;
        std::copy(src + b * bStride + st * tStride, src + b * bStride + st * tStride + inner, dst + b * bStride + t * tStride);
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- MaxUnpool ----------------------------------------------------------------------------------

Status opMaxUnpool(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input 'X'");
  FW_ASSIGN_OR_RETURN(const RtTensor* I, indexInput(c, 1, "I"));
  const RtTensor& x = c.input(0);
  if (x.rank() < 3) return c.fail("input 'X' must be (N, C, D1, ...), got " + dimsStr(x.dims));
  if (I->dims != x.dims) return c.fail("input 'I' shape " + dimsStr(I->dims) + " differs from X " + dimsStr(x.dims));
  const size_t sp = x.rank() - 2;
  const std::vector<int64_t> kernel = c.attrInts("kernel_shape");
  std::vector<int64_t> strides = c.attrInts("strides"), pads = c.attrInts("pads");
  if (kernel.size() != sp) return c.fail("attribute 'kernel_shape' must have " + str(static_cast<int64_t>(sp)) + " entries");
  if (strides.empty()) strides.assign(sp, 1);
  if (pads.empty()) pads.assign(2 * sp, 0);
  if (strides.size() != sp || pads.size() != 2 * sp) return c.fail("attributes 'strides'/'pads' do not match the spatial rank");
  for (size_t d = 0; d < sp; ++d)
    if (kernel[d] <= 0 || strides[d] <= 0 || kernel[d] > (1 << 30) || strides[d] > (1 << 30) || pads[d] < 0 || pads[d + sp] < 0)
      return c.fail("attributes 'kernel_shape'/'strides' must be positive and 'pads' non-negative");
  std::vector<int64_t> inferred = {x.dims[0], x.dims[1]};
  for (size_t d = 0; d < sp; ++d) {
    const int64_t v = (x.dims[d + 2] - 1) * strides[d] - pads[d] - pads[d + sp] + kernel[d];
    if (v < 0) return c.fail("attributes give a negative output size on spatial axis " + str(static_cast<int64_t>(d)));
    inferred.push_back(v);
  }
  std::vector<int64_t> od = inferred;
  if (c.has(2)) {
    od = c.input(2).toInts();
    if (od.size() != x.rank()) return c.fail("input 'output_shape' must have " + str(static_cast<int64_t>(x.rank())) + " entries, got " + dimsStr(od));
    for (int64_t v : od)
      if (v < 0) return c.fail("input 'output_shape' has a negative dim: " + dimsStr(od));
    if (od[0] != x.dims[0] || od[1] != x.dims[1]) return c.fail("input 'output_shape' " + dimsStr(od) + " differs from X in N or C");
  }
  // Indices are linear over the unpadded (inferred) shape; an explicit output_shape pads at the end.
  const int64_t total = numelOf(inferred);
  const std::vector<int64_t> ost = stridesOf(od);
  std::vector<int64_t> where(static_cast<size_t>(x.numel()));
  for (int64_t k = 0; k < x.numel(); ++k) {
    int64_t v = I->i()[k];
    if (v < 0 || v >= total) return c.fail("input 'I' has index " + str(v) + " at position " + str(k) + ", out of range [0, " + str(total) + ")");
    int64_t off = 0;
    for (size_t d = x.rank(); d-- > 0;) {
      const int64_t coord = v % inferred[d];
      v /= inferred[d];
      if (coord >= od[d]) return c.fail("input 'I' index " + str(I->i()[k]) + " falls outside output_shape " + dimsStr(od));
      off += coord * ost[d];
    }
    where[static_cast<size_t>(k)] = off;
  }
  RtTensor y = RtTensor::zeros(x.dtype, od);
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T>) {
      const T* src = dataOf<T>(x);
      T* dst = mdataOf<T>(y);
      for (int64_t k = 0; k < x.numel(); ++k) dst[where[static_cast<size_t>(k)]] = src[k];
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- DepthToSpace / SpaceToDepth ----------------------------------------------------------------

Result<int64_t> blocksizeAttr(const OpContext& c, const RtTensor& x) {
  if (x.rank() != 4) return c.fail("input must be 4-D (N, C, H, W), got " + dimsStr(x.dims));
  auto b = c.attrs.getInt("blocksize");
  if (!b) return c.fail("missing attribute 'blocksize'");
  if (*b <= 0 || *b > (1 << 20)) return c.fail("attribute 'blocksize' must be in [1, 2^20], got " + str(*b));
  return *b;
}

Status opDepthToSpace(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  FW_ASSIGN_OR_RETURN(const int64_t bs, blocksizeAttr(c, x));
  const std::string mode = c.opset >= 11 ? c.attrStr("mode", "DCR") : "DCR";
  if (mode != "DCR" && mode != "CRD") return c.fail("attribute 'mode' must be DCR or CRD, got '" + mode + "'");
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3];
  if (C % (bs * bs)) return c.fail("channels " + str(C) + " not divisible by blocksize^2 = " + str(bs * bs));
  const int64_t Co = C / (bs * bs);
  RtTensor y = RtTensor::alloc(x.dtype, {N, Co, H * bs, W * bs});
  const bool dcr = mode == "DCR";
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = dataOf<T>(x);
    T* dst = mdataOf<T>(y);
    parallelFor(N * Co * H, W * bs * bs, [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        const int64_t h = row % H, c2 = (row / H) % Co, n = row / (H * Co);
        for (int64_t i = 0; i < bs; ++i) {
          T* out = dst + ((n * Co + c2) * H * bs + h * bs + i) * W * bs;
          for (int64_t j = 0; j < bs; ++j) {
            const int64_t ch = dcr ? (i * bs + j) * Co + c2 : c2 * bs * bs + i * bs + j;
            const T* in = src + ((n * C + ch) * H + h) * W;
            for (int64_t w = 0; w < W; ++w) out[w * bs + j] = in[w];
          }
        }
      }
    });
  });
  c.out[0] = std::move(y);
  return {};
}

Status opSpaceToDepth(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  FW_ASSIGN_OR_RETURN(const int64_t bs, blocksizeAttr(c, x));
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3];
  if (H % bs || W % bs) return c.fail("spatial dims " + dimsStr(x.dims) + " not divisible by blocksize " + str(bs));
  const int64_t Ho = H / bs, Wo = W / bs;
  RtTensor y = RtTensor::alloc(x.dtype, {N, C * bs * bs, Ho, Wo});
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = dataOf<T>(x);
    T* dst = mdataOf<T>(y);
    parallelFor(N * C * Ho, W * bs, [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        const int64_t h = row % Ho, ch = (row / Ho) % C, n = row / (Ho * C);
        for (int64_t i = 0; i < bs; ++i) {
          const T* in = src + ((n * C + ch) * H + h * bs + i) * W;
          for (int64_t j = 0; j < bs; ++j) {
            T* out = dst + ((n * C * bs * bs + (i * bs + j) * C + ch) * Ho + h) * Wo;
            for (int64_t w = 0; w < Wo; ++w) out[w] = in[w * bs + j];
          }
        }
      }
    });
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- GridSample ---------------------------------------------------------------------------------

enum class Pad { Zeros, Border, Reflection };

// Grid coordinate in [-1, 1] to a pixel coordinate on an axis of `size`.
inline float unnormalize(float v, int64_t size, bool alignCorners) {
  const float s = static_cast<float>(size);
  return alignCorners ? (v + 1.f) / 2.f * (s - 1.f) : ((v + 1.f) * s - 1.f) / 2.f;
}

inline float reflect(float v, float twiceLow, float twiceHigh) {
  if (twiceLow == twiceHigh) return 0.f;
  const float lo = twiceLow / 2.f, span = (twiceHigh - twiceLow) / 2.f;
  v = std::fabs(v - lo);
  const float extra = std::fmod(v, span);
  const int64_t flips = static_cast<int64_t>(std::floor(v / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

// Keeps a pixel coordinate castable to int64: non-finite values and (except under reflection, which
// folds any finite value back) values far outside the image move to just outside it, which reads the
// same zeros / border values.
inline float safeCoord(float v, int64_t size, Pad pad) {
  const float lo = -4.f, hi = static_cast<float>(size) + 4.f;
  if (!std::isfinite(v)) return std::isnan(v) || v < 0 ? lo : hi;
  return pad == Pad::Reflection ? v : std::clamp(v, lo, hi);
}

// Applies the padding mode to a pixel coordinate (zeros: unchanged, reads outside give 0).
inline float padCoord(float v, int64_t size, Pad pad, bool alignCorners) {
  const float hi = static_cast<float>(size - 1);
  if (pad == Pad::Border) return std::clamp(v, 0.f, hi);
  if (pad == Pad::Reflection) {
    v = alignCorners ? reflect(v, 0.f, 2.f * hi) : reflect(v, -1.f, 2.f * static_cast<float>(size) - 1.f);
    return std::clamp(v, 0.f, hi);
  }
  return v;
}

inline float pixelAt(const float* plane, int64_t y, int64_t x, int64_t H, int64_t W) {
  return (y >= 0 && y < H && x >= 0 && x < W) ? plane[y * W + x] : 0.f;
}

inline void cubicWeights(float t, float w[4]) {
  const float A = -0.75f;
  auto near = [&](float d) { return ((A + 2.f) * d - (A + 3.f)) * d * d + 1.f; };
  auto far = [&](float d) { return ((A * d - 5.f * A) * d + 8.f * A) * d - 4.f * A; };
  w[0] = far(t + 1.f);
  w[1] = near(t);
  w[2] = near(1.f - t);
  w[3] = far(2.f - t);
}

Status opGridSample(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X and grid");
  const RtTensor x = asFloat(c.input(0)), grid = asFloat(c.input(1));
  if (x.rank() != 4) return c.fail("input 'X' must be 4-D (N, C, H, W), got " + dimsStr(x.dims));
  if (grid.rank() != 4 || grid.dims[3] != 2 || grid.dims[0] != x.dims[0])
    return c.fail("input 'grid' must be [N, H_out, W_out, 2] with N = " + str(x.dims[0]) + ", got " + dimsStr(grid.dims));
  const std::string mode = c.attrStr("mode", "bilinear"), padS = c.attrStr("padding_mode", "zeros");
  const int m = mode == "bilinear" || mode == "linear" ? 0 : mode == "nearest" ? 1 : mode == "bicubic" || mode == "cubic" ? 2 : -1;
  if (m < 0) return c.fail("attribute 'mode' must be bilinear, nearest or bicubic, got '" + mode + "'");
  Pad pad;
  if (padS == "zeros") pad = Pad::Zeros;
  else if (padS == "border") pad = Pad::Border;
  else if (padS == "reflection") pad = Pad::Reflection;
  else return c.fail("attribute 'padding_mode' must be zeros, border or reflection, got '" + padS + "'");
  const bool ac = c.attrInt("align_corners", 0) != 0;
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3], Ho = grid.dims[1], Wo = grid.dims[2];
  RtTensor y = RtTensor::alloc(x.dtype, {N, C, Ho, Wo});
  parallelFor(N * Ho, Wo * C * (m == 2 ? 16 : 4), [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const int64_t n = row / Ho, ho = row % Ho;
      const float* xn = x.f() + n * C * H * W;
      float* yn = y.mf() + n * C * Ho * Wo + ho * Wo;
      for (int64_t wo = 0; wo < Wo; ++wo) {
        const float* g = grid.f() + (row * Wo + wo) * 2;
        float ix = safeCoord(unnormalize(g[0], W, ac), W, pad), iy = safeCoord(unnormalize(g[1], H, ac), H, pad);
        if (m == 2) {  // bicubic: padding applies to each of the 16 taps
          const float fx = std::floor(ix), fy = std::floor(iy);
          float wx[4], wy[4];
          cubicWeights(ix - fx, wx);
          cubicWeights(iy - fy, wy);
          int64_t tx[4], ty[4];
          for (int k = 0; k < 4; ++k) {
            tx[k] = static_cast<int64_t>(padCoord(fx - 1.f + static_cast<float>(k), W, pad, ac));
            ty[k] = static_cast<int64_t>(padCoord(fy - 1.f + static_cast<float>(k), H, pad, ac));
          }
          for (int64_t ch = 0; ch < C; ++ch) {
            const float* p = xn + ch * H * W;
            float acc = 0.f;
            for (int r = 0; r < 4; ++r) {
              float line = 0.f;
              for (int k = 0; k < 4; ++k) line += wx[k] * pixelAt(p, ty[r], tx[k], H, W);
              acc += wy[r] * line;
            }
            yn[ch * Ho * Wo + wo] = acc;
          }
          continue;
        }
        ix = padCoord(ix, W, pad, ac);
        iy = padCoord(iy, H, pad, ac);
        if (m == 1) {
          const int64_t nx = static_cast<int64_t>(std::nearbyint(ix)), ny = static_cast<int64_t>(std::nearbyint(iy));
          for (int64_t ch = 0; ch < C; ++ch) yn[ch * Ho * Wo + wo] = pixelAt(xn + ch * H * W, ny, nx, H, W);
          continue;
        }
        const float fx = std::floor(ix), fy = std::floor(iy);
        const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
        const float lx = ix - fx, ly = iy - fy;
        for (int64_t ch = 0; ch < C; ++ch) {
          const float* p = xn + ch * H * W;
          yn[ch * Ho * Wo + wo] = (1.f - ly) * ((1.f - lx) * pixelAt(p, y0, x0, H, W) + lx * pixelAt(p, y0, x0 + 1, H, W)) +
                                  ly * ((1.f - lx) * pixelAt(p, y0 + 1, x0, H, W) + lx * pixelAt(p, y0 + 1, x0 + 1, H, W));
        }
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

}  // namespace

std::vector<OpEntry> indexOps() {
  return {
      {"GatherElements", opGatherElements},
      {"ScatterElements", opScatterElements},
      {"Scatter", opScatterElements},
      {"GatherND", opGatherND},
      {"ScatterND", opScatterND},
      {"Compress", opCompress},
      {"Unique", opUnique},
      {"TopK", opTopK},
      {"NonMaxSuppression", opNonMaxSuppression},
      {"RoiAlign", opRoiAlign},
      {"MaxRoiPool", opMaxRoiPool},
      {"ReverseSequence", opReverseSequence},
      {"MaxUnpool", opMaxUnpool},
      {"DepthToSpace", opDepthToSpace},
      {"SpaceToDepth", opSpaceToDepth},
      {"GridSample", opGridSample},
  };
}

}  // namespace fw::exec
