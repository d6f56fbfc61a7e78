#include "simulator/CpuCubeModel.h"

#include <algorithm>
#include <cmath>

#include "core/exec/ConvPrimitive.h"
#include "core/exec/DirectConv.h"
#include "core/exec/Gemm.h"
#include "core/exec/OpContext.h"
#include "core/ir/OpCost.h"
#include "simulator/NonNegFit.h"
#include "simulator/OpFamily.h"

namespace fw::sim {
namespace {

std::optional<std::vector<int64_t>> dimsOf(const Graph& g, ValueId v) {
  if (v == kNoId) return std::nullopt;
  const Value& val = g.value(v);
  if (val.initializer) return val.initializer->dims();
  return val.shape.ints();
}

double numel(const std::vector<int64_t>& d) {
  double n = 1;
  for (int64_t x : d) n *= static_cast<double>(x);
  return n;
}

// Which input holds the weights (W or B) of a matrix op, and its kind.
struct OpShape {
  const char* kind;
  size_t weight;
};
std::optional<OpShape> shapeOfOp(const std::string& op, int64_t group, bool transB) {
  // Gemm with transB = 1 (weights stored [N, K], as PyTorch exports a Linear) runs on a different library
  // path: a 1x1280x1000 product took 132 us that way and 63 us with the weights [K, N].
  if (op == "Gemm" && transB) return OpShape{"gemm_tb", 1};
  if (op == "MatMul" || op == "Gemm") return OpShape{"gemm", 1};
  if (op == "Conv") return OpShape{group > 1 ? "grouped_conv" : "conv", 1};
  if (op == "ConvTranspose") return OpShape{"conv_transpose", 1};
  if (op == "MatMulInteger") return OpShape{"int_gemm", 1};
  if (op == "QLinearMatMul") return OpShape{"int_gemm", 3};
  if (op == "ConvInteger") return OpShape{"int_conv", 1};
  if (op == "QLinearConv") return OpShape{"int_conv", 3};
  if (op == "LSTM" || op == "GRU" || op == "RNN") return OpShape{"rnn", 1};
  return std::nullopt;
}

bool allOnes(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t e) { return e == 1; });
}

// A Conv the executor runs as the pointwise Conv of its rows (core/exec/ConvPrimitive.h, rowsAsChannels):
// no padding (pads or an auto_pad that pads), stride 1 along the last axis, dilations 1.
bool rowsAsChannels(const Node& n, const std::vector<int64_t>& x, const std::vector<int64_t>& w) {
  if (w.size() < 4 || x.size() != w.size()) return false;
  const size_t r = w.size() - 2;
  const std::vector<int64_t> pads = n.attrs.getInts("pads").value_or(std::vector<int64_t>{});
  const std::vector<int64_t> strides = n.attrs.getInts("strides").value_or(std::vector<int64_t>{});
  const std::vector<int64_t> dilations = n.attrs.getInts("dilations").value_or(std::vector<int64_t>{});
  const std::string autoPad = n.attrs.stringOr("auto_pad", "NOTSET");
  const bool padded = std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; }) ||
                      autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (!dilations.empty() && !allOnes(dilations)) return false;
  return exec::rowsAsChannels(std::vector<int64_t>(x.begin() + 2, x.end()),
                              std::vector<int64_t>(w.begin() + 2, w.end()), n.attrs.intOr("group", 1),
                              strides.size() == r ? strides.back() : 1, padded);
}

// A Conv whose kernel is 1 in every spatial dim, without padding: every output position reads one input
// position (every stride-th along each axis), as the executor's product path takes it.
bool isPointwise(const Node& n, const std::vector<int64_t>& x, const std::vector<int64_t>& w, const std::vector<int64_t>& y) {
  if (w.size() < 3 || x.size() != w.size() || y.size() != w.size()) return false;
  if (!allOnes(std::vector<int64_t>(w.begin() + 2, w.end()))) return false;
  const size_t r = w.size() - 2;
  std::vector<int64_t> strides = n.attrs.getInts("strides").value_or(std::vector<int64_t>{});
  if (strides.size() < r) strides.assign(r, 1);
  std::vector<int64_t> pads = n.attrs.getInts("pads").value_or(std::vector<int64_t>{});
  if (pads.size() < 2 * r) pads.assign(2 * r, 0);
  const std::string autoPad = n.attrs.stringOr("auto_pad", "NOTSET");
  for (size_t d = 0; d < r; ++d) {
    const int64_t in = x[2 + d], out = y[2 + d], s = strides[d];
    if (s < 1 || in < 1 || out != (in - 1) / s + 1) return false;
    // SAME pads (out - 1) * s + 1 - in in all, none here; explicit pads must be zero.
    const bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    if (!same && autoPad != "VALID" && (pads[d] != 0 || pads[d + r] != 0)) return false;
  }
  return true;
}

// Per spatial axis, the share of a Conv's (output position, kernel tap) pairs whose tap reads inside the
// input rather than the padding, from pads (or auto_pad), strides and dilations: 1 when every tap is
// inside. Empty when the shapes do not say.
std::vector<double> insideTapShares(const Node& n, const std::vector<int64_t>& x,
                                    const std::vector<int64_t>& w, const std::vector<int64_t>& y,
                                    std::vector<double>* used = nullptr) {
  if (w.size() < 3 || x.size() != w.size() || y.size() != w.size()) return {};
  const size_t r = w.size() - 2;
  auto attr = [&](const char* name, int64_t def) {
    std::vector<int64_t> v = n.attrs.getInts(name).value_or(std::vector<int64_t>{});
    if (v.size() < r) v.assign(r, def);
    return v;
  };
  const std::vector<int64_t> strides = attr("strides", 1), dil = attr("dilations", 1);
  std::vector<int64_t> pads = n.attrs.getInts("pads").value_or(std::vector<int64_t>{});
  if (pads.size() < 2 * r) pads.assign(2 * r, 0);
  const std::string autoPad = n.attrs.stringOr("auto_pad", "NOTSET");
  std::vector<double> shares;
  for (size_t d = 0; d < r; ++d) {
    const int64_t in = x[2 + d], out = y[2 + d], k = w[2 + d], s = std::max<int64_t>(1, strides[d]);
    const int64_t dl = std::max<int64_t>(1, dil[d]);
    if (in <= 0 || out <= 0 || k <= 0) return {};
    int64_t begin = pads[d];
    if (autoPad == "VALID") begin = 0;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      const int64_t total = std::max<int64_t>(0, (out - 1) * s + (k - 1) * dl + 1 - in);
      begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
    }
    int64_t inside = 0, taps = 0;
    for (int64_t t = 0; t < k; ++t) {
      const int64_t off = t * dl - begin;  // input index of tap t at output o: o * s + off
      const int64_t lo = off >= 0 ? 0 : (-off + s - 1) / s;
      const int64_t hi = std::min(out - 1, in - 1 - off >= 0 ? (in - 1 - off) / s : -1);
      inside += std::max<int64_t>(0, hi - lo + 1);
      taps += hi >= lo ? 1 : 0;
    }
    shares.push_back(static_cast<double>(inside) / static_cast<double>(out * k));
    if (used) used->push_back(static_cast<double>(std::max<int64_t>(1, taps)) / static_cast<double>(k));
  }
  return shares;
}

double insideTapShare(const std::vector<double>& shares) {
  double share = 1;
  for (double s : shares) share *= s;
  return share > 0 ? share : 1.0;
}

}  // namespace

const std::vector<std::string>& cubeModelKinds() {
  static const std::vector<std::string> k = {"gemm",
                                             "gemm_tb",
                                             "gemm_col",
                                             "conv",
                                             "conv1d",
                                             "pointwise_conv",
                                             "grouped_conv",
                                             "grouped_conv_wide",
                                             "depthwise_conv",
                                             "conv_transpose",
                                             "conv_transpose1d",
                                             "conv_transpose_plain",
                                             "conv_direct",
                                             "conv_rows",
                                             "int_gemm",
                                             "int_conv",
                                             "rnn"};
  return k;
}

const std::array<const char*, kCubeFeatures>& cubeCoefficientKeys() {
  static const std::array<const char*, kCubeFeatures> k = {"s_per_flop",
                                                           "s_per_input_element",
                                                           "s_per_output_element",
                                                           "s_per_patch_element",
                                                           "s_per_weight_element",
                                                           "s_per_call",
                                                           "s_per_aliased_weight_element",
                                                           "s_per_far_activation_element"};
  return k;
}

std::optional<CubeFeatures> cubeFeatures(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  // An Einsum that is one batched product runs on the GEMM path (core/exec/ops_linalg.cpp).
  const auto einsum = einsumProductOf(g, n);
  // Its second operand read transposed ([batch, N, K], attention scores), as a Gemm's with transB.
  const auto os = einsum ? std::optional<OpShape>(OpShape{einsum->transB ? "gemm_tb" : "gemm", 1})
                         : shapeOfOp(n.opType, n.attrs.intOr("group", 1), n.attrs.intOr("transB", 0) != 0);
  if (!os || n.inputs.size() <= os->weight || n.outputs.empty()) return std::nullopt;
  const auto x = dimsOf(g, n.inputs[0]);
  const auto w = dimsOf(g, n.inputs[os->weight]);
  const auto y = dimsOf(g, n.outputs[0]);
  if (!x || !w || !y || y->empty() || w->empty()) return std::nullopt;
  const NodeCost nc = nodeCost(g, id);
  if (!nc.known) return std::nullopt;
  CubeFeatures f;
  f.kind = os->kind;
  // A filter bank (a few input channels a group, depthwise too, a kernel of at least 8 taps along the last
  // axis, stride 1 along it, and a few along the others; or a bank over rows, its taps along the other axes)
  // runs on the executor's own direct loop where that timed faster than the library (core/exec/DirectConv.h):
  // its time is the multiply-adds of every tap, the padding's included, and the padded copy of the input
  // (a bank over rows reads it in place). Costed as that loop, though the library may have won.
  if (n.opType == "Conv" && x->size() >= 3 && w->size() == x->size()) {
    const std::vector<int64_t> strides = n.attrs.getInts("strides").value_or(std::vector<int64_t>{});
    const std::vector<int64_t> kernel(w->begin() + 2, w->end());
    const int64_t group = n.attrs.intOr("group", 1);
    // Padding along the last axis (a bank over rows takes none): pads, or an auto_pad that pads.
    const std::vector<int64_t> pads = n.attrs.getInts("pads").value_or(std::vector<int64_t>{});
    const size_t r = kernel.size();
    const std::string autoPad = n.attrs.stringOr("auto_pad", "NOTSET");
    const bool lastPadded = (pads.size() == 2 * r && (pads[r - 1] != 0 || pads[2 * r - 1] != 0)) ||
                            ((autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") && kernel.back() > 1);
    if (exec::directConvolutionFits((*x)[1], (*w)[0], group, kernel, strides.empty() ? 1 : strides.back(),
                                    lastPadded)) {
      // Every tap, along the last axis or (a bank over rows) the others.
      double taps = 1;
      for (int64_t k : kernel) taps *= static_cast<double>(k);
      // A bank over rows loads a vector a tap and row for fewer multiply-adds and runs at its own rate; a
      // kernel along the last axis and others (a large depthwise one) is the loop's taps along the last axis
      // over each row the others land on.
      f.kind = kernel.back() == 1 ? "conv_rows" : "conv_direct";
      f.ownLoop = true;
      f.flops = 2 * numel(*y) * static_cast<double>((*x)[1] / std::max<int64_t>(1, group)) * taps;
      f.inElems = numel(*x);
      f.outElems = numel(*y);
      f.weightElems = numel(*w);
      // The "patch" term counts the input elements the loop loads: a vector of positions for each tap and
      // input channel, once a block of 4 output channels (a depthwise row's block is its one channel), so a
      // depthwise Conv loads 4x what a bank of 4 or more channels a group does a multiply-add (8 x 64 x 512
      // depthwise, 128 taps: 2.76 ms measured in a network, 1.16 simulated on FLOPs alone; session 41).
      const int64_t g = std::max<int64_t>(1, group), mg = (*w)[0] / g;
      if (mg > 0 && y->back() > 0)
        f.patchElems = f.outElems / static_cast<double>(mg) * static_cast<double>((mg + 3) / 4) *
                       static_cast<double>((*x)[1] / g) * taps;
      return f;
    }
  }
  // One input channel a group: oneDNN runs it on its depthwise kernel over channels-last data, and most
  // of its time is the two reorders from and to the executor's NCHW (the grouped kernel's is arithmetic).
  if (f.kind == "grouped_conv" && w->size() > 1 && (*w)[1] == 1) f.kind = "depthwise_conv";
  // More than 16 input channels a group: oneDNN 2.6 on AVX-512 runs it on brgconv over channels-last data,
  // one kernel call an image and group, where 16 or fewer a group take its grouped jit kernel, which packs
  // groups into a vector. One model for both left RegNetY's Convs of 24 channels a group (2 images, 14 and
  // 37 groups) at 1.7-2.3x their model; a kind of their own, with the calls counted, 0.85-1.45x (session 23).
  if (f.kind == "grouped_conv" && w->size() > 1 && (*w)[1] > 16) {
    f.kind = "grouped_conv_wide";
    f.calls =
        static_cast<double>(std::max<int64_t>(1, (*x)[0]) * std::max<int64_t>(1, n.attrs.intOr("group", 1)));
  }
  // A 1x1 Conv without padding is one product per image on the executor's own GEMM path, over the NCHW
  // data as they are (stride 1) or over the positions it reads, copied out (strided): no reorders
  // (core/exec/ConvPrimitive.cpp). Its "patch" term counts the input values a strided one copies out
  // (none at stride 1), the "input" term the whole input.
  // Over a few positions an image, not whole blocks of the library's, a batch is one product over the
  // images' columns gathered (exec::pointwiseImagesGathered): its columns all the images' positions, the
  // weight read once, the "patch" term the input values the gather copies (and a strided one's copy before)
  // and, since session 75, the output values copied back into each image's plane: alone, such Convs of small
  // weights ([64, 96, 3, 3] -> 576, [16, 192, 3, 3] -> 1152, [64, 400, 2, 2] -> 400) were simulated at
  // 0.78-0.88x their time with the gather alone, 0.86-0.94x with both; sets 101-103 re-simulated each on its
  // own calibrations, 48 rows, mean |whole| 7.95 -> 7.23 %, none lost or gained.
  bool copiesPositions = false, gathered = false;
  if (f.kind == "conv" && isPointwise(n, *x, *w, *y)) {
    f.kind = "pointwise_conv";
    f.plainProduct = true;
    f.positions = 1;
    for (size_t d = 2; d < y->size(); ++d) f.positions *= static_cast<double>((*y)[d]);
    copiesPositions = !std::equal(x->begin() + 2, x->end(), y->begin() + 2) ||
                      exec::pointwiseRowsSpread(static_cast<int64_t>(f.positions));
    gathered = exec::pointwiseImagesGathered((*x)[0], static_cast<int64_t>(f.positions));
  } else if (f.kind == "conv" && rowsAsChannels(n, *x, *w)) {
    // A kernel over the leading spatial axes whole and 1 along the last: the pointwise Conv of the input's
    // rows as channels (exec::rowsAsChannels), the last axis its positions.
    f.kind = "pointwise_conv";
    f.plainProduct = true;
    f.positions = static_cast<double>(x->back());
    copiesPositions = exec::pointwiseRowsSpread(x->back());
    gathered = exec::pointwiseImagesGathered((*x)[0], x->back());
  }
  f.flops = nc.flops;
  f.inElems = numel(*x);
  // A depth multiplier (one input channel a group, m output channels each) runs on oneDNN's GEMM path or,
  // where that timed slower, as a depthwise Conv over its input channels copied m times
  // (core/exec/ConvPrimitive.cpp). Costed as the copies: the copy writes them, the depthwise kernel's
  // reorder reads and writes them again (8x16x32x32 -> 48, 3x3: 618 us measured, 506 simulated; 313 as
  // the input it is). Where the GEMM path won the timing (EEGNet's 22 x 1 spatial filters), the
  // simulation does not know it.
  if (f.kind == "depthwise_conv" && x->size() > 1 && (*w)[0] > (*x)[1] && (*x)[1] > 0)
    f.inElems *= 2 * static_cast<double>((*w)[0] / (*x)[1]);
  f.outElems = numel(*y);
  f.weightElems = numel(*w);
  if (f.outElems <= 0) return f;
  if (f.kind == "depthwise_conv") {
    f.actStreamBytes = 3 * 4 * (f.inElems + f.outElems);
    f.actFootprintBytes = 2 * 4 * (f.inElems + f.outElems);
  }
  // One position an image (a squeeze-excitation's 1x1 Convs after a global pool). One image is M rows of
  // the weight against its C channels, the executor's rows-dot-vector loop (core/exec/Gemm.cpp: a product
  // of one column, the bias and a fused ReLU added after): gemm_col's model. (As a pointwise Conv, its
  // product's columns padded to a block and its call as cold as the library's: a RegNetY's squeeze Convs
  // 18-46 us simulated, 5-13 measured.) More than one image are one library product of X[images, C] by the
  // weight's packed copy transposed, read once (exec::pointwiseImagesAsOneProduct): a Gemm with transB's
  // model, the images its rows. (A product an image before, and gemm_col's model a call an image: over the
  // 156 held-out rows of sets 85-93, such Convs at a median exp(-0.7) of their time at 4 images.)
  if (f.kind == "pointwise_conv" &&
      exec::pointwiseImagesAsOneProduct((*x)[0], static_cast<int64_t>(f.positions))) {
    f.kind = "gemm_tb";
    f.positions = 0;
    f.patchElems = static_cast<double>((*x)[0]) * (f.flops / (2 * f.outElems));
    return f;
  }
  if (f.kind == "pointwise_conv" && f.positions == 1) {
    f.kind = "gemm_col";
    f.ownLoop = true;
    f.positions = 0;
    f.patchElems = f.flops / 2;
    f.calls = static_cast<double>(std::max<int64_t>(1, (*x)[0]));
    return f;
  }
  // The implicit GEMM: K = FLOPs / (2 numel(Y)); N = output channels per group (Conv) or the output's last
  // dim (MatMul); the left operand M·K summed over groups is numel(Y) · K / N.
  const double K = f.flops / (2 * f.outElems);
  const std::string kind = f.kind;
  if (kind == "rnn") {
    // W [dirs, G*H, I] and R [dirs, G*H, H]. The input projection is one product over the whole
    // sequence; the recurrence runs step by step, one library product per step that streams all of
    // R[d] (what bounds it at batch 1), then the gate functions over G*H values per batch row. So: the
    // "patch" term counts the step products (seq * dirs; a GRU without linear_before_reset runs two a
    // step), the "weight" term the R elements streamed over all steps, the "output" term the gate
    // values (numel(Y) * G). X is [seq, batch, I], or [batch, seq, I] with layout = 1.
    // A W or R the run computes (not a model's own weight) is read as stored, R^T down its columns on every
    // step, where the executor packs a weight once (core/exec/Gemm.cpp): the "aliased weight" term counts
    // those elements, W once and R once a step.
    f.weightElems = 0;
    if (n.inputs.size() > 2)
      if (const auto r = dimsOf(g, n.inputs[2]); r && r->size() == 3 && x->size() == 3) {
        const size_t seqAxis = n.attrs.intOr("layout", 0) == 1 ? 1 : 0;
        const double steps = static_cast<double>((*x)[seqAxis] * (*r)[0]);
        const bool twoProducts = n.opType == "GRU" && n.attrs.intOr("linear_before_reset", 0) == 0;
        f.patchElems = steps * (twoProducts ? 2 : 1);
        f.projRows = static_cast<double>((*x)[0] * (*x)[1]);
        f.projDepth = static_cast<double>((*x)[2]);
        f.projCols = static_cast<double>((*r)[1]);
        f.projProducts = static_cast<double>((*r)[0]);
        f.weightElems = steps * static_cast<double>((*r)[1] * (*r)[2]);
        f.outElems *= static_cast<double>((*r)[1] / std::max<int64_t>(1, (*r)[2]));
        if (!storedAcrossRuns(g, n.inputs[1], false)) f.aliasedWeightElems += numel(*w);
        if (!storedAcrossRuns(g, n.inputs[2], false)) f.aliasedWeightElems += f.weightElems;
        // Its weight stream: one direction's R a step. Beyond the core's own cache it streams at the
        // copy's rate for its size, not the in-cache rate of the fit's R term (session 34: a GRU 256 -> 512
        // over 20 steps, 3 MB of R, took 151 us a step: 20 GB/s).
        f.weightBytes = 4 * static_cast<double>((*r)[1] * (*r)[2]);
        f.weightStreamBytes = f.weightBytes * steps;
        f.weightImageBytes = f.weightStreamBytes;
      }
    return f;
  }
  double N = 1;
  if (kind == "conv_transpose") {
    const int64_t group = std::max<int64_t>(1, n.attrs.intOr("group", 1));
    if (exec::deconvolutionOnPlainLayout((*w)[1] * group, group)) {
      // A few output channels: the executor's GEMM path on the plain layout (core/exec/ConvPrimitive.cpp),
      // a product into a column buffer of M * prod(kernel) values an input position, then a scatter-add
      // of that buffer into the output: the "patch" term counts the buffer.
      f.kind = "conv_transpose_plain";
      f.patchElems = (*x)[1] > 0 ? f.flops / (2 * static_cast<double>((*x)[1])) : 0;
      return f;
    }
    f.patchElems = f.inElems;  // backward-data form: the input itself is the left operand
    f.outChannels = static_cast<double>((*w)[1]);  // W [C, M/group, k...]
    // Over one axis (audio decoders' upsamplers) a kind of its own: fitted with the 2-D shapes, the
    // model's RMS went from 0.045 to 0.189 (session 22).
    if (w->size() == 3) f.kind = "conv_transpose1d";
    return f;
  }
  if (kind == "gemm" || kind == "gemm_tb" || kind == "int_gemm") {
    N = static_cast<double>(einsum ? einsum->N : y->back());
    // A batch of small products (a hypernetwork's per-sample weights, a block transform's one matrix
    // against each block) runs on the executor's row loop, no library call (core/exec/Gemm.cpp,
    // smallProductsOnRowLoop): an Einsum of one batched product (a shared first operand too), or a MatMul
    // whose second operand has more than one matrix, computed in runs of one batched product each
    // (MatMulShape::batchRun; one run unless both operands broadcast, as [3, 1, ...] x [1, 5, ...]).
    {
      int64_t nb = 0, pm = 0, pk = 0, pn = 0;
      bool tb = false;
      if (einsum && einsum->shared != EinsumProduct::Shared::B) {
        nb = einsum->batches, pm = einsum->M, pk = einsum->K, pn = einsum->N, tb = einsum->transB;
        // A shared first operand against a model's weights (read as stored, not moved): one library product
        // a batch on the packed copy of each (core/exec/ops_linalg.cpp).
        if (einsum->shared == EinsumProduct::Shared::A && !einsum->moveB && n.inputs.size() > 1 &&
            n.inputs[1] != kNoId && storedAcrossRuns(g, n.inputs[1], false) &&
            !exec::smallProductsOnRowLoop(nb, false, tb, pm, pn, pk))
          f.calls = static_cast<double>(nb);
      } else if (!einsum && n.opType == "MatMul" && w->size() >= 3) {
        if (const auto ms = exec::matmulShape(*x, *w);
            ms.ok() && ms->batches() > 0 && numel(ms->bBatch) > 1) {
          const int64_t run = ms->batchRun()[0];
          nb = run, pm = ms->M, pk = ms->K, pn = ms->N;
          f.calls = static_cast<double>(ms->batches() / run);
        }
      }
      if (exec::smallProductsOnRowLoop(nb, false, tb, pm, pn, pk)) f.ownLoop = true;
    }
    // Rows against one column (a regression head, an attention scoring vector), A not transposed: the
    // executor's own dot loop on one thread (core/exec/Gemm.cpp, rowsDotVector), where oneDNN has no fast
    // path: [128, 270] x [270, 1] 6.8 us there against 11.8 in oneDNN (session 29).
    if (kind != "int_gemm" && !einsum && N == 1 && n.attrs.intOr("transA", 0) == 0) {
      f.kind = "gemm_col";
      f.ownLoop = true;
      f.patchElems = f.outElems * K;
      return f;
    }
    // The weight rows a matrix-vector kernel reads together, 4 KiB apart or a multiple: a [K, N] weight
    // is read several rows at once, so rows 2 KiB apart alias every second one; Gemm(transB)'s [N, K]
    // along its rows, which alias when K floats are a multiple of 4 KiB. The executor runs a model's own
    // weight, whatever its layout, on a copy in oneDNN's layout (core/exec/Gemm.cpp, packedWeights): only
    // a weight the run computes (or a graph input) is read as stored.
    // One row against a [K, N] weight whose rows are a multiple of 4 KiB apart (a MatMul, or a Gemm
    // without a bias) runs on the executor's own loop, which streams the weight (core/exec/Gemm.cpp). The
    // executor takes that loop on one thread only; calibrations here are on one thread.
    const bool tb = kind == "gemm_tb";
    const int64_t rowBytes = 4 * (tb ? w->back() : static_cast<int64_t>(N));
    const double rows = N > 0 ? f.outElems / N : 0;
    const bool noBias = n.opType == "MatMul" ||
                        (n.attrs.intOr("transA", 0) == 0 && (n.inputs.size() < 3 || n.inputs[2] == kNoId));
    const bool ownLoop = kind == "gemm" && rows == 1 && N >= 64 && rowBytes % 4096 == 0 && noBias;
    const bool modelWeight = n.inputs.size() > 1 && weightBehindViews(g, n.inputs[1]) != kNoId;
    if (kind != "int_gemm" && !ownLoop && !modelWeight && rows <= 8 && rowBytes > 0 &&
        rowBytes % (tb ? 4096 : 2048) == 0)
      f.aliasedWeightElems = f.weightElems;
  } else {
    const double group = static_cast<double>(std::max<int64_t>(1, n.attrs.intOr("group", 1)));
    N = static_cast<double>((*w)[0]) / group;
    if (kind == "conv") f.outChannels = N;
  }
  f.patchElems = N > 0 ? f.outElems * K / N : 0;
  if (kind == "pointwise_conv" && !copiesPositions) f.patchElems = 0;
  if (gathered) {
    f.patchElems += f.outElems * K / N + f.outElems;
    f.positions *= static_cast<double>((*x)[0]);
  }
  // A batch of images reads the weights once an image: oneDNN's Conv kernels run image by image, every
  // output-channel block in turn, and the pointwise path is one product an image. 3x3 512->512 at 4x4
  // took 491 us for one image, 1974 for 4 and 3963 for 8; 1x1 2048->512 at 4x4, 175 and 1388 us for 1
  // and 8 (fwb profile, 1 thread), where a weight term charged once a batch gave the 8 images 2036 and
  // 1101 us. (The per-call term stayed once a node until session 74: charged once an image, it had overshot
  // MobileNetV2's pointwise Convs at batch 16 by 30 %. With the pointwise fit's call term of 1.4-1.8 us since
  // the batched shapes joined it, a pointwise Conv's product an image counts a call an image: [64, 144, 4, 4]
  // -> 40 took 124-134 us alone, 74 simulated once a node, 155 once an image; [64, 40, 4, 4] -> 240 250-258,
  // 133 and 209. Held-out set 100 re-simulated on its own measurements: 7 -> 9 of 12 rows met, mean |whole|
  // 11.70 -> 8.63 %; set 99's second run 11 of 12 both ways, 6.40 -> 6.79 %.) The grouped kind (16 or fewer
  // channels a group) too, since its calibration times batches over small planes (session 75: oneDNN's
  // grouped kernel goes image by image, group by group; once a node, with a grid of one image but three, its
  // Convs of 8 and 16 channels a group over 2x2 to 8x8 planes at batch 8-64 were simulated at 0.38-0.78x
  // their time alone, 0.64-1.12x after, on the same calibrations). Not the depthwise and wide grouped kinds:
  // their fitted weight terms stand for more than weights, and once an image, fitted on single images, they
  // overshot RegNetX-400MF's Convs of 25 groups at 3x3, batch 8, 3.6x (80 us measured, 295 simulated).
  const bool convOnImages = kind == "conv" || kind == "pointwise_conv" || kind == "grouped_conv";
  if (convOnImages && x->size() >= 3 && (*x)[0] > 1 && !gathered)
    f.weightElems *= static_cast<double>((*x)[0]);
  if (kind == "pointwise_conv" && x->size() >= 3 && (*x)[0] > 1 && !gathered)
    f.calls = static_cast<double>((*x)[0]);
  // A pointwise Conv's weight streams from its footprint's distance once a product (an image's, or the
  // gathered images'): with a weight past the last-level cache and a few positions the stream bounds it, as a
  // dense Conv's does ([1, 1024, 4, 4] -> 1024, 4 MiB of weight: 205 us alone, 154 simulated on its terms;
  // [2, 2048, 2, 2] -> 2048 gathered, 16 MiB: 748 and 633; session 75). The calibration times four such
  // shapes and fits the stream's share of the copy bandwidth with the terms (HostCubeBench.cpp).
  if (kind == "pointwise_conv") {
    f.weightBytes = 4 * numel(*w);
    f.weightStreamBytes =
        f.weightBytes * (gathered ? 1.0 : static_cast<double>(std::max<int64_t>(1, (*x)[0])));
    f.weightImageBytes = f.weightStreamBytes;
  }
  if (kind == "conv" || kind == "grouped_conv" || kind == "grouped_conv_wide" || kind == "depthwise_conv") {
    // oneDNN's direct kernels skip the taps that fall in the padding: an atrous 3x3 Conv whose dilation
    // exceeds the image computes only its centre tap (DeepLabV3+'s ASPP, rates 12/24/36 at 32x32:
    // 13.1, 6.4 and 2.9 ms measured for the same FLOP count).
    std::vector<double> used;
    const std::vector<double> shares = insideTapShares(n, *x, *w, *y, &used);
    const double share = insideTapShare(shares);
    f.flops *= share;
    f.patchElems *= share;
    // Nor are the weights of a tap no output reaches read: such an ASPP Conv reads its centre tap's only
    // (DeepLabV3 on MobileNetV3-Large at 192x192, [2, 960, 12, 12] -> 256 at rates 12, 24 and 36: 0.77 ms
    // each measured, 1.34 simulated with every tap's weights streamed once an output row, session 76).
    const double usedShare = insideTapShare(used);
    f.weightElems *= usedShare;
    // The weight stream of a dense 2-D Conv: every weight once an output row of each image, less a row's
    // taps in the padding (numel(W) * N * OH * the rows' inside share) and a row's taps no output column
    // reaches. A 1-D Conv's output is one row: every weight once an image (an STFT front end over one frame,
    // 257 filters of 512 taps, 10.7 us measured: its 526 KB of weights at 49 GB/s; its additive model,
    // fitted on many frames, 5.6).
    if (kind == "conv" && w->size() == 4 && shares.size() == 2 && shares[0] > 0) {
      f.weightBytes = 4 * numel(*w);
      f.weightStreamBytes = f.weightBytes * static_cast<double>(std::max<int64_t>(1, (*x)[0])) *
                            static_cast<double>((*y)[2]) * shares[0] * used[1];
      f.weightImageBytes = f.weightBytes * static_cast<double>(std::max<int64_t>(1, (*x)[0])) * usedShare;
    }
    if (kind == "conv" && w->size() == 3) {
      f.weightBytes = 4 * numel(*w);
      f.weightStreamBytes = f.weightBytes * static_cast<double>(std::max<int64_t>(1, (*x)[0]));
      f.weightImageBytes = f.weightStreamBytes;
    }
  }
  // A dense Conv over one spatial axis (audio, ECG, speech front ends) has a model of its own, fitted
  // on one-axis shapes: the dense model's weight term, fitted on 2-D shapes, charged an STFT-like Conv
  // (257 filters of 512 taps, 5 positions) 28 us where it ran in 12 (docs/calibration_cpu.md).
  if (kind == "conv" && w->size() == 3) f.kind = "conv1d";
  return f;
}

bool storedAcrossRuns(const Graph& g, ValueId v, bool callerInputs) {
  for (int depth = 0; v != kNoId && depth < 64; ++depth) {
    const Value& val = g.value(v);
    if (val.isInitializer() || val.isOuterRef()) return true;
    if (val.isGraphInput) return callerInputs;
    const Node& p = g.node(val.producer);
    if (nodeFamily(g, p) != OpFamily::View || p.inputs.empty()) return false;
    v = p.inputs[0];
  }
  return false;
}

CubeFeatures CubeFeatures::withPositionBlock(int64_t block) const {
  CubeFeatures f = *this;
  if (kind != "pointwise_conv" || block <= 1 || positions <= 0) return f;
  const double b = static_cast<double>(block);
  f.flops *= std::ceil(positions / b) * b / positions;
  return f;
}

CubeFeatures CubeFeatures::withOwnCache(double ownCacheBytes) const {
  CubeFeatures f = *this;
  if (kind != "pointwise_conv" || ownCacheBytes <= 0) return f;
  const double elems = inElems + outElems;
  f.farActElems = elems * std::clamp(4 * elems / ownCacheBytes - 1, 0.0, 1.0);
  return f;
}

CubeFeatures CubeFeatures::inputProjection() const {
  CubeFeatures f;
  f.kind = "gemm";
  const double m = projRows, k = projDepth, n = projCols, p = projProducts;
  f.flops = 2 * m * k * n * p;
  f.inElems = m * k * p;
  f.outElems = m * n * p;
  f.patchElems = m * k * p;  // a product's left operand, M x K
  f.weightElems = k * n * p;
  f.calls = p;
  return f;
}

CubeFeatures CubeFeatures::withoutInputProjection() const {
  CubeFeatures f = *this;
  f.flops = std::max(0.0, flops - 2 * projRows * projDepth * projCols * projProducts);
  f.projRows = f.projDepth = f.projCols = f.projProducts = 0;
  return f;
}

CubeFeatures CubeFeatures::withChannelBlock(int64_t block) const {
  CubeFeatures f = *this;
  if ((kind != "conv" && kind != "conv1d" && kind != "conv_transpose" && kind != "conv_transpose1d") ||
      block <= 1 || outChannels <= 0)
    return f;
  const double b = static_cast<double>(block);
  f.flops *= std::ceil(outChannels / b) * b / outChannels;
  return f;
}

double CubeTimeModel::seconds(const CubeFeatures& f) const {
  const auto v = f.vec();
  double s = 0;
  for (size_t i = 0; i < kCubeFeatures; ++i) s += coef[i] * v[i];
  return s;
}

double CubeTimeModel::weightSeconds(const CubeFeatures& f) const {
  return coef[4] * f.weightElems + coef[6] * f.aliasedWeightElems;
}

namespace {

// The least squares with the weight stream at `efficiency` (0: none), read once a row or, `perImage`, once an
// image, `share` of the shorter of it and the terms unhidden: the shapes it bounds within 80 % of their time
// left out, the others fitted to their time less that share of their stream; nullopt when fewer than 2
// shapes are left or no non-negative fit exists.
std::optional<CubeTimeModel> fitWithStream(const std::vector<CubeSample>& samples, double efficiency,
                                           bool perImage, double share) {
  auto usable = [](const CubeSample& s) { return s.seconds > 0 && std::isfinite(s.seconds); };
  auto stream = [&](const CubeSample& s) { return perImage ? s.imageStreamSeconds : s.streamSeconds; };
  auto bound = [&](const CubeSample& s) { return efficiency > 0 ? stream(s) / efficiency : 0.0; };
  std::vector<std::vector<double>> rows;  // features / (measured time less the share of the stream): target 1
  for (const auto& s : samples) {
    if (!usable(s) || bound(s) >= 0.8 * s.seconds) continue;
    const double target = s.seconds - share * bound(s);
    const auto v = s.features.vec();
    rows.emplace_back(v.begin(), v.end());
    for (double& e : rows.back()) e /= target;
  }
  if (rows.size() < 2) return std::nullopt;
  const auto fit = fitRelativeNonNegative(rows);
  if (!fit) return std::nullopt;
  CubeTimeModel m;
  for (size_t j = 0; j < kCubeFeatures; ++j) m.coef[j] = (*fit)[j];
  m.weightStreamEfficiency = efficiency;
  m.weightStreamPerImage = efficiency > 0 && perImage;
  m.weightStreamShare = efficiency > 0 ? share : 0.0;
  double sq = 0;
  int n = 0;
  for (const auto& s : samples) {
    if (!usable(s)) continue;
    const double p = m.withStream(m.seconds(s.features), stream(s));
    if (p <= 0) continue;
    const double l = std::log(p / s.seconds);
    sq += l * l;
    ++n;
  }
  m.cases = static_cast<int>(std::count_if(samples.begin(), samples.end(), usable));
  m.rmsLogError = n ? std::sqrt(sq / n) : 0;
  return m;
}

}  // namespace

Result<CubeTimeModel> fitCubeTimeModel(const std::vector<CubeSample>& samples) {
  int usable = 0;
  bool streams = false;
  for (const auto& s : samples)
    if (s.seconds > 0 && std::isfinite(s.seconds)) {
      ++usable;
      streams = streams || s.streamSeconds > 0 || s.imageStreamSeconds > 0;
    }
  if (usable < 2)
    return Error::badInput("fitting a matrix-op time model needs at least 2 timed shapes (got " +
                           std::to_string(usable) + ")");
  // Without a weight stream, one least squares over every shape. With one, its efficiency, reading and share
  // too: each share of the copy bandwidth from 0.30 to 1.50 in steps of 0.05 (and none), once a row or once
  // an image, 0 to 1 of the shorter unhidden by quarters; the least squares over the shapes it does not
  // bound, the one whose model has the smallest RMS over every shape kept (ties: the earlier, the simpler).
  std::optional<CubeTimeModel> best = fitWithStream(samples, 0, false, 0);
  if (streams)
    for (const bool perImage : {false, true})
      for (const double share : {0.0, 0.25, 0.5, 0.75, 1.0})
        for (int k = 6; k <= 30; ++k)
          if (auto m = fitWithStream(samples, 0.05 * k, perImage, share);
              m && (!best || m->rmsLogError < best->rmsLogError))
            best = m;
  if (!best) return Error::badInput("no non-negative time model fits these timed shapes");
  return *best;
}

}  // namespace fw::sim
