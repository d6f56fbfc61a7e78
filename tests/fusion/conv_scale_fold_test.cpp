#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

// Paddle's BatchNormalization as exported after a Conv: y * scale + shift, both per channel.
static Model convMulAdd(std::vector<int64_t> scaleDims, const std::string& op = "Mul", bool bias = true) {
  GraphBuilder b;
  std::vector<ValueId> ins{b.input("x", {1, 3, 5, 5}), b.constant("w", {4, 3, 3, 3})};
  if (bias) ins.push_back(b.constant("b", {4}));
  auto c = b.op("Conv", ins, {1, 4, 3, 3}, {}, "conv");
  auto s = b.op(op, {c, b.constant("scale", scaleDims, 0.5f, 2.0f)}, {1, 4, 3, 3}, {}, "scale");
  b.output(b.op("Add", {s, b.constant("shift", {1, 4, 1, 1})}, {1, 4, 3, 3}, {}, "shift"));
  return b.model();
}
TEST(ConvScaleFold, FoldsPerChannelMulAndTheFollowingAdd) {
  auto r = fuseAndVerify(convMulAdd({1, 4, 1, 1}), onlyRules({"conv_scale_fold", "bias_add_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Mul"), 0);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Add"), 0);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].origins, (std::vector<std::string>{"conv", "scale", "shift"}));
}
TEST(ConvScaleFold, FoldsAConvWithoutBiasAndADivision) {
  auto r = fuseAndVerify(convMulAdd({4, 1, 1}, "Div", false), onlyRules({"conv_scale_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Div"), 0);
  EXPECT_TRUE(hasDecision(r, "conv_scale_fold", true));
}
TEST(ConvScaleFold, RejectsAConstantThatVariesOverSpace) {
  auto r = fuseAndVerify(convMulAdd({1, 4, 3, 3}), onlyRules({"conv_scale_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Mul"), 1);
  EXPECT_TRUE(hasDecision(r, "conv_scale_fold", false, "is not per channel"));
}
TEST(ConvScaleFold, RejectsAConvOutputReadTwice) {
  GraphBuilder b;
  auto c = b.op("Conv", {b.input("x", {1, 3, 5, 5}), b.constant("w", {4, 3, 1, 1})}, {1, 4, 5, 5}, {}, "conv");
  b.output(b.op("Mul", {c, b.constant("s", {1, 4, 1, 1})}, {1, 4, 5, 5}));
  b.output(b.op("Relu", {c}, {1, 4, 5, 5}, {}, "other"));
  auto r = fuseAndVerify(b.model(), onlyRules({"conv_scale_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Mul"), 1);
  EXPECT_TRUE(hasDecision(r, "conv_scale_fold", false, "second consumer 'other'"));
}
static Model gemmMul(bool transB) {
  GraphBuilder b;
  auto y = b.op("Gemm", {b.input("a", {3, 6}), b.constant("B", transB ? std::vector<int64_t>{5, 6} : std::vector<int64_t>{6, 5}),
                         b.constant("C", {5})},
                {3, 5}, attrs({Attribute::makeInt("transB", transB ? 1 : 0), Attribute::makeFloat("beta", 0.5f)}), "gemm");
  b.output(b.op("Mul", {b.constant("s", {5}, 0.5f, 2.0f), y}, {3, 5}, {}, "scale"));
  return b.model();
}
TEST(ConvScaleFold, FoldsPerColumnMulIntoGemmWithAndWithoutTransB) {
  for (bool t : {false, true}) {
    auto r = fuseAndVerify(gemmMul(t), onlyRules({"conv_scale_fold"}));
    EXPECT_EQ(countOp(*r.rewritten.graph, "Mul"), 0) << "transB " << t;
  }
}
}  // namespace
}  // namespace fwtest
