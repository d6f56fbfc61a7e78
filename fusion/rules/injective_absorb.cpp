// injective_absorb (level 2)
// Data-movement ops (Reshape, Transpose, Squeeze, Unsqueeze, Flatten, Slice, Concat, Split,
// Expand) are absorbed into the kernel that produces their data (an output layout change in the
// epilogue) or else into their only consumer's kernel (an input layout change in the prologue).
// Legal only with constant shape/index operands: the kernel's addressing must be static.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class InjectiveAbsorb final : public RuleBase {
 public:
  InjectiveAbsorb()
      : RuleBase("injective_absorb", 2, "absorb Reshape/Transpose/Squeeze/Unsqueeze/Slice/Concat into a neighbouring kernel",
                 Phase::Group, {"Reshape", "Transpose", "Squeeze", "Unsqueeze", "Flatten", "Slice", "Concat", "Split", "Expand"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& n = g.node(root);
    const size_t dataInputs = n.opType == "Concat" ? n.inputs.size() : 1;
    for (size_t i = dataInputs; i < n.inputs.size(); ++i)
      if (n.inputs[i] != kNoId && !isConstant(g, n.inputs[i]))
        return reject("operand '" + g.value(n.inputs[i]).name + "' of " + n.opType + " is not constant");
    std::vector<std::vector<NodeId>> cands;
    std::vector<NodeId> prods;
    for (size_t i = 0; i < dataInputs; ++i) {
      NodeId p = producerOfInput(g, root, i);
      if (p != kNoId && ctx.plan->groupOf(p) != ctx.plan->groupOf(root) &&
          std::find(prods.begin(), prods.end(), p) == prods.end())
        prods.push_back(p);
    }
    if (prods.size() == 1) cands.push_back({prods[0], root});
    else if (prods.size() > 1) {
      std::vector<NodeId> all{root};
      all.insert(all.end(), prods.begin(), prods.end());
      cands.push_back(all);
    }
    NodeId consumer = kNoId;
    bool single = true;
    for (ValueId v : n.outputs) {
      if (v == kNoId) continue;
      if (g.value(v).isGraphOutput) single = false;
      for (NodeId c : g.value(v).consumers) {
        if (consumer != kNoId && ctx.plan->groupOf(c) != ctx.plan->groupOf(consumer)) single = false;
        consumer = c;
      }
    }
    if (single && consumer != kNoId && ctx.plan->groupOf(consumer) != ctx.plan->groupOf(root)) cands.push_back({root, consumer});
    if (cands.empty()) return silent();
    return firstLegal(ctx, root, cands, "", level());
  }
};

}  // namespace
std::unique_ptr<Rule> makeInjectiveAbsorb() { return std::make_unique<InjectiveAbsorb>(); }
}  // namespace fw::fusion::rules
