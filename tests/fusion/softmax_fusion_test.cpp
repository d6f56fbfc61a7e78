#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model softmax(bool leak) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto ax = attrs({Attribute::makeInts("axes", {-1})});
  auto mx = b.op("ReduceMax", {x}, {2, 1}, ax);
  auto e = b.op("Exp", {b.op("Sub", {x, mx}, {2, 8})}, {2, 8});
  if (leak) b.output(b.op("Relu", {e}, {2, 8}));
  b.output(b.op("Div", {e, b.op("ReduceSum", {e, b.ints("axes", {-1})}, {2, 1})}, {2, 8}));
  return b.model();
}
TEST(SoftmaxFusion, RecognisesDecomposedSoftmax) {
  auto r = fuseAndVerify(softmax(false), onlyRules({"softmax_fusion"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "softmax");
}
TEST(SoftmaxFusion, RejectsLeakedExponentials) {
  auto r = fuseAndVerify(softmax(true), onlyRules({"softmax_fusion"}));
  EXPECT_TRUE(hasDecision(r, "softmax_fusion", false, "second consumer"));
}
}  // namespace
}  // namespace fwtest
