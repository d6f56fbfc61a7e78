#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(IdentityElim, RemovesIdentityKeepingOutputName) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  auto i = b.op("Identity", {x}, {2, 3});
  auto d = b.op("Identity", {b.op("Relu", {i}, {2, 3})}, {2, 3}, {}, "last");
  b.output(d);
  auto r = fuseAndVerify(b.model(), onlyRules({"identity_elim"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Identity") + countOp(*r.rewritten.graph, "Dropout"), 0);
  EXPECT_EQ(r.rewritten.graph->value(r.rewritten.graph->outputs()[0]).name, "last_out");
}
TEST(IdentityElim, RejectsOutputFedByInput) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.output(b.op("Identity", {x}, {2, 3}));
  auto r = fuseAndVerify(b.model(), onlyRules({"identity_elim"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Identity"), 1);
  EXPECT_TRUE(hasDecision(r, "identity_elim", false, "graph output fed directly"));
}
}  // namespace
}  // namespace fwtest
