#pragma once
// Shared arithmetic of the per-channel folds (BatchNormalization, Mul/Add by constants): per channel c,
//   s[c] = gamma[c] / sqrt(var[c] + eps),   shift[c] = beta[c] - mean[c] * s[c]
// so BN(y) = y * s + shift. Computed in double.
#include <cmath>
#include <string>
#include <vector>

#include "fusion/rules/RuleBase.h"

namespace fw::fusion::rules {

struct BnAffine {
  std::vector<double> scale, shift;
};

// Why the BN cannot be folded (empty when it can); fills `out` when it can.
inline std::string bnAffine(const Graph& g, const Node& bn, BnAffine& out) {
  if (bn.inputs.size() < 5) return "BatchNormalization has fewer than 5 inputs";
  for (size_t i = 1; i < 5; ++i)
    if (!isConstant(g, bn.inputs[i])) return "BN input '" + g.value(bn.inputs[i]).name + "' is not constant";
  if (bn.attrs.intOr("training_mode", 0) != 0) return "BN is in training mode";
  for (size_t i = 1; i < bn.outputs.size(); ++i)
    if (bn.outputs[i] != kNoId && !g.value(bn.outputs[i]).consumers.empty()) return "BN running statistics are read";
  const double eps = bn.attrs.floatOr("epsilon", 1e-5f);
  auto gamma = g.constantOf(bn.inputs[1])->toFloats(), beta = g.constantOf(bn.inputs[2])->toFloats();
  auto mean = g.constantOf(bn.inputs[3])->toFloats(), var = g.constantOf(bn.inputs[4])->toFloats();
  size_t c = gamma.size();
  if (beta.size() != c || mean.size() != c || var.size() != c) return "BN parameter sizes differ";
  out.scale.resize(c);
  out.shift.resize(c);
  for (size_t i = 0; i < c; ++i) {
    out.scale[i] = gamma[i] / std::sqrt(static_cast<double>(var[i]) + eps);
    out.shift[i] = beta[i] - mean[i] * out.scale[i];
  }
  return {};
}

// Per-channel values of `t` broadcast onto an output of `rank` along `axis` with `channels` entries;
// empty when `t` varies along another axis (a scalar gives `channels` copies).
inline std::vector<float> perChannel(const Tensor& t, size_t rank, size_t axis, int64_t channels) {
  const auto& d = t.dims();
  if (d.size() > rank) return {};
  const size_t off = rank - d.size();
  int64_t along = 1;
  for (size_t i = 0; i < d.size(); ++i) {
    if (off + i == axis) along = d[i];
    else if (d[i] != 1) return {};
  }
  if (along != 1 && along != channels) return {};
  std::vector<float> out(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) out[static_cast<size_t>(c)] = static_cast<float>(t.getDouble(along == 1 ? 0 : c));
  return out;
}

}  // namespace fw::fusion::rules
