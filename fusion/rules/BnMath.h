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

// A binary node `root` (Add/Sub/Mul/Div) whose input `side` is a Conv/Gemm output read only by it, and
// whose other input is a float32 constant that varies along the output channels (Conv: axis 1, Gemm:
// the last axis) only, while the Conv/Gemm weights and bias are float32 constants: the folds into
// weights and bias. `producer` is kNoId when the input is not a Conv/Gemm output at all; otherwise
// either `values` (one per channel) or `why` not.
struct ChannelOperand {
  NodeId producer = kNoId;
  std::vector<float> values;
  std::string why;
};
inline ChannelOperand channelOperand(const Graph& g, NodeId root, size_t side) {
  ChannelOperand r;
  const Node& op = g.node(root);
  const NodeId p = producerOfInput(g, root, side);
  if (p == kNoId || (g.node(p).opType != "Conv" && g.node(p).opType != "Gemm")) return r;
  r.producer = p;
  const Node& pn = g.node(p);
  const ValueId other = op.inputs[1 - side];
  auto no = [&](std::string why) {
    r.why = std::move(why);
    return r;
  };
  if (!isConstant(g, other)) return no("the other " + op.opType + " input is not constant");
  if (auto w = whyNotPrivate(g, op.inputs[side], root); !w.empty()) return no(w);
  const Shape& ys = g.value(op.inputs[side]).shape;
  if (!ys.rankKnown || !(ys == g.value(op.outputs[0]).shape))
    return no("the " + op.opType + " broadcasts beyond the " + pn.opType + " output shape");
  if (pn.inputs.size() < 2 || !isConstant(g, pn.inputs[1])) return no(pn.opType + " weight is not constant");
  const bool hasBias = pn.inputs.size() > 2 && pn.inputs[2] != kNoId;
  if (hasBias && !isConstant(g, pn.inputs[2])) return no(pn.opType + " bias is not constant");
  const Tensor& w = *g.constantOf(pn.inputs[1]);
  const Tensor& c = *g.constantOf(other);
  if (w.dtype() != DType::Float32 || c.dtype() != DType::Float32)
    return no("the weight or the " + op.opType + " constant is not float32");
  if (w.dims().size() < 2 || (pn.opType == "Gemm" && w.dims().size() != 2)) return no(pn.opType + " weight has an unexpected rank");
  const bool conv = pn.opType == "Conv";
  const int64_t channels = conv ? w.dims()[0] : pn.attrs.intOr("transB", 0) ? w.dims()[0] : w.dims()[1];
  const size_t axis = conv ? 1 : ys.rank() - 1;
  if (hasBias && (g.constantOf(pn.inputs[2])->dtype() != DType::Float32 ||
                  perChannel(*g.constantOf(pn.inputs[2]), 2, 1, channels).empty()))
    return no(pn.opType + " bias is not a float32 per-channel vector");
  r.values = perChannel(c, ys.rank(), axis, channels);
  if (r.values.empty()) return no("the " + op.opType + " constant " + Shape::ofInts(c.dims()).str() + " is not per channel");
  return r;
}

}  // namespace fw::fusion::rules
