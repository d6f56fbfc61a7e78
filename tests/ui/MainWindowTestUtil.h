#pragma once
// Shared by the MainWindow tests (main_window_test.cpp, main_window_plans_test.cpp).
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QSignalSpy>

#include "ui/views/GraphNodeItem.h"
#include "ui/views/GraphView.h"

namespace fwtest_ui {

inline bool waitFor(QSignalSpy& spy, int ms = 120000) { return spy.count() > 0 || spy.wait(ms); }

// Small but real: ResNet-50 at 64x64 fuses like the full one.
inline const char* kModel = "zoo:resnet50?image=64";

inline int highlighted(fwui::GraphView* v) {
  int n = 0;
  for (QGraphicsItem* it : v->scene()->items())
    if (auto* node = dynamic_cast<fwui::GraphNodeItem*>(it); node && node->isHighlighted()) ++n;
  return n;
}

}  // namespace fwtest_ui
