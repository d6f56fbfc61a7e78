// matmul_add_act (level 2)
// Before: MatMul (2-D or batched) -> Add(bias or any broadcast operand) [-> activation]
// After:  one kernel: the Add (and activation) as the cube's epilogue. ONNX Runtime fuses only the
// 2-D case (into Gemm); batched MatMuls (B, S, K) x (K, N) are the common transformer case.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class MatMulAddAct final : public RuleBase {
 public:
  MatMulAddAct()
      : RuleBase("matmul_add_act", 2, "MatMul (2-D and batched) + Add(+activation) as one kernel", Phase::Group, {"MatMul", "Gemm"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& mm = g.node(root);
    const ValueId y = mm.outputs[0];
    if (g.value(y).consumers.empty()) return silent();
    NodeId add = soleConsumer(g, y);
    if (add == kNoId) return reject(whyNotPrivate(g, y, g.value(y).consumers.front()).empty() ? "second consumer of '" + g.value(y).name + "'" : whyNotPrivate(g, y, g.value(y).consumers.front()));
    if (g.node(add).opType != "Add") return silent();
    std::vector<NodeId> nodes{root, add};
    std::string label = lower(mm.opType) + "_add";
    NodeId act = soleConsumer(g, g.node(add).outputs[0]);
    if (act != kNoId && isActivation(g.node(act).opType)) {
      nodes.push_back(act);
      label += "_" + lower(g.node(act).opType);
    }
    if (nodes.size() == 3 && !ctx.plan->checkMerge(nodes, label, level()).empty()) {
      nodes.pop_back();
      label = lower(mm.opType) + "_add";
    }
    return Match{root, nodes, label, {}, {}};
  }
};

}  // namespace
std::unique_ptr<Rule> makeMatMulAddAct() { return std::make_unique<MatMulAddAct>(); }
}  // namespace fw::fusion::rules
