#pragma once
// Internal to core/exec: the element moves of Transpose and Slice (any strided view copied out).
#include <cstdint>
#include <vector>

#include "core/exec/RtTensor.h"

namespace fw::exec {

// y (allocated with dims `od`) gets the view of x that starts at element `inOffset` and walks x with
// stride `inStride[k]` along output axis k (a permutation for Transpose; start and step for Slice).
// Axes of size 1 are dropped and axes that stay adjacent in x are merged first. When the output's
// innermost axis is strided in x, elements move in 32x32 tiles through a small buffer, so that both
// sides are read and written a cache line at a time (a row-by-row gather with a 4 KiB stride took
// 1.7 ns an element; ConvNeXt's NCHW<->NHWC transposes 0.5 ns). A view that is contiguous in x after
// merging is one copy (Slice took 7-14 ns an element computing every element's index).
void copyStrided(const RtTensor& x, int64_t inOffset, const std::vector<int64_t>& inStride, RtTensor& y,
                 const std::vector<int64_t>& od);

// x [N, C, S] (channels first, S the positions of an image) to y [N, S, C] (channels last), and back
// (`toChannelsFirst`: x [N, S, C] to y [N, C, S]), by copyStrided's tiles. oneDNN 2.6's reorder between
// the two reads a position's channels one after another, and where an image's plane is a multiple of 1 KiB
// those lines share a few cache sets: 72 channels of 64x64 took 244 us against 81 for 66x66 (1 thread,
// ONEDNN_VERBOSE, session 72), a wide grouped Conv's input on the library's channels-last kernel.
void toChannelsLast(const float* x, int64_t N, int64_t C, int64_t S, float* y);
void toChannelsFirst(const float* x, int64_t N, int64_t C, int64_t S, float* y);

}  // namespace fw::exec
