#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(Cse, MergesIdenticalNodes) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.output(b.op("Add", {b.op("Relu", {x}, {2, 3}), b.op("Relu", {x}, {2, 3})}, {2, 3}));
  auto r = fuseAndVerify(b.model(), onlyRules({"cse"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Relu"), 1);
}
TEST(Cse, RejectsDuplicateThatIsAGraphOutput) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.output(b.op("Relu", {x}, {2, 3}));
  b.output(b.op("Relu", {x}, {2, 3}));
  auto r = fuseAndVerify(b.model(), onlyRules({"cse"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Relu"), 2);
  EXPECT_TRUE(hasDecision(r, "cse", false, "graph output"));
}
}  // namespace
}  // namespace fwtest
