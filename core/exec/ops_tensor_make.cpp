// Tensors made from shapes, attributes and ranges: Shape, NonZero, Size, Constant, ConstantOfShape, Range.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

Status opShape(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const auto& d = c.input(0).dims;
  const int64_t r = static_cast<int64_t>(d.size());
  int64_t s = c.attrInt("start", 0), e = c.attrInt("end", r);
  if (s < 0) s += r;
  if (e < 0) e += r;
  s = std::clamp<int64_t>(s, 0, r);
  e = std::clamp<int64_t>(e, 0, r);
  c.out[0] = RtTensor::vecI(e > s ? std::vector<int64_t>(d.begin() + s, d.begin() + e) : std::vector<int64_t>{});
  return {};
}

// NonZero: indices of the non-zero elements, [rank, count], in row-major order.
Status opNonZero(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  const int64_t n = x.numel();
  const auto rank = static_cast<int64_t>(x.rank());
  // The flat positions of the non-zero elements, a loop for each store, then each position's coordinates
  // carried from one to the next (an odometer over the last axes). Through getD and a division per axis
  // and hit, a [8, 64, 32, 32] mask of half ones took 12 ms (1 thread, session 37).
  std::vector<int64_t> hits;
  auto scan = [&](const auto* v) {  // without a branch: a mask's ones and zeros mispredict
    hits.resize(static_cast<size_t>(n));
    size_t found = 0;
    for (int64_t k = 0; k < n; ++k) {
      hits[found] = k;
      found += v[k] != 0 ? 1 : 0;
    }
    hits.resize(found);
  };
  if (x.store() == Store::F32)
    scan(x.f());
  else if (x.store() == Store::I64)
    scan(x.i());
  else if (x.store() == Store::U8)
    scan(x.b());
  else
    for (int64_t k = 0; k < n; ++k)
      if (x.getD(k) != 0) hits.push_back(k);
  const auto count = static_cast<int64_t>(hits.size());
  RtTensor y = RtTensor::alloc(DType::Int64, {std::max<int64_t>(rank, 1), count});
  if (rank == 0) {
    std::fill(y.mi(), y.mi() + count, int64_t{0});
  } else {
    std::vector<int64_t> coord(static_cast<size_t>(rank), 0);
    int64_t at = 0;  // the flat position `coord` names
    for (int64_t j = 0; j < count; ++j) {
      for (int64_t step = hits[static_cast<size_t>(j)] - at; step > 0; --step)
        for (int64_t a = rank - 1; a >= 0; --a) {
          if (++coord[static_cast<size_t>(a)] < x.dims[static_cast<size_t>(a)]) break;
          coord[static_cast<size_t>(a)] = 0;
        }
      at = hits[static_cast<size_t>(j)];
      for (int64_t a = 0; a < rank; ++a) y.mi()[a * count + j] = coord[static_cast<size_t>(a)];
    }
  }
  c.out[0] = std::move(y);
  return {};
}

Status opSize(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  c.out[0] = RtTensor::scalarI(c.input(0).numel());
  return {};
}

Status opConstant(OpContext& c) {
  if (const Tensor* t = c.attrs.getTensor("value")) {
    c.out[0] = RtTensor::fromModelTensor(*t);
  } else if (auto f = c.attrs.getFloat("value_float")) {
    c.out[0] = RtTensor::scalarF(*f);
  } else if (auto fs = c.attrs.getFloats("value_floats")) {
    RtTensor y = RtTensor::alloc(DType::Float32, {static_cast<int64_t>(fs->size())});
    std::copy(fs->begin(), fs->end(), y.mf());
    c.out[0] = std::move(y);
  } else if (auto i = c.attrs.getInt("value_int")) {
    c.out[0] = RtTensor::scalarI(*i);
  } else if (auto is = c.attrs.getInts("value_ints")) {
    c.out[0] = RtTensor::vecI(*is);
  } else if (auto s = c.attrs.getString("value_string")) {
    RtTensor y = RtTensor::alloc(DType::String, {});
    y.ms()[0] = *s;
    c.out[0] = std::move(y);
  } else {
    return c.fail("no supported value attribute (sparse_value is not supported)");
  }
  return {};
}

Status opConstantOfShape(OpContext& c) {
  if (!c.has(0)) return c.fail("missing shape");
  const auto shape = c.input(0).toInts();
  RtTensor v = RtTensor::scalarF(0.f);
  if (const Tensor* t = c.attrs.getTensor("value")) v = RtTensor::fromModelTensor(*t);
  RtTensor y = RtTensor::alloc(v.dtype, shape);
  if (v.numel() != 1) return c.fail("value must hold one element, has " + std::to_string(v.numel()));
  fillElems(v, 0, y, 0, y.numel());
  c.out[0] = std::move(y);
  return {};
}

Status opRange(OpContext& c) {
  if (!c.has(0) || !c.has(1) || !c.has(2)) return c.fail("expects start, limit, delta");
  const RtTensor& s = c.input(0);
  const double start = s.getD(0), limit = c.input(1).getD(0), delta = c.input(2).getD(0);
  if (delta == 0) return c.fail("delta must not be 0");
  const int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  RtTensor y = RtTensor::alloc(s.dtype, {n});
  for (int64_t k = 0; k < n; ++k) {
    if (y.store() == Store::F32) y.mf()[k] = static_cast<float>(start + static_cast<double>(k) * delta);
    else y.mi()[k] = s.getI(0) + k * c.input(2).getI(0);
  }
  c.out[0] = std::move(y);
  return {};
}

}  // namespace

std::vector<OpEntry> tensorMakeOps() {
  return {
      {"Shape", opShape},
      {"NonZero", opNonZero},
      {"Size", opSize},
      {"Constant", opConstant},
      {"ConstantOfShape", opConstantOfShape},
      {"Range", opRange},
  };
}

}  // namespace fw::exec
