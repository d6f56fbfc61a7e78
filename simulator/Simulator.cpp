#include "simulator/Simulator.h"

#include <algorithm>
#include <functional>
#include <queue>

#include <spdlog/spdlog.h>

#include "simulator/CostModel.h"
#include "simulator/OpFamily.h"

namespace fw::sim {
namespace {

std::shared_ptr<spdlog::logger> logger() {
  static auto l = [] {
    auto existing = spdlog::get("sim");
    return existing ? existing : spdlog::default_logger()->clone("sim");
  }();
  return l;
}

// Orders groups so that every group comes after the groups producing its inputs; among ready groups
// the one holding the earliest node (in the graph's topological order) goes first.
Result<std::vector<size_t>> scheduleGroups(const Graph& g, const std::vector<KernelGroup>& groups,
                                           const std::vector<int32_t>& groupOf,
                                           const std::vector<int32_t>& topoIndex) {
  const size_t ng = groups.size();
  std::vector<std::vector<size_t>> succ(ng);
  std::vector<int32_t> indeg(ng, 0);
  std::vector<int32_t> firstIdx(ng, INT32_MAX);
  for (size_t gi = 0; gi < ng; ++gi) {
    std::vector<size_t> preds;
    for (NodeId m : groups[gi].members) {
      firstIdx[gi] = std::min(firstIdx[gi], topoIndex[static_cast<size_t>(m)]);
      for (ValueId v : g.node(m).inputs) {
        if (v == kNoId) continue;
        const NodeId p = g.value(v).producer;
        if (p == kNoId) continue;
        const auto pg = static_cast<size_t>(groupOf[static_cast<size_t>(p)]);
        if (pg != gi) preds.push_back(pg);
      }
    }
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    for (size_t p : preds) succ[p].push_back(gi);
    indeg[gi] = static_cast<int32_t>(preds.size());
  }
  using Item = std::pair<int32_t, size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (size_t gi = 0; gi < ng; ++gi)
    if (indeg[gi] == 0) ready.push({firstIdx[gi], gi});
  std::vector<size_t> order;
  while (!ready.empty()) {
    const size_t gi = ready.top().second;
    ready.pop();
    order.push_back(gi);
    for (size_t s : succ[gi])
      if (--indeg[s] == 0) ready.push({firstIdx[s], s});
  }
  if (order.size() != ng) {
    std::string names;
    int shown = 0;
    for (size_t gi = 0; gi < ng; ++gi)
      if (indeg[gi] > 0 && shown++ < 4) names += (names.empty() ? "'" : ", '") + groups[gi].name + "'";
    return Error::badInput("kernel grouping is not convex: kernels depend on each other in a cycle, e.g. " +
                           names);
  }
  return order;
}

// Integer shape work a graph compiler could not fold (shapes that depend on data): small int/bool
// tensors computed from small int/bool tensors. It runs on the host between device kernels, not as a
// device kernel with a launch (GE and MindSpore's graph mode do so).
constexpr int64_t kHostShapeElems = 64;
bool isHostShapeWork(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  const OpFamily fam = opFamily(n.opType);
  if (fam == OpFamily::ControlFlow || fam == OpFamily::View || n.outputs.empty()) return false;
  auto small = [&](ValueId v) {
    const Value& val = g.value(v);
    const DType dt = val.initializer ? val.initializer->dtype() : val.dtype;
    const auto ne = val.initializer ? std::optional<int64_t>(val.initializer->numel()) : val.shape.numel();
    return (isInteger(dt) || dt == DType::Bool) && ne && *ne <= kHostShapeElems;
  };
  bool computed = false;
  for (ValueId v : n.inputs) {
    if (v == kNoId) continue;
    if (!small(v)) return false;
    computed |= !g.value(v).isInitializer();
  }
  for (ValueId v : n.outputs)
    if (v != kNoId && !small(v)) return false;
  return computed;
}

bool isControlGroup(const Graph& g, const KernelGroup& kg) {
  return kg.members.size() == 1 && opFamily(g.node(kg.members[0]).opType) == OpFamily::ControlFlow;
}

Result<SimResult> simulateImpl(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                               const SimOptions& opts, const std::string& prefix);

// The body kernels a control-flow node runs, timed once and scaled by the trip count.
struct ControlCost {
  std::vector<KernelTiming> kernels;
  double peakActivationBytes = 0;  // the body's own activations, live while it runs
  double weightBytes = 0;          // weights held by the body
  std::vector<std::string> notes, warnings;
};

Result<ControlCost> costControl(const Graph& g, NodeId id, const HwProfile& hw, const SimOptions& opts,
                                const std::string& prefix) {
  const Node& n = g.node(id);
  const std::string path = prefix.empty() ? n.name : prefix + "/" + n.name;
  const ExecTrace::ControlFlow* cf = nullptr;
  if (opts.trace) {
    auto it = opts.trace->controlFlow.find(path);
    if (it != opts.trace->controlFlow.end()) cf = &it->second;
  }
  auto simBody = [&](const std::string& attr) -> Result<SimResult> {
    GraphPtr body = n.attrs.getGraph(attr);
    if (!body) return Error::badInput("node '" + path + "' (" + n.opType + "): missing attribute '" + attr + "'");
    const std::string scope = path + "/" + attr;
    std::vector<KernelGroup> groups;
    if (opts.bodyGroups) {
      auto it = opts.bodyGroups->find(scope);
      if (it != opts.bodyGroups->end()) groups = it->second;
    }
    if (groups.empty()) {
      FW_ASSIGN_OR_RETURN(groups, unfusedGroups(*body));
    }
    return simulateImpl(*body, groups, hw, opts, scope);
  };
  ControlCost cc;
  auto take = [&](SimResult&& r, int64_t repeats, const std::string& note) {
    cc.notes.push_back(path + ": " + note);
    for (auto& w : r.warnings) cc.warnings.push_back(std::move(w));
    for (auto& nn : r.controlFlowNotes) cc.notes.push_back(std::move(nn));
    cc.peakActivationBytes = r.peakActivationBytes;
    cc.weightBytes = r.weightBytes;
    for (auto& t : r.kernels) {
      if (repeats != 1) {
        t.repeats *= repeats;
        t.cycles *= repeats;
        t.cubeCycles *= repeats;
        t.vectorCycles *= repeats;
        t.transferCycles *= repeats;
        t.fillCycles *= repeats;
        t.launchCycles *= repeats;
        t.hostDispatchUs *= static_cast<double>(repeats);
        t.durUs *= static_cast<double>(repeats);
        t.flops *= static_cast<double>(repeats);
        t.hbmBytes *= static_cast<double>(repeats);
        t.weightBytes *= static_cast<double>(repeats);
        t.inputBytes *= static_cast<double>(repeats);
        t.outputBytes *= static_cast<double>(repeats);
        t.rereadBytes *= static_cast<double>(repeats);
        t.spillBytes *= static_cast<double>(repeats);
      }
      cc.kernels.push_back(std::move(t));
    }
  };

  if (n.opType == "If") {
    ControlFlowPolicy pol = opts.controlFlow;
    std::string why = controlFlowPolicyName(pol);
    if (pol == ControlFlowPolicy::Trace) {
      if (!cf || cf->runs == 0)
        return Error::badInput("node '" + path + "' (If): the traced run did not reach it, so the branch it takes is "
                               "unknown; choose one with --control-flow then|else|max");
      pol = cf->thenRuns >= cf->elseRuns ? ControlFlowPolicy::Then : ControlFlowPolicy::Else;
      if (cf->thenRuns > 0 && cf->elseRuns > 0)
        why = "trace: " + std::to_string(cf->thenRuns) + " then / " + std::to_string(cf->elseRuns) + " else runs";
    }
    if (pol == ControlFlowPolicy::Max) {
      FW_ASSIGN_OR_RETURN(SimResult a, simBody("then_branch"));
      FW_ASSIGN_OR_RETURN(SimResult b, simBody("else_branch"));
      const bool thenSlower = a.latencyCycles >= b.latencyCycles;
      take(thenSlower ? std::move(a) : std::move(b), 1,
           std::string(thenSlower ? "then_branch" : "else_branch") + " (max: the slower branch)");
      return cc;
    }
    const std::string attr = pol == ControlFlowPolicy::Then ? "then_branch" : "else_branch";
    FW_ASSIGN_OR_RETURN(SimResult r, simBody(attr));
    take(std::move(r), 1, attr + " (" + why + ")");
    return cc;
  }

  // Loop / Scan: the body once, times the trip count.
  int64_t trips = -1;
  std::string source;
  if (cf && cf->runs > 0) {
    trips = (cf->trips + cf->runs / 2) / cf->runs;
    source = "trace";
  } else if (n.opType == "Loop") {
    const Tensor* m = n.inputs.empty() || n.inputs[0] == kNoId ? nullptr : g.constantOf(n.inputs[0]);
    const bool noCond = n.inputs.size() < 2 || n.inputs[1] == kNoId;
    if (m && m->numel() == 1 && noCond) {
      trips = m->getInt64(0);
      source = "constant trip count";
    }
  } else if (n.opType == "Scan") {
    const int64_t nScan = n.attrs.intOr("num_scan_inputs", 0);
    const size_t first = n.inputs.size() - static_cast<size_t>(std::max<int64_t>(nScan, 0));
    if (nScan > 0 && first < n.inputs.size() && n.inputs[first] != kNoId) {
      const auto axes = n.attrs.getInts("scan_input_axes").value_or(std::vector<int64_t>{});
      const Value& x = g.value(n.inputs[first]);
      auto dims = x.initializer ? std::optional<std::vector<int64_t>>(x.initializer->dims()) : x.shape.ints();
      int64_t ax = axes.empty() ? 0 : axes[0];
      if (dims && ax < 0) ax += static_cast<int64_t>(dims->size());
      if (dims && ax >= 0 && ax < static_cast<int64_t>(dims->size())) {
        trips = (*dims)[static_cast<size_t>(ax)];
        source = "scanned length";
      }
    }
  }
  if (trips < 0)
    return Error::badInput("node '" + path + "' (" + n.opType + "): the trip count is not known without a traced run; "
                           "the traced run failed or was not made (see the warnings)");
  FW_ASSIGN_OR_RETURN(SimResult r, simBody("body"));
  take(std::move(r), trips, std::to_string(trips) + " trips (" + source + ")");
  return cc;
}

}  // namespace

const char* controlFlowPolicyName(ControlFlowPolicy p) {
  switch (p) {
    case ControlFlowPolicy::Trace: return "trace";
    case ControlFlowPolicy::Then: return "then";
    case ControlFlowPolicy::Else: return "else";
    case ControlFlowPolicy::Max: return "max";
  }
  return "?";
}

Result<ControlFlowPolicy> parseControlFlowPolicy(const std::string& s) {
  for (auto p : {ControlFlowPolicy::Trace, ControlFlowPolicy::Then, ControlFlowPolicy::Else, ControlFlowPolicy::Max})
    if (s == controlFlowPolicyName(p)) return p;
  return Error::badInput("--control-flow '" + s + "': expected trace, then, else or max");
}

Result<std::vector<KernelGroup>> unfusedGroups(const Graph& g) {
  FW_ASSIGN_OR_RETURN(auto order, g.topoOrder());
  std::vector<KernelGroup> out;
  out.reserve(order.size());
  for (NodeId n : order) out.push_back({g.node(n).name, {n}});
  return out;
}

Result<SimResult> simulate(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                           const SimOptions& opts) {
  return simulateImpl(g, groups, hw, opts, "");
}

namespace {

Result<SimResult> simulateImpl(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                               const SimOptions& opts, const std::string& prefix) {
  SimResult r;
  r.hwName = hw.name;
  r.peakFlops = hw.peakFlops();
  r.hbmBandwidth = hw.hbmBandwidth;
  r.mode = opts.mode;
  r.batch = std::max<int64_t>(1, opts.batch);

  // --- validate the grouping -------------------------------------------------------------------
  FW_ASSIGN_OR_RETURN(auto topo, g.topoOrder());
  std::vector<int32_t> topoIndex(g.nodeCapacity(), -1);
  for (size_t i = 0; i < topo.size(); ++i) topoIndex[static_cast<size_t>(topo[i])] = static_cast<int32_t>(i);
  std::vector<int32_t> groupOf(g.nodeCapacity(), -1);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const KernelGroup& kg = groups[gi];
    if (kg.members.empty()) return Error::badInput("kernel '" + kg.name + "' has no members");
    if (opts.mode == SimMode::Eager && kg.members.size() != 1)
      return Error::badInput("eager mode dispatches every operator on its own, but kernel '" + kg.name +
                             "' groups " + std::to_string(kg.members.size()) + " nodes (use unfusedGroups)");
    for (NodeId m : kg.members) {
      if (m < 0 || static_cast<size_t>(m) >= g.nodeCapacity() || g.node(m).dead)
        return Error::badInput("kernel '" + kg.name + "' names node id " + std::to_string(m) +
                               ", which is not a live node of graph '" + g.name + "'");
      if (groupOf[static_cast<size_t>(m)] >= 0)
        return Error::badInput("node '" + g.node(m).name + "' is in two kernels: '" +
                               groups[static_cast<size_t>(groupOf[static_cast<size_t>(m)])].name + "' and '" +
                               kg.name + "'");
      groupOf[static_cast<size_t>(m)] = static_cast<int32_t>(gi);
    }
  }
  for (NodeId n : topo)
    if (groupOf[static_cast<size_t>(n)] < 0)
      return Error::badInput("node '" + g.node(n).name + "' (" + g.node(n).opType + ") is in no kernel");
  FW_ASSIGN_OR_RETURN(auto order, scheduleGroups(g, groups, groupOf, topoIndex));

  // --- cost every kernel and lay them out on one stream ----------------------------------------
  std::vector<KernelCost> costs;
  costs.reserve(order.size());
  std::vector<std::vector<KernelTiming>> bodyKernels(order.size());  // control-flow steps: what runs
  std::vector<double> bodyPeak(order.size(), 0.0);
  for (size_t s = 0; s < order.size(); ++s) {
    const KernelGroup& kg = groups[order[s]];
    if (isControlGroup(g, kg)) {
      FW_ASSIGN_OR_RETURN(ControlCost cc, costControl(g, kg.members[0], hw, opts, prefix));
      KernelCost kc;
      kc.timing.name = kg.name;
      kc.timing.members = kg.members;
      kc.timing.ops = {g.node(kg.members[0]).opType};
      kc.timing.nodes = {g.node(kg.members[0]).name};
      kc.timing.origins = kg.origins.empty() ? kc.timing.nodes : kg.origins;
      std::vector<char> inGroup(g.nodeCapacity(), 0);
      inGroup[static_cast<size_t>(kg.members[0])] = 1;
      kc.boundary = groupBoundary(g, kg.members, inGroup);
      bodyKernels[s] = std::move(cc.kernels);
      bodyPeak[s] = cc.peakActivationBytes;
      r.weightBytes += cc.weightBytes;
      for (auto& w : cc.warnings)
        if (std::find(r.warnings.begin(), r.warnings.end(), w) == r.warnings.end()) r.warnings.push_back(std::move(w));
      for (auto& nn : cc.notes) r.controlFlowNotes.push_back(std::move(nn));
      costs.push_back(std::move(kc));
      continue;
    }
    if (opts.mode == SimMode::Graph && kg.members.size() == 1 && isHostShapeWork(g, kg.members[0])) {
      KernelCost kc;
      const NodeId m = kg.members[0];
      kc.timing.name = kg.name;
      kc.timing.members = kg.members;
      kc.timing.ops = {g.node(m).opType};
      kc.timing.nodes = {g.node(m).name};
      kc.timing.origins = kg.origins.empty() ? kc.timing.nodes : kg.origins;
      kc.timing.unit = Unit::None;  // no device kernel
      kc.timing.bound = Bound::Host;
      // One host step: about one launch (profile launch_us), and the device waits for its result.
      kc.timing.cycles = hw.usToCycles(hw.launchUs);
      kc.timing.hostDispatchUs = hw.launchUs;
      std::vector<char> inGroup(g.nodeCapacity(), 0);
      inGroup[static_cast<size_t>(m)] = 1;
      kc.boundary = groupBoundary(g, kg.members, inGroup);
      if (!prefix.empty()) {
        kc.timing.name = prefix + "/" + kc.timing.name;
        kc.timing.scope = prefix;
      }
      costs.push_back(std::move(kc));
      continue;
    }
    FW_ASSIGN_OR_RETURN(KernelCost kc, costKernel(g, kg, hw, &r.warnings));
    if (!prefix.empty()) {
      kc.timing.name = prefix + "/" + kc.timing.name;
      kc.timing.scope = prefix;
    }
    costs.push_back(std::move(kc));
  }
  const int64_t dispatch = opts.mode == SimMode::Eager ? hw.usToCycles(hw.hostDispatchUs) : 0;
  int64_t device = 0, host = 0, busy = 0;
  // Lays one kernel out on the stream. A row folding `repeats` loop iterations holds their total
  // cycles; in eager mode each iteration is dispatched on its own.
  auto place = [&](KernelTiming& t) {
    if (opts.mode == SimMode::Graph && t.unit == Unit::None && t.bound == Bound::Host && t.cycles > 0) {
      // Host shape work: the device waits for its result (a data-dependent shape), then goes on.
      t.startCycle = std::max(device, host);
      device = host = t.startCycle + t.cycles;  // a loop row's cycles already hold its trips
      t.startUs = hw.cyclesToUs(static_cast<double>(t.startCycle));
      t.durUs = hw.cyclesToUs(static_cast<double>(t.cycles));
      return;
    }
    const int64_t hostBefore = host;
    host += dispatch * t.repeats;  // eager: the host issues operators one after another, asynchronously
    t.hostDispatchUs = hw.cyclesToUs(static_cast<double>(dispatch * t.repeats));
    const int64_t start = std::max(device, hostBefore + dispatch);
    if (t.unit != Unit::None && start > device && dispatch > 0) t.bound = Bound::Host;
    t.startCycle = t.unit == Unit::None ? std::max(device, opts.mode == SimMode::Eager ? host : device) : start;
    if (t.unit != Unit::None) device = std::max(start + t.cycles, t.repeats > 1 ? host : start);
    busy += t.cycles - t.launchCycles;
    t.startUs = hw.cyclesToUs(static_cast<double>(t.startCycle));
    t.durUs = hw.cyclesToUs(static_cast<double>(t.cycles));
    r.hbmBytes += t.hbmBytes;
    r.flops += t.flops;
  };
  for (size_t s = 0; s < costs.size(); ++s) {
    if (bodyKernels[s].empty() && !isControlGroup(g, groups[order[s]])) {
      place(costs[s].timing);
      continue;
    }
    costs[s].timing.startCycle = std::max(device, host);
    for (KernelTiming& t : bodyKernels[s]) place(t);
  }
  r.latencyCycles = std::max(device, host);
  r.latencyUs = hw.cyclesToUs(static_cast<double>(r.latencyCycles));
  r.throughput = r.latencyUs > 0 ? static_cast<double>(r.batch) / (r.latencyUs * 1e-6) : 0;
  r.launchShare = r.latencyCycles > 0
                      ? static_cast<double>(r.latencyCycles - busy) / static_cast<double>(r.latencyCycles)
                      : 0;

  // --- device memory: weights + activations live from their writer to their last reader --------
  // Values produced by a view-only kernel alias their source (same bytes, no copy).
  std::vector<char> isView(order.size(), 0);
  std::vector<int32_t> stepOfGroup(groups.size(), -1);
  for (size_t s = 0; s < order.size(); ++s) {
    stepOfGroup[order[s]] = static_cast<int32_t>(s);
    isView[s] = costs[s].timing.unit == Unit::None;
  }
  std::vector<ValueId> rootMemo(g.values().size(), kNoId);
  std::function<ValueId(ValueId)> root = [&](ValueId v) -> ValueId {
    if (rootMemo[static_cast<size_t>(v)] != kNoId) return rootMemo[static_cast<size_t>(v)];
    ValueId res = v;
    const NodeId p = g.value(v).producer;
    if (p != kNoId) {
      const Node& pn = g.node(p);
      const auto step = static_cast<size_t>(stepOfGroup[static_cast<size_t>(groupOf[static_cast<size_t>(p)])]);
      const bool alias = isView[step] && pn.opType != "Shape" && pn.opType != "Size" &&
                         pn.opType != "Constant" && opFamily(pn.opType) != OpFamily::ControlFlow &&
                         !pn.inputs.empty() && pn.inputs[0] != kNoId;
      if (alias) res = root(pn.inputs[0]);
    }
    rootMemo[static_cast<size_t>(v)] = res;
    return res;
  };
  const int32_t last = static_cast<int32_t>(order.size()) - 1;
  std::vector<int32_t> allocAt(g.values().size(), -1), freeAt(g.values().size(), -1);
  auto touch = [&](ValueId v, int32_t step) {
    const ValueId rt = root(v);
    if (g.value(rt).isInitializer()) return;  // weights are counted once, below
    auto& a = allocAt[static_cast<size_t>(rt)];
    auto& f = freeAt[static_cast<size_t>(rt)];
    a = a < 0 ? step : std::min(a, step);
    f = std::max(f, step);
    if (g.value(v).isGraphOutput) f = last;
  };
  // Graph inputs are live from the first kernel on; with no kernel at all (a graph whose nodes are all
  // dead, e.g. one without outputs after fusion) nothing is ever live.
  if (!order.empty())
    for (ValueId v : g.inputs()) touch(v, 0);
  for (size_t s = 0; s < costs.size(); ++s) {
    const auto step = static_cast<int32_t>(s);
    for (ValueId v : costs[s].boundary.inputs) touch(v, step);
    for (ValueId v : costs[s].boundary.outputs) touch(v, step);
  }
  std::vector<double> delta(order.size() + 1, 0.0);
  for (size_t v = 0; v < allocAt.size(); ++v) {
    if (allocAt[v] < 0) continue;
    FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, static_cast<ValueId>(v), hw,
                                              g.value(static_cast<ValueId>(v)).producer != kNoId
                                                  ? g.value(static_cast<ValueId>(v)).producer
                                                  : topo.empty() ? 0 : topo.front()));
    delta[static_cast<size_t>(allocAt[v])] += b;
    delta[static_cast<size_t>(freeAt[v]) + 1] -= b;
  }
  double live = 0;
  for (size_t s = 0; s < order.size(); ++s) {
    live += delta[s];
    // Spilled intermediates sit in HBM while their kernel runs (spill bytes count write + read).
    r.peakActivationBytes = std::max(r.peakActivationBytes, live + costs[s].timing.spillBytes / 2 + bodyPeak[s]);
  }
  std::vector<char> weightSeen(g.values().size(), 0);
  for (NodeId n : topo)
    for (ValueId v : g.node(n).inputs) {
      if (v == kNoId || !g.value(v).isInitializer() || weightSeen[static_cast<size_t>(v)]) continue;
      weightSeen[static_cast<size_t>(v)] = 1;
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, n));
      r.weightBytes += b;
    }
  r.peakMemoryBytes = r.weightBytes + r.peakActivationBytes;
  if (r.peakMemoryBytes > hw.hbmCapacityBytes)
    r.warnings.push_back("peak device memory " + std::to_string(r.peakMemoryBytes / 1e9) +
                         " GB exceeds the profile's capacity");

  r.kernels.reserve(costs.size());
  for (size_t s = 0; s < costs.size(); ++s) {
    if (isControlGroup(g, groups[order[s]])) {
      for (KernelTiming& t : bodyKernels[s]) r.kernels.push_back(std::move(t));
      continue;
    }
    r.kernels.push_back(std::move(costs[s].timing));
  }
  logger()->debug("simulated {} kernels on {} ({} mode): {:.1f} us", r.kernels.size(), hw.name,
                 simModeName(opts.mode), r.latencyUs);
  return r;
}

}  // namespace

}  // namespace fw::sim
