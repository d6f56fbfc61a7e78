// Relu epilogues in the executor: a Relu that is the only reader of a Conv (plain and pointwise),
// BatchNormalization or Add output is computed with its producer. Results equal the node-by-node
// run (keepIntermediates turns the epilogues off), NaN stays NaN, and a producer output read by
// anything else is left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
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
