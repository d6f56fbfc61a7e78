// gelu_fusion (level 2)
// Recognises GELU in its erf form  0.5 * x * (1 + erf(x / sqrt 2))  and its tanh form
// 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))), in either association of the 0.5 factor:
// from the Erf/Tanh node forward (Add 1, Mul x, Mul 0.5) and back to x through elementwise ops
// whose other operands are constants. If x comes from a cube op's kernel, the GELU joins it.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class GeluFusion final : public RuleBase {
 public:
  GeluFusion() : RuleBase("gelu_fusion", 2, "recognise decomposed GELU (erf and tanh forms)", Phase::Group, {"Erf", "Tanh"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& e = g.node(root);
    NodeId a1 = soleConsumer(g, e.outputs[0]);
    if (a1 == kNoId || g.node(a1).opType != "Add" || !isScalarConstant(g, otherInput(g.node(a1), e.outputs[0]), 1.0))
      return e.opType == "Erf" ? reject("Erf is not followed by Add(1)") : silent();
    NodeId m1 = soleConsumer(g, g.node(a1).outputs[0]);
    if (m1 == kNoId || g.node(m1).opType != "Mul") return reject("1 + " + e.opType + " is not multiplied");
    std::vector<NodeId> nodes{root, a1, m1};
    ValueId y = otherInput(g.node(m1), g.node(a1).outputs[0]);
    ValueId x = y;
    NodeId yp = g.producerOf(y);
    if (yp != kNoId && g.node(yp).opType == "Mul" && soleConsumer(g, y) == m1) {
      const Node& h = g.node(yp);
      for (size_t i = 0; i < 2; ++i)
        if (isScalarConstant(g, h.inputs[i], 0.5)) {
          x = h.inputs[1 - i];
          nodes.push_back(yp);
        }
    }
    if (x == y) {
      NodeId m2 = soleConsumer(g, g.node(m1).outputs[0]);
      if (m2 == kNoId || g.node(m2).opType != "Mul" || !isScalarConstant(g, otherInput(g.node(m2), g.node(m1).outputs[0]), 0.5))
        return reject("no 0.5 factor");
      nodes.push_back(m2);
    }
    // Back from the Erf/Tanh input to x.
    std::vector<NodeId> stack{g.producerOf(e.inputs[0])};
    int count = 0;
    while (!stack.empty()) {
      NodeId q = stack.back();
      stack.pop_back();
      if (q == kNoId) return reject(e.opType + " input is not computed from the multiplied value");
      if (std::find(nodes.begin(), nodes.end(), q) != nodes.end()) continue;
      OpKind k = opKind(g.node(q).opType);
      if ((k != OpKind::ElemWise && k != OpKind::Broadcast) || ++count > 8)
        return reject(e.opType + " input is not an elementwise function of x");
      nodes.push_back(q);
      for (ValueId u : g.node(q).inputs) {
        if (u == x || isConstant(g, u)) continue;
        stack.push_back(g.producerOf(u));
      }
    }
    if (count == 0) return reject(e.opType + " input is not scaled x");
    NodeId xp = g.producerOf(x);
    std::string label = "gelu";
    if (xp != kNoId && groupHasCube(ctx, xp) && ctx.plan->checkMerge([&] { auto n = nodes; n.push_back(xp); return n; }(), "gelu", 2).empty()) {
      nodes.push_back(xp);
      label = "matmul_gelu";
    }
    return Match{root, nodes, label, {}, {}};
  }
};

}  // namespace
std::unique_ptr<Rule> makeGeluFusion() { return std::make_unique<GeluFusion>(); }
}  // namespace fw::fusion::rules
