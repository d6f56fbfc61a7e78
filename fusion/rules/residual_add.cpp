// residual_add (level 2)
// Before: Conv (its kernel) -> Add(shortcut) [-> Relu]     After: the Add (and activation) join the
// Conv's kernel as its epilogue (ResNet's conv3 + shortcut + ReLU). The shortcut is read by the
// kernel; only the Add's other operand's producer is merged, never two cube ops.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class ResidualAdd final : public RuleBase {
 public:
  ResidualAdd()
      : RuleBase("residual_add", 2, "residual Add(+activation) into the producing Conv/MatMul kernel", Phase::Group, {"Add"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& add = g.node(root);
    if (add.inputs.size() != 2 || isConstant(g, add.inputs[0]) || isConstant(g, add.inputs[1])) return silent();
    const Shape& a = g.value(add.inputs[0]).shape;
    const Shape& b = g.value(add.inputs[1]).shape;
    if (!a.rankKnown || !(a == b)) return silent();  // a residual adds two equal shapes
    std::vector<std::vector<NodeId>> cands;
    for (int side = 1; side >= 0; --side) {
      NodeId p = producerOfInput(g, root, static_cast<size_t>(side));
      if (p == kNoId || !groupHasCube(ctx, p) || ctx.plan->groupOf(p) == ctx.plan->groupOf(root)) continue;
      std::vector<NodeId> nodes{p, root};
      NodeId act = soleConsumer(g, add.outputs[0]);
      if (act != kNoId && isActivation(g.node(act).opType)) {
        auto with = nodes;
        with.push_back(act);
        cands.push_back(with);
      }
      cands.push_back(nodes);
    }
    if (cands.empty()) return silent();
    auto r = firstLegal(ctx, root, cands, "", level());
    if (auto* m = std::get_if<Match>(&r)) {
      std::string base = ctx.plan->label(ctx.plan->groupOf(m->nodes[0]));
      if (base.empty()) base = lower(g.node(m->nodes[0]).opType);
      m->label = base + "_add" + (m->nodes.size() == 3 ? "_" + lower(g.node(m->nodes[2]).opType) : "");
    }
    return r;
  }
};

}  // namespace
std::unique_ptr<Rule> makeResidualAdd() { return std::make_unique<ResidualAdd>(); }
}  // namespace fw::fusion::rules
