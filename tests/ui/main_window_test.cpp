#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <fstream>

#include "ui/MainWindow.h"
#include "ui/models/NodeTableModel.h"

namespace {

QApplication& app() {
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

bool waitFor(QSignalSpy& spy, int ms = 60000) { return spy.count() > 0 || spy.wait(ms); }

}  // namespace

TEST(MainWindow, LoadsZooModelAndListsNodes) {
  app();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QAbstractItemModelTester tester(w.nodeModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSignalSpy loaded(&w, &fwui::MainWindow::modelLoaded);
  w.openModel("zoo:lstm?layers=1&seq=2");
  ASSERT_TRUE(waitFor(loaded));
  ASSERT_TRUE(w.hasModel());
  EXPECT_EQ(w.nodeModel()->rowCount(), static_cast<int>(w.model()->graph->liveNodeCount()));
  EXPECT_GT(w.nodeModel()->rowCount(), 0);
}

TEST(MainWindow, BadFileShowsErrorAndKeepsPreviousModel) {
  app();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy loaded(&w, &fwui::MainWindow::modelLoaded);
  QSignalSpy failed(&w, &fwui::MainWindow::loadFailed);
  w.openModel("zoo:lstm?layers=1&seq=2");
  ASSERT_TRUE(waitFor(loaded));
  const int rows = w.nodeModel()->rowCount();
  QTemporaryDir dir;
  const QString bad = dir.filePath("broken.onnx");
  {
    std::ofstream out(bad.toStdString(), std::ios::binary);
    out << "this is not an onnx model";
  }
  w.openModel(bad);
  ASSERT_TRUE(waitFor(failed));
  EXPECT_TRUE(failed.front().front().toString().contains("broken.onnx"));
  EXPECT_EQ(w.currentSpec(), "zoo:lstm?layers=1&seq=2");
  EXPECT_EQ(w.nodeModel()->rowCount(), rows);
}
