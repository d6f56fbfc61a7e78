#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

static Model convAddRelu() {
  GraphBuilder b;
  auto x = b.input("x", {1, 4, 5, 5});
  auto c = b.op("Conv", {x, b.constant("w", {4, 4, 1, 1})}, {1, 4, 5, 5}, attrs({Attribute::makeInt("group", 1)}));
  b.output(b.op("Relu", {b.op("Add", {c, b.input("y", {1, 4, 5, 5})}, {1, 4, 5, 5})}, {1, 4, 5, 5}));
  return b.model();
}
TEST(UserRules, FusesConfiguredChain) {
  auto o = onlyRules({"user_rules"}, 0);
  o.userRules.push_back({"my_conv_add_relu", {{"Conv", {{"group", 1}}}, {"Add", {}}, {"Relu", {}}}});
  auto r = fuseAndVerify(convAddRelu(), o);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].pattern, "my_conv_add_relu");
}
TEST(UserRules, RejectsMismatchedStep) {
  auto o = onlyRules({"user_rules"}, 0);
  o.userRules.push_back({"conv_sigmoid", {{"Conv", {}}, {"Sigmoid", {}}}});
  auto r = fuseAndVerify(convAddRelu(), o);
  EXPECT_EQ(r.kernels.size(), 3u);
  EXPECT_TRUE(hasDecision(r, "user_rules", false, "step 2 expects Sigmoid, found Add"));
}
}  // namespace
}  // namespace fwtest
