#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model geluErf(float one) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto e = b.op("Erf", {b.op("Div", {x, b.scalar("s2", 1.4142135f)}, {2, 8})}, {2, 8});
  auto m = b.op("Mul", {x, b.op("Add", {e, b.scalar("one", one)}, {2, 8})}, {2, 8});
  b.output(b.op("Mul", {m, b.scalar("half", 0.5f)}, {2, 8}));
  return b.model();
}
TEST(GeluFusion, ErfForm) {
  auto r = fuseAndVerify(geluErf(1.0f), onlyRules({"gelu_fusion"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "gelu");
}
TEST(GeluFusion, TanhForm) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto cube = b.op("Mul", {b.op("Pow", {x, b.scalar("three", 3)}, {2, 8}), b.scalar("c", 0.044715f)}, {2, 8});
  auto in = b.op("Mul", {b.op("Add", {x, cube}, {2, 8}), b.scalar("k", 0.7978845608f)}, {2, 8});
  auto t = b.op("Add", {b.op("Tanh", {in}, {2, 8}), b.scalar("one", 1)}, {2, 8});
  b.output(b.op("Mul", {b.op("Mul", {x, b.scalar("half", 0.5f)}, {2, 8}), t}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"gelu_fusion"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].members.size(), 8u);
}
TEST(GeluFusion, RejectsWrongConstant) {
  auto r = fuseAndVerify(geluErf(2.0f), onlyRules({"gelu_fusion"}));
  EXPECT_EQ(r.kernels.size(), 5u);
  EXPECT_TRUE(hasDecision(r, "gelu_fusion", false, "not followed by Add(1)"));
}
}  // namespace
}  // namespace fwtest
