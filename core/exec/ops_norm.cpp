// Normalisations and Lp pooling: LRN, InstanceNormalization, MeanVarianceNormalization, LpNormalization,
// LpPool, GlobalLpPool.
//
// Direct implementations, not oneDNN primitives:
// - LRN: oneDNN's across-channel LRN sums channels c-(n-1)/2 .. c+(n+1)/2-1 (integer division), which
//   for an even `size` is one channel short of ONNX's window c-floor((size-1)/2) .. c+ceil((size-1)/2);
//   a direct loop follows ONNX for every size and rank and is memory-bound anyway.
// - InstanceNormalization: oneDNN has no instance norm; it would take a batch normalization over a
//   [1, N*C, spatial] view plus a separate per-channel scale/shift, for an op that is one memory-bound
//   pass per plane. The direct version computes mean and variance in double (two passes) per plane.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/ConvGeometry.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

// ---------------------------------------------------------------------------------------------------
// Normalisations

Status opLrn(OpContext& c) {
  if (!c.has(0)) return c.fail("missing X");
  if (c.input(0).store() != Store::F32) return c.fail("X must be floating-point");
  const RtTensor X = asFloat(c.input(0));
  if (X.rank() < 2) return c.fail("X must have rank >= 2 ([N, C, ...]), got " + dimsStr(X.dims));
  const auto size = c.attrs.getInt("size");
  if (!size || *size <= 0) return c.fail("attribute size is required and must be positive");
  const double alpha = c.attrFloat("alpha", 1e-4f), beta = c.attrFloat("beta", 0.75f), bias = c.attrFloat("bias", 1.f);
  const int64_t N = X.dims[0], C = X.dims[1], inner = X.numel() / std::max<int64_t>(1, N * C);
  const int64_t before = (*size - 1) / 2, after = *size - 1 - before;  // floor / ceil of (size-1)/2
  const double aOverN = alpha / static_cast<double>(*size);
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, X.dims);
  parallelFor(N * C, inner * (*size + 2), [&](int64_t b, int64_t e) {
    std::vector<double> sq(static_cast<size_t>(inner));
    for (int64_t p = b; p < e; ++p) {
      const int64_t n = p / C, ch = p % C;
      const int64_t lo = std::max<int64_t>(0, ch - before), hi = std::min(C - 1, ch + after);
      std::fill(sq.begin(), sq.end(), 0.0);
      for (int64_t j = lo; j <= hi; ++j) {
        const float* xp = X.f() + (n * C + j) * inner;
        for (int64_t k = 0; k < inner; ++k) sq[static_cast<size_t>(k)] += static_cast<double>(xp[k]) * xp[k];
      }
      const float* xp = X.f() + p * inner;
      float* yp = Y.mf() + p * inner;
      for (int64_t k = 0; k < inner; ++k)
        yp[k] = static_cast<float>(xp[k] / std::pow(bias + aOverN * sq[static_cast<size_t>(k)], beta));
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

Status opInstanceNorm(OpContext& c) {
  if (!c.has(0) || !c.has(1) || !c.has(2)) return c.fail("expects input, scale and B");
  if (c.input(0).store() != Store::F32) return c.fail("input must be floating-point");
  const RtTensor X = asFloat(c.input(0)), S = asFloat(c.input(1)), B = asFloat(c.input(2));
  if (X.rank() < 3) return c.fail("input must have rank >= 3 ([N, C, D1, ...]), got " + dimsStr(X.dims));
  const int64_t N = X.dims[0], C = X.dims[1], inner = X.numel() / std::max<int64_t>(1, N * C);
  if (S.rank() != 1 || S.dims[0] != C) return c.fail("scale must be a vector of " + std::to_string(C) + " values, got " + dimsStr(S.dims));
  if (B.rank() != 1 || B.dims[0] != C) return c.fail("B must be a vector of " + std::to_string(C) + " values, got " + dimsStr(B.dims));
  const double eps = c.attrFloat("epsilon", 1e-5f);
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, X.dims);
  parallelFor(N * C, inner * 3, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const float* xp = X.f() + p * inner;
      float* yp = Y.mf() + p * inner;
      double sum = 0, sq = 0;
      for (int64_t k = 0; k < inner; ++k) sum += xp[k];
      const double mean = sum / static_cast<double>(inner);
      for (int64_t k = 0; k < inner; ++k) sq += (xp[k] - mean) * (xp[k] - mean);
      const double inv = 1.0 / std::sqrt(sq / static_cast<double>(inner) + eps);
      const double sc = S.f()[p % C] * inv, sh = B.f()[p % C];
      for (int64_t k = 0; k < inner; ++k) yp[k] = static_cast<float>((xp[k] - mean) * sc + sh);
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

// Offsets (into a contiguous tensor of `dims`) of every position of the dims where `sel` is set,
// counted from position 0 of those dims; the other dims stay at 0.
std::vector<int64_t> offsetsOver(const std::vector<int64_t>& dims, const std::vector<char>& sel) {
  const auto st = stridesOf(dims);
  std::vector<int64_t> sd, ss;
  for (size_t d = 0; d < dims.size(); ++d)
    if (sel[d]) {
      sd.push_back(dims[d]);
      ss.push_back(st[d]);
    }
  const int64_t n = numelOf(sd);
  std::vector<int64_t> off(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, o = 0;
    for (size_t d = sd.size(); d-- > 0;) {
      o += (rem % sd[d]) * ss[d];
      rem /= sd[d];
    }
    off[static_cast<size_t>(k)] = o;
  }
  return off;
}

// (X - E[X]) / (sqrt(Var[X]) + 1e-9) over `axes`, the ONNX function body's formula (the variance is
// computed in two passes in double, so it never goes negative).
Status opMvn(OpContext& c) {
  if (!c.has(0)) return c.fail("missing X");
  if (c.input(0).store() != Store::F32) return c.fail("X must be floating-point");
  const RtTensor X = asFloat(c.input(0));
  const int64_t r = static_cast<int64_t>(X.rank());
  const std::vector<int64_t> axes = c.attrs.getInts("axes").value_or(std::vector<int64_t>{0, 2, 3});
  std::vector<char> red(X.rank(), 0);
  for (int64_t a : axes) {
    const int64_t n = normAxis(a, r);
    if (n < 0 || n >= r) return c.fail("axes value " + std::to_string(a) + " out of range for X " + dimsStr(X.dims));
    if (red[static_cast<size_t>(n)]) return c.fail("axes value " + std::to_string(a) + " is repeated");
    red[static_cast<size_t>(n)] = 1;
  }
  std::vector<char> kept(red.size());
  for (size_t d = 0; d < red.size(); ++d) kept[d] = !red[d];
  const auto roff = offsetsOver(X.dims, red), koff = offsetsOver(X.dims, kept);
  const int64_t nr = static_cast<int64_t>(roff.size());
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, X.dims);
  parallelFor(static_cast<int64_t>(koff.size()), nr * 3, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      const int64_t base = koff[static_cast<size_t>(o)];
      double sum = 0, sq = 0;
      for (int64_t k = 0; k < nr; ++k) sum += X.f()[base + roff[static_cast<size_t>(k)]];
      const double mean = sum / static_cast<double>(nr);
      for (int64_t k = 0; k < nr; ++k) {
        const double v = X.f()[base + roff[static_cast<size_t>(k)]] - mean;
        sq += v * v;
      }
      const double den = std::sqrt(sq / static_cast<double>(nr)) + 1e-9;
      for (int64_t k = 0; k < nr; ++k) {
        const int64_t at = base + roff[static_cast<size_t>(k)];
        Y.mf()[at] = static_cast<float>((X.f()[at] - mean) / den);
      }
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

Status opLpNormalization(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  if (c.input(0).store() != Store::F32) return c.fail("input must be floating-point");
  const RtTensor X = asFloat(c.input(0));
  const int64_t r = static_cast<int64_t>(X.rank());
  const int64_t axis = normAxis(c.attrInt("axis", -1), r);
  if (r == 0 || axis < 0 || axis >= r) return c.fail("axis " + std::to_string(c.attrInt("axis", -1)) + " out of range for input " + dimsStr(X.dims));
  const int64_t p = c.attrInt("p", 2);
  if (p != 1 && p != 2) return c.fail("p must be 1 or 2, got " + std::to_string(p));
  int64_t outer = 1, inner = 1;
  const int64_t len = X.dims[static_cast<size_t>(axis)];
  for (int64_t d = 0; d < axis; ++d) outer *= X.dims[static_cast<size_t>(d)];
  for (int64_t d = axis + 1; d < r; ++d) inner *= X.dims[static_cast<size_t>(d)];
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, X.dims);
  parallelFor(outer * inner, len * 2, [&](int64_t b, int64_t e) {
    for (int64_t oi = b; oi < e; ++oi) {
      const int64_t o = oi / inner, i = oi % inner;
      const float* xp = X.f() + o * len * inner + i;
      float* yp = Y.mf() + o * len * inner + i;
      double acc = 0;
      for (int64_t k = 0; k < len; ++k) acc += p == 1 ? std::fabs(xp[k * inner]) : double(xp[k * inner]) * xp[k * inner];
      const double norm = p == 1 ? acc : std::sqrt(acc);
      // A zero norm means every value is zero: they stay zero.
      for (int64_t k = 0; k < len; ++k) yp[k * inner] = norm == 0 ? xp[k * inner] : static_cast<float>(xp[k * inner] / norm);
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

// ---------------------------------------------------------------------------------------------------
// Lp pooling

// p: an int attribute since opset 2, a float before (read whichever is stored).
Status lpExponent(const OpContext& c, double& p) {
  if (auto i = c.attrs.getInt("p")) p = static_cast<double>(*i);
  else p = c.attrs.getFloat("p").value_or(2.f);
  if (!(p > 0) || !std::isfinite(p)) return c.fail("p must be a positive number, got " + std::to_string(p));
  return {};
}

inline double lpAdd(double v, double p) {
  const double a = std::fabs(v);
  return p == 1 ? a : p == 2 ? a * a : std::pow(a, p);
}
inline double lpRoot(double s, double p) { return p == 1 ? s : p == 2 ? std::sqrt(s) : std::pow(s, 1.0 / p); }

Status opLpPool(OpContext& c) {
  if (!c.has(0)) return c.fail("missing X");
  if (c.input(0).store() != Store::F32) return c.fail("X must be floating-point");
  const RtTensor X = asFloat(c.input(0));
  if (X.rank() < 3) return c.fail("X must have rank >= 3, got " + dimsStr(X.dims));
  double p = 2;
  FW_TRY_STATUS(lpExponent(c, p));
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end());
  auto geo = poolGeometry(c, spatial);
  if (!geo.ok()) return geo.error();
  const ConvGeometry& g = *geo;
  std::vector<int64_t> ydims{X.dims[0], X.dims[1]};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  const size_t r = spatial.size();
  const int64_t planes = X.dims[0] * X.dims[1], ip = g.inSize(), op = g.outSize(), kp = g.kernelSize();
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, ydims);
  // Padding contributes |0|^p = 0, so only positions inside the image are summed.
  parallelFor(planes, op * kp, [&](int64_t b, int64_t e) {
    std::vector<int64_t> base(r);
    for (int64_t pl = b; pl < e; ++pl) {
      const float* xp = X.f() + pl * ip;
      for (int64_t o = 0; o < op; ++o) {
        for (size_t d = 0; d < r; ++d) base[d] = ((o / ostr[d]) % g.out[d]) * g.strides[d] - g.padsBegin[d];
        double acc = 0;
        for (int64_t k = 0; k < kp; ++k) {
          int64_t off = 0;
          bool inside = true;
          for (size_t d = 0; d < r && inside; ++d) {
            const int64_t id = base[d] + ((k / kstr[d]) % g.kernel[d]) * g.dilations[d];
            inside = id >= 0 && id < g.in[d];
            off += id * istr[d];
          }
          if (inside) acc += lpAdd(xp[off], p);
        }
        Y.mf()[pl * op + o] = static_cast<float>(lpRoot(acc, p));
      }
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

Status opGlobalLpPool(OpContext& c) {
  if (!c.has(0)) return c.fail("missing X");
  if (c.input(0).store() != Store::F32) return c.fail("X must be floating-point");
  const RtTensor X = asFloat(c.input(0));
  if (X.rank() < 3) return c.fail("X must have rank >= 3, got " + dimsStr(X.dims));
  double p = 2;
  FW_TRY_STATUS(lpExponent(c, p));
  std::vector<int64_t> ydims(X.rank(), 1);
  ydims[0] = X.dims[0];
  ydims[1] = X.dims[1];
  const int64_t planes = X.dims[0] * X.dims[1], inner = X.numel() / std::max<int64_t>(1, planes);
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, ydims);
  parallelFor(planes, inner, [&](int64_t b, int64_t e) {
    for (int64_t pl = b; pl < e; ++pl) {
      double acc = 0;
      for (int64_t k = 0; k < inner; ++k) acc += lpAdd(X.f()[pl * inner + k], p);
      Y.mf()[pl] = static_cast<float>(lpRoot(acc, p));
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

}  // namespace

std::vector<OpEntry> normOps() {
  return {
      {"LRN", opLrn},
      {"InstanceNormalization", opInstanceNorm},
      {"MeanVarianceNormalization", opMvn},
      {"LpNormalization", opLpNormalization},
      {"LpPool", opLpPool},
      {"GlobalLpPool", opGlobalLpPool},
  };
}

}  // namespace fw::exec
