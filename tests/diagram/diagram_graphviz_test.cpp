// Graphviz layout and rendering through fw_diagram: formats, geometry, the process-wide mutex.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "core/io/ModelSource.h"
#include "core/util/FileUtil.h"
#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"
#include "ui/diagram/Graphviz.h"

namespace {

using fw::DType;
using fw::Graph;
using fw::Shape;
namespace dg = fw::diagram;

Graph chain(int n, const std::string& prefix = "blk") {
  Graph g;
  g.name = "chain";
  auto v = g.addInput("x", DType::Float32, Shape({1, 16}));
  for (int i = 0; i < n; ++i) {
    auto out = g.addValue("v" + std::to_string(i), DType::Float32, Shape({1, 16}));
    g.addNode(i % 2 ? "Relu" : "MatMul", {v}, {out}, {}, prefix + std::to_string(i / 4) + "/op" + std::to_string(i));
    v = out;
  }
  g.addOutput(v);
  return g;
}

std::string chainDot(int n) {
  auto d = dg::buildDiagram(chain(n));
  EXPECT_TRUE(d.ok());
  return dg::toDot(*d);
}

}  // namespace

TEST(DiagramGraphviz, FormatFromExtension) {
  EXPECT_EQ(*dg::formatFromPath("a/b.svg"), dg::Format::Svg);
  EXPECT_EQ(*dg::formatFromPath("B.PNG"), dg::Format::Png);
  EXPECT_EQ(*dg::formatFromPath("x.pdf"), dg::Format::Pdf);
  EXPECT_EQ(*dg::formatFromPath("x.dot"), dg::Format::Dot);
  EXPECT_EQ(*dg::formatFromPath("x.gv"), dg::Format::Dot);
  auto bad = dg::formatFromPath("out.jpeg");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, fw::ErrorCode::BadInput);
  EXPECT_NE(bad.error().message.find(".jpeg"), std::string::npos);
  EXPECT_NE(bad.error().message.find(".svg"), std::string::npos);
  EXPECT_FALSE(dg::formatFromPath("dir.v2/noext").ok());
}

TEST(DiagramGraphviz, RendersEachFormat) {
  const std::string dot = chainDot(6);
  auto svg = dg::renderDot(dot, dg::Format::Svg);
  ASSERT_TRUE(svg.ok()) << svg.error().message;
  EXPECT_NE(svg->find("<svg"), std::string::npos);
  EXPECT_NE(svg->find("class=\"node\""), std::string::npos);
  EXPECT_NE(svg->find("<title>blk0/op1</title>"), std::string::npos);
  auto png = dg::renderDot(dot, dg::Format::Png);
  ASSERT_TRUE(png.ok()) << png.error().message;
  ASSERT_GT(png->size(), 8u);
  EXPECT_EQ(png->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  auto pdf = dg::renderDot(dot, dg::Format::Pdf);
  ASSERT_TRUE(pdf.ok()) << pdf.error().message;
  EXPECT_EQ(pdf->substr(0, 5), "%PDF-");
  auto asDot = dg::renderDot(dot, dg::Format::Dot);
  ASSERT_TRUE(asDot.ok());
  EXPECT_EQ(*asDot, dot);
}

TEST(DiagramGraphviz, RenderToFileIsAtomicAndByExtension) {
  const auto dir = std::filesystem::temp_directory_path() / ("fw_diagram_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string dot = chainDot(3);
  for (const char* name : {"g.svg", "g.png", "g.pdf", "g.dot"}) {
    const auto path = (dir / name).string();
    ASSERT_TRUE(dg::renderDotToFile(dot, path).ok()) << name;
    auto bytes = fw::readFileBytes(path);
    ASSERT_TRUE(bytes.ok());
    EXPECT_GT(bytes->size(), 20u) << name;
  }
  EXPECT_FALSE(dg::renderDotToFile(dot, (dir / "g.bmp").string()).ok());
  EXPECT_FALSE(std::filesystem::exists(dir / "g.bmp"));
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << "leftover " << e.path();
  }
  EXPECT_EQ(files, 4u);
  std::filesystem::remove_all(dir);
}

TEST(DiagramGraphviz, BadDotIsAnErrorNotACrash) {
  auto l = dg::layoutDot("digraph { a -> ");
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.error().code, fw::ErrorCode::BadInput);
  EXPECT_NE(l.error().message.find("graphviz"), std::string::npos);
  // Graphviz is usable again afterwards.
  EXPECT_TRUE(dg::layoutDot("digraph { a -> b }").ok());
}

TEST(DiagramGraphviz, LayoutGivesEveryBoxAPositionWithYFlipped) {
  auto d = dg::buildDiagram(chain(8));
  ASSERT_TRUE(d.ok());
  auto l = dg::layoutDot(dg::toDot(*d));
  ASSERT_TRUE(l.ok()) << l.error().message;
  ASSERT_EQ(l->nodes.size(), d->boxes.size());
  std::vector<int> seen(d->boxes.size(), 0);
  for (const auto& n : l->nodes) {
    ASSERT_GE(n.box, 0);
    ASSERT_LT(static_cast<size_t>(n.box), d->boxes.size());
    EXPECT_EQ(n.name, d->boxes[static_cast<size_t>(n.box)].id);
    ++seen[static_cast<size_t>(n.box)];
    EXPECT_GT(n.width, 10);
    EXPECT_GT(n.height, 10);
    EXPECT_GE(n.x - n.width / 2, -0.5);
    EXPECT_LE(n.x + n.width / 2, l->width + 0.5);
    EXPECT_GE(n.y - n.height / 2, -0.5);
    EXPECT_LE(n.y + n.height / 2, l->height + 0.5);
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  // Top-to-bottom ranks with y growing downwards: the input is above every op, the output below.
  auto yOf = [&](const std::string& id) {
    for (const auto& n : l->nodes)
      if (n.name == id) return n.y;
    return -1.0;
  };
  EXPECT_LT(yOf("input:x"), yOf("blk0/op0"));
  EXPECT_LT(yOf("blk0/op0"), yOf("blk1/op7"));
  EXPECT_LT(yOf("blk1/op7"), yOf("output:v7"));
  ASSERT_EQ(l->edges.size(), d->edges.size());
  for (const auto& e : l->edges) {
    EXPECT_GE(e.points.size(), 4u);
    EXPECT_EQ((e.points.size() - 1) % 3, 0u);
    ASSERT_TRUE(e.arrowTip.has_value());
    EXPECT_GT(e.arrowTip->y, e.points.front().y);  // edges run downwards
  }
}

TEST(DiagramGraphviz, LayoutMapsEscapedNamesBack) {
  Graph g;
  auto x = g.addInput("x", DType::Float32, Shape({2}));
  auto y = g.addValue("y", DType::Float32, Shape({2}));
  g.addNode("Relu", {x}, {y}, {}, "say \"hi\"");
  g.addOutput(y);
  auto d = dg::buildDiagram(g);
  ASSERT_TRUE(d.ok());
  auto l = dg::layoutDot(dg::toDot(*d));
  ASSERT_TRUE(l.ok()) << l.error().message;
  bool found = false;
  for (const auto& n : l->nodes)
    if (n.box >= 0 && d->boxes[static_cast<size_t>(n.box)].id == "say \"hi\"") found = true;
  EXPECT_TRUE(found);
}

TEST(DiagramGraphviz, SideBySideHasTwoClustersBeforeLeftOfAfter) {
  Graph g = chain(6);
  auto before = dg::buildDiagram(g);
  auto grouping = dg::unfusedGrouping(g);
  grouping.kernels.clear();
  grouping.kernels.push_back({"fused0", {0, 1, 2}, "cube", {}, ""});
  grouping.kernels.push_back({"fused1", {3, 4, 5}, "vector", {}, ""});
  auto after = dg::buildDiagram(g, &grouping);
  ASSERT_TRUE(before.ok() && after.ok());
  const std::string dot = dg::toSideBySideDot(*before, *after);
  EXPECT_NE(dot.find("subgraph cluster_before"), std::string::npos);
  EXPECT_NE(dot.find("\"after:fused0\""), std::string::npos);
  EXPECT_NE(dot.find("\"before:blk0/op0\""), std::string::npos);
  auto l = dg::layoutDot(dot);
  ASSERT_TRUE(l.ok()) << l.error().message;
  ASSERT_EQ(l->clusters.size(), 2u);
  const auto& b = l->clusters[0].name == "cluster_before" ? l->clusters[0] : l->clusters[1];
  const auto& a = l->clusters[0].name == "cluster_before" ? l->clusters[1] : l->clusters[0];
  EXPECT_LE(b.x + b.width, a.x + 0.5);
  auto svg = dg::renderDot(dot, dg::Format::Svg);
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("class=\"cluster\""), std::string::npos);
  EXPECT_NE(svg->find("class=\"node\""), std::string::npos);
}

TEST(DiagramGraphviz, TwoThreadsAreSerializedByTheMutex) {
  const std::string dot = chainDot(30);
  auto reference = dg::layoutDot(dot);
  ASSERT_TRUE(reference.ok());
  const auto before = dg::graphvizStats();
  std::vector<std::string> failures[2];
  std::vector<double> widths[2];
  auto work = [&](int t) {
    for (int i = 0; i < 4; ++i) {
      // A different comment each time: the same picture, but not answered by the layout cache.
      auto l = dg::layoutDot("/* thread " + std::to_string(t) + " round " + std::to_string(i) + " */\n" + dot);
      if (!l.ok()) {
        failures[t].push_back(l.error().message);
        continue;
      }
      widths[t].push_back(l->width);
      auto svg = dg::renderDot(dot, dg::Format::Svg);
      if (!svg.ok()) failures[t].push_back(svg.error().message);
    }
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  const auto after = dg::graphvizStats();
  for (int t = 0; t < 2; ++t) {
    EXPECT_TRUE(failures[t].empty()) << failures[t].front();
    ASSERT_EQ(widths[t].size(), 4u);
    for (double w : widths[t]) EXPECT_DOUBLE_EQ(w, reference->width);
  }
  EXPECT_EQ(after.sessions - before.sessions, 16);
  EXPECT_EQ(after.maxConcurrent, 1);
}

TEST(DiagramGraphviz, ALayoutSeenBeforeComesFromTheCache) {
  const std::string dot = "/* cache test */\n" + chainDot(12);
  const auto s0 = dg::graphvizStats();
  auto first = dg::layoutDot(dot);
  ASSERT_TRUE(first.ok());
  const auto s1 = dg::graphvizStats();
  EXPECT_EQ(s1.sessions - s0.sessions, 1);
  auto again = dg::layoutDot(dot);
  ASSERT_TRUE(again.ok());
  const auto s2 = dg::graphvizStats();
  EXPECT_EQ(s2.sessions, s1.sessions);  // no Graphviz run
  EXPECT_EQ(s2.layoutCacheHits - s1.layoutCacheHits, 1);
  ASSERT_EQ(again->nodes.size(), first->nodes.size());
  for (size_t k = 0; k < first->nodes.size(); ++k) {
    EXPECT_EQ(again->nodes[k].name, first->nodes[k].name);
    EXPECT_DOUBLE_EQ(again->nodes[k].x, first->nodes[k].x);
    EXPECT_DOUBLE_EQ(again->nodes[k].y, first->nodes[k].y);
  }
  // Another picture is laid out anew.
  auto other = dg::layoutDot("/* cache test */\n" + chainDot(13));
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(dg::graphvizStats().sessions - s2.sessions, 1);
  EXPECT_EQ(other->nodes.size(), first->nodes.size() + 1);
}

TEST(DiagramGraphviz, Resnet50LaysOutEveryNode) {
  auto m = fw::loadModel("zoo:resnet50");
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto d = dg::buildDiagram(*m->graph);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->collapseDepth, 0);  // a few hundred nodes: no folding needed
  auto l = dg::layoutDot(dg::toDot(*d));
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_EQ(l->nodes.size(), d->boxes.size());
  for (const auto& n : l->nodes) EXPECT_GE(n.box, 0);
  // Collapsing the stages shrinks the drawing to a handful of boxes.
  dg::DiagramOptions o;
  o.collapseDepth = 1;
  auto folded = dg::buildDiagram(*m->graph, nullptr, o);
  ASSERT_TRUE(folded.ok());
  EXPECT_LT(folded->boxes.size(), 20u);
  EXPECT_GE(folded->findBox("layer3"), 0);
}
