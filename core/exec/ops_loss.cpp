// Losses, dropout, normalisations, Lp pooling, Upsample and the integer convolutions:
// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss, Dropout, LRN, InstanceNormalization,
// MeanVarianceNormalization, LpNormalization, LpPool, GlobalLpPool, Upsample, ConvInteger, MatMulInteger.
//
// All are direct implementations, not oneDNN primitives:
// - LRN: oneDNN's across-channel LRN sums channels c-(n-1)/2 .. c+(n+1)/2-1 (integer division), which
//   for an even `size` is one channel short of ONNX's window c-floor((size-1)/2) .. c+ceil((size-1)/2);
//   a direct loop follows ONNX for every size and rank and is memory-bound anyway.
// - InstanceNormalization: oneDNN has no instance norm; it would take a batch normalization over a
//   [1, N*C, spatial] view plus a separate per-channel scale/shift, for an op that is one memory-bound
//   pass per plane. The direct version computes mean and variance in double (two passes) per plane.
// - ConvInteger / MatMulInteger: oneDNN's int8 convolution wants u8 x s8 with a zero point only on the
//   source, while ONNX allows u8/s8 on both sides and per-channel weight zero points; these ops are
//   rare in practice, so an exact int32-accumulating loop (im2col + row products) is used.
//
// Dropout: inference (training_mode absent/false, every opset < 12 form, or ratio 0) copies the input
// and reports an all-true mask. With training_mode true and ratio > 0 (opset 12+) it is random but
// seeded: the generator is the 32-bit Mersenne Twister (std::mt19937) seeded with the `seed` attribute
// (its low 32 bits), or with the fixed default seed 0 when the attribute is absent, so every run gives
// the same mask. Uniform draws use 53 bits from two 32-bit outputs ((a>>5)*2^26 + (b>>6)) / 2^53, which
// is numpy's legacy RandomState(seed).uniform(0, 1, shape); an element is kept when its draw >= ratio
// and scaled by 1/(1-ratio). That makes the ONNX reference generator's masks reproducible.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/exec/ConvGeometry.h"
#include "core/exec/Kernel.h"

namespace fw::exec {
namespace {

// ---------------------------------------------------------------------------------------------------
// NegativeLogLikelihoodLoss / SoftmaxCrossEntropyLoss

enum class Reduction { None, Sum, Mean };

Status parseReduction(const OpContext& c, Reduction& r) {
  const std::string s = c.attrStr("reduction", "mean");
  if (s == "none") r = Reduction::None;
  else if (s == "sum") r = Reduction::Sum;
  else if (s == "mean") r = Reduction::Mean;
  else return c.fail("reduction must be 'none', 'sum' or 'mean', got '" + s + "'");
  return {};
}

// Shape of a loss input [N, C, d1..dk] against its target [N, d1..dk] and optional weight [C]:
// N, C and D = d1*..*dk.
struct LossShape {
  int64_t N = 0, C = 0, D = 1;
};

Status lossShape(const OpContext& c, const RtTensor& x, const RtTensor& target, const RtTensor* weight,
                 const char* xName, LossShape& s) {
  if (x.rank() < 2) return c.fail(std::string(xName) + " must have rank >= 2 ([N, C, ...]), got " + dimsStr(x.dims));
  if (target.store() != Store::I64) return c.fail("target must be an integer tensor");
  bool match = target.rank() + 1 == x.rank() && target.dims[0] == x.dims[0];
  for (size_t d = 1; match && d < target.rank(); ++d) match = target.dims[d] == x.dims[d + 1];
  if (!match)
    return c.fail("target " + dimsStr(target.dims) + " must be " + xName + " " + dimsStr(x.dims) +
                  " without its class dim 1");
  s.N = x.dims[0];
  s.C = x.dims[1];
  s.D = 1;
  for (size_t d = 2; d < x.rank(); ++d) s.D *= x.dims[d];
  if (weight && (weight->rank() != 1 || weight->dims[0] != s.C))
    return c.fail("weight must be a vector of the " + std::to_string(s.C) + " classes, got " + dimsStr(weight->dims));
  return {};
}

// The loss of NegativeLogLikelihoodLoss over log-probabilities `lp` laid out [N, C, D]:
// loss[n, d] = -lp[n, target[n, d], d] * weight[target[n, d]], 0 where target == ignore_index;
// 'mean' divides the sum by the sum of the weights used (by the element count without weight and
// ignore_index), as the ONNX definition does.
Status nllLoss(OpContext& c, const float* lp, const RtTensor& target, const RtTensor* weight, const LossShape& s,
               DType outType, RtTensor& out) {
  Reduction red{};
  FW_TRY_STATUS(parseReduction(c, red));
  const auto ii = c.attrs.getInt("ignore_index");
  const int64_t nd = s.N * s.D;
  const RtTensor w = weight ? asFloat(*weight) : RtTensor();
  RtTensor none;
  if (red == Reduction::None) none = RtTensor::alloc(outType, target.dims);
  double sum = 0, wsum = 0;
  for (int64_t k = 0; k < nd; ++k) {
    const int64_t t = target.i()[k];
    double loss = 0, wt = 0;
    if (!(ii && t == *ii)) {
      if (t < 0 || t >= s.C)
        return c.fail("target value " + std::to_string(t) + " at flat index " + std::to_string(k) +
                      " is outside the classes [0, " + std::to_string(s.C) + ")" +
                      (ii ? " and is not ignore_index " + std::to_string(*ii) : std::string()));
      const int64_t n = k / s.D, d = k % s.D;
      wt = weight ? static_cast<double>(w.f()[t]) : 1.0;
      loss = -static_cast<double>(lp[(n * s.C + t) * s.D + d]) * wt;
    }
    if (red == Reduction::None) none.mf()[k] = static_cast<float>(loss);
    sum += loss;
    wsum += wt;
  }
  if (red == Reduction::None) {
    out = std::move(none);
    return {};
  }
  double v = sum;
  if (red == Reduction::Mean) v = (weight || ii) ? sum / wsum : sum / static_cast<double>(nd);
  out = RtTensor::alloc(outType, {});
  out.mf()[0] = static_cast<float>(v);
  return {};
}

Status opNllLoss(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects input and target");
  const RtTensor x = asFloat(c.input(0));
  const RtTensor& target = c.input(1);
  const RtTensor* weight = c.has(2) ? &c.input(2) : nullptr;
  if (c.input(0).store() != Store::F32) return c.fail("input must be floating-point");
  LossShape s;
  FW_TRY_STATUS(lossShape(c, x, target, weight, "input", s));
  return nllLoss(c, x.f(), target, weight, s, c.input(0).dtype, c.out[0]);
}

Status opSoftmaxCrossEntropyLoss(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects scores and labels");
  if (c.input(0).store() != Store::F32) return c.fail("scores must be floating-point");
  const RtTensor x = asFloat(c.input(0));
  const RtTensor& target = c.input(1);
  const RtTensor* weight = c.has(2) ? &c.input(2) : nullptr;
  LossShape s;
  FW_TRY_STATUS(lossShape(c, x, target, weight, "scores", s));
  // log_softmax over the class dim.
  RtTensor lp = RtTensor::alloc(c.input(0).dtype, x.dims);
  const int64_t C = s.C, D = s.D;
  parallelFor(s.N * D, C * 4, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      const int64_t n = k / D, d = k % D;
      const float* px = x.f() + n * C * D + d;
      float* py = lp.mf() + n * C * D + d;
      float mx = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < C; ++j) mx = std::max(mx, px[j * D]);
      double se = 0;
      for (int64_t j = 0; j < C; ++j) se += std::exp(static_cast<double>(px[j * D]) - mx);
      const double ls = std::log(se);
      for (int64_t j = 0; j < C; ++j) py[j * D] = static_cast<float>(static_cast<double>(px[j * D]) - mx - ls);
    }
  });
  FW_TRY_STATUS(nllLoss(c, lp.f(), target, weight, s, c.input(0).dtype, c.out[0]));
  if (c.wants(1)) c.out[1] = std::move(lp);
  return {};
}

// ---------------------------------------------------------------------------------------------------
// Dropout (see the top of the file for the random mode)

constexpr int64_t kDropoutDefaultSeed = 0;

Status opDropout(OpContext& c) {
  if (!c.has(0)) return c.fail("missing data");
  const RtTensor& X = c.input(0);
  if (X.store() != Store::F32) return c.fail("data must be floating-point");
  double ratio = 0.5;
  bool training = false;
  if (c.opset >= 12) {
    if (c.has(1)) {
      if (c.input(1).numel() != 1) return c.fail("ratio must be a scalar, got " + dimsStr(c.input(1).dims));
      ratio = static_cast<double>(static_cast<float>(c.input(1).getD(0)));
    }
    if (c.has(2)) {
      if (c.input(2).numel() != 1) return c.fail("training_mode must be a scalar, got " + dimsStr(c.input(2).dims));
      training = c.input(2).getI(0) != 0;
    }
  } else {
    // Opsets 1-11 (ratio attribute; is_test in 1 and 6): the executor runs inference, so these forms
    // are a copy whatever is_test says (models of those opsets were exported with is_test = 0).
    ratio = c.attrFloat("ratio", 0.5f);
  }
  // Opset 10 made the mask bool; before it the mask has the data's type.
  const DType maskType = c.opset >= 10 ? DType::Bool : X.dtype;
  auto fillMask = [&](const std::vector<uint8_t>* keep) {
    if (!c.wants(1)) return;
    RtTensor M = RtTensor::alloc(maskType, X.dims);
    const int64_t n = X.numel();
    if (maskType == DType::Bool) {
      for (int64_t k = 0; k < n; ++k) M.mb()[k] = keep ? (*keep)[static_cast<size_t>(k)] : 1;
    } else {
      for (int64_t k = 0; k < n; ++k) M.mf()[k] = keep ? static_cast<float>((*keep)[static_cast<size_t>(k)]) : 1.f;
    }
    c.out[1] = std::move(M);
  };
  if (!training || ratio == 0) {
    c.out[0] = X;
    fillMask(nullptr);
    return {};
  }
  if (!(ratio > 0 && ratio < 1)) return c.fail("ratio must be in [0, 1) in training mode, got " + std::to_string(ratio));
  const int64_t seed = c.attrInt("seed", kDropoutDefaultSeed);
  std::mt19937 gen(static_cast<uint32_t>(static_cast<uint64_t>(seed) & 0xffffffffu));
  const int64_t n = X.numel();
  std::vector<uint8_t> keep(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const uint32_t a = static_cast<uint32_t>(gen()) >> 5, b = static_cast<uint32_t>(gen()) >> 6;
    const double u = (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
    keep[static_cast<size_t>(k)] = u >= ratio ? 1 : 0;
  }
  const float scale = 1.f / (1.f - static_cast<float>(ratio));
  RtTensor Y = RtTensor::alloc(X.dtype, X.dims);
  for (int64_t k = 0; k < n; ++k) Y.mf()[k] = (keep[static_cast<size_t>(k)] ? 1.f : 0.f) * X.f()[k] * scale;
  c.out[0] = std::move(Y);
  fillMask(&keep);
  return {};
}

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

// ---------------------------------------------------------------------------------------------------
// ConvInteger / MatMulInteger: int32 results of (x - x_zero_point) * (w - w_zero_point), exact;
// the accumulator wraps like an int32 one would.

inline int64_t wrapInt32(int64_t v) { return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)))); }

Status zeroPoints(const OpContext& c, size_t k, const char* name, int64_t count, const char* perWhat,
                  std::vector<int64_t>& zp) {
  zp.assign(static_cast<size_t>(std::max<int64_t>(count, 0)), 0);
  if (!c.has(k)) return {};
  const RtTensor& z = c.input(k);
  if (z.store() != Store::I64) return c.fail(std::string(name) + " must be an integer tensor");
  if (z.numel() == 1) {
    std::fill(zp.begin(), zp.end(), z.i()[0]);
    return {};
  }
  if (perWhat && z.rank() == 1 && z.numel() == count) {
    std::copy(z.i(), z.i() + count, zp.begin());
    return {};
  }
  return c.fail(std::string(name) + " must be a scalar" + (perWhat ? std::string(" or one value per ") + perWhat + " (" + std::to_string(count) + ")" : std::string()) +
                ", got " + dimsStr(z.dims));
}

Status opConvInteger(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects x and w");
  const RtTensor& X = c.input(0);
  const RtTensor& W = c.input(1);
  if (X.store() != Store::I64 || W.store() != Store::I64) return c.fail("x and w must be 8-bit integer tensors");
  if (X.rank() < 3 || W.rank() != X.rank())
    return c.fail("x " + dimsStr(X.dims) + " and w " + dimsStr(W.dims) + " must have the same rank >= 3");
  const int64_t group = c.attrInt("group", 1);
  const int64_t N = X.dims[0], C = X.dims[1], M = W.dims[0];
  if (group <= 0 || C % group || M % group || W.dims[1] != C / group)
    return c.fail("channel mismatch: x has " + std::to_string(C) + " channels, w " + dimsStr(W.dims) + ", group " + std::to_string(group));
  std::vector<int64_t> xzp, wzp;
  FW_TRY_STATUS(zeroPoints(c, 2, "x_zero_point", 1, nullptr, xzp));
  FW_TRY_STATUS(zeroPoints(c, 3, "w_zero_point", M, "output channel", wzp));
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end()), kernel(W.dims.begin() + 2, W.dims.end());
  auto geo = convGeometry(c, spatial, kernel, false);
  if (!geo.ok()) return geo.error();
  const ConvGeometry& g = *geo;
  std::vector<int64_t> ydims{N, M};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  RtTensor Y = RtTensor::alloc(DType::Int32, ydims);
  const int64_t Cg = C / group, Mg = M / group, kp = g.kernelSize(), op = g.outSize(), ip = g.inSize(), K = Cg * kp;
  const size_t r = g.in.size();
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  // Input offset of each (kernel position, output position); -1 where the window reads padding.
  std::vector<int64_t> srcOff(static_cast<size_t>(kp * op));
  for (int64_t kk = 0; kk < kp; ++kk)
    for (int64_t o = 0; o < op; ++o) {
      int64_t off = 0;
      for (size_t d = 0; d < r && off >= 0; ++d) {
        const int64_t id = ((o / ostr[d]) % g.out[d]) * g.strides[d] + ((kk / kstr[d]) % g.kernel[d]) * g.dilations[d] - g.padsBegin[d];
        off = (id < 0 || id >= g.in[d]) ? -1 : off + id * istr[d];
      }
      srcOff[static_cast<size_t>(kk * op + o)] = off;
    }
  // Padding is the zero point, i.e. 0 after subtracting it.
  std::vector<int64_t> col(static_cast<size_t>(K * op));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t gr = 0; gr < group; ++gr) {
      const int64_t* xg = X.i() + (n * C + gr * Cg) * ip;
      parallelFor(K, op, [&](int64_t b, int64_t e) {
        for (int64_t k = b; k < e; ++k) {
          const int64_t ci = k / kp, kk = k % kp;
          const int64_t* so = srcOff.data() + kk * op;
          int64_t* dst = col.data() + k * op;
          for (int64_t o = 0; o < op; ++o) dst[o] = so[o] < 0 ? 0 : xg[ci * ip + so[o]] - xzp[0];
        }
      });
      parallelFor(Mg, K * op, [&](int64_t b, int64_t e) {
        std::vector<int64_t> acc(static_cast<size_t>(op));
        for (int64_t mg = b; mg < e; ++mg) {
          const int64_t m = gr * Mg + mg;
          std::fill(acc.begin(), acc.end(), 0);
          const int64_t* wr = W.i() + m * K;
          for (int64_t k = 0; k < K; ++k) {
            const int64_t wv = wr[k] - wzp[static_cast<size_t>(m)];
            if (wv == 0) continue;
            const int64_t* cr = col.data() + k * op;
            for (int64_t o = 0; o < op; ++o) acc[static_cast<size_t>(o)] += wv * cr[o];
          }
          int64_t* yr = Y.mi() + (n * M + m) * op;
          for (int64_t o = 0; o < op; ++o) yr[o] = wrapInt32(acc[static_cast<size_t>(o)]);
        }
      });
    }
  c.out[0] = std::move(Y);
  return {};
}

Status opMatMulInteger(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects A and B");
  const RtTensor& A = c.input(0);
  const RtTensor& B = c.input(1);
  if (A.store() != Store::I64 || B.store() != Store::I64) return c.fail("A and B must be 8-bit integer tensors");
  if (A.rank() == 0 || B.rank() == 0) return c.fail("A and B must not be scalars");
  auto shape = matmulShape(A.dims, B.dims);
  if (!shape.ok()) return c.fail(shape.error().message);
  const MatMulShape& ms = *shape;
  const int64_t M = ms.M, K = ms.K, N = ms.N;
  std::vector<int64_t> azp, bzp;
  FW_TRY_STATUS(zeroPoints(c, 2, "a_zero_point", M, "row of A", azp));
  FW_TRY_STATUS(zeroPoints(c, 3, "b_zero_point", N, "column of B", bzp));
  RtTensor Y = RtTensor::alloc(DType::Int32, ms.out);
  parallelFor(ms.batches() * M, K * N, [&](int64_t b, int64_t e) {
    std::vector<int64_t> acc(static_cast<size_t>(N));
    for (int64_t bi = b; bi < e; ++bi) {
      const int64_t bat = bi / M, i = bi % M;
      const int64_t* pa = A.i() + ms.aMatrix(bat) * M * K + i * K;
      const int64_t* pb = B.i() + ms.bMatrix(bat) * K * N;
      std::fill(acc.begin(), acc.end(), 0);
      for (int64_t k = 0; k < K; ++k) {
        const int64_t av = pa[k] - azp[static_cast<size_t>(i)];
        if (av == 0) continue;
        const int64_t* br = pb + k * N;
        for (int64_t j = 0; j < N; ++j) acc[static_cast<size_t>(j)] += av * (br[j] - bzp[static_cast<size_t>(j)]);
      }
      int64_t* py = Y.mi() + bi * N;
      for (int64_t j = 0; j < N; ++j) py[j] = wrapInt32(acc[static_cast<size_t>(j)]);
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

}  // namespace

std::vector<OpEntry> lossOps() {
  return {{"NegativeLogLikelihoodLoss", opNllLoss},
          {"SoftmaxCrossEntropyLoss", opSoftmaxCrossEntropyLoss},
          {"Dropout", opDropout},
          {"LRN", opLrn},
          {"InstanceNormalization", opInstanceNorm},
          {"MeanVarianceNormalization", opMvn},
          {"LpNormalization", opLpNormalization},
          {"LpPool", opLpPool},
          {"GlobalLpPool", opGlobalLpPool},
          {"Upsample", opUpsample},
          {"ConvInteger", opConvInteger},
          {"MatMulInteger", opMatMulInteger}};
}

}  // namespace fw::exec
