#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model layerNorm(bool leak, bool mulVariance = false) {
  GraphBuilder b;
  auto x = b.input("x", {2, 4, 8});
  auto ax = attrs({Attribute::makeInts("axes", {-1})});
  auto mean = b.op("ReduceMean", {x}, {2, 4, 1}, ax);
  auto d = b.op("Sub", {x, mean}, {2, 4, 8});
  if (leak) b.output(b.op("Relu", {d}, {2, 4, 8}));
  auto sq = mulVariance ? b.op("Mul", {d, d}, {2, 4, 8}) : b.op("Pow", {d, b.scalar("two", 2)}, {2, 4, 8});
  auto var = b.op("ReduceMean", {sq}, {2, 4, 1}, ax);
  auto sd = b.op("Sqrt", {b.op("Add", {var, b.scalar("eps", 1e-5f)}, {2, 4, 1})}, {2, 4, 1});
  auto n = b.op("Div", {d, sd}, {2, 4, 8});
  b.output(b.op("Add", {b.op("Mul", {n, b.constant("g", {8})}, {2, 4, 8}), b.constant("be", {8})}, {2, 4, 8}));
  return b.model();
}
TEST(LayerNormFusion, RecognisesDecomposedLayerNorm) {
  auto r = fuseAndVerify(layerNorm(false), onlyRules({"layernorm_fusion"}, 0));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "layernorm");
}
TEST(LayerNormFusion, RecognisesTheVarianceAsMulOfTheCentredInput) {
  auto r = fuseAndVerify(layerNorm(false, true), onlyRules({"layernorm_fusion"}, 0));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "layernorm");
}
TEST(LayerNormFusion, RejectsLeakedCentredInput) {
  auto r = fuseAndVerify(layerNorm(true), onlyRules({"layernorm_fusion"}));
  EXPECT_TRUE(hasDecision(r, "layernorm_fusion", false, "second consumer"));
}
}  // namespace
}  // namespace fwtest
