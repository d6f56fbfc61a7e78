#pragma once
// Internal to fw_sim: the small arithmetic and shape helpers the NPU cost files share
// (CostModel.cpp, CubeCost.cpp, VectorCost.cpp). Not part of the simulator's interface.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"

namespace fw::sim::detail {

inline int64_t ceilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }
inline int64_t roundUp(int64_t a, int64_t m) { return ceilDiv(a, m) * m; }

// Cycles at a family's efficiency (HwProfile::efficiency; 1 leaves them exactly as they are).
inline int64_t scaled(int64_t cycles, double efficiency) {
  if (efficiency == 1.0) return cycles;
  return static_cast<int64_t>(std::ceil(static_cast<double>(cycles) / efficiency - 1e-9));
}

// "node 'NAME' (OpType)", the prefix of every cost error.
inline std::string where(const Graph& g, NodeId n) {
  const Node& nd = g.node(n);
  return "node '" + nd.name + "' (" + nd.opType + ")";
}

// Static dims of `v` (an initializer's dims, else its shape); BadInput naming `n` and the value.
inline Result<std::vector<int64_t>> dimsOf(const Graph& g, ValueId v, NodeId n) {
  if (v == kNoId) return Error::badInput(where(g, n) + ": a required input is missing");
  const Value& val = g.value(v);
  if (val.initializer) return val.initializer->dims();
  auto d = val.shape.ints();
  if (!d)
    return Error::badInput(where(g, n) + ": value '" + val.name + "' has no static shape (" +
                           val.shape.str() + "); bind symbolic dims with --batch or --input-shape");
  return *d;
}

// Product of d[from, to).
inline int64_t prod(const std::vector<int64_t>& d, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t p = 1;
  for (size_t i = from; i < std::min(to, d.size()); ++i) p *= d[i];
  return p;
}

// A possibly negative axis as an index into `rank` dims, clamped into range.
inline size_t normAxis(int64_t axis, size_t rank) {
  if (axis < 0) axis += static_cast<int64_t>(rank);
  return static_cast<size_t>(std::clamp<int64_t>(axis, 0, rank == 0 ? 0 : static_cast<int64_t>(rank) - 1));
}

}  // namespace fw::sim::detail
