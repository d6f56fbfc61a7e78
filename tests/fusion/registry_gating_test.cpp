#include "fusion/FusionConfig.h"
#include "fusion/KernelPlan.h"
#include "fusion/Registry.h"
#include "tests/fusion/FusionTestUtil.h"

namespace fwtest {
namespace {

TEST(Registry, IdsAreUniqueSnakeCaseWithLevels) {
  std::set<std::string> ids;
  for (const auto& r : fusion::ruleInfos()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_GE(r.level, 1);
    EXPECT_LE(r.level, 3);
    EXPECT_FALSE(r.description.empty());
    for (char c : r.id) EXPECT_TRUE(std::islower(static_cast<unsigned char>(c)) || c == '_') << r.id;
  }
  EXPECT_GE(ids.size(), 20u);
}

TEST(Registry, GatingDisabledWinsThenEnabledThenLevel) {
  const fusion::Rule* cse = fusion::findRule("cse");
  ASSERT_NE(cse, nullptr);
  fusion::FusionOptions o;
  o.optLevel = 1;
  EXPECT_FALSE(fusion::isRuleActive(*cse, o));
  o.enabled.insert("cse");
  EXPECT_TRUE(fusion::isRuleActive(*cse, o));
  o.disabled.insert("cse");
  EXPECT_FALSE(fusion::isRuleActive(*cse, o));
  o = {};
  o.optLevel = 2;
  EXPECT_TRUE(fusion::isRuleActive(*cse, o));
}

TEST(Registry, LevelZeroChangesNothing) {
  GraphBuilder b;
  auto c = b.op("Conv", {b.input("x", {1, 3, 5, 5}), b.constant("w", {4, 3, 1, 1})}, {1, 4, 5, 5});
  b.output(b.op("Relu", {b.op("Identity", {c}, {1, 4, 5, 5})}, {1, 4, 5, 5}));
  fusion::FusionOptions o;
  o.optLevel = 0;
  auto r = fuseAndVerify(b.model(), o);
  EXPECT_EQ(r.kernels.size(), 3u);
  EXPECT_TRUE(r.applied.empty());
}

TEST(FusionConfig, GraphKernelFlags) {
  fusion::FusionOptions o;
  ASSERT_TRUE(fusion::applyGraphKernelFlags(o, "--opt_level=3 --disable_pass=cse,gelu_fusion --disable_cluster_ops=Reshape").ok());
  EXPECT_EQ(o.optLevel, 3);
  EXPECT_TRUE(o.disabled.count("gelu_fusion"));
  EXPECT_TRUE(o.clusterOpsDisabled.count("Reshape"));
  auto bad = fusion::applyGraphKernelFlags(o, "--enable_pass=no_such_rule");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("no_such_rule"), std::string::npos);
  EXPECT_EQ(bad.error().code, ErrorCode::BadInput);
  EXPECT_FALSE(fusion::applyGraphKernelFlags(o, "--opt_level=7").ok());
  auto unk = fusion::applyGraphKernelFlags(o, "--frobnicate=1");
  ASSERT_FALSE(unk.ok());
  EXPECT_NE(unk.error().message.find("--frobnicate"), std::string::npos);
}

TEST(FusionConfig, JsonConfig) {
  fusion::FusionOptions o;
  auto st = fusion::applyFusionConfig(o, R"({"opt_level": 3, "rules": {"cse": false}, "exclude_nodes": ["conv1"],
      "user_rules": [{"name": "cr", "ops": [{"op": "Conv", "attrs": {"group": 1}}, "Relu"]}]})", "f.json");
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(o.optLevel, 3);
  EXPECT_TRUE(o.disabled.count("cse"));
  EXPECT_TRUE(o.excludedNodes.count("conv1"));
  ASSERT_EQ(o.userRules.size(), 1u);
  EXPECT_EQ(o.userRules[0].steps[0].intAttrs.at("group"), 1);
  auto bad = fusion::applyFusionConfig(o, R"({"rules": {"nope": true}})", "f.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("$.rules.nope"), std::string::npos);
}

TEST(KernelPlan, RejectsCycleAndTwoCubes) {
  // a -> b -> c: merging a and c without b would create a cycle through b.
  GraphBuilder b;
  auto x = b.input("x", {2, 4});
  auto a = b.op("Relu", {x}, {2, 4}, {}, "a");
  auto bb = b.op("MatMul", {a, b.constant("w", {4, 4})}, {2, 4}, {}, "b");
  b.output(b.op("Sigmoid", {bb}, {2, 4}, {}, "c"));
  Model m = b.model();
  fusion::FusionOptions o;
  fusion::KernelPlan plan(*m.graph, o);
  EXPECT_EQ(plan.checkMerge({0, 2}, "", 1), "would create a cycle through b");
  EXPECT_EQ(plan.checkMerge({0, 1, 2}, "", 1), "");
  GraphBuilder b2;
  auto y = b2.input("x", {2, 4});
  auto m1 = b2.op("MatMul", {y, b2.constant("w", {4, 4})}, {2, 4}, {}, "m1");
  b2.output(b2.op("MatMul", {m1, b2.constant("w2", {4, 4})}, {2, 4}, {}, "m2"));
  Model mm = b2.model();
  fusion::KernelPlan p2(*mm.graph, o);
  EXPECT_NE(p2.checkMerge({0, 1}, "", 1).find("2 cube ops"), std::string::npos);
}

TEST(FusionConfig, UbShareLowersTheUbLimitAndTheTunedNoteIsOnlyANote) {
  fusion::FusionOptions o;
  ASSERT_TRUE(fusion::applyFusionConfig(o, R"({"ub_fraction": 0.5, "tuned": {"hw": "ascend310"}})", "t.json").ok());
  EXPECT_DOUBLE_EQ(o.hw.ubFraction, 0.5);
  for (const char* bad : {R"({"ub_fraction": 0})", R"({"ub_fraction": 1.5})", R"({"tuned": 3})"}) {
    auto st = fusion::applyFusionConfig(o, bad, "t.json");
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.error().message.find("t.json: $."), std::string::npos) << st.error().message;
  }
  // the limit applies: a merge whose tile fits the whole UB but not half of it is refused
  GraphBuilder b;
  auto x = b.input("x", {1, 64});
  b.output(b.op("Relu", {b.op("Neg", {x}, {1, 64})}, {1, 64}));
  fusion::FusionOptions whole = onlyRules({"elementwise_chain"}, 2);
  whole.hw.ubBytes = 3 * 64 * 4;  // x, Neg's and Relu's rows of 64 floats
  auto a = fusion::fuseModel(b.model(), whole);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->kernels.size(), 1u);
  whole.hw.ubFraction = 0.5;
  auto h = fusion::fuseModel(b.model(), whole);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->kernels.size(), 2u);
  EXPECT_TRUE(hasDecision(*h, "elementwise_chain", false, "(50% of it) exceeded"));
}
}  // namespace
}  // namespace fwtest
