#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model attention(bool probsAlsoOutput) {
  GraphBuilder b;
  auto q = b.input("q", {1, 2, 4, 8});
  auto kt = b.input("kt", {1, 2, 8, 4});
  auto v = b.input("v", {1, 2, 4, 8});
  auto s = b.op("MatMul", {q, kt}, {1, 2, 4, 4});
  s = b.op("Div", {s, b.scalar("scale", 2.828f)}, {1, 2, 4, 4});
  s = b.op("Add", {s, b.constant("mask", {1, 1, 1, 4})}, {1, 2, 4, 4});
  auto p = b.op("Softmax", {s}, {1, 2, 4, 4}, attrs({Attribute::makeInt("axis", -1)}));
  if (probsAlsoOutput) b.output(p);
  b.output(b.op("MatMul", {p, v}, {1, 2, 4, 8}));
  return b.model();
}
TEST(AttentionFusion, OneKernelWithTwoCubes) {
  auto r = fuseAndVerify(attention(false), onlyRules({"attention_fusion"}, 2));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "attention");
}
TEST(AttentionFusion, RejectsReadProbabilities) {
  auto r = fuseAndVerify(attention(true), onlyRules({"attention_fusion"}));
  EXPECT_TRUE(hasDecision(r, "attention_fusion", false, "does not feed one MatMul"));
}
}  // namespace
}  // namespace fwtest
