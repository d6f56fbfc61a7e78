#include "fusion/Registry.h"
#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

const std::vector<int64_t> kShape{1, 4, 5, 5};

ValueId conv(GraphBuilder& b, ValueId x, const std::string& name) {
  return b.op("Conv", {x, b.constant(name + "_w", {4, 4, 1, 1})}, kShape, {}, name);
}
// y * Clip(y + 3, 0, 6) / 6: y is read by the Add and by the Mul (a diamond).
ValueId hardSwish(GraphBuilder& b, ValueId y) {
  auto c = b.op("Clip", {b.op("Add", {y, b.scalar("three", 3)}, kShape), b.scalar("lo", 0), b.scalar("hi", 6)}, kShape);
  return b.op("Div", {b.op("Mul", {y, c}, kShape), b.scalar("six", 6)}, kShape);
}
const fusion::Kernel* kernelWith(const fusion::FusionResult& r, const std::string& origin) {
  for (const auto& k : r.kernels)
    if (std::find(k.origins.begin(), k.origins.end(), origin) != k.origins.end()) return &k;
  return nullptr;
}

TEST(DagEpilogue, ADiamondAfterAConvJoinsItsEpilogue) {
  GraphBuilder b;
  b.output(hardSwish(b, conv(b, b.input("x", kShape), "conv")));
  // elementwise_chain alone stops at the diamond: y has two consumers
  auto chain = fuseAndVerify(b.model(), onlyRules({"elementwise_chain"}));
  EXPECT_EQ(chain.kernels.size(), 2u);
  auto r = fuseAndVerify(b.model(), onlyRules({"elementwise_chain", "dag_epilogue"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "conv_elementwise");
  EXPECT_EQ(r.kernels[0].unit, "cube+vector");
  // with the recognition the kernel is named after it
  auto named = fuseAndVerify(b.model(), onlyRules({"elementwise_chain", "hardswish_fusion", "dag_epilogue"}));
  ASSERT_EQ(named.kernels.size(), 1u);
  EXPECT_EQ(named.kernels[0].pattern, "conv_hardswish");
}

TEST(DagEpilogue, FanOutToSeveralOutputsBecomesOneMultiOutputKernel) {
  GraphBuilder b;
  auto y = conv(b, b.input("x", kShape), "conv");
  b.output(b.op("Relu", {y}, kShape, {}, "relu"));
  b.output(b.op("Sigmoid", {y}, kShape, {}, "sigmoid"));
  b.output(b.op("ReduceSum", {y}, {1, 1, 1, 1}, attrs({Attribute::makeInts("axes", {1, 2, 3})}), "sum"));
  auto r = fuseAndVerify(b.model(), onlyRules({"dag_epilogue"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].members.size(), 4u);
}

TEST(DagEpilogue, StopsBeforeAValueAnotherCubeOpReads) {
  GraphBuilder b;
  auto y = conv(b, b.input("x", kShape), "conv");
  auto hs = hardSwish(b, y);
  b.output(b.op("Add", {hs, conv(b, y, "conv2")}, kShape, {}, "sum"));
  auto r = fuseAndVerify(b.model(), onlyRules({"elementwise_chain", "dag_epilogue"}));
  EXPECT_TRUE(hasDecision(r, "dag_epilogue", false, "second consumer 'conv2'"));
  EXPECT_EQ(kernelWith(r, "conv")->members.size(), 1u);
  // conv2's own epilogue takes the Add: the hardswish kernel is computed outside, before it
  EXPECT_EQ(kernelWith(r, "conv2"), kernelWith(r, "sum"));
}

TEST(DagEpilogue, NeverClosesACycleThroughOutsideNodes) {
  // conv -> relu -----------------> add
  //      \-> conv2 (cube, outside) -/
  GraphBuilder b;
  auto y = conv(b, b.input("x", kShape), "conv");
  auto r1 = b.op("Relu", {y}, kShape, {}, "relu");
  auto r2 = b.op("Sigmoid", {y}, kShape, {}, "sig");
  b.output(b.op("Add", {r1, conv(b, r2, "conv2")}, kShape, {}, "add"));
  auto r = fuseAndVerify(b.model(), onlyRules({"dag_epilogue"}));
  // conv takes relu and sig (both private to the region); the add, which needs conv2, stays out
  EXPECT_EQ(kernelWith(r, "conv"), kernelWith(r, "relu"));
  EXPECT_EQ(kernelWith(r, "conv"), kernelWith(r, "sig"));
  EXPECT_NE(kernelWith(r, "conv"), kernelWith(r, "add"));
  EXPECT_TRUE(hasDecision(r, "dag_epilogue", false, "cycle through conv2"));
}

TEST(DagEpilogue, ShrinksTheRegionToFitTheUnifiedBuffer) {
  GraphBuilder b;
  auto y = conv(b, b.input("x", kShape), "conv");
  // a reduction over the whole tensor needs all of it in the tile
  b.output(b.op("ReduceSum", {b.op("Relu", {y}, kShape, {}, "relu")}, {1, 1, 1, 1}, attrs({Attribute::makeInts("axes", {1, 2, 3})}),
                "sum"));
  auto o = onlyRules({"dag_epilogue"}, 2);
  for (const auto& info : fusion::ruleInfos())
    if (info.id != "dag_epilogue") o.disabled.insert(info.id);
  o.hw.ubBytes = 200;  // bytes: room for a row of 5 floats per tensor, not for 100 elements
  auto r = fuseAndVerify(b.model(), o);
  EXPECT_TRUE(hasDecision(r, "dag_epilogue", true));
  EXPECT_EQ(kernelWith(r, "conv"), kernelWith(r, "relu"));
  EXPECT_NE(kernelWith(r, "conv"), kernelWith(r, "sum"));
  o.hw.ubBytes = 1 << 20;
  auto big = fuseAndVerify(b.model(), o);
  EXPECT_EQ(big.kernels.size(), 1u);
}
}  // namespace
}  // namespace fwtest
