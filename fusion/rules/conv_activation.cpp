// conv_activation (level 1)
// Before: Conv|ConvTranspose|Gemm -> act        After: one kernel (the activation as the cube's epilogue)
// act: Relu, Clip (Relu6), LeakyRelu, Sigmoid, HardSigmoid, HardSwish, Tanh, Gelu, Elu, Selu,
// Softplus, and Swish/SiLU written as Mul(y, Sigmoid(y)). The cube output must be read only by the
// activation (and the Swish Mul).
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class ConvActivation final : public RuleBase {
 public:
  ConvActivation()
      : RuleBase("conv_activation", 1, "Conv/Gemm + activation epilogue (Relu, Relu6, LeakyRelu, Sigmoid, HardSwish, Swish, Tanh, GELU...)",
                 Phase::Group,
                 {"Relu", "Clip", "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Gelu", "Elu", "Selu", "Softplus"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& act = g.node(root);
    NodeId p = producerOfInput(g, root, 0);
    if (p == kNoId) return silent();
    const std::string& pop = g.node(p).opType;
    if (pop != "Conv" && pop != "ConvTranspose" && pop != "Gemm") return silent();
    if (act.opType == "Clip")
      for (size_t i = 1; i < act.inputs.size(); ++i)
        if (act.inputs[i] != kNoId && !isConstant(g, act.inputs[i])) return reject("Clip bounds are not constant");
    const ValueId y = act.inputs[0];
    std::vector<NodeId> nodes{p, root};
    std::string label = lower(pop) + "_" + lower(act.opType);
    if (act.opType == "Sigmoid" && g.value(y).consumers.size() == 2) {
      for (NodeId c : g.value(y).consumers) {
        if (c == root) continue;
        const Node& mul = g.node(c);
        if (mul.opType == "Mul" && otherInput(mul, y) == act.outputs[0]) {
          nodes.push_back(c);
          label = lower(pop) + "_swish";
        }
      }
    }
    if (nodes.size() == 2)
      if (auto why = whyNotPrivate(g, y, root); !why.empty()) return reject(why);
    return Match{root, nodes, label, {}, {}};
  }
};

}  // namespace
std::unique_ptr<Rule> makeConvActivation() { return std::make_unique<ConvActivation>(); }
}  // namespace fw::fusion::rules
