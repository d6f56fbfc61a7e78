// stitch_reduce (level 3)
// Stitch fusion across reductions (after AStitch): a kernel that reduces (LayerNorm, Softmax, a
// mean) absorbs the elementwise or reducing kernels that read its outputs, e.g. LayerNorm and the
// following residual Add, so the row is kept on chip between the two.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class StitchReduce final : public RuleBase {
 public:
  StitchReduce()
      : RuleBase("stitch_reduce", 3, "stitch a reducing kernel with the vector kernels that read it", Phase::Group,
                 {"ReduceMean", "ReduceSum", "ReduceMax", "Softmax", "LayerNormalization", "GlobalAveragePool"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const int gr = ctx.plan->groupOf(root);
    std::vector<NodeId> readers;
    for (NodeId m : ctx.plan->members(gr))
      for (ValueId v : g.node(m).outputs) {
        if (v == kNoId) continue;
        for (NodeId c : g.value(v).consumers) {
          if (ctx.plan->groupOf(c) == gr || groupHasCube(ctx, c)) continue;
          OpKind k = opKind(g.node(c).opType);
          if (k == OpKind::Opaque || k == OpKind::ControlFlow) continue;
          if (std::find(readers.begin(), readers.end(), c) == readers.end()) readers.push_back(c);
        }
      }
    if (readers.empty()) return silent();
    std::vector<std::vector<NodeId>> cands;
    std::vector<NodeId> all{root};
    all.insert(all.end(), readers.begin(), readers.end());
    cands.push_back(all);
    if (readers.size() > 1)
      for (NodeId c : readers) cands.push_back({root, c});
    return firstLegal(ctx, root, cands, "", level());
  }
};

}  // namespace
std::unique_ptr<Rule> makeStitchReduce() { return std::make_unique<StitchReduce>(); }
}  // namespace fw::fusion::rules
