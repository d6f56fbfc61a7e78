#include "ui/views/GraphView.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "ui/diagram/Expand.h"
#include "ui/diagram/Graphviz.h"
#include "ui/diagram/Hierarchy.h"
#include "ui/diagram/Layered.h"
#include "ui/views/GraphMinimap.h"
#include "ui/views/GraphNodeItem.h"
#include "ui/views/GraphScene.h"

namespace fwui {

struct GraphLayoutOutcome {
  std::shared_ptr<fw::diagram::Diagram> diagram;
  std::shared_ptr<fw::diagram::Layout> layout;
  QString error;
  QString note;  // the layered fallback was used (Graphviz over its budget)
  double seconds = 0;
  QString expanded;     // the scope this layout opened ("" for a fresh picture)
  bool inPlace = false; // ... by extending the previous picture
  QHash<QString, int> memberIndex;  // GraphScene::memberIndex, built here rather than on the GUI thread
};

namespace {

// Runs on a worker thread; touches only its arguments (Graphviz itself is serialized in fw_diagram).
// With `expanding` (scopes to open, outermost first, all already in `options`) and the shown picture,
// opens them one after another with fw::diagram::expandInPlace; a full layout when that is not possible.
GraphLayoutOutcome layoutInBackground(std::shared_ptr<const fw::Graph> graph,
                                      std::optional<fw::diagram::Grouping> grouping,
                                      fw::diagram::DiagramOptions options, double budgetSeconds, QStringList expanding,
                                      std::shared_ptr<const fw::diagram::Diagram> shown,
                                      std::shared_ptr<const fw::diagram::Layout> shownLayout) {
  GraphLayoutOutcome out;
  if (!expanding.isEmpty()) out.expanded = expanding.front();
  QElapsedTimer t;
  t.start();
  const fw::diagram::Grouping* gp = grouping ? &*grouping : nullptr;
  auto d = fw::diagram::buildDiagram(*graph, gp, options);
  if (!d.ok()) {
    out.error = QString::fromStdString(d.error().message);
    return out;
  }
  std::optional<fw::Result<fw::diagram::BudgetedLayout>> extended;
  if (!expanding.isEmpty() && shown && shownLayout) {
    // Level by level: each step extends the picture of the one before.
    fw::diagram::DiagramOptions step = options;
    for (const auto& s : expanding) step.expandedScopes.erase(s.toStdString());
    std::shared_ptr<const fw::diagram::Diagram> prev = shown;
    std::shared_ptr<const fw::diagram::Layout> prevLayout = shownLayout;
    for (int i = 0; i < expanding.size(); ++i) {
      step.expandedScopes.insert(expanding[i].toStdString());
      std::shared_ptr<const fw::diagram::Diagram> next;
      if (i + 1 == expanding.size()) {
        next = std::make_shared<fw::diagram::Diagram>(*d);
      } else {
        auto di = fw::diagram::buildDiagram(*graph, gp, step);
        if (!di.ok()) break;
        next = std::make_shared<fw::diagram::Diagram>(std::move(*di));
      }
      extended = fw::diagram::expandInPlace(*prev, *prevLayout, *next, expanding[i].toStdString(), budgetSeconds);
      if (!extended || !extended->ok() || i + 1 == expanding.size()) break;
      prev = next;
      prevLayout = std::make_shared<fw::diagram::Layout>((*extended)->layout);
      extended.reset();
    }
  }
  out.inPlace = extended.has_value();
  auto l = extended ? std::move(*extended) : fw::diagram::layoutWithBudget(*d, budgetSeconds);
  if (!l.ok()) {
    out.error = QString::fromStdString(l.error().message);
    return out;
  }
  out.note = QString::fromStdString(l->note);
  out.diagram = std::make_shared<fw::diagram::Diagram>(std::move(*d));
  out.memberIndex = GraphScene::memberIndex(*out.diagram);
  out.layout = std::make_shared<fw::diagram::Layout>(std::move(l->layout));
  out.seconds = static_cast<double>(t.elapsed()) / 1000.0;
  return out;
}

constexpr double kMinZoom = 0.01, kMaxZoom = 8.0;

}  // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
  scene_ = new GraphScene(this);
  setScene(scene_);
  setRenderHint(QPainter::Antialiasing, true);
  setRenderHint(QPainter::TextAntialiasing, true);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setBackgroundBrush(Qt::white);
  minimap_ = new GraphMinimap(this, this);
  minimap_->hide();
  connect(scene_, &GraphScene::nodeSelectionChanged, this, &GraphView::selectionChanged);
  connect(scene_, &GraphScene::scopeActivated, this, &GraphView::expandScope);
}

GraphView::~GraphView() = default;  // running layouts own copies of their inputs; their results are dropped

void GraphView::setGraph(std::shared_ptr<const fw::Graph> graph, std::optional<fw::diagram::Grouping> grouping,
                         fw::diagram::DiagramOptions options) {
  graph_ = std::move(graph);
  grouping_ = std::move(grouping);
  options_ = std::move(options);
  initialExpanded_ = options_.expandedScopes;
  focusScope_.clear();
  startLayout();
}

void GraphView::clearGraph() {
  ++generation_;  // drop results of running layouts
  graph_.reset();
  shownDiagram_.reset();
  shownLayout_.reset();
  grouping_.reset();
  scene_->clearDiagram();
  minimap_->hide();
  viewport()->update();
}

bool GraphView::isLayoutRunning() const { return running_ > 0; }

void GraphView::startLayout(const QStringList& expanding) {
  if (!graph_) return;
  const quint64 gen = ++generation_;
  ++running_;
  auto* watcher = new QFutureWatcher<GraphLayoutOutcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, gen]() {
    --running_;
    const GraphLayoutOutcome outcome = watcher->result();
    watcher->deleteLater();
    onLayoutDone(gen, outcome);
  });
  watcher->setFuture(QtConcurrent::run([graph = graph_, grouping = grouping_, options = options_, budget = layoutBudget_,
                                        expanding, shown = shownDiagram_, shownLayout = shownLayout_]() {
    return layoutInBackground(graph, grouping, options, budget, expanding, shown, shownLayout);
  }));
  viewport()->update();
  emit layoutStarted();
}

void GraphView::onLayoutDone(quint64 generation, const GraphLayoutOutcome& outcome) {
  if (generation != generation_) return;  // superseded
  viewport()->update();
  if (!outcome.diagram) {
    emit layoutFailed(outcome.error);
    return;
  }
  lastLayoutSeconds_ = outcome.seconds;
  layoutNote_ = outcome.note;
  const QStringList highlighted = [&] {
    QStringList names;
    for (auto* item : scene_->highlightedItems()) names << item->memberNames();
    return names;
  }();
  // In place: the group's top centre stays under the same pixel, so the rest stays where it was.
  std::optional<QPointF> anchorBefore;  // the group's top centre, in the old scene
  const QRectF visibleBefore = mapToScene(viewport()->rect()).boundingRect();
  if (outcome.inPlace) {
    for (const auto* item : scene_->nodeItems())
      if (item && item->kind() == fw::diagram::BoxKind::Scope && item->scopePath() == outcome.expanded) {
        const QRectF r = item->sceneBoundingRect();
        anchorBefore = QPointF(r.center().x(), r.top());
      }
  }
  const size_t boxesBefore = scene_->diagram().boxes.size();
  scene_->setDiagram(outcome.diagram, *outcome.layout, outcome.memberIndex);
  shownDiagram_ = outcome.diagram;
  shownLayout_ = outcome.layout;
  if (!highlighted.isEmpty()) scene_->highlightNodes(highlighted);
  if (anchorBefore) {
    QRectF area;
    for (auto* item : scene_->nodeItems())
      if (item && fw::diagram::insideScope(scene_->diagram().boxes[item->box()], outcome.expanded.toStdString()))
        area |= item->sceneBoundingRect();
    const QPointF shift = QPointF(area.center().x(), area.top()) - *anchorBefore;
    // The scene keeps room for what was on screen (a small picture was centred with margins), so the
    // view can stay exactly where it was instead of being clamped to the new picture's edge.
    scene_->setSceneRect(scene_->sceneRect() | visibleBefore.translated(shift));
    centerOn(visibleBefore.center() + shift);
    // Opened from off screen (--expand, MainWindow::expandGroup): bring its top into view.
    if (!mapToScene(viewport()->rect()).boundingRect().intersects(area))
      centerOn(QPointF(area.center().x(), area.top() + std::min(area.height(), mapToScene(viewport()->rect()).boundingRect().height()) / 2));
    focusScope_.clear();
  } else if (!focusScope_.isEmpty()) {
    // Centre on what the expanded scope now shows, keeping the zoom.
    QRectF area;
    for (auto* item : scene_->nodeItems())
      if (item && fw::diagram::scopeWithin(item->scopePath().toStdString(), focusScope_.toStdString()))
        area |= item->sceneBoundingRect();
    if (!area.isNull()) centerOn(area.center());
    focusScope_.clear();
  } else {
    fitToView();
    if (zoom() < 0.8) setZoom(0.8);  // a fitted big graph is unreadable: start readable, at the top
    if (!scene_->nodeItems().isEmpty()) centerOn(scene_->sceneRect().center().x(), 0);
  }
  minimap_->refit();
  setMinimapVisible(minimapWanted_);
  emit layoutFinished();
  if (!outcome.expanded.isEmpty())
    emit scopeExpanded(outcome.expanded, static_cast<int>(scene_->diagram().boxes.size() + 1) - static_cast<int>(boxesBefore),
                       outcome.seconds, outcome.inPlace);
}

double GraphView::zoom() const { return transform().m11(); }

void GraphView::scaleBy(double factor) {
  const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  if (zoom() > 0) scale(target / zoom(), target / zoom());
  minimap_->viewport()->update();
}

void GraphView::zoomIn() { scaleBy(1.25); }
void GraphView::zoomOut() { scaleBy(1 / 1.25); }
void GraphView::setZoom(double z) { scaleBy(z / std::max(zoom(), 1e-9)); }

void GraphView::fitToView() {
  if (scene_->items().isEmpty()) return;
  fitInView(scene_->sceneRect(), Qt::KeepAspectRatio);
  if (zoom() > 1.5) setZoom(1.5);
  minimap_->viewport()->update();
}

void GraphView::setHeatMode(bool on) {
  scene_->setColorMode(on ? fw::diagram::ColorMode::Heat : fw::diagram::ColorMode::ByKind);
}

bool GraphView::heatMode() const { return scene_->colorMode() == fw::diagram::ColorMode::Heat; }

QStringList GraphView::selectedNodeNames() const { return scene_->selectedNodeNames(); }

bool GraphView::search(const QString& text) {
  const auto matches = scene_->findItems(text);
  if (matches.isEmpty()) return false;
  if (text != lastSearch_) {
    lastSearch_ = text;
    searchIndex_ = -1;
  }
  searchIndex_ = (searchIndex_ + 1) % matches.size();
  GraphNodeItem* item = matches[searchIndex_];
  scene_->clearSelection();
  item->setSelected(true);
  if (zoom() < 0.6) setZoom(1.0);
  centerOn(item);
  minimap_->viewport()->update();
  return true;
}

void GraphView::highlightNodes(const QStringList& nodeNames) {
  if (scene_->highlightNodes(nodeNames) == 0) return;
  const auto items = scene_->highlightedItems();
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  if (!visible.intersects(items.front()->sceneBoundingRect())) centerOn(items.front());
}

void GraphView::expandScope(const QString& scope) {
  if (scope.isEmpty() || !graph_) return;
  // The collapse depth in effect must be kept: with "auto" a re-layout could pick another depth.
  if (options_.collapseDepth < 0) options_.collapseDepth = scene_->diagram().collapseDepth;
  options_.expandedScopes.insert(scope.toStdString());
  focusScope_ = scope;
  startLayout({scope});
}

bool GraphView::expandPath(const QString& path, QString* error) {
  if (!graph_ || path.isEmpty()) {
    if (error) *error = graph_ ? tr("no group named (the name is empty)") : tr("no graph is shown");
    return false;
  }
  // Levels above the collapse depth in effect are open already (0: nothing is folded).
  const int depth = options_.collapseDepth >= 0 ? options_.collapseDepth : scene_->diagram().collapseDepth;
  QStringList levels;
  const QStringList parts = path.split('/');
  for (int i = 1; i <= parts.size(); ++i) {
    const QString level = parts.mid(0, i).join('/');
    if (depth > 0 && i >= depth && !options_.expandedScopes.count(level.toStdString())) levels << level;
  }
  bool shown = false;
  QStringList folded;
  for (const auto& b : scene_->diagram().boxes) {
    if (levels.isEmpty()) {  // open already when the view draws its contents
      shown = shown || fw::diagram::insideScope(b, path.toStdString());
    } else if (b.kind == fw::diagram::BoxKind::Scope) {
      shown = shown || QString::fromStdString(b.scope) == levels.front();
    }
    if (b.kind == fw::diagram::BoxKind::Scope && folded.size() < 8) folded << "'" + QString::fromStdString(b.scope) + "'";
  }
  if (shown && levels.isEmpty()) return false;
  if (shown && levels.size() > 1) {  // the nested levels must be groups of this graph too
    const std::string want = path.toStdString();
    bool exists = false;
    for (fw::NodeId n : graph_->liveNodes()) {
      const fw::Node& node = graph_->node(n);
      const std::string s = options_.hierarchy ? options_.hierarchy->scopeOf(node) : fw::diagram::scopeOf(node.name);
      if (fw::diagram::scopeWithin(s, want)) {
        exists = true;
        break;
      }
    }
    if (!exists) {
      if (error) *error = tr("'%1' is not a group of this graph ('%2' is)").arg(path, levels.front());
      return false;
    }
  }
  if (!shown) {
    if (levels.isEmpty()) levels << path;
    if (error)
      *error = folded.isEmpty() ? tr("'%1' is not a folded group of this view (it shows none)").arg(levels.front())
                                : tr("'%1' is not a folded group of this view; it shows %2").arg(levels.front(), folded.join(", "));
    return false;
  }
  if (options_.collapseDepth < 0) options_.collapseDepth = scene_->diagram().collapseDepth;
  for (const auto& l : levels) options_.expandedScopes.insert(l.toStdString());
  focusScope_ = levels.front();
  startLayout(levels);
  return true;
}

void GraphView::collapseAllScopes() {
  if (!graph_) return;
  options_.expandedScopes = initialExpanded_;
  focusScope_.clear();
  startLayout();
}

void GraphView::setMinimapVisible(bool on) {
  minimapWanted_ = on;
  minimap_->setVisible(on && !scene_->nodeItems().isEmpty());
  placeMinimap();
}

void GraphView::placeMinimap() {
  const QRect vp = viewport()->geometry();
  const int w = std::min(200, vp.width() / 4), h = std::min(150, vp.height() / 4);
  minimap_->setGeometry(vp.right() - w - 8, vp.bottom() - h - 8, w, h);
  minimap_->refit();
}

void GraphView::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return QGraphicsView::wheelEvent(e);
  scaleBy(std::pow(1.2, steps));
  e->accept();
}

void GraphView::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
  placeMinimap();
}

void GraphView::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  if (minimap_->isVisible()) minimap_->viewport()->update();
}

void GraphView::drawForeground(QPainter* p, const QRectF& rect) {
  QGraphicsView::drawForeground(p, rect);
  if (!isLayoutRunning() && !scene_->nodeItems().isEmpty()) return;
  const QString text = isLayoutRunning() ? tr("Laying out the graph…") : tr("No graph");
  p->save();
  p->resetTransform();
  p->setPen(QColor(0x66, 0x66, 0x66));
  p->drawText(viewport()->rect().adjusted(10, 10, -10, -10), Qt::AlignTop | Qt::AlignLeft, text);
  p->restore();
}

}  // namespace fwui
