#pragma once
// A drawable view of a graph, as plain structs (no Qt, no Graphviz): which boxes are visible and how they
// connect. The "before" view draws one box per node; the "after" view draws one box per kernel of a
// Grouping; either view can fold '/'-separated name scopes ("layer1/0/conv1") into one scope box so a big
// graph lays out in seconds (a flat dot layout of 10,000 nodes takes about a minute). The DOT writer, the
// CLI and the Qt graph view all consume this.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"

namespace fw::diagram {

// One kernel of a fused schedule, as the diagram needs it. Members are node ids of the graph drawn.
// The fusion engine (or the simulator's KernelGroup list) is converted into this by the caller.
struct DiagramKernel {
  std::string name;
  std::vector<NodeId> members;
  std::string unit;           // "cube", "vector", "cube+vector", "none", "" = unknown
  std::optional<double> heat;  // e.g. simulated time in microseconds
  std::string color;          // "#rrggbb" overrides the unit colour; empty = by unit
};
struct Grouping {
  std::vector<DiagramKernel> kernels;
};

// One kernel per live node (what the "after" view shows before the fusion engine runs).
Grouping unfusedGrouping(const Graph& g);

enum class BoxKind { Node, Kernel, Scope, Input, Output };
const char* boxKindName(BoxKind k);

struct DiagramBox {
  std::string id;     // unique in the diagram; the node name (or kernel name, or scope path) when unique
  BoxKind kind = BoxKind::Node;
  std::string title;  // op type ("Conv"), kernel ops ("Conv+Relu"), scope path, or value name
  std::string detail; // output shape ("1x64x56x56"), or "N nodes" for a scope
  std::string tooltip;
  std::string unit;   // kernels: as given in the grouping
  std::optional<double> heat;
  std::string color;  // explicit fill colour (grouping); empty = by kind/op/unit
  std::string opType; // Node boxes (and single-op kernels): the op type, for op-family colours and search
  std::string scope;  // Scope boxes: the scope path ("layer1/0"); others: the scope the box sits in
  std::string ops;    // Scope boxes: the most frequent ops inside ("MatMulx6 Addx9 Softmaxx1")
  size_t extractedEdges = 0;  // > 0: a high-degree box whose outgoing edges are not drawn (this many)
  std::vector<NodeId> members;            // original nodes drawn by this box (empty for I/O boxes)
  std::vector<std::string> memberNames;   // their names, for before<->after linking and search
  std::vector<std::string> memberOps;     // their op types, in member order
};

struct DiagramEdge {
  size_t from = 0, to = 0;  // box indices
  std::string label;        // value name (first one when several values connect the same boxes)
  size_t count = 1;         // values/uses folded into this edge
};

struct Hierarchy;  // Hierarchy.h

struct DiagramOptions {
  // Fold name scopes deeper than this many levels into one box. 0 = never fold, -1 = automatic: fold only
  // when more than autoCollapseThreshold boxes would be visible, at the deepest depth that fits.
  int collapseDepth = -1;
  size_t autoCollapseThreshold = 500;
  // When folding, show at most this many boxes (the deepest depth that fits); 0 = autoCollapseThreshold.
  // The GUI opens big graphs as a small overview (its layout takes well under a second).
  size_t foldedBoxes = 0;
  // Scopes opened by the user (e.g. a double-click): their children are shown one level deeper.
  std::set<std::string> expandedScopes;
  bool showGraphIO = true;  // graph inputs/outputs as small ellipses
  // Heat per original node name (before view). Kernel heat comes from the grouping.
  std::map<std::string, double> nodeHeat;
  // A box with more outgoing edges than max(this, boxes / 10) keeps its box but not its edges (0 = draw
  // every edge).
  size_t highDegreeEdges = 8;
  // Groups for any graph (Hierarchy.h); null = the '/' scopes of the node names.
  std::shared_ptr<const Hierarchy> hierarchy;
};

struct Diagram {
  std::string graphName;
  std::vector<DiagramBox> boxes;
  std::vector<DiagramEdge> edges;
  int collapseDepth = 0;        // depth actually used (0: nothing folded)
  size_t hiddenNodes = 0;       // original nodes folded into scope boxes
  bool grouped = false;         // built from a Grouping (after view)

  // Index of the box with this id, or -1.
  long findBox(const std::string& id) const;
  // Boxes that draw any of these original node names.
  std::vector<size_t> boxesWithMembers(const std::vector<std::string>& nodeNames) const;
};

// Builds the visible boxes. Without a grouping: one box per live node. With one: one box per kernel; every
// live node must be in at most one kernel (nodes in none are drawn alone). Errors (BadInput) name the
// kernel and node: a member id out of range or dead, a node in two kernels.
Result<Diagram> buildDiagram(const Graph& g, const Grouping* grouping = nullptr, const DiagramOptions& opts = {});

// Scope path of a node name: "layer1/0/conv1" -> "layer1/0"; "" when the name has no '/'.
std::string scopeOf(const std::string& nodeName);
// First `depth` components of a scope path ("layer1/0/x", 2 -> "layer1/0").
std::string scopePrefix(const std::string& scope, int depth);
int scopeDepth(const std::string& scope);
// True when `scope` is `group` or lies below it ("a/b/c" in "a/b"; not "a/bc"). False for an empty group.
bool scopeWithin(const std::string& scope, const std::string& group);

}  // namespace fw::diagram
