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
      NodeId p = producerOfInput(g, root, side);
      if (p == kNoId) continue;
      const Node& pn = g.node(p);
      if (pn.opType != "Conv" && pn.opType != "Gemm") continue;
      const ValueId other = mul.inputs[1 - side];
      if (!isConstant(g, other)) { why = "the other " + mul.opType + " input is not constant"; continue; }
      if (auto w = whyNotPrivate(g, mul.inputs[side], root); !w.empty()) { why = w; continue; }
      const Shape& ys = g.value(mul.inputs[side]).shape;
      if (!ys.rankKnown || !(ys == g.value(mul.outputs[0]).shape)) {
        why = "the " + mul.opType + " broadcasts beyond the " + pn.opType + " output shape";
        continue;
      }
      if (pn.inputs.size() < 2 || !isConstant(g, pn.inputs[1])) { why = pn.opType + " weight is not constant"; continue; }
      if (pn.inputs.size() > 2 && pn.inputs[2] != kNoId && !isConstant(g, pn.inputs[2])) { why = pn.opType + " bias is not constant"; continue; }
      const Tensor& w = *g.constantOf(pn.inputs[1]);
      const Tensor& c = *g.constantOf(other);
      if (w.dtype() != DType::Float32 || c.dtype() != DType::Float32) { why = "weight or " + mul.opType + " constant is not float32"; continue; }
      if (w.dims().size() < 2) { why = pn.opType + " weight rank is below 2"; continue; }
      int64_t channels;
      size_t axis;
      if (pn.opType == "Conv") {
        channels = w.dims()[0];
        axis = 1;
      } else {
        if (w.dims().size() != 2) { why = "Gemm B is not 2-D"; continue; }
        channels = pn.attrs.intOr("transB", 0) ? w.dims()[0] : w.dims()[1];
        axis = ys.rank() - 1;
      }
      if (pn.inputs.size() > 2 && pn.inputs[2] != kNoId) {
        const Tensor& b = *g.constantOf(pn.inputs[2]);
        if (b.dtype() != DType::Float32 || perChannel(b, 2, 1, channels).empty()) {
          why = pn.opType + " bias is not a float32 per-channel vector";
          continue;
        }
      }
      auto s = perChannel(c, ys.rank(), axis, channels);
      if (s.empty()) { why = "the " + mul.opType + " constant " + Shape::ofInts(c.dims()).str() + " is not per channel"; continue; }
      bool finite = true;
      for (auto& x : s) {
        if (div) x = 1.0f / x;
        finite = finite && std::isfinite(x);
      }
      if (!finite) { why = "the per-channel scale is not finite"; continue; }
      return Match{root, {p, root}, {}, {}, {Tensor::floats({channels}, s)}};
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
