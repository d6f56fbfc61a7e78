// swish_fusion (level 2)
// Recognises Swish/SiLU x * Sigmoid(x) and makes it one kernel (with x's cube producer when legal).
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class SwishFusion final : public RuleBase {
 public:
  SwishFusion() : RuleBase("swish_fusion", 2, "recognise Swish/SiLU: x * Sigmoid(x)", Phase::Group, {"Sigmoid"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& s = g.node(root);
    NodeId m = soleConsumer(g, s.outputs[0]);
    if (m == kNoId || g.node(m).opType != "Mul") return silent();  // a plain Sigmoid
    if (otherInput(g.node(m), s.outputs[0]) != s.inputs[0]) return reject("Sigmoid output is multiplied by another value than its input");
    std::vector<NodeId> nodes{root, m};
    NodeId xp = g.producerOf(s.inputs[0]);
    if (xp != kNoId && groupHasCube(ctx, xp)) {
      std::vector<NodeId> with{root, m, xp};
      if (ctx.plan->checkMerge(with, "swish", level()).empty()) return Match{root, with, "conv_swish", {}, {}};
    }
    return Match{root, nodes, "swish", {}, {}};
  }
};

}  // namespace
std::unique_ptr<Rule> makeSwishFusion() { return std::make_unique<SwishFusion>(); }
}  // namespace fw::fusion::rules
