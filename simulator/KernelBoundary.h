#pragma once
// What a kernel reads and writes through HBM, derived from its members' edges, and the bytes a value
// takes on the device. Shared by the NPU and CPU cost models, the UB tiling and the memory count.
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/SimTypes.h"

namespace fw::sim {

// What a group reads and writes through HBM, derived from the members' edges.
struct GroupBoundary {
  std::vector<ValueId> inputs;     // activations produced outside the group (or graph inputs)
  std::vector<ValueId> weights;    // initializers
  std::vector<ValueId> outputs;    // values used outside the group, graph outputs, or unused
  std::vector<ValueId> internals;  // produced and consumed only inside: stay on chip
};

// One kernel's timing (everything but its start) and its boundary: what the NPU and CPU cost models
// return.
struct KernelCost {
  KernelTiming timing;
  GroupBoundary boundary;
};

// `inGroup` is indexed by NodeId (size = g.nodeCapacity()).
GroupBoundary groupBoundary(const Graph& g, const std::vector<NodeId>& members,
                            const std::vector<char>& inGroup);

// A kernel's cost record begun: timing named after `group`, its members, its boundary; `inGroup` is
// filled (indexed by NodeId) to mark the members. The NPU and CPU cost models both start here.
KernelCost beginKernelCost(const Graph& g, const KernelGroup& group, std::vector<char>& inGroup);

// Bytes an element of dtype `dt` takes on the device: floating tensors are stored in the profile's dtype
// (as ATC converts an fp32 model to fp16); integer tensors keep their size on an NPU, and take 8 bytes on
// a cpu profile, as the reference executor holds every integer type (core/exec/RtTensor.h: Store::I64):
// a QDQ model's int8 weight of 2.36 M elements feeds its DequantizeLinear 18.9 MB, not 2.4.
size_t deviceElemBytes(DType dt, const HwProfile& hw);
// Bytes of a value on the device (deviceElemBytes). BadInput when the shape is not static, naming the
// value and `node`.
Result<double> deviceBytes(const Graph& g, ValueId v, const HwProfile& hw, NodeId node);

}  // namespace fw::sim
