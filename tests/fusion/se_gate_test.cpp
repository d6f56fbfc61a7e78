#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

// x -> pool -> Conv 8->4 -> Relu -> Conv 4->8 -> HardSigmoid -> x * gate
static Model seBlock(bool reduceMean, bool scaleX = true) {
  GraphBuilder b;
  auto x = b.input("x", {1, 8, 6, 6});
  auto other = b.input("other", {1, 8, 6, 6});
  ValueId s = reduceMean ? b.op("ReduceMean", {x}, {1, 8, 1, 1}, attrs({Attribute::makeInts("axes", {2, 3})}), "pool")
                         : b.op("GlobalAveragePool", {x}, {1, 8, 1, 1}, {}, "pool");
  auto c1 = b.op("Conv", {s, b.constant("w1", {4, 8, 1, 1}), b.constant("b1", {4})}, {1, 4, 1, 1}, {}, "conv1");
  auto r = b.op("Relu", {c1}, {1, 4, 1, 1}, {}, "relu");
  auto c2 = b.op("Conv", {r, b.constant("w2", {8, 4, 1, 1}), b.constant("b2", {8})}, {1, 8, 1, 1}, {}, "conv2");
  auto gate = b.op("HardSigmoid", {c2}, {1, 8, 1, 1}, {}, "gate");
  b.output(b.op("Mul", {scaleX ? x : other, gate}, {1, 8, 6, 6}, {}, "scale"));
  return b.model();
}
TEST(SeGate, MakesTheGateTwoKernelsAroundItsTwoProjections) {
  for (bool rm : {false, true}) {
    auto r = fuseAndVerify(seBlock(rm), onlyRules({"conv_activation", "se_gate"}));
    ASSERT_EQ(r.kernels.size(), 2u) << "ReduceMean " << rm;
    EXPECT_EQ(r.kernels[0].pattern, "se_squeeze");
    EXPECT_EQ(r.kernels[0].origins, (std::vector<std::string>{"pool", "conv1", "relu"}));
    EXPECT_EQ(r.kernels[1].pattern, "se_excite");
    EXPECT_EQ(r.kernels[1].origins, (std::vector<std::string>{"conv2", "gate", "scale"}));
  }
}
TEST(SeGate, ExplainsAGateThatScalesAnotherTensor) {
  auto r = fuseAndVerify(seBlock(false, false), onlyRules({"se_gate"}));
  EXPECT_TRUE(hasDecision(r, "se_gate", false, "does not scale the pooled input"));
  for (const auto& k : r.kernels) EXPECT_NE(k.pattern, "se_excite");
}
}  // namespace
}  // namespace fwtest
