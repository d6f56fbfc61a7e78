#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(DeadCodeElim, RemovesUnreadNodes) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.output(b.op("Relu", {x}, {2, 3}));
  b.op("Sigmoid", {x}, {2, 3}, {}, "unused");
  auto r = fuseAndVerify(b.model(), onlyRules({"dead_code_elim"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Sigmoid"), 0);
  EXPECT_TRUE(hasDecision(r, "dead_code_elim", true));
}
TEST(DeadCodeElim, KeepsExcludedNode) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.output(b.op("Relu", {x}, {2, 3}));
  b.op("Sigmoid", {x}, {2, 3}, {}, "unused");
  auto o = onlyRules({"dead_code_elim"});
  o.excludedNodes = {"unused"};
  auto r = fuseAndVerify(b.model(), o);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Sigmoid"), 1);
  EXPECT_TRUE(hasDecision(r, "dead_code_elim", false, "excluded by the user"));
}
}  // namespace
}  // namespace fwtest
