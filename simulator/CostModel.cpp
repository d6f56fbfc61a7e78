// Cost of one kernel on an NPU profile: its members on the cube and vector units, HBM traffic, the
// double-buffered pipeline and what bounds it (CostModel.h; formulas in simulator/README.md).
#include "simulator/CostModel.h"

#include <algorithm>
#include <cmath>

#include "core/ir/OpCost.h"
#include "simulator/CostUtil.h"
#include "simulator/CpuCost.h"
#include "simulator/CubeCost.h"
#include "simulator/OpFamily.h"
#include "simulator/VectorCost.h"

namespace fw::sim {
using namespace detail;

namespace {

// Adds the vector pass of member `m` to `t` and `work`. An op type outside the cost table is costed
// as one vector pass over its output and noted once in `warnings`.
Status addVectorOp(const Graph& g, NodeId m, OpFamily fam, double flops, const HwProfile& hw, KernelTiming& t,
                   VectorWork& work, std::vector<std::string>* warnings) {
  if (fam == OpFamily::Unknown && warnings) {
    const std::string w = "op type '" + g.node(m).opType + "' is not in the cost table: costed as one vector pass over its output";
    if (std::find(warnings->begin(), warnings->end(), w) == warnings->end()) warnings->push_back(w);
  }
  work.members[static_cast<size_t>(m)] = 1;
  FW_ASSIGN_OR_RETURN(VecItem it, vecItemOf(g, m, fam, flops));
  t.vectorCycles += scaled(vectorCycles(it, hw), hw.efficiency.of(fam));
  work.rowMax = std::max(work.rowMax, it.row);
  work.elemsMax = std::max(work.elemsMax, it.elems);
  return {};
}

// Costs every member of `group` on its unit (ops, nodes, FLOPs, cube and vector cycles, cube
// re-reads; views cost nothing) and returns the units the kernel uses.
Result<Unit> costMembers(const Graph& g, const KernelGroup& group, const std::vector<char>& inGroup,
                         const HwProfile& hw, KernelTiming& t, VectorWork& work,
                         std::vector<std::string>* warnings) {
  bool anyCube = false, anyVector = false;
  for (NodeId m : group.members) {
    const Node& n = g.node(m);
    t.ops.push_back(n.opType);
    t.nodes.push_back(n.name);
    const OpFamily fam = nodeFamily(g, n);
    if (fam == OpFamily::ControlFlow)
      return Error::badInput(where(g, m) + ": control flow is not simulated; inline or unroll it first");
    const NodeCost nc = nodeCost(g, m);
    if (fam != OpFamily::View && !nc.known) return Error::badInput(nc.problem);
    t.flops += nc.flops;
    if (fam == OpFamily::View) continue;
    if (fam == OpFamily::Cube) {
      anyCube = true;
      FW_ASSIGN_OR_RETURN(bool gateMath, costCubeOp(g, m, inGroup, hw, t));
      anyVector = anyVector || gateMath;
      continue;
    }
    anyVector = true;
    FW_TRY_STATUS(addVectorOp(g, m, fam, nc.flops, hw, t, work, warnings));
  }
  return anyCube && anyVector ? Unit::CubeVector : anyCube ? Unit::Cube : anyVector ? Unit::Vector : Unit::None;
}

// Adds the device bytes of `vs` to `sum`; a value without a producer is named by `fallback`.
Status addDeviceBytes(const Graph& g, const std::vector<ValueId>& vs, const HwProfile& hw, NodeId fallback,
                      double& sum) {
  for (ValueId v : vs) {
    const NodeId p = g.value(v).producer;
    FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, p != kNoId ? p : fallback));
    sum += b;
  }
  return {};
}

// Double-buffered pipeline of load/store, cube and vector stages over `tilesPerCore` tiles: the
// slowest stage sets the pace; the others show only while the pipeline fills and drains. Sets the
// transfer, launch and fill cycles, the kernel's cycles and what bounds it.
void pipelineTime(const HwProfile& hw, KernelTiming& t) {
  t.transferCycles = static_cast<int64_t>(std::ceil(t.hbmBytes * hw.clockHz / hw.hbmBandwidth - 1e-9));
  t.launchCycles = hw.usToCycles(hw.launchUs);
  const int64_t stages[] = {t.transferCycles, t.cubeCycles, t.vectorCycles};
  const int64_t mx = std::max({stages[0], stages[1], stages[2]});
  const int64_t sum = stages[0] + stages[1] + stages[2];
  int64_t body = mx + ceilDiv(sum - mx, std::max<int64_t>(1, t.tilesPerCore));
  // Floor: no schedule beats the chip's peak (binds only when cube and vector are both saturated).
  const auto floorCycles = static_cast<int64_t>(std::ceil(t.flops / (hw.peakFlops() / hw.clockHz) - 1e-9));
  body = std::max(body, floorCycles);
  t.fillCycles = body - mx;
  t.cycles = body + t.launchCycles;
  if (t.launchCycles > mx)
    t.bound = Bound::Launch;
  else if (t.transferCycles >= std::max(t.cubeCycles, t.vectorCycles))
    t.bound = Bound::Memory;
  else
    t.bound = Bound::Compute;
}

}  // namespace

Result<KernelCost> costKernel(const Graph& g, const KernelGroup& group, const HwProfile& hw,
                              std::vector<std::string>* warnings, double cpuRunFootprint,
                              const CpuRunReuse* cpuReuse) {
  if (hw.isCpu())
    return costCpuKernel(g, group, hw, warnings, cpuRunFootprint,
                         cpuReuse);  // a measured CPU profile: CpuCost.h
  std::vector<char> inGroup;
  KernelCost kc = beginKernelCost(g, group, inGroup);
  KernelTiming& t = kc.timing;
  const GroupBoundary& bd = kc.boundary;

  VectorWork work;
  work.members.assign(g.nodeCapacity(), 0);
  FW_ASSIGN_OR_RETURN(t.unit, costMembers(g, group, inGroup, hw, t, work, warnings));
  t.origins = group.origins.empty() ? t.nodes : group.origins;
  if (t.unit == Unit::None) return kc;  // only views: no kernel, no traffic

  const NodeId fallback = group.members.front();
  FW_TRY_STATUS(addDeviceBytes(g, bd.inputs, hw, fallback, t.inputBytes));
  FW_TRY_STATUS(addDeviceBytes(g, bd.weights, hw, fallback, t.weightBytes));
  FW_TRY_STATUS(addDeviceBytes(g, bd.outputs, hw, fallback, t.outputBytes));
  if (work.elemsMax > 0) FW_TRY_STATUS(tileThroughUb(g, bd, work, fallback, hw, t));

  t.hbmBytes = t.inputBytes + t.weightBytes + t.outputBytes + t.rereadBytes + t.spillBytes;
  pipelineTime(hw, t);
  return kc;
}

}  // namespace fw::sim
