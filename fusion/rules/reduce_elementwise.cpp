// reduce_elementwise (level 2)
// A reduction joins the elementwise kernel that produces its input (prologue: x^2 -> ReduceSum)
// and the elementwise ops that read its result directly (x - mean, e / sum). Merging two kernels
// that both reduce is stitch fusion (stitch_reduce, level 3).
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

bool groupReduces(const Context& ctx, NodeId n) {
  for (NodeId m : ctx.plan->members(ctx.plan->groupOf(n)))
    if (opKind(ctx.graph.node(m).opType) == OpKind::Reduce) return true;
  return false;
}

class ReduceElementwise final : public RuleBase {
 public:
  ReduceElementwise()
      : RuleBase("reduce_elementwise", 2, "fuse a reduction with the elementwise ops before and after it", Phase::Group,
                 {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare", "ReduceLogSumExp",
                  "Softmax", "LogSoftmax", "GlobalAveragePool", "GlobalMaxPool", "LayerNormalization"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& r = g.node(root);
    std::vector<NodeId> pre, post;
    NodeId p = producerOfInput(g, root, 0);
    if (p != kNoId && ctx.plan->groupOf(p) != ctx.plan->groupOf(root) && vectorOnlyGroup(ctx, p)) pre.push_back(p);
    for (ValueId v : r.outputs) {
      if (v == kNoId) continue;
      for (NodeId c : g.value(v).consumers) {
        OpKind k = nodeKind(g.node(c), ctx.opts.clusterOpsEnabled);
        if ((k == OpKind::ElemWise || k == OpKind::Broadcast) && ctx.plan->groupOf(c) != ctx.plan->groupOf(root) &&
            !groupReduces(ctx, c) && !groupHasCube(ctx, c))
          post.push_back(c);
      }
    }
    if (pre.empty() && post.empty()) return silent();
    std::vector<std::vector<NodeId>> cands;
    std::vector<NodeId> all;
    all.reserve(1 + pre.size() + post.size());
    all.push_back(root);
    all.insert(all.end(), pre.begin(), pre.end());
    all.insert(all.end(), post.begin(), post.end());
    cands.push_back(all);
    if (!pre.empty() && !post.empty()) {
      std::vector<NodeId> a{root}, b{root};
      a.insert(a.end(), pre.begin(), pre.end());
      b.insert(b.end(), post.begin(), post.end());
      cands.push_back(a);
      cands.push_back(b);
    }
    const std::string& cur = ctx.plan->label(ctx.plan->groupOf(root));
    return firstLegal(ctx, root, cands, cur.empty() ? "reduce_elementwise" : "", level());
  }
};

}  // namespace
std::unique_ptr<Rule> makeReduceElementwise() { return std::make_unique<ReduceElementwise>(); }
}  // namespace fw::fusion::rules
