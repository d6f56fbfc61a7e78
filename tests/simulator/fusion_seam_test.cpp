// The simulator fed by the fusion engine, as `fwb simulate -O L` does (app/fwb/cmd_simulate.cpp):
// fused kernels name nodes of the rewritten graph; physical bounds must hold for them too, and the
// issue's acceptance figures at batch 16 on the default profile.
#include <gtest/gtest.h>

#include "SimTestUtil.h"
#include "core/zoo/Zoo.h"
#include "fusion/Pipeline.h"

namespace fw::sim::test {
namespace {

struct SimRun {
  SimResult r;
  bool ok = false;
};

SimRun simulateAt(const Model& m, int level, const HwProfile& hw, SimMode mode = SimMode::Graph) {
  SimOptions o;
  o.mode = mode;
  o.batch = 16;
  if (level == 0) {
    auto r = simulate(*m.graph, *unfusedGroups(*m.graph), hw, o);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return {r.ok() ? *r : SimResult{}, r.ok()};
  }
  fusion::FusionOptions fo;
  fo.optLevel = level;
  fo.hw.ubBytes = hw.ubBytes;
  fo.hw.elemBytes = static_cast<int64_t>(hw.elemBytes());
  auto f = fusion::fuseModel(m, fo);
  EXPECT_TRUE(f.ok()) << f.error().message;
  if (!f.ok()) return {};
  std::vector<KernelGroup> groups;
  for (const auto& k : f->kernels) groups.push_back({k.name, k.members, k.origins});
  auto r = simulate(*f->rewritten.graph, groups, hw, o);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return {r.ok() ? *r : SimResult{}, r.ok()};
}

TEST(SimFusion, FusedZooModelsRespectPhysicalBoundsOnEveryProfile) {
  for (const auto& e : zooEntries()) {
    auto m = buildZooModel(e.name);
    ASSERT_TRUE(m.ok()) << m.error().message;
    for (const auto& name : listHwProfiles()) {
      const HwProfile hw = *resolveHwProfile(name);
      SimRun o2 = simulateAt(*m, 2, hw);
      ASSERT_TRUE(o2.ok) << e.name << " on " << name;
      expectPhysical(o2.r, hw, e.name + " -O2 on " + name);
    }
  }
}

TEST(SimFusion, AcceptanceAtBatch16OnAscend910B2) {
  const HwProfile hw = *resolveHwProfile("ascend910b2");
  for (const char* name : {"resnet50", "bert", "mobilenetv2"}) {
    ZooParams p;
    p.batch = 16;
    auto m = buildZooModel(name, p);
    ASSERT_TRUE(m.ok()) << m.error().message;
    SimRun o0 = simulateAt(*m, 0, hw), o2 = simulateAt(*m, 2, hw), eager = simulateAt(*m, 0, hw, SimMode::Eager);
    ASSERT_TRUE(o0.ok && o2.ok && eager.ok) << name;
    EXPECT_LT(o2.r.latencyUs, o0.r.latencyUs) << name;
    EXPECT_LE(o2.r.hbmBytes, 0.5 * o0.r.hbmBytes) << name;
    EXPECT_GT(eager.r.latencyUs, o0.r.latencyUs) << name;
  }
}

}  // namespace
}  // namespace fw::sim::test
