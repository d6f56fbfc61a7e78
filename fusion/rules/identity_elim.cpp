// identity_elim (level 1)
// Before: X -> Identity|Dropout(inference, or ratio 0) -> Y -> consumers      After: X -> consumers
// When Y is a graph output its name is kept: X's producer produces Y instead.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class IdentityElim final : public RuleBase {
 public:
  IdentityElim()
      : RuleBase("identity_elim", 1, "remove Identity and inference-mode Dropout", Phase::Rewrite, {"Identity", "Dropout"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& n = g.node(root);
    if (n.inputs.empty() || n.inputs[0] == kNoId || n.outputs.empty()) return reject("no data input");
    if (n.opType == "Dropout") {
      if (n.outputs.size() > 1 && n.outputs[1] != kNoId &&
          (!g.value(n.outputs[1]).consumers.empty() || g.value(n.outputs[1]).isGraphOutput))
        return reject("Dropout mask output is read");
      if (n.inputs.size() > 2 && n.inputs[2] != kNoId) {
        // Training mode with a constant ratio of 0 drops nothing either (PyTorch writes
        // F.dropout(p=0.0, training=True) this way).
        auto t = scalarConstant(g, n.inputs[2]);
        auto ratio = n.inputs.size() > 1 && n.inputs[1] != kNoId ? scalarConstant(g, n.inputs[1]) : std::nullopt;
        if ((!t || *t != 0) && !(ratio && *ratio == 0))
          return reject("Dropout training_mode is not constant false and its ratio is not constant 0");
      }
    }
    ValueId x = n.inputs[0], y = n.outputs[0];
    if (g.value(y).isGraphOutput) {
      if (g.producerOf(x) == kNoId) return reject("'" + g.value(y).name + "' is a graph output fed directly by '" + g.value(x).name + "'");
      if (g.value(x).isGraphOutput) return reject("both '" + g.value(x).name + "' and '" + g.value(y).name + "' are graph outputs");
    }
    return Match{root, {root}, {}, {}, {}};
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    const Node n = g.node(m.root);
    ValueId x = n.inputs[0], y = n.outputs[0];
    g.removeNode(m.root);
    NodeId p = g.producerOf(x);
    if (g.value(y).isGraphOutput) {
      const Node& pn = g.node(p);
      size_t idx = static_cast<size_t>(std::find(pn.outputs.begin(), pn.outputs.end(), x) - pn.outputs.begin());
      moveOutput(g, p, idx, y);
      g.replaceAllUses(x, y);
    } else {
      g.replaceAllUses(y, x);
    }
    if (p != kNoId) addOrigins(g, p, n);
  }
};

}  // namespace
std::unique_ptr<Rule> makeIdentityElim() { return std::make_unique<IdentityElim>(); }
}  // namespace fw::fusion::rules
