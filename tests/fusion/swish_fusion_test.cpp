#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(SwishFusion, RecognisesXTimesSigmoid) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  b.output(b.op("Mul", {x, b.op("Sigmoid", {x}, {2, 8})}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"swish_fusion"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "swish");
}
TEST(SwishFusion, RejectsOtherValue) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  b.output(b.op("Mul", {b.input("y", {2, 8}), b.op("Sigmoid", {x}, {2, 8})}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"swish_fusion"}));
  EXPECT_EQ(r.kernels.size(), 2u);
  EXPECT_TRUE(hasDecision(r, "swish_fusion", false, "another value"));
}
}  // namespace
}  // namespace fwtest
