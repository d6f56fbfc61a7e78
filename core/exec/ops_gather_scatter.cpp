// Gathering and scattering by index: GatherElements, ScatterElements, Scatter, GatherND, ScatterND, Compress.
//
// Every index read from a tensor is range-checked before use (a clean error naming the input and the
// bad value); the checks run in a serial pre-pass so the copy loops can run in parallel unchecked, except
// GatherElements's, which checks each index in its parallel copy and names a bad one afterwards.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "core/exec/IndexUtil.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

using namespace indexing;

// A fresh tensor with the values of x (outputs never alias their inputs' storage when modified).
RtTensor cloneOf(const RtTensor& x) {
  RtTensor y = RtTensor::alloc(x.dtype, x.dims);
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    std::copy(dataOf<T>(x), dataOf<T>(x) + x.numel(), mdataOf<T>(y));
  });
  return y;
}

// Normalises a possibly negative index against `dim`; false when out of [-dim, dim).
inline bool normIndex(int64_t& v, int64_t dim) {
  if (v < 0) v += dim;
  return v >= 0 && v < dim;
}

Error badIndex(const OpContext& c, const char* input, int64_t at, int64_t v, int64_t dim) {
  return c.fail("input '" + std::string(input) + "' has index " + str(v) + " at position " + str(at) +
                ", out of range [" + str(-dim) + ", " + str(dim) + ")");
}

// ---- GatherElements / ScatterElements / Scatter ------------------------------------------------

// For an indices tensor `idx` indexing `data` along `axis`: the same rank, and no larger off the axis.
Status checkIndexShape(const OpContext& c, const RtTensor& data, const RtTensor& idx, int64_t axis,
                       const char* name) {
  if (idx.rank() != data.rank())
    return c.fail("input '" + std::string(name) + "' has rank " + str(static_cast<int64_t>(idx.rank())) +
                  ", data has rank " + str(static_cast<int64_t>(data.rank())));
  for (size_t d = 0; d < data.rank(); ++d)
    if (static_cast<int64_t>(d) != axis && idx.dims[d] > data.dims[d])
      return c.fail("input '" + std::string(name) + "' shape " + dimsStr(idx.dims) + " exceeds data shape " +
                    dimsStr(data.dims) + " off the axis");
  return {};
}

// Checks the shapes (checkIndexShape) and the index values, and returns the normalised indices.
Result<std::vector<int64_t>> elementIndices(const OpContext& c, const RtTensor& data, const RtTensor& idx,
                                            int64_t axis, const char* name) {
  FW_TRY_STATUS(checkIndexShape(c, data, idx, axis, name));
  const int64_t dim = data.dims[static_cast<size_t>(axis)];
  std::vector<int64_t> v(idx.i(), idx.i() + idx.numel());
  for (size_t k = 0; k < v.size(); ++k)
    if (!normIndex(v[k], dim)) return badIndex(c, name, static_cast<int64_t>(k), idx.i()[k], dim);
  return v;
}

// Calls fn(k0, base) for every row (the last axis) of an index-shaped tensor of `dims`: k0 its first element,
// base the data offset of that element's position with the axis coordinate set to zero. Rows split over the
// pool when `parallel` (the callback must then be safe to run concurrently on distinct rows). Each block of
// rows finds its first row's coordinates by division and steps on from there, not a division a coordinate a
// row.
template <class F>
void forEachRow(const std::vector<int64_t>& dims, const std::vector<int64_t>& dataStrides, int64_t axis,
                bool parallel, F&& fn) {
  const size_t r = dims.size();
  const int64_t len = dims[r - 1], rows = len == 0 ? 0 : numelOf(dims) / len;
  std::vector<int64_t> step(r);  // a row coordinate's data stride, none along the axis
  for (size_t d = 0; d < r; ++d) step[d] = static_cast<int64_t>(d) == axis ? 0 : dataStrides[d];
  auto body = [&](int64_t b, int64_t e) {
    if (b >= e) return;
    std::vector<int64_t> coord(r);
    int64_t base = 0;
    for (int64_t rem = b, d = static_cast<int64_t>(r) - 1; d-- > 0;) {
      coord[static_cast<size_t>(d)] = rem % dims[static_cast<size_t>(d)];
      rem /= dims[static_cast<size_t>(d)];
      base += coord[static_cast<size_t>(d)] * step[static_cast<size_t>(d)];
    }
    for (int64_t row = b; row < e; ++row) {
      fn(row * len, base);
      for (size_t d = r - 1; d-- > 0;) {
        base += step[d];
        if (++coord[d] < dims[d]) break;
        base -= dims[d] * step[d];
        coord[d] = 0;
      }
    }
  };
  if (parallel)
    parallelFor(rows, len, body);
  else
    body(0, rows);
}

// GatherElements checks each index as it reads it, in the parallel copy (a bad one stops nothing but is
// found again, serially, for the message), where a serial pass checked and copied every index first:
// the 16 picks a row of [4, 32, 64, 16] from [4, 32, 64, 64] took 255 us that way, with a division a
// coordinate a row, and 180 us now (1 thread, session 38).
Status opGatherElements(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input 'data'");
  FW_ASSIGN_OR_RETURN(const RtTensor* idx, indexInput(c, 1, "indices"));
  const RtTensor& x = c.input(0);
  if (x.rank() == 0) return c.fail("data must have rank >= 1");
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, 0, static_cast<int64_t>(x.rank())));
  FW_TRY_STATUS(checkIndexShape(c, x, *idx, axis, "indices"));
  RtTensor y = RtTensor::alloc(x.dtype, idx->dims);
  const std::vector<int64_t> st = stridesOf(x.dims);
  const int64_t axStride = st[static_cast<size_t>(axis)];
  const int64_t dim = x.dims[static_cast<size_t>(axis)];
  const int64_t* ind = idx->i();
  std::atomic<bool> bad{false};
  const size_t r = x.rank();
  const int64_t len = idx->dims[r - 1];
  const int64_t across = static_cast<int64_t>(r - 1) == axis ? 0 : st[r - 1];  // a row's step in the data
  if (y.numel() > 0)
    byStore(x.store(), [&](auto tag) {
      using T = decltype(tag);
      const T* const src = dataOf<T>(x);
      T* const dst = mdataOf<T>(y);
      // Each row's pointers and sizes in locals: read through the closure, they were loaded again for every
      // element, and the picks from memory waited on them (session 38).
      forEachRow(idx->dims, st, axis, true, [&](int64_t k0, int64_t base) {
        const int64_t* const ip = ind + k0;
        T* const op = dst + k0;
        const T* const sp = src + base;
        const int64_t n = len, d = dim, along = axStride, step = across;
        bool wrong = false;
        for (int64_t j = 0; j < n; ++j) {
          int64_t v = ip[j];
          v += v < 0 ? d : 0;
          const bool out = static_cast<uint64_t>(v) >= static_cast<uint64_t>(d);
          wrong |= out;
          op[j] = sp[(out ? 0 : v) * along + j * step];
        }
        if (wrong) bad.store(true, std::memory_order_relaxed);
      });
    });
  if (bad.load()) {
    auto checked = elementIndices(c, x, *idx, axis, "indices");
    if (!checked.ok()) return checked.error();
    return c.fail("internal: an index out of range in the copy was not found again");
  }
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

// One row of a ScatterElements: the index checked and normalised as it is read, the reduction chosen by the
// caller (a switch on it an element took most of the loop's time). False at an index out of range (the row
// stops there; the caller finds the index again for the message).
template <Reduce red, class T>
bool scatterRow(T* dst, const T* u, const int64_t* ip, int64_t n, int64_t dim, int64_t along, int64_t step) {
  for (int64_t j = 0; j < n; ++j) {
    int64_t v = ip[j];
    v += v < 0 ? dim : 0;
    if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(dim)) return false;
    applyReduce(dst[v * along + j * step], u[j], red);
  }
  return true;
}

// Serial in index order: duplicate indices accumulate (reductions) or the last one wins. The indices are
// read in place, row by row (session 47: a copy of them normalised, then a call an element with a switch on
// the reduction, took 7.0-7.8 ms for a scatter-add of [16384, 64] onto [2048, 64] from an expanded index;
// 2.2 ms this way, old and new alternating, 3 rounds, the node alone).
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
  FW_TRY_STATUS(checkIndexShape(c, x, *idx, axis, "indices"));
  RtTensor y = cloneOf(x);
  const std::vector<int64_t> st = stridesOf(x.dims);
  const size_t r = x.rank();
  const int64_t along = st[static_cast<size_t>(axis)], dim = x.dims[static_cast<size_t>(axis)];
  const int64_t len = idx->dims[r - 1];
  const int64_t step = static_cast<int64_t>(r - 1) == axis ? 0 : st[r - 1];  // a row's step in the data
  const int64_t* const ind = idx->i();
  bool ok = true;
  if (upd.numel() > 0)
    byStore(x.store(), [&](auto tag) {
      using T = decltype(tag);
      const T* const u = dataOf<T>(upd);
      T* const dst = mdataOf<T>(y);
      auto rows = [&](auto row) {
        forEachRow(idx->dims, st, axis, false, [&](int64_t k0, int64_t base) {
          if (ok) ok = row(dst + base, u + k0, ind + k0, len, dim, along, step);
        });
      };
      switch (red) {
        case Reduce::None:
          rows(scatterRow<Reduce::None, T>);
          break;
        case Reduce::Add:
          rows(scatterRow<Reduce::Add, T>);
          break;
        case Reduce::Mul:
          rows(scatterRow<Reduce::Mul, T>);
          break;
        case Reduce::Max:
          rows(scatterRow<Reduce::Max, T>);
          break;
        case Reduce::Min:
          rows(scatterRow<Reduce::Min, T>);
          break;
      }
    });
  if (!ok) {
    auto checked = elementIndices(c, x, *idx, axis, "indices");
    if (!checked.ok()) return checked.error();
    return c.fail("internal: an index out of range in the scatter was not found again");
  }
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

}  // namespace

std::vector<OpEntry> gatherScatterOps() {
  return {
      {"GatherElements", opGatherElements},
      {"ScatterElements", opScatterElements},
      {"Scatter", opScatterElements},
      {"GatherND", opGatherND},
      {"ScatterND", opScatterND},
      {"Compress", opCompress},
  };
}

}  // namespace fw::exec
