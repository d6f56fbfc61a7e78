// bias_add_fold (level 1)
// Before: Conv(X, W[, b]) -> Add(const per channel)     After: Conv(X, W, b + const)
// Before: Gemm(A, B[, C]) -> Add(const per column)     After: Gemm(A, B, beta*C + const), beta = 1
// Sub(y, const) folds the same way with the constant negated (exact).
// The constant must broadcast along the channel (Conv: axis 1) or column (Gemm: last) axis only.
#include "fusion/rules/BnMath.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class BiasAddFold final : public RuleBase {
 public:
  BiasAddFold()
      : RuleBase("bias_add_fold", 1, "fold a constant per-channel Add into the preceding Conv/Gemm bias", Phase::Rewrite, {"Add", "Sub"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& add = g.node(root);
    if (add.inputs.size() != 2) return silent();
    std::string why;
    const bool sub = add.opType == "Sub";
    for (size_t side = 0; side < (sub ? 1u : 2u); ++side) {
      ChannelOperand c = channelOperand(g, root, side);
      if (c.producer == kNoId) continue;
      if (!c.why.empty()) {
        why = c.why;
        continue;
      }
      if (sub)
        for (auto& x : c.values) x = -x;
      const auto n = static_cast<int64_t>(c.values.size());
      return Match{root, {c.producer, root}, {}, {}, {Tensor::floats({n}, c.values)}};
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
      const std::vector<float> ob = perChannel(old, 2, 1, static_cast<int64_t>(b.size()));
      for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(b[i] + beta * ob[i]);
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
