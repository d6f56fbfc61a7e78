// attention_fusion (level 2)
// Before: MatMul(Q, K^T) -> [Div|Mul scale] -> [Add mask] -> Softmax -> MatMul(., V)
// After:  one kernel (the only kind allowed two cube ops): scores stay on chip.
// Every intermediate must be read only inside the pattern.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class AttentionFusion final : public RuleBase {
 public:
  AttentionFusion()
      : RuleBase("attention_fusion", 2, "MatMul -> scale -> [mask] -> Softmax -> MatMul as one attention kernel", Phase::Group,
                 {"Softmax"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& sm = g.node(root);
    NodeId mm2 = soleConsumer(g, sm.outputs[0]);
    if (mm2 == kNoId || g.node(mm2).opType != "MatMul" || g.node(mm2).inputs[0] != sm.outputs[0])
      return reject("Softmax output does not feed one MatMul as its left operand");
    std::vector<NodeId> nodes{root, mm2};
    NodeId cur = root;
    ValueId in = sm.inputs[0];
    for (int step = 0; step < 4; ++step) {
      NodeId p = g.producerOf(in);
      if (p == kNoId) return reject("Softmax input is not computed from a MatMul");
      if (auto why = whyNotPrivate(g, in, cur); !why.empty()) return reject(why);
      const Node& pn = g.node(p);
      nodes.push_back(p);
      if (pn.opType == "MatMul") return Match{root, nodes, "attention", {}, {}};
      if (pn.opType != "Div" && pn.opType != "Mul" && pn.opType != "Add" && pn.opType != "Sub")
        return reject("Softmax input comes through " + pn.opType + ", not scale/mask");
      // Follow the operand that leads towards the scores (a non-constant producer, MatMul preferred).
      ValueId next = kNoId;
      for (ValueId v : pn.inputs) {
        NodeId q = g.producerOf(v);
        if (q == kNoId) continue;
        if (g.node(q).opType == "MatMul") { next = v; break; }
        if (next == kNoId && (g.node(q).opType == "Div" || g.node(q).opType == "Mul" || g.node(q).opType == "Add")) next = v;
      }
      if (next == kNoId) return reject("Softmax input is not computed from a MatMul");
      cur = p;
      in = next;
    }
    return reject("no MatMul within 3 steps before Softmax");
  }
};

}  // namespace
std::unique_ptr<Rule> makeAttentionFusion() { return std::make_unique<AttentionFusion>(); }
}  // namespace fw::fusion::rules
