#pragma once
// Cost of one kernel (a group of original nodes) on a hardware profile: cube and vector cycles,
// HBM traffic, the double-buffered pipeline and the launch. Formulas: simulator/README.md.
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/Simulator.h"

namespace fw::sim {

// What a group reads and writes through HBM, derived from the members' edges.
struct GroupBoundary {
  std::vector<ValueId> inputs;     // activations produced outside the group (or graph inputs)
  std::vector<ValueId> weights;    // initializers
  std::vector<ValueId> outputs;    // values used outside the group, graph outputs, or unused
  std::vector<ValueId> internals;  // produced and consumed only inside: stay on chip
};

// `inGroup` is indexed by NodeId (size = g.nodeCapacity()).
GroupBoundary groupBoundary(const Graph& g, const std::vector<NodeId>& members,
                            const std::vector<char>& inGroup);

// Bytes of a value on the device: floating tensors are stored in the profile's dtype (as ATC
// converts an fp32 model to fp16), integer tensors keep their size. BadInput when the shape is not
// static, naming the value and `node`.
Result<double> deviceBytes(const Graph& g, ValueId v, const HwProfile& hw, NodeId node);

struct KernelCost {
  KernelTiming timing;  // everything except start times
  GroupBoundary boundary;
};

// Costs one group. Unknown op types are costed as one vector pass and noted in `warnings`.
Result<KernelCost> costKernel(const Graph& g, const KernelGroup& group, const HwProfile& hw,
                              std::vector<std::string>* warnings);

}  // namespace fw::sim
