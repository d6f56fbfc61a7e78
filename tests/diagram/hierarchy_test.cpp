// Groups for any graph: name scopes when the names carry useful ones, repeated structure otherwise,
// chunks for wide levels; big graphs fold into a small overview.
#include <gtest/gtest.h>

#include <set>

#include "core/io/ModelSource.h"
#include "fusion/Pipeline.h"
#include "ui/diagram/Diagram.h"
#include "ui/diagram/Hierarchy.h"

namespace {

namespace dg = fw::diagram;
using fw::DType;
using fw::Graph;
using fw::Shape;

// A residual stack: x -> [MatMul -> Relu -> Add(x)] x `layers`, with node names from `name(layer, op)`,
// plus a "mask" input read by every layer (a value that must not hide the cuts between layers).
template <class Name>
std::shared_ptr<Graph> stack(int layers, Name name) {
  auto g = std::make_shared<Graph>();
  const Shape s({4, 8});
  auto x = g->addInput("x", DType::Float32, s);
  auto mask = g->addInput("mask", DType::Float32, s);
  auto w = g->addInitializer("w", fw::Tensor::floats({8, 8}, std::vector<float>(64, 0.1f)));
  for (int l = 0; l < layers; ++l) {
    auto a = g->addValue("a" + std::to_string(l), DType::Float32, s);
    auto b = g->addValue("b" + std::to_string(l), DType::Float32, s);
    auto c = g->addValue("c" + std::to_string(l), DType::Float32, s);
    auto y = g->addValue("y" + std::to_string(l), DType::Float32, s);
    g->addNode("MatMul", {x, w}, {a}, {}, name(l, "matmul"));
    g->addNode("Add", {a, mask}, {b}, {}, name(l, "mask"));
    g->addNode("Relu", {b}, {c}, {}, name(l, "relu"));
    g->addNode("Add", {c, x}, {y}, {}, name(l, "residual"));
    x = y;
  }
  g->addOutput(x);
  return g;
}

TEST(Hierarchy, UsesNameScopesInEveryCommonSpelling) {
  auto slash = stack(3, [](int l, const char* op) { return "/encoder/layer." + std::to_string(l) + "/" + op; });
  auto h = dg::buildHierarchy(*slash);
  EXPECT_EQ(h.source, "names");
  EXPECT_EQ(h.scopeByName.at("/encoder/layer.1/relu"), "encoder/layer.1");
  auto dots = stack(3, [](int l, const char* op) { return "layer" + std::to_string(l) + ".block." + op; });
  EXPECT_EQ(dg::buildHierarchy(*dots).scopeByName.at("layer2.block.relu"), "layer2/block");
  auto prefix = stack(3, [](int l, const char* op) { return "l" + std::to_string(l) + "_" + op; });
  auto hp = dg::buildHierarchy(*prefix);
  EXPECT_EQ(hp.source, "names");
  EXPECT_EQ(hp.scopeByName.at("l2_relu"), "l2");
}

TEST(Hierarchy, FindsRepeatedBlocksWhenNamesCarryNothing) {
  // Paddle-style names group by op type (every edge crosses "scopes"): rejected.
  int k = 0;
  auto g = stack(12, [&](int, const char* op) { return std::string("p2o.") + op + "." + std::to_string(k++); });
  auto h = dg::buildHierarchy(*g);
  EXPECT_EQ(h.source, "structure");
  EXPECT_EQ(h.series, 1u);
  EXPECT_EQ(h.blocks, 12u);
  EXPECT_EQ(h.scopeByName.at("p2o.relu.6"), "blocks 0-11/block 1");  // layer 1's Relu (4 nodes per layer)
  // every layer is one block of its 4 nodes
  std::map<std::string, int> perBlock;
  for (const auto& [n, s] : h.scopeByName) ++perBlock[s];
  EXPECT_EQ(perBlock.size(), 12u);
  for (const auto& [s, c] : perBlock) EXPECT_EQ(c, 4) << s;
}

TEST(Hierarchy, ChunksWideLevelsAndLongRuns) {
  auto g = stack(100, [](int l, const char* op) { return "layers/" + std::to_string(l) + "/" + op; });
  dg::HierarchyOptions o;
  o.maxChildren = 40;
  auto h = dg::buildHierarchy(*g, o);
  EXPECT_EQ(h.scopeByName.at("layers/41/relu"), "layers/40-79/41");
  EXPECT_EQ(h.scopeByName.at("layers/99/relu"), "layers/80-99/99");
  // 300 unscoped nodes in one chain: runs of at most maxLeaves
  auto flat = std::make_shared<Graph>();
  auto v = flat->addInput("x", DType::Float32, Shape({2}));
  for (int i = 0; i < 300; ++i) {
    auto o2 = flat->addValue("v" + std::to_string(i), DType::Float32, Shape({2}));
    flat->addNode(i % 2 ? "Relu" : "Neg", {v}, {o2}, {}, "n" + std::to_string(i));
    v = o2;
  }
  flat->addOutput(v);
  dg::HierarchyOptions small;
  small.maxLeaves = 100;
  auto hf = dg::buildHierarchy(*flat, small);
  std::map<std::string, int> sizes;
  for (const auto& [n, s] : hf.scopeByName) ++sizes[s];
  for (const auto& [s, c] : sizes) EXPECT_LE(c, 100) << s;
}

TEST(Hierarchy, BigGraphsFoldIntoASmallOverviewAndKernelsFollowTheirNodes) {
  auto m = fw::loadModel("zoo:bert?layers=120&hidden=32&heads=2&seq=8");
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto h = std::make_shared<const dg::Hierarchy>(dg::buildHierarchy(*m->graph));
  dg::DiagramOptions o;
  o.hierarchy = h;
  o.foldedBoxes = 60;
  auto before = dg::buildDiagram(*m->graph, nullptr, o);
  ASSERT_TRUE(before.ok());
  EXPECT_LE(before->boxes.size(), 60u);
  EXPECT_GT(before->hiddenNodes, m->graph->liveNodeCount() * 9 / 10);
  // the fused view folds the same way: a kernel sits in the group of its members
  auto f = fw::fusion::fuseModel(*m, {});
  ASSERT_TRUE(f.ok());
  dg::Grouping grouping;
  for (const auto& k : f->kernels) grouping.kernels.push_back({k.name, k.members, k.unit, {}, {}});
  auto after = dg::buildDiagram(*f->rewritten.graph, &grouping, o);
  ASSERT_TRUE(after.ok());
  EXPECT_LE(after->boxes.size(), 60u);
  std::set<std::string> beforeScopes, afterScopes;
  for (const auto& b : before->boxes)
    if (b.kind == dg::BoxKind::Scope) beforeScopes.insert(b.scope);
  for (const auto& b : after->boxes)
    if (b.kind == dg::BoxKind::Scope) {
      afterScopes.insert(b.scope);
      EXPECT_NE(b.detail.find("kernels"), std::string::npos);
      EXPECT_FALSE(b.ops.empty());
    }
  EXPECT_EQ(beforeScopes, afterScopes);
  // expanding one group (at the depth in effect, as the GUI does) shows its children, the rest stays folded
  o.collapseDepth = before->collapseDepth;
  o.expandedScopes = {*beforeScopes.begin()};
  auto open = dg::buildDiagram(*m->graph, nullptr, o);
  ASSERT_TRUE(open.ok());
  EXPECT_GT(open->boxes.size(), before->boxes.size());
  EXPECT_LE(open->boxes.size(), before->boxes.size() + 60);
}

}  // namespace
