// DOT builder: boxes, kernels, scopes, escaping (Qt-free part of the diagram library).
#include <gtest/gtest.h>

#include <set>

#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"
#include "tests/common/SmallNet.h"

namespace {

using fw::DType;
using fw::Graph;
using fw::NodeId;
using fw::Shape;
namespace dg = fw::diagram;

// The shared small scoped network (tests/common/SmallNet.h), as a plain Graph reference for the builder.
struct SmallNet {
  fwtest::SmallNet net = fwtest::smallScopedNet();
  const Graph& g = *net.graph;
  NodeId stem = net.stem, conv1 = net.conv1, relu = net.relu, add = net.add, fc = net.fc;
};
SmallNet smallNet() { return {}; }

size_t countKind(const dg::Diagram& d, dg::BoxKind k) {
  size_t c = 0;
  for (const auto& b : d.boxes) c += b.kind == k ? 1 : 0;
  return c;
}

bool hasEdge(const dg::Diagram& d, const std::string& from, const std::string& to) {
  for (const auto& e : d.edges)
    if (d.boxes[e.from].id == from && d.boxes[e.to].id == to) return true;
  return false;
}

}  // namespace

TEST(DiagramBuilder, OneBoxPerNodePlusGraphIO) {
  auto n = smallNet();
  auto d = dg::buildDiagram(n.g);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(countKind(*d, dg::BoxKind::Node), 5u);
  EXPECT_EQ(countKind(*d, dg::BoxKind::Input), 1u);
  EXPECT_EQ(countKind(*d, dg::BoxKind::Output), 1u);
  EXPECT_EQ(d->collapseDepth, 0);
  const long relu = d->findBox("layer1/0/relu");
  ASSERT_GE(relu, 0);
  EXPECT_EQ(d->boxes[static_cast<size_t>(relu)].title, "Relu");
  EXPECT_EQ(d->boxes[static_cast<size_t>(relu)].detail, "[1,8,8,8]");
  EXPECT_TRUE(hasEdge(*d, "stem_conv", "layer1/1/add"));  // the skip connection
  EXPECT_TRUE(hasEdge(*d, "input:x", "stem_conv"));
  EXPECT_TRUE(hasEdge(*d, "head/fc", "output:y"));
  const std::string dot = dg::toDot(*d);
  EXPECT_NE(dot.find("\"layer1/0/relu\" [label=\"Relu\\n[1,8,8,8]\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"layer1/0/conv1\" -> \"layer1/0/relu\""), std::string::npos) << dot;
}

TEST(DiagramBuilder, GroupedKernelsBecomeOneNode) {
  auto n = smallNet();
  dg::Grouping grouping;
  grouping.kernels.push_back({"conv1_relu", {n.relu, n.conv1}, "cube", 12.5, ""});
  grouping.kernels.push_back({"add_fc", {n.add, n.fc}, "vector", 3.0, ""});
  auto d = dg::buildDiagram(n.g, &grouping);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_TRUE(d->grouped);
  EXPECT_EQ(countKind(*d, dg::BoxKind::Kernel), 2u);
  EXPECT_EQ(countKind(*d, dg::BoxKind::Node), 1u);  // stem_conv is in no kernel: drawn alone
  const long k = d->findBox("conv1_relu");
  ASSERT_GE(k, 0);
  const auto& box = d->boxes[static_cast<size_t>(k)];
  EXPECT_EQ(box.memberNames, (std::vector<std::string>{"layer1/0/conv1", "layer1/0/relu"}));  // topological
  EXPECT_EQ(box.title, "Conv+Relu");
  EXPECT_EQ(box.unit, "cube");
  EXPECT_EQ(d->findBox("layer1/0/conv1"), -1);
  EXPECT_TRUE(hasEdge(*d, "stem_conv", "conv1_relu"));
  EXPECT_TRUE(hasEdge(*d, "conv1_relu", "add_fc"));
  EXPECT_FALSE(hasEdge(*d, "conv1_relu", "conv1_relu"));
  EXPECT_EQ(d->boxesWithMembers({"layer1/0/relu"}), std::vector<size_t>{static_cast<size_t>(k)});
  const std::string dot = dg::toDot(*d);
  EXPECT_NE(dot.find("\"conv1_relu\" [label=\"Conv+Relu\\ncube  [1,8,8,8]\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("fillcolor=\"" + dg::unitColor("cube") + "\""), std::string::npos);
  // Heat mode: the hottest kernel gets the end of the ramp.
  EXPECT_EQ(dg::fillColor(box, dg::ColorMode::Heat, dg::maxHeat(*d)), dg::heatColor(1.0));
  EXPECT_NE(dg::heatColor(0.0), dg::heatColor(1.0));
}

TEST(DiagramBuilder, UnfusedGroupingIsOneKernelPerNode) {
  auto n = smallNet();
  auto grouping = dg::unfusedGrouping(n.g);
  ASSERT_EQ(grouping.kernels.size(), 5u);
  auto d = dg::buildDiagram(n.g, &grouping);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(countKind(*d, dg::BoxKind::Kernel), 5u);
  EXPECT_GE(d->findBox("layer1/0/relu"), 0);
}

TEST(DiagramBuilder, BadGroupingsNameKernelAndNode) {
  auto n = smallNet();
  dg::Grouping twice;
  twice.kernels.push_back({"k1", {n.conv1}, "", {}, ""});
  twice.kernels.push_back({"k2", {n.conv1, n.relu}, "", {}, ""});
  auto d = dg::buildDiagram(n.g, &twice);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, fw::ErrorCode::BadInput);
  EXPECT_NE(d.error().message.find("layer1/0/conv1"), std::string::npos);
  EXPECT_NE(d.error().message.find("k2"), std::string::npos);
  dg::Grouping outOfRange;
  outOfRange.kernels.push_back({"k9", {99}, "", {}, ""});
  auto e = dg::buildDiagram(n.g, &outOfRange);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("k9"), std::string::npos);
}

TEST(DiagramBuilder, QuotesAndBackslashesInNamesAreEscaped) {
  Graph g;
  auto x = g.addInput("x", DType::Float32, Shape({2}));
  auto y = g.addValue("y", DType::Float32, Shape({2}));
  g.addNode("Relu", {x}, {y}, {}, "say \"hi\"\\now");
  g.addOutput(y);
  auto d = dg::buildDiagram(g);
  ASSERT_TRUE(d.ok());
  const std::string dot = dg::toDot(*d);
  EXPECT_NE(dot.find("\"say \\\"hi\\\"\\\\now\" [label="), std::string::npos) << dot;
  EXPECT_EQ(dg::dotQuote("a\nb"), "\"a\\nb\"");
}

TEST(DiagramBuilder, CollapsesScopesAndExpandsOnDemand) {
  auto n = smallNet();
  dg::DiagramOptions o;
  o.collapseDepth = 1;
  auto d = dg::buildDiagram(n.g, nullptr, o);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->collapseDepth, 1);
  const long layer1 = d->findBox("layer1");
  ASSERT_GE(layer1, 0);
  const auto& scope = d->boxes[static_cast<size_t>(layer1)];
  EXPECT_EQ(scope.kind, dg::BoxKind::Scope);
  EXPECT_EQ(scope.members.size(), 3u);
  EXPECT_EQ(scope.detail, "3 nodes");
  EXPECT_EQ(d->hiddenNodes, 3u);
  EXPECT_GE(d->findBox("head/fc"), 0);  // a scope holding one node is drawn as the node
  EXPECT_GE(d->findBox("stem_conv"), 0);
  EXPECT_EQ(d->boxes.size(), 5u);       // stem, layer1, head/fc, x, y
  EXPECT_TRUE(hasEdge(*d, "stem_conv", "layer1"));
  EXPECT_TRUE(hasEdge(*d, "layer1", "head/fc"));
  EXPECT_NE(dg::toDot(*d).find("shape=box3d"), std::string::npos);

  o.expandedScopes.insert("layer1");
  auto e = dg::buildDiagram(n.g, nullptr, o);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->findBox("layer1"), -1);
  ASSERT_GE(e->findBox("layer1/0"), 0);
  EXPECT_EQ(e->boxes[static_cast<size_t>(e->findBox("layer1/0"))].members.size(), 2u);
  EXPECT_GE(e->findBox("layer1/1/add"), 0);
  EXPECT_TRUE(hasEdge(*e, "layer1/0", "layer1/1/add"));
  EXPECT_TRUE(hasEdge(*e, "stem_conv", "layer1/1/add"));
}

TEST(DiagramBuilder, AutoCollapseOnlyAboveThreshold) {
  auto n = smallNet();
  dg::DiagramOptions o;  // auto
  auto full = dg::buildDiagram(n.g, nullptr, o);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->collapseDepth, 0);
  o.autoCollapseThreshold = 4;  // 5 nodes: too many
  auto folded = dg::buildDiagram(n.g, nullptr, o);
  ASSERT_TRUE(folded.ok());
  EXPECT_EQ(folded->collapseDepth, 2);  // depth 2 gives 4 node/scope boxes, the deepest that fits
  EXPECT_GE(folded->findBox("layer1/0"), 0);
  o.autoCollapseThreshold = 3;
  auto tighter = dg::buildDiagram(n.g, nullptr, o);
  ASSERT_TRUE(tighter.ok());
  EXPECT_EQ(tighter->collapseDepth, 1);
  EXPECT_GE(tighter->findBox("layer1"), 0);
}

TEST(DiagramBuilder, ScopeHelpers) {
  EXPECT_EQ(dg::scopeOf("layer1/0/conv1"), "layer1/0");
  EXPECT_EQ(dg::scopeOf("conv1"), "");
  EXPECT_EQ(dg::scopeDepth("layer1/0"), 2);
  EXPECT_EQ(dg::scopeDepth(""), 0);
  EXPECT_EQ(dg::scopePrefix("a/b/c", 2), "a/b");
  EXPECT_EQ(dg::scopePrefix("a/b/c", 5), "a/b/c");
  EXPECT_EQ(dg::scopePrefix("a/b/c", 1), "a");
  EXPECT_TRUE(dg::scopeWithin("a/b", "a/b"));
  EXPECT_TRUE(dg::scopeWithin("a/b/c", "a/b"));
  EXPECT_FALSE(dg::scopeWithin("a/bc", "a/b"));
  EXPECT_FALSE(dg::scopeWithin("a", "a/b"));
  EXPECT_FALSE(dg::scopeWithin("a/b", ""));
}

TEST(DiagramBuilder, AHighDegreeBoxKeepsItsBoxButNotItsEdges) {
  // m feeds 12 Relu boxes: more than max(8, boxes / 10) edges, so they are noted, not drawn.
  Graph g;
  auto x = g.addInput("x", DType::Float32, Shape({2}));
  auto m = g.addValue("m", DType::Float32, Shape({2}));
  g.addNode("Neg", {x}, {m}, {}, "hub");
  for (int i = 0; i < 12; ++i) {
    auto y = g.addValue("y" + std::to_string(i), DType::Float32, Shape({2}));
    g.addNode("Relu", {m}, {y}, {}, "r" + std::to_string(i));
    g.addOutput(y);
  }
  auto d = dg::buildDiagram(g);
  ASSERT_TRUE(d.ok());
  const long hub = d->findBox("hub");
  ASSERT_GE(hub, 0);
  EXPECT_EQ(d->boxes[static_cast<size_t>(hub)].extractedEdges, 12u);
  for (const auto& e : d->edges) EXPECT_NE(e.from, static_cast<size_t>(hub));
  EXPECT_NE(dg::boxLabel(d->boxes[static_cast<size_t>(hub)]).find("read by 12 boxes"), std::string::npos);
  dg::DiagramOptions all;
  all.highDegreeEdges = 0;  // every edge drawn
  auto full = dg::buildDiagram(g, nullptr, all);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->boxes[static_cast<size_t>(full->findBox("hub"))].extractedEdges, 0u);
}

TEST(DiagramBuilder, AKernelAcrossGroupsIsDrawnInTheGroupOfMostOfItsMembers) {
  // A chain through groups s/g0 .. s/g29, three nodes each; every kernel takes the last node of one
  // group and the first two of the next (what fusion does across LSTM steps or encoder layers).
  Graph g;
  const Shape s({4});
  auto v = g.addInput("x", DType::Float32, s);
  std::vector<NodeId> nodes;
  for (int grp = 0; grp < 30; ++grp)
    for (int k = 0; k < 3; ++k) {
      auto out = g.addValue("v" + std::to_string(grp) + "_" + std::to_string(k), DType::Float32, s);
      nodes.push_back(g.addNode("Relu", {v}, {out}, {}, "s/g" + std::to_string(grp) + "/n" + std::to_string(k)));
      v = out;
    }
  g.addOutput(v);
  dg::Grouping grouping;
  grouping.kernels.push_back({"k_first", {nodes[0], nodes[1]}, "vector", {}, {}});
  for (size_t i = 2; i + 2 < nodes.size(); i += 3)
    grouping.kernels.push_back({"k" + std::to_string(i), {nodes[i], nodes[i + 1], nodes[i + 2]}, "vector", {}, {}});
  dg::DiagramOptions o;
  o.collapseDepth = 0;
  auto d = dg::buildDiagram(g, &grouping, o);
  ASSERT_TRUE(d.ok()) << d.error().message;
  const long k2 = d->findBox("k2");
  ASSERT_GE(k2, 0);
  EXPECT_EQ(d->boxes[static_cast<size_t>(k2)].scope, "s/g1");  // n2 of g0, n0 and n1 of g1
  // Opening "s" shows one box per group (a group of one kernel is drawn as that kernel), none lying
  // directly in "s".
  o.collapseDepth = 1;
  o.expandedScopes = {"s"};
  auto open = dg::buildDiagram(g, &grouping, o);
  ASSERT_TRUE(open.ok());
  size_t direct = 0;
  std::set<std::string> groups;
  for (const auto& b : open->boxes) {
    if (b.kind != dg::BoxKind::Kernel && b.kind != dg::BoxKind::Scope) continue;
    direct += b.scope == "s" ? 1 : 0;
    groups.insert(b.scope);
  }
  EXPECT_EQ(direct, 0u);
  EXPECT_EQ(groups.size(), 30u);
}

// PyTorch writes shared weights as Identity/Cast of an initializer: those nodes are drawn inside the
// box of the first node reading them, with no edges of their own (they are weights, not data).
TEST(DiagramBuilder, WeightForwardersAreDrawnWithTheirConsumer) {
  auto g = std::make_shared<Graph>();
  auto x = g->addInput("x", DType::Float32, Shape({2, 4}));
  auto w = g->addInitializer("w", fw::Tensor::floats({4, 4}, std::vector<float>(16, 0.5f)));
  auto w1 = g->addValue("w1"), w2 = g->addValue("w2"), y = g->addValue("y"), z = g->addValue("z");
  const NodeId id = g->addNode("Identity", {w}, {w1}, {}, "shared_weight");
  fw::Attributes cast;
  cast.set(fw::Attribute::makeInt("to", 1));
  const NodeId cs = g->addNode("Cast", {w1}, {w2}, cast, "weight_cast");
  const NodeId mm1 = g->addNode("MatMul", {x, w2}, {y}, {}, "mm1");
  const NodeId mm2 = g->addNode("MatMul", {y, w2}, {z}, {}, "mm2");
  g->addOutput(z);
  auto d = dg::buildDiagram(*g, nullptr, {});
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(countKind(*d, dg::BoxKind::Node), 2u);  // the two MatMuls only
  const long b1 = d->findBox("mm1");
  ASSERT_GE(b1, 0);
  const auto& box = d->boxes[static_cast<size_t>(b1)];
  EXPECT_EQ(box.title, "MatMul");
  EXPECT_EQ(box.members, (std::vector<NodeId>{mm1, id, cs}));
  EXPECT_NE(box.tooltip.find("weight via Identity 'shared_weight'"), std::string::npos) << box.tooltip;
  // mm2 reads the shared weight too: the only edge between the MatMuls is the data y.
  ASSERT_TRUE(hasEdge(*d, "mm1", "mm2"));
  for (const auto& e : d->edges) {
    if (d->boxes[e.from].id == "mm1" && d->boxes[e.to].id == "mm2") {
      EXPECT_EQ(e.label, "y");
    }
  }
  (void)mm2;
}
