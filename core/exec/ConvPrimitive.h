#pragma once
// Internal to core/exec: Conv and ConvTranspose (1-D, 2-D, 3-D; groups, strides, dilations, pads,
// bias) on oneDNN's convolution / deconvolution primitives. Data stays in ONNX's plain NC[D][H]W
// layout at the boundary; inside, the primitive picks its own (blocked) layout: activations are
// reordered per call, weights once per weight tensor (OneDnn.h, reorderedWeights). A pointwise
// convolution (1x1, stride 1, no pads, one group) is a matmul on the plain layout instead, which
// saves those two reorders (ResNet-50, 1 thread: ~0.095 s instead of ~0.104 s).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/exec/ConvGeometry.h"

namespace fw::exec {

// Y[N,M,out...] = conv(X[N,C,in...], W) (+ bias[M] when not null). W as ONNX stores it:
// [M, C/group, k...] for Conv, [C, M/group, k...] for ConvTranspose. `wOwner` is the storage holding
// W (RtTensor::owner()), so reordered weights can be cached. Throws dnnl::error when oneDNN refuses
// the problem. `relu`: Y = max(Y, 0) in the same pass (a oneDNN post-op; for ConvTranspose the bias
// and ReLU are one pass over the plain output, as oneDNN 2.6 applies them in a slow reference loop;
// NaN stays NaN). A filter bank (DirectConv.h: at most 4 input channels a group, a kernel of 8 or more taps
// along the last axis and 1 along the others, stride 1 along it) runs on the executor's own direct loop
// where its first call with those shapes times that faster than the library's way (each called three
// times on scratch buffers, the better of the last two). Another Conv of at most 4 input channels a group
// (not depthwise) runs on whichever of the library's layout and the plain one times faster, likewise: no
// rule on the shape told them apart. A Conv of
// one input channel a group and several output channels each (a depth multiplier) that oneDNN would run
// on its GEMM path runs, where that timed faster likewise, as a depthwise Conv over its input channels,
// each copied once an output channel. A padded Conv that oneDNN would run on its GEMM path runs, where
// that timed faster likewise, on the library's jit kernel over its input padded first (convolutionPrePadded).
void convolution(const ConvProblem& p, const float* x, const float* w, const std::weak_ptr<const void>& wOwner,
                 const float* bias, float* y, bool relu = false);

// A depth multiplier `p` (a Conv of one input channel a group, M a multiple of C) as convolution() runs it
// where that timed faster than oneDNN's GEMM path: a depthwise Conv over M channels, input channel c copied
// to channels c*m .. c*m + m - 1 (m = M / C). Arguments as convolution()'s. For convolution() and tests.
void convolutionOnCopies(const ConvProblem& p, const float* x, const float* w,
                         const std::weak_ptr<const void>& wOwner, const float* bias, float* y, bool relu);

// A padded Conv `p` as convolution() runs it where oneDNN would take its GEMM path and takes a jit kernel
// for the same Conv over a padded input, and that timed faster: the input copied into the third staging
// buffer with its padding (zeros), then the library's Conv without padding. Arguments as convolution()'s.
// For convolution() and tests.
void convolutionPrePadded(const ConvProblem& p, const float* x, const float* w,
                          const std::weak_ptr<const void>& wOwner, const float* bias, float* y, bool relu);

// Where convolution() runs a ConvTranspose: on the layout oneDNN picks ("any"), on the plain NC[D][H]W
// layout (one group of at most 4 output channels: oneDNN's GEMM path, as its blocked jit kernel computes
// a whole block of 16 channels for each), or channels-last (when oneDNN picks its GEMM path, which it
// runs 2-4x faster channels-last than on NCW). The simulator costs the plain one as its own kind.
enum class DeconvolutionLayout { Library, Plain, ChannelsLast };
constexpr int64_t kPlainDeconvolutionMaxChannels = 4;
inline bool deconvolutionOnPlainLayout(int64_t outChannels, int64_t group) {
  return group == 1 && outChannels <= kPlainDeconvolutionMaxChannels;
}
inline DeconvolutionLayout deconvolutionLayout(const ConvProblem& p, bool libraryChoseGemm) {
  if (!p.transposed) return DeconvolutionLayout::Library;
  if (deconvolutionOnPlainLayout(p.M, p.group)) return DeconvolutionLayout::Plain;
  return libraryChoseGemm ? DeconvolutionLayout::ChannelsLast : DeconvolutionLayout::Library;
}

// A pointwise Conv's product reads each image's input as a [C, positions] matrix. Rows 4 KiB apart or a
// multiple share cache sets, and oneDNN's matmul reads them together: [1, 64, 4096] -> 256 channels took
// 3.7-4.3 ms, [1, 64, 4000] 1.7-2.0, [4, 64, 1024] 3.8-4.3 against [4, 64, 1040] 1.7-2.1, rows 2 KiB apart
// ([8, 64, 512]) 2.1-3.1 against [8, 64, 520] 1.6-2.5 (1 thread, session 43). Such an input is copied with
// its rows 64 bytes further apart first (the simulator counts the copy as the strided one's).
inline bool pointwiseRowsSpread(int64_t positions) { return positions >= 512 && (positions * 4) % 2048 == 0; }
constexpr int64_t kPointwiseRowPad = 16;

// A pointwise Conv of one output position an image (a squeeze-excitation's after its pool) over more than
// one image runs the batch as one product, X[images, C] by the weight's packed copy transposed, where one
// image alone is rows of the weight against a vector (the simulator costs each so).
inline bool pointwiseImagesAsOneProduct(int64_t images, int64_t positions) {
  return positions == 1 && images > 1;
}

// A pointwise Conv over a few positions an image, their count not a whole number of the library's blocks of
// 16 columns, over more than one image gathers the images' columns into one product, Y[M, images * positions]
// = W[M, C] X[C, images * positions], and scatters the result back (the bias and a ReLU in that pass): a
// product an image computed its columns padded to a whole block and read all of the weight again each image.
// 1 thread, `fwb profile` of one Conv, a product an image against gathered, alternating, two rounds (session
// 74): [32, 784, 2, 2] to 784 channels 3.49-3.70 against 0.84-0.94 ms, [16, 320, 3, 3] to 1920 2.05-2.10
// against 1.00-1.04 ms, [32, 440, 3, 3] to 440 1.04-1.05 against 0.62-0.65 ms, [8, 512, 7, 7] to 2048
// 6.40-6.45 against 4.35-4.58 ms, [16, 256, 5, 5] to 512 677 against 572-593 us, [16, 112, 6, 6] to 672
// 698-701 against 566-587 us, [8, 512, 10, 10] to 512 2.35-2.41 against 2.13-2.31 ms; under
// ONEDNN_MAX_CPU_ISA=AVX2 too ([32, 784, 2, 2] 4.05 against 1.59 ms). Not over whole blocks, where a product
// an image runs at the library's best: [16, 400, 4, 4] to 400 431-434 against 486-508 us, [16, 1024, 8, 8] to
// 1024 9.96-10.10 against 10.65-11.08 ms, [16, 256, 8, 8] to 64 with a ReLU 196-198 against 279-289 us; nor
// over 128 positions or more ([8, 64, 16, 16] to 256 396-419 against 508-518 us). The simulator costs it so.
constexpr int64_t kPointwiseGatherBlock = 16, kPointwiseGatherMaxPositions = 128;
inline bool pointwiseImagesGathered(int64_t images, int64_t positions) {
  return images > 1 && positions > 1 && positions < kPointwiseGatherMaxPositions &&
         positions % kPointwiseGatherBlock != 0;
}

// A Conv in one group whose kernel covers every spatial axis before the last whole and is 1 along the last,
// with no padding at all and stride 1 along the last axis (`in`, `kernel`: the spatial dims): output column j
// of an image is the weight [M, C * rows] times the input's column j over its C * rows rows (rows: the
// leading spatial dims' product), so it runs as the pointwise Conv of those rows, the weight and the data
// read as stored. ShallowConvNet's spatial filters (22 x 1 over 22 electrodes, 40 -> 40, 16 x 476 columns):
// oneDNN's kernel 20.5 ms in the model at 26 GFLOP/s (1 thread, session 45). The simulator costs it so.
inline bool rowsAsChannels(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel, int64_t group,
                           int64_t lastStride, bool padded) {
  if (group != 1 || padded || lastStride != 1 || in.size() < 2 || kernel.size() != in.size() ||
      kernel.back() != 1)
    return false;
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < in.size(); ++d) {
    if (kernel[d] != in[d]) return false;
    rows *= kernel[d];
  }
  return rows > 1;  // a kernel of ones is the pointwise Conv itself
}

// The layout convolution() runs `p` on (no bias, no ReLU) takes its source in: "plain" (NC[D][H]W as
// given; a 1x1 Conv without padding in one group, the executor's own product, strided or not, or one
// whose rows are its channels, rowsAsChannels),
// "channels-last", "blocked16" or "blocked8" (channel blocks of 16 or 8), or "other". For tests and
// diagnostics; throws dnnl::error as convolution() does.
std::string convolutionSourceLayout(const ConvProblem& p);

// Whether convolution() with a fused ReLU applies it as a pass of its own over the plain output rather than
// as the library kernel's post-op (its GEMM path, a deconvolution, and its jit kernel on channel blocks
// narrower than a vector: AVX-512 on 4 or 8 channels a block). False on the executor's own loops, which
// apply it as they store. For tests and diagnostics; throws dnnl::error as convolution() does.
bool convolutionReluOwnPass(const ConvProblem& p);

}  // namespace fw::exec
