#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model residual() {
  GraphBuilder b;
  auto x = b.input("x", {1, 4, 5, 5});
  auto c = b.op("Conv", {x, b.constant("w", {4, 4, 1, 1})}, {1, 4, 5, 5}, {}, "conv");
  b.output(b.op("Relu", {b.op("Add", {c, x}, {1, 4, 5, 5}, {}, "add")}, {1, 4, 5, 5}));
  return b.model();
}
TEST(ResidualAdd, FusesAddReluIntoConv) {
  auto r = fuseAndVerify(residual(), onlyRules({"residual_add"}, 0));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "conv_add_relu");
}
TEST(ResidualAdd, RejectsExcludedNode) {
  auto o = onlyRules({"residual_add"});
  o.excludedNodes = {"add"};
  auto r = fuseAndVerify(residual(), o);
  EXPECT_EQ(r.kernels.size(), 3u);
  EXPECT_TRUE(hasDecision(r, "residual_add", false, "excluded by the user"));
}
}  // namespace
}  // namespace fwtest
