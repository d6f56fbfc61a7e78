#pragma once
// The graph view: draws a graph (before view) or its kernels (after view, given a Grouping) with the
// Graphviz layout, as selectable items. Wheel zooms around the cursor, dragging the background pans,
// double-clicking a collapsed scope expands it (re-layout). Layout runs off the GUI thread; a newer
// request supersedes an older one. Wire two views together for before<->after linking:
//   connect(after, &GraphView::selectionChanged, before, &GraphView::highlightNodes);
#include <QGraphicsView>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "core/ir/Graph.h"
#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"
#include "ui/diagram/Graphviz.h"

template <typename T>
class QFutureWatcher;

namespace fwui {

class GraphScene;
class GraphMinimap;
struct GraphLayoutOutcome;

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  // Starts laying out `graph` (with `grouping`: one box per kernel). Emits layoutStarted now and
  // layoutFinished or layoutFailed later. Options carry the collapse depth, expanded scopes, node heat.
  void setGraph(std::shared_ptr<const fw::Graph> graph, std::optional<fw::diagram::Grouping> grouping = {},
                fw::diagram::DiagramOptions options = {});
  void clearGraph();
  bool isLayoutRunning() const;
  std::shared_ptr<const fw::Graph> graph() const { return graph_; }
  const fw::diagram::DiagramOptions& options() const { return options_; }
  GraphScene* graphScene() const { return scene_; }
  GraphMinimap* minimap() const { return minimap_; }
  double zoom() const;                 // 1.0 = one scene point per pixel
  double lastLayoutSeconds() const { return lastLayoutSeconds_; }
  // Seconds Graphviz may take before the view shows a layered layout instead (<= 0: no limit).
  void setLayoutBudget(double seconds) { layoutBudget_ = seconds; }
  double layoutBudget() const { return layoutBudget_; }
  // Non-empty when the last picture is the layered fallback: says why (fw::diagram::layoutWithBudget).
  QString layoutNote() const { return layoutNote_; }

  // Heat mode colours boxes by their heat value (kernel heat from the grouping, node heat from options).
  void setHeatMode(bool on);
  bool heatMode() const;
  QStringList selectedNodeNames() const;

 public slots:
  void zoomIn();
  void zoomOut();
  void setZoom(double z);
  void fitToView();
  // Selects the next box whose name, member name or op type matches and centres it. False: no match.
  bool search(const QString& text);
  // Highlights the boxes drawing these original nodes (empty clears) and brings the first into view.
  void highlightNodes(const QStringList& nodeNames);
  // Opens this scope one level, in place: only its contents are laid out and put where its box was; the
  // rest keeps its shape and stays where it is on screen (fw::diagram::expandInPlace). When the picture
  // cannot be extended that way (nothing shown yet, or the box is not on it), the whole view is laid out.
  void expandScope(const QString& scope);
  // Opens a group and every group above it ("blocks 0-1199/block 0-39"), in place, in one layout job.
  // False when nothing starts: already open, or (with `error` set) its outermost folded level is not a
  // group box of this view.
  bool expandPath(const QString& path, QString* error = nullptr);
  void collapseAllScopes();                 // back to the automatic/initial collapse
  void setMinimapVisible(bool on);

 signals:
  void selectionChanged(const QStringList& nodeNames);
  void layoutStarted();
  void layoutFinished();
  void layoutFailed(const QString& message);
  // After layoutFinished of an expansion: the scope opened, the boxes now drawn in its place, and the
  // seconds from the request to the picture (diagram, contents' layout, merge).
  void scopeExpanded(const QString& scope, int addedBoxes, double seconds, bool inPlace);

 protected:
  void wheelEvent(QWheelEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void scrollContentsBy(int dx, int dy) override;
  void drawForeground(QPainter* p, const QRectF& rect) override;

 private:
  void startLayout(const QStringList& expanding = {});
  void onLayoutDone(quint64 generation, const GraphLayoutOutcome& outcome);
  void placeMinimap();
  void scaleBy(double factor);

  GraphScene* scene_ = nullptr;
  GraphMinimap* minimap_ = nullptr;
  std::shared_ptr<const fw::Graph> graph_;
  std::optional<fw::diagram::Grouping> grouping_;
  fw::diagram::DiagramOptions options_;
  std::set<std::string> initialExpanded_;
  quint64 generation_ = 0;
  int running_ = 0;
  QString focusScope_;   // after expanding a scope in full, centre on its contents
  // What the scene shows, for expanding in place.
  std::shared_ptr<const fw::diagram::Diagram> shownDiagram_;
  std::shared_ptr<const fw::diagram::Layout> shownLayout_;
  QString lastSearch_;
  int searchIndex_ = -1;
  double lastLayoutSeconds_ = 0;
  double layoutBudget_ = 8;  // a 500-box overview lays out in 1-3 s on a 2-core machine
  QString layoutNote_;
  bool minimapWanted_ = true;
};

}  // namespace fwui
