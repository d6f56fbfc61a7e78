// Physical bounds on every zoo model × every shipped profile, graph vs eager, and a fused grouping
// (built here by a simple epilogue rule, standing in for the fusion engine) against the unfused run.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "SimTestUtil.h"
#include "core/zoo/Zoo.h"
#include "simulator/OpFamily.h"

namespace fw::sim::test {
namespace {

// Greedy epilogue grouping: a cube or vector op absorbs the chain of single-consumer elementwise /
// BatchNorm ops after it, as long as their other inputs are weights or come from earlier nodes.
std::vector<KernelGroup> epilogueGroups(const Graph& g) {
  auto order = *g.topoOrder();
  std::vector<int32_t> pos(g.nodeCapacity(), -1);
  for (size_t i = 0; i < order.size(); ++i) pos[static_cast<size_t>(order[i])] = static_cast<int32_t>(i);
  std::vector<char> taken(g.nodeCapacity(), 0);
  std::vector<KernelGroup> groups;
  auto absorbable = [&](NodeId n) {
    const auto f = opFamily(g.node(n).opType);
    return f == OpFamily::Elementwise || g.node(n).opType == "BatchNormalization";
  };
  for (NodeId n : order) {
    if (taken[static_cast<size_t>(n)]) continue;
    KernelGroup k{g.node(n).name, {n}};
    taken[static_cast<size_t>(n)] = 1;
    const int32_t start = pos[static_cast<size_t>(n)];
    NodeId cur = n;
    while (opFamily(g.node(cur).opType) != OpFamily::View) {
      const Node& cn = g.node(cur);
      if (cn.outputs.size() != 1) break;
      const Value& out = g.value(cn.outputs[0]);
      if (out.consumers.size() != 1 || out.isGraphOutput) break;
      const NodeId next = out.consumers[0];
      if (taken[static_cast<size_t>(next)] || !absorbable(next)) break;
      bool ok = true;
      for (ValueId v : g.node(next).inputs) {
        if (v == kNoId || v == cn.outputs[0]) continue;
        const NodeId p = g.value(v).producer;
        if (p != kNoId && pos[static_cast<size_t>(p)] >= start) ok = false;
      }
      if (!ok) break;
      k.members.push_back(next);
      taken[static_cast<size_t>(next)] = 1;
      cur = next;
    }
    groups.push_back(std::move(k));
  }
  return groups;
}

const std::vector<HwProfile>& profiles() {
  static const std::vector<HwProfile> ps = [] {
    std::vector<HwProfile> v;
    for (const auto& n : listHwProfiles()) v.push_back(*resolveHwProfile(n));
    return v;
  }();
  return ps;
}

const Model& zooModel(const std::string& name, int64_t batch) {
  static std::map<std::pair<std::string, int64_t>, std::unique_ptr<Model>> cache;
  auto& slot = cache[{name, batch}];
  if (!slot) {
    ZooParams p;
    p.batch = batch;
    auto m = buildZooModel(name, p);
    EXPECT_TRUE(m.ok()) << name << ": " << (m.ok() ? "" : m.error().message);
    slot = std::make_unique<Model>(m.ok() ? std::move(*m) : Model{});
  }
  return *slot;
}

TEST(SimZoo, EveryModelEveryProfileRespectsPhysicalBounds) {
  ASSERT_GE(profiles().size(), 4u);
  for (const auto& e : zooEntries()) {
    const Model& m = zooModel(e.name, 1);
    ASSERT_TRUE(m.graph);
    const Graph& g = *m.graph;
    const auto unfused = *unfusedGroups(g);
    const auto fused = epilogueGroups(g);
    for (const auto& hw : profiles()) {
      const std::string what = e.name + " on " + hw.name;
      auto graph = simulate(g, unfused, hw);
      ASSERT_TRUE(graph.ok()) << what << ": " << graph.error().message;
      expectPhysical(*graph, hw, what + " (graph)");
      SimOptions eo;
      eo.mode = SimMode::Eager;
      auto eager = simulate(g, unfused, hw, eo);
      ASSERT_TRUE(eager.ok()) << what << ": " << eager.error().message;
      expectPhysical(*eager, hw, what + " (eager)");
      EXPECT_GT(eager->latencyUs, graph->latencyUs) << what;
      auto f = simulate(g, fused, hw);
      ASSERT_TRUE(f.ok()) << what << ": " << f.error().message;
      expectPhysical(*f, hw, what + " (epilogue-fused)");
      EXPECT_LE(f->hbmBytes, graph->hbmBytes) << what;
      EXPECT_TRUE(graph->warnings.empty()) << what << ": " << graph->warnings.front();
    }
  }
}

// The acceptance figures at batch 16 on the default profile, with the stand-in grouping.
TEST(SimZoo, Batch16OnDefaultProfile) {
  const HwProfile hw = *resolveHwProfile("ascend910b2");
  for (const char* name : {"resnet50", "bert", "mobilenetv2"}) {
    const Graph& g = *zooModel(name, 16).graph;
    SimOptions o;
    o.batch = 16;
    auto unfused = simulate(g, *unfusedGroups(g), hw, o);
    ASSERT_TRUE(unfused.ok()) << unfused.error().message;
    o.mode = SimMode::Eager;
    auto eager = simulate(g, *unfusedGroups(g), hw, o);
    ASSERT_TRUE(eager.ok());
    o.mode = SimMode::Graph;
    auto fused = simulate(g, epilogueGroups(g), hw, o);
    ASSERT_TRUE(fused.ok()) << fused.error().message;
    EXPECT_GT(eager->latencyUs, unfused->latencyUs) << name;
    EXPECT_LT(fused->latencyUs, unfused->latencyUs) << name;
    EXPECT_LT(fused->hbmBytes, unfused->hbmBytes) << name;
    EXPECT_LT(fused->kernels.size(), unfused->kernels.size()) << name;
    EXPECT_NEAR(unfused->throughput, 16.0 / (unfused->latencyUs * 1e-6), 1e-6 * unfused->throughput);
  }
}

}  // namespace
}  // namespace fw::sim::test
