#pragma once
// Weight forwarders: the Identity/Cast/Reshape/... chains that only pass a weight on, which the diagram
// draws inside the box of the node that reads them (Diagram.cpp).
#include <cstddef>
#include <vector>

#include "core/ir/Graph.h"

namespace fw::diagram {

// Nodes that only forward a weight: an Identity/Cast/Reshape/Transpose/(Un)Squeeze/Flatten whose
// every input is an initializer or another forwarder's output (PyTorch exports write shared weights
// this way). They are drawn inside the box of the first node that reads them, not as a row of boxes
// above the graph, and their edges are not drawn: they are weights.
std::vector<char> weightForwarders(const Graph& g, const std::vector<size_t>& rank);

// The first node (by rank) that reads forwarder `n`'s value and is not a forwarder itself, through
// chains of forwarders; kNoId when there is none.
NodeId forwarderHost(const Graph& g, NodeId n, const std::vector<char>& fw, const std::vector<size_t>& rank);

}  // namespace fw::diagram
