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
// The forms exporters write: Relu6 as Clip or as Min(Relu(.), 6), the 1/6 as Div or as Mul, before
// or after the multiplication by x, and x * HardSigmoid(x).
enum class Form { ClipMulDiv, ReluMinMulDiv, ClipDivMul, ClipMulSixth, HardSigmoid };
static Model hardSwishForm(Form f) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  if (f == Form::HardSigmoid) {
    b.output(b.op("Mul", {x, b.op("HardSigmoid", {x}, {2, 8}, attrs({Attribute::makeFloat("alpha", 1.0f / 6)}))}, {2, 8}));
    return b.model();
  }
  auto a = b.op("Add", {b.scalar("three", 3), x}, {2, 8});
  auto r6 = f == Form::ReluMinMulDiv ? b.op("Min", {b.op("Relu", {a}, {2, 8}), b.scalar("six", 6)}, {2, 8})
                                     : b.op("Clip", {a, b.scalar("lo", 0), b.scalar("hi", 6)}, {2, 8});
  if (f == Form::ClipDivMul) {
    b.output(b.op("Mul", {b.op("Div", {r6, b.scalar("six", 6)}, {2, 8}), x}, {2, 8}));
  } else if (f == Form::ClipMulSixth) {
    b.output(b.op("Mul", {b.op("Mul", {x, r6}, {2, 8}), b.scalar("sixth", 1.0f / 6)}, {2, 8}));
  } else {
    b.output(b.op("Div", {b.op("Mul", {x, r6}, {2, 8}), b.scalar("six", 6)}, {2, 8}));
  }
  return b.model();
}
TEST(HardSwishFusion, RecognisesEveryExportedForm) {
  for (Form f : {Form::ClipMulDiv, Form::ReluMinMulDiv, Form::ClipDivMul, Form::ClipMulSixth, Form::HardSigmoid}) {
    auto r = fuseAndVerify(hardSwishForm(f), onlyRules({"hardswish_fusion"}));
    ASSERT_EQ(r.kernels.size(), 1u) << static_cast<int>(f);
    EXPECT_EQ(r.kernels[0].pattern, "hardswish") << static_cast<int>(f);
  }
}
TEST(HardSwishFusion, LeavesAMinThatIsNotRelu6Alone) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  b.output(b.op("Min", {b.op("Relu", {x}, {2, 8}), b.scalar("five", 5)}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"hardswish_fusion"}));
  EXPECT_EQ(r.kernels.size(), 2u);
}
}  // namespace
}  // namespace fwtest
