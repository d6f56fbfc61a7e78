// Upsample, the opset 1-10 predecessor of Resize.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

// ---------------------------------------------------------------------------------------------------
// Upsample: output dim = floor(input dim * scale); source coordinate x / scale (asymmetric).
// Nearest takes floor(x / scale); linear interpolates between floor and floor + 1, clamped to the
// last element (the edge is repeated). Opset 1: height_scale / width_scale on NCHW, mode
// nearest/bilinear; opset 7: scales attribute; opset 9 and 10: scales input.

template <class T>
void gatherNearest(const T* x, T* y, const std::vector<int64_t>& inDims, const std::vector<int64_t>& outDims,
                   const std::vector<std::vector<int64_t>>& src) {
  const size_t r = outDims.size();
  const auto istr = stridesOf(inDims);
  const int64_t n = numelOf(outDims);
  const int64_t last = r ? outDims[r - 1] : 1;
  parallelFor(n / std::max<int64_t>(1, last), last * 2, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      int64_t rem = row, base = 0;
      for (size_t d = r - 1; d-- > 0;) {
        base += src[d][static_cast<size_t>(rem % outDims[d])] * istr[d];
        rem /= outDims[d];
      }
      T* yr = y + row * last;
      const std::vector<int64_t>& sl = src[r - 1];
      for (int64_t k = 0; k < last; ++k) yr[k] = x[base + sl[static_cast<size_t>(k)]];
    }
  });
}

// One axis of linear interpolation: [outer, in, inner] -> [outer, out, inner].
RtTensor linearAxis(const RtTensor& cur, size_t axis, int64_t out, double scale) {
  std::vector<int64_t> od = cur.dims;
  const int64_t in = od[axis];
  od[axis] = out;
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= od[d];
  for (size_t d = axis + 1; d < od.size(); ++d) inner *= od[d];
  std::vector<int64_t> i0(static_cast<size_t>(out)), i1(static_cast<size_t>(out));
  std::vector<float> w1(static_cast<size_t>(out));
  for (int64_t x = 0; x < out; ++x) {
    const double src = std::min(static_cast<double>(x) / scale, static_cast<double>(in - 1));
    const int64_t lo = std::min<int64_t>(static_cast<int64_t>(std::floor(src)), in - 1);
    i0[static_cast<size_t>(x)] = lo;
    i1[static_cast<size_t>(x)] = std::min(lo + 1, in - 1);
    w1[static_cast<size_t>(x)] = static_cast<float>(src - static_cast<double>(lo));
  }
  RtTensor y = RtTensor::alloc(cur.dtype, od);
  parallelFor(outer * out, inner * 2, [&](int64_t b, int64_t e) {
    for (int64_t ox = b; ox < e; ++ox) {
      const int64_t o = ox / out, x = ox % out;
      const float* a = cur.f() + (o * in + i0[static_cast<size_t>(x)]) * inner;
      const float* c1 = cur.f() + (o * in + i1[static_cast<size_t>(x)]) * inner;
      const float w = w1[static_cast<size_t>(x)];
      float* yp = y.mf() + ox * inner;
      for (int64_t k = 0; k < inner; ++k) yp[k] = a[k] + w * (c1[k] - a[k]);
    }
  });
  return y;
}

Status opUpsample(OpContext& c) {
  if (!c.has(0)) return c.fail("missing X");
  const RtTensor& X = c.input(0);
  const size_t r = X.rank();
  std::vector<double> scales;
  std::string mode = c.attrStr("mode", "nearest");
  if (c.opset < 7) {
    const auto hs = c.attrs.getFloat("height_scale"), ws = c.attrs.getFloat("width_scale");
    if (!hs || !ws) return c.fail("opset 1 needs the height_scale and width_scale attributes");
    if (r != 4) return c.fail("opset 1 upsamples NCHW input, got X " + dimsStr(X.dims));
    scales = {1.0, 1.0, *hs, *ws};
    if (mode == "bilinear") mode = "linear";
  } else if (c.opset < 9) {
    const auto s = c.attrs.getFloats("scales");
    if (!s) return c.fail("opset 7 needs the scales attribute");
    for (float v : *s) scales.push_back(v);
  } else {
    if (!c.has(1)) return c.fail("missing scales input");
    for (float v : c.input(1).toFloats()) scales.push_back(v);
  }
  if (scales.size() != r) return c.fail("scales must have one value per axis of X " + dimsStr(X.dims) + ", got " + std::to_string(scales.size()));
  if (mode != "nearest" && mode != "linear") return c.fail("mode must be 'nearest' or 'linear', got '" + mode + "'");
  std::vector<int64_t> od(r);
  for (size_t d = 0; d < r; ++d) {
    const double o = std::floor(static_cast<double>(X.dims[d]) * scales[d]);
    if (!(scales[d] > 0) || !(o < 9.0e18)) return c.fail("invalid scale " + std::to_string(scales[d]) + " for axis " + std::to_string(d));
    od[d] = static_cast<int64_t>(o);
    if (od[d] > 0 && X.dims[d] == 0) return c.fail("cannot upsample the empty axis " + std::to_string(d));
  }
  if (mode == "linear") {
    if (X.store() != Store::F32) return c.fail("linear mode needs a floating-point X");
    RtTensor cur = X;
    for (size_t d = 0; d < r; ++d)
      if (od[d] != X.dims[d] || scales[d] != 1.0) cur = linearAxis(cur, d, od[d], scales[d]);
    c.out[0] = std::move(cur);
    return {};
  }
  if (r == 0) {
    c.out[0] = X;
    return {};
  }
  std::vector<std::vector<int64_t>> src(r);
  for (size_t d = 0; d < r; ++d) {
    src[d].resize(static_cast<size_t>(od[d]));
    for (int64_t x = 0; x < od[d]; ++x)
      src[d][static_cast<size_t>(x)] =
          std::min<int64_t>(static_cast<int64_t>(std::floor(static_cast<double>(x) / scales[d])), X.dims[d] - 1);
  }
  RtTensor Y = RtTensor::alloc(X.dtype, od);
  if (Y.numel() > 0) {
    switch (X.store()) {
      case Store::F32: gatherNearest(X.f(), Y.mf(), X.dims, od, src); break;
      case Store::I64: gatherNearest(X.i(), Y.mi(), X.dims, od, src); break;
      case Store::U8: gatherNearest(X.b(), Y.mb(), X.dims, od, src); break;
      default: return c.fail("unsupported type " + std::string(dtypeName(X.dtype)));
    }
  }
  c.out[0] = std::move(Y);
  return {};
}

}  // namespace

std::vector<OpEntry> upsampleOps() {
  return {
      {"Upsample", opUpsample},
  };
}

}  // namespace fw::exec
