#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static ValueId convBn(GraphBuilder& b, ValueId x, bool extraReader) {
  auto w = b.constant("w", {4, 3, 3, 3});
  auto c = b.op("Conv", {x, w}, {1, 4, 6, 6}, attrs({Attribute::makeInts("pads", {1, 1, 1, 1})}), "conv");
  if (extraReader) b.output(b.op("Relu", {c}, {1, 4, 6, 6}));
  return b.op("BatchNormalization", {c, b.constant("g", {4}, 0.5f, 1.5f), b.constant("be", {4}), b.constant("mu", {4}),
                                     b.constant("var", {4}, 0.5f, 2.f)}, {1, 4, 6, 6}, {}, "bn");
}
TEST(ConvBnFold, FoldsIntoWeights) {
  GraphBuilder b;
  b.output(convBn(b, b.input("x", {1, 3, 6, 6}), false));
  auto r = fuseAndVerify(b.model(), onlyRules({"conv_bn_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "BatchNormalization"), 0);
  EXPECT_EQ(r.kernels[0].origins, (std::vector<std::string>{"conv", "bn"}));
}
TEST(ConvBnFold, RejectsSecondConsumer) {
  GraphBuilder b;
  b.output(convBn(b, b.input("x", {1, 3, 6, 6}), true));
  auto r = fuseAndVerify(b.model(), onlyRules({"conv_bn_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "BatchNormalization"), 1);
  EXPECT_TRUE(hasDecision(r, "conv_bn_fold", false, "second consumer"));
}
}  // namespace
}  // namespace fwtest
