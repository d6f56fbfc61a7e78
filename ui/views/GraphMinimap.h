#pragma once
// A small overview of the graph view's scene with the main view's visible area drawn as a rectangle;
// clicking or dragging in it moves the main view there.
#include <QGraphicsView>

namespace fwui {

class GraphMinimap : public QGraphicsView {
  Q_OBJECT
 public:
  // `main` is the view whose viewport is tracked; the minimap shows main->scene().
  explicit GraphMinimap(QGraphicsView* main, QWidget* parent = nullptr);
  void refit();  // after the scene changed

 protected:
  void drawForeground(QPainter* p, const QRectF& rect) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;

 private:
  QGraphicsView* main_;
};

}  // namespace fwui
