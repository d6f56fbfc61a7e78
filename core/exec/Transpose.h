#pragma once
// Internal to core/exec: the element moves of Transpose (and of any permuted copy).
#include <cstdint>
#include <vector>

#include "core/exec/RtTensor.h"

namespace fw::exec {

// y (allocated with dims `od`) gets x permuted: output axis k walks x with stride `inStride[k]`.
// Axes of size 1 are dropped and axes that stay adjacent in x are merged first. When the output's
// innermost axis is strided in x, elements move in 32x32 tiles through a small buffer, so that both
// sides are read and written a cache line at a time (a row-by-row gather with a 4 KiB stride took
// 1.7 ns an element; ConvNeXt's NCHW<->NHWC transposes 0.5 ns).
void permuteInto(const RtTensor& x, RtTensor& y, const std::vector<int64_t>& od, const std::vector<int64_t>& inStride);

}  // namespace fw::exec
