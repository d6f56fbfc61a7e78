// What a kernel reads and writes through HBM, and a value's bytes on the device (KernelBoundary.h).
#include "simulator/KernelBoundary.h"

#include "simulator/CostUtil.h"
#include "simulator/OpFamily.h"

namespace fw::sim {
using namespace detail;

GroupBoundary groupBoundary(const Graph& g, const std::vector<NodeId>& members,
                            const std::vector<char>& inGroup) {
  GroupBoundary b;
  std::vector<char> seen(g.values().size(), 0);
  auto member = [&](NodeId n) { return n != kNoId && inGroup[static_cast<size_t>(n)]; };
  for (NodeId m : members) {
    for (ValueId v : g.node(m).inputs) {
      if (v == kNoId || seen[static_cast<size_t>(v)]) continue;
      const Value& val = g.value(v);
      if (member(val.producer)) continue;  // classified with its producer's outputs
      seen[static_cast<size_t>(v)] = 1;
      // A view of a weight (an Identity of one, where layers share it) is that weight's storage.
      (weightBehindViews(g, v) != kNoId ? b.weights : b.inputs).push_back(v);
    }
  }
  for (NodeId m : members) {
    for (ValueId v : g.node(m).outputs) {
      if (v == kNoId || seen[static_cast<size_t>(v)]) continue;
      seen[static_cast<size_t>(v)] = 1;
      const Value& val = g.value(v);
      bool external = val.isGraphOutput || val.consumers.empty();
      for (NodeId c : val.consumers) external = external || !member(c);
      (external ? b.outputs : b.internals).push_back(v);
    }
  }
  return b;
}

size_t deviceElemBytes(DType dt, const HwProfile& hw) {
  if (isFloating(dt)) return hw.elemBytes();
  if (hw.isCpu() && isInteger(dt)) return 8;
  return dtypeSize(dt);
}

Result<double> deviceBytes(const Graph& g, ValueId v, const HwProfile& hw, NodeId node) {
  const Value& val = g.value(v);
  DType dt = val.initializer ? val.initializer->dtype() : val.dtype;
  if (dt == DType::Undefined || dt == DType::String)
    return Error::badInput(where(g, node) + ": value '" + val.name + "' has dtype " +
                           std::string(dtypeName(dt)) + "; the simulator needs a numeric dtype");
  FW_ASSIGN_OR_RETURN(auto dims, dimsOf(g, v, node));
  return static_cast<double>(prod(dims)) * static_cast<double>(deviceElemBytes(dt, hw));
}

KernelCost beginKernelCost(const Graph& g, const KernelGroup& group, std::vector<char>& inGroup) {
  KernelCost kc;
  kc.timing.name = group.name;
  kc.timing.members = group.members;
  inGroup.assign(g.nodeCapacity(), 0);
  for (NodeId m : group.members) inGroup[static_cast<size_t>(m)] = 1;
  kc.boundary = groupBoundary(g, group.members, inGroup);
  return kc;
}

}  // namespace fw::sim
