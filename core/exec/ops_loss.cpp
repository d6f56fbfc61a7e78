// Losses and dropout: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss, Dropout.
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

#include "core/exec/OpContext.h"

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

}  // namespace

std::vector<OpEntry> lossOps() {
  return {
      {"NegativeLogLikelihoodLoss", opNllLoss},
      {"SoftmaxCrossEntropyLoss", opSoftmaxCrossEntropyLoss},
      {"Dropout", opDropout},
  };
}

}  // namespace fw::exec
