#pragma once
// Which Relu the reference executor computes inside its producer's loop (an epilogue), for the executor
// (Executor.cpp) and for the CPU cost model that has to charge what the executor runs
// (simulator/CpuCost.cpp).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/ir/Graph.h"

namespace fw::exec {

// The Relu node that is the only reader of `producer`'s only output when `producer` is a Conv, a
// BatchNormalization or an Add (default domain), and kNoId otherwise or when `kept(value)` says that
// output must stay as computed (a graph output, a value a nested subgraph reads). The executor computes
// that Relu with its producer whenever nodes are not timed one by one: in every fused body.
NodeId reluEpilogueOf(const Graph& g, NodeId producer, const std::function<bool(ValueId)>& kept);

// A Split its producer writes directly: the product's columns go to the Split's outputs, the product
// itself is never stored whole (horizontal_matmul's MatMul + Split: the Split's copy of slot attention's
// key and value projections made the merged pair 491-500 us where the two products took 187 + 196).
struct SplitEpilogue {
  NodeId split = kNoId;
  int64_t axis = 0;             // as the Split's attribute; the kernel applies it only when it is the last
  std::vector<int64_t> widths;  // constant sizes (attribute or initializer), or empty: equal parts
  ValueId sizes = kNoId;        // else the value holding the sizes (a function body's input), read per run
  size_t parts = 0;             // the Split's outputs

  // The sizes of the parts of an axis of `dim` elements, as the Split computes them, or nullopt when
  // they do not divide it.
  std::optional<std::vector<int64_t>> widthsFor(int64_t dim) const;
};

// The Split that is the only reader of `producer`'s only output when `producer` is a MatMul or a Gemm
// (default domain), the Split's sizes are constants, equal parts or a value the graph has before it
// runs (an input of a function body), and every one of its outputs is used;
// nullopt otherwise or when `kept(output)`. Like the Relu epilogue, taken whenever nodes are not timed
// one by one; the kernel writes the parts when the Split is over its output's last axis and the product
// has a form it can split (MatMul with one B for every batch, Gemm), else the executor splits its output.
std::optional<SplitEpilogue> splitEpilogueOf(const Graph& g, NodeId producer,
                                             const std::function<bool(ValueId)>& kept);

// Whether the kernel of `producer` writes the parts of `e` itself by the graph's static shapes (the
// forms core/exec/ops_nn.cpp's MatMul and Gemm split: a float MatMul whose B is one matrix for every
// batch, a Gemm with alpha 1 and no C or a C of one value a column), for the CPU cost model; false when
// a shape it needs is unknown.
bool splitWrittenInParts(const Graph& g, NodeId producer, const SplitEpilogue& e);

}  // namespace fw::exec
