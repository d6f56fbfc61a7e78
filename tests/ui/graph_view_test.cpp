// The Qt graph view: items per visible box, search, selection and before<->after highlighting, scopes.
#include <gtest/gtest.h>

#include "tests/common/SmallNet.h"
#include "tests/ui/TestApp.h"

#include <QApplication>
#include <map>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>

#include "ui/diagram/Expand.h"
#include "ui/diagram/Hierarchy.h"
#include "ui/views/GraphEdgeItem.h"
#include "ui/views/GraphNodeItem.h"
#include "ui/views/GraphScene.h"
#include "ui/views/GraphView.h"

namespace {

using fw::DType;
using fw::Graph;
using fw::NodeId;
using fw::Shape;
namespace dg = fw::diagram;

using Net = fwtest::SmallNet;
Net net() { return fwtest::smallScopedNet(); }

bool laidOut(fwui::GraphView& v, QSignalSpy& finished, QSignalSpy& failed) {
  if (finished.count() == 0 && failed.count() == 0) finished.wait(30000);
  return finished.count() > 0;
}

int itemCount(fwui::GraphScene* s) {
  int n = 0;
  for (auto* item : s->nodeItems()) n += item ? 1 : 0;
  return n;
}

}  // namespace

TEST(GraphView, OneItemPerVisibleBoxAndEdgesWithArrows) {
  fwtest::testApp();
  auto n = net();
  fwui::GraphView v;
  v.resize(800, 600);
  QSignalSpy finished(&v, &fwui::GraphView::layoutFinished);
  QSignalSpy failed(&v, &fwui::GraphView::layoutFailed);
  v.setGraph(n.graph);
  EXPECT_TRUE(v.isLayoutRunning());
  ASSERT_TRUE(laidOut(v, finished, failed)) << (failed.isEmpty() ? "" : failed.front().front().toString().toStdString());
  EXPECT_FALSE(v.isLayoutRunning());
  auto* s = v.graphScene();
  EXPECT_EQ(itemCount(s), 7);  // 5 nodes + input + output
  EXPECT_EQ(static_cast<size_t>(itemCount(s)), s->diagram().boxes.size());
  int edges = 0;
  for (auto* item : s->items())
    if (item->type() == fwui::GraphEdgeItem::Type) {
      ++edges;
      EXPECT_EQ(static_cast<fwui::GraphEdgeItem*>(item)->arrowHead().size(), 3);
    }
  EXPECT_EQ(static_cast<size_t>(edges), s->diagram().edges.size());
  // Items sit where Graphviz put them: the input above the stem conv.
  auto* in = s->itemForNodeName("stem_conv");
  ASSERT_NE(in, nullptr);
  EXPECT_LT(s->itemForBox(static_cast<size_t>(s->diagram().findBox("input:x")))->pos().y(), in->pos().y());
  EXPECT_TRUE(s->itemForNodeName("layer1/0/relu")->flags() & QGraphicsItem::ItemIsSelectable);
}

TEST(GraphView, OverTheLayoutBudgetTheLayeredLayoutIsShownWithANote) {
  fwtest::testApp();
  auto n = net();
  fwui::GraphView v;
  v.resize(800, 600);
  v.setLayoutBudget(1e-6);  // Graphviz cannot finish in a microsecond
  QSignalSpy finished(&v, &fwui::GraphView::layoutFinished);
  QSignalSpy failed(&v, &fwui::GraphView::layoutFailed);
  // A picture no other test drew (another graph name), so the layout cache does not know it.
  auto fresh = std::make_shared<fw::Graph>(*n.graph);
  fresh->name = "small_under_a_budget";
  v.setGraph(fresh);
  ASSERT_TRUE(laidOut(v, finished, failed));
  EXPECT_TRUE(v.layoutNote().contains("layered layout")) << v.layoutNote().toStdString();
  auto* s = v.graphScene();
  EXPECT_EQ(static_cast<size_t>(itemCount(s)), s->diagram().boxes.size());
  auto* in = s->itemForBox(static_cast<size_t>(s->diagram().findBox("input:x")));
  ASSERT_NE(in, nullptr);
  EXPECT_LT(in->pos().y(), s->itemForNodeName("stem_conv")->pos().y());  // layers run downwards
  // With no budget the same view is Graphviz's again, without a note.
  finished.clear();
  v.setLayoutBudget(0);
  v.setGraph(fresh);
  ASSERT_TRUE(laidOut(v, finished, failed));
  EXPECT_TRUE(v.layoutNote().isEmpty());
}

TEST(GraphView, SearchSelectsAndEmitsNodeNames) {
  fwtest::testApp();
  auto n = net();
  fwui::GraphView v;
  v.resize(800, 600);
  QSignalSpy finished(&v, &fwui::GraphView::layoutFinished);
  QSignalSpy failed(&v, &fwui::GraphView::layoutFailed);
  v.setGraph(n.graph);
  ASSERT_TRUE(laidOut(v, finished, failed));
  QSignalSpy selected(&v, &fwui::GraphView::selectionChanged);
  ASSERT_TRUE(v.search("relu"));  // by op type / name, case-insensitive
  EXPECT_EQ(v.selectedNodeNames(), QStringList{"layer1/0/relu"});
  ASSERT_FALSE(selected.isEmpty());
  EXPECT_EQ(selected.back().front().toStringList(), QStringList{"layer1/0/relu"});
  // "Conv" matches two nodes: repeated searches step through them.
  ASSERT_TRUE(v.search("Conv"));
  const QStringList first = v.selectedNodeNames();
  ASSERT_TRUE(v.search("Conv"));
  EXPECT_NE(v.selectedNodeNames(), first);
  EXPECT_FALSE(v.search("no such thing"));
}

TEST(GraphView, SelectingAKernelHighlightsItsNodesInTheBeforeView) {
  fwtest::testApp();
  auto n = net();
  fwui::GraphView before, after;
  QSignalSpy bf(&before, &fwui::GraphView::layoutFinished), bx(&before, &fwui::GraphView::layoutFailed);
  QSignalSpy af(&after, &fwui::GraphView::layoutFinished), ax(&after, &fwui::GraphView::layoutFailed);
  dg::Grouping grouping;
  grouping.kernels.push_back({"conv1_relu", {n.conv1, n.relu}, "cube", 5.0, ""});
  before.setGraph(n.graph);
  after.setGraph(n.graph, grouping);
  ASSERT_TRUE(laidOut(before, bf, bx));
  ASSERT_TRUE(laidOut(after, af, ax));
  EXPECT_EQ(itemCount(after.graphScene()), 6);  // kernel + 3 nodes + I/O
  QObject::connect(&after, &fwui::GraphView::selectionChanged, &before, &fwui::GraphView::highlightNodes);
  auto* kernel = after.graphScene()->itemForNodeName("layer1/0/conv1");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel, after.graphScene()->itemForNodeName("layer1/0/relu"));
  kernel->setSelected(true);
  const auto lit = before.graphScene()->highlightedItems();
  ASSERT_EQ(lit.size(), 2);
  QStringList names;
  for (auto* item : lit) names << item->memberNames();
  names.sort();
  EXPECT_EQ(names, (QStringList{"layer1/0/conv1", "layer1/0/relu"}));
  // The other direction: one original node highlights the kernel that contains it.
  after.highlightNodes({"layer1/0/relu"});
  ASSERT_EQ(after.graphScene()->highlightedItems().size(), 1);
  EXPECT_EQ(after.graphScene()->highlightedItems().front(), kernel);
  before.highlightNodes({});
  EXPECT_TRUE(before.graphScene()->highlightedItems().isEmpty());
  // Heat mode recolours without a new layout.
  const QColor unitFill = kernel->fill();
  after.setHeatMode(true);
  EXPECT_NE(kernel->fill(), unitFill);
  EXPECT_EQ(kernel->fill(), QColor(QString::fromStdString(dg::heatColor(1.0))));
}

TEST(GraphView, ExpandingACollapsedScopeRelaysOut) {
  fwtest::testApp();
  auto n = net();
  fwui::GraphView v;
  QSignalSpy finished(&v, &fwui::GraphView::layoutFinished);
  QSignalSpy failed(&v, &fwui::GraphView::layoutFailed);
  dg::DiagramOptions o;
  o.collapseDepth = 1;
  v.setGraph(n.graph, std::nullopt, o);
  ASSERT_TRUE(laidOut(v, finished, failed));
  auto* s = v.graphScene();
  EXPECT_EQ(itemCount(s), 5);
  ASSERT_GE(s->diagram().findBox("layer1"), 0);
  EXPECT_EQ(s->itemForNodeName("layer1/0/relu")->kind(), dg::BoxKind::Scope);
  QSignalSpy scope(s, &fwui::GraphScene::scopeActivated);
  QSignalSpy expanded(&v, &fwui::GraphView::scopeExpanded);
  const QPointF stem = s->itemForNodeName("stem_conv")->pos();
  finished.clear();
  v.expandScope("layer1");
  ASSERT_TRUE(laidOut(v, finished, failed));
  EXPECT_EQ(itemCount(s), 6);
  // Opened in place: the box above the group did not move (within the scene), two boxes took its place.
  ASSERT_EQ(expanded.count(), 1);
  EXPECT_EQ(expanded[0][0].toString(), "layer1");
  EXPECT_EQ(expanded[0][1].toInt(), 2);  // layer1/0 and layer1/1
  EXPECT_TRUE(expanded[0][3].toBool());
  EXPECT_NEAR(s->itemForNodeName("stem_conv")->pos().y(), stem.y(), 1e-6);
  EXPECT_EQ(s->diagram().findBox("layer1"), -1);
  EXPECT_GE(s->diagram().findBox("layer1/0"), 0);
  EXPECT_EQ(s->itemForNodeName("layer1/1/add")->kind(), dg::BoxKind::Node);
  finished.clear();
  v.collapseAllScopes();
  ASSERT_TRUE(laidOut(v, finished, failed));
  EXPECT_EQ(itemCount(s), 5);
}

TEST(GraphView, AGroupOpensInPlaceAndWhatIsAboveItStaysUnderTheSamePixels) {
  fwtest::testApp();
  auto g = fwtest::unscopedChain(130);
  dg::DiagramOptions o;
  o.hierarchy = std::make_shared<const dg::Hierarchy>(dg::buildHierarchy(*g));
  o.foldedBoxes = 60;
  fwui::GraphView v;
  v.resize(500, 700);
  v.show();
  QSignalSpy finished(&v, &fwui::GraphView::layoutFinished);
  QSignalSpy failed(&v, &fwui::GraphView::layoutFailed);
  v.setGraph(g, std::nullopt, o);
  ASSERT_TRUE(laidOut(v, finished, failed));
  auto* s = v.graphScene();
  // The lowest folded group that is on screen, and where everything above it is on screen.
  const QRectF visible = v.mapToScene(v.viewport()->rect()).boundingRect();
  fwui::GraphNodeItem* group = nullptr;
  for (auto* item : s->nodeItems())
    if (item && item->kind() == dg::BoxKind::Scope && visible.contains(item->sceneBoundingRect()) &&
        (!group || item->pos().y() > group->pos().y()))
      group = item;
  ASSERT_NE(group, nullptr);
  const QString scope = group->scopePath();
  std::map<QString, QPoint> above;
  for (auto* item : s->nodeItems())
    if (item && item != group && item->sceneBoundingRect().bottom() < group->sceneBoundingRect().top() &&
        visible.contains(item->sceneBoundingRect()))
      above[QString::fromStdString(s->diagram().boxes[item->box()].id)] = v.mapFromScene(item->pos());
  ASSERT_FALSE(above.empty());
  const QPoint groupTop = v.mapFromScene(QPointF(group->sceneBoundingRect().center().x(), group->sceneBoundingRect().top()));
  QSignalSpy expanded(&v, &fwui::GraphView::scopeExpanded);
  finished.clear();
  v.expandScope(scope);
  ASSERT_TRUE(laidOut(v, finished, failed));
  ASSERT_EQ(expanded.count(), 1);
  EXPECT_TRUE(expanded[0][3].toBool());
  EXPECT_GT(expanded[0][1].toInt(), 1);
  // The contents hang where the group was, and the boxes above it (the chain's column) did not move on
  // screen, even though the picture was small enough to be centred before (a pixel of rounding).
  QRectF contents;
  for (auto* item : s->nodeItems())
    if (item && dg::insideScope(s->diagram().boxes[item->box()], scope.toStdString())) contents |= item->sceneBoundingRect();
  const QPoint contentsTop = v.mapFromScene(QPointF(contents.center().x(), contents.top()));
  EXPECT_LE((contentsTop - groupTop).manhattanLength(), 2);
  size_t checked = 0;
  for (auto* item : s->nodeItems()) {
    if (!item) continue;
    auto it = above.find(QString::fromStdString(s->diagram().boxes[item->box()].id));
    if (it == above.end()) continue;
    ++checked;
    EXPECT_LE((v.mapFromScene(item->pos()) - it->second).manhattanLength(), 2) << it->first.toStdString();
  }
  EXPECT_EQ(checked, above.size());
}

TEST(GraphView, ZoomAndFit) {
  fwtest::testApp();
  auto n = net();
  fwui::GraphView v;
  v.resize(400, 300);
  QSignalSpy finished(&v, &fwui::GraphView::layoutFinished);
  QSignalSpy failed(&v, &fwui::GraphView::layoutFailed);
  v.setGraph(n.graph);
  ASSERT_TRUE(laidOut(v, finished, failed));
  v.setZoom(1.0);
  v.zoomIn();
  EXPECT_NEAR(v.zoom(), 1.25, 1e-9);
  v.zoomOut();
  EXPECT_NEAR(v.zoom(), 1.0, 1e-9);
  v.setZoom(100);
  EXPECT_LE(v.zoom(), 8.0);
  v.fitToView();
  EXPECT_LE(v.zoom(), 1.5);
  EXPECT_GT(v.zoom(), 0.0);
}

TEST(GraphView, SceneDrawsBoxesAndText) {
  fwtest::testApp();
  auto n = net();
  fwui::GraphView v;
  QSignalSpy finished(&v, &fwui::GraphView::layoutFinished);
  QSignalSpy failed(&v, &fwui::GraphView::layoutFailed);
  dg::Grouping grouping;
  grouping.kernels.push_back({"conv1_relu", {n.conv1, n.relu}, "cube", 5.0, ""});
  v.setGraph(n.graph, grouping);
  ASSERT_TRUE(laidOut(v, finished, failed));
  v.graphScene()->itemForNodeName("head/fc")->setSelected(true);
  v.highlightNodes({"layer1/0/conv1"});
  const QRectF r = v.graphScene()->sceneRect();
  QImage img(r.size().toSize() * 2, QImage::Format_ARGB32);
  img.fill(Qt::white);
  {
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    v.graphScene()->render(&p);
  }
  // The cube kernel's fill colour covers a good part of its box.
  const QColor cube(QString::fromStdString(dg::unitColor("cube")));
  int cubePixels = 0, dark = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      cubePixels += c == cube ? 1 : 0;
      dark += c.lightness() < 80 ? 1 : 0;  // outlines, edges, text
    }
  EXPECT_GT(cubePixels, 1000);
  EXPECT_GT(dark, 500);
  if (qEnvironmentVariableIsSet("FW_SAVE_GRAPHVIEW_PNG")) img.save(qEnvironmentVariable("FW_SAVE_GRAPHVIEW_PNG"));
}
