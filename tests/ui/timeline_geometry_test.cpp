#include <gtest/gtest.h>

#include "ui/views/TimelineGeometry.h"

using fwui::TimelineGeometry;

TEST(TimelineGeometry, FitMapsTheWholeRunIntoTheWidth) {
  struct Case {
    double totalUs;
    int width;
  };
  for (const Case& c : {Case{1000, 1110}, Case{5.5, 400}, Case{2e6, 1920}}) {
    TimelineGeometry g;
    g.fit(c.totalUs, c.width);
    EXPECT_DOUBLE_EQ(g.xOf(0), g.leftMargin);
    EXPECT_NEAR(g.xOf(c.totalUs), c.width - 8, 1e-6) << c.totalUs;
    EXPECT_NEAR(g.usAt(g.xOf(c.totalUs / 3)), c.totalUs / 3, 1e-9 * c.totalUs);
  }
}

TEST(TimelineGeometry, ZoomKeepsTheTimeUnderTheCursor) {
  TimelineGeometry g;
  g.fit(1000, 1118);  // 1000 us over 1118 - 110 - 8 = 1000 pixels: 1 us per pixel
  ASSERT_DOUBLE_EQ(g.usPerPixel, 1.0);
  const double anchorX = 610;  // 500 us
  const double before = g.usAt(anchorX);
  for (double f : {2.0, 1.25, 0.5, 10.0}) {
    g.zoomAt(anchorX, f);
    EXPECT_NEAR(g.usAt(anchorX), before, 1e-9) << f;
  }
  EXPECT_NEAR(g.usPerPixel, 1.0 / (2.0 * 1.25 * 0.5 * 10.0), 1e-12);
}

TEST(TimelineGeometry, ZoomOutNeverScrollsBeforeTimeZero) {
  TimelineGeometry g;
  g.fit(1000, 1110);
  g.zoomAt(g.leftMargin + 10, 0.1);
  EXPECT_GE(g.viewStartUs, 0.0);
}

TEST(TimelineGeometry, LanesAndRunsStackWithoutOverlap) {
  TimelineGeometry g;
  for (int run = 0; run < 2; ++run) {
    for (int lane = 0; lane + 1 < g.lanesPerRun; ++lane)
      EXPECT_GE(g.laneTop(run, lane + 1), g.laneTop(run, lane) + g.laneHeight);
  }
  EXPECT_GT(g.runTop(1), g.laneTop(0, g.lanesPerRun - 1) + g.laneHeight);
  EXPECT_EQ(g.totalHeight(2), g.runTop(2));
  EXPECT_DOUBLE_EQ(g.widthOf(0), 1.0);  // a zero-length kernel stays visible
}
