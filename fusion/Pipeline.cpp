#include "fusion/Pipeline.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "fusion/GraphUtil.h"
#include "fusion/KernelPlan.h"
#include "fusion/Registry.h"

namespace fw::fusion {

namespace {

bool rootMatches(const Rule& r, const Node& n) {
  auto roots = r.rootOps();
  return roots.empty() || std::find(roots.begin(), roots.end(), n.opType) != roots.end();
}

// One sweep of a node rule over the graph; returns the number of applications.
int sweep(const Rule& rule, Context& ctx, std::map<std::string, int>& applied) {
  int changes = 0;
  const std::string id(rule.id());
  for (NodeId n : ctx.graph.liveNodes()) {
    if (ctx.graph.node(n).dead || !rootMatches(rule, ctx.graph.node(n))) continue;
    const std::string name = ctx.graph.node(n).name;
    MatchResult r = rule.match(ctx, n);
    if (auto* rej = std::get_if<Reject>(&r)) {
      if (!rej->reason.empty()) ctx.log.record(id, name, false, rej->reason);
      continue;
    }
    Match& m = std::get<Match>(r);
    std::string why;
    for (NodeId x : m.nodes)
      if (isExcluded(ctx.opts, ctx.graph.node(x))) why = "node '" + ctx.graph.node(x).name + "' is excluded by the user";
    if (why.empty() && ctx.plan) why = ctx.plan->checkMerge(m.nodes, m.label, rule.level());
    if (why == "already one kernel" && !m.label.empty()) {
      // An earlier generic rule already grouped the pattern; the recognition names the kernel.
      ctx.plan->merge(m.nodes, m.label);
      ctx.log.record(id, name, true, "kernel recognised as " + m.label);
      continue;
    }
    if (!why.empty()) {
      ctx.log.record(id, name, false, why);
      continue;
    }
    if (ctx.plan) ctx.plan->merge(m.nodes, m.label);
    else rule.apply(ctx, m);
    ctx.log.record(id, name, true, m.label.empty() ? "applied" : "fused as " + m.label);
    ++applied[id];
    ++changes;
    spdlog::debug("fusion: {} applied at '{}'", id, name);
  }
  return changes;
}

}  // namespace

Result<FusionResult> fuseModel(const Model& model, const FusionOptions& opts) {
  if (opts.optLevel < 0 || opts.optLevel > 3)
    return Error::badInput("fusion: opt level " + std::to_string(opts.optLevel) + " outside 0..3");
  FusionResult res;
  res.optLevel = opts.optLevel;
  res.nodesBefore = model.graph->liveNodeCount();
  res.rewritten = model;
  Graph& g = res.rewritten.mutableGraph();
  if (auto order = g.topoOrder(); !order.ok()) return order.error();
  DecisionLog log;
  Context ctx{res.rewritten, g, opts, log};

  const auto& rules = registeredRules();
  for (int round = 0; round < 8; ++round) {
    int changes = 0;
    for (const auto& r : rules) {
      if (r->phase() != Phase::Rewrite || !isRuleActive(*r, opts)) continue;
      ctx.ruleLevel = r->level();
      if (r->wholeGraph()) {
        int c = r->runPass(ctx);
        if (c > 0) res.applied[std::string(r->id())] += c;
        changes += c;
      } else {
        changes += sweep(*r, ctx, res.applied);
      }
    }
    if (changes == 0) break;
  }
  g.compact();
  if (auto bad = g.checkConsistency(); !bad.empty()) return Error::internal("fusion: rewritten graph: " + bad);

  KernelPlan plan(g, opts);
  ctx.plan = &plan;
  for (const auto& r : rules) {
    if (r->phase() != Phase::Group || !isRuleActive(*r, opts)) continue;
    ctx.ruleLevel = r->level();
    if (r->wholeGraph()) {
      int c = r->runPass(ctx);
      if (c > 0) res.applied[std::string(r->id())] += c;
    } else {
      sweep(*r, ctx, res.applied);
    }
  }
  res.kernels = plan.kernels();
  res.decisions = log.take();
  spdlog::info("fusion: -O{} {} nodes -> {} kernels", opts.optLevel, res.nodesBefore, res.kernels.size());
  return res;
}

}  // namespace fw::fusion
