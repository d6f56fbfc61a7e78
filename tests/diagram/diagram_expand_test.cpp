// Expanding a folded group in place (ui/diagram/Expand.h): only the contents are laid out, the rest keeps
// its shape, nothing overlaps, every edge is drawn and touches its boxes.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "tests/common/SmallNet.h"
#include "ui/diagram/DotWriter.h"
#include "ui/diagram/Expand.h"
#include "ui/diagram/Graphviz.h"
#include "ui/diagram/Hierarchy.h"

namespace dg = fw::diagram;

namespace {

bool overlap(const dg::NodeGeometry& a, const dg::NodeGeometry& b) {
  return std::abs(a.x - b.x) * 2 < a.width + b.width - 1e-6 && std::abs(a.y - b.y) * 2 < a.height + b.height - 1e-6;
}

bool near(dg::Point p, const dg::NodeGeometry& g, double slack) {
  return std::abs(p.x - g.x) <= g.width / 2 + slack && std::abs(p.y - g.y) <= g.height / 2 + slack;
}

// Checks the expanded layout `next` of diagram `d` against the picture it extends; returns the group's
// growth (dx, dy) seen on the old boxes.
void expectExtends(const dg::Diagram& prev, const dg::Layout& pl, const dg::Diagram& d, const dg::Layout& l,
                   const std::string& scope) {
  std::map<std::string, const dg::NodeGeometry*> before, after;
  for (const auto& g : pl.nodes) before[g.name] = &g;
  for (const auto& g : l.nodes) after[g.name] = &g;
  ASSERT_EQ(l.nodes.size(), d.boxes.size());
  const dg::NodeGeometry* group = nullptr;
  for (const auto& b : prev.boxes)
    if (b.kind == dg::BoxKind::Scope && b.scope == scope) group = before.at(b.id);
  ASSERT_NE(group, nullptr);
  // Old boxes: same size, moved only by one of three horizontal and two vertical amounts, by their side.
  std::set<long> xs, ys;
  std::vector<std::pair<const dg::NodeGeometry*, const dg::NodeGeometry*>> old;
  double innerTop = 1e18, innerLeft = 1e18, innerRight = -1e18;
  for (const auto& g : l.nodes) {
    const auto& box = d.boxes[static_cast<size_t>(g.box)];
    EXPECT_EQ(g.name, box.id);
    EXPECT_GE(g.x - g.width / 2, -1e-6);
    EXPECT_GE(g.y - g.height / 2, -1e-6);
    EXPECT_LE(g.x + g.width / 2, l.width + 1e-6);
    EXPECT_LE(g.y + g.height / 2, l.height + 1e-6);
    if (dg::insideScope(box, scope)) {
      innerTop = std::min(innerTop, g.y - g.height / 2);
      innerLeft = std::min(innerLeft, g.x - g.width / 2);
      innerRight = std::max(innerRight, g.x + g.width / 2);
      continue;
    }
    const auto* o = before.at(g.name);
    EXPECT_DOUBLE_EQ(g.width, o->width);
    EXPECT_DOUBLE_EQ(g.height, o->height);
    old.push_back({o, &g});
    const double mx = g.x - o->x, my = g.y - o->y;
    EXPECT_GE(mx, -1e-6);
    EXPECT_GE(my, -1e-6);
    if (o->y < group->y) {
      EXPECT_NEAR(my, 0, 1e-6) << g.name << " lies above the group: it stays";
    }
    if (o->x < group->x) {
      EXPECT_NEAR(mx, 0, 1e-6) << g.name << " lies left of the group: it stays";
    }
    xs.insert(std::lround(mx * 1000));
    ys.insert(std::lround(my * 1000));
  }
  EXPECT_LE(xs.size(), 3u);
  EXPECT_LE(ys.size(), 2u);
  // The contents hang from where the group's box was, centred on it.
  EXPECT_NEAR(innerTop, group->y - group->height / 2, 1.0);
  const double shiftX = (innerLeft + innerRight) / 2 - group->x;
  EXPECT_GE(shiftX, -1.0);
  // The old boxes keep their order in both directions.
  for (const auto& [a0, a1] : old)
    for (const auto& [b0, b1] : old) {
      if (a0->x < b0->x) {
        EXPECT_LE(a1->x, b1->x);
      }
      if (a0->y < b0->y) {
        EXPECT_LE(a1->y, b1->y);
      }
    }
  // Nothing overlaps.
  for (size_t i = 0; i < l.nodes.size(); ++i)
    for (size_t j = i + 1; j < l.nodes.size(); ++j)
      EXPECT_FALSE(overlap(l.nodes[i], l.nodes[j])) << l.nodes[i].name << " / " << l.nodes[j].name;
  // Every edge of the new diagram is drawn, starts at its tail box and points at its head box.
  ASSERT_EQ(l.edges.size(), d.edges.size());
  for (const auto& e : l.edges) {
    ASSERT_GE(e.points.size(), 4u);
    const auto* from = after.at(e.from);
    const auto* to = after.at(e.to);
    EXPECT_TRUE(near(e.points.front(), *from, 2)) << e.from << " -> " << e.to;
    const dg::Point end = e.arrowTip ? *e.arrowTip : e.points.back();
    EXPECT_TRUE(near(end, *to, 2)) << e.from << " -> " << e.to;
  }
}

}  // namespace

TEST(DiagramExpand, OpensAGroupWhereItWasAndTheRestKeepsItsShape) {
  auto n = fwtest::smallScopedNet();
  dg::DiagramOptions o;
  o.collapseDepth = 1;
  auto folded = dg::buildDiagram(*n.graph, nullptr, o);
  ASSERT_TRUE(folded.ok());
  auto pl = dg::layoutDot(dg::toDot(*folded));
  ASSERT_TRUE(pl.ok()) << pl.error().message;
  o.expandedScopes = {"layer1"};
  auto open = dg::buildDiagram(*n.graph, nullptr, o);
  ASSERT_TRUE(open.ok());
  auto l = dg::expandInPlace(*folded, *pl, *open, "layer1", 0);
  ASSERT_TRUE(l.has_value());
  ASSERT_TRUE(l->ok()) << l->error().message;
  EXPECT_FALSE((*l)->fallback);
  expectExtends(*folded, *pl, *open, (*l)->layout, "layer1");

  // Not an expansion of the picture shown: the caller must lay out in full.
  EXPECT_FALSE(dg::expandInPlace(*folded, *pl, *open, "head", 0).has_value());  // "head" is not folded
  o.expandedScopes.clear();
  o.collapseDepth = 0;
  auto flat = dg::buildDiagram(*n.graph, nullptr, o);
  ASSERT_TRUE(flat.ok());
  EXPECT_FALSE(dg::expandInPlace(*open, (*l)->layout, *flat, "layer1", 0).has_value());
}

TEST(DiagramExpand, EveryGroupOfAStructureFoldedEncoderOpensInPlace) {
  // Node names without scopes: the groups come from repeated structure; open each top-level group of
  // the overview in turn, and then one group inside an opened one.
  auto g = fwtest::unscopedChain(130);  // 650 nodes: more than the 500 a view opens unfolded
  auto h = std::make_shared<const dg::Hierarchy>(dg::buildHierarchy(*g));
  ASSERT_EQ(h->source, "structure");
  dg::DiagramOptions o;
  o.hierarchy = h;
  o.foldedBoxes = 60;
  auto overview = dg::buildDiagram(*g, nullptr, o);
  ASSERT_TRUE(overview.ok());
  o.collapseDepth = overview->collapseDepth;
  auto pl = dg::layoutDot(dg::toDot(*overview));
  ASSERT_TRUE(pl.ok());
  size_t opened = 0;
  for (const auto& b : overview->boxes) {
    if (b.kind != dg::BoxKind::Scope) continue;
    SCOPED_TRACE(b.scope);
    auto oo = o;
    oo.expandedScopes = {b.scope};
    auto open = dg::buildDiagram(*g, nullptr, oo);
    ASSERT_TRUE(open.ok());
    auto l = dg::expandInPlace(*overview, *pl, *open, b.scope, 0);
    ASSERT_TRUE(l.has_value());
    ASSERT_TRUE(l->ok()) << l->error().message;
    expectExtends(*overview, *pl, *open, (*l)->layout, b.scope);
    ++opened;
    // One level further down, from the picture just made.
    for (const auto& c : open->boxes) {
      if (c.kind != dg::BoxKind::Scope || !dg::insideScope(c, b.scope)) continue;
      auto o2 = oo;
      o2.expandedScopes.insert(c.scope);
      auto deeper = dg::buildDiagram(*g, nullptr, o2);
      ASSERT_TRUE(deeper.ok());
      auto l2 = dg::expandInPlace(*open, (*l)->layout, *deeper, c.scope, 0);
      ASSERT_TRUE(l2.has_value());
      ASSERT_TRUE(l2->ok());
      expectExtends(*open, (*l)->layout, *deeper, (*l2)->layout, c.scope);
      break;
    }
  }
  EXPECT_GE(opened, 2u);
}
