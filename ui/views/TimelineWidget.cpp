#include "ui/views/TimelineWidget.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include "ui/views/UnitColors.h"

namespace fwui {

namespace {
const char* kLaneNames[] = {"cube", "vector", "cube+vector", "host"};
}

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumHeight(geo_.totalHeight(2));
}

QSize TimelineWidget::sizeHint() const { return {800, geo_.totalHeight(std::max<int>(2, static_cast<int>(runs_.size())))}; }

void TimelineWidget::setRuns(std::vector<std::shared_ptr<const fw::sim::SimResult>> runs, std::vector<QString> titles) {
  runs_ = std::move(runs);
  titles_ = std::move(titles);
  setMinimumHeight(geo_.totalHeight(static_cast<int>(std::max<size_t>(1, runs_.size()))));
  fitAll();
}

void TimelineWidget::fitAll() {
  double total = 0;
  for (const auto& r : runs_) total = std::max(total, r->latencyUs);
  geo_.fit(total, width());
  fitted_ = true;
  update();
}

int TimelineWidget::laneOf(fw::sim::Unit u) {
  switch (u) {
    case fw::sim::Unit::Cube: return 0;
    case fw::sim::Unit::Vector: return 1;
    case fw::sim::Unit::CubeVector: return 2;
    default: return -1;  // views run as no kernel
  }
}

std::pair<int, int> TimelineWidget::kernelAt(const QPoint& p) const {
  for (size_t r = 0; r < runs_.size(); ++r) {
    for (size_t k = 0; k < runs_[r]->kernels.size(); ++k) {
      const auto& kt = runs_[r]->kernels[k];
      const int lane = laneOf(kt.unit);
      if (lane < 0) continue;
      const double x = geo_.xOf(kt.startUs);
      const double w = geo_.widthOf(kt.durUs);
      const int y = geo_.laneTop(static_cast<int>(r), lane);
      if (p.x() >= x && p.x() <= x + w && p.y() >= y && p.y() <= y + geo_.laneHeight)
        return {static_cast<int>(r), static_cast<int>(k)};
    }
  }
  return {-1, -1};
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (runs_.empty()) {
    p.drawText(rect(), Qt::AlignCenter, tr("No simulation yet"));
    return;
  }
  const QFontMetrics fm(font());
  for (size_t r = 0; r < runs_.size(); ++r) {
    const auto& run = *runs_[r];
    const int top = geo_.runTop(static_cast<int>(r));
    p.setPen(palette().text().color());
    QString title = r < titles_.size() ? titles_[r] : QString();
    p.drawText(4, top + fm.ascent(), QString("%1 — %2 µs simulated on %3")
                                         .arg(title)
                                         .arg(run.latencyUs, 0, 'f', 1)
                                         .arg(QString::fromStdString(run.hwName)));
    for (int lane = 0; lane < geo_.lanesPerRun; ++lane) {
      const int y = geo_.laneTop(static_cast<int>(r), lane);
      p.setPen(palette().mid().color());
      p.drawLine(geo_.leftMargin, y + geo_.laneHeight, width(), y + geo_.laneHeight);
      p.setPen(palette().text().color());
      p.drawText(4, y + geo_.laneHeight - 4, kLaneNames[lane]);
    }
    for (const auto& kt : run.kernels) {
      const int lane = laneOf(kt.unit);
      if (lane < 0) continue;
      const double x = geo_.xOf(kt.startUs);
      const double w = geo_.widthOf(kt.durUs);
      if (x > width() || x + w < geo_.leftMargin) continue;
      const int y = geo_.laneTop(static_cast<int>(r), lane);
      QRectF box(std::max<double>(x, geo_.leftMargin), y + 1, w, geo_.laneHeight - 2);
      p.fillRect(box, unitColor(kt.unit));
      if (w > 4) {
        p.setPen(unitColor(kt.unit).darker(140));
        p.drawRect(box);
      }
      if (w > 40) {
        p.setPen(Qt::black);
        p.drawText(box.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(QString::fromStdString(kt.name), Qt::ElideRight, static_cast<int>(w) - 4));
      }
      // Eager mode: host dispatch shown on the host lane.
      if (kt.hostDispatchUs > 0) {
        const int hy = geo_.laneTop(static_cast<int>(r), 3);
        p.fillRect(QRectF(geo_.xOf(kt.startUs - kt.hostDispatchUs), hy + 1, geo_.widthOf(kt.hostDispatchUs),
                          geo_.laneHeight - 2),
                   QColor(180, 180, 180));
      }
    }
  }
  // Time axis ticks along the bottom.
  p.setPen(palette().text().color());
  const int axisY = height() - 2;
  const double spanUs = (width() - geo_.leftMargin) * geo_.usPerPixel;
  double step = std::pow(10.0, std::floor(std::log10(std::max(spanUs / 6, 1e-6))));
  if (spanUs / step > 12) step *= 5;
  for (double t = std::ceil(geo_.viewStartUs / step) * step; geo_.xOf(t) < width(); t += step) {
    const int x = static_cast<int>(geo_.xOf(t));
    p.drawLine(x, axisY - 4, x, axisY);
    p.drawText(x + 2, axisY - 5, QString::number(t, 'g', 4) + " µs");
  }
}

void TimelineWidget::wheelEvent(QWheelEvent* e) {
  const double factor = e->angleDelta().y() > 0 ? 1.25 : 0.8;
  geo_.zoomAt(e->position().x(), factor);
  update();
  e->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
  auto [run, k] = kernelAt(e->pos());
  if (run >= 0) emit kernelClicked(run, k);
  dragging_ = true;
  dragStart_ = e->pos();
  dragStartUs_ = geo_.viewStartUs;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e) {
  if (!dragging_) return;
  geo_.viewStartUs = std::max(0.0, dragStartUs_ - (e->pos().x() - dragStart_.x()) * geo_.usPerPixel);
  update();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent*) { dragging_ = false; }

void TimelineWidget::resizeEvent(QResizeEvent*) {
  if (fitted_) fitAll();
}

bool TimelineWidget::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    auto [run, k] = kernelAt(he->pos());
    if (run >= 0) {
      const auto& kt = runs_[static_cast<size_t>(run)]->kernels[static_cast<size_t>(k)];
      QString ops;
      for (size_t i = 0; i < kt.ops.size() && i < 8; ++i) ops += (i ? ", " : "") + QString::fromStdString(kt.ops[i]);
      QToolTip::showText(he->globalPos(), QString("<b>%1</b><br>%2<br>%3 µs (simulated), %4 bound<br>start %5 µs")
                                              .arg(QString::fromStdString(kt.name).toHtmlEscaped(), ops.toHtmlEscaped())
                                              .arg(kt.durUs, 0, 'f', 2)
                                              .arg(fw::sim::boundName(kt.bound))
                                              .arg(kt.startUs, 0, 'f', 2));
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(e);
}

}  // namespace fwui
