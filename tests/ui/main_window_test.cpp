#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QGraphicsScene>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <fstream>

#include "ui/MainWindow.h"
#include "ui/models/NodeTableModel.h"
#include "ui/models/TimingTableModel.h"
#include "ui/views/GraphNodeItem.h"
#include "ui/views/GraphView.h"

namespace {

QApplication& mainWindowApp() {
  static int argc = 1;
  static char name[] = "fw_ui_tests";
  static char* argv[] = {name, nullptr};
  static QApplication* a = [] {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    auto* x = new QApplication(argc, argv);
    QApplication::setOrganizationName("FusionWorkbenchTests");
    return x;
  }();
  return *a;
}

bool waitFor(QSignalSpy& spy, int ms = 120000) { return spy.count() > 0 || spy.wait(ms); }

// Small but real: ResNet-50 at 64x64 fuses like the full one.
const char* kModel = "zoo:resnet50?image=64";

int highlighted(fwui::GraphView* v) {
  int n = 0;
  for (QGraphicsItem* it : v->scene()->items())
    if (auto* node = dynamic_cast<fwui::GraphNodeItem*>(it); node && node->isHighlighted()) ++n;
  return n;
}

}  // namespace

TEST(MainWindow, LoadsFusesSimulatesAndFillsEveryModel) {
  mainWindowApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QAbstractItemModelTester nodeTester(w.nodeModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester timingTester(w.timingModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  w.setOptLevel(2);
  w.openModel(kModel);
  ASSERT_TRUE(waitFor(ready));
  ASSERT_TRUE(w.hasModel());
  ASSERT_NE(w.analysis(), nullptr);
  EXPECT_EQ(w.nodeModel()->rowCount(), static_cast<int>(w.model()->graph->liveNodeCount()));
  EXPECT_GT(w.timingModel()->rowCount(), 0);
  EXPECT_LT(w.timingModel()->rowCount(), w.nodeModel()->rowCount());  // fused: fewer kernels
  EXPECT_TRUE(w.summaryLabel()->text().contains("simulated on"));
  EXPECT_GT(w.beforeView()->scene()->items().size(), 0);
  EXPECT_GT(w.afterView()->scene()->items().size(), 0);
}

TEST(MainWindow, LevelSwitchUpdatesTheTimingTable) {
  mainWindowApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  w.setOptLevel(0);
  w.openModel(kModel);
  ASSERT_TRUE(waitFor(ready));
  const int rowsO0 = w.timingModel()->rowCount();
  ready.clear();
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.setOptLevel(2);
  ASSERT_TRUE(waitFor(done));
  EXPECT_EQ(w.optLevel(), 2);
  EXPECT_LT(w.timingModel()->rowCount(), rowsO0);
  EXPECT_EQ(w.analysis()->fused.optLevel, 2);
}

TEST(MainWindow, SelectingAFusedKernelHighlightsItsOriginalNodes) {
  mainWindowApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  w.setOptLevel(2);
  w.openModel(kModel);
  ASSERT_TRUE(waitFor(ready));
  // Pick a kernel with several original nodes and select its box in the after view.
  const fw::Analysis* a = w.analysis();
  const fw::fusion::Kernel* multi = nullptr;
  for (const auto& k : a->fused.kernels)
    if (k.origins.size() >= 3) multi = &k;
  ASSERT_NE(multi, nullptr);
  const std::string member = a->fused.rewritten.graph->node(multi->members.front()).name;
  QStringList names{QString::fromStdString(member)};
  emit w.afterView()->selectionChanged(names);
  EXPECT_GE(highlighted(w.beforeView()), static_cast<int>(multi->origins.size()));
}

TEST(MainWindow, BadFileShowsErrorAndKeepsPreviousModel) {
  mainWindowApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  QSignalSpy failed(&w, &fwui::MainWindow::loadFailed);
  w.openModel(kModel);
  ASSERT_TRUE(waitFor(ready));
  const int rows = w.nodeModel()->rowCount();
  const int kernels = w.timingModel()->rowCount();
  QTemporaryDir dir;
  const QString bad = dir.filePath("broken.onnx");
  {
    std::ofstream out(bad.toStdString(), std::ios::binary);
    out << "this is not an onnx model";
  }
  w.openModel(bad);
  ASSERT_TRUE(waitFor(failed));
  EXPECT_TRUE(failed.front().front().toString().contains("broken.onnx"));
  EXPECT_EQ(w.currentSpec(), kModel);
  EXPECT_EQ(w.nodeModel()->rowCount(), rows);
  EXPECT_EQ(w.timingModel()->rowCount(), kernels);
}
