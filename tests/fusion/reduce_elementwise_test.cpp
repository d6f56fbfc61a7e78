#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model norm2() {
  GraphBuilder b;
  auto x = b.input("x", {4, 64});
  auto s = b.op("ReduceSum", {b.op("Mul", {x, x}, {4, 64}), b.ints("axes", {-1})}, {4, 1});
  b.output(b.op("Sqrt", {s}, {4, 1}));
  return b.model();
}
TEST(ReduceElementwise, FusesPrologueAndEpilogue) {
  auto r = fuseAndVerify(norm2(), onlyRules({"reduce_elementwise"}, 0));
  ASSERT_EQ(r.kernels.size(), 1u);
}
TEST(ReduceElementwise, RejectsWhenRowExceedsUnifiedBuffer) {
  auto o = onlyRules({"reduce_elementwise"}, 2);
  for (const char* id : {"conv_activation", "elementwise_chain", "cse", "injective_absorb", "matmul_add_act", "residual_add",
                         "attention_fusion", "layernorm_fusion", "gelu_fusion", "hardswish_fusion", "swish_fusion",
                         "softmax_fusion", "horizontal_matmul"})
    o.disabled.insert(id);
  o.hw.ubBytes = 256;
  auto r = fuseAndVerify(norm2(), o);
  EXPECT_EQ(r.kernels.size(), 3u);
  EXPECT_TRUE(hasDecision(r, "reduce_elementwise", false, "UB 1 KiB exceeded"));
}
}  // namespace
}  // namespace fwtest
