#pragma once
// Groups for any graph, so big graphs open as a few boxes (TensorBoard's graph dashboard is the model):
//  1. Name scopes, when the names carry them: "/encoder/layer.3/attention/MatMul" (by '/'),
//     "layer3.attention.self.query" (by '.'), "l17_q_mm" (a short prefix with a number). They are
//     used only when they cover most nodes and most edges stay inside a scope; Paddle's
//     "p2o.Conv.12", which groups by op type, is rejected.
//  2. Otherwise repeated structure: the topological order is cut where a single stream is live
//     (values read by many nodes far apart, such as an attention mask, do not count), consecutive
//     segments with the same op structure form a series of numbered blocks ("blocks 0-11/block 3"),
//     and the rest are numbered parts.
// Any level with more than `maxChildren` child groups gets numbered chunks in between, and more than
// `maxLeaves` nodes directly in one group go into numbered runs, so expanding any group lays out at
// most about maxChildren + maxLeaves boxes. Fused kernels take the common
// scope of their members (Diagram does that); rewritten nodes find theirs by their origins.
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/Graph.h"

namespace fw::diagram {

struct HierarchyOptions {
  size_t maxChildren = 40;  // child groups per group before chunks are added
  size_t maxLeaves = 150;   // nodes directly in a group before they are put into numbered runs
  size_t maxPeriod = 16;    // segments per repeated block, at most
};

struct Hierarchy {
  std::string source;  // "names", "structure" or "" (no groups: a tiny or flat graph)
  std::unordered_map<std::string, std::string> scopeByName;  // node name -> '/'-separated scope path
  size_t groups = 0;   // distinct non-empty scope paths
  size_t series = 0;   // series of repeated blocks found (structure)
  size_t blocks = 0;   // blocks in them
  double seconds = 0;  // wall time buildHierarchy took

  bool empty() const { return scopeByName.empty(); }
  // The scope of a node of the graph the hierarchy was built on, or of a rewritten node through its
  // origins (the first origin with a scope); "" when none.
  std::string scopeOf(const Node& n) const;
};

Hierarchy buildHierarchy(const Graph& g, const HierarchyOptions& opts = {});
// How many times buildHierarchy ran in this process (tests check that a level toggle builds none).
size_t buildHierarchyCalls();

}  // namespace fw::diagram
