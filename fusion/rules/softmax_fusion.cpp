// softmax_fusion (level 2)
// Recognises Softmax written out: [m = ReduceMax(x); x - m ->] Exp -> e / ReduceSum(e), one kernel.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class SoftmaxFusion final : public RuleBase {
 public:
  SoftmaxFusion()
      : RuleBase("softmax_fusion", 2, "recognise decomposed Softmax (ReduceMax/Sub/Exp/ReduceSum/Div)", Phase::Group, {"Exp"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& e = g.node(root);
    const ValueId ev = e.outputs[0];
    NodeId sum = kNoId, div = kNoId;
    for (NodeId c : g.value(ev).consumers) {
      if (g.node(c).opType == "ReduceSum") sum = c;
      else if (g.node(c).opType == "Div" && g.node(c).inputs[0] == ev) div = c;
    }
    if (sum == kNoId || div == kNoId) return silent();
    if (g.value(ev).consumers.size() != 2 || g.value(ev).isGraphOutput) return reject("second consumer of the exponentials");
    if (soleConsumer(g, g.node(sum).outputs[0]) != div || g.node(div).inputs[1] != g.node(sum).outputs[0])
      return reject("the sum is not the divisor");
    std::vector<NodeId> nodes{root, sum, div};
    NodeId sub = producerOfInput(g, root, 0);
    if (sub != kNoId && g.node(sub).opType == "Sub" && soleConsumer(g, e.inputs[0]) == root) {
      NodeId mx = producerOfInput(g, sub, 1);
      if (mx != kNoId && g.node(mx).opType == "ReduceMax" && g.node(mx).inputs[0] == g.node(sub).inputs[0] &&
          soleConsumer(g, g.node(mx).outputs[0]) == sub) {
        nodes.push_back(sub);
        nodes.push_back(mx);
      }
    }
    return Match{root, nodes, "softmax", {}, {}};
  }
};

}  // namespace
std::unique_ptr<Rule> makeSoftmaxFusion() { return std::make_unique<SoftmaxFusion>(); }
}  // namespace fw::fusion::rules
