#pragma once
// Internal to fw_sim: the vector unit's share of a kernel's cost (simulator/README.md, "Vector
// work" and "UB working set and spill"): the vector pass of one op, its cycles, and the Unified
// Buffer tiling of a kernel's vector members (working set, spill, pipeline depth).
#include <cstdint>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/KernelBoundary.h"
#include "simulator/OpFamily.h"
#include "simulator/SimTypes.h"

namespace fw::sim {

// One pass of the vector unit: `elems` elements, `ops` instructions per element, work split by rows
// of `row` elements that must be on one core (reductions, softmax, norms), repeated `steps` times.
struct VecItem {
  int64_t elems = 0, ops = 1, row = 1, steps = 1;
};

// The vector pass of node `id` of family `fam` with `flops` useful FLOPs (nodeCost).
Result<VecItem> vecItemOf(const Graph& g, NodeId id, OpFamily fam, double flops);

// Vector cycles on one core of the busiest core, work split evenly by rows across vector cores.
int64_t vectorCycles(const VecItem& it, const HwProfile& hw);

// What the vector members of a kernel add up to, for the UB tiling.
struct VectorWork {
  std::vector<char> members;  // indexed by NodeId: runs on the vector unit (not a cube op)
  int64_t rowMax = 1;         // longest row that must stay on one core
  int64_t elemsMax = 0;       // largest pass, in elements
};

// Vector tiling through UB: every external input/output of a vector member is double-buffered,
// every intermediate occupies one buffer; the smallest tile is one row (rounded to lanes). Sets
// t.workingSetBytes, t.spilled, t.spillBytes and raises t.tilesPerCore. `fallback` names the node
// for errors about a value without a producer (a graph input). Call only when work.elemsMax > 0.
Status tileThroughUb(const Graph& g, const GroupBoundary& bd, const VectorWork& work, NodeId fallback,
                     const HwProfile& hw, KernelTiming& t);

}  // namespace fw::sim
