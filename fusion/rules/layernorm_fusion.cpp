// layernorm_fusion (level 2)
// Recognises LayerNorm written out as
//   mean = ReduceMean(x); d = x - mean; var = ReduceMean(d^2 | d*d); y = d / Sqrt(var + eps) [* gamma] [+ beta]
// and makes it one kernel (two row reductions and their elementwise ops share one pass over x).
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class LayerNormFusion final : public RuleBase {
 public:
  LayerNormFusion()
      : RuleBase("layernorm_fusion", 2, "recognise decomposed LayerNorm (ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div[/Mul/Add])",
                 Phase::Group, {"ReduceMean"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& r1 = g.node(root);
    const ValueId x = r1.inputs[0];
    NodeId sub = soleConsumer(g, r1.outputs[0]);
    if (sub == kNoId || g.node(sub).opType != "Sub") return silent();  // e.g. the variance mean
    if (g.node(sub).inputs[0] != x) return reject("the mean is not subtracted from the same input");
    const ValueId d = g.node(sub).outputs[0];
    NodeId sq = kNoId, div = kNoId;
    for (NodeId c : g.value(d).consumers) {
      const Node& cn = g.node(c);
      if ((cn.opType == "Pow" && cn.inputs[0] == d && isScalarConstant(g, cn.inputs[1], 2.0)) ||
          (cn.opType == "Mul" && cn.inputs[0] == d && cn.inputs[1] == d))
        sq = c;
      else if (cn.opType == "Div" && cn.inputs[0] == d)
        div = c;
    }
    if (sq == kNoId || div == kNoId) return reject("centred input is not both squared and divided");
    if (g.value(d).consumers.size() != 2 + (g.node(sq).opType == "Mul" ? 1 : 0)) return reject("second consumer of the centred input");
    NodeId r2 = soleConsumer(g, g.node(sq).outputs[0]);
    if (r2 == kNoId || g.node(r2).opType != "ReduceMean") return reject("square is not averaged");
    NodeId add = soleConsumer(g, g.node(r2).outputs[0]);
    if (add == kNoId || g.node(add).opType != "Add" || !scalarConstant(g, otherInput(g.node(add), g.node(r2).outputs[0])))
      return reject("variance is not followed by Add(epsilon)");
    NodeId sqrt = soleConsumer(g, g.node(add).outputs[0]);
    if (sqrt == kNoId || g.node(sqrt).opType != "Sqrt") return reject("no Sqrt after the epsilon");
    if (soleConsumer(g, g.node(sqrt).outputs[0]) != div || g.node(div).inputs[1] != g.node(sqrt).outputs[0])
      return reject("the centred input is not divided by the standard deviation");
    std::vector<NodeId> nodes{root, sub, sq, r2, add, sqrt, div};
    NodeId last = div;
    NodeId mul = soleConsumer(g, g.node(last).outputs[0]);
    if (mul != kNoId && g.node(mul).opType == "Mul" && isConstant(g, otherInput(g.node(mul), g.node(last).outputs[0]))) {
      nodes.push_back(mul);
      last = mul;
      NodeId b = soleConsumer(g, g.node(last).outputs[0]);
      if (b != kNoId && g.node(b).opType == "Add" && isConstant(g, otherInput(g.node(b), g.node(last).outputs[0])))
        nodes.push_back(b);
    }
    return Match{root, nodes, "layernorm", {}, {}};
  }
};

}  // namespace
std::unique_ptr<Rule> makeLayerNormFusion() { return std::make_unique<LayerNormFusion>(); }
}  // namespace fw::fusion::rules
