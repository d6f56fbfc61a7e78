#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(ElementwiseChain, FusesChainAndDiamond) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto a = b.op("Add", {x, b.constant("c", {8})}, {2, 8});
  auto s = b.op("Sigmoid", {a}, {2, 8});
  b.output(b.op("Mul", {a, s}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"elementwise_chain"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].members.size(), 3u);
}
TEST(ElementwiseChain, RejectsGraphOutputIntermediate) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto a = b.op("Relu", {x}, {2, 8});
  b.output(a);
  b.output(b.op("Sigmoid", {a}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"elementwise_chain"}));
  EXPECT_EQ(r.kernels.size(), 2u);
  EXPECT_TRUE(hasDecision(r, "elementwise_chain", false, "is a graph output"));
}
}  // namespace
}  // namespace fwtest
