// elementwise_chain (level 1)
// Driven by the op-traits table (OpTraits.h), as TVM's FuseOps: an elementwise or broadcast node
// joins the kernels of the nodes that produce its inputs when those kernels are elementwise-only.
// It first tries all producers at once (which closes diamonds such as x*sigmoid(x)), then each one.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class ElementwiseChain final : public RuleBase {
 public:
  ElementwiseChain()
      : RuleBase("elementwise_chain", 1, "fuse chains of elementwise/broadcast ops into one vector kernel", Phase::Group) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& n = g.node(root);
    OpKind k = nodeKind(n, ctx.opts.clusterOpsEnabled);
    if (k != OpKind::ElemWise && k != OpKind::Broadcast) return silent();
    std::vector<NodeId> prods;
    for (ValueId v : n.inputs) {
      NodeId p = g.producerOf(v);
      if (p == kNoId || std::find(prods.begin(), prods.end(), p) != prods.end()) continue;
      if (ctx.plan->groupOf(p) == ctx.plan->groupOf(root)) continue;
      if (!vectorOnlyGroup(ctx, p)) continue;
      prods.push_back(p);
    }
    if (prods.empty()) return silent();
    std::vector<std::vector<NodeId>> cands;
    std::vector<NodeId> all{root};
    all.insert(all.end(), prods.begin(), prods.end());
    cands.push_back(all);
    if (prods.size() > 1)
      for (NodeId p : prods) cands.push_back({root, p});
    return firstLegal(ctx, root, cands, "elementwise", level());
  }
};

}  // namespace
std::unique_ptr<Rule> makeElementwiseChain() { return std::make_unique<ElementwiseChain>(); }
}  // namespace fw::fusion::rules
