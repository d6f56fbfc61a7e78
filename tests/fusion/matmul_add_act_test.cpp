#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(MatMulAddAct, FusesBatchedMatMulAddRelu) {
  GraphBuilder b;
  auto m = b.op("MatMul", {b.input("x", {2, 4, 8}), b.constant("w", {8, 6})}, {2, 4, 6});
  b.output(b.op("Relu", {b.op("Add", {m, b.constant("bias", {6})}, {2, 4, 6})}, {2, 4, 6}));
  auto r = fuseAndVerify(b.model(), onlyRules({"matmul_add_act"}, 0));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "matmul_add_relu");
}
TEST(MatMulAddAct, RejectsSecondConsumer) {
  GraphBuilder b;
  auto m = b.op("MatMul", {b.input("x", {4, 8}), b.constant("w", {8, 6})}, {4, 6});
  b.output(b.op("Add", {m, b.constant("bias", {6})}, {4, 6}));
  b.output(b.op("Relu", {m}, {4, 6}));
  auto r = fuseAndVerify(b.model(), onlyRules({"matmul_add_act"}));
  EXPECT_EQ(r.kernels.size(), 3u);
  EXPECT_TRUE(hasDecision(r, "matmul_add_act", false, "second consumer"));
}
}  // namespace
}  // namespace fwtest
