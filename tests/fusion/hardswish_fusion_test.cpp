#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model hardSwish(bool byX) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto y = b.input("y", {2, 8});
  auto c = b.op("Clip", {b.op("Add", {x, b.scalar("three", 3)}, {2, 8}), b.scalar("lo", 0), b.scalar("hi", 6)}, {2, 8});
  b.output(b.op("Div", {b.op("Mul", {byX ? x : y, c}, {2, 8}), b.scalar("six", 6)}, {2, 8}));
  return b.model();
}
TEST(HardSwishFusion, RecognisesAddClipMulDiv) {
  auto r = fuseAndVerify(hardSwish(true), onlyRules({"hardswish_fusion"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "hardswish");
}
TEST(HardSwishFusion, RejectsOtherMultiplicand) {
  auto r = fuseAndVerify(hardSwish(false), onlyRules({"hardswish_fusion"}));
  EXPECT_EQ(r.kernels.size(), 4u);
  EXPECT_TRUE(hasDecision(r, "hardswish_fusion", false, "not multiplied by x"));
}
}  // namespace
}  // namespace fwtest
