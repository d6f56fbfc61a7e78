#pragma once
// An edge of the graph view: Graphviz's spline as a QPainterPath plus a filled arrowhead.
#include <QGraphicsPathItem>

#include "ui/diagram/Graphviz.h"

namespace fwui {

class GraphEdgeItem : public QGraphicsPathItem {
 public:
  enum { Type = UserType + 102 };
  explicit GraphEdgeItem(const fw::diagram::EdgeGeometry& e);
  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  QPolygonF arrowHead() const { return arrow_; }
  void setHighlighted(bool on);

 private:
  QPolygonF arrow_;
  bool highlighted_ = false;
};

}  // namespace fwui
