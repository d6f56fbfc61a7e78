#pragma once
// The simulated NPU: times a graph executed as a list of kernels on one stream.
//
// Input is any graph plus a kernel grouping as plain structs, so the simulator does not depend on the
// fusion engine: a group lists ORIGINAL node ids; the simulator derives what a kernel reads and writes
// from the members' edges (a value produced and consumed only inside the group stays on chip; an
// initializer is a weight). The same graph simulated with unfusedGroups() is the "before" run.
// The cost model is documented in simulator/README.md.
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/SimTypes.h"  // KernelGroup, SimOptions, KernelTiming, SimResult

namespace fw::sim {

// One kernel per live node, in topological order. Views get their own (zero-cost) group too.
Result<std::vector<KernelGroup>> unfusedGroups(const Graph& g);

// Simulates `groups` (which must cover every live node exactly once and be acyclic) on `hw`.
// Eager mode requires single-node groups (eager dispatches every operator on its own).
// Errors (BadInput) name the node and value: missing shapes, a control-flow path nobody can tell
// (no trace and no constant trip count), a bad grouping.
Result<SimResult> simulate(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                           const SimOptions& opts = {});

}  // namespace fw::sim
