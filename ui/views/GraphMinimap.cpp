#include "ui/views/GraphMinimap.h"

#include <QMouseEvent>
#include <QPainter>

namespace fwui {

GraphMinimap::GraphMinimap(QGraphicsView* main, QWidget* parent) : QGraphicsView(parent), main_(main) {
  setScene(main->scene());
  setInteractive(false);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setRenderHint(QPainter::Antialiasing, false);
  setFrameShape(QFrame::Box);
  setBackgroundBrush(QColor(250, 250, 250, 235));
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Overview: click or drag to move the view"));
}

void GraphMinimap::refit() {
  if (scene()) fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  viewport()->update();
}

void GraphMinimap::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
  refit();
}

void GraphMinimap::drawForeground(QPainter* p, const QRectF&) {
  const QRectF visible = main_->mapToScene(main_->viewport()->rect()).boundingRect();
  QPen pen(QColor(0x1a, 0x5f, 0xd6), 2);
  pen.setCosmetic(true);
  p->setPen(pen);
  p->setBrush(QColor(0x1a, 0x5f, 0xd6, 40));
  p->drawRect(visible);
}

void GraphMinimap::mousePressEvent(QMouseEvent* e) {
  main_->centerOn(mapToScene(e->pos()));
  viewport()->update();
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* e) {
  if (e->buttons() & Qt::LeftButton) {
    main_->centerOn(mapToScene(e->pos()));
    viewport()->update();
  }
}

void GraphMinimap::wheelEvent(QWheelEvent* e) { e->ignore(); }

}  // namespace fwui
