#include "ui/views/GraphView.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "ui/diagram/Graphviz.h"
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
};

namespace {

// Runs on a worker thread; touches only its arguments (Graphviz itself is serialized in fw_diagram).
GraphLayoutOutcome layoutInBackground(std::shared_ptr<const fw::Graph> graph,
                                      std::optional<fw::diagram::Grouping> grouping,
                                      fw::diagram::DiagramOptions options, double budgetSeconds) {
  GraphLayoutOutcome out;
  QElapsedTimer t;
  t.start();
  auto d = fw::diagram::buildDiagram(*graph, grouping ? &*grouping : nullptr, options);
  if (!d.ok()) {
    out.error = QString::fromStdString(d.error().message);
    return out;
  }
  auto l = fw::diagram::layoutWithBudget(*d, budgetSeconds);
  if (!l.ok()) {
    out.error = QString::fromStdString(l.error().message);
    return out;
  }
  out.note = QString::fromStdString(l->note);
  out.diagram = std::make_shared<fw::diagram::Diagram>(std::move(*d));
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
  grouping_.reset();
  scene_->clearDiagram();
  minimap_->hide();
  viewport()->update();
}

bool GraphView::isLayoutRunning() const { return running_ > 0; }

void GraphView::startLayout() {
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
  watcher->setFuture(QtConcurrent::run(layoutInBackground, graph_, grouping_, options_, layoutBudget_));
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
  scene_->setDiagram(*outcome.diagram, *outcome.layout);
  if (!highlighted.isEmpty()) scene_->highlightNodes(highlighted);
  if (!focusScope_.isEmpty()) {
    // Centre on what the expanded scope now shows, keeping the zoom.
    QRectF area;
    for (auto* item : scene_->nodeItems())
      if (item && (item->scopePath() == focusScope_ || item->scopePath().startsWith(focusScope_ + "/")))
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
  startLayout();
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
