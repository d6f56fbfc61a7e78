#include <set>

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
TEST(HorizontalMatMul, StepsOfAnUnrolledNetworkShareOneMergedWeight) {
  // Every step reads the same two weights (as an unrolled RNN does); each step's merge gives equal
  // weights, which must be one initializer, as the two weights were before.
  GraphBuilder b;
  auto w0 = b.constant("w0", {8, 8});
  auto w1 = b.constant("w1", {8, 3});
  auto bias0 = b.constant("b0", {8});
  auto bias1 = b.constant("b1", {3});
  auto h = b.input("x", {1, 8});
  ValueId acc = kNoId;
  for (int t = 0; t < 4; ++t) {
    auto m0 = b.op("Add", {b.op("MatMul", {h, w0}, {1, 8}), bias0}, {1, 8});
    auto m1 = b.op("Add", {b.op("MatMul", {h, w1}, {1, 3}), bias1}, {1, 3});
    acc = acc == kNoId ? m1 : b.op("Add", {acc, m1}, {1, 3});
    h = b.op("Tanh", {m0}, {1, 8});
  }
  b.output(acc);
  b.output(h);
  auto r = fuseAndVerify(b.model(), onlyRules({"horizontal_matmul"}));
  const Graph& g = *r.rewritten.graph;
  EXPECT_EQ(countOp(g, "MatMul"), 4);
  std::set<ValueId> weights;
  for (NodeId n = 0; n < static_cast<NodeId>(g.nodeCapacity()); ++n)
    if (!g.node(n).dead && g.node(n).opType == "MatMul") weights.insert(g.node(n).inputs[1]);
  EXPECT_EQ(weights.size(), 1u);
  int merged = 0;
  for (ValueId v : g.initializers()) merged += !g.value(v).consumers.empty() && g.value(v).initializer->numel() == 8 * 11;
  EXPECT_EQ(merged, 1);
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
// A malformed MatMul of one input beside a well-formed one (what the pipeline fuzzer built, session 62: the
// rule read the missing second input past the end) is no root and no branch: the pipeline returns.
TEST(HorizontalMatMul, AMatMulOfOneInputIsNeitherRootNorBranch) {
  GraphBuilder b;
  auto x = b.input("x", {4, 8});
  b.output(b.op("MatMul", {x}, {4, 5}));
  b.output(b.op("MatMul", {x, b.constant("w", {8, 5})}, {4, 5}));
  auto r = fusion::fuseModel(b.model(), onlyRules({"horizontal_matmul"}));
  if (r.ok()) EXPECT_EQ(countOp(*r->rewritten.graph, "MatMul"), 2);
}
}  // namespace
}  // namespace fwtest
