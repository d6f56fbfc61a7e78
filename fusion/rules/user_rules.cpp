// user_rules (level 3)
// Rules from the user's fusion config: a chain of op types (each output read only by the next
// node), with optional integer attribute constraints per step, fused into one kernel named after
// the rule.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class UserRules final : public RuleBase {
 public:
  UserRules() : RuleBase("user_rules", 3, "user-defined op chains from the fusion config", Phase::Group) {}

  static std::string stepMismatch(const Node& n, const UserRuleStep& s) {
    if (n.opType != s.opType) return "expects " + s.opType + ", found " + n.opType;
    for (const auto& [k, v] : s.intAttrs) {
      auto a = n.attrs.getInt(k);
      if (!a || *a != v) return s.opType + " attribute " + k + " is not " + std::to_string(v);
    }
    return {};
  }

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    std::string why;
    for (const auto& rule : ctx.opts.userRules) {
      if (rule.steps.size() < 2 || !stepMismatch(g.node(root), rule.steps[0]).empty()) continue;
      std::vector<NodeId> nodes{root};
      NodeId cur = root;
      std::string fail;
      for (size_t i = 1; i < rule.steps.size() && fail.empty(); ++i) {
        NodeId next = soleConsumer(g, g.node(cur).outputs[0]);
        if (next == kNoId) {
          fail = "step " + std::to_string(i + 1) + ": output of '" + g.node(cur).name + "' has no single consumer";
          break;
        }
        if (auto m = stepMismatch(g.node(next), rule.steps[i]); !m.empty()) fail = "step " + std::to_string(i + 1) + " " + m;
        nodes.push_back(next);
        cur = next;
      }
      if (fail.empty()) return Match{root, nodes, rule.name, {}, {}};
      if (why.empty()) why = "user rule '" + rule.name + "': " + fail;
    }
    return why.empty() ? silent() : reject(why);
  }
};

}  // namespace
std::unique_ptr<Rule> makeUserRules() { return std::make_unique<UserRules>(); }
}  // namespace fw::fusion::rules
