// simulate(): check and order the grouping (Schedule), cost every step (CostModel for a kernel,
// ControlFlow for an If/Loop/Scan, a host step for shape work), lay the steps out on one stream
// (Schedule), then count device memory (Liveness).
#include "simulator/Simulator.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "core/exec/RtTensor.h"
#include "simulator/ControlFlow.h"
#include "simulator/CostModel.h"
#include "simulator/CpuCost.h"
#include "simulator/Liveness.h"
#include "simulator/OpFamily.h"
#include "simulator/Schedule.h"

namespace fw::sim {
namespace {

std::shared_ptr<spdlog::logger> logger() {
  static auto l = [] {
    auto existing = spdlog::get("sim");
    return existing ? existing : spdlog::default_logger()->clone("sim");
  }();
  return l;
}

// Integer shape work a graph compiler could not fold (shapes that depend on data): small int/bool
// tensors computed from small int/bool tensors. It runs on the host between device kernels, not as a
// device kernel with a launch (GE and MindSpore's graph mode do so).
constexpr int64_t kHostShapeElems = 64;
bool isHostShapeWork(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  const OpFamily fam = nodeFamily(g, n);
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

// The executor's time outside its nodes (HwProfile.h, CpuFigures::runOverhead): once a run, per node it
// runs (every kernel row, a loop body's once per trip: the larger of s_per_node and cold_call_curve's
// "outside" at the distance since the node last ran), per initializer of the graph, per byte of the
// graph's outputs and one copy of each of them (a fresh buffer), and the same for each input the executor
// converts (one it holds as is, RtTensor::storedAsIs, costs no copy). Added to the latency after the last
// kernel.
void addRunOverhead(const Graph& g, const HwProfile& hw, SimResult& r) {
  const auto& o = hw.cpu.runOverhead;
  double nodesS = 0, initializers = 0, ioBytes = 0;
  for (const KernelTiming& k : r.kernels)
    nodesS +=
        static_cast<double>(std::max<int64_t>(1, k.repeats)) * hw.cpu.outsideNodeSeconds(k.nodeDistanceBytes);
  for (const Value& v : g.values())
    if (v.initializer) ++initializers;
  double copyS = 0;
  auto io = [&](ValueId v, NodeId n) {
    if (n == kNoId) return;
    auto b = deviceBytes(g, v, hw, n);
    if (!b.ok()) return;
    ioBytes += *b;
    copyS += hw.cpu.copySeconds(*b);
  };
  for (ValueId v : g.inputs())
    if (!g.value(v).initializer && !g.value(v).consumers.empty() &&
        !exec::RtTensor::storedAsIs(g.value(v).dtype))
      io(v, g.value(v).consumers.front());
  for (ValueId v : g.outputs()) io(v, g.value(v).producer);
  const double s = o.perRunS + nodesS + o.perInitializerS * initializers + o.perIoByteS * ioBytes + copyS;
  r.runOverheadUs = s * 1e6;
  const int64_t before = r.latencyCycles, extra = hw.usToCycles(r.runOverheadUs);
  r.latencyCycles += extra;
  if (r.latencyCycles > 0)
    r.launchShare = (r.launchShare * static_cast<double>(before) + static_cast<double>(extra)) /
                    static_cast<double>(r.latencyCycles);
  r.latencyUs = hw.cyclesToUs(static_cast<double>(r.latencyCycles));
  r.throughput = r.latencyUs > 0 ? static_cast<double>(r.batch) / (r.latencyUs * 1e-6) : 0;
}

// simulate() of a graph running under scope `prefix` ("" at top level; a body's kernels are named
// "<prefix>/<kernel>"). Recursive: a control-flow step simulates its bodies with it.
Result<SimResult> simulateScoped(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                                 const SimOptions& opts, const std::string& prefix);

// A single-node step as its group names it, with what the node reads and writes; no cost yet.
Step singleNodeStep(const Graph& g, const KernelGroup& kg) {
  Step st;
  const NodeId m = kg.members[0];
  st.timing.name = kg.name;
  st.timing.members = kg.members;
  st.timing.ops = {g.node(m).opType};
  st.timing.nodes = {g.node(m).name};
  st.timing.origins = kg.origins.empty() ? st.timing.nodes : kg.origins;
  std::vector<char> inGroup(g.nodeCapacity(), 0);
  inGroup[static_cast<size_t>(m)] = 1;
  st.boundary = groupBoundary(g, kg.members, inGroup);
  return st;
}

// A body reads the graph around it by name; a copy of it that holds the small integer constants it reads
// so as its own, so that its nodes' costs know them as a top-level node's do (a point-cloud net's sampling
// Loop summed its squared distances over axes the body read from its parent: an unknown reduction, its
// short rows uncharged); nullopt when it reads none. (Larger constants stay outer values: a recurrent
// body's weights keep the reuse their reads have.)
std::optional<Graph> withOuterConstants(const Graph& outer, const Graph& body) {
  std::optional<Graph> copy;
  for (const Value& v : body.values()) {
    if (!v.isOuterRef() || v.consumers.empty()) continue;
    const Tensor* t = constantValue(outer, outer.findValue(v.name));
    if (!t || !isInteger(t->dtype()) || t->numel() > kHostShapeElems) continue;
    if (!copy) copy.emplace(body);
    copy->setInitializer(v.id, *t);
  }
  return copy;
}

// A control-flow node: the body kernels it runs (costControl), each body simulated with its fused
// kernels when SimOptions::bodyGroups has them, else one kernel per node. The bodies' weights,
// warnings and notes go into `r`.
Result<Step> controlStep(const Graph& g, const KernelGroup& kg, const HwProfile& hw, const SimOptions& opts,
                         const std::string& prefix, SimResult& r) {
  auto simulateBody = [&](const Graph& body, const std::string& scope) -> Result<SimResult> {
    std::vector<KernelGroup> groups;
    if (opts.bodyGroups) {
      auto it = opts.bodyGroups->find(scope);
      if (it != opts.bodyGroups->end()) groups = it->second;
    }
    if (groups.empty()) {
      FW_ASSIGN_OR_RETURN(groups, unfusedGroups(body));
    }
    if (const std::optional<Graph> own = withOuterConstants(g, body))
      return simulateScoped(*own, groups, hw, opts, scope);
    return simulateScoped(body, groups, hw, opts, scope);
  };
  FW_ASSIGN_OR_RETURN(ControlCost cc, costControl(g, kg.members[0], opts, prefix, simulateBody));
  Step st = singleNodeStep(g, kg);
  st.control = true;
  st.body = std::move(cc.kernels);
  st.bodyPeakBytes = cc.peakActivationBytes;
  r.weightBytes += cc.weightBytes;
  for (auto& w : cc.warnings)
    if (std::find(r.warnings.begin(), r.warnings.end(), w) == r.warnings.end()) r.warnings.push_back(std::move(w));
  for (auto& nn : cc.notes) r.controlFlowNotes.push_back(std::move(nn));
  return st;
}

// Host shape work: one host step of about one launch (profile launch_us); no device kernel, and the
// device waits for its result.
Step hostStep(const Graph& g, const KernelGroup& kg, const HwProfile& hw) {
  Step st = singleNodeStep(g, kg);
  st.timing.unit = Unit::None;
  st.timing.bound = Bound::Host;
  st.timing.cycles = hw.usToCycles(hw.launchUs);
  st.timing.hostDispatchUs = hw.launchUs;
  return st;
}

// Costs every group in schedule order. Kernels of a body are named "<prefix>/<kernel>".
Result<std::vector<Step>> costSteps(const Graph& g, const std::vector<KernelGroup>& groups, const Schedule& sched,
                                    const HwProfile& hw, const SimOptions& opts, const std::string& prefix,
                                    SimResult& r) {
  std::vector<Step> steps;
  steps.reserve(sched.order.size());
  const double footprint = hw.isCpu() ? runFootprintBytes(g, hw) : 0.0;
  const CpuRunReuse reuse = hw.isCpu() ? cpuRunReuse(g, groups, sched.order, hw, footprint) : CpuRunReuse{};
  for (size_t gi : sched.order) {
    const KernelGroup& kg = groups[gi];
    if (isControlGroup(g, kg)) {
      FW_ASSIGN_OR_RETURN(Step st, controlStep(g, kg, hw, opts, prefix, r));
      steps.push_back(std::move(st));
      continue;
    }
    Step st;
    if (opts.mode == SimMode::Graph && kg.members.size() == 1 && isHostShapeWork(g, kg.members[0])) {
      st = hostStep(g, kg, hw);
      // On a CPU the host is the device: the executor runs the shape work as a node, its call and its
      // cold code included (cpuShapeWorkSeconds), in line. (At the launch figure alone, 0.28 us, the 540
      // such kernels of the stored rows, session 36, measured medians of 0.6-2 us by op type.)
      if (hw.isCpu())
        if (const auto s = cpuShapeWorkSeconds(g, kg.members[0], hw, footprint, &reuse))
          st.timing.cycles = hw.usToCycles(*s * 1e6);
    } else {
      FW_ASSIGN_OR_RETURN(KernelCost kc, costKernel(g, kg, hw, &r.warnings, footprint, &reuse));
      st.timing = std::move(kc.timing);
      st.boundary = std::move(kc.boundary);
    }
    if (!prefix.empty()) {
      st.timing.name = prefix + "/" + st.timing.name;
      st.timing.scope = prefix;
    }
    if (hw.isCpu() && !kg.members.empty() && static_cast<size_t>(kg.members[0]) < reuse.nodeDistance.size())
      st.timing.nodeDistanceBytes = reuse.nodeDistance[static_cast<size_t>(kg.members[0])];
    steps.push_back(std::move(st));
  }
  return steps;
}

// The kernels in schedule order, a control-flow step replaced by the body kernels it ran.
void collectKernels(std::vector<Step>& steps, SimResult& r) {
  r.kernels.reserve(steps.size());
  for (Step& s : steps) {
    if (s.control) {
      for (KernelTiming& t : s.body) r.kernels.push_back(std::move(t));
      continue;
    }
    r.kernels.push_back(std::move(s.timing));
  }
}

Result<SimResult> simulateScoped(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                                 const SimOptions& opts, const std::string& prefix) {
  SimResult r;
  r.hwName = hw.name;
  r.peakFlops = hw.peakFlops();
  r.hbmBandwidth = hw.hbmBandwidth;
  r.mode = opts.mode;
  r.batch = std::max<int64_t>(1, opts.batch);

  FW_ASSIGN_OR_RETURN(Schedule sched, scheduleKernels(g, groups, opts.mode));
  FW_ASSIGN_OR_RETURN(std::vector<Step> steps, costSteps(g, groups, sched, hw, opts, prefix, r));
  layOut(steps, hw, opts.mode, r);
  FW_TRY_STATUS(accountMemory(g, sched, steps, hw, r));
  collectKernels(steps, r);
  logger()->debug("simulated {} kernels on {} ({} mode): {:.1f} us", r.kernels.size(), hw.name,
                 simModeName(opts.mode), r.latencyUs);
  return r;
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
  FW_ASSIGN_OR_RETURN(SimResult r, simulateScoped(g, groups, hw, opts, ""));
  if (hw.isCpu() && hw.cpu.runOverhead.any()) addRunOverhead(g, hw, r);
  return r;
}

}  // namespace fw::sim
