#pragma once
// The rule interface. A rule names the op types it starts from, has a pure match() that returns a
// Match or a Reject{reason}, and one apply() - the only place that changes anything. Rewrite rules
// change the graph; grouping rules only merge nodes into kernels (KernelPlan). Whole-graph passes
// (DCE, CSE) override runPass() instead and share the registry and the gating.
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/ir/Graph.h"
#include "core/ir/Model.h"
#include "fusion/DecisionLog.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

class KernelPlan;

enum class Phase { Rewrite, Group };

struct Match {
  NodeId root = kNoId;
  std::vector<NodeId> nodes;   // every node the rewrite touches / the kernel should contain
  std::string label;           // kernel pattern for grouping rules
  std::vector<ValueId> values;  // rule-specific payload
  std::vector<Tensor> tensors;  // rule-specific payload (e.g. folded constants)
};
struct Reject {
  std::string reason;
};
using MatchResult = std::variant<Match, Reject>;

struct Context {
  Model& model;   // the model whose graph is being rewritten (opset lookups)
  Graph& graph;
  const FusionOptions& opts;
  DecisionLog& log;
  KernelPlan* plan = nullptr;  // set during the grouping phase
  int ruleLevel = 1;           // level of the rule being run (benefit check from level 2)
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual std::string_view id() const = 0;
  virtual int level() const = 0;
  virtual std::string_view description() const = 0;
  virtual Phase phase() const = 0;
  // Op types a match may start from; empty = every node.
  virtual std::vector<std::string> rootOps() const { return {}; }
  virtual MatchResult match(const Context&, NodeId /*root*/) const { return Reject{"not a node rule"}; }
  virtual void apply(Context&, const Match&) const {}
  // Whole-graph passes: run once per round; return how many changes were made.
  virtual bool wholeGraph() const { return false; }
  virtual int runPass(Context&) const { return 0; }
};

}  // namespace fw::fusion
