// Issue 22: the shape model of matrix ops on a cpu profile (simulator/CpuCubeModel.h): its features, its
// fit, its place in the profile JSON and in the CPU cost.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "core/ir/OpCost.h"
#include "core/zoo/ZooBuilder.h"
#include "simulator/CpuCost.h"
#include "simulator/CpuCubeModel.h"
#include "simulator/HwProfile.h"
#include "simulator/OpFamily.h"
#include "tests/simulator/SimTestUtil.h"

namespace fw::sim {
namespace {

using nlohmann::json;

Graph convGraph(int64_t cin, int64_t cout, int64_t hw, int64_t k, int64_t group, int64_t stride = 1,
                int64_t batch = 1) {
  Graph g;
  g.name = "conv";
  const int64_t pad = k / 2, out = (hw + 2 * pad - k) / stride + 1;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({batch, cin, hw, hw}));
  ValueId w = g.addInitializer("W", Tensor::floats({cout, cin / group, k, k},
                                                   std::vector<float>(static_cast<size_t>(cout * cin / group * k * k), 0.1f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({batch, cout, out, out}));
  g.addNode("Conv", {x, w}, {y},
            zoo::attrs({Attribute::makeInts("pads", {pad, pad, pad, pad}), Attribute::makeInt("group", group),
                        Attribute::makeInts("kernel_shape", {k, k}), Attribute::makeInts("strides", {stride, stride})}),
            "conv");
  g.addOutput(y);
  return g;
}

// Dense 3x3 Convs c -> c at hw x hw (c 16 to 1024, hw 2 to 28) timed by `known` with 2 % noise at a flat copy
// rate, each with its weight stream once a row and (`image`) once an image; `streamed` counts the shapes the
// stream lengthens by over 10 %.
std::vector<CubeSample> convStreamSamples(const CubeTimeModel& known, double rate, unsigned seed,
                                          int& streamed, bool image) {
  auto copyRate = [&](double) { return rate; };
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(0.98, 1.02);
  std::vector<CubeSample> samples;
  for (int64_t c : {16, 64, 256, 512, 1024})
    for (int64_t hw : {2, 4, 7, 14, 28}) {
      auto g = cubeFeatures(convGraph(c, c, hw, 3, 1), 0);
      if (!g) continue;
      EXPECT_DOUBLE_EQ(g->weightImageBytes, g->weightBytes);  // one image
      const double t = known.boundedSeconds(*g, copyRate);
      streamed += t > 1.1 * known.seconds(*g);
      samples.push_back(
          {*g, t * noise(rng), g->weightStreamBytes / rate, image ? g->weightImageBytes / rate : 0.0});
    }
  return samples;
}

// A dense Conv over one axis: [1, cin, len] by [cout, cin, k], padding k / 2.
Graph conv1dGraph(int64_t cin, int64_t cout, int64_t len, int64_t k, int64_t stride = 1) {
  Graph g;
  g.name = "conv1d";
  const int64_t pad = k / 2, out = (len + 2 * pad - k) / stride + 1;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, cin, len}));
  ValueId w = g.addInitializer(
      "W", Tensor::floats({cout, cin, k}, std::vector<float>(static_cast<size_t>(cout * cin * k), 0.1f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1, cout, out}));
  g.addNode("Conv", {x, w}, {y},
            zoo::attrs({Attribute::makeInts("pads", {pad, pad}), Attribute::makeInts("kernel_shape", {k}),
                        Attribute::makeInts("strides", {stride})}),
            "conv1d");
  g.addOutput(y);
  return g;
}

// A ConvTranspose over `dims` spatial axes of `len`: [1, cin, len...] by [cin, cout, 4...], stride 2, pads 1.
Graph convTransposeGraph(int64_t cin, int64_t cout, int64_t len, size_t dims) {
  Graph g;
  g.name = "conv_transpose";
  std::vector<int64_t> xd = {1, cin}, wd = {cin, cout}, yd = {1, cout};
  for (size_t d = 0; d < dims; ++d) xd.push_back(len), wd.push_back(4), yd.push_back(2 * len);
  int64_t n = 1;
  for (int64_t v : wd) n *= v;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(xd));
  ValueId w = g.addInitializer("W", Tensor::floats(wd, std::vector<float>(static_cast<size_t>(n), 0.1f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(yd));
  g.addNode("ConvTranspose", {x, w}, {y},
            zoo::attrs({Attribute::makeInts("pads", std::vector<int64_t>(2 * dims, 1)),
                        Attribute::makeInts("strides", std::vector<int64_t>(dims, 2))}),
            "convt");
  g.addOutput(y);
  return g;
}

TEST(CpuCubeModel, AConvReadsItsWeightsOnceAnImage) {
  // A dense, pointwise or grouped Conv (16 or fewer input channels a group) reads its weights once an image
  // of the batch (measured); the depthwise kind's weight term stays once a node. The arithmetic and the
  // activations scale with the batch as they are, and a matrix product's weights are read once whatever its
  // batch.
  for (const auto& [group, k] : {std::pair<int64_t, int64_t>{1, 3}, {1, 1}, {4, 3}, {2, 3}, {16, 3}}) {
    const auto one = cubeFeatures(convGraph(16, 16, 8, k, group), 0);
    const auto eight = cubeFeatures(convGraph(16, 16, 8, k, group, 1, 8), 0);
    ASSERT_TRUE(one && eight);
    EXPECT_EQ(one->kind, eight->kind);
    EXPECT_EQ(one->kind, group == 16 ? "depthwise_conv"
                         : group > 1 ? "grouped_conv"
                         : k == 1    ? "pointwise_conv"
                                     : "conv");
    EXPECT_DOUBLE_EQ(eight->weightElems, (group == 16 ? 1 : 8) * one->weightElems) << one->kind;
    EXPECT_DOUBLE_EQ(eight->flops, 8 * one->flops) << one->kind;
    EXPECT_DOUBLE_EQ(eight->inElems, 8 * one->inElems) << one->kind;
  }
  const auto product = cubeFeatures(test::matmul(8, 64, 16), 0);
  ASSERT_TRUE(product.has_value());
  EXPECT_DOUBLE_EQ(product->weightElems, 64.0 * 16);
}

// A depth multiplier (one input channel a group, several output channels each) runs as a depthwise Conv
// over its input channels copied once an output channel (core/exec/ConvPrimitive.cpp): the depthwise kind,
// its input counted as the copy writes it and the kernel's reorder passes it again; a depthwise Conv of
// one output channel a group reads its input as it is.
TEST(CpuCubeModel, ADepthMultiplierCountsItsInputCopiedOnceAnOutputChannel) {
  const auto plain = cubeFeatures(convGraph(16, 16, 8, 3, 16), 0);
  const auto times3 = cubeFeatures(convGraph(16, 48, 8, 3, 16), 0);
  ASSERT_TRUE(plain && times3);
  EXPECT_EQ(plain->kind, "depthwise_conv");
  EXPECT_EQ(times3->kind, "depthwise_conv");
  EXPECT_DOUBLE_EQ(plain->inElems, 16.0 * 8 * 8);
  EXPECT_DOUBLE_EQ(times3->inElems, 2 * 3 * 16.0 * 8 * 8);
  EXPECT_DOUBLE_EQ(times3->outElems, 48.0 * 8 * 8);
  EXPECT_DOUBLE_EQ(times3->flops, 3 * plain->flops);
}

// A filter bank (a few input channels a group, at least 8 taps along the last axis, stride 1) runs on the
// executor's own direct loop where that timed faster (core/exec/DirectConv.h): its own kind, an own loop,
// every tap's multiply-add counted (the padding's too) and the input loaded once a block of 4 output
// channels; a kernel long along two axes (a 31x31 depthwise one) too, every tap of both counted. 7 taps,
// stride 2, 5 input channels, or 4 channels by 17 rows of taps (68 input rows an output row) are the
// library's.
TEST(CpuCubeModel, AFilterBankIsCostedAsTheDirectLoop) {
  const auto f = cubeFeatures(conv1dGraph(2, 16, 1000, 33), 0);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "conv_direct");
  EXPECT_TRUE(f->ownLoop);
  EXPECT_DOUBLE_EQ(f->flops, 2.0 * 16 * 1000 * 2 * 33);
  EXPECT_DOUBLE_EQ(f->inElems, 2.0 * 1000);
  EXPECT_DOUBLE_EQ(f->outElems, 16.0 * 1000);
  EXPECT_DOUBLE_EQ(f->weightElems, 16.0 * 2 * 33);
  // The loads: 16 output channels in 4 blocks, each loading every input element under every tap.
  EXPECT_DOUBLE_EQ(f->patchElems, 4.0 * 1000 * 2 * 33);
  const auto large = cubeFeatures(convGraph(48, 48, 32, 31, 48, 1, 4), 0);
  ASSERT_TRUE(large);
  EXPECT_EQ(large->kind, "conv_direct");
  EXPECT_TRUE(large->ownLoop);
  EXPECT_DOUBLE_EQ(large->flops, 2.0 * 4 * 48 * 32 * 32 * 31 * 31);
  // One output channel a group: one block a channel, loading its row's positions under every tap.
  EXPECT_DOUBLE_EQ(large->patchElems, 4.0 * 48 * 32 * 32 * 31 * 31);
  for (const auto& [what, g] : {std::pair{"7 taps", conv1dGraph(2, 16, 1000, 7)},
                                std::pair{"stride 2", conv1dGraph(2, 16, 1000, 33, 2)},
                                std::pair{"5 channels", conv1dGraph(5, 16, 1000, 33)},
                                std::pair{"17x17 over 4 channels", convGraph(4, 8, 64, 17, 1)}}) {
    const auto other = cubeFeatures(g, 0);
    ASSERT_TRUE(other) << what;
    EXPECT_NE(other->kind, "conv_direct") << what;
    EXPECT_FALSE(other->ownLoop) << what;
  }
}

// A bank over rows ([N, C, H, W] by [M, C/group, k, 1], no padding along W) runs on the same direct loop,
// a kind of its own (conv_rows): every tap along H counted, the input rows loaded once a block of 4 output
// channels. Padding along W, or 4 taps, leaves it to the library.
TEST(CpuCubeModel, AFilterBankOverRowsIsCostedAsTheDirectLoopsOwnKind) {
  auto bank = [](int64_t taps, int64_t padW) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({2, 8, 22, 100}));
    ValueId w = g.addInitializer(
        "W", Tensor::floats({16, 1, taps, 1}, std::vector<float>(static_cast<size_t>(16 * taps), 0.1f)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({2, 16, 22 - taps + 1, 100 + 2 * padW}));
    g.addNode("Conv", {x, w}, {y},
              zoo::attrs({Attribute::makeInts("pads", {0, padW, 0, padW}), Attribute::makeInt("group", 8),
                          Attribute::makeInts("kernel_shape", {taps, 1})}),
              "bank");
    g.addOutput(y);
    return g;
  };
  const auto f = cubeFeatures(bank(22, 0), 0);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "conv_rows");
  EXPECT_TRUE(f->ownLoop);
  EXPECT_DOUBLE_EQ(f->flops, 2.0 * 2 * 16 * 100 * 22);
  EXPECT_DOUBLE_EQ(f->outElems, 2.0 * 16 * 100);
  // Two output channels a group: one block, loading each of its 22 rows' positions once.
  EXPECT_DOUBLE_EQ(f->patchElems, 2.0 * 8 * 100 * 22);
  for (const auto& [what, g] : {std::pair{"padded along W", bank(22, 1)}, std::pair{"4 taps", bank(4, 0)}}) {
    const auto other = cubeFeatures(g, 0);
    ASSERT_TRUE(other) << what;
    EXPECT_NE(other->kind, "conv_rows") << what;
    EXPECT_FALSE(other->ownLoop) << what;
  }
}

// A Conv in one group whose kernel covers the leading spatial axes whole and is 1 along the last
// ([N, C, H, W] by [M, C, H, 1], no padding) is the pointwise Conv of its C * H rows, as the executor runs it
// (exec::rowsAsChannels): positions the last axis (of both images, gathered), K = C * H. Padding, groups or a
// kernel shorter than the axis leave it a dense Conv.
TEST(CpuCubeModel, AKernelOverTheLeadingAxesWholeIsThePointwiseConvOfItsRows) {
  auto spatial = [](int64_t kh, int64_t pad, int64_t group) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({2, 8, 22, 100}));
    ValueId w = g.addInitializer(
        "W", Tensor::floats({16, 8 / group, kh, 1},
                            std::vector<float>(static_cast<size_t>(16 * 8 / group * kh), 0.1f)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({2, 16, 22 - kh + 1 + 2 * pad, 100}));
    g.addNode("Conv", {x, w}, {y},
              zoo::attrs({Attribute::makeInts("pads", {pad, 0, pad, 0}), Attribute::makeInt("group", group),
                          Attribute::makeInts("kernel_shape", {kh, 1})}),
              "spatial");
    g.addOutput(y);
    return g;
  };
  const auto f = cubeFeatures(spatial(22, 0, 1), 0);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "pointwise_conv");
  EXPECT_TRUE(f->plainProduct);
  EXPECT_DOUBLE_EQ(f->positions, 2.0 * 100);  // both images' 100 columns gathered into one product
  EXPECT_DOUBLE_EQ(f->flops, 2.0 * 2 * 16 * 100 * 8 * 22);
  for (const auto& [what, g] :
       {std::pair{"padded", spatial(22, 1, 1)}, std::pair{"2 groups", spatial(22, 0, 2)},
        std::pair{"shorter than the axis", spatial(21, 0, 1)}}) {
    const auto other = cubeFeatures(g, 0);
    ASSERT_TRUE(other) << what;
    EXPECT_NE(other->kind, "pointwise_conv") << what;
  }
}

TEST(CpuCubeModel, FeaturesAreTheImplicitGemmOfEachKind) {
  // Conv 16->32, 3x3 at 32x32: M = 1024 output pixels, K = 16*9 = 144, N = 32; with pad 1, 94 of the 96
  // (position, tap) pairs of each axis read inside the image (the test below).
  const double inside = (94.0 / 96) * (94.0 / 96);
  Graph c = convGraph(16, 32, 32, 3, 1);
  auto f = cubeFeatures(c, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "conv");
  EXPECT_DOUBLE_EQ(f->flops, 2.0 * 1024 * 32 * 144 * inside);
  EXPECT_DOUBLE_EQ(f->inElems, 16.0 * 32 * 32);
  EXPECT_DOUBLE_EQ(f->outElems, 32.0 * 32 * 32);
  EXPECT_DOUBLE_EQ(f->patchElems, 1024.0 * 144 * inside);
  EXPECT_DOUBLE_EQ(f->weightElems, 32.0 * 16 * 9);
  // Depthwise: one input channel a group, its own kind; K = 9 and N = 1 per group: the patches are numel(Y) * 9.
  Graph d = convGraph(16, 16, 32, 3, 16);
  f = cubeFeatures(d, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "depthwise_conv");
  EXPECT_DOUBLE_EQ(f->patchElems, 16.0 * 1024 * 9 * inside);
  // 1x1 without padding: a pointwise conv (the executor's GEMM path, over the input as it is: no patch;
  // 32 x 32 positions, rows 4 KiB apart, over a copy with its rows further apart: the whole input copied);
  // strided, over the positions it reads, copied out (the patch, 16 x 16 of them here, against the whole
  // input); padded, a dense conv.
  f = cubeFeatures(convGraph(16, 32, 30, 1, 1), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "pointwise_conv");
  EXPECT_DOUBLE_EQ(f->patchElems, 0.0);
  EXPECT_DOUBLE_EQ(f->positions, 900.0);
  f = cubeFeatures(convGraph(16, 32, 32, 1, 1), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "pointwise_conv");
  EXPECT_DOUBLE_EQ(f->patchElems, 1024.0 * 16);
  EXPECT_DOUBLE_EQ(f->positions, 1024.0);
  f = cubeFeatures(convGraph(16, 32, 32, 1, 1, 2), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "pointwise_conv");
  EXPECT_DOUBLE_EQ(f->inElems, 1024.0 * 16);
  EXPECT_DOUBLE_EQ(f->patchElems, 256.0 * 16);
  EXPECT_DOUBLE_EQ(f->positions, 256.0);
  Graph padded = convGraph(16, 32, 32, 1, 1, 2);
  padded.node(0).attrs.set(Attribute::makeInts("pads", {1, 1, 1, 1}));
  padded.value(padded.node(0).outputs[0]).shape = Shape::ofInts({1, 32, 17, 17});
  f = cubeFeatures(padded, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "conv");
  // Over one axis: its own kind, the dense features (K = 16 * 5, N = 32; 2 of 64 x 5 taps in the padding
  // at each end, 6 of 320 in all). A 1-D 1x1 Conv is still a pointwise one.
  f = cubeFeatures(conv1dGraph(16, 32, 64, 5), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "conv1d");
  EXPECT_DOUBLE_EQ(f->flops, 2.0 * 64 * 32 * 80 * (314.0 / 320));
  EXPECT_DOUBLE_EQ(f->patchElems, 64.0 * 80 * (314.0 / 320));
  EXPECT_DOUBLE_EQ(f->weightElems, 32.0 * 16 * 5);
  EXPECT_DOUBLE_EQ(f->outChannels, 32.0);
  f = cubeFeatures(conv1dGraph(16, 32, 64, 1), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "pointwise_conv");
  // Several input channels a group (4 here) is a grouped conv: K = 36, N = 4 per group.
  Graph gc = convGraph(16, 16, 32, 3, 4);
  f = cubeFeatures(gc, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "grouped_conv");
  EXPECT_DOUBLE_EQ(f->patchElems, 16.0 * 1024 * 36 / 4 * inside);
  // MatMul [8,64] x [64,16]: the left operand is the patch matrix.
  Graph m = test::matmul(8, 64, 16);
  f = cubeFeatures(m, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "gemm");
  EXPECT_DOUBLE_EQ(f->patchElems, 8.0 * 64);
  EXPECT_DOUBLE_EQ(f->weightElems, 64.0 * 16);
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);
  // A matrix-vector product whose weight rows lie 4 KiB or 2 KiB apart ([4, 256] x [256, 1024] or
  // [1, 2048] x [2048, 512] floats) streams them through the same cache sets when B is read as stored:
  // B a graph input (or computed). 3 KiB apart, 16 rows (the library packs the weights), or one row
  // 4 KiB apart (the executor's own loop), it does not. A model's own weight runs on a packed copy
  // (core/exec/Gemm.cpp): never aliased.
  f = cubeFeatures(test::matmulOfInputs(4, 256, 1024), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 256.0 * 1024);
  f = cubeFeatures(test::matmul(4, 256, 1024), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);  // the model's weight: packed
  f = cubeFeatures(test::matmulOfInputs(1, 256, 1024), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);
  f = cubeFeatures(test::matmulOfInputs(1, 2048, 512), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 2048.0 * 512);
  f = cubeFeatures(test::matmul(1, 2048, 512), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);
  f = cubeFeatures(test::matmulOfInputs(1, 1024, 768), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);
  f = cubeFeatures(test::matmulOfInputs(16, 256, 1024), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);
  // Gemm with transB = 1 (weights [N, K]) is a kind of its own; its features are the same products.
  {
    Graph t;
    t.name = "gemm_tb";
    ValueId a = t.addInput("a", DType::Float32, Shape::ofInts({8, 64}));
    ValueId b = t.addInitializer("B", Tensor::floats({16, 64}, std::vector<float>(16 * 64, 0.1f)));
    ValueId y = t.addValue("y", DType::Float32, Shape::ofInts({8, 16}));
    t.addNode("Gemm", {a, b}, {y}, zoo::attrs({Attribute::makeInt("transB", 1)}), "fc");
    t.addOutput(y);
    f = cubeFeatures(t, 0);
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->kind, "gemm_tb");
    EXPECT_DOUBLE_EQ(f->patchElems, 8.0 * 64);
    EXPECT_DOUBLE_EQ(f->weightElems, 64.0 * 16);
    EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);  // rows of 64 floats
  }
  // One output column, A as stored: the executor's own dot loop, a kind of its own (a MatMul's [K, 1] and a
  // Gemm(transB)'s [1, K] with its bias); two columns, or A transposed, stay on oneDNN's GEMM.
  for (int64_t cols : {1, 2})
    for (bool transA : {false, true}) {
      Graph t;
      t.name = "column";
      ValueId a =
          t.addInput("a", DType::Float32,
                     Shape::ofInts(transA ? std::vector<int64_t>{64, 32} : std::vector<int64_t>{32, 64}));
      ValueId b = t.addInitializer(
          "B", Tensor::floats({cols, 64}, std::vector<float>(static_cast<size_t>(cols * 64), 0.1f)));
      ValueId c =
          t.addInitializer("C", Tensor::floats({cols}, std::vector<float>(static_cast<size_t>(cols), 0.5f)));
      ValueId y = t.addValue("y", DType::Float32, Shape::ofInts({32, cols}));
      t.addNode("Gemm", {a, b, c}, {y},
                zoo::attrs({Attribute::makeInt("transB", 1), Attribute::makeInt("transA", transA ? 1 : 0)}),
                "head");
      t.addOutput(y);
      f = cubeFeatures(t, 0);
      ASSERT_TRUE(f.has_value());
      EXPECT_EQ(f->kind, cols == 1 && !transA ? "gemm_col" : "gemm_tb")
          << cols << " columns, transA " << transA;
      EXPECT_DOUBLE_EQ(f->patchElems, 32.0 * 64);
      EXPECT_DOUBLE_EQ(f->flops, 2.0 * 32 * 64 * static_cast<double>(cols));
    }
  f = cubeFeatures(test::matmul(128, 270, 1), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "gemm_col");
  EXPECT_DOUBLE_EQ(f->weightElems, 270.0);
  // Gemm(transB) weights [N, K] with K = 1024: rows 4 KiB apart, aliased when read as stored (B an
  // input), packed when B is the model's weight.
  for (bool modelWeight : {false, true}) {
    Graph t;
    t.name = "gemm_tb_aliased";
    ValueId a = t.addInput("a", DType::Float32, Shape::ofInts({2, 1024}));
    ValueId b = modelWeight
                    ? t.addInitializer("B", Tensor::floats({16, 1024}, std::vector<float>(16 * 1024, 0.1f)))
                    : t.addInput("B", DType::Float32, Shape::ofInts({16, 1024}));
    ValueId y = t.addValue("y", DType::Float32, Shape::ofInts({2, 16}));
    t.addNode("Gemm", {a, b}, {y}, zoo::attrs({Attribute::makeInt("transB", 1)}), "fc");
    t.addOutput(y);
    f = cubeFeatures(t, 0);
    ASSERT_TRUE(f.has_value());
    EXPECT_DOUBLE_EQ(f->aliasedWeightElems, modelWeight ? 0.0 : 16.0 * 1024)
        << "model weight " << modelWeight;
  }
  // A recurrent cell: the steps (seq * directions) are its "patch" term, R streamed once a step its
  // "weight" term, the gate values (numel(Y) * gates) its "output" term.
  {
    Graph r;
    r.name = "lstm";
    ValueId x = r.addInput("x", DType::Float32, Shape::ofInts({10, 1, 8}));
    ValueId w = r.addInitializer("W", Tensor::floats({2, 64, 8}, std::vector<float>(2 * 64 * 8, 0.1f)));
    ValueId rr = r.addInitializer("R", Tensor::floats({2, 64, 16}, std::vector<float>(2 * 64 * 16, 0.1f)));
    ValueId y = r.addValue("y", DType::Float32, Shape::ofInts({10, 2, 1, 16}));
    r.addNode("LSTM", {x, w, rr}, {y},
              zoo::attrs({Attribute::makeInt("hidden_size", 16), Attribute::makeString("direction", "bidirectional")}), "lstm");
    r.addOutput(y);
    f = cubeFeatures(r, 0);
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->kind, "rnn");
    EXPECT_DOUBLE_EQ(f->patchElems, 20.0);
    EXPECT_DOUBLE_EQ(f->weightElems, 20.0 * 64 * 16);
    EXPECT_DOUBLE_EQ(f->outElems, 10.0 * 2 * 16 * 4);
    EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 0.0);  // a model's own weights: packed once
    // Its weight stream: one direction's R (64 x 16 floats) a step, bounded by the copy's rate for that size.
    EXPECT_DOUBLE_EQ(f->weightBytes, 4.0 * 64 * 16);
    EXPECT_DOUBLE_EQ(f->weightStreamBytes, 20.0 * 4 * 64 * 16);
  }
  // The same cell with W and R computed by the run (graph inputs here): read as stored, W once and R once a
  // step, the "aliased weight" term; a computed R alone counts only its steps.
  for (const bool computedW : {true, false}) {
    Graph r;
    r.name = "lstm_computed";
    ValueId x = r.addInput("x", DType::Float32, Shape::ofInts({10, 1, 8}));
    ValueId w = computedW
                    ? r.addInput("W", DType::Float32, Shape::ofInts({2, 64, 8}))
                    : r.addInitializer("W", Tensor::floats({2, 64, 8}, std::vector<float>(2 * 64 * 8, 0.1f)));
    ValueId rr = r.addInput("R", DType::Float32, Shape::ofInts({2, 64, 16}));
    ValueId y = r.addValue("y", DType::Float32, Shape::ofInts({10, 2, 1, 16}));
    r.addNode("LSTM", {x, w, rr}, {y},
              zoo::attrs({Attribute::makeInt("hidden_size", 16),
                          Attribute::makeString("direction", "bidirectional")}),
              "lstm");
    r.addOutput(y);
    f = cubeFeatures(r, 0);
    ASSERT_TRUE(f.has_value());
    EXPECT_DOUBLE_EQ(f->weightElems, 20.0 * 64 * 16);
    EXPECT_DOUBLE_EQ(f->aliasedWeightElems, 20.0 * 64 * 16 + (computedW ? 2.0 * 64 * 8 : 0.0)) << computedW;
  }
  // Not a matrix op: no features.
  Graph r = test::unaryChain({"Relu"}, {4, 4});
  EXPECT_FALSE(cubeFeatures(r, 0).has_value());
}

TEST(CpuCubeModel, FitRecoversKnownCoefficientsFromNoisyTimes) {
  const std::array<double, kCubeFeatures> truth = {4e-12, 0, 5e-11, 3e-11, 2e-10, 3e-6};
  CubeTimeModel known;
  known.coef = truth;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> noise(0.97, 1.03);
  std::vector<CubeSample> samples;
  // 1x1 and 3x3 kernels, so that the patches are not a fixed multiple of the input.
  for (int64_t cin : {3, 16, 64, 256})
    for (int64_t cout : {8, 64, 512})
      for (int64_t hw : {7, 28, 112})
        for (int64_t k : {1, 3}) {
        Graph g = convGraph(cin, cout, hw, k, 1);
        auto f = cubeFeatures(g, 0);
        ASSERT_TRUE(f.has_value());
        samples.push_back({*f, known.seconds(*f) * noise(rng)});
      }
  auto fit = fitCubeTimeModel(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->cases, static_cast<int>(samples.size()));
  EXPECT_LT(fit->rmsLogError, 0.03);
  for (size_t i = 0; i < truth.size(); ++i) {
    EXPECT_GE(fit->coef[i], 0.0) << i;
    if (truth[i] > 0) {
      EXPECT_NEAR(fit->coef[i] / truth[i], 1.0, 0.15) << i;
    }
  }
  // Matrix products with and without aliased weight rows (B a graph input, read as stored): the seventh
  // coefficient is recovered too.
  const std::array<double, kCubeFeatures> gemmTruth = {4e-12, 0, 0, 3e-11, 1e-10, 3e-6, 2e-10};
  known.coef = gemmTruth;
  std::vector<CubeSample> gemms;
  for (int64_t m : {1, 4, 16, 64})
    for (int64_t k : {256, 768, 1024})
      for (int64_t n : {256, 768, 1024, 2048}) {
        auto f = cubeFeatures(test::matmulOfInputs(m, k, n), 0);
        ASSERT_TRUE(f.has_value());
        gemms.push_back({*f, known.seconds(*f) * noise(rng)});
      }
  auto gfit = fitCubeTimeModel(gemms);
  ASSERT_TRUE(gfit.ok()) << gfit.error().message;
  EXPECT_LT(gfit->rmsLogError, 0.03);
  EXPECT_NEAR(gfit->coef[6] / gemmTruth[6], 1.0, 0.15);
  // Too few timed shapes: a clear error, not a made-up model.
  auto few = fitCubeTimeModel({samples[0]});
  ASSERT_FALSE(few.ok());
  EXPECT_NE(few.error().message.find("at least 2"), std::string::npos);
}

json cpuProfile() {
  return json::parse(R"({
    "name": "testcpu", "kind": "cpu", "dtype": "float32", "clock_hz": 2.0e9,
    "cube_cores": 1, "vector_cores": 1,
    "cpu": {"gemm_flops_per_s": 1.0e11, "conv_flops_per_s": 5.0e10, "cache_bandwidth_bytes_per_s": 1.0e11,
            "cube_time_models": {"gemm": {"s_per_flop": 1e-12, "s_per_input_element": 0, "s_per_output_element": 0,
                                          "s_per_patch_element": 0, "s_per_weight_element": 1e-10, "s_per_call": 1e-6,
                                          "cases": 9, "rms_log_error": 0.1}}},
    "l2_bytes": 33554432, "hbm_bandwidth_bytes_per_s": 1.0e10, "hbm_capacity_bytes": 1.0e10,
    "launch_us": 2.0, "host_dispatch_us": 0,
    "notes": []
  })");
}

TEST(CpuCubeModel, ADenseConvOnSmallImagesIsBoundByItsWeightStream) {
  // Features: a dense 3x3 Conv passes over its weights once an output row of each image, less the taps of
  // a row in the padding: at 4x4 with pad 1, rows 0 and 3 skip one of three taps (2/3 + 1 + 1 + 2/3).
  auto f = cubeFeatures(convGraph(64, 64, 4, 3, 1, 1, 8), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "conv");
  EXPECT_DOUBLE_EQ(f->weightBytes, 4.0 * 64 * 64 * 9);
  EXPECT_NEAR(f->weightStreamBytes, f->weightBytes * 8 * (10.0 / 3), 1e-6 * f->weightStreamBytes);
  // A 1-D Conv's output is one row: every weight once an image (an STFT front end, 257 filters of 512
  // taps, stride 160, over 2 clips of 672 samples).
  {
    Graph c1;
    ValueId x = c1.addInput("x", DType::Float32, Shape::ofInts({2, 1, 672}));
    ValueId w = c1.addInitializer("W", Tensor::floats({257, 1, 512}, std::vector<float>(257 * 512, 0.01f)));
    ValueId y = c1.addValue("y", DType::Float32, Shape::ofInts({2, 257, 2}));
    c1.addNode(
        "Conv", {x, w}, {y},
        zoo::attrs({Attribute::makeInts("kernel_shape", {512}), Attribute::makeInts("strides", {160})}),
        "stft");
    c1.addOutput(y);
    auto g1 = cubeFeatures(c1, 0);
    ASSERT_TRUE(g1.has_value());
    EXPECT_EQ(g1->kind, "conv1d");
    EXPECT_DOUBLE_EQ(g1->weightBytes, 4.0 * 257 * 512);
    EXPECT_DOUBLE_EQ(g1->weightStreamBytes, 2 * g1->weightBytes);
  }
  // A pointwise Conv streams its weight once a product (since session 75: one image, one product); depthwise
  // Convs and products have no such stream.
  {
    auto h = cubeFeatures(convGraph(64, 64, 4, 1, 1), 0);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->kind, "pointwise_conv");
    EXPECT_DOUBLE_EQ(h->weightStreamBytes, 4.0 * 64 * 64);
  }
  for (const Graph& g : {convGraph(64, 64, 4, 3, 64), test::matmul(8, 64, 16)}) {
    auto h = cubeFeatures(g, 0);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->weightStreamBytes, 0.0) << h->kind;
  }
  // The fit: times from a known model, the larger of its sum of terms and the weights streamed at 0.7 of a
  // copy bandwidth of 100 GB/s (whatever the footprint, here); the fit finds the efficiency and the terms.
  CubeTimeModel known;
  known.coef = {4e-12, 2e-10, 3e-10, 0, 0, 4e-6};
  known.weightStreamEfficiency = 0.7;
  int bound = 0;
  const std::vector<CubeSample> samples = convStreamSamples(known, 1e11, 11, bound, false);
  ASSERT_EQ(samples.size(), 25u);
  ASSERT_GE(bound, 3);  // the grid has shapes the stream bounds
  auto fit = fitCubeTimeModel(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_NEAR(fit->weightStreamEfficiency, 0.7, 0.051);
  EXPECT_LT(fit->rmsLogError, 0.05);
  EXPECT_NEAR(fit->coef[0] / known.coef[0], 1.0, 0.15);
  EXPECT_NEAR(fit->coef[5] / known.coef[5], 1.0, 0.15);
  // Without the stream, the sum of terms alone fits these shapes worse.
  std::vector<CubeSample> plain = samples;
  for (auto& s : plain) s.streamSeconds = 0;
  auto alone = fitCubeTimeModel(plain);
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->weightStreamEfficiency, 0.0);
  EXPECT_GT(alone->rmsLogError, 2 * fit->rmsLogError);
  // The simulator takes the larger of the two: a 3x3 Conv 512->512 at 2x2 on a profile whose conv model
  // streams at 0.5 of its 100 GB/s costs at least its 9.4 MB of weights twice (2/3 of two rows) at 50 GB/s.
  json j = cpuProfile();
  j["cpu"]["cube_time_models"]["conv"] = j["cpu"]["cube_time_models"]["gemm"];
  j["cpu"]["cube_time_models"]["conv"]["weight_stream_efficiency"] = 0.5;
  j["cpu"]["cube_time_models"]["conv"]["s_per_weight_element"] = 0;
  j["hbm_bandwidth_bytes_per_s"] = 1e13;  // no cold weights to speak of
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  Graph small = convGraph(512, 512, 2, 3, 1);
  const double streamUs = 4.0 * 512 * 512 * 9 * (4.0 / 3) / 5e10 * 1e6;
  EXPECT_GE(test::runUnfused(small, *hw).kernels.at(0).durUs, streamUs);
  j["cpu"]["cube_time_models"]["conv"].erase("weight_stream_efficiency");
  hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  EXPECT_LT(test::runUnfused(small, *hw).kernels.at(0).durUs, 0.5 * streamUs);
}

// A pointwise Conv's input and output elements past the core's own cache: none up to the own cache, all
// from twice it, linear between; the fit recovers the term's coefficient from shapes on both sides; the
// simulator charges it from the profile's own cache (cpu.cache_drops_bytes) and not without one; a profile
// written before the term reads it as 0.
TEST(CpuCubeModel, APointwiseConvsActivationsPastTheOwnCacheHaveATermOfTheirOwn) {
  auto f = cubeFeatures(convGraph(16, 8, 80, 1, 1), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "pointwise_conv");
  const double elems = 24.0 * 80 * 80;  // 614 KB
  EXPECT_EQ(f->farActElems, 0.0);
  EXPECT_EQ(f->withOwnCache(1 << 20).farActElems, 0.0);
  EXPECT_EQ(f->withOwnCache(0).farActElems, 0.0);
  EXPECT_NEAR(f->withOwnCache(5e5).farActElems, elems * (4 * elems / 5e5 - 1), 1e-6 * elems);
  EXPECT_DOUBLE_EQ(f->withOwnCache(2e5).farActElems, elems);
  EXPECT_DOUBLE_EQ(f->withOwnCache(2e5).vec()[7], elems);
  // Other kinds have none, whatever their footprint.
  for (const Graph& g : {convGraph(64, 64, 56, 3, 1), convGraph(64, 64, 56, 3, 64)}) {
    auto h = cubeFeatures(g, 0);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->withOwnCache(1e5).farActElems, 0.0) << h->kind;
  }
  // The fit: pointwise shapes of few to many channels at 1 to 16 images, timed by a known model with the
  // term, 3 % noise; a 1.5 MB own cache.
  const double own = 1.5e6;
  CubeTimeModel known;
  known.coef = {5e-12, 0, 1e-10, 0, 2e-11, 3e-6, 0, 1.5e-10};
  std::mt19937 rng(70);
  std::uniform_real_distribution<double> noise(0.97, 1.03);
  std::vector<CubeSample> samples;
  int past = 0;
  for (int64_t c : {8, 24, 96, 256})
    for (int64_t m : {8, 48, 512})
      for (int64_t hw : {7, 28, 80})
        for (int64_t batch : {1, 16}) {
          auto g = cubeFeatures(convGraph(c, m, hw, 1, 1, 1, batch), 0);
          ASSERT_TRUE(g.has_value());
          const CubeFeatures h = g->withOwnCache(own);
          past += h.farActElems > 0;
          samples.push_back({h, known.seconds(h) * noise(rng)});
        }
  ASSERT_GE(past, 10);
  ASSERT_LE(past, static_cast<int>(samples.size()) - 10);
  auto fit = fitCubeTimeModel(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_LT(fit->rmsLogError, 0.03);
  EXPECT_NEAR(fit->coef[7] / known.coef[7], 1.0, 0.15);
  // Without the feature the same times fit worse.
  std::vector<CubeSample> without = samples;
  for (auto& s : without) s.features.farActElems = 0;
  auto blind = fitCubeTimeModel(without);
  ASSERT_TRUE(blind.ok());
  EXPECT_GT(blind->rmsLogError, 2 * fit->rmsLogError);
  // The simulator: a pointwise Conv of 16 images past a 1 MiB own cache pays the term's time more than
  // without it; with no own cache in the profile, nothing more.
  json j = cpuProfile();
  j["cpu"]["cube_time_models"]["pointwise_conv"] = j["cpu"]["cube_time_models"]["gemm"];
  j["hbm_bandwidth_bytes_per_s"] = 1e13;
  Graph big = convGraph(16, 8, 80, 1, 1, 1, 16);
  auto base = parseHwProfile(j, "t.json");
  ASSERT_TRUE(base.ok()) << base.error().message;
  EXPECT_EQ(base->cpu.cubeModels.at("pointwise_conv").coef[7], 0.0);  // not in the JSON: 0
  const double baseUs = test::runUnfused(big, *base).kernels.at(0).durUs;
  j["cpu"]["cube_time_models"]["pointwise_conv"]["s_per_far_activation_element"] = 1e-9;
  auto noCache = parseHwProfile(j, "t.json");
  ASSERT_TRUE(noCache.ok()) << noCache.error().message;
  EXPECT_NEAR(test::runUnfused(big, *noCache).kernels.at(0).durUs, baseUs, 1e-9 * baseUs);
  j["cpu"]["cache_drops_bytes"] = {1048576};
  j["cpu"]["cube_time_models"]["pointwise_conv"]["s_per_far_activation_element"] = 0;
  auto cached = parseHwProfile(j, "t.json");
  ASSERT_TRUE(cached.ok()) << cached.error().message;
  const double cachedUs = test::runUnfused(big, *cached).kernels.at(0).durUs;
  j["cpu"]["cube_time_models"]["pointwise_conv"]["s_per_far_activation_element"] = 1e-9;
  auto far = parseHwProfile(j, "t.json");
  ASSERT_TRUE(far.ok()) << far.error().message;
  // (What the op's memory time hid of its terms' time before, it hides no longer: up to the term's time
  // more.)
  const double termUs = 16 * elems * 1e-9 * 1e6,
               moreUs = test::runUnfused(big, *far).kernels.at(0).durUs - cachedUs;
  EXPECT_LE(moreUs, termUs + 0.01);
  EXPECT_GE(moreUs, 0.9 * termUs);
}

// A depthwise Conv on oneDNN's layout passes over its activations three times (the reorder in, the kernel,
// the reorder out): its stream is 3 x (input + output) bytes at the copy bandwidth of the plain and blocked
// copies' footprint, 2 x (input + output). The fit finds that stream's share of the copy bandwidth from
// shapes small and large; the simulator bounds such a Conv by it; other kinds have no activation stream.
TEST(CpuCubeModel, ADepthwiseConvPastTheOwnCacheIsBoundByItsPassesOverItsActivations) {
  auto f = cubeFeatures(convGraph(96, 96, 56, 3, 96, 1, 8), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "depthwise_conv");
  const double acts = 4.0 * 2 * 8 * 96 * 56 * 56;
  EXPECT_DOUBLE_EQ(f->actStreamBytes, 3 * acts);
  EXPECT_DOUBLE_EQ(f->actFootprintBytes, 2 * acts);
  EXPECT_EQ(f->weightStreamBytes, 0.0);
  for (const Graph& g :
       {convGraph(64, 64, 8, 3, 1), convGraph(64, 64, 8, 1, 1), convGraph(64, 64, 8, 3, 8)}) {
    auto h = cubeFeatures(g, 0);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->actStreamBytes, 0.0) << h->kind;
  }
  // The copy moves 100 GB/s up to 8 MB of footprint and 20 GB/s beyond; a known model streams its passes at
  // 0.8 of that, the longer of its terms and the stream.
  auto copyRate = [](double bytes) { return bytes <= 8e6 ? 1e11 : 2e10; };
  CubeTimeModel known;
  known.coef = {0, 1e-10, 1e-10, 2e-11, 0, 4e-6};
  known.weightStreamEfficiency = 0.8;
  std::mt19937 rng(62);
  std::uniform_real_distribution<double> noise(0.98, 1.02);
  std::vector<CubeSample> samples;
  int bound = 0;
  for (int64_t c : {16, 32, 96, 144})
    for (int64_t hw : {7, 14, 28, 56, 112})
      for (int64_t batch : {1, 8}) {
        auto g = cubeFeatures(convGraph(c, c, hw, 3, c, 1, batch), 0);
        ASSERT_TRUE(g.has_value());
        const double t = known.boundedSeconds(*g, copyRate);
        bound += t > 1.1 * known.seconds(*g);
        const double stream = g->actStreamBytes / copyRate(g->actFootprintBytes);
        samples.push_back({*g, t * noise(rng), stream, stream});
      }
  ASSERT_GE(bound, 5);
  auto fit = fitCubeTimeModel(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_NEAR(fit->weightStreamEfficiency, 0.8, 0.051);
  EXPECT_LT(fit->rmsLogError, 0.05);
  // The simulator: on a profile whose depthwise model streams at 0.5 of the copy's bandwidth, the Conv over
  // 8 x 96 x 56 x 56 takes at least its passes at that share; without the stream, its terms alone.
  json j = cpuProfile();
  j["cpu"]["cube_time_models"]["depthwise_conv"] = j["cpu"]["cube_time_models"]["gemm"];
  j["cpu"]["cube_time_models"]["depthwise_conv"]["weight_stream_efficiency"] = 0.5;
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const Graph big = convGraph(96, 96, 56, 3, 96, 1, 8);
  const double streamUs = 3 * acts / (0.5 * hw->cpu.cacheBandwidthFor(2 * acts)) * 1e6;
  const double with = test::runUnfused(big, *hw).kernels.at(0).durUs;
  EXPECT_GE(with, streamUs);
  j["cpu"]["cube_time_models"]["depthwise_conv"].erase("weight_stream_efficiency");
  hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  EXPECT_LT(test::runUnfused(big, *hw).kernels.at(0).durUs, with);
}

// A depthwise Conv's model streams its three passes from their footprint (2 x (input + output)), which past
// the last-level cache is from DRAM: the run's cold share of its activations is not charged on top of that
// stream once the footprint is twice the last-level cache (linearly less from once it). Session 72: over
// the 156 held-out rows of sets 85-93, depthwise Convs over 2.5-15 MB of input were simulated at a median
// exp(+0.23) of their time with both; with the share so, 125 -> 127 rows met, mean per-row median 13.19 ->
// 12.72 %. Over 8 x 96 x 56 x 56 (38.5 MB of footprint), the cold share's bytes are charged with a 1 GB
// last-level cache and not with a 16 MiB one; a Conv whose footprint the cache holds either way is unchanged.
TEST(CpuCubeModel, ADepthwiseConvsPassesFromBeyondTheLastLevelCacheAreNotChargedColdTwice) {
  json j = cpuProfile();
  j["cpu"]["cube_time_models"]["depthwise_conv"] = j["cpu"]["cube_time_models"]["gemm"];
  j["cpu"]["cube_time_models"]["depthwise_conv"]["weight_stream_efficiency"] = 0.5;
  j["cpu"]["cache_drops_bytes"] = {1048576};
  j["cpu"]["cold_bandwidth_bytes_per_s"] = 1e10;
  auto usOf = [&](const Graph& g, double llc) {
    j["l2_bytes"] = llc;
    auto hw = parseHwProfile(j, "t.json");
    EXPECT_TRUE(hw.ok()) << hw.error().message;
    return test::runUnfused(g, *hw).kernels.at(0).durUs;
  };
  const Graph big = convGraph(96, 96, 56, 3, 96, 1, 8), small = convGraph(32, 32, 14, 3, 32, 1, 1);
  const double in = 4.0 * 8 * 96 * 56 * 56, own = 1048576;
  const double footprint = 2 * in + 4.0 * 96 * 9;  // input, output, weights
  const double coldUs = (1 - own / footprint) * ((in - own) + in) / 1e10 * 1e6;
  EXPECT_NEAR(usOf(big, 1e9) - usOf(big, 16.0 * 1048576), coldUs, 0.1 * coldUs);
  EXPECT_DOUBLE_EQ(usOf(small, 1e9), usOf(small, 16.0 * 1048576));
}

// Since session 58 the fit also tries the weights read once an image (weightImageBytes) and a share of the
// shorter of the terms and the stream unhidden: times from a known model that reads them once an image at
// 0.9 of the copy bandwidth, half the shorter on top, give those back; the simulator prices a Conv so; the
// profile carries both and refuses them without a stream.
TEST(CpuCubeModel, TheFitFindsAWeightStreamReadOnceAnImageAndTheShareItDoesNotHide) {
  CubeTimeModel known;
  known.coef = {4e-12, 2e-10, 3e-10, 0, 0, 4e-6};
  known.weightStreamEfficiency = 0.9;
  known.weightStreamPerImage = true;
  known.weightStreamShare = 0.5;
  auto copyRate = [](double) { return 3e10; };
  int streamed = 0;
  const std::vector<CubeSample> samples = convStreamSamples(known, 3e10, 12, streamed, true);
  ASSERT_EQ(samples.size(), 25u);
  ASSERT_GE(streamed, 5);
  auto fit = fitCubeTimeModel(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_TRUE(fit->weightStreamPerImage);
  EXPECT_DOUBLE_EQ(fit->weightStreamShare, 0.5);
  EXPECT_NEAR(fit->weightStreamEfficiency, 0.9, 0.11);  // (the grid's 1.0 trades with the terms here)
  EXPECT_LT(fit->rmsLogError, 0.05);
  for (const auto& sm : samples)
    EXPECT_NEAR(fit->boundedSeconds(sm.features, copyRate) / known.boundedSeconds(sm.features, copyRate), 1.0,
                0.08);
  // The same times read once a row (the reading before): a worse fit.
  std::vector<CubeSample> rowsOnly = samples;
  for (auto& s : rowsOnly) s.imageStreamSeconds = 0;
  auto rows = fitCubeTimeModel(rowsOnly);
  ASSERT_TRUE(rows.ok());
  EXPECT_FALSE(rows->weightStreamPerImage);
  EXPECT_GT(rows->rmsLogError, 2 * fit->rmsLogError);
  // The simulator: a 3x3 Conv 512 -> 512 at 5x5 whose terms take less than its 9.4 MB stream at 0.9 of the
  // profile's copy rate costs the stream plus half its terms (once a row: five rows' worth, or the longer).
  json j = cpuProfile();
  j["cpu"]["cube_time_models"]["conv"] = j["cpu"]["cube_time_models"]["gemm"];
  j["cpu"]["cube_time_models"]["conv"]["weight_stream_efficiency"] = 0.9;
  j["cpu"]["cube_time_models"]["conv"]["weight_stream_reads"] = "image";
  j["cpu"]["cube_time_models"]["conv"]["weight_stream_share"] = 0.5;
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const CubeTimeModel& m = hw->cpu.cubeModels.at("conv");
  EXPECT_TRUE(m.weightStreamPerImage);
  EXPECT_DOUBLE_EQ(m.weightStreamShare, 0.5);
  auto f = cubeFeatures(convGraph(512, 512, 5, 3, 1), 0);
  ASSERT_TRUE(f.has_value());
  auto rate = [&](double b) { return hw->cpu.cacheBandwidthFor(b); };
  const double terms = m.seconds(*f), stream = f->weightBytes / (0.9 * rate(f->weightBytes));
  EXPECT_NEAR(m.boundedSeconds(*f, rate), std::max(terms, stream) + 0.5 * std::min(terms, stream), 1e-12);
  auto back = parseHwProfile(hwProfileToJson(*hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->cpu.cubeModels.at("conv").weightStreamPerImage);
  EXPECT_DOUBLE_EQ(back->cpu.cubeModels.at("conv").weightStreamShare, 0.5);
  const auto refused = test::expectProfileRefused;
  json bad = j;
  bad["cpu"]["cube_time_models"]["conv"]["weight_stream_reads"] = "column";
  refused(bad, "$.cpu.cube_time_models.conv.weight_stream_reads");
  bad = j;
  bad["cpu"]["cube_time_models"]["conv"]["weight_stream_share"] = 1.5;
  refused(bad, "$.cpu.cube_time_models.conv.weight_stream_share");
  bad = j;
  bad["cpu"]["cube_time_models"]["conv"].erase("weight_stream_efficiency");
  refused(bad, "needs weight_stream_efficiency");
}

// A Conv whose model reads its weights once an image was fitted on each weight read from its own footprint's
// distance; in a run whose other weights come between two reads, what the read takes more at the weight
// stream curve's rate for that distance comes on top. Eight 3x3 Convs 512 -> 512 at 5x5 in a chain (9.4 MB
// weights, about 75 MB apart): a curve that falls beyond 16 MiB against a flat one.
TEST(CpuCubeModel, AConvReadingItsWeightsOnceAnImagePaysWhatTheirFarReadTakesMore) {
  Graph g;
  ValueId prev = g.addInput("x", DType::Float32, Shape::ofInts({1, 512, 5, 5}));
  for (int i = 0; i < 8; ++i) {
    ValueId w = g.addInitializer("W" + std::to_string(i),
                                 Tensor::floats({512, 512, 3, 3}, std::vector<float>(512 * 512 * 9, 0.01f)));
    ValueId y = g.addValue("y" + std::to_string(i), DType::Float32, Shape::ofInts({1, 512, 5, 5}));
    g.addNode(
        "Conv", {prev, w}, {y},
        zoo::attrs({Attribute::makeInts("pads", {1, 1, 1, 1}), Attribute::makeInts("kernel_shape", {3, 3})}),
        "conv" + std::to_string(i));
    prev = y;
  }
  g.addOutput(prev);
  auto profile = [&](bool perImage, double farBw) {
    json j = cpuProfile();
    j["cpu"]["cube_time_models"]["conv"] = j["cpu"]["cube_time_models"]["gemm"];
    j["cpu"]["cube_time_models"]["conv"]["weight_stream_efficiency"] = 1.0;
    if (perImage) j["cpu"]["cube_time_models"]["conv"]["weight_stream_reads"] = "image";
    j["cpu"]["cache_drops_bytes"] = {1048576};  // a 1 MiB own cache: reads priced by their distance
    j["cpu"]["weight_stream_curve"] = {{{"bytes", 16.0 * 1024 * 1024}, {"bytes_per_s", 3e10}},
                                       {{"bytes", 1024.0 * 1024 * 1024}, {"bytes_per_s", farBw}}};
    return parseHwProfile(j, "t.json");
  };
  auto mean = [](const SimResult& r) {
    double sum = 0;
    for (const auto& k : r.kernels) sum += k.durUs;
    return sum / static_cast<double>(r.kernels.size());
  };
  auto flat = profile(true, 3e10), falling = profile(true, 1e10), rowFlat = profile(false, 3e10),
       rowFalling = profile(false, 1e10);
  ASSERT_TRUE(flat.ok() && falling.ok() && rowFlat.ok() && rowFalling.ok()) << flat.error().message;
  const double w = 4.0 * 512 * 512 * 9;
  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  std::vector<size_t> order(groups->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const CpuRunReuse r = cpuRunReuse(g, *groups, order, *falling, runFootprintBytes(g, *falling));
  const double ownUs = w / 3e10 * 1e6;
  double extraUs = 0;  // each Conv's read at its distance less at its own footprint's
  for (int i = 0; i < 8; ++i)
    extraUs += r.weightStreamS.at(static_cast<size_t>(g.findNode("conv" + std::to_string(i)))) * 1e6 - ownUs;
  extraUs /= 8;
  ASSERT_GT(extraUs, 0.2 * ownUs);  // tens of MB away: down the falling curve
  const double imageDiff = mean(test::runUnfused(g, *falling)) - mean(test::runUnfused(g, *flat));
  EXPECT_NEAR(imageDiff, extraUs, 0.05 * extraUs);
  // Read once a row (the model's own bound five times the stream): the far read hides under it.
  EXPECT_LT(mean(test::runUnfused(g, *rowFalling)) - mean(test::runUnfused(g, *rowFlat)), 0.1 * imageDiff);
}

TEST(CpuCubeModel, ProfileCarriesTheModelsAndRefusesBadOnes) {
  auto p = parseHwProfile(cpuProfile(), "t.json");
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(p->cpu.cubeModels.count("gemm"), 1u);
  EXPECT_DOUBLE_EQ(p->cpu.cubeModels.at("gemm").coef[4], 1e-10);
  EXPECT_EQ(p->cpu.cubeModels.at("gemm").cases, 9);
  EXPECT_DOUBLE_EQ(p->cpu.cubeModels.at("gemm").coef[6], 0.0);  // written before the aliased-weight term
  EXPECT_TRUE(hwProfileToJson(*p)["cpu"]["cube_time_models"]["gemm"].contains("s_per_aliased_weight_element"));
  EXPECT_DOUBLE_EQ(p->cpu.cubeModels.at("gemm").coef[7], 0.0);  // written before the far-activation term
  EXPECT_TRUE(
      hwProfileToJson(*p)["cpu"]["cube_time_models"]["gemm"].contains("s_per_far_activation_element"));
  auto back = parseHwProfile(hwProfileToJson(*p), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cpu.cubeModels.at("gemm").coef, p->cpu.cubeModels.at("gemm").coef);
  EXPECT_EQ(back->cpu.cubeModels.at("gemm").weightStreamEfficiency, 0.0);  // none: not written, none read
  EXPECT_FALSE(hwProfileToJson(*p)["cpu"]["cube_time_models"]["gemm"].contains("weight_stream_efficiency"));
  {
    json js = cpuProfile();
    js["cpu"]["cube_time_models"]["conv"] = js["cpu"]["cube_time_models"]["gemm"];
    js["cpu"]["cube_time_models"]["conv"]["weight_stream_efficiency"] = 0.75;
    auto ps = parseHwProfile(js, "t.json");
    ASSERT_TRUE(ps.ok()) << ps.error().message;
    EXPECT_DOUBLE_EQ(ps->cpu.cubeModels.at("conv").weightStreamEfficiency, 0.75);
    auto again = parseHwProfile(hwProfileToJson(*ps), "back.json");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_DOUBLE_EQ(again->cpu.cubeModels.at("conv").weightStreamEfficiency, 0.75);
    js["cpu"]["cube_time_models"]["conv"]["weight_stream_efficiency"] = -0.5;
    auto neg = parseHwProfile(js, "t.json");
    ASSERT_FALSE(neg.ok());
    EXPECT_NE(neg.error().message.find("weight_stream_efficiency"), std::string::npos) << neg.error().message;
  }

  json j = cpuProfile();
  j["cpu"]["cube_time_models"]["gemv"] = j["cpu"]["cube_time_models"]["gemm"];
  auto bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("$.cpu.cube_time_models.gemv: not a kind of matrix op"), std::string::npos)
      << bad.error().message;
  j = cpuProfile();
  j["cpu"]["cube_time_models"]["gemm"]["s_per_flop"] = -1;
  EXPECT_FALSE(parseHwProfile(j, "t.json").ok());
  j = cpuProfile();
  j["cpu"]["cube_time_models"]["gemm"]["s_per_far_activation_element"] = "fast";
  bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("s_per_far_activation_element"), std::string::npos)
      << bad.error().message;
  j = cpuProfile();
  j["cpu"]["cube_time_models"]["gemm"]["s_per_aliased_weight_element"] = -1e-10;
  bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("s_per_aliased_weight_element"), std::string::npos) << bad.error().message;
  j = cpuProfile();
  for (const char* k : {"s_per_flop", "s_per_weight_element", "s_per_call"}) j["cpu"]["cube_time_models"]["gemm"][k] = 0;
  bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("at least one coefficient must be positive"), std::string::npos) << bad.error().message;
}

TEST(CpuCubeModel, CpuCostTimesAMatrixOpByItsShapePlusItsWeightsFromDram) {
  auto hw = *parseHwProfile(cpuProfile(), "t.json");
  Graph mm = test::matmul(64, 64, 64);
  auto r = test::runUnfused(mm, hw);
  ASSERT_EQ(r.kernels.size(), 1u);
  // shape model: 2*64^3 FLOPs * 1e-12 + 4096 weights * 1e-10 + 1 us a call; then the weights once from DRAM.
  const double modelUs = (2.0 * 64 * 64 * 64 * 1e-12 + 4096 * 1e-10 + 1e-6) * 1e6;
  const double weightsUs = 4096.0 * 4 / 1e10 * 1e6;
  EXPECT_NEAR(r.kernels[0].durUs, modelUs + weightsUs + 2.0, 1e-3);
  // A measured cost of cold data charges the input, the weights and the output [64,64] instead (the
  // bytes its fit counted), by the share of a run's data the core's own cache cannot hold (the 48 KiB
  // L1 drop is not it; the 1 MiB one is).
  hw.cpu.coldBandwidth = 2.5e9;
  hw.cpu.cacheDropsBytes = {49152, 1 << 20};
  const double footprint = runFootprintBytes(mm, hw);
  EXPECT_DOUBLE_EQ(footprint, 2 * 4096.0 * 4);  // the weights and the output (the input is the caller's)
  EXPECT_DOUBLE_EQ(coldShareOf(hw, footprint), 0.0);  // a 32 KiB run stays in the 1 MiB cache
  EXPECT_DOUBLE_EQ(coldShareOf(hw, 4.0 * (1 << 20)), 0.75);
  r = test::runUnfused(mm, hw);
  // Nothing cold: the shape model's time, or the roofline's traffic (the weights too from cache: they
  // stayed there since the last run) where that is longer.
  const double trafficUs = 3 * 4096.0 * 4 / 1e11 * 1e6;
  EXPECT_NEAR(r.kernels[0].durUs, std::max(modelUs, trafficUs) + 2.0, 1e-3);
  EXPECT_DOUBLE_EQ(r.kernels[0].hbmBytes, 0.0);
  hw.cpu.cacheDropsBytes = {};  // no cache measured: everything counts as cold
  r = test::runUnfused(mm, hw);
  // The input, output and weights cold in full. A model weight runs on the executor's copy in oneDNN's
  // layout, made once (core/exec/Gemm.cpp): its panels stream in while the product computes, so only
  // what their cold time exceeds its arithmetic at the peak rate (100 GFLOP/s: 5.24 us) is charged.
  const double actsColdUs = 2 * 4096.0 * 4 / 2.5e9 * 1e6, weightsColdUs = 4096.0 * 4 / 2.5e9 * 1e6;
  const double mmArithmeticUs = 2.0 * 64 * 64 * 64 / 1e11 * 1e6;
  ASSERT_GT(weightsColdUs, mmArithmeticUs);
  EXPECT_NEAR(r.kernels[0].durUs, modelUs + actsColdUs + (weightsColdUs - mmArithmeticUs) + 2.0, 1e-3);
  hw.cpu.coldBandwidth = 1e10;  // the weights' cold time (1.64 us) under the arithmetic
  r = test::runUnfused(mm, hw);
  EXPECT_NEAR(r.kernels[0].durUs, modelUs + 2 * 4096.0 * 4 / 1e10 * 1e6 + 2.0, 1e-3);
  hw.cpu.coldBandwidth = 2.5e9;
  // A constant B of several batches is read as stored (no copy): charged whole. ([2, 64, 64] by a
  // [2, 64, 64] weight: the same arithmetic per batch, twice the bytes of each.)
  {
    Graph bmm;
    ValueId x = bmm.addInput("x", DType::Float32, Shape::ofInts({2, 64, 64}));
    ValueId w = bmm.addInitializer("W", Tensor::floats({2, 64, 64}, std::vector<float>(2 * 4096, 0.1f)));
    ValueId y = bmm.addValue("y", DType::Float32, Shape::ofInts({2, 64, 64}));
    bmm.addNode("MatMul", {x, w}, {y}, {}, "bmm");
    bmm.addOutput(y);
    auto fast = hw;
    fast.cpu.coldBandwidth = 1e12;
    const double slowUs = test::runUnfused(bmm, hw).kernels.at(0).durUs;
    const double fastUs = test::runUnfused(bmm, fast).kernels.at(0).durUs;
    // Input, weights and output cold: 39.2 us at 2.5 GB/s; overlapped, the weights would save the
    // arithmetic (10.5 us at the peak). At 1 TB/s the roofline's own traffic (about 1 us) is the floor.
    const double wholeUs = 3 * 2 * 4096.0 * 4 / 2.5e9 * 1e6,
                 bmmArithmeticUs = 2.0 * 2 * 64 * 64 * 64 / 1e11 * 1e6;
    EXPECT_GT(slowUs - fastUs, wholeUs - 2.0);
    EXPECT_LT(slowUs - fastUs, wholeUs);
    EXPECT_GT(bmmArithmeticUs, 2.0);
  }
  // A convolution's weights are read in order while it computes: only what their cold time exceeds its
  // arithmetic at the peak rate (100 GFLOP/s here) is charged. (3x3 Conv 16->16 at 8x8 with padding 1:
  // x and y 4096 B each, W 9216 B; 294912 FLOPs, 2.95 us at peak; the weights 3.69 us cold at 2.5 GB/s.)
  {
    Graph conv;
    ValueId x = conv.addInput("x", DType::Float32, Shape::ofInts({1, 16, 8, 8}));
    ValueId w =
        conv.addInitializer("W", Tensor::floats({16, 16, 3, 3}, std::vector<float>(16 * 16 * 9, 0.1f)));
    ValueId y = conv.addValue("y", DType::Float32, Shape::ofInts({1, 16, 8, 8}));
    conv.addNode(
        "Conv", {x, w}, {y},
        zoo::attrs({Attribute::makeInts("kernel_shape", {3, 3}), Attribute::makeInts("pads", {1, 1, 1, 1})}),
        "conv");
    conv.addOutput(y);
    auto c = hw;
    CubeTimeModel perCall;
    perCall.coef[5] = 20e-6;  // 20 us a call, nothing else
    c.cpu.cubeModels["conv"] = perCall;
    const double flops = fw::nodeCost(conv, 0).flops;
    const double arithmeticUs = flops / 1e11 * 1e6, convWeightsColdUs = 9216 / 2.5e9 * 1e6;
    ASSERT_GT(convWeightsColdUs, arithmeticUs);
    const double at25 = test::runUnfused(conv, c).kernels.at(0).durUs;
    EXPECT_NEAR(at25, 20.0 + 8192 / 2.5e9 * 1e6 + (convWeightsColdUs - arithmeticUs) + 2.0, 1e-3);
    c.cpu.coldBandwidth = 1e10;  // the weights' cold time (0.92 us) under the arithmetic
    EXPECT_NEAR(test::runUnfused(conv, c).kernels.at(0).durUs, 20.0 + 8192 / 1e10 * 1e6 + 2.0, 1e-3);
  }
  // A recurrent cell's steps are bound by the weight stream: its weights are charged whole. (LSTM over 10
  // steps, 8 inputs, hidden 16: x 320 B, W and R 6144 B, Y 640 B.)
  {
    Graph lstm;
    ValueId x = lstm.addInput("x", DType::Float32, Shape::ofInts({10, 1, 8}));
    ValueId w = lstm.addInitializer("W", Tensor::floats({1, 64, 8}, std::vector<float>(64 * 8, 0.1f)));
    ValueId rr = lstm.addInitializer("R", Tensor::floats({1, 64, 16}, std::vector<float>(64 * 16, 0.1f)));
    ValueId y = lstm.addValue("y", DType::Float32, Shape::ofInts({10, 1, 1, 16}));
    lstm.addNode("LSTM", {x, w, rr}, {y}, zoo::attrs({Attribute::makeInt("hidden_size", 16)}), "lstm");
    lstm.addOutput(y);
    auto cell = hw;
    CubeTimeModel perCall;
    perCall.coef[5] = 20e-6;  // 20 us a call, nothing else
    cell.cpu.cubeModels["rnn"] = perCall;
    const double at25 = test::runUnfused(lstm, cell).kernels.at(0).durUs;
    cell.cpu.coldBandwidth = 1e12;  // the weights' cold time far below the cell's arithmetic at peak
    const double fast = test::runUnfused(lstm, cell).kernels.at(0).durUs;
    EXPECT_NEAR(at25 - fast, (320.0 + 6144 + 640) * (1 / 2.5e9 - 1 / 1e12) * 1e6, 1e-3);
  }
  // A product of one row reads each weight once as it computes: the shape model's weight terms timed
  // that stream from cache, and the cold stream takes their place (only what it exceeds them is
  // charged). [1,64] by [64,64]: the weight term 4096 * 1e-10 s = 0.41 us, the weights 6.55 us cold.
  {
    Graph mv = test::matmul(1, 64, 64);
    const double mvModelUs = (2.0 * 64 * 64 * 1e-12 + 4096 * 1e-10 + 1e-6) * 1e6;
    const double mvActsColdUs = (64 + 64) * 4 / 2.5e9 * 1e6;
    const double mvWeightsColdUs = 4096.0 * 4 / 2.5e9 * 1e6, weightTermUs = 4096 * 1e-10 * 1e6;
    EXPECT_NEAR(test::runUnfused(mv, hw).kernels.at(0).durUs,
                mvModelUs + mvActsColdUs + (mvWeightsColdUs - weightTermUs) + 2.0, 1e-3);
    // Two rows: a matrix product on the weights' packed copy, which overlaps its arithmetic at the peak.
    Graph two = test::matmul(2, 64, 64);
    const double twoModelUs = (2.0 * 2 * 64 * 64 * 1e-12 + 4096 * 1e-10 + 1e-6) * 1e6;
    EXPECT_NEAR(test::runUnfused(two, hw).kernels.at(0).durUs,
                twoModelUs + (2 * 64 + 2 * 64) * 4 / 2.5e9 * 1e6 + mvWeightsColdUs -
                    2.0 * 2 * 64 * 64 / 1e11 * 1e6 + 2.0,
                1e-3);
    auto fast = hw;
    fast.cpu.coldBandwidth = 1e12;  // the cold stream under the weight term: nothing more; the roofline's
    // traffic (the weights from DRAM at 1e10 B/s, the rest from cache at 1e11) is then the longer
    const double rooflineUs = (4096.0 * 4 / 1e10 + (64 + 64) * 4 / 1e11) * 1e6;
    ASSERT_GT(rooflineUs, mvModelUs);
    EXPECT_NEAR(test::runUnfused(mv, fast).kernels.at(0).durUs, rooflineUs + 2.0, 1e-3);
  }
  auto back = parseHwProfile(hwProfileToJson(hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_DOUBLE_EQ(back->cpu.coldBandwidth, 2.5e9);
  json bad = cpuProfile();
  bad["cpu"]["cold_bandwidth_bytes_per_s"] = 0;
  EXPECT_FALSE(parseHwProfile(bad, "t.json").ok());
  hw.cpu.coldBandwidth = 0;
  // Without a model of its kind, the op takes the kind's rate as before.
  hw.cpu.cubeModels.clear();
  r = test::runUnfused(mm, hw);
  EXPECT_GT(r.kernels[0].durUs, 2.0 + 2.0 * 64 * 64 * 64 / 1e11 * 1e6 - 1e-3);
}

// y = Einsum(equation, x [xDims], W [wDims]) with W an initializer.
Graph einsumGraph(const std::string& eq, const std::vector<int64_t>& xDims, const std::vector<int64_t>& wDims,
                  const std::vector<int64_t>& yDims) {
  Graph g;
  g.name = "einsum";
  int64_t wn = 1;
  for (int64_t d : wDims) wn *= d;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(xDims));
  ValueId w = g.addInitializer("W", Tensor::floats(wDims, std::vector<float>(static_cast<size_t>(wn), 0.5f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(yDims));
  g.addNode("Einsum", {x, w}, {y}, zoo::attrs({Attribute::makeString("equation", eq)}), "einsum");
  g.addOutput(y);
  return g;
}

// A recurrent cell's input projection (X [seq * batch, I] by W[d]^T, one product a direction before the
// steps) as a product of the GEMM model, and the cell without it; a profile whose rnn model names the gemm
// model prices the projection there and the rest on the rnn model.
TEST(CpuCubeModel, ARecurrentCellsInputProjectionIsPricedByTheGemmModelWhereItsModelSaysSo) {
  Graph lstm;
  ValueId x = lstm.addInput("x", DType::Float32, Shape::ofInts({10, 3, 8}));
  ValueId w = lstm.addInitializer("W", Tensor::floats({2, 64, 8}, std::vector<float>(2 * 64 * 8, 0.1f)));
  ValueId rr = lstm.addInitializer("R", Tensor::floats({2, 64, 16}, std::vector<float>(2 * 64 * 16, 0.1f)));
  ValueId y = lstm.addValue("y", DType::Float32, Shape::ofInts({10, 2, 3, 16}));
  lstm.addNode("LSTM", {x, w, rr}, {y},
               zoo::attrs({Attribute::makeInt("hidden_size", 16),
                           Attribute::makeString("direction", "bidirectional")}),
               "lstm");
  lstm.addOutput(y);
  const auto f = cubeFeatures(lstm, 0);
  ASSERT_TRUE(f.has_value());
  const CubeFeatures proj = f->inputProjection();
  EXPECT_EQ(proj.kind, "gemm");
  const double projFlops = 2.0 * 30 * 8 * 64 * 2;  // [30, 8] x [8, 64], both directions
  EXPECT_DOUBLE_EQ(proj.flops, projFlops);
  EXPECT_DOUBLE_EQ(proj.inElems, 30.0 * 8 * 2);
  EXPECT_DOUBLE_EQ(proj.outElems, 30.0 * 64 * 2);
  EXPECT_DOUBLE_EQ(proj.weightElems, 8.0 * 64 * 2);
  EXPECT_DOUBLE_EQ(proj.calls, 2.0);
  const CubeFeatures steps = f->withoutInputProjection();
  EXPECT_DOUBLE_EQ(steps.flops, fw::nodeCost(lstm, 0).flops - projFlops);
  EXPECT_DOUBLE_EQ(steps.patchElems, f->patchElems);
  EXPECT_DOUBLE_EQ(steps.inputProjection().flops, 0.0);

  auto hw = *parseHwProfile(cpuProfile(), "t.json");
  CubeTimeModel cell;
  cell.coef[0] = 1e-10;  // 10 GFLOP/s
  cell.coef[5] = 20e-6;
  hw.cpu.cubeModels["rnn"] = cell;
  const double own = test::runUnfused(lstm, hw).kernels.at(0).durUs;
  hw.cpu.cubeModels["rnn"].projectionKind = "gemm";
  const double split = test::runUnfused(lstm, hw).kernels.at(0).durUs;
  // The projection leaves the rnn model's FLOP term for the gemm model's (cpuProfile(): 1e-12 s a FLOP,
  // 1e-10 a weight element, 1 us a call).
  const CubeTimeModel& gemm = hw.cpu.cubeModels.at("gemm");
  EXPECT_NEAR(split - own, (gemm.seconds(proj) - projFlops * 1e-10) * 1e6, 1e-3);
  EXPECT_LT(split, own);

  // The profile carries the name; only the rnn model may name one, only the gemm model, and one it has.
  auto back = parseHwProfile(hwProfileToJson(hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cpu.cubeModels.at("rnn").projectionKind, "gemm");
  EXPECT_EQ(back->cpu.cubeModels.at("gemm").projectionKind, "");
  json j = hwProfileToJson(hw);
  j["cpu"]["cube_time_models"]["gemm"]["input_projection"] = "gemm";
  auto bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("cube_time_models.gemm.input_projection"), std::string::npos)
      << bad.error().message;
  j = hwProfileToJson(hw);
  j["cpu"]["cube_time_models"]["rnn"]["input_projection"] = "conv";
  EXPECT_FALSE(parseHwProfile(j, "t.json").ok());
  j = hwProfileToJson(hw);
  j["cpu"]["cube_time_models"].erase("gemm");
  bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("cube_time_models.rnn.input_projection: names the gemm model"),
            std::string::npos)
      << bad.error().message;
}

TEST(CpuCubeModel, AnEinsumThatIsOneProductIsCostedAsThatProduct) {
  // MoE experts 'td,edh->eth' over 64 tokens, 8 experts of 256 -> 512: took 17.6 ms simulated as an
  // elementwise op, 1.9 ms measured on the executor's GEMM path. Here: 'bij,bjk->bik' is a batched
  // MatMul of [4,8,16] by [4,16,32], in product order.
  auto hw = *parseHwProfile(cpuProfile(), "t.json");
  hw.cpu.opEfficiency["Transpose"] = 0.01;
  Graph ein = einsumGraph("bij,bjk->bik", {4, 8, 16}, {4, 16, 32}, {4, 8, 32});
  EXPECT_DOUBLE_EQ(fw::nodeCost(ein, 0).flops, 2.0 * 4 * 8 * 16 * 32);
  EXPECT_EQ(nodeFamily(ein, ein.node(0)), OpFamily::Cube);
  const auto f = cubeFeatures(ein, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "gemm");
  EXPECT_DOUBLE_EQ(f->patchElems, 4.0 * 8 * 16);  // the left operand, M x K a batch
  EXPECT_DOUBLE_EQ(f->weightElems, 4.0 * 16 * 32);
  // The same product written as a MatMul costs the same.
  Graph mm;
  {
    ValueId x = mm.addInput("x", DType::Float32, Shape::ofInts({4, 8, 16}));
    ValueId w = mm.addInitializer("W", Tensor::floats({4, 16, 32}, std::vector<float>(4 * 16 * 32, 0.5f)));
    ValueId y = mm.addValue("y", DType::Float32, Shape::ofInts({4, 8, 32}));
    mm.addNode("MatMul", {x, w}, {y}, {}, "mm");
    mm.addOutput(y);
  }
  const double asProduct = test::runUnfused(ein, hw).kernels.at(0).durUs;
  EXPECT_NEAR(asProduct, test::runUnfused(mm, hw).kernels.at(0).durUs, 1e-9);
  // The first operand stored [b, j, i] is copied into [b, i, j] first: 512 elements at the Transpose's
  // rate (peak 1e11 x 0.01).
  Graph moved = einsumGraph("bji,bjk->bik", {4, 16, 8}, {4, 16, 32}, {4, 8, 32});
  EXPECT_NEAR(test::runUnfused(moved, hw).kernels.at(0).durUs - asProduct, 512 / 1e9 * 1e6, 1e-6);
  // The second operand stored [b, k, j] is read transposed, not moved: Gemm(transB)'s model.
  Graph tb = einsumGraph("bij,bkj->bik", {4, 8, 16}, {4, 32, 16}, {4, 8, 32});
  const auto ft = cubeFeatures(tb, 0);
  ASSERT_TRUE(ft.has_value());
  EXPECT_EQ(ft->kind, "gemm_tb");
  // Experts 'td,edh->eth': e the batch, the tokens shared; one library call an expert on the packed copy of
  // its weights, nothing moved. (Small ones, 'ij,bjk->bik' of 8 x 8 x 8, are one batched product on the row
  // loop: SmallBatchedProductsAreTheExecutorsOwnLoop.)
  Graph experts = einsumGraph("td,edh->eth", {8, 16}, {4, 16, 32}, {4, 8, 32});
  const auto fe = cubeFeatures(experts, 0);
  ASSERT_TRUE(fe.has_value());
  EXPECT_EQ(fe->kind, "gemm");
  EXPECT_DOUBLE_EQ(fe->calls, 4.0);
  EXPECT_FALSE(fe->ownLoop);
  // A diagonal is no product: it stays a vector op.
  Graph diag = einsumGraph("bii,bij->bj", {4, 16, 16}, {4, 16, 32}, {4, 32});
  EXPECT_NE(nodeFamily(diag, diag.node(0)), OpFamily::Cube);
  EXPECT_DOUBLE_EQ(fw::nodeCost(diag, 0).flops, 2.0 * 4 * 16 * 32);
  // On an NPU profile it takes the cube unit for the same cycles as the MatMul.
  const HwProfile npu = test::toy();
  const auto npuEin = test::runUnfused(ein, npu), npuMm = test::runUnfused(mm, npu);
  EXPECT_GT(npuEin.kernels.at(0).cubeCycles, 0);
  EXPECT_EQ(npuEin.kernels.at(0).cubeCycles, npuMm.kernels.at(0).cubeCycles);
}

TEST(CpuCubeModel, SmallBatchedProductsAreTheExecutorsOwnLoop) {
  // Batches of at most 16 rows and 2048 multiply-adds each run on the executor's row loop
  // (core/exec/Gemm.cpp): no library call. A shared B is one product over all rows; larger ones are oneDNN's.
  auto matmul = [](std::vector<int64_t> a, std::vector<int64_t> b, std::vector<int64_t> y) {
    Graph g;
    ValueId x = g.addInput("a", DType::Float32, Shape::ofInts(a));
    ValueId w = g.addInput("b", DType::Float32, Shape::ofInts(b));
    ValueId out = g.addValue("y", DType::Float32, Shape::ofInts(y));
    g.addNode("MatMul", {x, w}, {out}, {}, "mm");
    g.addOutput(out);
    return g;
  };
  // Broadcast batch axes run in batched products over the longest run of matrices each operand walks at
  // a fixed step (MatMulShape::batchRun): a shared A ([8, 8] against [5, 3, 8, 8], a block transform) is
  // one run; [2, 64] against [64] two of 64; [3, 1] against [1, 5] three of 5.
  struct Case {
    std::vector<int64_t> a, b, y;
    bool own;
    double calls;
  };
  for (const Case& c : {Case{{64, 2, 16}, {64, 16, 8}, {64, 2, 8}, true, 1},
                        Case{{64, 16, 8}, {64, 8, 16}, {64, 16, 16}, true, 1},
                        Case{{64, 17, 8}, {64, 8, 8}, {64, 17, 8}, false, 1},
                        Case{{64, 16, 16}, {64, 16, 16}, {64, 16, 16}, false, 1},
                        Case{{64, 2, 16}, {16, 8}, {64, 2, 8}, false, 1},
                        Case{{2, 64, 2, 16}, {64, 16, 8}, {2, 64, 2, 8}, true, 2},
                        Case{{8, 8}, {5, 3, 8, 8}, {5, 3, 8, 8}, true, 1},
                        Case{{3, 1, 4, 8}, {1, 5, 8, 8}, {3, 5, 4, 8}, true, 3},
                        Case{{64, 48}, {100, 48, 32}, {100, 64, 32}, false, 1}}) {
    const Graph g = matmul(c.a, c.b, c.y);
    const auto f = cubeFeatures(g, 0);
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->ownLoop, c.own) << c.a.size() << "-d " << c.a[c.a.size() - 2] << "x" << c.a.back() << "x"
                                 << c.b.back();
    EXPECT_DOUBLE_EQ(f->calls, c.calls) << c.a.size() << "-d " << c.a[c.a.size() - 2] << "x" << c.a.back();
  }
  // An Einsum of one batched product follows the same rule, a shared first operand too; read transposed
  // it stays the library's.
  EXPECT_TRUE(cubeFeatures(einsumGraph("bij,bjk->bik", {64, 2, 16}, {64, 16, 8}, {64, 2, 8}), 0)->ownLoop);
  EXPECT_TRUE(cubeFeatures(einsumGraph("ij,bjk->bik", {8, 8}, {500, 8, 8}, {500, 8, 8}), 0)->ownLoop);
  EXPECT_FALSE(cubeFeatures(einsumGraph("bij,bkj->bik", {64, 2, 16}, {64, 8, 16}, {64, 2, 8}), 0)->ownLoop);
}

TEST(CpuCubeModel, ASplitKindTakesItsOwnModelOrItsParentOneOfAnOlderProfile) {
  // (kind, its parent kind, a graph of the kind, a graph of the parent kind)
  struct Split {
    const char *kind, *parent;
    Graph own, other;
  };
  Split splits[] = {
      {"depthwise_conv", "grouped_conv", convGraph(16, 16, 8, 3, 16), convGraph(16, 16, 8, 3, 4)},
      {"pointwise_conv", "conv", convGraph(16, 16, 8, 1, 1), convGraph(16, 16, 8, 3, 1)},
      {"conv1d", "conv", conv1dGraph(16, 16, 64, 3), convGraph(16, 16, 8, 3, 1)},
      {"conv_transpose1d", "conv_transpose", convTransposeGraph(16, 8, 64, 1),
       convTransposeGraph(16, 8, 8, 2)},
      {"conv_transpose_plain", "conv_transpose", convTransposeGraph(16, 3, 8, 2),
       convTransposeGraph(16, 8, 8, 2)}};
  for (const Split& sp : splits) {
    auto hw = *parseHwProfile(cpuProfile(), "t.json");
    CubeTimeModel parent, own;
    parent.coef[5] = 5e-6;  // 5 us a call
    own.coef[5] = 50e-6;    // 50 us a call
    hw.cpu.cubeModels[sp.parent] = parent;
    hw.cpu.cubeModels.erase(sp.kind);
    const double ownOld = test::runUnfused(sp.own, hw).kernels.at(0).durUs, otherOld = test::runUnfused(sp.other, hw).kernels.at(0).durUs;
    hw.cpu.cubeModels[sp.kind] = own;
    const double ownNew = test::runUnfused(sp.own, hw).kernels.at(0).durUs, otherNew = test::runUnfused(sp.other, hw).kernels.at(0).durUs;
    EXPECT_NEAR(ownNew - ownOld, 45.0, 0.01) << sp.kind;  // without a model of its own, the parent's
    EXPECT_DOUBLE_EQ(otherNew, otherOld) << sp.kind;      // the parent kind never takes it
  }
}

// More than 16 input channels a group is a kind of its own whose per-call term counts a call an image and
// group (oneDNN's brgconv); 16 a group stays grouped_conv, one call a Conv. A profile without the kind costs
// it by the grouped model, one call.
TEST(CpuCubeModel, AGroupedConvWiderThan16AGroupCountsACallAnImageAndGroup) {
  const Graph wide = convGraph(48, 48, 8, 3, 2, 1, 3), narrow = convGraph(32, 32, 8, 3, 2, 1, 3);
  auto f = cubeFeatures(wide, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "grouped_conv_wide");
  EXPECT_DOUBLE_EQ(f->calls, 6.0);  // 3 images x 2 groups
  EXPECT_DOUBLE_EQ(f->vec()[5], 6.0);
  const double inside = (8.0 * 3 - 2) / (8 * 3) * ((8.0 * 3 - 2) / (8 * 3));
  EXPECT_DOUBLE_EQ(f->patchElems, 3.0 * 48 * 64 * (24 * 9) / 24 * inside);
  f = cubeFeatures(narrow, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "grouped_conv");
  EXPECT_DOUBLE_EQ(f->calls, 1.0);
  auto hw = *parseHwProfile(cpuProfile(), "t.json");
  CubeTimeModel parent, own;
  parent.coef[5] = 5e-6;  // 5 us a call
  own.coef[5] = 50e-6;    // 50 us a call
  hw.cpu.cubeModels["grouped_conv"] = parent;
  hw.cpu.cubeModels.erase("grouped_conv_wide");
  const double wideOld = test::runUnfused(wide, hw).kernels.at(0).durUs,
               narrowOld = test::runUnfused(narrow, hw).kernels.at(0).durUs;
  hw.cpu.cubeModels["grouped_conv_wide"] = own;
  const double wideNew = test::runUnfused(wide, hw).kernels.at(0).durUs,
               narrowNew = test::runUnfused(narrow, hw).kernels.at(0).durUs;
  EXPECT_NEAR(wideNew - wideOld, 6 * 50.0 - 5.0,
              0.01);  // six calls of its own model against the parent's one
  EXPECT_DOUBLE_EQ(narrowNew, narrowOld);
}

// A profile's block field `key` (CpuFigures::*field): 1 when absent; set to 16, graph g's only kernel, costed by
// a per-FLOP model of `kind` (10 GFLOP/s), takes the time of `extraFlops` more; it survives a round trip;
// 0 and 2000 are refused, naming the field.
void expectBlockField(const char* key, int64_t CpuFigures::*field, const char* kind, const Graph& g, double extraFlops) {
  json j = cpuProfile();
  CubeTimeModel perFlop;
  perFlop.coef[0] = 1e-10;  // 10 GFLOP/s, nothing else
  auto hw = *parseHwProfile(j, "t.json");
  EXPECT_EQ(hw.cpu.*field, 1) << key;
  hw.cpu.cubeModels[kind] = perFlop;
  const double unpadded = test::runUnfused(g, hw).kernels.at(0).durUs;
  hw.cpu.*field = 16;
  const double padded = test::runUnfused(g, hw).kernels.at(0).durUs;
  EXPECT_NEAR(padded - unpadded, extraFlops * 1e-10 * 1e6, 1e-6) << key;
  auto back = parseHwProfile(hwProfileToJson(hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cpu.*field, 16) << key;
  for (int bad : {0, 2000}) {
    j["cpu"][key] = bad;
    auto r = parseHwProfile(j, "t.json");
    ASSERT_FALSE(r.ok()) << key << " " << bad;
    EXPECT_NE(r.error().message.find(key), std::string::npos) << r.error().message;
  }
}

TEST(CpuCubeModel, APointwiseConvComputesItsPositionsInWholeBlocks) {
  // 7x7 = 49 positions: blocks of 16 compute 64 of them, blocks of 8 compute 56; 8x8 = 64 is whole.
  auto f = cubeFeatures(convGraph(32, 64, 7, 1, 1), 0);
  ASSERT_TRUE(f.has_value());
  ASSERT_EQ(f->kind, "pointwise_conv");
  EXPECT_DOUBLE_EQ(f->withPositionBlock(16).flops, f->flops * 64 / 49);
  EXPECT_DOUBLE_EQ(f->withPositionBlock(8).flops, f->flops * 56 / 49);
  EXPECT_DOUBLE_EQ(f->withPositionBlock(1).flops, f->flops);
  EXPECT_DOUBLE_EQ(f->withPositionBlock(16).outElems, f->outElems);  // only the arithmetic is padded
  auto whole = cubeFeatures(convGraph(32, 64, 8, 1, 1), 0);
  ASSERT_TRUE(whole.has_value());
  EXPECT_DOUBLE_EQ(whole->withPositionBlock(16).flops, whole->flops);
  auto dense = cubeFeatures(convGraph(32, 64, 7, 3, 1), 0);  // not pointwise: never padded
  ASSERT_TRUE(dense.has_value());
  EXPECT_DOUBLE_EQ(dense->withPositionBlock(16).flops, dense->flops);

  // The profile carries the block; the cost of a 7x7 pointwise Conv follows it.
  expectBlockField("pointwise_position_block", &CpuFigures::pointwisePositionBlock, "pointwise_conv", convGraph(32, 64, 7, 1, 1),
                   f->flops * (64.0 / 49 - 1));
}

// A 1x1 Conv over a few positions an image, not whole blocks of the library's, over a batch is one product
// over the images' columns gathered (exec::pointwiseImagesGathered): its columns all the images' positions,
// the weight read once, the gather's copy and the copy back its "patch" term (and a strided one's copy
// before it). One image,
// or positions in whole blocks: a product an image, the weight read once an image, a library call an image,
// no copy at stride 1.
TEST(CpuCubeModel, APointwiseConvOfFewPositionsOverABatchIsOneProductOverTheImagesGathered) {
  auto pw = [](int64_t images, int64_t side, int64_t stride) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({images, 64, side, side}));
    const int64_t out = (side - 1) / stride + 1;
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({images, 16, out, out}));
    g.addNode("Conv",
              {x, g.addInitializer("W", Tensor::floats({16, 64, 1, 1}, std::vector<float>(1024, 0.1f)))}, {y},
              zoo::attrs({Attribute::makeInts("kernel_shape", {1, 1}),
                          Attribute::makeInts("strides", {stride, stride})}),
              "pw");
    g.addOutput(y);
    return g;
  };
  const auto gathered = cubeFeatures(pw(8, 3, 1), 0);
  ASSERT_TRUE(gathered.has_value());
  EXPECT_EQ(gathered->kind, "pointwise_conv");
  EXPECT_TRUE(gathered->plainProduct);
  EXPECT_DOUBLE_EQ(gathered->positions, 8.0 * 9);
  EXPECT_DOUBLE_EQ(gathered->weightElems, 16.0 * 64);
  // The copies: the images' columns gathered (64 input channels) and the product's copied back (16 outputs).
  EXPECT_DOUBLE_EQ(gathered->patchElems, 8.0 * 64 * 9 + 8.0 * 16 * 9);
  EXPECT_DOUBLE_EQ(gathered->flops, 2.0 * 8 * 9 * 64 * 16);
  // Its columns padded to a block of 16: 72 -> 80, where a product an image padded each 9 to 16.
  EXPECT_DOUBLE_EQ(gathered->withPositionBlock(16).flops, 2.0 * 80 * 64 * 16);
  const auto strided = cubeFeatures(pw(8, 6, 2), 0);  // 3x3 read of 6x6: copied out, then gathered
  ASSERT_TRUE(strided.has_value());
  EXPECT_DOUBLE_EQ(strided->positions, 8.0 * 9);
  EXPECT_DOUBLE_EQ(strided->weightElems, 16.0 * 64);
  EXPECT_DOUBLE_EQ(strided->patchElems, 2 * 8.0 * 64 * 9 + 8.0 * 16 * 9);
  const auto one = cubeFeatures(pw(1, 3, 1), 0);
  ASSERT_TRUE(one.has_value());
  EXPECT_DOUBLE_EQ(one->positions, 9.0);
  EXPECT_DOUBLE_EQ(one->weightElems, 16.0 * 64);
  EXPECT_DOUBLE_EQ(one->patchElems, 0.0);
  const auto blocks = cubeFeatures(pw(8, 4, 1), 0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_DOUBLE_EQ(blocks->positions, 16.0);
  EXPECT_DOUBLE_EQ(blocks->weightElems, 8.0 * 16 * 64);
  EXPECT_DOUBLE_EQ(blocks->patchElems, 0.0);
  // The library calls: one an image for a product an image, one for the gathered product or one image.
  EXPECT_DOUBLE_EQ(blocks->calls, 8.0);
  EXPECT_DOUBLE_EQ(gathered->calls, 1.0);
  EXPECT_DOUBLE_EQ(strided->calls, 1.0);
  EXPECT_DOUBLE_EQ(one->calls, 1.0);
  // Its weight's stream, bytes read from the weight's own footprint: once a product (session 75).
  for (const auto& f : {gathered, strided, one, blocks}) EXPECT_DOUBLE_EQ(f->weightBytes, 4.0 * 16 * 64);
  EXPECT_DOUBLE_EQ(gathered->weightImageBytes, 4.0 * 16 * 64);
  EXPECT_DOUBLE_EQ(strided->weightImageBytes, 4.0 * 16 * 64);
  EXPECT_DOUBLE_EQ(one->weightImageBytes, 4.0 * 16 * 64);
  EXPECT_DOUBLE_EQ(blocks->weightImageBytes, 8 * 4.0 * 16 * 64);
  EXPECT_DOUBLE_EQ(blocks->weightStreamBytes, blocks->weightImageBytes);
  // A Conv whose kernel covers the leading axis whole (exec::rowsAsChannels) is the pointwise Conv of its
  // rows over the last axis: gathered over 37 positions an image, a product an image over 32.
  auto bank = [](int64_t len) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({4, 8, 22, len}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({4, 16, 1, len}));
    g.addNode(
        "Conv",
        {x, g.addInitializer("W", Tensor::floats({16, 8, 22, 1}, std::vector<float>(16 * 8 * 22, 0.1f)))},
        {y}, zoo::attrs({Attribute::makeInts("kernel_shape", {22, 1})}), "bank");
    g.addOutput(y);
    return g;
  };
  const auto rows = cubeFeatures(bank(37), 0);
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(rows->kind, "pointwise_conv");
  EXPECT_DOUBLE_EQ(rows->positions, 4.0 * 37);
  EXPECT_DOUBLE_EQ(rows->weightElems, 16.0 * 8 * 22);
  EXPECT_DOUBLE_EQ(rows->patchElems, 4.0 * 8 * 22 * 37 + 4.0 * 16 * 37);
  EXPECT_DOUBLE_EQ(rows->calls, 1.0);
  const auto rowBlocks = cubeFeatures(bank(32), 0);
  ASSERT_TRUE(rowBlocks.has_value());
  EXPECT_DOUBLE_EQ(rowBlocks->positions, 32.0);
  EXPECT_DOUBLE_EQ(rowBlocks->weightElems, 4.0 * 16 * 8 * 22);
  EXPECT_DOUBLE_EQ(rowBlocks->patchElems, 0.0);
  EXPECT_DOUBLE_EQ(rowBlocks->calls, 4.0);
}

// A 1x1 Conv over one position an image (a squeeze-excitation's, after a global pool), with a bias or
// none: one image runs the executor's rows-dot-vector loop (core/exec/Gemm.cpp), gemm_col's features, its
// call as cold as a vector op's (the executor's code, not the library's); a batch of them is one library
// product of the images' rows by the weight transposed (exec::pointwiseImagesAsOneProduct), gemm_tb's
// features with the weight read once, its call the library's. Both on the plain layout. Over more
// positions it stays a pointwise Conv.
TEST(CpuCubeModel, AOnePositionConvIsTheRowsDotVectorLoopAloneAndOneProductOverABatch) {
  auto se = [](bool bias, int64_t images, int64_t side) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({images, 64, side, side}));
    std::vector<ValueId> ins = {
        x, g.addInitializer("W", Tensor::floats({16, 64, 1, 1}, std::vector<float>(1024, 0.1f)))};
    if (bias) ins.push_back(g.addInitializer("B", Tensor::floats({16}, std::vector<float>(16, 0.5f))));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({images, 16, side, side}));
    g.addNode("Conv", ins, {y}, zoo::attrs({Attribute::makeInts("kernel_shape", {1, 1})}), "se");
    g.addOutput(y);
    // 32 MiB streamed between two of its calls: its call is cold.
    ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({4 << 20}));
    ValueId nb = g.addValue("nbig", DType::Float32, Shape::ofInts({4 << 20}));
    g.addNode("Neg", {big}, {nb}, {}, "negbig");
    g.addOutput(nb);
    return g;
  };
  for (const bool bias : {true, false}) {
    const auto one = cubeFeatures(se(bias, 1, 1), 0);
    ASSERT_TRUE(one.has_value());
    EXPECT_EQ(one->kind, "gemm_col");
    EXPECT_TRUE(one->ownLoop);
    EXPECT_TRUE(one->plainProduct);
    EXPECT_DOUBLE_EQ(one->calls, 1.0);
    EXPECT_DOUBLE_EQ(one->patchElems, 16.0 * 64);
    const auto batch = cubeFeatures(se(bias, 8, 1), 0);
    ASSERT_TRUE(batch.has_value());
    EXPECT_EQ(batch->kind, "gemm_tb");
    EXPECT_FALSE(batch->ownLoop);
    EXPECT_TRUE(batch->plainProduct);
    EXPECT_DOUBLE_EQ(batch->calls, 1.0);
    EXPECT_DOUBLE_EQ(batch->patchElems, 8.0 * 64);
    EXPECT_DOUBLE_EQ(batch->weightElems, 16.0 * 64);
    EXPECT_DOUBLE_EQ(batch->outElems, 8.0 * 16);
  }
  const auto other = cubeFeatures(se(true, 8, 2), 0);
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->kind, "pointwise_conv");
  EXPECT_FALSE(other->ownLoop);
  // The one image's cold call is the vector figure, the batch's the library's: a product's of 1 ms shows
  // there only.
  json j = cpuProfile();
  j["cpu"]["cold_call_s"] = {{"product", 1e-3}, {"vector", 0.0}};
  j["cpu"]["cache_drops_bytes"] = {49152, 1 << 20};
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  EXPECT_LT(test::runUnfused(se(true, 1, 1), *hw).kernels.at(0).durUs, 100.0);
  EXPECT_GT(test::runUnfused(se(true, 8, 1), *hw).kernels.at(0).durUs, 900.0);
  EXPECT_GT(test::runUnfused(se(true, 8, 2), *hw).kernels.at(0).durUs, 900.0);
}

TEST(CpuCubeModel, ADenseConvComputesItsOutputChannelsInWholeBlocks) {
  // 24 output channels: blocks of 16 compute 32, blocks of 8 exactly 24. Pointwise and grouped Convs
  // keep their FLOPs (their kernels block differently).
  auto f = cubeFeatures(convGraph(16, 24, 14, 3, 1), 0);
  ASSERT_TRUE(f.has_value());
  ASSERT_EQ(f->kind, "conv");
  EXPECT_DOUBLE_EQ(f->outChannels, 24);
  EXPECT_DOUBLE_EQ(f->withChannelBlock(16).flops, f->flops * 32 / 24);
  EXPECT_DOUBLE_EQ(f->withChannelBlock(8).flops, f->flops);
  EXPECT_DOUBLE_EQ(f->withChannelBlock(1).flops, f->flops);
  EXPECT_DOUBLE_EQ(f->withChannelBlock(16).outElems, f->outElems);  // only the arithmetic is padded
  auto pw = cubeFeatures(convGraph(16, 24, 14, 1, 1), 0);
  ASSERT_TRUE(pw.has_value());
  EXPECT_DOUBLE_EQ(pw->withChannelBlock(16).flops, pw->flops);
  auto grouped = cubeFeatures(convGraph(16, 24, 14, 3, 2), 0);
  ASSERT_TRUE(grouped.has_value());
  EXPECT_EQ(grouped->kind, "grouped_conv");
  EXPECT_DOUBLE_EQ(grouped->withChannelBlock(16).flops, grouped->flops);

  // The profile carries the block; the cost of the Conv follows it.
  expectBlockField("conv_channel_block", &CpuFigures::convChannelBlock, "conv", convGraph(16, 24, 14, 3, 1),
                   f->flops * (32.0 / 24 - 1));
}

TEST(CpuCubeModel, AConvTransposeComputesItsOutputChannelsInWholeBlocks) {
  // W [C, M/group, k, k]: 32 -> 24 channels, a 4x4 stride-2 upsampling; 24 channels compute as 32.
  Graph g = convTransposeGraph(32, 24, 12, 2);
  auto f = cubeFeatures(g, 0);
  ASSERT_TRUE(f.has_value());
  ASSERT_EQ(f->kind, "conv_transpose");
  EXPECT_DOUBLE_EQ(f->outChannels, 24);
  EXPECT_DOUBLE_EQ(f->withChannelBlock(16).flops, f->flops * 32 / 24);
}

// At most 4 output channels (one group) the executor runs a ConvTranspose on oneDNN's GEMM path over the
// plain layout, 1-D or 2-D: its own kind, no channel blocks, and the "patch" term counts the column buffer
// the product writes, C x (M x prod(kernel)) an input position's worth: FLOPs / (2 C). Five channels, or
// two groups of three, keep the blocked kernel's kind.
TEST(CpuCubeModel, AConvTransposeOfAFewOutputChannelsIsCostedAsTheGemmPathOnThePlainLayout) {
  for (size_t dims : {size_t{1}, size_t{2}}) {
    for (int64_t m : {1, 3, 4}) {
      auto f = cubeFeatures(convTransposeGraph(32, m, 12, dims), 0);
      ASSERT_TRUE(f.has_value());
      EXPECT_EQ(f->kind, "conv_transpose_plain") << m << " channels, " << dims << "-D";
      const double positions = dims == 1 ? 12.0 : 144.0, taps = dims == 1 ? 4.0 : 16.0;
      EXPECT_DOUBLE_EQ(f->flops, 2.0 * 32 * positions * m * taps);
      EXPECT_DOUBLE_EQ(f->patchElems, positions * m * taps);
      EXPECT_DOUBLE_EQ(f->withChannelBlock(16).flops, f->flops);
    }
  }
  auto five = cubeFeatures(convTransposeGraph(32, 5, 12, 2), 0);
  ASSERT_TRUE(five.has_value());
  EXPECT_EQ(five->kind, "conv_transpose");
  Graph grouped = convTransposeGraph(32, 3, 12, 2);
  grouped.node(0).attrs.set(Attribute::makeInt("group", 2));
  auto g2 = cubeFeatures(grouped, 0);
  ASSERT_TRUE(g2.has_value());
  EXPECT_EQ(g2->kind, "conv_transpose");
}

TEST(CpuCubeModel, ConvFlopsCountOnlyTheTapsInsideTheInput) {
  // 3x3, pad 1 at 7x7: per axis the first and last output positions lose one tap each, 19 of 21.
  auto f = cubeFeatures(convGraph(16, 16, 7, 3, 1), 0);
  ASSERT_TRUE(f.has_value());
  const double full = 2.0 * 49 * 16 * 16 * 9;
  EXPECT_NEAR(f->flops, full * (19.0 / 21) * (19.0 / 21), 1e-6);
  EXPECT_NEAR(f->patchElems, 49.0 * 16 * 9 * (19.0 / 21) * (19.0 / 21), 1e-6);
  // A depthwise one the same way.
  f = cubeFeatures(convGraph(16, 16, 7, 3, 16), 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_NEAR(f->flops, 2.0 * 49 * 16 * 9 * (19.0 / 21) * (19.0 / 21), 1e-6);
  // An atrous 3x3 whose dilation (8) exceeds the 4x4 image, padded by 8: only the centre tap reads it.
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, 8, 4, 4}));
  ValueId w = g.addInitializer("W", Tensor::floats({8, 8, 3, 3}, std::vector<float>(8 * 8 * 9, 0.1f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1, 8, 4, 4}));
  g.addNode("Conv", {x, w}, {y},
            zoo::attrs({Attribute::makeInts("pads", {8, 8, 8, 8}), Attribute::makeInts("dilations", {8, 8}),
                        Attribute::makeInts("kernel_shape", {3, 3})}),
            "atrous");
  g.addOutput(y);
  f = cubeFeatures(g, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "conv");
  EXPECT_NEAR(f->flops, 2.0 * 16 * 8 * 8 * 9 / 9, 1e-6);
  // Nor does it read the other taps' weights: its weight term counts the centre tap's, its stream that tap's
  // once an output row (one row of taps inside, one of its three columns reached); a 3x3 at dilation 1 reads
  // every tap's (each reached by some output), each row's stream its inside taps' rows.
  EXPECT_NEAR(f->weightElems, 8.0 * 8 * 9 / 9, 1e-9);
  EXPECT_NEAR(f->weightStreamBytes, 4.0 * 8 * 8 * 9 * 4 * (1.0 / 3) * (1.0 / 3), 1e-9);
  EXPECT_NEAR(f->weightImageBytes, 4.0 * 8 * 8 * 9 / 9, 1e-9);
  auto plain = cubeFeatures(convGraph(16, 16, 7, 3, 1), 0);
  ASSERT_TRUE(plain.has_value());
  EXPECT_NEAR(plain->weightElems, 16.0 * 16 * 9, 1e-9);
  EXPECT_NEAR(plain->weightStreamBytes, 4.0 * 16 * 16 * 9 * 7 * (19.0 / 21), 1e-9);
  EXPECT_NEAR(plain->weightImageBytes, 4.0 * 16 * 16 * 9, 1e-9);
  // auto_pad SAME_UPPER at stride 1 pads a 3x3 by 1 on each side: as the explicit pads.
  Graph same;
  x = same.addInput("x", DType::Float32, Shape::ofInts({1, 16, 7, 7}));
  w = same.addInitializer("W", Tensor::floats({16, 16, 3, 3}, std::vector<float>(16 * 16 * 9, 0.1f)));
  y = same.addValue("y", DType::Float32, Shape::ofInts({1, 16, 7, 7}));
  same.addNode("Conv", {x, w}, {y}, zoo::attrs({Attribute::makeString("auto_pad", "SAME_UPPER")}), "same");
  same.addOutput(y);
  f = cubeFeatures(same, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_NEAR(f->flops, full * (19.0 / 21) * (19.0 / 21), 1e-6);
}

}  // namespace
}  // namespace fw::sim
