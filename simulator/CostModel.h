#pragma once
// Cost of one kernel (a group of original nodes) on a hardware profile: cube and vector cycles,
// HBM traffic, the double-buffered pipeline and the launch. Formulas: simulator/README.md.
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/CpuCost.h"  // CpuRunReuse
#include "simulator/HwProfile.h"
#include "simulator/KernelBoundary.h"  // GroupBoundary, KernelCost, groupBoundary, deviceBytes
#include "simulator/SimTypes.h"

namespace fw::sim {

// Costs one group. Unknown op types are costed as one vector pass and noted in `warnings`.
// `cpuRunFootprint`, `cpuReuse`: for CPU profiles, runFootprintBytes of g and cpuRunReuse of the run
// (CpuCost.h); ignored otherwise.
Result<KernelCost> costKernel(const Graph& g, const KernelGroup& group, const HwProfile& hw,
                              std::vector<std::string>* warnings, double cpuRunFootprint = 0,
                              const CpuRunReuse* cpuReuse = nullptr);

}  // namespace fw::sim
