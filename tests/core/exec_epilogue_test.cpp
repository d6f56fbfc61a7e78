// Relu epilogues in the executor: a Relu that is the only reader of a Conv (plain and pointwise),
// ConvTranspose, BatchNormalization or Add output is computed with its producer. Results equal the node-by-node
// run (keepIntermediates turns the epilogues off), NaN stays NaN, and a producer output read by
// anything else is left alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "tests/core/exec_test_util.h"

using fw::Tensor;
using fwtest::noise;

namespace {

// x -> Conv(k) -> BatchNormalization -> Relu -> Conv(1x1, bias) -> Relu -> Add(residual) -> Relu, and
// optionally a second reader of the first Relu's input (then that epilogue must not happen).
fw::Model chain(int64_t kernel, bool extraReader) {
  auto g = std::make_shared<fw::Graph>();
  const int64_t C = 8;
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({1, C, 9, 9}));
  auto w1 = g->addInitializer("w1", noise({C, C, kernel, kernel}, 1));
  auto w2 = g->addInitializer("w2", noise({C, C, 1, 1}, 2));
  auto b2 = g->addInitializer("b2", noise({C}, 3));
  auto scale = g->addInitializer("scale", noise({C}, 4));
  auto bias = g->addInitializer("bias", noise({C}, 5));
  auto mean = g->addInitializer("mean", noise({C}, 6));
  std::vector<float> var(C, 0.5f);
  auto vr = g->addInitializer("var", Tensor::floats({C}, var));
  auto c1 = g->addValue("c1"), bn = g->addValue("bn"), r1 = g->addValue("r1"), c2 = g->addValue("c2"),
       r2 = g->addValue("r2"), sum = g->addValue("sum"), y = g->addValue("y");
  fw::Attributes pads;
  pads.set(fw::Attribute::makeInts("pads", {kernel / 2, kernel / 2, kernel / 2, kernel / 2}));
  g->addNode("Conv", {x, w1}, {c1}, pads, "conv1");
  g->addNode("BatchNormalization", {c1, scale, bias, mean, vr}, {bn}, {}, "bn1");
  g->addNode("Relu", {bn}, {r1}, {}, "relu1");
  g->addNode("Conv", {r1, w2, b2}, {c2}, {}, "conv2");
  g->addNode("Relu", {c2}, {r2}, {}, "relu2");
  g->addNode("Add", {r2, x}, {sum}, {}, "add");
  g->addNode("Relu", {sum}, {y}, {}, "relu3");
  g->addOutput(y);
  if (extraReader) {
    auto t = g->addValue("bn_tanh");
    g->addNode("Tanh", {bn}, {t}, {}, "tanh");
    g->addOutput(t);
  }
  fw::Model m;
  m.opsetImports[""] = 17;
  m.graph = g;
  return m;
}

double maxAbsDiff(const Tensor& a, const Tensor& b) {
  const auto x = a.toFloats(), y = b.toFloats();
  EXPECT_EQ(x.size(), y.size());
  double d = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) d = std::max(d, std::fabs(static_cast<double>(x[i]) - y[i]));
  return d;
}

// g (opset 17) run on `xt` node by node (keepIntermediates: no epilogues) and as the executor runs it:
// {node by node, as run}, the first output flattened; empty after a failed run.
std::pair<std::vector<float>, std::vector<float>> nodeByNodeAndAsRun(std::shared_ptr<fw::Graph> g,
                                                                     const Tensor& xt, int threads = 0) {
  fw::Model m;
  m.opsetImports[""] = 17;
  m.graph = std::move(g);
  fw::ExecOptions plain, run;
  plain.keepIntermediates = true;
  plain.threads = run.threads = threads;
  auto want = fw::runGraph(m, {xt}, plain);
  auto got = fw::runGraph(m, {xt}, run);
  EXPECT_TRUE(want.ok() && got.ok()) << (want.ok() ? got.error().message : want.error().message);
  if (!want.ok() || !got.ok()) return {};
  return {(*want)[0].toFloats(), (*got)[0].toFloats()};
}

// x -> op(x, w, b) with `a` -> Relu, run on `xt` node by node (no epilogues) and as the executor runs
// it (the Relu in its producer): {node by node, with epilogues}, outputs flattened.
std::pair<std::vector<float>, std::vector<float>> opThenRelu(const std::string& op, const Tensor& xt,
                                                             const Tensor& wt, const Tensor& bt,
                                                             const fw::Attributes& a, int threads = 0) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts(xt.dims()));
  auto w = g->addInitializer("w", wt);
  auto b = g->addInitializer("b", bt);
  auto c = g->addValue("c"), y = g->addValue("y");
  g->addNode(op, {x, w, b}, {c}, a, "op");
  g->addNode("Relu", {c}, {y}, {}, "relu");
  g->addOutput(y);
  return nodeByNodeAndAsRun(g, xt, threads);
}

}  // namespace

TEST(ExecEpilogue, ReluWithItsProducerEqualsNodeByNode) {
  for (int64_t kernel : {1, 3})
    for (bool extra : {false, true}) {
      const auto m = chain(kernel, extra);
      const std::vector<Tensor> in{noise({1, 8, 9, 9}, 9)};
      fw::ExecOptions plain;
      plain.keepIntermediates = true;  // every value as computed: no epilogues
      auto want = fw::runGraph(m, in, plain);
      auto got = fw::runGraph(m, in);
      ASSERT_TRUE(want.ok() && got.ok()) << (want.ok() ? got.error().message : want.error().message);
      ASSERT_EQ(got->size(), want->size());
      for (size_t k = 0; k < got->size(); ++k)
        EXPECT_EQ(maxAbsDiff((*got)[k], (*want)[k]), 0.0) << "kernel " << kernel << " extra reader " << extra;
      const auto y = (*got)[0].toFloats();
      int zeros = 0;
      for (float v : y) zeros += v == 0.f;
      EXPECT_GT(zeros, 0);  // the last Relu did clip
      if (extra) {  // tanh(bn) saw BatchNormalization's own output, negative values included
        int negative = 0;
        for (float v : (*got)[1].toFloats()) negative += v < 0;
        EXPECT_GT(negative, 0);
      }
    }
}

// BatchNormalization over rows of channels ([N, C], one element a channel and row, as after a Linear) and
// over [N, C, L]: the result matches a direct float64 reference, and the Relu epilogue the node-by-node run.
TEST(ExecEpilogue, BatchNormOverRowsOfChannelsMatchesADirectReference) {
  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{37, 19}, std::vector<int64_t>{3, 19, 5}}) {
    const int64_t C = dims[1];
    const Tensor xt = noise(dims, 41), st = noise({C}, 42), bt = noise({C}, 43), mt = noise({C}, 44);
    std::vector<float> var(static_cast<size_t>(C));
    for (int64_t c = 0; c < C; ++c) var[static_cast<size_t>(c)] = 0.25f + 0.1f * static_cast<float>(c);
    auto g = std::make_shared<fw::Graph>();
    auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts(dims));
    auto s = g->addInitializer("s", st), b = g->addInitializer("b", bt), m = g->addInitializer("m", mt),
         v = g->addInitializer("v", Tensor::floats({C}, var));
    auto n = g->addValue("n"), y = g->addValue("y");
    g->addNode("BatchNormalization", {x, s, b, m, v}, {n}, {}, "bn");
    g->addNode("Relu", {n}, {y}, {}, "relu");
    g->addOutput(y);
    const auto [wy, gy] = nodeByNodeAndAsRun(g, xt);
    const auto xv = xt.toFloats(), sv = st.toFloats(), bv = bt.toFloats(), mv = mt.toFloats();
    ASSERT_EQ(gy.size(), xv.size());
    ASSERT_EQ(wy.size(), xv.size());
    const int64_t inner = static_cast<int64_t>(xv.size()) / (dims[0] * C);
    int zeros = 0;
    for (size_t i = 0; i < xv.size(); ++i) {
      const auto c = static_cast<size_t>((static_cast<int64_t>(i) / inner) % C);
      const double r = (xv[i] - mv[c]) / std::sqrt(static_cast<double>(var[c]) + 1e-5) * sv[c] + bv[c];
      EXPECT_NEAR(gy[i], std::max(r, 0.0), 1e-5) << i;
      EXPECT_EQ(gy[i], wy[i]) << i;
      zeros += gy[i] == 0.f;
    }
    EXPECT_GT(zeros, 0);
  }
}

// A Conv that oneDNN runs on its GEMM path (3 input channels, padded, on plain layouts; unless the input
// padded first runs faster, decided once a shape) gets its Relu as a pass of the executor's own after the
// product, not as the library's post-op (13 ms against 0.34 for 3 -> 64 at 128 x 128): the result equals the
// node-by-node run and the Relu did clip.
TEST(ExecEpilogue, AConvOnTheGemmPathWithItsReluEqualsNodeByNode) {
  const auto a = fwtest::attrs({fw::Attribute::makeInts("kernel_shape", {3, 3}),
                                fw::Attribute::makeInts("strides", {2, 2}),
                                fw::Attribute::makeInts("pads", {1, 1, 1, 1})});
  // On one thread and on two (the pass split over the executor's threads, session 52).
  for (int threads : {1, 2}) {
    const auto [want, got] = opThenRelu("Conv", noise({2, 3, 128, 128}, 51), noise({64, 3, 3, 3}, 52),
                                        noise({64}, 53), a, threads);
    ASSERT_EQ(got.size(), static_cast<size_t>(2 * 64 * 64 * 64));
    ASSERT_EQ(want.size(), got.size());
    int zeros = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], want[i]) << i << " on " << threads << " thread(s)";
      zeros += got[i] == 0.f;
    }
    EXPECT_GT(zeros, 0);
  }
}

TEST(ExecEpilogue, ReluKeepsNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = fwtest::runOne("Relu", {{"x", Tensor::floats({4}, {-1.f, nan, 2.f, -0.5f})}});
  ASSERT_TRUE(r.ok());
  const auto y = (*r)[0].toFloats();
  EXPECT_EQ(y[0], 0.f);
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], 2.f);
  EXPECT_EQ(y[3], 0.f);
}

// ConvTranspose's bias and Relu are applied by the executor on the plain output (oneDNN 2.6 does
// them in a slow reference loop): the result matches a direct float64 transposed convolution, the
// Relu epilogue equals the node-by-node run, and a NaN input stays NaN through both.
TEST(ExecEpilogue, ConvTransposeBiasAndReluMatchADirectReference) {
  const int64_t C = 5, M = 3, H = 6, K = 4, S = 2, P = 1, OH = (H - 1) * S - 2 * P + K;
  for (bool withNaN : {false, true}) {
    const Tensor wt = noise({C, M, K, K}, 21), bt = noise({M}, 22);
    fw::Attributes a;
    a.set(fw::Attribute::makeInts("kernel_shape", {K, K}));
    a.set(fw::Attribute::makeInts("strides", {S, S}));
    a.set(fw::Attribute::makeInts("pads", {P, P, P, P}));
    Tensor xt = noise({1, C, H, H}, 23);
    std::vector<float> xv = xt.toFloats();
    if (withNaN) xv[7] = std::numeric_limits<float>::quiet_NaN();  // channel 0, row 1, column 1
    xt = Tensor::floats({1, C, H, H}, xv);
    const auto [wy, gy] = opThenRelu("ConvTranspose", xt, wt, bt, a);
    ASSERT_EQ(gy.size(), static_cast<size_t>(M * OH * OH));
    ASSERT_EQ(wy.size(), gy.size());

    const auto wv = wt.toFloats(), bv = bt.toFloats();
    std::vector<double> ref(static_cast<size_t>(M * OH * OH));
    for (int64_t m2 = 0; m2 < M; ++m2)
      for (int64_t i = 0; i < OH * OH; ++i) ref[m2 * OH * OH + i] = bv[m2];
    for (int64_t c = 0; c < C; ++c)
      for (int64_t ih = 0; ih < H; ++ih)
        for (int64_t iw = 0; iw < H; ++iw)
          for (int64_t m2 = 0; m2 < M; ++m2)
            for (int64_t kh = 0; kh < K; ++kh)
              for (int64_t kw = 0; kw < K; ++kw) {
                const int64_t oh = ih * S - P + kh, ow = iw * S - P + kw;
                if (oh < 0 || oh >= OH || ow < 0 || ow >= OH) continue;
                ref[(m2 * OH + oh) * OH + ow] +=
                    static_cast<double>(xv[(c * H + ih) * H + iw]) * wv[((c * M + m2) * K + kh) * K + kw];
              }
    int nans = 0, zeros = 0;
    for (size_t i = 0; i < gy.size(); ++i) {
      const double r = std::isnan(ref[i]) ? ref[i] : std::max(ref[i], 0.0);
      if (std::isnan(r)) {
        ++nans;
        EXPECT_TRUE(std::isnan(gy[i])) << i;
        EXPECT_TRUE(std::isnan(wy[i])) << i;
        continue;
      }
      zeros += gy[i] == 0.f;
      EXPECT_NEAR(gy[i], r, 1e-4) << i;
      EXPECT_EQ(gy[i], wy[i]) << i;
    }
    EXPECT_EQ(nans, withNaN ? K * K * M : 0);  // every tap of input (1,1) lands inside the output
    EXPECT_GT(zeros, 0);
  }
}

// A 1-D depthwise Conv runs as a 2-D one over [N, C, 1, W] (oneDNN 2.6 has no direct 1-D grouped
// kernel). Strides, dilations, asymmetric pads, a channel multiplier, the bias and the Relu epilogue:
// the result matches a direct float64 convolution, and the epilogue equals the node-by-node run.
TEST(ExecEpilogue, OneDimensionalDepthwiseConvMatchesADirectReference) {
  struct Case {
    int64_t C, mult, W, K, S, D, padL, padR;
  };
  for (const Case cs :
       {Case{5, 1, 17, 5, 1, 1, 2, 2}, Case{6, 1, 23, 3, 2, 2, 1, 3}, Case{4, 2, 12, 4, 3, 1, 0, 2}}) {
    const int64_t N = 2, M = cs.C * cs.mult,
                  OW = (cs.W + cs.padL + cs.padR - (cs.K - 1) * cs.D - 1) / cs.S + 1;
    const Tensor wt = noise({M, 1, cs.K}, 31), bt = noise({M}, 32), xt = noise({N, cs.C, cs.W}, 33);
    fw::Attributes a;
    a.set(fw::Attribute::makeInt("group", cs.C));
    a.set(fw::Attribute::makeInts("kernel_shape", {cs.K}));
    a.set(fw::Attribute::makeInts("strides", {cs.S}));
    a.set(fw::Attribute::makeInts("dilations", {cs.D}));
    a.set(fw::Attribute::makeInts("pads", {cs.padL, cs.padR}));
    const auto [wy, gy] = opThenRelu("Conv", xt, wt, bt, a);
    const auto xv = xt.toFloats(), wv = wt.toFloats(), bv = bt.toFloats();
    ASSERT_EQ(wy.size(), gy.size());
    ASSERT_EQ(gy.size(), static_cast<size_t>(N * M * OW));
    int zeros = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < M; ++o)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double r = bv[o];
          const int64_t ch = o / cs.mult;  // the input channel of output channel o's group
          for (int64_t k = 0; k < cs.K; ++k) {
            const int64_t iw = ow * cs.S - cs.padL + k * cs.D;
            if (iw >= 0 && iw < cs.W)
              r += static_cast<double>(xv[(n * cs.C + ch) * cs.W + iw]) * wv[o * cs.K + k];
          }
          const size_t i = static_cast<size_t>((n * M + o) * OW + ow);
          EXPECT_NEAR(gy[i], std::max(r, 0.0), 1e-5) << "C " << cs.C << " at " << i;
          EXPECT_EQ(gy[i], wy[i]) << i;
          zeros += gy[i] == 0.f;
        }
    EXPECT_GT(zeros, 0);
  }
}

// A strided 1x1 Conv without padding runs on the executor's own product over the positions it reads,
// copied out (ConvPrimitive.cpp), not on oneDNN's channels-last layout. Over one, two and three spatial
// axes, odd sizes that leave a last row or column unread, and a stride per axis: the result matches a
// direct float64 loop, with the bias and the Relu epilogue, which equals the node-by-node run.
TEST(ExecEpilogue, StridedPointwiseConvMatchesADirectReference) {
  struct Case {
    std::vector<int64_t> in, strides;
  };
  const int64_t N = 2, C = 5, M = 7;
  for (const Case& cs :
       {Case{{13}, {2}}, Case{{9, 11}, {2, 3}}, Case{{7, 8}, {3, 1}}, Case{{5, 6, 7}, {2, 2, 3}}}) {
    const size_t r = cs.in.size();
    std::vector<int64_t> xd{N, C}, wd{M, C}, kernel(r, 1), out(r);
    int64_t inPlane = 1, outPlane = 1;
    for (size_t d = 0; d < r; ++d) {
      out[d] = (cs.in[d] - 1) / cs.strides[d] + 1;
      xd.push_back(cs.in[d]);
      wd.push_back(1);
      inPlane *= cs.in[d];
      outPlane *= out[d];
    }
    const Tensor wt = noise(wd, 41), bt = noise({M}, 42), xt = noise(xd, 43);
    fw::Attributes a;
    a.set(fw::Attribute::makeInts("kernel_shape", kernel));
    a.set(fw::Attribute::makeInts("strides", cs.strides));
    const auto [wy, gy] = opThenRelu("Conv", xt, wt, bt, a);
    ASSERT_EQ(gy.size(), static_cast<size_t>(N * M * outPlane)) << r << "-D";
    ASSERT_EQ(wy.size(), gy.size());
    const auto xv = xt.toFloats(), wv = wt.toFloats(), bv = bt.toFloats();
    int zeros = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t o = 0; o < outPlane; ++o) {
          int64_t in = 0, rem = o, scale = 1;  // the input position output position o reads
          for (size_t d = r; d-- > 0;) {
            in += (rem % out[d]) * cs.strides[d] * scale;
            rem /= out[d];
            scale *= cs.in[d];
          }
          double ref = bv[m];
          for (int64_t c = 0; c < C; ++c)
            ref += static_cast<double>(xv[(n * C + c) * inPlane + in]) * wv[m * C + c];
          const size_t i = static_cast<size_t>((n * M + m) * outPlane + o);
          EXPECT_NEAR(gy[i], std::max(ref, 0.0), 1e-5) << r << "-D at " << i;
          EXPECT_EQ(gy[i], wy[i]) << i;
          zeros += gy[i] == 0.f;
        }
    EXPECT_GT(zeros, 0);
  }
}

// A pointwise Conv over one position an image (a squeeze-excitation's Convs after a global pool; the
// product path runs each image's rows against its vector of channels): the same values as the definition,
// with its Relu or without, with a bias or without, to one output channel, and strided from 3x3 to one
// position.
TEST(ExecEpilogue, PointwiseConvOverOnePositionMatchesADirectReference) {
  struct Case {
    int64_t N, C, M, side, stride;
    bool bias;
  };
  for (const Case& cs :
       {Case{32, 12, 96, 1, 1, true}, Case{8, 96, 12, 1, 1, false}, Case{5, 7, 1, 1, 1, true},
        Case{3, 16, 24, 3, 3, true}, Case{1, 12, 40, 1, 1, true}}) {
    SCOPED_TRACE(std::to_string(cs.N) + " images, " + std::to_string(cs.C) + " -> " + std::to_string(cs.M));
    const Tensor xt = noise({cs.N, cs.C, cs.side, cs.side}, 51), wt = noise({cs.M, cs.C, 1, 1}, 52),
                 bt = noise({cs.M}, 53);
    fw::Attributes a;
    a.set(fw::Attribute::makeInts("kernel_shape", {1, 1}));
    a.set(fw::Attribute::makeInts("strides", {cs.stride, cs.stride}));
    auto g = std::make_shared<fw::Graph>();
    auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts(xt.dims()));
    std::vector<fw::ValueId> ins = {x, g->addInitializer("w", wt)};
    if (cs.bias) ins.push_back(g->addInitializer("b", bt));
    auto c = g->addValue("c"), y = g->addValue("y");
    g->addNode("Conv", ins, {c}, a, "conv");
    g->addNode("Relu", {c}, {y}, {}, "relu");
    g->addOutput(c);  // read twice: the Conv alone, no epilogue
    g->addOutput(y);
    fw::Model m;
    m.opsetImports[""] = 17;
    m.graph = g;
    auto got = fw::runGraph(m, {xt});
    ASSERT_TRUE(got.ok()) << got.error().message;
    const auto cv = (*got)[0].toFloats(), yv = (*got)[1].toFloats();
    ASSERT_EQ(cv.size(), static_cast<size_t>(cs.N * cs.M));
    const auto xv = xt.toFloats(), wv = wt.toFloats(), bv = bt.toFloats();
    const int64_t plane = cs.side * cs.side;
    for (int64_t n = 0; n < cs.N; ++n)
      for (int64_t mo = 0; mo < cs.M; ++mo) {
        double ref = cs.bias ? bv[static_cast<size_t>(mo)] : 0.0;
        for (int64_t ci = 0; ci < cs.C; ++ci)
          ref += static_cast<double>(xv[static_cast<size_t>((n * cs.C + ci) * plane)]) *
                 wv[static_cast<size_t>(mo * cs.C + ci)];
        const auto i = static_cast<size_t>(n * cs.M + mo);
        EXPECT_NEAR(cv[i], ref, 1e-5 * std::max(1.0, std::fabs(ref))) << i;
        EXPECT_EQ(yv[i], std::max(cv[i], 0.0f)) << i;
      }
    // Its Relu as its epilogue: the same values exactly, with a bias or without: the same product (on one
    // thread the rows-dot-vector loop, where without a bias the Relu was once the library's post-op on the
    // library's own product), then the bias and the Relu in one pass.
    auto g2 = std::make_shared<fw::Graph>(*g);
    g2->setOutputs({y});
    fw::Model m2 = m;
    m2.graph = g2;
    auto fused = fw::runGraph(m2, {xt});
    ASSERT_TRUE(fused.ok()) << fused.error().message;
    const auto fv = (*fused)[0].toFloats();
    ASSERT_EQ(fv.size(), yv.size());
    for (size_t i = 0; i < fv.size(); ++i) EXPECT_EQ(fv[i], yv[i]) << i;
  }
}

namespace {

// x -> producer -> Split -> each part through Neg (so the parts are no graph outputs themselves), run as
// the executor runs it, and with an Identity between the producer and the Split (no epilogue: the Split
// reads the Identity). `sizesAsInput`: the Split's sizes a runtime input (as in a fused body). Checks
// both runs' outputs equal the node-by-node run's (keepIntermediates), and returns the tensors each
// allocated {through the Identity, as built}.
struct SplitCase {
  std::string op = "MatMul";
  Tensor x, w;
  std::vector<Tensor> bias;  // Gemm's C, if any
  fw::Attributes opAttrs;
  fw::Attributes splitAttrs;
  std::vector<int64_t> sizes;  // a constant sizes input when not empty
  bool sizesAsInput = false;   // ... given as a runtime input instead
  size_t parts = 2;
  bool productAlsoOutput = false;
};

std::pair<int64_t, int64_t> splitAllocations(const SplitCase& c) {
  auto model = [&](bool identity, std::vector<Tensor>& inputs) {
    auto g = std::make_shared<fw::Graph>();
    auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts(c.x.dims()));
    inputs = {c.x};
    std::vector<fw::ValueId> pin{x, g->addInitializer("w", c.w)};
    for (const auto& b : c.bias) pin.push_back(g->addInitializer("c", b));
    auto prod = g->addValue("prod");
    g->addNode(c.op, pin, {prod}, c.opAttrs, "product");
    std::vector<fw::ValueId> sin{prod};
    if (identity) {
      sin[0] = g->addValue("same");
      g->addNode("Identity", {prod}, {sin[0]}, {}, "identity");
    }
    if (!c.sizes.empty()) {
      const Tensor st = Tensor::int64s({static_cast<int64_t>(c.sizes.size())}, c.sizes);
      if (c.sizesAsInput) {
        sin.push_back(g->addInput("sizes", fw::DType::Int64, fw::Shape::ofInts(st.dims())));
        inputs.push_back(st);
      } else {
        sin.push_back(g->addInitializer("sizes", st));
      }
    }
    std::vector<fw::ValueId> parts;
    for (size_t k = 0; k < c.parts; ++k) parts.push_back(g->addValue("part" + std::to_string(k)));
    g->addNode("Split", sin, parts, c.splitAttrs, "split");
    for (size_t k = 0; k < c.parts; ++k) {
      auto y = g->addValue("y" + std::to_string(k));
      g->addNode("Neg", {parts[k]}, {y}, {}, "neg" + std::to_string(k));
      g->addOutput(y);
    }
    if (c.productAlsoOutput) g->addOutput(prod);
    fw::Model m;
    m.opsetImports[""] = 17;
    m.graph = g;
    return m;
  };
  std::vector<Tensor> inputs;
  const fw::Model direct = model(false, inputs), throughIdentity = model(true, inputs);
  fw::ExecOptions plain;
  plain.keepIntermediates = true;
  auto want = fw::runGraph(direct, inputs, plain);
  EXPECT_TRUE(want.ok()) << want.error().message;
  if (!want.ok()) return {-1, -1};
  std::vector<int64_t> allocations;
  for (const fw::Model* m : {&throughIdentity, &direct}) {
    fw::ExecStats stats;
    fw::ExecOptions asRun;
    asRun.stats = &stats;
    auto got = fw::runGraph(*m, inputs, asRun);
    EXPECT_TRUE(got.ok()) << got.error().message;
    if (!got.ok()) return {-1, -1};
    EXPECT_EQ(got->size(), want->size());
    for (size_t k = 0; k < got->size() && k < want->size(); ++k) {
      EXPECT_EQ((*got)[k].dims(), (*want)[k].dims()) << "output " << k;
      EXPECT_LE(maxAbsDiff((*got)[k], (*want)[k]), 1e-5) << "output " << k;
    }
    allocations.push_back(stats.allocations);
  }
  return {allocations[0], allocations[1]};
}

fw::Attributes axisAttr(int64_t axis) {
  fw::Attributes a;
  a.set(fw::Attribute::makeInt("axis", axis));
  return a;
}

}  // namespace

// A Split that is the only reader of a MatMul's or Gemm's output, over its last axis (horizontal_matmul's
// merged projections): the product writes each part itself, so the run allocates the parts and never the
// whole product, and every part equals the node-by-node run's. Where it cannot (another axis, a batched
// B, the product also read elsewhere), the Split still runs and the results still agree.
TEST(ExecEpilogue, SplitOverAProductsLastAxisIsWrittenPartByPart) {
  // Through the Identity: the product, the parts, the negations. With the epilogue: one tensor fewer.
  SplitCase mm;
  mm.x = noise({2, 5, 16}, 71);
  mm.w = noise({16, 24}, 72);
  mm.splitAttrs = axisAttr(-1);
  mm.sizes = {8, 6, 10};
  mm.parts = 3;
  auto [plain, run] = splitAllocations(mm);
  EXPECT_EQ(run, plain - 1);

  SplitCase equal = mm;  // equal parts, no sizes, the axis as a positive index
  equal.sizes.clear();
  equal.splitAttrs = axisAttr(2);
  equal.parts = 4;
  std::tie(plain, run) = splitAllocations(equal);
  EXPECT_EQ(run, plain - 1);

  SplitCase fromInput = mm;  // the sizes a runtime input (a fused body's)
  fromInput.sizesAsInput = true;
  std::tie(plain, run) = splitAllocations(fromInput);
  EXPECT_EQ(run, plain - 1);

  SplitCase gemm;  // Gemm(transB) with a bias a column: each part its bias columns
  gemm.op = "Gemm";
  gemm.x = noise({7, 12}, 73);
  gemm.w = noise({20, 12}, 74);
  gemm.bias = {noise({20}, 75)};
  gemm.opAttrs.set(fw::Attribute::makeInt("transB", 1));
  gemm.splitAttrs = axisAttr(1);
  gemm.sizes = {5, 15};
  std::tie(plain, run) = splitAllocations(gemm);
  EXPECT_EQ(run, plain - 1);

  SplitCase gemmTransA;  // Gemm(transA) without C
  gemmTransA.op = "Gemm";
  gemmTransA.x = noise({12, 7}, 76);
  gemmTransA.w = noise({12, 9}, 77);
  gemmTransA.opAttrs.set(fw::Attribute::makeInt("transA", 1));
  gemmTransA.splitAttrs = axisAttr(-1);
  gemmTransA.parts = 3;
  std::tie(plain, run) = splitAllocations(gemmTransA);
  EXPECT_EQ(run, plain - 1);

  // Not the last axis, B one matrix a batch, or the product a graph output too: the whole product exists.
  SplitCase firstAxis = mm;
  firstAxis.splitAttrs = axisAttr(0);
  firstAxis.sizes = {1, 1};
  firstAxis.parts = 2;
  std::tie(plain, run) = splitAllocations(firstAxis);
  EXPECT_EQ(run, plain);

  SplitCase batchedB = mm;
  batchedB.w = noise({2, 16, 24}, 78);
  std::tie(plain, run) = splitAllocations(batchedB);
  EXPECT_EQ(run, plain);

  SplitCase kept = mm;
  kept.productAlsoOutput = true;
  std::tie(plain, run) = splitAllocations(kept);
  EXPECT_EQ(run, plain);

  SplitCase gemmScaled = gemm;  // alpha != 1: the product as one, then the Split
  gemmScaled.opAttrs.set(fw::Attribute::makeFloat("alpha", 0.5f));
  std::tie(plain, run) = splitAllocations(gemmScaled);
  EXPECT_EQ(run, plain);
}
