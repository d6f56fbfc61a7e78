#pragma once
// Internal to fw_sim: the cube unit's share of a kernel's cost (simulator/README.md, "Cube work"
// and "Cube tiling and re-reads"): a cube op as a matrix product, its fractal cycles, the L1 tiling
// that sets its HBM re-reads and pipeline depth, and a recurrent cell's gate math.
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/SimTypes.h"

namespace fw::sim {

// Adds cube op `m`, a member of the kernel whose members `inGroup` marks (indexed by NodeId), to
// `t`: its cube cycles, then either a recurrent cell's gate math on the vector unit (returns true:
// the kernel uses the vector unit) or the HBM re-reads of operands that miss L2 and the L1 tile
// count (returns false).
Result<bool> costCubeOp(const Graph& g, NodeId m, const std::vector<char>& inGroup, const HwProfile& hw,
                        KernelTiming& t);

}  // namespace fw::sim
