#pragma once
// Internal to fw_sim: control flow (If/Loop/Scan). A control-flow node is timed as the body kernels
// of the path that runs (SimOptions::controlFlow, ::trace, ::bodyGroups), each body simulated on its
// own under its scope ("If_3/then_branch") and, for a loop, scaled by the trip count.
#include <functional>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/SimTypes.h"

namespace fw::sim {

// The body kernels a control-flow node runs, timed once and scaled by the trip count.
struct ControlCost {
  std::vector<KernelTiming> kernels;
  double peakActivationBytes = 0;  // the body's own activations, live while it runs
  double weightBytes = 0;          // weights held by the body
  std::vector<std::string> notes, warnings;
};

// A group that is one control-flow node.
bool isControlGroup(const Graph& g, const KernelGroup& kg);

// Simulates one body graph under its scope ("If_3/then_branch"): simulate() with the body's kernel
// groups, its kernels named "<scope>/<kernel>". Simulator.cpp passes it in.
using SimulateBody = std::function<Result<SimResult>(const Graph& body, const std::string& scope)>;

// Times control-flow node `id` of `g`, a graph running under scope `prefix` ("" at top level), with
// `simulateBody` for the body or bodies it picks. BadInput when the path that runs cannot be told
// (If not reached by the trace, unknown trip count) or a body is missing.
Result<ControlCost> costControl(const Graph& g, NodeId id, const SimOptions& opts, const std::string& prefix,
                                const SimulateBody& simulateBody);

}  // namespace fw::sim
