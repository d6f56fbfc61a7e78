#include "ui/views/GraphEdgeItem.h"

#include <QPainter>
#include <QPen>
#include <QtMath>

namespace fwui {

GraphEdgeItem::GraphEdgeItem(const fw::diagram::EdgeGeometry& e) {
  QPainterPath path;
  const auto& pts = e.points;
  if (!pts.empty()) {
    path.moveTo(pts[0].x, pts[0].y);
    size_t i = 1;
    for (; i + 2 < pts.size(); i += 3)
      path.cubicTo(pts[i].x, pts[i].y, pts[i + 1].x, pts[i + 1].y, pts[i + 2].x, pts[i + 2].y);
    for (; i < pts.size(); ++i) path.lineTo(pts[i].x, pts[i].y);  // malformed tail: straight segments
  }
  if (e.arrowTip && !pts.empty()) {
    const QPointF tip(e.arrowTip->x, e.arrowTip->y);
    const QPointF from(pts.back().x, pts.back().y);
    QLineF l(from, tip);
    const qreal len = std::max<qreal>(l.length(), 1e-6);
    const QPointF dir = (tip - from) / len;
    const QPointF normal(-dir.y(), dir.x());
    const qreal halfWidth = std::max<qreal>(len * 0.35, 2.0);
    arrow_ << tip << from + normal * halfWidth << from - normal * halfWidth;
  }
  setPath(path);
  setPen(QPen(QColor(0x55, 0x55, 0x55), 1.0));
  setZValue(0);
  setFlag(ItemIsSelectable, false);
  setAcceptedMouseButtons(Qt::NoButton);
  setToolTip(QString::fromStdString(e.from + " -> " + e.to));
}

QRectF GraphEdgeItem::boundingRect() const {
  return QGraphicsPathItem::boundingRect().united(arrow_.boundingRect()).adjusted(-3, -3, 3, 3);
}

void GraphEdgeItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  setPen(on ? QPen(QColor(0xff, 0x8c, 0x00), 2.0) : QPen(QColor(0x55, 0x55, 0x55), 1.0));
  setZValue(on ? 0.5 : 0);
}

void GraphEdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  QPen pen = this->pen();
  pen.setCosmetic(p->worldTransform().m11() < 0.5);
  p->setPen(pen);
  p->setBrush(Qt::NoBrush);
  p->drawPath(path());
  if (!arrow_.isEmpty()) {
    p->setBrush(pen.color());
    p->drawPolygon(arrow_);
  }
}

}  // namespace fwui
