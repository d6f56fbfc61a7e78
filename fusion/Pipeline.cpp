#include "fusion/Pipeline.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <set>

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

// Rewrites run to a fixpoint (at most 8 rounds) on ctx.graph.
void runRewrites(Context& ctx, std::map<std::string, int>& applied) {
  const auto& rules = registeredRules();
  for (int round = 0; round < 8; ++round) {
    int changes = 0;
    for (const auto& r : rules) {
      if (r->phase() != Phase::Rewrite || !isRuleActive(*r, ctx.opts)) continue;
      ctx.ruleLevel = r->level();
      if (r->wholeGraph()) {
        int c = r->runPass(ctx);
        if (c > 0) applied[std::string(r->id())] += c;
        changes += c;
      } else {
        changes += sweep(*r, ctx, applied);
      }
    }
    if (changes == 0) break;
  }
}

// Grouping rules, each once, on ctx.graph (compacted) into `plan`.
void runGrouping(Context& ctx, KernelPlan& plan, std::map<std::string, int>& applied) {
  ctx.plan = &plan;
  for (const auto& r : registeredRules()) {
    if (r->phase() != Phase::Group || !isRuleActive(*r, ctx.opts)) continue;
    ctx.ruleLevel = r->level();
    if (r->wholeGraph()) {
      int c = r->runPass(ctx);
      if (c > 0) applied[std::string(r->id())] += c;
    } else {
      sweep(*r, ctx, applied);
    }
  }
  ctx.plan = nullptr;
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// ONNX names are single-assignment across scopes: a body value (not an outer reference) may not
// reuse a name of an enclosing graph. Rewrites of either side can create such a clash; rename the
// body's value (body inputs/outputs are positional, so that is always safe).
void renameClashes(Graph& body, const std::set<std::string>& outerNames) {
  for (size_t i = 0; i < body.values().size(); ++i) {
    const ValueId v = static_cast<ValueId>(i);
    const Value& val = body.value(v);
    if (val.isOuterRef() || !outerNames.count(val.name)) continue;
    const std::string oldName = val.name;
    std::string nn = body.uniqueValueName(oldName + "_sub");
    for (int k = 1; outerNames.count(nn); ++k) nn = body.uniqueValueName(oldName + "_sub" + std::to_string(k));
    body.renameValue(v, nn);
    for (NodeId c : body.value(v).consumers) {
      Node& nd = body.node(c);
      if (std::find(nd.implicitInputs.begin(), nd.implicitInputs.end(), v) == nd.implicitInputs.end()) continue;
      nd.attrs = renameOuterRefIn(nd.attrs, oldName, nn);
    }
  }
}

struct ScopeWork {
  const Model& model;
  const FusionOptions& opts;
  FusionResult& res;
  std::vector<Decision> decisions;  // of every body, scope-prefixed
};

Status fuseSubgraphs(Graph& g, const std::string& scope, std::set<std::string> outerNames, ScopeWork& w);

// Fuses one body on its own: rewrites to a fixpoint, its own nested bodies, then grouping.
Result<GraphPtr> fuseBody(const Graph& body, const std::string& scope, const std::set<std::string>& outerNames,
                          ScopeWork& w) {
  Model sub;
  sub.irVersion = w.model.irVersion;
  sub.opsetImports = w.model.opsetImports;
  sub.graph = std::make_shared<const Graph>(body);
  Graph& bg = sub.mutableGraph();
  const size_t before = bg.liveNodeCount();
  DecisionLog log;
  Context ctx{sub, bg, w.opts, log};
  runRewrites(ctx, w.res.applied);
  bg.compact();
  if (auto bad = bg.checkConsistency(); !bad.empty()) return Error::internal("fusion: rewritten subgraph " + scope + ": " + bad);
  renameClashes(bg, outerNames);
  std::set<std::string> inner = outerNames;
  for (const auto& v : bg.values())
    if (!v.isOuterRef()) inner.insert(v.name);
  if (auto st = fuseSubgraphs(bg, scope + "/", inner, w); !st.ok()) return st.error();

  KernelPlan plan(bg, w.opts);
  runGrouping(ctx, plan, w.res.applied);
  SubgraphKernels sk;
  sk.scope = scope;
  sk.nodesBefore = before;
  sk.kernels = plan.kernels();
  const std::string prefix = sanitize(scope) + "__";
  for (auto& k : sk.kernels) k.name = prefix + k.name;  // function names are model-wide
  w.res.subgraphs.push_back(std::move(sk));
  for (auto d : log.take()) {
    d.node = scope + "/" + d.node;
    w.decisions.push_back(std::move(d));
  }
  return GraphPtr(sub.graph);
}

// Replaces every subgraph attribute of g's live nodes by its fused body. `scope` ends with "/"
// (or is empty for the main graph).
Status fuseSubgraphs(Graph& g, const std::string& scope, std::set<std::string> outerNames, ScopeWork& w) {
  for (NodeId n : g.liveNodes()) {
    if (g.node(n).subgraphs().empty()) continue;
    Attributes attrs;
    for (Attribute a : g.node(n).attrs.all()) {
      const std::string base = scope + g.node(n).name + "/" + a.name;
      if (a.kind == AttrKind::Graph && a.g) {
        auto r = fuseBody(*a.g, base, outerNames, w);
        if (!r.ok()) return r.error();
        a.g = *r;
      } else if (a.kind == AttrKind::Graphs) {
        for (size_t i = 0; i < a.graphs.size(); ++i) {
          auto r = fuseBody(*a.graphs[i], base + "[" + std::to_string(i) + "]", outerNames, w);
          if (!r.ok()) return r.error();
          a.graphs[i] = *r;
        }
      }
      attrs.set(std::move(a));
    }
    g.setNodeAttributes(n, std::move(attrs));  // a rewritten body may read other outer values
  }
  return Status::okStatus();
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

  runRewrites(ctx, res.applied);
  g.compact();
  if (auto bad = g.checkConsistency(); !bad.empty()) return Error::internal("fusion: rewritten graph: " + bad);

  // Each If/Loop/Scan body is fused on its own (recursively); the control-flow node stays one
  // kernel of this graph, so nothing is fused across the boundary.
  ScopeWork work{model, opts, res, {}};
  std::set<std::string> names;
  for (const auto& v : g.values()) names.insert(v.name);
  if (auto st = fuseSubgraphs(g, "", names, work); !st.ok()) return st.error();

  KernelPlan plan(g, opts);
  runGrouping(ctx, plan, res.applied);
  res.kernels = plan.kernels();
  res.decisions = log.take();
  for (auto& d : work.decisions) res.decisions.push_back(std::move(d));
  size_t subKernels = 0;
  for (const auto& s : res.subgraphs) subKernels += s.kernels.size();
  spdlog::info("fusion: -O{} {} nodes -> {} kernels{}", opts.optLevel, res.nodesBefore, res.kernels.size(),
               res.subgraphs.empty() ? std::string()
                                     : " (+" + std::to_string(subKernels) + " kernels in " +
                                           std::to_string(res.subgraphs.size()) + " subgraph bodies)");
  return res;
}

}  // namespace fw::fusion
