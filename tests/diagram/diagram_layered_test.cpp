// The layered fallback layout and the Graphviz time budget (ui/diagram/Layered.h).
#include <gtest/gtest.h>

#include <string>

#include "ui/diagram/Layered.h"

namespace dg = fw::diagram;

namespace {

// A diamond-rich DAG of n boxes (i -> i+1, i -> i+3), plus a back edge that closes a cycle when `cycle`.
dg::Diagram ladder(size_t n, bool cycle) {
  dg::Diagram d;
  for (size_t i = 0; i < n; ++i) {
    dg::DiagramBox b;
    b.id = "b" + std::to_string(i);
    b.title = i % 2 ? "MatMul" : "Add";
    b.detail = "1x" + std::to_string(64 * (i % 5 + 1));
    d.boxes.push_back(b);
  }
  for (size_t i = 0; i + 1 < n; ++i) d.edges.push_back({i, i + 1, "", 1});
  for (size_t i = 0; i + 3 < n; i += 2) d.edges.push_back({i, i + 3, "", 1});
  if (cycle) d.edges.push_back({n - 1, n / 2, "", 1});
  return d;
}

bool overlap(const dg::NodeGeometry& a, const dg::NodeGeometry& b) {
  return std::abs(a.x - b.x) * 2 < a.width + b.width && std::abs(a.y - b.y) * 2 < a.height + b.height;
}

}  // namespace

TEST(DiagramLayered, EveryBoxPlacedWithoutOverlapAndEdgesPointDown) {
  for (bool cycle : {false, true}) {
    const auto d = ladder(40, cycle);
    const auto l = dg::layeredLayout(d);
    ASSERT_EQ(l.nodes.size(), d.boxes.size());
    for (size_t i = 0; i < l.nodes.size(); ++i) {
      EXPECT_EQ(l.nodes[i].box, static_cast<long>(i));
      EXPECT_EQ(l.nodes[i].name, d.boxes[i].id);
      EXPECT_GT(l.nodes[i].width, 30);
      EXPECT_GE(l.nodes[i].x - l.nodes[i].width / 2, -1e-9);
      EXPECT_LE(l.nodes[i].x + l.nodes[i].width / 2, l.width + 1e-9);
      for (size_t j = i + 1; j < l.nodes.size(); ++j) EXPECT_FALSE(overlap(l.nodes[i], l.nodes[j])) << i << " " << j;
    }
    ASSERT_EQ(l.edges.size(), d.edges.size());
    size_t down = 0;
    for (size_t k = 0; k < l.edges.size(); ++k) {
      const auto& e = l.edges[k];
      ASSERT_EQ(e.points.size(), 4u);
      ASSERT_TRUE(e.arrowTip.has_value());
      if (l.nodes[d.edges[k].to].y > l.nodes[d.edges[k].from].y) ++down;
    }
    // Every edge of the DAG points down; with a cycle exactly one cannot.
    EXPECT_EQ(down, d.edges.size() - (cycle ? 1 : 0));
  }
}

TEST(DiagramLayered, OverItsBudgetGraphvizIsReplacedByTheLayeredLayout) {
  const auto d = ladder(300, false);  // drawn by no other test: not in the layout cache
  auto quick = dg::layoutWithBudget(d, 1e-6);
  ASSERT_TRUE(quick.ok()) << quick.error().message;
  EXPECT_TRUE(quick->fallback);
  EXPECT_NE(quick->note.find("300 boxes"), std::string::npos) << quick->note;
  EXPECT_EQ(quick->layout.nodes.size(), d.boxes.size());
  auto full = dg::layoutWithBudget(ladder(12, false), 0);  // no budget: Graphviz
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_FALSE(full->fallback);
  EXPECT_TRUE(full->note.empty());
  EXPECT_EQ(full->layout.nodes.size(), 12u);
}
