// conv_scale_fold (level 1)
// Before: Conv(X, W[, b]) -> Mul(const per channel s)     After: Conv(X, W * s, b * s)
// Before: Gemm(A, B[, C]) -> Mul(const per column s)     After: Gemm(A, B * s, beta * C * s), beta = 1
// Div(y, const d) folds the same way with s = 1/d. This is the BatchNormalization that Paddle and
// some TF exporters write as Mul + Add after the convolution (the Add then folds by bias_add_fold).
// Exact up to float rounding (the product is formed once in the weights instead of per element).
// The constant must broadcast along the channel (Conv: axis 1) or column (Gemm: last) axis only.
#include <cmath>

#include "fusion/rules/BnMath.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class ConvScaleFold final : public RuleBase {
 public:
  ConvScaleFold()
      : RuleBase("conv_scale_fold", 1, "fold a constant per-channel Mul/Div into the preceding Conv/Gemm weights and bias",
                 Phase::Rewrite, {"Mul", "Div"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& mul = g.node(root);
    if (mul.inputs.size() != 2) return silent();
    const bool div = mul.opType == "Div";
    std::string why;
    for (size_t side = 0; side < (div ? 1u : 2u); ++side) {
      ChannelOperand c = channelOperand(g, root, side);
      if (c.producer == kNoId) continue;
      if (!c.why.empty()) {
        why = c.why;
        continue;
      }
      bool finite = true;
      for (auto& x : c.values) {
        if (div) x = 1.0f / x;
        finite = finite && std::isfinite(x);
      }
      if (!finite) {
        why = "the per-channel scale is not finite";
        continue;
      }
      const auto n = static_cast<int64_t>(c.values.size());
      return Match{root, {c.producer, root}, {}, {}, {Tensor::floats({n}, c.values)}};
    }
    if (why.empty()) return silent();
    return reject(why);
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    const NodeId p = m.nodes[0];
    const Node mul = g.node(m.root);
    const Node& pn = g.node(p);
    const std::vector<float> s = m.tensors[0].toFloats();
    const size_t ch = s.size();
    const Tensor& w = *g.constantOf(pn.inputs[1]);
    std::vector<float> wv = w.toFloats();
    if (pn.opType == "Conv") {
      const size_t per = wv.size() / ch;
      for (size_t o = 0; o < ch; ++o)
        for (size_t k = 0; k < per; ++k) wv[o * per + k] *= s[o];
    } else {
      const bool transB = pn.attrs.intOr("transB", 0) != 0;
      const size_t rows = static_cast<size_t>(w.dims()[0]), cols = static_cast<size_t>(w.dims()[1]);
      for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) wv[r * cols + c] *= s[transB ? r : c];
    }
    std::vector<float> bv;
    const bool hasBias = pn.inputs.size() > 2 && pn.inputs[2] != kNoId;
    if (hasBias) {
      const Tensor& old = *g.constantOf(pn.inputs[2]);
      const double beta = pn.opType == "Gemm" ? pn.attrs.floatOr("beta", 1.0f) : 1.0;
      bv = perChannel(old, 2, 1, static_cast<int64_t>(ch));
      for (size_t o = 0; o < ch; ++o) bv[o] = static_cast<float>(beta * bv[o] * s[o]);
    }
    const std::string base = pn.name.empty() ? lower(pn.opType) : pn.name;
    ValueId nw = addConstant(g, base + ".weight_scaled", Tensor::floats(w.dims(), wv));
    g.setNodeInput(p, 1, nw);
    if (hasBias) {
      ValueId nb = addConstant(g, base + ".bias_scaled", Tensor::floats({static_cast<int64_t>(ch)}, bv));
      setInputAt(g, p, 2, nb);
      if (g.node(p).opType == "Gemm") g.node(p).attrs.set(Attribute::makeFloat("beta", 1.0f));
    }
    ValueId y = mul.outputs[0];
    g.removeNode(m.root);
    moveOutput(g, p, 0, y);
    addOrigins(g, p, mul);
  }
};

}  // namespace
std::unique_ptr<Rule> makeConvScaleFold() { return std::make_unique<ConvScaleFold>(); }
}  // namespace fw::fusion::rules
