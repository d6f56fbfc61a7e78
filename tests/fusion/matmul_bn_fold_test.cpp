#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static ValueId mmBn(GraphBuilder& b, std::vector<int64_t> xd) {
  auto x = b.input("x", xd);
  auto yd = xd;
  yd.back() = 6;
  auto m = b.op("MatMul", {x, b.constant("w", {8, 6})}, yd);
  int64_t ch = yd[1];
  return b.op("BatchNormalization", {m, b.constant("g", {ch}, 0.5f, 1.5f), b.constant("be", {ch}), b.constant("mu", {ch}),
                                     b.constant("var", {ch}, 0.5f, 2.f)}, yd);
}
TEST(MatMulBnFold, FoldsTwoDimensional) {
  GraphBuilder b;
  b.output(mmBn(b, {4, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"matmul_bn_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "BatchNormalization"), 0);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Gemm"), 1);
}
TEST(MatMulBnFold, RejectsChannelAxisNotColumns) {
  GraphBuilder b;
  b.output(mmBn(b, {2, 4, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"matmul_bn_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "BatchNormalization"), 1);
  EXPECT_TRUE(hasDecision(r, "matmul_bn_fold", false, "column axis"));
}
}  // namespace
}  // namespace fwtest
