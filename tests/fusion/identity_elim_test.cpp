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
// PyTorch exports F.dropout(p=0.0, training=True) as Dropout(x, 0.0, true): it drops nothing.
TEST(IdentityElim, RemovesTrainingDropoutWithRatioZeroOnly) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  auto yes = b.graph().addInitializer("yes", Tensor(DType::Bool, {}, std::vector<uint8_t>{1}));
  auto d0 = b.op("Dropout", {b.op("Relu", {x}, {2, 3}), b.scalar("ratio0", 0.0f), yes}, {2, 3}, {}, "drop0");
  b.output(b.op("Relu", {d0}, {2, 3}, {}, "after"));
  Model m = b.model();
  m.opsetImports = {{"", 13}};
  auto r = fuseAndVerify(m, onlyRules({"identity_elim"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Dropout"), 0);
  // A real ratio in training mode stays (and is reported).
  GraphBuilder c;
  auto cx = c.input("x", {2, 3});
  auto cyes = c.graph().addInitializer("yes", Tensor(DType::Bool, {}, std::vector<uint8_t>{1}));
  auto cd = c.op("Dropout", {c.op("Relu", {cx}, {2, 3}), c.scalar("ratio", 0.5f), cyes}, {2, 3}, {}, "drop");
  c.output(c.op("Relu", {cd}, {2, 3}, {}, "after"));
  Model cm = c.model();
  cm.opsetImports = {{"", 13}};
  auto rc = fusion::fuseModel(cm, onlyRules({"identity_elim"}));
  ASSERT_TRUE(rc.ok());
  EXPECT_EQ(countOp(*rc->rewritten.graph, "Dropout"), 1);
  EXPECT_TRUE(hasDecision(*rc, "identity_elim", false, "ratio is not constant 0"));
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
