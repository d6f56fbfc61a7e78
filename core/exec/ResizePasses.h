#pragma once
// Internal to core/exec (and the simulator's cost of it): the order the executor's Resize runs its axes in,
// one pass an axis (core/exec/ops_resize.cpp).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace fw::exec {

// The axes of a rank-`rank` Resize in the order its passes run: in turn, except that the last axis, whose pass
// picks its taps value by value (the others move whole rows, a loop the compiler vectorises), runs first when
// it upsamples (`lastUpsamples`), over the input's rows rather than the upsampled ones: a bilinear 2x of [1, 32,
// 64, 64] took 561-713 us with it last, 479-519 first; of [4, 64, 16, 16], 445-468 and 243-306 (1 thread,
// `fwb profile` of the node alone, the two binaries alternating, 3 rounds, session 49). The passes commute up to
// the float rounding of the intermediate.
inline std::vector<size_t> resizePassOrder(size_t rank, bool lastUpsamples) {
  std::vector<size_t> order(rank);
  for (size_t d = 0; d < rank; ++d) order[d] = d;
  if (rank >= 2 && lastUpsamples) std::rotate(order.begin(), order.end() - 1, order.end());
  return order;
}

}  // namespace fw::exec
