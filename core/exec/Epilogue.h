#pragma once
// Which Relu the reference executor computes inside its producer's loop (an epilogue), for the executor
// (Executor.cpp) and for the CPU cost model that has to charge what the executor runs
// (simulator/CpuCost.cpp).
#include <functional>

#include "core/ir/Graph.h"

namespace fw::exec {

// The Relu node that is the only reader of `producer`'s only output when `producer` is a Conv, a
// BatchNormalization or an Add (default domain), and kNoId otherwise or when `kept(value)` says that
// output must stay as computed (a graph output, a value a nested subgraph reads). The executor computes
// that Relu with its producer whenever nodes are not timed one by one: in every fused body.
NodeId reluEpilogueOf(const Graph& g, NodeId producer, const std::function<bool(ValueId)>& kept);

}  // namespace fw::exec
