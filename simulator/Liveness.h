#pragma once
// Internal to fw_sim: device memory over a schedule (simulator/README.md, "Device memory"): all
// weights plus the peak of live activations, an activation living in HBM from the kernel that
// writes it to the last kernel that reads it.
#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/Schedule.h"
#include "simulator/SimTypes.h"

namespace fw::sim {

// Sets r.peakActivationBytes, adds the graph's weights to r.weightBytes (which already holds the
// bodies' weights), sets r.peakMemoryBytes and warns when it exceeds the profile's capacity.
// `steps` are the costed steps of `sched`, in its order.
Status accountMemory(const Graph& g, const Schedule& sched, const std::vector<Step>& steps, const HwProfile& hw,
                     SimResult& r);

}  // namespace fw::sim
