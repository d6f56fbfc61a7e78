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

}  // namespace

Result<std::vector<KernelGroup>> unfusedGroups(const Graph& g) {
  FW_ASSIGN_OR_RETURN(auto order, g.topoOrder());
  std::vector<KernelGroup> out;
  out.reserve(order.size());
  for (NodeId n : order) out.push_back({g.node(n).name, {n}});
  return out;
}

Result<SimResult> simulate(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                           const SimOptions& opts) {
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
  for (size_t gi : order) {
    FW_ASSIGN_OR_RETURN(KernelCost kc, costKernel(g, groups[gi], hw, &r.warnings));
    costs.push_back(std::move(kc));
  }
  const int64_t dispatch = opts.mode == SimMode::Eager ? hw.usToCycles(hw.hostDispatchUs) : 0;
  int64_t device = 0, host = 0, busy = 0;
  for (KernelCost& kc : costs) {
    KernelTiming& t = kc.timing;
    host += dispatch;  // eager: the host issues operators one after another, asynchronously
    t.hostDispatchUs = hw.cyclesToUs(static_cast<double>(dispatch));
    const int64_t start = std::max(device, host);
    if (t.unit != Unit::None && start > device && dispatch > 0) t.bound = Bound::Host;
    t.startCycle = t.unit == Unit::None ? std::max(device, opts.mode == SimMode::Eager ? host : device) : start;
    if (t.unit != Unit::None) device = start + t.cycles;
    busy += t.cycles - t.launchCycles;
    t.startUs = hw.cyclesToUs(static_cast<double>(t.startCycle));
    t.durUs = hw.cyclesToUs(static_cast<double>(t.cycles));
    r.hbmBytes += t.hbmBytes;
    r.flops += t.flops;
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
                         pn.opType != "Constant" && !pn.inputs.empty() && pn.inputs[0] != kNoId;
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
    r.peakActivationBytes = std::max(r.peakActivationBytes, live + costs[s].timing.spillBytes / 2);
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
  for (KernelCost& kc : costs) r.kernels.push_back(std::move(kc.timing));
  logger()->debug("simulated {} kernels on {} ({} mode): {:.1f} us", r.kernels.size(), hw.name,
                 simModeName(opts.mode), r.latencyUs);
  return r;
}

}  // namespace fw::sim
