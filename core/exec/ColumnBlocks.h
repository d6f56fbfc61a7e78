#pragma once
// Internal to core/exec, and read by the CPU cost model (simulator/OpFamily.cpp: a softmax's rows): how an op
// along a middle axis walks its columns. Over axis k of [outer, len, inner] with inner > 1 (a Softmax over
// channels, CumSum, ArgMax) it takes a block of up to kColumnBlock of the inner columns at a time and passes
// along the axis row by row, each row of the block a contiguous run; a column at a time, strided, ran 4-9x
// slower over [8, 64, 32, 32] (session 37).
#include <algorithm>
#include <cstdint>

#include "core/exec/OpContext.h"

namespace fw::exec {

constexpr int64_t kColumnBlock = 256;

// The blocks of kColumnBlock columns `inner` columns make.
inline int64_t columnBlocks(int64_t inner) { return (inner + kColumnBlock - 1) / kColumnBlock; }

// fn(o, i0, w) for each block of each outer index o: its first column i0 and its width w. The blocks are
// spread over the pool, each costing len x w x costPerElement.
template <class Fn>
void forEachColumnBlock(int64_t outer, int64_t len, int64_t inner, int64_t costPerElement, const Fn& fn) {
  const int64_t blocks = columnBlocks(inner);
  parallelFor(outer * blocks, len * std::min(inner, kColumnBlock) * costPerElement,
              [&](int64_t b, int64_t e) {
                for (int64_t ob = b; ob < e; ++ob) {
                  const int64_t i0 = (ob % blocks) * kColumnBlock;
                  fn(ob / blocks, i0, std::min(kColumnBlock, inner - i0));
                }
              });
}

}  // namespace fw::exec
