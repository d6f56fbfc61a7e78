#pragma once
// Gantt chart of simulated kernels for the before and after runs, zoomable (wheel), pannable (drag).
#include <QWidget>
#include <memory>
#include <vector>

#include "simulator/Simulator.h"
#include "ui/views/TimelineGeometry.h"

namespace fwui {

class TimelineWidget : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineWidget(QWidget* parent = nullptr);
  // Runs drawn top to bottom with their titles ("before (-O0)", "after (-O2)").
  // Shared, not copied: a 10k-node model's two runs took 30 ms of the GUI thread to copy.
  void setRuns(std::vector<std::shared_ptr<const fw::sim::SimResult>> runs, std::vector<QString> titles);
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
  std::vector<std::shared_ptr<const fw::sim::SimResult>> runs_;
  std::vector<QString> titles_;
  TimelineGeometry geo_;
  bool fitted_ = false;
  QPoint dragStart_;
  double dragStartUs_ = 0;
  bool dragging_ = false;
};

}  // namespace fwui
