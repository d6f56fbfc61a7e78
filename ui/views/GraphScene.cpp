#include "ui/views/GraphScene.h"

#include <QGraphicsSceneMouseEvent>
#include <QSet>

#include "ui/views/GraphEdgeItem.h"
#include "ui/views/GraphNodeItem.h"

namespace fwui {

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
  setItemIndexMethod(QGraphicsScene::BspTreeIndex);
  connect(this, &QGraphicsScene::selectionChanged, this, [this]() { emit nodeSelectionChanged(selectedNodeNames()); });
}

GraphScene::~GraphScene() {
  // QGraphicsScene's destructor deletes the items, which changes the selection: nothing may react then.
  blockSignals(true);
  nodes_.clear();
  edges_.clear();
}

void GraphScene::clearDiagram() {
  // Clearing emits selectionChanged; the lists must already be empty by then.
  nodes_.clear();
  edges_.clear();
  edgeEnds_.clear();
  boxOfNodeName_.clear();
  clear();
  diagram_ = std::make_shared<const fw::diagram::Diagram>();
}

QHash<QString, int> GraphScene::memberIndex(const fw::diagram::Diagram& d) {
  QHash<QString, int> index;
  for (size_t i = 0; i < d.boxes.size(); ++i)
    for (const auto& n : d.boxes[i].memberNames) index.insert(QString::fromStdString(n), static_cast<int>(i));
  return index;
}

void GraphScene::setDiagram(std::shared_ptr<const fw::diagram::Diagram> d, const fw::diagram::Layout& layout,
                            QHash<QString, int> boxOfNodeName) {
  clearDiagram();
  diagram_ = std::move(d);
  nodes_.fill(nullptr, static_cast<int>(diagram_->boxes.size()));
  for (const auto& ng : layout.nodes) {
    if (ng.box < 0 || static_cast<size_t>(ng.box) >= diagram_->boxes.size()) continue;
    const auto box = static_cast<size_t>(ng.box);
    auto* item = new GraphNodeItem(box, diagram_->boxes[box], ng.width, ng.height);
    item->setPos(ng.x, ng.y);
    addItem(item);
    nodes_[static_cast<int>(box)] = item;
  }
  boxOfNodeName_ = boxOfNodeName.isEmpty() ? memberIndex(*diagram_) : std::move(boxOfNodeName);
  for (const auto& eg : layout.edges) {
    auto* item = new GraphEdgeItem(eg);
    addItem(item);
    edges_.push_back(item);
    edgeEnds_.push_back({static_cast<int>(eg.fromBox), static_cast<int>(eg.toBox)});
  }
  setSceneRect(QRectF(0, 0, layout.width, layout.height).adjusted(-20, -20, 20, 20));
  recolor();
}

void GraphScene::setColorMode(fw::diagram::ColorMode m) {
  mode_ = m;
  recolor();
}

void GraphScene::recolor() {
  const double mh = fw::diagram::maxHeat(*diagram_);
  for (auto* item : nodes_)
    if (item) item->setFill(QColor(QString::fromStdString(fw::diagram::fillColor(diagram_->boxes[item->box()], mode_, mh))));
}

GraphNodeItem* GraphScene::itemForBox(size_t box) const {
  return box < static_cast<size_t>(nodes_.size()) ? nodes_[static_cast<int>(box)] : nullptr;
}

GraphNodeItem* GraphScene::itemForNodeName(const QString& nodeName) const {
  auto it = boxOfNodeName_.find(nodeName);
  return it == boxOfNodeName_.end() ? nullptr : nodes_[it.value()];
}

QVector<GraphNodeItem*> GraphScene::findItems(const QString& text) const {
  QVector<GraphNodeItem*> out;
  const QString needle = text.trimmed();
  if (needle.isEmpty()) return out;
  for (auto* item : nodes_)
    if (item && item->matches(needle)) out.push_back(item);
  return out;
}

QStringList GraphScene::selectedNodeNames() const {
  QStringList names;
  for (auto* item : nodes_)
    if (item && item->isSelected()) names << item->memberNames();
  return names;
}

int GraphScene::highlightNodes(const QStringList& nodeNames) {
  QSet<int> boxes;
  for (const auto& n : nodeNames) {
    auto it = boxOfNodeName_.find(n);
    if (it != boxOfNodeName_.end()) boxes.insert(it.value());
  }
  int count = 0;
  for (auto* item : nodes_) {
    if (!item) continue;
    const bool on = boxes.contains(static_cast<int>(item->box()));
    item->setHighlighted(on);
    count += on ? 1 : 0;
  }
  for (int i = 0; i < edges_.size(); ++i)
    edges_[i]->setHighlighted(boxes.contains(edgeEnds_[i].first) && boxes.contains(edgeEnds_[i].second));
  return count;
}

QVector<GraphNodeItem*> GraphScene::highlightedItems() const {
  QVector<GraphNodeItem*> out;
  for (auto* item : nodes_)
    if (item && item->isHighlighted()) out.push_back(item);
  return out;
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) {
  for (QGraphicsItem* it : items(e->scenePos())) {
    if (it->type() != GraphNodeItem::Type) continue;
    auto* node = static_cast<GraphNodeItem*>(it);
    if (node->kind() == fw::diagram::BoxKind::Scope) {
      emit scopeActivated(node->scopePath());
      e->accept();
      return;
    }
    break;
  }
  QGraphicsScene::mouseDoubleClickEvent(e);
}

}  // namespace fwui
