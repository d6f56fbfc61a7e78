// dead_code_elim (level 1, whole-graph pass)
// Removes nodes none of whose outputs is read (by a node, a subgraph, or as a graph output), then
// initializers nobody reads. Runs to a fixpoint: removing a node can make its producers dead.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class DeadCodeElim final : public RuleBase {
 public:
  DeadCodeElim() : RuleBase("dead_code_elim", 1, "remove nodes and initializers whose results nobody reads", Phase::Rewrite) {}
  bool wholeGraph() const override { return true; }
  int runPass(Context& ctx) const override {
    Graph& g = ctx.graph;
    int removed = 0;
    bool again = true;
    while (again) {
      again = false;
      std::vector<NodeId> live = g.liveNodes();
      for (auto it = live.rbegin(); it != live.rend(); ++it) {
        const Node& n = g.node(*it);
        bool used = false;
        for (ValueId v : n.outputs)
          if (v != kNoId && (g.value(v).isGraphOutput || !g.value(v).consumers.empty())) used = true;
        if (used) continue;
        if (isExcluded(ctx.opts, n)) {
          ctx.log.record(std::string(id()), n.name, false, "node '" + n.name + "' is excluded by the user");
          continue;
        }
        ctx.log.record(std::string(id()), n.name, true, "removed: no output is read");
        g.removeNode(*it);
        ++removed;
        again = true;
      }
    }
    for (ValueId v : g.initializers()) {
      const Value& val = g.value(v);
      if (val.consumers.empty() && !val.isGraphOutput && !val.isGraphInput) g.removeInitializer(v);
    }
    return removed;
  }
};

}  // namespace
std::unique_ptr<Rule> makeDeadCodeElim() { return std::make_unique<DeadCodeElim>(); }
}  // namespace fw::fusion::rules
