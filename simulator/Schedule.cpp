// The order of a graph's kernels and their timeline on one stream (Schedule.h).
#include "simulator/Schedule.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>

namespace fw::sim {
namespace {

// Every live node in exactly one group, every group non-empty (eager: one node each). Returns the
// group of each node, indexed by NodeId.
Result<std::vector<int32_t>> checkGrouping(const Graph& g, const std::vector<KernelGroup>& groups, SimMode mode,
                                           const std::vector<NodeId>& topo) {
  std::vector<int32_t> groupOf(g.nodeCapacity(), -1);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const KernelGroup& kg = groups[gi];
    if (kg.members.empty()) return Error::badInput("kernel '" + kg.name + "' has no members");
    if (mode == SimMode::Eager && kg.members.size() != 1)
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
  return groupOf;
}

// The kernel DAG: successors and in-degree of every group, and its earliest node's topological index.
struct KernelDag {
  std::vector<std::vector<size_t>> succ;
  std::vector<int32_t> indeg;
  std::vector<int32_t> firstIdx;
};

KernelDag kernelDag(const Graph& g, const std::vector<KernelGroup>& groups, const std::vector<int32_t>& groupOf,
                    const std::vector<int32_t>& topoIndex) {
  const size_t ng = groups.size();
  KernelDag d{std::vector<std::vector<size_t>>(ng), std::vector<int32_t>(ng, 0), std::vector<int32_t>(ng, INT32_MAX)};
  for (size_t gi = 0; gi < ng; ++gi) {
    std::vector<size_t> preds;
    for (NodeId m : groups[gi].members) {
      d.firstIdx[gi] = std::min(d.firstIdx[gi], topoIndex[static_cast<size_t>(m)]);
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
    for (size_t p : preds) d.succ[p].push_back(gi);
    d.indeg[gi] = static_cast<int32_t>(preds.size());
  }
  return d;
}

// Orders groups so that every group comes after the groups producing its inputs; among ready groups
// the one holding the earliest node (in the graph's topological order) goes first.
Result<std::vector<size_t>> orderGroups(const Graph& g, const std::vector<KernelGroup>& groups,
                                        const std::vector<int32_t>& groupOf, const std::vector<int32_t>& topoIndex) {
  const size_t ng = groups.size();
  KernelDag d = kernelDag(g, groups, groupOf, topoIndex);
  using Item = std::pair<int32_t, size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (size_t gi = 0; gi < ng; ++gi)
    if (d.indeg[gi] == 0) ready.push({d.firstIdx[gi], gi});
  std::vector<size_t> order;
  while (!ready.empty()) {
    const size_t gi = ready.top().second;
    ready.pop();
    order.push_back(gi);
    for (size_t s : d.succ[gi])
      if (--d.indeg[s] == 0) ready.push({d.firstIdx[s], s});
  }
  if (order.size() != ng) {
    std::string names;
    int shown = 0;
    for (size_t gi = 0; gi < ng; ++gi)
      if (d.indeg[gi] > 0 && shown++ < 4) names += (names.empty() ? "'" : ", '") + groups[gi].name + "'";
    return Error::badInput("kernel grouping is not convex: kernels depend on each other in a cycle, e.g. " +
                           names);
  }
  return order;
}

// One stream: the device runs kernels one after another; in eager mode the host dispatches every
// operator first (asynchronously), so a kernel starts at max(previous end, its dispatch).
class Stream {
 public:
  Stream(const HwProfile& hw, SimMode mode)
      : hw_(hw), mode_(mode), dispatch_(mode == SimMode::Eager ? hw.usToCycles(hw.hostDispatchUs) : 0) {}

  // Lays one kernel out. A row folding `repeats` loop iterations holds their total cycles; in eager
  // mode each iteration is dispatched on its own.
  void place(KernelTiming& t, SimResult& r) {
    // A step on the host (graph mode's shape work; a CPU profile's views in either mode) runs in line.
    if (t.unit == Unit::None && t.bound == Bound::Host && t.cycles > 0) {
      placeHostStep(t);
      return;
    }
    const int64_t hostBefore = host_;
    host_ += dispatch_ * t.repeats;  // eager: the host issues operators one after another, asynchronously
    t.hostDispatchUs = hw_.cyclesToUs(static_cast<double>(dispatch_ * t.repeats));
    const int64_t start = std::max(device_, hostBefore + dispatch_);
    if (t.unit != Unit::None && start > device_ && dispatch_ > 0) t.bound = Bound::Host;
    t.startCycle = t.unit == Unit::None ? std::max(device_, mode_ == SimMode::Eager ? host_ : device_) : start;
    if (t.unit != Unit::None) device_ = std::max(start + t.cycles, t.repeats > 1 ? host_ : start);
    busy_ += t.cycles - t.launchCycles;
    t.startUs = hw_.cyclesToUs(static_cast<double>(t.startCycle));
    t.durUs = hw_.cyclesToUs(static_cast<double>(t.cycles));
    r.hbmBytes += t.hbmBytes;
    r.flops += t.flops;
  }

  int64_t end() const { return std::max(device_, host_); }  // when everything placed so far is done
  int64_t busy() const { return busy_; }                    // device cycles doing work (no launches)

 private:
  // Host shape work: the device waits for its result (a data-dependent shape), then goes on.
  void placeHostStep(KernelTiming& t) {
    t.startCycle = std::max(device_, host_);
    device_ = host_ = t.startCycle + t.cycles;  // a loop row's cycles already hold its trips
    t.startUs = hw_.cyclesToUs(static_cast<double>(t.startCycle));
    t.durUs = hw_.cyclesToUs(static_cast<double>(t.cycles));
  }

  const HwProfile& hw_;
  SimMode mode_;
  int64_t dispatch_;
  int64_t device_ = 0, host_ = 0, busy_ = 0;
};

}  // namespace

Result<Schedule> scheduleKernels(const Graph& g, const std::vector<KernelGroup>& groups, SimMode mode) {
  Schedule s;
  FW_ASSIGN_OR_RETURN(s.topo, g.topoOrder());
  std::vector<int32_t> topoIndex(g.nodeCapacity(), -1);
  for (size_t i = 0; i < s.topo.size(); ++i) topoIndex[static_cast<size_t>(s.topo[i])] = static_cast<int32_t>(i);
  FW_ASSIGN_OR_RETURN(s.groupOf, checkGrouping(g, groups, mode, s.topo));
  FW_ASSIGN_OR_RETURN(s.order, orderGroups(g, groups, s.groupOf, topoIndex));
  return s;
}

void layOut(std::vector<Step>& steps, const HwProfile& hw, SimMode mode, SimResult& r) {
  Stream stream(hw, mode);
  for (Step& s : steps) {
    if (!s.control) {
      stream.place(s.timing, r);
      continue;
    }
    s.timing.startCycle = stream.end();
    for (KernelTiming& t : s.body) stream.place(t, r);
  }
  r.latencyCycles = stream.end();
  r.latencyUs = hw.cyclesToUs(static_cast<double>(r.latencyCycles));
  r.throughput = r.latencyUs > 0 ? static_cast<double>(r.batch) / (r.latencyUs * 1e-6) : 0;
  r.launchShare = r.latencyCycles > 0
                      ? static_cast<double>(r.latencyCycles - stream.busy()) / static_cast<double>(r.latencyCycles)
                      : 0;
}

}  // namespace fw::sim
