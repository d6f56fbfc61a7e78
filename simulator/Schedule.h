#pragma once
// Internal to fw_sim: the order and the timeline of a graph's kernels on one stream
// (simulator/README.md, "Schedule, memory, modes"): the grouping checked and put in a topological
// order of the kernel DAG, then every kernel given its start on the device (and, in eager mode, its
// dispatch on the host).
#include <cstdint>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/KernelBoundary.h"
#include "simulator/SimTypes.h"

namespace fw::sim {

// A checked grouping in the order it runs.
struct Schedule {
  std::vector<NodeId> topo;      // the graph's live nodes in topological order
  std::vector<int32_t> groupOf;  // indexed by NodeId: the group holding the node (-1: dead)
  std::vector<size_t> order;     // group indices, in the order they run
};

// Checks that `groups` covers every live node exactly once (eager: one node per group) and orders
// them: every group after the groups producing its inputs; among ready groups the one holding the
// earliest node (in the graph's topological order) goes first. BadInput names the node or kernels.
Result<Schedule> scheduleKernels(const Graph& g, const std::vector<KernelGroup>& groups, SimMode mode);

// One step of the schedule: a kernel, or a control-flow node that stands for the body kernels it runs.
struct Step {
  KernelTiming timing;              // the kernel (costKernel); a control-flow node: its name and members
  GroupBoundary boundary;           // what it reads and writes
  bool control = false;             // a control-flow node: `body` is what runs
  std::vector<KernelTiming> body;   // control flow: the body kernels, scoped and folded by trips
  double bodyPeakBytes = 0;         // control flow: the body's own activations, live while it runs
};

// Lays the steps out on one stream in order: start and duration of every kernel (a control-flow
// step's body kernels in its place), host dispatch in eager mode, host shape work in graph mode.
// Sets r's latency, throughput, launch share, HBM bytes and FLOPs.
void layOut(std::vector<Step>& steps, const HwProfile& hw, SimMode mode, SimResult& r);

}  // namespace fw::sim
