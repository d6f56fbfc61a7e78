#pragma once
// Internal to core/exec: the executor's own direct Conv for filter banks, a few input channels a group
// convolved with long kernels along the last axis (EEGNet's temporal filters, 1 -> 8 channels with 64
// taps; SincNet's 129-tap band-pass bank; a sequence model's depthwise long convolution). oneDNN 2.6 runs
// those on its GEMM path, over an im2col buffer of `taps` copies of the input: 32 x 1 x 22 x 512 -> 8 with
// 1 x 64 taps took 18.2 ms in the network (34 GFLOP/s, AVX-512, session 40) where ONNX Runtime's whole
// model took 16.4; its depthwise kernel takes no more than a few taps. Here each output row is
// computed in vector registers, a few output channels by a few vectors of positions at a time, from rows
// of the input padded once: every tap is one unaligned load and a multiply-add a channel.
// A bank whose taps run along the axes before the last instead (a kernel of 1 along the last axis: EEGNet's
// spatial filters, 22 x 1 over the electrodes, 1 -> 2 channels a group) is the same loop with every tap its
// own input row of one tap, read where it lies: oneDNN's depthwise kernel took 2.5-3.8 ms for that one
// (32 x 8 x 22 x 513 -> 16, session 44). A kernel long along the last axis and along others too (a
// large-kernel depthwise Conv, RepLKNet's 31 x 31) is the first loop over every input row its taps land on:
// oneDNN 2.6 runs a depthwise kernel of 13 x 13 or more on its GEMM path (4 x 48 x 32 x 32, 31 x 31:
// 135-212 ms a call, about 2.7 GFLOP/s; a 7 x 7 one takes its depthwise kernel, session 46).
#include <cstdint>
#include <vector>

#include "core/exec/ConvGeometry.h"

namespace fw::exec {

// The fewest taps along the last axis a Conv must have for directConvolution() to be a candidate: shorter
// kernels (3, 5, 7) reuse each loaded vector too few times to beat the library's kernels.
constexpr int64_t kDirectConvMinTaps = 8;
// The fewest for a depthwise kernel along the last axis alone (one input channel a group, 1 along the other
// axes): the library runs those on its depthwise kernel over a reordered copy of the data, and beyond the
// core's own cache the two reorders cost it more than the direct loop's extra loads. 4 x 384 x 1024 with 3
// taps (a Hyena block's short Conv1d, set 76): 1.5-1.8 ms on the library, 0.66-0.79 on the loop; 4 x 384
// x 256, 143 against 143-174 (1 thread, AMD EPYC, session 61). The loop is taken only where it timed faster.
constexpr int64_t kDirectConvMinTapsDepthwise = 2;
// The most input channels a group.
constexpr int64_t kDirectConvMaxChannels = 4;
// The most input rows (input channels a group times the taps along the axes before the last) an output row
// reads.
constexpr int64_t kDirectConvMaxRows = 64;

// Whether a Conv of C input channels, M output channels in `group` groups, a kernel of dims `kernel` (its
// spatial dims) and stride `lastStride` along the last axis is a filter bank directConvolution() runs:
// at most kDirectConvMaxChannels input channels a group (one: depthwise), stride 1 along the last axis, and
// either at least kDirectConvMinTaps taps along the last axis (kDirectConvMinTapsDepthwise for a depthwise
// kernel 1 along the other axes) and, when the kernel is more than 1 along
// another axis, at most kDirectConvMaxRows input rows an output row (input channels a group times the taps
// along the other axes), or (a bank over rows) a kernel of 1 along the last axis, no padding along it
// (`lastPadded` false), at least kDirectConvMinTaps taps along the others and at most kDirectConvMaxRows
// input rows an output row. (The simulator costs such a Conv as this loop: CpuCubeModel's conv_direct, a
// bank over rows conv_rows.)
bool directConvolutionFits(int64_t C, int64_t M, int64_t group, const std::vector<int64_t>& kernel,
                           int64_t lastStride, bool lastPadded);
// directConvolutionFits for `p` (a Conv, not a ConvTranspose), with consistent geometry.
bool directConvolutionApplies(const ConvProblem& p);

// Y[N,M,out...] = conv(X[N,C,in...], W[M, C/group, k...]) (+ bias[M] when not null), then max(., 0) when
// `relu` (NaN stays NaN), for a `p` directConvolutionApplies() accepts. Uses the calling thread's first
// staging buffer (OneDnn.h) for the padded input; threads as parallelFor's.
void directConvolution(const ConvProblem& p, const float* x, const float* w, const float* bias, float* y,
                       bool relu);

}  // namespace fw::exec
