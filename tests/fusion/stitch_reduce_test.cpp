#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model meanThenScale(bool leak) {
  GraphBuilder b;
  auto x = b.input("x", {4, 16});
  auto m = b.op("ReduceMean", {x}, {4, 1}, attrs({Attribute::makeInts("axes", {-1})}));
  auto s = b.op("Sub", {x, m}, {4, 16});
  if (leak) b.output(s);
  b.output(b.op("Sigmoid", {s}, {4, 16}));
  return b.model();
}
TEST(StitchReduce, StitchesReductionWithReaders) {
  auto r = fuseAndVerify(meanThenScale(false), onlyRules({"stitch_reduce"}, 0));
  EXPECT_EQ(r.kernels.size(), 2u);  // mean+sub stitched; sigmoid reads the stitched kernel
  auto o = onlyRules({"stitch_reduce", "elementwise_chain"}, 0);
  auto r2 = fuseAndVerify(meanThenScale(false), o);
  EXPECT_EQ(r2.kernels.size(), 1u);
}
TEST(StitchReduce, RejectsGraphOutputIntermediate) {
  auto o = onlyRules({"stitch_reduce", "elementwise_chain"}, 0);
  auto r = fuseAndVerify(meanThenScale(true), o);
  EXPECT_EQ(r.kernels.size(), 2u);
  EXPECT_TRUE(hasDecision(r, "elementwise_chain", false, "is a graph output"));
}
}  // namespace
}  // namespace fwtest
