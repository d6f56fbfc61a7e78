#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(HorizontalMatMul, MergesParallelMatMuls) {
  GraphBuilder b;
  auto x = b.input("x", {2, 4, 8});
  std::vector<ValueId> ys;
  for (int i = 0; i < 3; ++i) {
    auto m = b.op("MatMul", {x, b.constant("w" + std::to_string(i), {8, 5})}, {2, 4, 5});
    ys.push_back(b.op("Add", {m, b.constant("b" + std::to_string(i), {5})}, {2, 4, 5}));
  }
  b.output(b.op("Mul", {b.op("Add", {ys[0], ys[1]}, {2, 4, 5}), ys[2]}, {2, 4, 5}));
  auto r = fuseAndVerify(b.model(), onlyRules({"horizontal_matmul"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "MatMul"), 1);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Split"), 1);
}
TEST(HorizontalMatMul, RejectsActivationWeights) {
  GraphBuilder b;
  auto x = b.input("x", {4, 8});
  auto w = b.input("w", {8, 5});
  b.output(b.op("MatMul", {x, w}, {4, 5}));
  b.output(b.op("MatMul", {x, w}, {4, 5}));
  auto r = fuseAndVerify(b.model(), onlyRules({"horizontal_matmul"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "MatMul"), 2);
  EXPECT_TRUE(hasDecision(r, "horizontal_matmul", false, "not a constant"));
}
}  // namespace
}  // namespace fwtest
