// The error bound of tests/common/ErrorBound.h: it holds against a float64 evaluation (a legal order
// never fails) and a wrong result exceeds it by orders of magnitude (a wrong result always fails).
#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

Model convModel(float tweak) {
  GraphBuilder b;
  auto x = b.input("x", {1, 16, 6, 6});
  auto w = b.constant("w", {8, 16, 3, 3});
  if (tweak != 0) {  // a wrong weight: one element off by `tweak` relative
    auto t = b.graph().constantOf(w)->toFloats();
    t[5] *= 1 + tweak;
    b.graph().setInitializer(w, Tensor::floats({8, 16, 3, 3}, t));
  }
  b.output(b.op("Conv", {x, w, b.constant("bias", {8})}, {1, 8, 6, 6}, attrs({Attribute::makeInts("pads", {1, 1, 1, 1})}), "conv"));
  return b.model();
}

TEST(ErrorBound, ConvWithinBoundOfFloat64Reference) {
  Model m = convModel(0);
  auto in = randomInputs(m, 5);
  ASSERT_TRUE(in.ok());
  GraphErrorBound eb = graphBound(m, *in);
  ASSERT_TRUE(eb.unsupported.empty()) << eb.unsupported;
  const auto x = (*in)[0].toFloats();
  const auto w = m.graph->constantOf(m.graph->findValue("w"))->toFloats();
  const auto bias = m.graph->constantOf(m.graph->findValue("bias"))->toFloats();
  std::vector<double> want, bound;
  for (int o = 0; o < 8; ++o)
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        double s = bias[o], sa = std::fabs(bias[o]);
        for (int c = 0; c < 16; ++c)
          for (int di = 0; di < 3; ++di)
            for (int dj = 0; dj < 3; ++dj) {
              int ii = i + di - 1, jj = j + dj - 1;
              if (ii < 0 || jj < 0 || ii >= 6 || jj >= 6) continue;
              double p = static_cast<double>(w[((o * 16 + c) * 3 + di) * 3 + dj]) * x[(c * 6 + ii) * 6 + jj];
              s += p;
              sa += std::fabs(p);
            }
        want.push_back(s);
        bound.push_back(dotBound(16 * 9 + 1, sa));
      }
  EXPECT_EQ(withinBound(eb.outputs[0].toFloats(), want, bound), "") << "Conv vs float64";
  // The running bound is at least the direct one (same terms, a few more roundings counted).
  for (size_t k = 0; k < bound.size(); ++k) EXPECT_GE(eb.bound[0][k], bound[k]) << k;
}

TEST(ErrorBound, WrongResultFails) {
  // One of 1,152 weights off by 1 %: far outside the bound (the bound is a worst case, ~300 ulps of the terms).
  BoundCheck c = compareWithinBound(convModel(0), convModel(1e-2f), 3);
  EXPECT_TRUE(c.unsupported.empty());
  EXPECT_GT(c.ratio, 10.0) << c.detail;
  // The same model against itself: inside.
  EXPECT_LE(compareWithinBound(convModel(0), convModel(0), 3).ratio, 1.0);
}

}  // namespace
}  // namespace fwtest
