#pragma once
// Gantt chart of simulated kernels for the before and after runs, zoomable (wheel), pannable (drag).
#include <QWidget>
#include <vector>

#include "simulator/Simulator.h"
#include "ui/views/TimelineGeometry.h"

namespace fwui {

class TimelineWidget : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineWidget(QWidget* parent = nullptr);
  // Runs drawn top to bottom with their titles ("before (-O0)", "after (-O2)").
  void setRuns(std::vector<fw::sim::SimResult> runs, std::vector<QString> titles);
  void fitAll();
  const TimelineGeometry& geometry() const { return geo_; }
  QSize sizeHint() const override;
  // Kernel under a point: {run, kernel index} or {-1, -1}.
  std::pair<int, int> kernelAt(const QPoint& p) const;

 signals:
  void kernelClicked(int run, int kernelIndex);

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  bool event(QEvent*) override;

 private:
  static int laneOf(fw::sim::Unit u);
  std::vector<fw::sim::SimResult> runs_;
  std::vector<QString> titles_;
  TimelineGeometry geo_;
  bool fitted_ = false;
  QPoint dragStart_;
  double dragStartUs_ = 0;
  bool dragging_ = false;
};

}  // namespace fwui
