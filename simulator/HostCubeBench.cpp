// The matrix-op part of `fwb calibrate`: a grid of shapes per kind of matrix op (CpuCubeModel.h), each
// timed on the reference executor, and each kind's time model fitted to them. The shapes span what
// networks hold (a first convolution on 3 channels, thin 1x1 projections, strided and depthwise
// convolutions, decoder-sized and attention-sized GEMMs, and tiny ones whose time is the call itself)
// without being taken from any one model.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "core/zoo/ZooBuilder.h"
#include "simulator/CpuCost.h"
#include "simulator/HostBench.h"
#include "simulator/HostCalibration.h"
#include "simulator/NonNegFit.h"

namespace fw::sim {

using namespace hostbench;

namespace {

using fw::Attribute;

// One node a bench. With two copies of the op on one input, a shape whose input and two outputs
// overflow the cache the executor's loops keep (a few MiB here) timed each copy with its output
// evicted by the other's: a 1x1 Conv 16->32 at 160x160 measured 665 us a copy against 314 us alone,
// and the fitted models then charged every network layer that cold cost on top of the cold-data term.
constexpr int kCopies = 1;

struct ConvCase {
  int64_t cin, cout, hw, k, stride, group, pad;
  int64_t batch = 1;
};

std::string convName(const char* op, const ConvCase& c) {
  std::string s = std::string(op) + " " + std::to_string(c.k) + "x" + std::to_string(c.k) + " " + std::to_string(c.cin) +
                  "->" + std::to_string(c.cout);
  if (c.group > 1) s += c.group == c.cin ? " depthwise" : " group " + std::to_string(c.group);
  if (c.stride > 1) s += " stride " + std::to_string(c.stride);
  s += " at " + std::to_string(c.hw) + "x" + std::to_string(c.hw);
  return c.batch > 1 ? s + " batch " + std::to_string(c.batch) : s;
}

fw::Attributes convAttrs(const ConvCase& c) {
  return fw::zoo::attrs({Attribute::makeInts("pads", {c.pad, c.pad, c.pad, c.pad}), Attribute::makeInt("group", c.group),
                         Attribute::makeInts("strides", {c.stride, c.stride})});
}

fw::Tensor bytes(std::vector<int64_t> dims, uint8_t salt) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<uint8_t> v(static_cast<size_t>(n));
  uint32_t x = 2463534242u ^ salt;
  for (auto& e : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    e = static_cast<uint8_t>(x >> 24);
  }
  return fw::Tensor::fromVector<uint8_t>(fw::DType::UInt8, std::move(dims), v);
}

// The quantisation parameters of a QLinear op around its weight (scales and zero points as scalars).
std::vector<fw::Tensor> qlinearInputs(fw::Tensor w) {
  auto u8 = [](uint8_t v) { return fw::Tensor::fromVector<uint8_t>(fw::DType::UInt8, {}, std::vector<uint8_t>{v}); };
  return {fw::Tensor::scalarFloat(0.02f), u8(128), std::move(w), fw::Tensor::scalarFloat(0.01f), u8(128),
          fw::Tensor::scalarFloat(0.05f), u8(128)};
}

struct Case {
  std::string name;
  Bench bench;
};

// One op whose operands are all graph inputs (none a model's own weight, so the executor packs none): a
// MatMul of two activations, or a recurrent cell whose W and R the run computes.
Bench opOfInputs(const std::string& op, std::vector<fw::Tensor> operands, fw::Attributes attrs) {
  fw::Graph g;
  g.name = "calibrate_" + op + "_inputs";
  std::vector<fw::ValueId> ins;
  for (size_t i = 0; i < operands.size(); ++i)
    ins.push_back(
        g.addInput("in" + std::to_string(i), operands[i].dtype(), fw::Shape::ofInts(operands[i].dims())));
  const fw::ValueId y = g.addValue("y", fw::DType::Float32);
  Bench b;
  b.node = g.addNode(op, ins, {y}, std::move(attrs), op + "_0");
  g.addOutput(y);
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:" + op;
  b.inputs = std::move(operands);
  return b;
}

// A MatMul of two activations (B read as stored): a few rows against a B whose rows are a multiple of
// 2 KiB apart, which alias in the cache.
Case matMulOfInputs(int64_t m, int64_t k, int64_t n) {
  return {
      "MatMul " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + " of two inputs",
      opOfInputs("MatMul", {filled({m, k}, 0.0f), filled({k, n}, 0.25f)}, {})};
}

std::vector<Case> gemmCases() {
  std::vector<Case> cs;
  struct G {
    int64_t batch, m, k, n;
  };
  for (G g : {G{0, 1, 768, 768}, G{0, 1, 2048, 1000}, G{0, 8, 512, 2048}, G{0, 64, 64, 64}, G{0, 128, 768, 3072},
              G{0, 128, 3072, 768}, G{0, 197, 384, 1152}, G{0, 256, 256, 256}, G{0, 512, 512, 512}, G{0, 1024, 1024, 1024},
              G{0, 3136, 64, 256}, G{0, 49, 2048, 512}, G{0, 16, 256, 4}, G{0, 1, 512, 2048}, G{0, 1, 2048, 512},
              G{0, 4, 1024, 1024}, G{0, 1, 64, 4096}, G{0, 1, 16, 16}, G{0, 4, 32, 32}, G{0, 1, 64, 8}, G{12, 128, 64, 128}, G{12, 128, 128, 64}}) {
    std::vector<int64_t> x = {g.m, g.k}, w = {g.k, g.n};
    if (g.batch) {
      x.insert(x.begin(), g.batch);
      w.insert(w.begin(), g.batch);
    }
    std::string name = "MatMul " + std::to_string(g.m) + "x" + std::to_string(g.k) + "x" + std::to_string(g.n);
    if (g.batch) name += " batch " + std::to_string(g.batch);
    cs.push_back({name, oneOp("MatMul", x, {filled(w, 0.25f)}, {}, kCopies)});
  }
  for (auto [m, k, n] : {std::tuple{2, 256, 1024}, std::tuple{4, 1024, 1024}, std::tuple{8, 512, 2048}})
    cs.push_back(matMulOfInputs(m, k, n));
  return cs;
}

// Gemm with transB = 1 and a bias, as a PyTorch Linear exports: classifiers, projections, SE blocks.
std::vector<Case> gemmTransBCases() {
  std::vector<Case> cs;
  struct G {
    int64_t m, k, n;
  };
  for (G g :
       {G{1, 768, 768}, G{1, 2048, 1000}, G{1, 1280, 1000}, G{1, 512, 2048}, G{1, 2048, 512}, G{1, 64, 4096},
        G{1, 16, 16}, G{1, 256, 64}, G{4, 1024, 1024}, G{8, 512, 2048}, G{64, 64, 64}, G{128, 768, 3072},
        G{128, 3072, 768}, G{256, 256, 256}, G{512, 512, 512}, G{49, 2048, 512},
        // A narrow head over a batch (a regression's or a few-class one, an echo state network's read-out):
        // about as long as its input's read whatever N (64x512x4 7.0 us, x8 7.0, x16 6.7; 512x64x2 7.4).
        G{64, 512, 4}, G{512, 64, 2}, G{256, 128, 10}, G{2048, 32, 3}}) {
    const std::string name = "Gemm(transB) " + std::to_string(g.m) + "x" + std::to_string(g.k) + "x" + std::to_string(g.n);
    cs.push_back({name, oneOp("Gemm", {g.m, g.k}, {filled({g.n, g.k}, 0.25f), filled({g.n}, 0.1f)},
                              fw::zoo::attrs({fw::Attribute::makeInt("transB", 1)}), kCopies)});
  }
  return cs;
}

// Rows against one column (a regression or scoring head): the executor's own dot loop, as MatMuls with the
// column [K, 1] and as Gemms with transB, the column [1, K], and a bias.
std::vector<Case> gemmColumnCases() {
  std::vector<Case> cs;
  for (auto [m, k] : {std::pair<int64_t, int64_t>{1, 64},
                      {1, 1024},
                      {16, 256},
                      {64, 96},
                      {128, 270},
                      {512, 64},
                      {2048, 32},
                      {8, 1536},
                      {256, 1024},
                      {4096, 16}})
    cs.push_back({"MatMul " + std::to_string(m) + "x" + std::to_string(k) + "x1",
                  oneOp("MatMul", {m, k}, {filled({k, 1}, 0.25f)}, {}, kCopies)});
  for (auto [m, k] : {std::pair<int64_t, int64_t>{1, 512}, {32, 512}, {128, 269}, {512, 64}, {1024, 128}})
    cs.push_back({"Gemm(transB) " + std::to_string(m) + "x" + std::to_string(k) + "x1",
                  oneOp("Gemm", {m, k}, {filled({1, k}, 0.25f), filled({1}, 0.1f)},
                        fw::zoo::attrs({fw::Attribute::makeInt("transB", 1)}), kCopies)});
  return cs;
}

// A Conv whose weight a Mul by a graph input computes in the run: the executor keeps a reordered copy of
// a weight only while its storage lives (a model's weight, or a caller's input), and a run's buffer
// ends with the run. The Conv is the timed node.
Bench convOfComputedWeight(const ConvCase& c) {
  fw::Graph g;
  g.name = "calibrate_Conv_computed_weight";
  const fw::Tensor x = filled({1, c.cin, c.hw, c.hw}, 0.0f), s = filled({1}, 1.0f);
  const fw::ValueId xv = g.addInput("x", x.dtype(), fw::Shape::ofInts(x.dims()));
  const fw::ValueId sv = g.addInput("s", s.dtype(), fw::Shape::ofInts(s.dims()));
  const fw::ValueId w = g.addInitializer("w", filled({c.cout, c.cin / c.group, c.k, c.k}, 0.01f));
  const fw::ValueId wc = g.addValue("wc", fw::DType::Float32);
  const fw::ValueId y = g.addValue("y", fw::DType::Float32);
  g.addNode("Mul", {w, sv}, {wc}, {}, "Mul_0");
  Bench b;
  b.node = g.addNode("Conv", {xv, wc}, {y}, convAttrs(c), "Conv_0");
  b.onlyNode = true;
  g.addOutput(y);
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:Conv";
  b.inputs = {x, s};
  return b;
}

enum class ConvKind { Dense, Pointwise, Grouped, GroupedWide, Depthwise };

std::vector<Case> convCases(ConvKind kind) {
  std::vector<ConvCase> shapes;
  if (kind == ConvKind::Dense)  // on oneDNN's blocked layout, with reorders: k > 1, strided or padded
    shapes = {{3, 16, 320, 3, 2, 1, 1},
              {3, 64, 224, 7, 2, 1, 3},
              {3, 32, 224, 3, 2, 1, 1},
              {64, 64, 56, 3, 1, 1, 1},
              {128, 128, 28, 3, 1, 1, 1},
              {256, 256, 14, 3, 1, 1, 1},
              {96, 24, 80, 3, 1, 1, 1},
              {512, 512, 7, 3, 1, 1, 1},
              {128, 256, 28, 3, 2, 1, 1},
              {32, 64, 112, 3, 1, 1, 1},
              {1024, 1024, 4, 3, 1, 1, 1},
              {16, 16, 56, 3, 1, 1, 1},
              {8, 8, 8, 3, 1, 1, 1},
              {32, 32, 2, 3, 1, 1, 1},
              // small images through many channels: bound by the weight stream, not the arithmetic
              {512, 512, 2, 3, 1, 1, 1},
              {256, 256, 4, 3, 1, 1, 1},
              {1024, 1024, 2, 3, 1, 1, 1},
              {128, 128, 4, 3, 1, 1, 1}};
  else if (kind == ConvKind::Pointwise)  // 1x1, no padding: one product per image on the executor's GEMM path
    // (strided: over the positions it reads, copied out; residual stages' downsampling shortcuts)
    shapes = {{16, 32, 160, 1, 1, 1, 0},
              {32, 16, 112, 1, 1, 1, 0},
              {64, 256, 56, 1, 1, 1, 0},
              {256, 64, 56, 1, 1, 1, 0},
              {512, 128, 28, 1, 1, 1, 0},
              {12, 96, 80, 1, 1, 1, 0},
              {48, 12, 80, 1, 1, 1, 0},
              {1024, 256, 14, 1, 1, 1, 0},
              {2048, 512, 7, 1, 1, 1, 0},
              {512, 2048, 7, 1, 1, 1, 0},
              {144, 24, 56, 1, 1, 1, 0},
              {320, 1280, 7, 1, 1, 1, 0},
              {256, 1024, 14, 1, 1, 1, 0},
              {16, 16, 4, 1, 1, 1, 0},
              {64, 128, 56, 1, 2, 1, 0},
              {256, 512, 14, 1, 2, 1, 0},
              {512, 1024, 28, 1, 2, 1, 0},
              {128, 256, 32, 1, 2, 1, 0, 8},
              {32, 64, 64, 1, 2, 1, 0, 4},
              // few channels inside the core's own cache and past it at a batch: the far-activation term
              // (CpuCubeModel.h) is fitted on both sides of the own cache
              {16, 8, 80, 1, 1, 1, 0},
              {8, 24, 80, 1, 1, 1, 0},
              {16, 8, 80, 1, 1, 1, 0, 16},
              {24, 24, 56, 1, 1, 1, 0, 8},
              // a batch over a few positions an image: a product an image over whole blocks of positions,
              // and the images' columns gathered into one product (exec::pointwiseImagesGathered)
              {400, 400, 4, 1, 1, 1, 0, 16},
              {128, 128, 4, 1, 1, 1, 0, 32},
              {784, 784, 2, 1, 1, 1, 0, 32},
              {144, 864, 3, 1, 1, 1, 0, 32},
              // weights past the last-level cache over a few positions, which their stream bounds (the
              // kind's fit takes a weight stream, as the dense kind's: CubeFeatures::weightImageBytes)
              {1024, 1024, 4, 1, 1, 1, 0},
              {1536, 1536, 2, 1, 1, 1, 0, 4},
              {2048, 512, 4, 1, 1, 1, 0, 2},
              {512, 2048, 2, 1, 1, 1, 0, 8}};
  else if (kind == ConvKind::Grouped)  // 2-16 input channels a group: ResNeXt-, RegNetX- and
                                       // ShuffleNet-v1-like widths
    shapes = {{128, 128, 28, 3, 1, 8, 1},
              {256, 256, 14, 3, 1, 32, 1},
              {128, 128, 56, 3, 1, 32, 1},
              {256, 256, 28, 3, 2, 32, 1},
              {48, 48, 56, 3, 1, 3, 1},
              {96, 96, 28, 3, 2, 6, 1},
              {16, 16, 8, 3, 1, 2, 1},
              {32, 32, 4, 3, 1, 4, 1},
              {96, 96, 14, 3, 1, 6, 1, 4},
              {256, 256, 7, 3, 1, 32, 1, 2},
              {128, 128, 7, 3, 1, 8, 1, 8},
              // Batches over small planes, strided too (RegNet and ResNeXt stages at 2x2 to 8x8).
              {320, 320, 4, 3, 2, 40, 1, 16},
              {256, 256, 2, 3, 1, 16, 1, 32},
              {192, 192, 8, 3, 2, 24, 1, 8},
              {128, 128, 4, 3, 1, 32, 1, 16},
              {384, 384, 8, 3, 2, 24, 1, 8},
              {160, 160, 16, 3, 2, 20, 1, 8}};
  else if (kind == ConvKind::GroupedWide)  // 24-64 a group (RegNetY-, wide-group-like), one image and several
    shapes = {{64, 64, 56, 3, 1, 2, 1},     {240, 240, 14, 3, 1, 10, 1},   {96, 96, 28, 3, 1, 4, 1},
              {144, 144, 14, 3, 2, 6, 1},   {192, 192, 28, 3, 1, 6, 1},    {256, 256, 14, 3, 1, 8, 1},
              {288, 288, 14, 3, 1, 6, 1},   {384, 384, 7, 3, 1, 6, 1},     {128, 128, 14, 3, 2, 4, 1},
              {512, 512, 7, 3, 1, 8, 1},    {336, 336, 12, 3, 1, 14, 1},   {240, 240, 14, 3, 1, 10, 1, 2},
              {192, 192, 7, 3, 2, 8, 1, 4}, {512, 512, 7, 3, 1, 16, 1, 2}, {96, 96, 14, 3, 1, 4, 1, 8}};
  else  // one input channel a group, stride 1 and 2, 3x3 and 5x5, a few channels to many
    shapes = {{32, 32, 112, 3, 1, 32, 1},   {32, 32, 160, 3, 2, 32, 1},    {96, 96, 56, 3, 1, 96, 1},
              {96, 96, 112, 3, 2, 96, 1},   {144, 144, 28, 3, 1, 144, 1},  {144, 144, 56, 3, 2, 144, 1},
              {240, 240, 14, 5, 1, 240, 2}, {480, 480, 14, 3, 1, 480, 1},  {960, 960, 7, 3, 1, 960, 1},
              {672, 672, 14, 5, 2, 672, 2}, {64, 64, 56, 3, 2, 64, 1},     {128, 128, 28, 3, 1, 128, 1},
              {256, 256, 14, 3, 2, 256, 1}, {1152, 1152, 7, 5, 1, 1152, 2}, {16, 16, 112, 3, 1, 16, 1},
              {16, 16, 8, 3, 1, 16, 1},     {32, 32, 4, 3, 1, 32, 1}};
  std::vector<Case> cs;
  for (const ConvCase& c : shapes)
    cs.push_back({convName("Conv", c),
                  oneOp("Conv", {c.batch, c.cin, c.hw, c.hw},
                        {filled({c.cout, c.cin / c.group, c.k, c.k}, 0.01f)}, convAttrs(c), kCopies)});
  if (kind == ConvKind::GroupedWide) {
    // 1x1 groups (a grouped projection: ShuffleNet's pointwise layers, SqueezeBERT's attention and MLP as
    // grouped Conv1d), over a plane and over one axis: the 3x3 shapes alone left SqueezeBERT's 24 grouped 1x1
    // Conv1d at 2.15 ms simulated against 3.35 measured (session 57).
    for (const ConvCase& c : std::vector<ConvCase>{{240, 240, 28, 1, 1, 3, 0}, {480, 480, 14, 1, 1, 4, 0}})
      cs.push_back({convName("Conv", c),
                    oneOp("Conv", {c.batch, c.cin, c.hw, c.hw},
                          {filled({c.cout, c.cin / c.group, 1, 1}, 0.01f)}, convAttrs(c), kCopies)});
    struct Line {
      int64_t cin, cout, len, group, batch;
    };
    for (const Line& c : {Line{384, 384, 100, 4, 2}, Line{192, 768, 50, 3, 4}, Line{768, 192, 50, 3, 4}}) {
      const std::string name = "Conv1d 1 " + std::to_string(c.cin) + "->" + std::to_string(c.cout) +
                               " group " + std::to_string(c.group) + " at " + std::to_string(c.len) +
                               " batch " + std::to_string(c.batch);
      cs.push_back(
          {name,
           oneOp("Conv", {c.batch, c.cin, c.len}, {filled({c.cout, c.cin / c.group, 1}, 0.01f)},
                 fw::zoo::attrs({Attribute::makeInts("pads", {0, 0}), Attribute::makeInt("group", c.group),
                                 Attribute::makeInts("strides", {1})}),
                 kCopies)});
    }
  }
  return cs;
}

// Dense Convs over one axis: STFT-like front ends (hundreds of taps, a stride of a hop), first layers on a
// few channels, residual stages from thousands of positions down to a handful, tiny ones.
std::vector<Case> conv1dCases() {
  struct C {
    int64_t cin, cout, len, k, stride, pad, dilation = 1, batch = 1;
  };
  std::vector<Case> cs;
  for (C c :
       {C{1, 201, 4000, 400, 160, 0}, C{1, 64, 16000, 80, 16, 0}, C{1, 32, 2000, 7, 1, 3},
        C{12, 64, 1000, 15, 2, 7}, C{64, 64, 500, 3, 1, 1}, C{80, 256, 200, 5, 1, 2},
        C{128, 128, 250, 3, 1, 1}, C{256, 256, 64, 3, 1, 1}, C{512, 512, 32, 3, 1, 1}, C{96, 128, 8, 3, 1, 1},
        C{128, 64, 4, 3, 2, 1}, C{256, 256, 16, 5, 1, 2}, C{16, 16, 64, 3, 1, 1}, C{8, 8, 16, 3, 1, 1},
        // a front end over one to four frames: bound by its weight stream (every weight once an image)
        C{1, 257, 512, 512, 160, 0}, C{1, 512, 1024, 400, 160, 0}, C{4, 256, 640, 256, 128, 0},
        // several sequences, dilated (a TCN's residual blocks; session 58: the batch-1 shapes alone put a
        // TCN's dilated 64 -> 64 Convs over 4 x 256 at 201-210 us against 166-177 measured)
        C{64, 64, 256, 3, 1, 2, 2, 4}, C{128, 128, 100, 3, 1, 4, 4, 2}, C{32, 32, 128, 3, 1, 1, 1, 8}}) {
    std::string name =
        "Conv1d k" + std::to_string(c.k) + " " + std::to_string(c.cin) + "->" + std::to_string(c.cout);
    if (c.stride > 1) name += " stride " + std::to_string(c.stride);
    if (c.dilation > 1) name += " dilation " + std::to_string(c.dilation);
    name += " at " + std::to_string(c.len);
    if (c.batch > 1) name += " x" + std::to_string(c.batch);
    cs.push_back({name, oneOp("Conv", {c.batch, c.cin, c.len}, {filled({c.cout, c.cin, c.k}, 0.01f)},
                              fw::zoo::attrs({Attribute::makeInts("pads", {c.pad, c.pad}),
                                              Attribute::makeInts("strides", {c.stride}),
                                              Attribute::makeInts("dilations", {c.dilation})}),
                              kCopies)});
  }
  return cs;
}

// Filter banks: a few input channels a group, a kernel of 8 to 129 taps along the last axis (1 along the
// others; depthwise from 2 taps), stride 1 (the executor's own direct loop where it times faster than the
// library: core/exec/DirectConv.h), 1-D and 2-D, dilated, grouped and depthwise (long convolutions of
// sequence models), a few channels to 128, one image to 8, and tiny ones; and kernels long along both axes of
// an image (large-kernel depthwise Convs, 9x9 to 31x31, and 2 channels a group).
std::vector<Case> convDirectCases() {
  struct D {
    int64_t batch, cin, rows, len, cout, k, pad, dil, group;
  };
  std::vector<Case> cs;
  for (D c :
       {D{1, 1, 0, 16000, 16, 64, 32, 1, 1}, D{2, 1, 0, 4000, 40, 129, 0, 1, 1},
        D{8, 2, 0, 2048, 32, 16, 8, 1, 1}, D{4, 4, 0, 1024, 64, 9, 4, 1, 1}, D{1, 1, 0, 256, 8, 32, 0, 1, 1},
        D{1, 1, 0, 64, 4, 8, 0, 1, 1}, D{4, 1, 0, 4096, 16, 16, 30, 4, 1}, D{1, 3, 0, 512, 24, 24, 12, 1, 1},
        D{2, 1, 0, 1000, 6, 25, 12, 1, 1}, D{4, 8, 0, 512, 16, 32, 16, 1, 4},
        D{4, 1, 16, 256, 8, 32, 16, 1, 1}, D{2, 1, 8, 1024, 16, 64, 32, 1, 1},
        D{8, 2, 32, 64, 16, 8, 4, 1, 1}, D{1, 1, 64, 128, 4, 12, 6, 1, 1},
        D{4, 32, 0, 1024, 32, 64, 63, 1, 32}, D{2, 128, 0, 256, 128, 31, 15, 1, 128},
        D{1, 16, 8, 200, 16, 9, 4, 1, 16},
        // depthwise with a few taps along one axis, which the loop takes where it times faster than the
        // library's depthwise kernel and its reorders: a Hyena block's, a Mamba block's, a Conv-TasNet
        // block's dilated one; in the core's own cache and well beyond it
        D{4, 384, 0, 1024, 384, 3, 1, 1, 384}, D{8, 64, 0, 512, 64, 3, 1, 1, 64},
        D{2, 256, 0, 2048, 256, 4, 3, 1, 256}, D{1, 512, 0, 4000, 512, 3, 2, 2, 512},
        D{16, 128, 0, 128, 128, 5, 2, 1, 128}, D{1, 96, 0, 256, 96, 7, 3, 1, 96}}) {
    std::vector<int64_t> x = {c.batch, c.cin}, w = {c.cout, c.cin / c.group}, pads, dils;
    if (c.rows > 0) {
      x.push_back(c.rows);
      w.push_back(1);
      pads.push_back(0);
      dils.push_back(1);
    }
    x.push_back(c.len);
    w.push_back(c.k);
    pads.push_back(c.pad);
    dils.push_back(c.dil);
    pads.insert(pads.end(), pads.begin(), pads.end());
    std::string name = "Conv " + std::string(c.rows > 0 ? "1x" : "k") + std::to_string(c.k) + " " +
                       std::to_string(c.cin) + "->" + std::to_string(c.cout);
    if (c.group > 1) name += c.group == c.cin ? " depthwise" : " group " + std::to_string(c.group);
    if (c.dil > 1) name += " dilation " + std::to_string(c.dil);
    name += " over " + (c.rows > 0 ? std::to_string(c.rows) + "x" : std::string()) + std::to_string(c.len);
    if (c.batch > 1) name += " batch " + std::to_string(c.batch);
    cs.push_back({name, oneOp("Conv", x, {filled(w, 0.01f)},
                              fw::zoo::attrs({Attribute::makeInts("pads", pads),
                                              Attribute::makeInts("dilations", dils),
                                              Attribute::makeInt("group", c.group)}),
                              kCopies)});
  }
  struct Q {
    int64_t batch, cin, hw, cout, k, group;
  };
  for (Q c :
       {Q{1, 32, 32, 32, 31, 32}, Q{2, 64, 16, 64, 13, 64}, Q{1, 8, 48, 8, 9, 4}, Q{1, 16, 24, 16, 17, 16}}) {
    std::string name = "Conv " + std::to_string(c.k) + "x" + std::to_string(c.k) + " " +
                       std::to_string(c.cin) + "->" + std::to_string(c.cout) +
                       (c.group == c.cin ? " depthwise" : " group " + std::to_string(c.group)) + " over " +
                       std::to_string(c.hw) + "x" + std::to_string(c.hw);
    if (c.batch > 1) name += " batch " + std::to_string(c.batch);
    const int64_t pad = c.k / 2;
    cs.push_back({name, oneOp("Conv", {c.batch, c.cin, c.hw, c.hw},
                              {filled({c.cout, c.cin / c.group, c.k, c.k}, 0.01f)},
                              fw::zoo::attrs({Attribute::makeInts("pads", {pad, pad, pad, pad}),
                                              Attribute::makeInt("group", c.group)}),
                              kCopies)});
  }
  return cs;
}

// Banks over rows (taps along the axes before the last, 1 along it: the direct loop reads each tap's row in
// place), conv_rows: depth multipliers, groups of 2-4 channels, padded and strided rows, taps along two axes.
std::vector<Case> convRowsCases() {
  struct B {
    int64_t batch, cin, rows, len, cout, taps, pad, stride, group;
  };
  std::vector<Case> cs;
  for (B c : {B{2, 4, 16, 256, 8, 16, 0, 1, 4}, B{1, 2, 40, 128, 8, 9, 4, 1, 1},
              B{8, 16, 12, 300, 16, 12, 0, 1, 16}, B{4, 3, 24, 96, 12, 24, 0, 1, 3},
              B{1, 8, 30, 500, 16, 30, 0, 1, 8}, B{2, 6, 20, 64, 6, 10, 5, 2, 3},
              B{1, 1, 64, 1024, 4, 8, 0, 1, 1}, B{16, 4, 10, 128, 4, 10, 0, 1, 4}}) {
    const std::vector<int64_t> x = {c.batch, c.cin, c.rows, c.len}, w = {c.cout, c.cin / c.group, c.taps, 1};
    std::string name =
        "Conv " + std::to_string(c.taps) + "x1 " + std::to_string(c.cin) + "->" + std::to_string(c.cout) +
        (c.group == c.cin ? " depthwise" : " group " + std::to_string(c.group)) +
        (c.stride > 1 ? " stride " + std::to_string(c.stride) : std::string()) + " over " +
        std::to_string(c.rows) + "x" + std::to_string(c.len) + " batch " + std::to_string(c.batch);
    cs.push_back({name, oneOp("Conv", x, {filled(w, 0.01f)},
                              fw::zoo::attrs({Attribute::makeInts("pads", {c.pad, 0, c.pad, 0}),
                                              Attribute::makeInts("strides", {c.stride, 1}),
                                              Attribute::makeInt("group", c.group)}),
                              kCopies)});
  }
  return cs;
}

// A ConvTranspose of more than 4 output channels (oneDNN's blocked jit kernel), and since session 24
// batched ones with large weights, as generators' upsamplers are: fitted on one image each, the model
// charged a DCGAN-like generator's 16-image ConvTransposes (512->256 4x4 at 4x4) 0.64-0.76x their time and
// its 100->512 projection 2.3x (its weight term stood for more than weights; session 23's run).
std::vector<Case> convTransposeCases() {
  std::vector<Case> cs;
  for (ConvCase c : {ConvCase{24, 24, 80, 2, 2, 1, 0}, ConvCase{64, 32, 28, 4, 2, 1, 1},
                     ConvCase{256, 128, 14, 2, 2, 1, 0}, ConvCase{16, 16, 56, 3, 1, 1, 1},
                     ConvCase{128, 64, 28, 2, 2, 1, 0}, ConvCase{8, 8, 8, 2, 2, 1, 0},
                     ConvCase{16, 8, 4, 3, 1, 1, 1}, ConvCase{384, 192, 4, 4, 2, 1, 1, 8},
                     ConvCase{256, 128, 8, 4, 2, 1, 1, 4}, ConvCase{128, 64, 16, 4, 2, 1, 1, 8},
                     ConvCase{512, 256, 4, 2, 2, 1, 0, 2}, ConvCase{64, 32, 32, 4, 2, 1, 1, 4},
                     ConvCase{200, 256, 1, 4, 1, 1, 0, 8}, ConvCase{96, 48, 20, 3, 2, 1, 1, 2}})
    cs.push_back({convName("ConvTranspose", c),
                  oneOp("ConvTranspose", {c.batch, c.cin, c.hw, c.hw},
                        {filled({c.cin, c.cout / c.group, c.k, c.k}, 0.01f)}, convAttrs(c), kCopies)});
  return cs;
}

// A ConvTranspose of at most 4 output channels, 1-D or 2-D: the executor runs it on oneDNN's GEMM path on
// the plain layout (core/exec/ConvPrimitive.cpp, deconvolutionOnPlainLayout), a product into a column
// buffer of C x (M * prod(kernel)) an input position and a scatter-add from it; its "patch" term counts
// that buffer. On the blocked kernel they took 1.8-5.2x the plain path's time (oneDNN microbenchmark,
// session 24), which the blocked kind's model, fitted on more channels, does not describe.
std::vector<Case> convTransposePlainCases() {
  struct P {
    int64_t batch, cin, len, cout, k, stride, pad, dims;
  };
  std::vector<Case> cs;
  for (P c : {P{1, 24, 160, 1, 2, 2, 0, 2}, P{1, 32, 112, 3, 4, 2, 1, 2}, P{4, 48, 40, 3, 4, 2, 1, 2},
              P{8, 64, 24, 2, 4, 2, 1, 2}, P{2, 16, 64, 4, 3, 1, 1, 2}, P{1, 64, 2048, 1, 16, 2, 7, 1},
              P{1, 32, 4000, 2, 8, 4, 2, 1}, P{2, 128, 512, 1, 4, 2, 1, 1}, P{1, 8, 256, 4, 5, 1, 2, 1},
              P{1, 16, 32, 1, 4, 2, 1, 1}}) {
    std::vector<int64_t> x = {c.batch, c.cin}, w = {c.cin, c.cout}, pads, strides;
    for (int64_t d = 0; d < c.dims; ++d) {
      x.push_back(c.len);
      w.push_back(c.k);
      pads.push_back(c.pad);
      pads.push_back(c.pad);
      strides.push_back(c.stride);
    }
    std::string name = "ConvTranspose" + std::to_string(c.dims) + "d " + std::to_string(c.k) + " " +
                       std::to_string(c.cin) + "->" + std::to_string(c.cout) + " stride " +
                       std::to_string(c.stride) + " over " + std::to_string(c.len);
    if (c.batch > 1) name += " batch " + std::to_string(c.batch);
    cs.push_back({name, oneOp("ConvTranspose", x, {filled(w, 0.01f)},
                              fw::zoo::attrs({Attribute::makeInts("pads", pads),
                                              Attribute::makeInts("strides", strides)}),
                              kCopies)});
  }
  return cs;
}

// ConvTranspose over one axis (its own kind, conv_transpose1d, as a Conv's: fitted with the 2-D shapes, the
// ConvTranspose model's RMS went from 0.045 to 0.189 and a 1-D U-Net's ConvTranspose1d had run at 1.4x
// the 2-D model, session 22): audio decoders' upsamplers, HiFi-GAN-, Demucs- and Wave-U-Net-like, long
// kernels at strides 2 to 8, a few channels to many, and tiny ones whose time is the call.
std::vector<Case> convTranspose1dCases() {
  struct T1 {
    int64_t cin, cout, len, k, stride, pad;
  };
  std::vector<Case> cs;
  // (64->1 over 2048 left in session 24: at most 4 output channels are conv_transpose_plain's.)
  for (T1 c : {T1{512, 256, 32, 16, 8, 4}, T1{128, 64, 1000, 8, 4, 2}, T1{256, 128, 250, 4, 2, 1},
               T1{32, 32, 500, 3, 1, 1}, T1{256, 256, 64, 4, 2, 1}, T1{48, 24, 4000, 10, 5, 3},
               T1{16, 16, 16, 4, 2, 1}, T1{8, 8, 8, 3, 1, 1}, T1{128, 128, 128, 16, 2, 7},
               T1{96, 48, 1536, 16, 2, 7}, T1{48, 16, 2048, 4, 2, 1}})
    cs.push_back({"ConvTranspose1d " + std::to_string(c.k) + " " + std::to_string(c.cin) + "->" +
                      std::to_string(c.cout) + " stride " + std::to_string(c.stride) + " over " +
                      std::to_string(c.len),
                  oneOp("ConvTranspose", {1, c.cin, c.len}, {filled({c.cin, c.cout, c.k}, 0.01f)},
                        fw::zoo::attrs({Attribute::makeInts("pads", {c.pad, c.pad}),
                                        Attribute::makeInts("strides", {c.stride})}),
                        kCopies)});
  return cs;
}

std::vector<Case> intConvCases() {
  std::vector<Case> cs;
  for (ConvCase c : {ConvCase{16, 32, 56, 3, 1, 1, 1}, ConvCase{64, 64, 28, 3, 1, 1, 1}, ConvCase{32, 64, 56, 1, 1, 1, 0},
                     ConvCase{128, 128, 14, 3, 1, 1, 1}, ConvCase{64, 64, 28, 3, 1, 64, 1}, ConvCase{3, 16, 112, 3, 2, 1, 1},
                     ConvCase{96, 24, 28, 1, 1, 1, 0}, ConvCase{8, 8, 8, 3, 1, 1, 1}, ConvCase{16, 16, 4, 1, 1, 1, 0}})
    cs.push_back({convName("QLinearConv", c),
                  oneOpOn("QLinearConv", bytes({1, c.cin, c.hw, c.hw}, 1),
                          qlinearInputs(bytes({c.cout, c.cin / c.group, c.k, c.k}, 2)), convAttrs(c), kCopies, fw::DType::UInt8)});
  return cs;
}

std::vector<Case> intGemmCases() {
  std::vector<Case> cs;
  struct G {
    int64_t m, k, n;
  };
  for (G g : {G{1, 512, 512}, G{64, 256, 256}, G{128, 768, 768}, G{16, 1024, 96}, G{256, 64, 256}, G{32, 96, 1536}, G{1, 16, 16}, G{4, 32, 32}})
    cs.push_back({"QLinearMatMul " + std::to_string(g.m) + "x" + std::to_string(g.k) + "x" + std::to_string(g.n),
                  oneOpOn("QLinearMatMul", bytes({g.m, g.k}, 3), qlinearInputs(bytes({g.k, g.n}, 4)), {}, kCopies, fw::DType::UInt8)});
  return cs;
}

// Recurrent cells (the executor's step loop over oneDNN products): sequence lengths, batches, widths (R
// inside and beyond the core's own cache), one and two directions, and a cell called for one step (a
// streaming model run frame by frame: Silero's VAD calls its LSTM once per 512 samples), where what a call
// costs besides its steps shows: an LSTM 128->128 of one step took 10.6 us alone, where the fit without such
// cases gave 5.8 (session 22).
std::vector<Case> rnnCases() {
  auto cellAttrs = [](int64_t hidden, int64_t dirs) {
    fw::Attributes a;
    a.set(Attribute::makeInt("hidden_size", hidden));
    if (dirs == 2) a.set(Attribute::makeString("direction", "bidirectional"));
    return a;
  };
  struct R {
    const char* op;
    int64_t gates, seq, batch, input, hidden, dirs;
  };
  std::vector<Case> cs;
  for (R r :
       {R{"LSTM", 4, 32, 1, 64, 128, 1}, R{"LSTM", 4, 16, 4, 128, 256, 1}, R{"LSTM", 4, 64, 1, 32, 64, 2},
        R{"LSTM", 4, 8, 1, 256, 512, 1}, R{"GRU", 3, 32, 1, 128, 256, 1}, R{"GRU", 3, 16, 2, 64, 64, 2},
        R{"GRU", 3, 100, 1, 40, 64, 1}, R{"RNN", 1, 32, 1, 64, 64, 1}, R{"RNN", 1, 16, 8, 128, 128, 1},
        R{"LSTM", 4, 24, 1, 128, 256, 2}, R{"LSTM", 4, 40, 2, 64, 192, 1}, R{"LSTM", 4, 16, 1, 256, 384, 1},
        R{"LSTM", 4, 100, 1, 40, 32, 1}, R{"GRU", 3, 20, 1, 256, 512, 1}, R{"GRU", 3, 8, 16, 64, 128, 1},
        R{"RNN", 1, 64, 1, 128, 256, 2}, R{"LSTM", 4, 1, 1, 64, 64, 1}, R{"LSTM", 4, 1, 1, 128, 128, 1},
        R{"GRU", 3, 1, 1, 96, 192, 1}, R{"LSTM", 4, 2, 2, 256, 256, 1}, R{"RNN", 1, 1, 4, 64, 128, 1},
        // Many sequences at once (a dual-path model's chunks, a batch of sentences): each step's gate
        // functions over batch x gates x hidden values, which the cases above, of at most 16 rows, leave to
        // the fit to guess (session 44: LSTMs over 80-100 rows simulated at 0.6-0.7x their time).
        R{"LSTM", 4, 24, 64, 48, 96, 2}, R{"GRU", 3, 30, 128, 64, 64, 1}, R{"LSTM", 4, 12, 256, 32, 32, 1},
        // A batch through wide cells (a language model's, a speech encoder's): each step's product of 16-64
        // rows over 256-512 hidden is arithmetic, which the cases above, of narrow cells or few rows, leave
        // to the fit to guess (session 76: such LSTMs and GRUs simulated at 0.6-0.8x their time alone).
        R{"LSTM", 4, 12, 32, 384, 384, 1}, R{"GRU", 3, 16, 16, 256, 256, 1},
        R{"LSTM", 4, 8, 64, 256, 512, 1}}) {
    const int64_t gh = r.gates * r.hidden;
    const fw::Attributes attrs = cellAttrs(r.hidden, r.dirs);
    std::string name = std::string(r.op) + " seq " + std::to_string(r.seq) + " batch " + std::to_string(r.batch) + " " +
                       std::to_string(r.input) + "->" + std::to_string(r.hidden) + (r.dirs == 2 ? " bidirectional" : "");
    cs.push_back({name, oneOp(r.op, {r.seq, r.batch, r.input},
                              {filled({r.dirs, gh, r.input}, 0.05f), filled({r.dirs, gh, r.hidden}, 0.05f),
                               filled({r.dirs, 2 * gh}, 0.0f)},
                              attrs, kCopies)});
  }
  // W and R computed by the run (Silero's cells slice and re-concatenate theirs each run, as exported): the
  // executor reads them as stored, R^T down its columns on every step, where a model's own weights run on a
  // packed copy. An LSTM 256->256 over 32 steps took 1000 us so against 455 (session 22).
  for (R r :
       {R{"LSTM", 4, 1, 1, 128, 128, 1}, R{"LSTM", 4, 8, 1, 128, 128, 1}, R{"LSTM", 4, 4, 1, 256, 256, 1},
        R{"GRU", 3, 16, 1, 64, 64, 1}, R{"LSTM", 4, 1, 1, 256, 256, 1}}) {
    const int64_t gh = r.gates * r.hidden;
    const fw::Attributes attrs = cellAttrs(r.hidden, r.dirs);
    cs.push_back({std::string(r.op) + " seq " + std::to_string(r.seq) + " " + std::to_string(r.input) + "->" +
                      std::to_string(r.hidden) + ", W and R computed",
                  opOfInputs(r.op,
                             {filled({r.seq, r.batch, r.input}, 0.0f), filled({r.dirs, gh, r.input}, 0.05f),
                              filled({r.dirs, gh, r.hidden}, 0.05f)},
                             attrs)});
  }
  return cs;
}

// A kind's shapes and how its fit reads them: a pointwise Conv's features padded to whole blocks of
// positions, a dense Conv's and a ConvTranspose's to whole blocks of output channels, a dense Conv's
// weight stream (a depthwise Conv's passes over its activations) bounded by the copy bandwidth.
struct KindCases {
  std::vector<Case> cases;
  bool positionBlocked = false, channelBlocked = false, streamed = false;
};

Result<KindCases> casesOfKind(const std::string& kind) {
  if (kind == "gemm") return KindCases{gemmCases()};
  if (kind == "gemm_tb") return KindCases{gemmTransBCases()};
  if (kind == "gemm_col") return KindCases{gemmColumnCases()};
  if (kind == "conv") return KindCases{convCases(ConvKind::Dense), false, true, true};
  if (kind == "conv1d") return KindCases{conv1dCases(), false, true, true};
  if (kind == "pointwise_conv") return KindCases{convCases(ConvKind::Pointwise), true, false, true};
  if (kind == "grouped_conv") return KindCases{convCases(ConvKind::Grouped)};
  if (kind == "grouped_conv_wide") return KindCases{convCases(ConvKind::GroupedWide)};
  if (kind == "depthwise_conv") {
    // With shapes whose activations pass the core's own cache, bound by the passes over them
    // (CubeFeatures::actStreamBytes): several images of a mobile network's stages, one at 64x64.
    KindCases k{convCases(ConvKind::Depthwise), false, false, true};
    for (const ConvCase& c : {ConvCase{96, 96, 56, 3, 1, 96, 1, 8}, ConvCase{32, 32, 112, 3, 1, 32, 1, 4},
                              ConvCase{144, 144, 28, 3, 1, 144, 1, 16}, ConvCase{64, 64, 64, 3, 1, 64, 1, 4}})
      k.cases.push_back(
          {convName("Conv", c), oneOp("Conv", {c.batch, c.cin, c.hw, c.hw},
                                      {filled({c.cout, 1, c.k, c.k}, 0.01f)}, convAttrs(c), kCopies)});
    return k;
  }
  if (kind == "conv_transpose") return KindCases{convTransposeCases(), false, true};
  if (kind == "conv_transpose_plain") return KindCases{convTransposePlainCases()};
  if (kind == "conv_direct") return KindCases{convDirectCases()};
  if (kind == "conv_rows") return KindCases{convRowsCases()};
  if (kind == "conv_transpose1d") return KindCases{convTranspose1dCases(), false, true};
  if (kind == "rnn") return KindCases{rnnCases(), false, false, true};
  if (kind == "int_conv") return KindCases{intConvCases()};
  if (kind == "int_gemm") return KindCases{intGemmCases()};
  return Error::badInput("calibrate: '" + kind + "' is not a kind of matrix op the calibration times");
}

// Fits a kind's time model to its shapes' measured times `us` (per-kernel overhead included).
// `projection`: for the rnn kind, the GEMM model that prices each cell's input projection; the cells are
// then fitted on their time less that projection's (CubeTimeModel::projectionKind). Null: none.
Result<CubeModelFit> fitKind(const std::string& kind, KindCases& k, const std::vector<double>& us,
                             double overheadUs, int64_t positionBlock, int64_t channelBlock,
                             const CpuFigures& copy, const CubeTimeModel* projection) {
  CubeModelFit fit;
  std::vector<CubeSample> samples;
  std::vector<double> projectionS(k.cases.size(), 0.0);
  for (size_t i = 0; i < k.cases.size(); ++i) {
    auto& c = k.cases[i];
    FW_ASSIGN_OR_RETURN(OpFigures f, figuresOf(c.bench));
    const double total = std::max(us[i] - overheadUs, 0.05 * us[i]) * 1e-6;
    auto feat = cubeFeatures(*c.bench.model.graph, c.bench.node);
    if (!feat || feat->kind != kind)
      return Error::internal("calibrate: '" + c.name + "' is not a " + kind + " op to the cost model");
    feat = feat->withOwnCache(ownCacheBytes(copy.cacheDropsBytes));
    // The steps' share: the time less the projection's as the GEMM model prices it, at least a fifth of it
    // (a cell whose projection the GEMM model overprices still has steps).
    double seconds = total;
    if (projection && feat->projRows > 0) {
      projectionS[i] = projection->seconds(feat->inputProjection());
      seconds = std::max(total - projectionS[i], 0.2 * total);
      projectionS[i] = total - seconds;
      feat = feat->withoutInputProjection();
    }
    const double streamRate = k.streamed && !copy.bandwidthCurve.empty() && feat->streamRowBytes() > 0
                                  ? copy.cacheBandwidthFor(feat->streamFootprint())
                                  : 0.0;
    samples.push_back({feat->withPositionBlock(k.positionBlocked ? positionBlock : 1)
                           .withChannelBlock(k.channelBlocked ? channelBlock : 1),
                       seconds, streamRate > 0 ? feat->streamRowBytes() / streamRate : 0.0,
                       streamRate > 0 ? feat->streamImageBytes() / streamRate : 0.0});
    fit.rates.push_back({c.name, f.flops / total});
  }
  FW_ASSIGN_OR_RETURN(fit.model, fitCubeTimeModel(samples));
  for (size_t i = 0; i < k.cases.size(); ++i) fit.model.measuredUs.push_back({k.cases[i].name, us[i]});
  // What the fit says of each shape beside what was measured, for the profile's note; with a projection
  // priced apart, each cell's whole time and the RMS over those (the steps' fit plus the projection).
  double sumSq = 0;
  int n = 0;
  for (size_t i = 0; i < k.cases.size(); ++i) {
    const double model = fit.model.withStream(fit.model.seconds(samples[i].features),
                                              fit.model.weightStreamPerImage ? samples[i].imageStreamSeconds
                                                                             : samples[i].streamSeconds) +
                         projectionS[i];
    const double measured = samples[i].seconds + projectionS[i];
    if (model > 0 && measured > 0) {
      sumSq += std::pow(std::log(model / measured), 2);
      ++n;
    }
    fit.cases += (fit.cases.empty() ? "" : "; ") + k.cases[i].name + " " + fmt("%.1f", measured * 1e6) +
                 " (model " + fmt("%.1f", model * 1e6) + ")";
  }
  if (projection) {
    fit.model.projectionKind = "gemm";
    if (n > 0) fit.model.rmsLogError = std::sqrt(sumSq / n);
  }
  return fit;
}

// The model that prices a kind's input projections among those fitted so far (the rnn kind's: gemm).
const CubeTimeModel* projectionModelOf(const std::string& kind,
                                       const std::map<std::string, CubeTimeModel>& fitted) {
  if (kind != "rnn") return nullptr;
  const auto it = fitted.find("gemm");
  return it != fitted.end() ? &it->second : nullptr;
}

Result<CubeModelFit> timeAndFit(const std::string& kind, int threads, int repeat, double overheadUs,
                                int64_t positionBlock, int64_t channelBlock, const CpuFigures& copy,
                                const CubeTimeModel* projection) {
  FW_ASSIGN_OR_RETURN(KindCases k, casesOfKind(kind));
  // The kind's shapes in turn, in three rounds (HostBench.h).
  std::vector<const Bench*> timed;
  for (auto& c : k.cases) timed.push_back(&c.bench);
  FW_ASSIGN_OR_RETURN(std::vector<double> us,
                      timeNodesInRounds(timed, threads, 2, std::max(2, repeat / 12), 3));
  FW_ASSIGN_OR_RETURN(CubeModelFit fit,
                      fitKind(kind, k, us, overheadUs, positionBlock, channelBlock, copy, projection));
  std::fprintf(stderr, "fwb: calibrate: %-14s %2d shapes, time model RMS ln(model/measured) %.3f\n", kind.c_str(),
               fit.model.cases, fit.model.rmsLogError);
  return fit;
}

}  // namespace

Result<ColdCost> measureColdCost(int threads, int repeat) {
  std::vector<Case> cases;
  for (auto&& list : {gemmCases(), gemmTransBCases(), convCases(ConvKind::Dense), convCases(ConvKind::Pointwise),
                      convCases(ConvKind::Grouped), convCases(ConvKind::Depthwise)})
    for (size_t i = 0; i < list.size(); i += 2) cases.push_back(list[i]);
  std::vector<Bench> parts;
  std::vector<double> hot, bytes;
  for (auto& c : cases) {
    FW_ASSIGN_OR_RETURN(OpFigures f, figuresOf(c.bench));
    FW_ASSIGN_OR_RETURN(double us, timeNode(c.bench, threads, 2, std::max(3, repeat / 2)));
    hot.push_back(us);
    bytes.push_back(f.bytes);
    parts.push_back(c.bench);
  }
  Bench seq = sequenceOf(parts);
  FW_ASSIGN_OR_RETURN(std::vector<double> inSeq, timeNodes(seq, threads, 2, std::max(3, repeat / 2)));
  if (inSeq.size() != cases.size()) return Error::internal("calibrate: the sequence run timed " + std::to_string(inSeq.size()) +
                                                          " nodes of " + std::to_string(cases.size()));
  // (in sequence - alone) = a + bytes / bandwidth by least squares on the error relative to the time in
  // sequence (as the shape models are fitted: a 5 us shape counts as much as a 5 ms one). The slope is
  // the cost of a byte that is not in cache, a the cost of a cold start (code, descriptors) per call.
  double s11 = 0, s1x = 0, sxx = 0, s1y = 0, sxy = 0;
  ColdCost out;
  for (size_t i = 0; i < cases.size(); ++i) {
    const double w = 1.0 / std::max(inSeq[i], 1e-3), x = bytes[i] * w, one = w, y = (inSeq[i] - hot[i]) * 1e-6 * w;
    s11 += one * one, s1x += one * x, sxx += x * x, s1y += one * y, sxy += x * y;
    out.how += (out.how.empty() ? "" : "; ") + cases[i].name + " " + fmt("%.1f", hot[i]) + " " + fmt("%.1f", inSeq[i]);
  }
  const double den = s11 * sxx - s1x * s1x;
  const double a = den > 0 ? (s1y * sxx - s1x * sxy) / den : 0.0, slope = den > 0 ? (s11 * sxy - s1x * s1y) / den : 0.0;
  out.bytesPerS = slope > 0 ? 1.0 / slope : 0.0;
  out.callS = slope > 0 ? std::max(0.0, a) : 0.0;
  return out;
}

Result<WeightReorderFit> measureWeightReorder(int threads, int repeat) {
  const std::vector<ConvCase> shapes = {{32, 32, 16, 3, 1, 1, 1},
                                        {64, 64, 16, 3, 1, 1, 1},
                                        {128, 128, 8, 3, 1, 1, 1},
                                        {256, 256, 8, 3, 1, 1, 1},
                                        {64, 128, 28, 3, 2, 1, 1}};
  std::vector<Bench> benches;
  for (const ConvCase& c : shapes) {
    benches.push_back(oneOp("Conv", {1, c.cin, c.hw, c.hw},
                            {filled({c.cout, c.cin / c.group, c.k, c.k}, 0.01f)}, convAttrs(c), kCopies));
    benches.push_back(convOfComputedWeight(c));
  }
  std::vector<const Bench*> timed;
  for (const Bench& b : benches) timed.push_back(&b);
  FW_ASSIGN_OR_RETURN(std::vector<double> us,
                      timeNodesInRounds(timed, threads, 2, std::max(3, repeat / 2), 3));
  WeightReorderFit out;
  std::vector<WeightReorderSample> samples;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const ConvCase& c = shapes[i];
    const WeightReorderSample s{4.0 * static_cast<double>(c.cout * (c.cin / c.group) * c.k * c.k),
                                std::max(us[2 * i], 1e-3), std::max(us[2 * i + 1], 1e-3)};
    out.how += (out.how.empty() ? "" : "; ") + convName("Conv", c) + " " +
               fmt("%.0f KiB", s.weightBytes / 1024) + " " + fmt("%.1f", s.plainUs) + " " +
               fmt("%.1f", s.computedUs);
    samples.push_back(s);
  }
  FW_ASSIGN_OR_RETURN(CpuFigures::WeightReorder w, fitWeightReorder(samples));
  out.callS = w.callS;
  out.bytesPerS = w.bytesPerS;
  return out;
}

Result<CpuFigures::WeightReorder> fitWeightReorder(const std::vector<WeightReorderSample>& samples) {
  std::vector<std::vector<double>> rows;
  for (const auto& s : samples) {
    for (double v : {s.weightBytes, s.plainUs, s.computedUs})
      if (!(v > 0) || !std::isfinite(v))
        return Error::badInput("fitting the weight reorder: sizes and times must be positive (got " +
                               fmt("%g", s.weightBytes) + " bytes, " + fmt("%g", s.plainUs) + " and " +
                               fmt("%g", s.computedUs) + " us)");
    const double extraS = (s.computedUs - s.plainUs) * 1e-6;
    if (extraS > 0) rows.push_back({1.0 / extraS, s.weightBytes / extraS});
  }
  CpuFigures::WeightReorder w;
  if (rows.size() < 2) return w;  // not slower: nothing to charge
  const auto fit = fitRelativeNonNegative(rows);
  if (!fit) return w;
  w.callS = (*fit)[0];
  w.bytesPerS = (*fit)[1] > 0 ? 1.0 / (*fit)[1] : 0.0;
  return w;
}

Result<BlockFit> fitBlock(const std::vector<int64_t>& positions, const std::vector<double>& us) {
  if (positions.size() != us.size() || positions.size() < 3)
    return Error::badInput("fitting a block needs at least 3 timed counts, one time each (got " +
                           std::to_string(positions.size()) + " counts, " + std::to_string(us.size()) + " times)");
  for (size_t i = 0; i < us.size(); ++i)
    if (!(us[i] > 0) || !std::isfinite(us[i]) || positions[i] <= 0)
      return Error::badInput("fitting a block: a count of " + std::to_string(positions[i]) + " timed at " +
                             fmt("%g", us[i]) + " us (both must be positive)");
  BlockFit out;
  for (size_t i = 0; i < positions.size(); ++i)
    out.how += (i ? "; " : "") + std::to_string(positions[i]) + " " + fmt("%.1f", us[i]);
  // For each candidate block, the least-squares line time = a + c * padded(P) on the error relative to
  // the time; a larger block replaces the one kept only when its RMS ln residual is 10 % below it.
  double bestRms = INFINITY;
  for (int64_t b = 1; b <= 64; b *= 2) {
    double s11 = 0, s1x = 0, sxx = 0, s1y = 0, sxy = 0;
    std::vector<double> xs;
    for (size_t i = 0; i < positions.size(); ++i) {
      const double x = std::ceil(static_cast<double>(positions[i]) / static_cast<double>(b)) * static_cast<double>(b);
      xs.push_back(x);
      const double w = 1.0 / us[i];
      s11 += w * w, s1x += w * w * x, sxx += w * w * x * x, s1y += w * w * us[i], sxy += w * w * x * us[i];
    }
    const double den = s11 * sxx - s1x * s1x;
    if (!(den > 0)) continue;
    const double a = (s1y * sxx - s1x * sxy) / den, c = (s11 * sxy - s1x * s1y) / den;
    double sq = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      const double model = a + c * xs[i];
      const double l = model > 0 ? std::log(model / us[i]) : 10.0;
      sq += l * l;
    }
    const double rms = std::sqrt(sq / static_cast<double>(positions.size()));
    out.how += "; block " + std::to_string(b) + " RMS " + fmt("%.3f", rms);
    if (rms < 0.9 * bestRms) {
      bestRms = rms;
      out.block = b;
    }
  }
  return out;
}

namespace {

// Times `benches` (one per count) in rounds and fits the block their times step by (fitBlock).
Result<BlockFit> timeAndFitBlock(const std::vector<Bench>& benches, const std::vector<int64_t>& counts, int threads,
                                 int repeat, const char* what) {
  std::vector<const Bench*> timed;
  for (const auto& b : benches) timed.push_back(&b);
  FW_ASSIGN_OR_RETURN(std::vector<double> us, timeNodesInRounds(timed, threads, 2, std::max(3, repeat / 6), 3));
  FW_ASSIGN_OR_RETURN(BlockFit out, fitBlock(counts, us));
  std::fprintf(stderr, "fwb: calibrate: %s in blocks of %lld\n", what, static_cast<long long>(out.block));
  return out;
}

}  // namespace

Result<BlockFit> measurePositionBlock(int threads, int repeat) {
  // 256 -> 256 channels over 1 x P: about 36 us a block of 16 positions here, small enough to time many.
  const std::vector<int64_t> ps = {8, 9, 15, 16, 17, 24, 25, 31, 32, 33, 40, 48, 49, 63, 64, 65};
  std::vector<Bench> benches;
  for (int64_t p : ps)
    benches.push_back(oneOp("Conv", {1, 256, 1, p}, {filled({256, 256, 1, 1}, 0.01f)}, {}, kCopies));
  return timeAndFitBlock(benches, ps, threads, repeat, "pointwise Conv positions");
}

Result<BlockFit> measureChannelBlock(int threads, int repeat) {
  // A 3x3 Conv 64 -> M at 28x28: about 140 us a block of 16 output channels here. Input channels are
  // not padded (a Conv 4..32 -> 64 is linear in them), so only M varies.
  const std::vector<int64_t> ms = {4, 8, 12, 15, 16, 17, 20, 24, 28, 31, 32, 33, 40, 48};
  std::vector<Bench> benches;
  for (int64_t m : ms)
    benches.push_back(oneOp("Conv", {1, 64, 28, 28}, {filled({m, 64, 3, 3}, 0.01f)},
                            convAttrs(ConvCase{64, m, 28, 3, 1, 1, 1}), kCopies));
  return timeAndFitBlock(benches, ms, threads, repeat, "Conv output channels");
}

Result<std::map<std::string, CubeModelFit>> measureCubeModels(int threads, int repeat, double overheadUs,
                                                              int64_t positionBlock, int64_t channelBlock,
                                                              const CpuFigures& copy) {
  // Every shape keeps its buffer arena between its rounds (HostBench.h), as a model run in a loop does.
  const fw::IdleArenaLimit keepArenas(1024);
  std::map<std::string, CubeModelFit> out;
  std::map<std::string, CubeTimeModel> fitted;  // cubeModelKinds() lists gemm before rnn
  for (const std::string& kind : cubeModelKinds()) {
    auto fit = timeAndFit(kind, threads, repeat, overheadUs, positionBlock, channelBlock, copy,
                          projectionModelOf(kind, fitted));
    if (fit.ok()) fitted[kind] = fit->model;
    if (fit.ok()) {
      out[kind] = std::move(*fit);
    } else if (kind == "int_conv" || kind == "int_gemm") {
      // The integer forms run on the executor's own kernels; a kind the executor cannot run here is left
      // without a model (its ops then take the GEMM/Conv rate) rather than failing the calibration.
      std::fprintf(stderr, "fwb: calibrate: %s not timed: %s\n", kind.c_str(), fit.error().message.c_str());
    } else {
      return fit.error();
    }
  }
  return out;
}

Result<CubeModelFit> refitCubeModel(const std::string& kind, const std::map<std::string, double>& measuredUs,
                                    double overheadUs, int64_t positionBlock, int64_t channelBlock,
                                    const CpuFigures& copy,
                                    const std::map<std::string, CubeTimeModel>& fitted) {
  FW_ASSIGN_OR_RETURN(KindCases all, casesOfKind(kind));
  KindCases k = all;
  k.cases.clear();
  std::vector<double> us;
  for (auto& c : all.cases) {
    const auto it = measuredUs.find(c.name);
    if (it == measuredUs.end()) continue;
    k.cases.push_back(std::move(c));
    us.push_back(it->second);
  }
  if (2 * k.cases.size() < all.cases.size())
    return Error::badInput("calibrate: " + kind + ": only " + std::to_string(k.cases.size()) + " of its " +
                           std::to_string(all.cases.size()) +
                           " shapes have a measured time (written by another version of fwb calibrate?)");
  return fitKind(kind, k, us, overheadUs, positionBlock, channelBlock, copy, projectionModelOf(kind, fitted));
}

std::vector<std::pair<std::string, CubeFeatures>> cubeCaseFeatures(const std::string& kind) {
  std::vector<std::pair<std::string, CubeFeatures>> out;
  auto k = casesOfKind(kind);
  if (!k.ok()) return out;
  for (auto& c : k->cases) {
    if (!figuresOf(c.bench).ok()) continue;  // resolves the bench's shapes
    if (const auto f = cubeFeatures(*c.bench.model.graph, c.bench.node)) out.push_back({c.name, *f});
  }
  return out;
}

}  // namespace fw::sim
