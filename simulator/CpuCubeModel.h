#pragma once
// Time of one matrix op (MatMul/Gemm, Conv, grouped Conv, ConvTranspose, the integer/quantised forms) on
// the CPU the reference executor runs on, as a function of its shape rather than of its FLOPs alone.
//
// A library's GEMM or convolution reaches its peak rate only when every dimension of the implicit GEMM
// (M rows, N output channels, K reduction length) is large; a 1x1 convolution with 16 input channels or
// a stride-2 depthwise convolution runs at a fraction of it. The model charges each kind of op
//
//     seconds = s_per_flop × FLOPs + s_per_input_element × numel(X) + s_per_output_element × numel(Y)
//               + s_per_patch_element × M·K + s_per_weight_element × numel(W) + s_per_call
//               + s_per_aliased_weight_element × numel(W) of a matrix-vector product whose weight rows
//                 alias in the cache (below)
//               + s_per_far_activation_element × the input and output elements of a pointwise Conv
//                 whose activations outgrow the core's own cache (below)
//
// (M·K is the implicit GEMM's left operand: for a convolution the unfolded input patches, N·Ho·Wo ×
// Cin/group·prod(kernel); for a MatMul its A operand; W is the weight or right operand, which dominates a
// matrix-vector product; s_per_call is what a call costs whatever its size: the library's primitive lookup
// and argument set-up, which dominates the small convolutions of speech and wake-word models). Dividing by
// the FLOPs shows what it captures: 1 / rate = s_per_flop + s_per_output_element / (2K) + s_per_patch_element
// / (2N), so small K and small N both cost, as they do in oneDNN. A product of at most 8 rows streams its
// weights once; when the rows the kernel reads together lie a multiple of 4 KiB apart (a MatMul weight [K, N]
// with N a multiple of 512 floats, a Gemm(transB) weight [N, K] with K a multiple of 1024) they map to the
// same cache sets: 1x256x1024 took 32 us against 16.5 for 1x1024x256 in the zoo LSTM (session 8), and
// Gemm(transB) 1x2048x1000 622 us against 225 for 1x1280x1000 in a calibration of session 9; the fit had no
// term for it. Since session 14 the executor runs a model's own weight in those layouts on a packed copy
// (core/exec/Gemm.cpp), so the term counts only a B read as stored (a graph input or a computed one), and the
// grid times three such products to fit it. A pointwise Conv is one product an image over the activations as
// they lie (no reorder), so what its input and output take from beyond the core's own cache is not in its
// arithmetic: one set of linear terms for both priced a narrow product in cache 1.56-1.81x over on session
// 69's Xeon (16 -> 8 at 80x80, 0.6 MB) and one past it under (MNASNet's 864 -> 144 at 4x4 over 16 images).
// The far-activation term counts its input plus output elements by the share of their bytes beyond the own
// cache: none up to the own cache (cpu.cache_drops_bytes, ownCacheBytes), all from twice it, linear between
// (CubeFeatures::withOwnCache; 0 for a profile that has no cache drops).
// `fwb calibrate` times a grid of
// shapes per kind and fits the eight coefficients (non-negative least squares on relative error); the
// fit's residual is kept with it. A profile without the last two coefficients reads them as 0.
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"

namespace fw::sim {

// The kinds a CPU profile may hold a model for (JSON keys of "cpu.cube_time_models").
// gemm, gemm_tb, gemm_col (a product of one output column: the executor's own dot loop), conv, conv1d (a
// dense Conv over one spatial axis), pointwise_conv, grouped_conv (2 to
// 16 input channels a group), grouped_conv_wide (more than 16 a group: its "call" term counts images x
// groups), depthwise_conv (a Conv with one input channel a group),
// conv_transpose, conv_transpose1d (a ConvTranspose over one axis), conv_transpose_plain (one group of at
// most 4 output channels, 1-D or 2-D: the executor's GEMM path on the plain layout; its "patch" term counts
// the column buffer, C x M x prod(kernel) an input position), conv_direct (a filter bank on the executor's
// own direct loop: core/exec/DirectConv.h; FLOPs of every tap, the padding's included; its "patch" term
// counts the input elements the loop loads, once a block of 4 output channels), conv_rows (the same loop
// over a bank whose taps run along the axes before the last, each a row read in place), int_gemm, int_conv,
// rnn (LSTM/GRU/RNN: W and R are the weights; the "patch" term counts the sequential steps, seq * directions,
// one small product each; the "aliased weight" term the W and R elements a cell reads as stored because the
// run computed them).
const std::vector<std::string>& cubeModelKinds();

constexpr size_t kCubeFeatures = 8;
// The coefficients from this index on (aliased weight, far activation) came later: a profile may lack them.
constexpr size_t kCubeLaterCoefficients = 6;

struct CubeFeatures {
  std::string kind;  // one of cubeModelKinds()
  // weightElems: the weight elements read; a dense or pointwise Conv reads them once an image of its batch
  // (a pointwise one whose images the executor gathers into one product, once).
  double flops = 0, inElems = 0, outElems = 0, patchElems = 0, weightElems = 0;
  double aliasedWeightElems = 0;  // weightElems of a product of <= 8 rows with 4 KiB-multiple weight rows
  double farActElems = 0;         // pointwise_conv: input + output elements past the own cache (withOwnCache)
  // pointwise_conv: the product's columns, the output positions of an image (of all the images where the
  // executor gathers them, exec::pointwiseImagesGathered)
  double positions = 0;
  double outChannels = 0;         // conv, conv_transpose: output channels per group
  // The library's kernel calls the per-call term counts: 1, or for grouped_conv_wide one an image and
  // group (oneDNN 2.6 on AVX-512 runs such a Conv on brgconv, a kernel call per image and group), or for a
  // pointwise_conv over a batch that is not gathered one an image (the executor's product an image).
  double calls = 1;
  // A dense 2-D Conv (kind "conv"): its weights' bytes (fp32), and the bytes it streams from them: the
  // kernel passes over all its weights once an output row of each image (taps of a row in the padding
  // skipped), so with few output positions a row the weight stream, not the arithmetic, bounds it.
  double weightBytes = 0, weightStreamBytes = 0;
  // The same read once an image of its batch (a Conv whose kernel keeps a block of output channels'
  // weights in cache over all its output rows); for a recurrent cell, its weightStreamBytes. A pointwise
  // Conv (kind "pointwise_conv", since session 75): both the weight once a product it runs (an image's, or
  // one over the images gathered).
  double weightImageBytes = 0;
  // A depthwise Conv (kind "depthwise_conv") on oneDNN's blocked layout: the bytes its three passes move
  // (the reorder of its input into the blocked layout, the kernel, the reorder of its output back: each
  // reads and writes the input's or the output's bytes, 3 x (input + output)), and the footprint they span
  // (the plain and blocked copies, 2 x (input + output)). Beyond the core's own cache these passes, not the
  // arithmetic, bound it (8 x 96 x 56 x 56, 3x3, AMD EPYC, ONEDNN_VERBOSE: 0.90 + 1.00 + 0.72-0.85 ms, each
  // pass 19 MB at 21-27 GB/s, the copy's DRAM rate; 1 x 32 x 112 x 112: 44 + 89 + 42 us; session 62). Its
  // model's stream (CubeTimeModel::weightStreamEfficiency and share) is this one; 0: none.
  double actStreamBytes = 0, actFootprintBytes = 0;
  // The bytes a kind's stream moves, read once a row or once an image (a depthwise Conv's passes either way),
  // and the footprint whose copy bandwidth it streams at.
  double streamRowBytes() const { return actStreamBytes > 0 ? actStreamBytes : weightStreamBytes; }
  double streamImageBytes() const { return actStreamBytes > 0 ? actStreamBytes : weightImageBytes; }
  double streamFootprint() const { return actStreamBytes > 0 ? actFootprintBytes : weightBytes; }
  // A Conv the executor runs as a product on the plain layout (the pointwise path): no staging buffer, no
  // weight reorder.
  bool plainProduct = false;
  // The executor's own loop (rows against one vector, one row against a matrix: core/exec/Gemm.cpp), not
  // the library's primitive: its call is as cold as a vector op's (cpu.cold_call_s "vector").
  bool ownLoop = false;
  // A recurrent cell's input projection (kind "rnn"): X [seq * batch, I] by W[d]^T, one library product a
  // direction over the whole sequence (core/exec/ops_rnn.cpp, Setup::project) before the steps; 0 rows:
  // none.
  double projRows = 0, projDepth = 0, projCols = 0, projProducts = 0;
  // That projection's features as a product of kind "gemm" (a model's own weight, packed), and the cell's
  // features without it (its FLOPs less the projection's).
  CubeFeatures inputProjection() const;
  CubeFeatures withoutInputProjection() const;
  std::array<double, kCubeFeatures> vec() const {
    return {flops, inElems, outElems, patchElems, weightElems, calls, aliasedWeightElems, farActElems};
  }
  // A pointwise Conv's far activations on a core whose own cache holds `ownCacheBytes`: its input and output
  // elements times clamp(bytes / own - 1, 0, 1) of their bytes (4 an element). Other kinds, or no own cache
  // (0): unchanged.
  CubeFeatures withOwnCache(double ownCacheBytes) const;
  // A pointwise Conv's product computes its columns (positions) in whole blocks of `block`: its FLOPs as
  // computed, ceil(positions / block) * block columns. Other kinds, or block <= 1: unchanged.
  CubeFeatures withPositionBlock(int64_t block) const;
  // A dense Conv or ConvTranspose on oneDNN's blocked layout computes its output channels in whole
  // blocks of `block` (the vector width): its FLOPs as computed, ceil(outChannels / block) * block
  // channels. Other kinds (the grouped and depthwise kernels block differently), or block <= 1: unchanged.
  CubeFeatures withChannelBlock(int64_t block) const;
};

// The kind and features of node `id`, or nullopt when it is not a matrix op or a shape is not static.
std::optional<CubeFeatures> cubeFeatures(const Graph& g, NodeId id);

// Whether the executor finds value `v` in the same storage on every run, so that a copy of it in another
// layout is made once and kept: a model's weight, a value of the graph enclosing a body (a Silero branch's
// Conv weights), or a view of one (Reshape, Unsqueeze... hand out their input). `callerInputs`: a graph
// input counts too (a Conv keys its reordered weight on the storage's owner, which a caller's input has;
// a recurrent cell packs only a model's own tensors). A value a run computes (a DequantizeLinear's output)
// is new on every run.
bool storedAcrossRuns(const Graph& g, ValueId v, bool callerInputs);

struct CubeTimeModel {
  // seconds per FLOP, per input, output, patch and weight element, per call, per aliased weight element, per
  // far activation element
  std::array<double, kCubeFeatures> coef{};
  int cases = 0;                 // shapes the fit saw
  double rmsLogError = 0;        // RMS of ln(model / measured) over them
  // The share of the streaming-copy bandwidth at the weights' footprint a dense Conv streams its weights
  // at (its weightStreamBytes), fitted with the coefficients; 0: no bound.
  double weightStreamEfficiency = 0;
  // Since session 58, fitted with it: whether the kernel reads its weights once an image (weightImageBytes)
  // rather than once an output row (weightStreamBytes), and the share of the shorter of the terms' time and
  // that stream the longer does not hide (0: the larger of the two, as before). Session 58's Xeon (oneDNN on
  // AVX-512): 3x3 Convs 512 -> 512 at 7x7 took 1168 us where once a row at the copy's rate said 1777, and at
  // 5x5, two to eight weights read in turn, 715-735 where it said 1220; session 18's AMD EPYC (AVX2) fitted
  // once a row.
  bool weightStreamPerImage = false;
  double weightStreamShare = 0;
  // The model's time from its terms' time and its weight stream's time at the full copy rate (0: none).
  double withStream(double termsSeconds, double streamSeconds) const {
    if (weightStreamEfficiency <= 0 || streamSeconds <= 0) return termsSeconds;
    const double b = streamSeconds / weightStreamEfficiency;
    return std::max(termsSeconds, b) + weightStreamShare * std::min(termsSeconds, b);
  }
  // The stream bytes the model reads of `f`: once a row, or once an image.
  double streamBytes(const CubeFeatures& f) const {
    return weightStreamPerImage ? f.streamImageBytes() : f.streamRowBytes();
  }
  // Each shape's measured time (per-kernel overhead included) as fwb calibrate timed it: what
  // `fwb calibrate --merge` fits again from (empty in a profile written by hand or before it kept them).
  std::vector<std::pair<std::string, double>> measuredUs;
  // An "rnn" model fitted to the cells' times less their input projections as the model of kind
  // `projectionKind` ("gemm") prices them: a cell then costs this model's terms over its steps plus that
  // model's over its projection. Empty: this model's own terms price the projections too (a profile
  // calibrated before session 48).
  std::string projectionKind;
  double seconds(const CubeFeatures& f) const;
  // Of seconds(f), the weight terms' (weight and aliased-weight elements).
  double weightSeconds(const CubeFeatures& f) const;
  // seconds(f), or the weight stream's time when that is longer: `copyRate(bytes)` is the profile's
  // streaming-copy bandwidth at a footprint of `bytes`.
  template <class CopyRate>
  double boundedSeconds(const CubeFeatures& f, CopyRate copyRate) const {
    const double s = seconds(f);
    if (weightStreamEfficiency <= 0 || streamBytes(f) <= 0) return s;
    const double rate = copyRate(f.streamFootprint());
    return rate > 0 ? withStream(s, streamBytes(f) / rate) : s;
  }
};
// s_per_flop, ..., s_per_call, s_per_aliased_weight_element, s_per_far_activation_element
const std::array<const char*, kCubeFeatures>& cubeCoefficientKeys();

struct CubeSample {
  CubeFeatures features;
  double seconds = 0;  // measured (without the per-kernel overhead)
  double streamSeconds = 0;  // its weight stream at the full copy bandwidth (dense Convs; 0: none)
  double imageStreamSeconds = 0;  // the same read once an image (weightImageBytes)
};

// Non-negative least squares on the relative error (every row divided by its measured time), by trying
// every subset of the coefficients and keeping the best fit whose coefficients are all >= 0. Needs at
// least 2 samples with positive time. When samples carry a weight stream (streamSeconds), its
// efficiency (a share of the copy bandwidth, 0.30 to 1.50, or none) is fitted with it, with its reading
// (once a row or once an image) and its share (0, 0.25, 0.5, 0.75, 1): for each, the shapes it bounds to
// within 80 % of their time are left out of the least squares (the others' targets less the share of
// their stream), and the one whose model has the smallest RMS ln(model / measured) over all shapes is kept.
Result<CubeTimeModel> fitCubeTimeModel(const std::vector<CubeSample>& samples);

}  // namespace fw::sim
