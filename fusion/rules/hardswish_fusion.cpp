// hardswish_fusion (level 2)
// Recognises x * Relu6(x + 3) / 6 with Relu6 written as Clip(., 0, 6) or as Min(Relu(.), 6)
// (Add -> Relu6 -> Mul -> Div, or Mul by 1/6; also the Div before the Mul) and x * HardSigmoid(x),
// and makes it one kernel. ONNX Runtime leaves it apart.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

bool isDivBy6(const Graph& g, const Node& n, ValueId in) {
  if (n.opType == "Div") return n.inputs[0] == in && isScalarConstant(g, n.inputs[1], 6.0);
  if (n.opType == "Mul") return isScalarConstant(g, otherInput(n, in), 1.0 / 6.0, 1e-4);
  return false;
}

class HardSwishFusion final : public RuleBase {
 public:
  HardSwishFusion()
      : RuleBase("hardswish_fusion", 2, "recognise decomposed HardSwish (Add 3 -> Clip 0..6 | Relu+Min 6 -> Mul x -> Div 6; x * HardSigmoid(x))", Phase::Group,
                 {"Clip", "Min", "HardSigmoid"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& c = g.node(root);
    if (c.opType == "HardSigmoid") {
      NodeId m = soleConsumer(g, c.outputs[0]);
      if (m == kNoId || g.node(m).opType != "Mul" || otherInput(g.node(m), c.outputs[0]) != c.inputs[0])
        return reject("HardSigmoid output is not multiplied by its input");
      return Match{root, {root, m}, "hardswish", {}, {}};
    }
    // Relu6: Clip(v, 0, 6), or Min(Relu(v), 6) (then `relu` is the Relu); `in` is v.
    NodeId relu = kNoId;
    ValueId in = kNoId;
    if (c.opType == "Clip") {
      bool bounds = c.inputs.size() >= 3 && isScalarConstant(g, c.inputs[1], 0.0) && isScalarConstant(g, c.inputs[2], 6.0);
      if (!bounds) return silent();  // a plain Clip
      in = c.inputs[0];
    } else {
      if (c.inputs.size() != 2) return silent();
      for (size_t i = 0; i < 2; ++i) {
        NodeId p = producerOfInput(g, root, i);
        if (p != kNoId && g.node(p).opType == "Relu" && isScalarConstant(g, c.inputs[1 - i], 6.0)) relu = p;
      }
      if (relu == kNoId) return silent();  // some other Min
      if (auto why = whyNotPrivate(g, g.node(relu).outputs[0], root); !why.empty()) return reject(why);
      in = g.node(relu).inputs[0];
    }
    NodeId add = g.producerOf(in);
    if (add == kNoId || g.node(add).opType != "Add") return reject("Clip input is not x + 3");
    ValueId x = kNoId;
    for (size_t i = 0; i < 2; ++i)
      if (isScalarConstant(g, g.node(add).inputs[i], 3.0)) x = g.node(add).inputs[1 - i];
    if (x == kNoId) return reject("Clip input is not x + 3");
    if (auto why = whyNotPrivate(g, in, relu == kNoId ? root : relu); !why.empty()) return reject(why);
    NodeId n1 = soleConsumer(g, c.outputs[0]);
    if (n1 == kNoId) return reject("second consumer of the Clip output");
    const Node& a = g.node(n1);
    NodeId n2 = soleConsumer(g, a.outputs[0]);
    if (n2 == kNoId) return reject("second consumer after the Clip");
    const Node& b = g.node(n2);
    bool mulThenDiv = a.opType == "Mul" && otherInput(a, c.outputs[0]) == x && isDivBy6(g, b, a.outputs[0]);
    bool divThenMul = isDivBy6(g, a, c.outputs[0]) && b.opType == "Mul" && otherInput(b, a.outputs[0]) == x;
    if (!mulThenDiv && !divThenMul) return reject("Clip output is not multiplied by x and divided by 6");
    std::vector<NodeId> nodes{add, root, n1, n2};
    if (relu != kNoId) nodes.push_back(relu);
    return Match{root, nodes, "hardswish", {}, {}};
  }
};

}  // namespace
std::unique_ptr<Rule> makeHardSwishFusion() { return std::make_unique<HardSwishFusion>(); }
}  // namespace fw::fusion::rules
