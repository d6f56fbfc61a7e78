#pragma once
// Coordinate math of the timeline (Gantt) view as a plain struct, so it can be tested without widgets.
// Two runs (before, after) are stacked; each run has one lane per unit (cube, vector, cube+vector,
// host). Time runs left to right, shared by both runs so their lengths compare at a glance.
#include <algorithm>
#include <cmath>

namespace fwui {

struct TimelineGeometry {
  double viewStartUs = 0;    // time at the left edge
  double usPerPixel = 1;     // zoom
  int leftMargin = 110;      // room for lane labels
  int laneHeight = 18;
  int laneGap = 4;
  int runGap = 14;
  int runHeaderHeight = 16;
  int lanesPerRun = 4;

  double xOf(double us) const { return leftMargin + (us - viewStartUs) / usPerPixel; }
  double usAt(double x) const { return viewStartUs + (x - leftMargin) * usPerPixel; }
  int runTop(int run) const { return run * (runHeaderHeight + lanesPerRun * (laneHeight + laneGap) + runGap); }
  int laneTop(int run, int lane) const { return runTop(run) + runHeaderHeight + lane * (laneHeight + laneGap); }
  int totalHeight(int runs) const { return runTop(runs); }

  // Fit [0, totalUs] into `width` pixels.
  void fit(double totalUs, int width) {
    viewStartUs = 0;
    const int usable = std::max(1, width - leftMargin - 8);
    usPerPixel = std::max(totalUs, 1e-3) / usable;
  }
  // Zoom by `factor` (>1 zooms in) keeping the time under pixel `anchorX` fixed.
  void zoomAt(double anchorX, double factor) {
    const double t = usAt(anchorX);
    usPerPixel = std::clamp(usPerPixel / factor, 1e-6, 1e9);
    viewStartUs = t - (anchorX - leftMargin) * usPerPixel;
    if (viewStartUs < 0) viewStartUs = 0;
  }
  // Pixel width of a kernel; at least 1 so that short kernels stay visible.
  double widthOf(double durUs) const { return std::max(1.0, durUs / usPerPixel); }
};

}  // namespace fwui
