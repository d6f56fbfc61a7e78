// bias_add_fold (level 1)
// Before: Conv(X, W[, b]) -> Add(const per channel)     After: Conv(X, W, b + const)
// Before: Gemm(A, B[, C]) -> Add(const per column)     After: Gemm(A, B, beta*C + const), beta = 1
// The constant must broadcast along the channel (Conv: axis 1) or column (Gemm: last) axis only.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

// Per-channel values of `t` broadcast onto an output of `rank` along `axis` with `channels` entries;
// empty when `t` varies along another axis.
std::vector<float> perChannel(const Tensor& t, size_t rank, size_t axis, int64_t channels) {
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

class BiasAddFold final : public RuleBase {
 public:
  BiasAddFold()
      : RuleBase("bias_add_fold", 1, "fold a constant per-channel Add into the preceding Conv/Gemm bias", Phase::Rewrite, {"Add"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& add = g.node(root);
    if (add.inputs.size() != 2) return silent();
    std::string why;
    for (size_t side = 0; side < 2; ++side) {
      NodeId p = producerOfInput(g, root, side);
      ValueId other = add.inputs[1 - side];
      if (p == kNoId) continue;
      const Node& pn = g.node(p);
      if (pn.opType != "Conv" && pn.opType != "Gemm") continue;
      if (!isConstant(g, other)) { why = "the other Add input is not constant"; continue; }
      if (auto w = whyNotPrivate(g, add.inputs[side], root); !w.empty()) { why = w; continue; }
      const Shape& ys = g.value(add.inputs[side]).shape;
      const Shape& outS = g.value(add.outputs[0]).shape;
      if (!ys.rankKnown || !(ys == outS)) { why = "the Add broadcasts beyond the " + pn.opType + " output shape"; continue; }
      if (pn.inputs.size() < 2 || !isConstant(g, pn.inputs[1])) { why = pn.opType + " weight is not constant"; continue; }
      if (pn.inputs.size() > 2 && pn.inputs[2] != kNoId && !isConstant(g, pn.inputs[2])) { why = pn.opType + " bias is not constant"; continue; }
      const Tensor& w = *g.constantOf(pn.inputs[1]);
      const Tensor& c = *g.constantOf(other);
      if (c.dtype() != DType::Float32) { why = "the Add constant is not float32"; continue; }
      int64_t channels;
      size_t axis;
      if (pn.opType == "Conv") {
        channels = w.dims()[0];
        axis = 1;
      } else {
        channels = pn.attrs.intOr("transB", 0) ? w.dims()[0] : w.dims()[1];
        axis = ys.rank() - 1;
        if (pn.inputs.size() > 2 && pn.inputs[2] != kNoId) {
          const auto n = g.constantOf(pn.inputs[2])->numel();
          if (n != 1 && n != channels) { why = "Gemm C is not a per-column vector"; continue; }
        }
      }
      auto pc = perChannel(c, ys.rank(), axis, channels);
      if (pc.empty()) { why = "the Add constant " + Shape::ofInts(c.dims()).str() + " is not per channel"; continue; }
      return Match{root, {p, root}, {}, {}, {Tensor::floats({channels}, pc)}};
    }
    if (why.empty()) return silent();
    return reject(why);
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    const NodeId p = m.nodes[0];
    const Node add = g.node(m.root);
    Node& pn = g.node(p);
    std::vector<float> b = m.tensors[0].toFloats();
    const double beta = pn.opType == "Gemm" ? pn.attrs.floatOr("beta", 1.0f) : 1.0;
    if (pn.inputs.size() > 2 && pn.inputs[2] != kNoId) {
      const Tensor& old = *g.constantOf(pn.inputs[2]);
      for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(b[i] + beta * old.getDouble(old.numel() == 1 ? 0 : static_cast<int64_t>(i)));
    }
    if (pn.opType == "Gemm") pn.attrs.set(Attribute::makeFloat("beta", 1.0f));
    ValueId nb = addConstant(g, (pn.name.empty() ? "conv" : pn.name) + ".bias_add", Tensor::floats({static_cast<int64_t>(b.size())}, b));
    setInputAt(g, p, 2, nb);
    ValueId y = add.outputs[0];
    g.removeNode(m.root);
    moveOutput(g, p, 0, y);
    addOrigins(g, p, add);
  }
};

}  // namespace
std::unique_ptr<Rule> makeBiasAddFold() { return std::make_unique<BiasAddFold>(); }
}  // namespace fw::fusion::rules
