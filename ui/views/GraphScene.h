#pragma once
// The scene of the graph view: one GraphNodeItem per visible Diagram box and one GraphEdgeItem per edge,
// placed where Graphviz put them. Knows how to colour (by kind/unit or heat), find and highlight boxes.
#include <QGraphicsScene>
#include <QStringList>
#include <QHash>
#include <QVector>
#include <memory>

#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"
#include "ui/diagram/Graphviz.h"

namespace fwui {

class GraphNodeItem;
class GraphEdgeItem;

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(QObject* parent = nullptr);
  ~GraphScene() override;

  // Replaces every item. Layout node/edge geometry is matched to boxes through fw_box.
  // `boxOfNodeName` (memberIndex of the same diagram) may be built off the GUI thread: on a 60k-node
  // graph hashing every member name took 90 ms; empty: built here.
  void setDiagram(std::shared_ptr<const fw::diagram::Diagram> d, const fw::diagram::Layout& layout,
                  QHash<QString, int> boxOfNodeName = {});
  // Original node name -> index of the box drawing it.
  static QHash<QString, int> memberIndex(const fw::diagram::Diagram& d);
  void clearDiagram();
  const fw::diagram::Diagram& diagram() const { return *diagram_; }

  void setColorMode(fw::diagram::ColorMode m);
  fw::diagram::ColorMode colorMode() const { return mode_; }

  const QVector<GraphNodeItem*>& nodeItems() const { return nodes_; }
  GraphNodeItem* itemForBox(size_t box) const;
  GraphNodeItem* itemForNodeName(const QString& nodeName) const;  // the box drawing that original node
  // Items whose id, member names or op type match, in diagram order.
  QVector<GraphNodeItem*> findItems(const QString& text) const;

  // Original node names drawn by the selected items (kernels and scopes give all their members).
  QStringList selectedNodeNames() const;
  // Highlights the boxes that draw any of these original node names (and edges between them);
  // an empty list clears. Returns how many boxes are highlighted.
  int highlightNodes(const QStringList& nodeNames);
  QVector<GraphNodeItem*> highlightedItems() const;

 signals:
  void nodeSelectionChanged(const QStringList& nodeNames);
  void scopeActivated(const QString& scope);  // a collapsed scope box was double-clicked

 protected:
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) override;

 private:
  void recolor();
  std::shared_ptr<const fw::diagram::Diagram> diagram_ = std::make_shared<const fw::diagram::Diagram>();
  fw::diagram::ColorMode mode_ = fw::diagram::ColorMode::ByKind;
  QVector<GraphNodeItem*> nodes_;            // by box index (nullptr if Graphviz lost it)
  QVector<GraphEdgeItem*> edges_;
  QVector<QPair<int, int>> edgeEnds_;        // box indices per edge item
  QHash<QString, int> boxOfNodeName_;
};

}  // namespace fwui
