#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(ConvActivation, FusesConvRelu) {
  GraphBuilder b;
  auto c = b.op("Conv", {b.input("x", {1, 3, 5, 5}), b.constant("w", {4, 3, 1, 1})}, {1, 4, 5, 5});
  b.output(b.op("Relu", {c}, {1, 4, 5, 5}));
  auto r = fuseAndVerify(b.model(), onlyRules({"conv_activation"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "conv_relu");
  EXPECT_EQ(r.kernels[0].unit, "cube+vector");
}
TEST(ConvActivation, FusesSwish) {
  GraphBuilder b;
  auto c = b.op("Conv", {b.input("x", {1, 3, 5, 5}), b.constant("w", {4, 3, 1, 1})}, {1, 4, 5, 5});
  b.output(b.op("Mul", {c, b.op("Sigmoid", {c}, {1, 4, 5, 5})}, {1, 4, 5, 5}));
  auto r = fuseAndVerify(b.model(), onlyRules({"conv_activation"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "conv_swish");
}
TEST(ConvActivation, RejectsSecondConsumer) {
  GraphBuilder b;
  auto c = b.op("Conv", {b.input("x", {1, 3, 5, 5}), b.constant("w", {4, 3, 1, 1})}, {1, 4, 5, 5});
  b.output(b.op("Relu", {c}, {1, 4, 5, 5}));
  b.output(b.op("Tanh", {c}, {1, 4, 5, 5}));
  auto r = fuseAndVerify(b.model(), onlyRules({"conv_activation"}));
  EXPECT_EQ(r.kernels.size(), 3u);
  EXPECT_TRUE(hasDecision(r, "conv_activation", false, "second consumer"));
}
}  // namespace
}  // namespace fwtest
