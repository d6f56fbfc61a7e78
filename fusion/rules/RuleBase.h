#pragma once
// Boilerplate shared by the rule files: id, level, description, phase and root ops as data.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "fusion/GraphUtil.h"
#include "fusion/KernelPlan.h"
#include "fusion/OpTraits.h"
#include "fusion/Rule.h"

namespace fw::fusion::rules {

class RuleBase : public Rule {
 public:
  RuleBase(std::string id, int level, std::string description, Phase phase, std::vector<std::string> roots = {})
      : id_(std::move(id)), description_(std::move(description)), roots_(std::move(roots)), level_(level), phase_(phase) {}
  std::string_view id() const override { return id_; }
  int level() const override { return level_; }
  std::string_view description() const override { return description_; }
  Phase phase() const override { return phase_; }
  std::vector<std::string> rootOps() const override { return roots_; }

 private:
  std::string id_, description_;
  std::vector<std::string> roots_;
  int level_;
  Phase phase_;
};

inline Reject reject(std::string why) { return Reject{std::move(why)}; }
inline Reject silent() { return Reject{}; }

// Producer of input `i` of node `n`, or kNoId.
inline NodeId producerOfInput(const Graph& g, NodeId n, size_t i) {
  const Node& nd = g.node(n);
  return i < nd.inputs.size() ? g.producerOf(nd.inputs[i]) : kNoId;
}

// True when every member of the kernel holding `n` is an elementwise/broadcast op.
inline bool vectorOnlyGroup(const Context& ctx, NodeId n) {
  for (NodeId m : ctx.plan->members(ctx.plan->groupOf(n))) {
    OpKind k = nodeKind(ctx.graph.node(m), ctx.opts.clusterOpsEnabled);
    if (k != OpKind::ElemWise && k != OpKind::Broadcast) return false;
  }
  return true;
}

inline bool groupHasCube(const Context& ctx, NodeId n) {
  for (NodeId m : ctx.plan->members(ctx.plan->groupOf(n)))
    if (isCubeOp(ctx.graph.node(m).opType)) return true;
  return false;
}

// Tries candidate node sets in order; the first legal one becomes the match, else the first reason.
inline MatchResult firstLegal(const Context& ctx, NodeId root, const std::vector<std::vector<NodeId>>& cands,
                              const std::string& label, int level) {
  std::string first;
  for (const auto& c : cands) {
    std::string why = ctx.plan->checkMerge(c, label, level);
    if (why.empty()) return Match{root, c, label, {}, {}};
    if (first.empty()) first = why;
  }
  if (first.empty()) return silent();
  return reject(first);
}

}  // namespace fw::fusion::rules
