#pragma once
// Which node goes into which kernel. Every live node starts as its own kernel; grouping rules merge
// kernels. A merge is checked first (checkMerge returns why not, empty when legal):
//   - the user's exclusions and --disable_cluster_ops, control flow (never fused);
//   - no fusing across an intermediate that is a graph output or read outside the kernel;
//   - one launch on the NPU: at most one cube op (two for an attention kernel);
//   - the kernel DAG stays acyclic (a path that leaves and re-enters the kernel is a cycle);
//   - from level 2: one tile's working set fits the Unified Buffer, and the merge removes at least
//     HwLimits::minTrafficSaving of the traffic of the parts it absorbs (all but the largest part);
//   - from level 2: the merge keeps no more than HwLimits::cacheBytes alive beyond what the separate
//     kernels keep (heldBytes: a kernel runs once all its inputs are there, so members that could run
//     earlier wait, their inputs held).
// Node ids are those of a compacted graph, so id order is topological.
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

class KernelPlan {
 public:
  KernelPlan(const Graph& g, const FusionOptions& opts);

  int groupOf(NodeId n) const;
  const std::vector<NodeId>& members(int group) const { return members_[static_cast<size_t>(group)]; }
  const std::string& label(int group) const { return labels_[static_cast<size_t>(group)]; }
  bool isSingle(NodeId n) const { return members(groupOf(n)).size() == 1; }
  bool groupHas(int group, bool (*pred)(const Node&)) const;
  // The union of the kernels holding `nodes`, sorted.
  std::vector<NodeId> unionOf(const std::vector<NodeId>& nodes) const;

  // Why the kernels holding `nodes` may not become one; empty when they may. `ruleLevel` >= 2
  // switches the benefit check on (when the run's level is >= 2).
  std::string checkMerge(const std::vector<NodeId>& nodes, const std::string& label, int ruleLevel) const;
  // Merges (assumes checkMerge passed). Returns the new group id.
  int merge(const std::vector<NodeId>& nodes, const std::string& label);

  std::vector<Kernel> kernels() const;

  // Figures behind the checks, exposed for tests and the report.
  double trafficBytes(const std::vector<NodeId>& set) const;  // bytes crossing the kernel boundary
  double workingSetBytes(const std::vector<NodeId>& set) const;  // one tile, all tensors it touches
  // What one kernel of `set` keeps alive beyond its nodes as separate kernels: it runs once its last input
  // is made (by the node `*until`); the inputs of the members before that node are held until then, where
  // apart those members would have run and left their outputs to the later members. The inputs held, less
  // those outputs (a Concat of branches holds what it would anyway); 0 when no member waits.
  double heldBytes(const std::vector<NodeId>& set, NodeId* until = nullptr) const;

 private:
  double valueBytes(ValueId v) const;
  std::string cycleThrough(const std::vector<NodeId>& set) const;
  const Graph& g_;
  const FusionOptions& opts_;
  std::vector<int> groupOfNode_;
  std::vector<std::vector<NodeId>> members_;
  std::vector<std::string> labels_;
};

std::string kib(double bytes);  // "230 KiB"

}  // namespace fw::fusion
