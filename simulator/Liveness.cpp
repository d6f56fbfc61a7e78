// Device memory over a schedule: weights plus the peak of live activations (Liveness.h).
#include "simulator/Liveness.h"

#include <algorithm>
#include <string>

#include "simulator/KernelBoundary.h"
#include "simulator/OpFamily.h"

namespace fw::sim {
namespace {

// The value whose bytes `v` occupies: values produced by a view-only kernel alias their source
// (same bytes, no copy); Shape, Size, Constant and control-flow outputs are values of their own.
class AliasRoots {
 public:
  AliasRoots(const Graph& g, const Schedule& sched, const std::vector<Step>& steps)
      : g_(g), groupOf_(sched.groupOf), isView_(steps.size(), 0), stepOfGroup_(sched.order.size(), -1),
        memo_(g.values().size(), kNoId) {
    for (size_t s = 0; s < sched.order.size(); ++s) {
      stepOfGroup_[sched.order[s]] = static_cast<int32_t>(s);
      isView_[s] = steps[s].timing.unit == Unit::None;
    }
  }

  ValueId operator()(ValueId v) {
    if (memo_[static_cast<size_t>(v)] != kNoId) return memo_[static_cast<size_t>(v)];
    ValueId res = v;
    const NodeId p = g_.value(v).producer;
    if (p != kNoId) {
      const Node& pn = g_.node(p);
      const auto step = static_cast<size_t>(stepOfGroup_[static_cast<size_t>(groupOf_[static_cast<size_t>(p)])]);
      const bool alias = isView_[step] && pn.opType != "Shape" && pn.opType != "Size" &&
                         pn.opType != "Constant" && opFamily(pn.opType) != OpFamily::ControlFlow &&
                         !pn.inputs.empty() && pn.inputs[0] != kNoId;
      if (alias) res = (*this)(pn.inputs[0]);
    }
    memo_[static_cast<size_t>(v)] = res;
    return res;
  }

 private:
  const Graph& g_;
  const std::vector<int32_t>& groupOf_;
  std::vector<char> isView_;           // by step: the kernel is views only
  std::vector<int32_t> stepOfGroup_;   // by group index
  std::vector<ValueId> memo_;          // by ValueId
};

// Steps from which to which each activation (alias root, indexed by ValueId) is live; -1: never.
struct LiveRanges {
  std::vector<int32_t> allocAt, freeAt;
};

LiveRanges liveRanges(const Graph& g, const Schedule& sched, const std::vector<Step>& steps) {
  AliasRoots root(g, sched, steps);
  const int32_t last = static_cast<int32_t>(sched.order.size()) - 1;
  LiveRanges lr{std::vector<int32_t>(g.values().size(), -1), std::vector<int32_t>(g.values().size(), -1)};
  auto touch = [&](ValueId v, int32_t step) {
    const ValueId rt = root(v);
    if (g.value(rt).isInitializer()) return;  // weights are counted once, on their own
    auto& a = lr.allocAt[static_cast<size_t>(rt)];
    auto& f = lr.freeAt[static_cast<size_t>(rt)];
    a = a < 0 ? step : std::min(a, step);
    f = std::max(f, step);
    if (g.value(v).isGraphOutput) f = last;
  };
  // Graph inputs are live from the first kernel on; with no kernel at all (a graph whose nodes are all
  // dead, e.g. one without outputs after fusion) nothing is ever live.
  if (!sched.order.empty())
    for (ValueId v : g.inputs()) touch(v, 0);
  for (size_t s = 0; s < steps.size(); ++s) {
    const auto step = static_cast<int32_t>(s);
    for (ValueId v : steps[s].boundary.inputs) touch(v, step);
    for (ValueId v : steps[s].boundary.outputs) touch(v, step);
  }
  return lr;
}

// The most activation bytes live at once over the schedule.
Result<double> peakActivation(const Graph& g, const Schedule& sched, const std::vector<Step>& steps,
                              const HwProfile& hw) {
  const LiveRanges lr = liveRanges(g, sched, steps);
  std::vector<double> delta(sched.order.size() + 1, 0.0);
  for (size_t v = 0; v < lr.allocAt.size(); ++v) {
    if (lr.allocAt[v] < 0) continue;
    const NodeId producer = g.value(static_cast<ValueId>(v)).producer;
    FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, static_cast<ValueId>(v), hw,
                                              producer != kNoId ? producer
                                                                : sched.topo.empty() ? 0 : sched.topo.front()));
    delta[static_cast<size_t>(lr.allocAt[v])] += b;
    delta[static_cast<size_t>(lr.freeAt[v]) + 1] -= b;
  }
  double live = 0, peak = 0;
  for (size_t s = 0; s < sched.order.size(); ++s) {
    live += delta[s];
    // Spilled intermediates sit in HBM while their kernel runs (spill bytes count write + read).
    peak = std::max(peak, live + steps[s].timing.spillBytes / 2 + steps[s].bodyPeakBytes);
  }
  return peak;
}

// Adds the device bytes of every weight the graph's nodes read, once each, to `sum`.
Status addWeights(const Graph& g, const std::vector<NodeId>& topo, const HwProfile& hw, double& sum) {
  std::vector<char> weightSeen(g.values().size(), 0);
  for (NodeId n : topo)
    for (ValueId v : g.node(n).inputs) {
      if (v == kNoId || !g.value(v).isInitializer() || weightSeen[static_cast<size_t>(v)]) continue;
      weightSeen[static_cast<size_t>(v)] = 1;
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, n));
      sum += b;
    }
  return {};
}

}  // namespace

Status accountMemory(const Graph& g, const Schedule& sched, const std::vector<Step>& steps, const HwProfile& hw,
                     SimResult& r) {
  FW_ASSIGN_OR_RETURN(r.peakActivationBytes, peakActivation(g, sched, steps, hw));
  FW_TRY_STATUS(addWeights(g, sched.topo, hw, r.weightBytes));
  r.peakMemoryBytes = r.weightBytes + r.peakActivationBytes;
  if (r.peakMemoryBytes > hw.hbmCapacityBytes)
    r.warnings.push_back("peak device memory " + std::to_string(r.peakMemoryBytes / 1e9) +
                         " GB exceeds the profile's capacity");
  return {};
}

}  // namespace fw::sim
