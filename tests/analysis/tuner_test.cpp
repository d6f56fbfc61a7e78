// The auto-tuner on a small zoo model: deterministic, never worse than where it starts, every kept
// candidate proven equal, and its config reproduces the tuned plan.
#include <gtest/gtest.h>

#include <atomic>

#include "core/io/ModelSource.h"
#include "fusion/FusionConfig.h"
#include "fusion/Pipeline.h"
#include "ui/analysis/Tuner.h"

namespace {

fw::Model small() {
  auto m = fw::loadModel("zoo:mobilenetv2?image=64");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return std::move(m).value();
}

fw::TuneOptions fromLevel(int level) {
  fw::TuneOptions o;
  o.start.fusion.optLevel = level;
  o.start.hw = "ascend910b2";
  o.budgetSeconds = 600;  // the evaluation cap decides, so the result does not depend on the machine
  o.maxEvaluations = 120;
  return o;
}

TEST(Tuner, ImprovesOnAWeakStartAndExplainsWhat) {
  const fw::Model m = small();
  auto r = fw::tune(m, fromLevel(1));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LT(r->best.latencyUs, r->start.latencyUs * 0.995);
  EXPECT_EQ(r->best.verified, 1);
  EXPECT_LE(r->best.maxRel, 1e-4);
  EXPECT_FALSE(r->changes.empty());
  ASSERT_FALSE(r->table.empty());
  EXPECT_EQ(r->table.front().description, r->best.description);
  for (size_t i = 0; i < r->table.size(); ++i) {
    EXPECT_EQ(r->table[i].verified, 1) << r->table[i].description;
    if (i) {
      EXPECT_LE(r->table[i - 1].latencyUs, r->table[i].latencyUs);
    }
  }
  EXPECT_NE(r->toText().find("what changed:"), std::string::npos);
  // deterministic
  auto again = fw::tune(m, fromLevel(1));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->best.description, r->best.description);
  EXPECT_DOUBLE_EQ(again->best.latencyUs, r->best.latencyUs);
}

TEST(Tuner, ItsConfigReproducesTheTunedKernels) {
  const fw::Model m = small();
  auto r = fw::tune(m, fromLevel(1));
  ASSERT_TRUE(r.ok()) << r.error().message;
  fw::fusion::FusionOptions o;
  ASSERT_TRUE(fw::fusion::applyFusionConfig(o, r->configJson().dump(), "tuned.json").ok());
  o.hw.ubBytes = r->best.options.hw.ubBytes;
  o.hw.elemBytes = r->best.options.hw.elemBytes;
  auto a = fw::fusion::fuseModel(m, o), b = fw::fusion::fuseModel(m, r->best.options);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->kernels.size(), b->kernels.size());
  for (size_t i = 0; i < a->kernels.size(); ++i) EXPECT_EQ(a->kernels[i].origins, b->kernels[i].origins);
}

TEST(Tuner, NeverEndsWorseThanItStartedAndStopsWhenCancelled) {
  const fw::Model m = small();
  auto o = fromLevel(2);
  o.objective = fw::TuneObjective::HbmTraffic;
  auto r = fw::tune(m, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LE(r->best.hbmBytes, r->start.hbmBytes);
  std::atomic<bool> cancel{true};
  o.cancel = &cancel;
  auto c = fw::tune(m, o);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->stopReason, "cancelled");
  EXPECT_EQ(c->best.description, c->start.description);
}

}  // namespace
