#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model convAdd(std::vector<int64_t> biasDims) {
  GraphBuilder b;
  auto c = b.op("Conv", {b.input("x", {1, 3, 5, 5}), b.constant("w", {4, 3, 1, 1})}, {1, 4, 5, 5});
  b.output(b.op("Add", {c, b.constant("bias", biasDims)}, {1, 4, 5, 5}));
  return b.model();
}
TEST(BiasAddFold, FoldsPerChannelAdd) {
  auto r = fuseAndVerify(convAdd({1, 4, 1, 1}), onlyRules({"bias_add_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Add"), 0);
}
TEST(BiasAddFold, RejectsSpatialConstant) {
  auto r = fuseAndVerify(convAdd({1, 4, 5, 5}), onlyRules({"bias_add_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Add"), 1);
  EXPECT_TRUE(hasDecision(r, "bias_add_fold", false, "not per channel"));
}
}  // namespace
}  // namespace fwtest
