// AnalysisSettings, the GUI's one owner of the options (Qt-free): each change touches exactly the
// fields it names, rule choices survive level changes, a new model drops tuned limits and exclusions,
// and request() is what the pipeline runs (the Rules dock's checkboxes agree with isRuleActive).
#include <gtest/gtest.h>

#include "fusion/FusionConfig.h"
#include "fusion/Registry.h"
#include "fusion/Rule.h"
#include "ui/analysis/AnalysisSettings.h"

namespace {

// Every registered rule runs exactly when the settings say so (what the Rules dock checks).
void expectRequestMatchesRuleRuns(const fw::AnalysisSettings& s) {
  const fw::fusion::FusionOptions fo = s.request().fusion;
  for (const auto& r : fw::fusion::registeredRules())
    EXPECT_EQ(fw::fusion::isRuleActive(*r, fo), s.ruleRuns(std::string(r->id())))
        << r->id() << " at -O" << s.optLevel;
}

}  // namespace

TEST(AnalysisSettings, DefaultsAreTheFusionDefaults) {
  const fw::AnalysisSettings s;
  const fw::AnalysisOptions o = s.request();
  const fw::fusion::FusionOptions def;
  EXPECT_EQ(o.fusion.optLevel, def.optLevel);
  EXPECT_TRUE(o.fusion.enabled.empty());
  EXPECT_TRUE(o.fusion.disabled.empty());
  EXPECT_TRUE(o.fusion.excludedNodes.empty());
  EXPECT_DOUBLE_EQ(o.fusion.hw.minTrafficSaving, def.hw.minTrafficSaving);
  EXPECT_DOUBLE_EQ(o.fusion.hw.ubFraction, def.hw.ubFraction);
  EXPECT_EQ(o.hw, "");
  EXPECT_EQ(o.batch, 1);
  EXPECT_EQ(o.beforeMode, fw::sim::SimMode::Graph);
  EXPECT_EQ(s.overridesText(), "");
  EXPECT_FALSE(s.hasTunedLimits());
  expectRequestMatchesRuleRuns(s);
}

TEST(AnalysisSettings, RuleChoicesSurviveLevelChanges) {
  fw::AnalysisSettings s;
  ASSERT_EQ(fw::ruleLevel("conv_activation"), 1);
  ASSERT_EQ(fw::ruleLevel("cse"), 2);
  ASSERT_EQ(fw::ruleLevel("stitch_reduce"), 3);
  s.setRule("conv_activation", false);  // a level-1 rule off
  s.setRule("stitch_reduce", true);     // a level-3 rule on at -O2
  fw::AnalysisSettings expected;
  expected.rulesOff = {"conv_activation"};
  expected.rulesOn = {"stitch_reduce"};
  EXPECT_EQ(s, expected);  // nothing else changed
  EXPECT_EQ(s.overridesText(), "+stitch_reduce \u2212conv_activation");
  expectRequestMatchesRuleRuns(s);
  for (int level : {3, 1, 0, 2}) {
    s.setLevel(level);
    EXPECT_EQ(s.optLevel, level);
    EXPECT_EQ(s.rulesOff, expected.rulesOff) << level;
    EXPECT_EQ(s.rulesOn, expected.rulesOn) << level;
    EXPECT_FALSE(s.ruleRuns("conv_activation")) << level;
    EXPECT_TRUE(s.ruleRuns("stitch_reduce")) << level;
    expectRequestMatchesRuleRuns(s);
  }
  // Only the overrides that change something at the level are in the request.
  s.setLevel(3);
  EXPECT_TRUE(s.request().fusion.enabled.empty());  // stitch_reduce runs at -O3 anyway
  EXPECT_EQ(s.request().fusion.disabled, std::set<std::string>{"conv_activation"});
  s.setLevel(0);
  EXPECT_TRUE(s.request().fusion.disabled.empty());  // conv_activation does not run at -O0 anyway
  EXPECT_EQ(s.request().fusion.enabled, std::set<std::string>{"stitch_reduce"});
  // A choice equal to the level's default is no override; an unknown id changes nothing.
  s.setLevel(2);
  s.setRule("conv_activation", true);
  s.setRule("stitch_reduce", false);
  s.setRule("no_such_rule", true);
  EXPECT_EQ(s, fw::AnalysisSettings{});
  s.setLevel(7);
  EXPECT_EQ(s.optLevel, 3);
}

TEST(AnalysisSettings, ATunedConfigSetsItsFieldsAndANewModelDropsLimitsAndExclusions) {
  fw::AnalysisSettings s;
  s.hw = "ascend310";
  s.batch = 4;
  s.beforeMode = fw::sim::SimMode::Eager;
  s.setRule("cse", false);
  // What Tune → Save writes (TuneResult::configJson), read as `fwb --config` reads it.
  fw::fusion::FusionOptions tuned;
  ASSERT_TRUE(fw::fusion::applyFusionConfig(tuned, R"({"opt_level": 1, "enable": ["gelu_fusion"], "disable": ["identity_elim"],
      "exclude_nodes": ["conv1"], "min_traffic_saving": 0.5, "ub_fraction": 0.75})", "tuned.json").ok());
  s.applyTuned(tuned);
  fw::AnalysisSettings expected;
  expected.hw = "ascend310";
  expected.batch = 4;
  expected.beforeMode = fw::sim::SimMode::Eager;
  expected.optLevel = 1;
  expected.rulesOn = {"gelu_fusion"};
  expected.rulesOff = {"identity_elim"};  // the tuned switches replace the user's (-cse is gone)
  expected.excludedNodes = {"conv1"};
  expected.minSaving = 0.5;
  expected.ubFraction = 0.75;
  EXPECT_EQ(s, expected);
  EXPECT_EQ(s.overridesText(), "+gelu_fusion \u2212identity_elim");
  const fw::AnalysisOptions o = s.request();
  EXPECT_EQ(o.fusion.optLevel, 1);
  EXPECT_EQ(o.fusion.enabled, tuned.enabled);
  EXPECT_EQ(o.fusion.disabled, tuned.disabled);
  EXPECT_EQ(o.fusion.excludedNodes, tuned.excludedNodes);
  EXPECT_DOUBLE_EQ(o.fusion.hw.minTrafficSaving, 0.5);
  EXPECT_DOUBLE_EQ(o.fusion.hw.ubFraction, 0.75);
  EXPECT_EQ(o.hw, "ascend310");
  EXPECT_EQ(o.batch, 4);
  EXPECT_EQ(o.beforeMode, fw::sim::SimMode::Eager);
  expectRequestMatchesRuleRuns(s);

  // Another model: the limits and exclusions go, the level, the rule choices, hardware, batch and mode stay.
  EXPECT_TRUE(s.forNewModel());
  expected.excludedNodes.clear();
  expected.minSaving.reset();
  expected.ubFraction = 1;
  EXPECT_EQ(s, expected);
  EXPECT_FALSE(s.forNewModel());  // nothing left to drop
  EXPECT_DOUBLE_EQ(s.request().fusion.hw.minTrafficSaving, fw::fusion::HwLimits{}.minTrafficSaving);
}

TEST(AnalysisSettings, ExclusionsAreOriginalNodeNames) {
  fw::AnalysisSettings s;
  s.excludeNode("conv1");
  s.excludeNode("relu1");
  s.excludeNode("conv1", false);
  EXPECT_EQ(s.request().fusion.excludedNodes, std::set<std::string>{"relu1"});
  EXPECT_TRUE(s.forNewModel());
  EXPECT_TRUE(s.excludedNodes.empty());
}
