// The main window end to end: tuning, comparing chips, level and rule changes, big graphs.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QGraphicsScene>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextDocument>
#include <fstream>

#include <QElapsedTimer>
#include <QProgressBar>
#include <QTimer>
#include <QPushButton>
#include <QTest>
#include <QStatusBar>
#include <QTextBrowser>
#include <QToolButton>

#include "core/io/ModelSource.h"
#include "core/onnx/OnnxIO.h"
#include "ui/MainWindow.h"
#include "ui/diagram/Hierarchy.h"
#include "ui/views/RulesPanel.h"
#include "core/io/Prepare.h"
#include "ui/analysis/Analysis.h"
#include "ui/diagram/Diagram.h"
#include "ui/models/NodeTableModel.h"
#include "ui/models/TimingTableModel.h"
#include "tests/ui/TestApp.h"
#include "ui/views/GraphNodeItem.h"
#include "ui/views/GraphScene.h"
#include "ui/views/CompareDialog.h"
#include "ui/views/GraphView.h"
#include "ui/views/TuneDialog.h"

#include "tests/ui/MainWindowTestUtil.h"

using fwtest_ui::highlighted;
using fwtest_ui::kModel;
using fwtest_ui::waitFor;

TEST(MainWindow, TuneDialogFindsABetterPlanAndApplyTakesIt) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  w.setOptLevel(1);
  w.openModel("zoo:mobilenetv2?image=64");
  ASSERT_TRUE(waitFor(ready));
  const double before = w.analysis()->after.latencyUs;
  fw::AnalysisOptions o = w.analysisOptions();
  o.trace = w.analysis()->trace;
  fwui::TuneDialog d(w.analysis()->original, o);
  d.setMaxEvaluations(80);
  QSignalSpy finished(&d, &fwui::TuneDialog::finished);
  QObject::connect(&d, &fwui::TuneDialog::applied, &w, &fwui::MainWindow::applyFusionOptions);
  d.start();
  EXPECT_TRUE(d.isRunning());
  EXPECT_TRUE(d.cancelButton()->isEnabled());
  ASSERT_TRUE(waitFor(finished));
  EXPECT_TRUE(finished.takeFirst().at(0).toBool());
  ASSERT_NE(d.result(), nullptr);
  EXPECT_LT(d.result()->best.latencyUs, before);
  EXPECT_TRUE(d.resultView()->toPlainText().contains("what changed:"));
  EXPECT_EQ(d.progressBar()->value(), d.progressBar()->maximum());
  ASSERT_TRUE(d.applyButton()->isEnabled());
  // Save writes a config the CLI loads; Apply re-analyses with the tuned options.
  QTemporaryDir dir;
  EXPECT_TRUE(d.saveConfig(dir.filePath("tuned.json")).isEmpty());
  EXPECT_TRUE(QFile::exists(dir.filePath("tuned.json")));
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  d.applyButton()->click();
  ASSERT_TRUE(waitFor(done));
  while (w.isBusy()) QTest::qWait(50);
  EXPECT_NEAR(w.analysis()->after.latencyUs, d.result()->best.latencyUs, 1e-6 * before);
  EXPECT_EQ(w.optLevel(), d.result()->best.options.optLevel);
}

TEST(MainWindow, TuneCanBeCancelled) {
  fwtest::testApp();
  auto m = fw::loadModel("zoo:mobilenetv2?image=64");
  ASSERT_TRUE(m.ok());
  fw::AnalysisOptions o;
  o.fusion.optLevel = 1;
  o.hw = "ascend910b2";
  fwui::TuneDialog d(*m, o);
  QSignalSpy finished(&d, &fwui::TuneDialog::finished);
  d.start();
  d.cancel();
  ASSERT_TRUE(waitFor(finished));
  ASSERT_NE(d.result(), nullptr);
  EXPECT_EQ(d.result()->stopReason, "cancelled");
}

TEST(MainWindow, CompareDialogComparesTheCheckedChips) {
  fwtest::testApp();
  auto m = fw::loadModel(kModel);
  ASSERT_TRUE(m.ok());
  fw::AnalysisOptions o;
  fwui::CompareDialog d(*m, o, {"ascend910b2", "ascend310", "toy"}, {"ascend910b2"});
  QSignalSpy finished(&d, &fwui::CompareDialog::finished);
  d.run();  // one chip: refused with a message
  ASSERT_EQ(finished.count(), 1);
  EXPECT_FALSE(finished.takeFirst().at(0).toBool());
  EXPECT_TRUE(d.statusLabel()->text().contains("at least two"));
  d.setChecked({"ascend910b2", "toy"});
  d.run();
  ASSERT_TRUE(waitFor(finished));
  EXPECT_TRUE(finished.takeFirst().at(0).toBool());
  ASSERT_NE(d.result(), nullptr);
  EXPECT_EQ(d.result()->chips.size(), 2u);
  EXPECT_TRUE(d.resultView()->toPlainText().contains("each plan (row) simulated on each chip"));
}

// A level or rule toggle is one fuse and one simulation: no shape binding, no hierarchy, no baseline
// run (they do not depend on the level); a new binding or profile does redo what depends on it.
TEST(MainWindow, ALevelToggleBindsNothingAndReusesTheBaseline) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.setAutoVerify(false, 0);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.setOptLevel(2);
  w.openModel("zoo:bert?layers=200&hidden=32&heads=2&seq=8");  // about 10,000 nodes
  ASSERT_TRUE(waitFor(done));
  ASSERT_GT(w.model()->graph->liveNodeCount(), 10000u);
  ASSERT_TRUE(w.analysis()->simulated);
  const double beforeUs = w.analysis()->before.latencyUs;
  const size_t binds = fw::bindShapesCalls(), hier = fw::diagram::buildHierarchyCalls(),
               baselines = fw::simulateBaselineCalls();
  for (int level : {1, 3, 0}) {
    done.clear();
    w.setOptLevel(level);
    ASSERT_TRUE(waitFor(done));
    ASSERT_EQ(w.analysis()->fused.optLevel, level);
    EXPECT_DOUBLE_EQ(w.analysis()->before.latencyUs, beforeUs);
  }
  EXPECT_EQ(fw::bindShapesCalls(), binds);
  EXPECT_EQ(fw::diagram::buildHierarchyCalls(), hier);
  EXPECT_EQ(fw::simulateBaselineCalls(), baselines);
  // The eager baseline is another baseline run (not another binding): simulated once.
  done.clear();
  w.setEagerBaseline(true);
  ASSERT_TRUE(waitFor(done));
  EXPECT_GT(w.analysis()->before.latencyUs, beforeUs);
  EXPECT_EQ(fw::simulateBaselineCalls(), baselines + 1);
  EXPECT_EQ(fw::bindShapesCalls(), binds);
}

TEST(MainWindow, BigGraphOpensAsAnOverviewWithoutBlockingTheEventLoop) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.resize(1400, 900);
  w.show();
  // The event loop's longest gap while the model loads, fuses, simulates and lays out: a 10 ms timer
  // that notes how late it fires.
  QElapsedTimer clock;
  qint64 last = 0, worst = 0;
  QTimer tick;
  tick.setInterval(10);
  QObject::connect(&tick, &QTimer::timeout, [&] {
    const qint64 now = clock.elapsed();
    worst = std::max(worst, now - last);
    last = now;
  });
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  clock.start();
  tick.start();
  w.openModel("zoo:bert?layers=200&hidden=32&heads=2&seq=8");  // about 10,000 nodes
  ASSERT_TRUE(waitFor(ready));
  tick.stop();
  EXPECT_GT(w.model()->graph->liveNodeCount(), 10000u);
  EXPECT_GE(w.firstPaintSeconds(), 0.0);
  // Both views open as a small overview of collapsed groups.
  for (auto* v : {w.beforeView(), w.afterView()}) {
    const auto& d = v->graphScene()->diagram();
    EXPECT_LE(d.boxes.size(), 60u);
    EXPECT_GT(d.hiddenNodes, 0u);
  }
  // Figures for the benchmark table (not asserted here: timing belongs in bench/).
  std::fprintf(stderr, "[big graph] first paint %.2f s after load, longest event-loop gap %lld ms\n", w.firstPaintSeconds(),
               static_cast<long long>(worst));
  EXPECT_LT(worst, 1000) << "the GUI thread blocked for " << worst << " ms";
  // Expanding a group shows its children and keeps the rest folded.
  fwui::GraphView* after = w.afterView();
  QString scope, first;
  for (const auto& b : after->graphScene()->diagram().boxes)
    if (b.kind == fw::diagram::BoxKind::Scope) {
      scope = QString::fromStdString(b.scope);
      if (first.isEmpty()) first = scope;
    }
  ASSERT_FALSE(scope.isEmpty());
  ASSERT_NE(first, scope);
  // A nested path whose first level is shown but whose next level does not exist starts nothing.
  EXPECT_TRUE(w.expandGroup(first + "/no such block").contains("is not a group of this graph"));
  EXPECT_FALSE(after->isLayoutRunning());
  const size_t folded = after->graphScene()->diagram().boxes.size();
  QSignalSpy laidOut(after, &fwui::GraphView::layoutFinished);
  QSignalSpy expanded(after, &fwui::GraphView::scopeExpanded);
  // As a user would: zoomed in on the group, the selected kernel (at the top) out of sight.
  after->setZoom(3.0);
  for (auto* item : after->graphScene()->nodeItems())
    if (item && item->kind() == fw::diagram::BoxKind::Scope && item->scopePath() == scope) after->centerOn(item);
  after->expandScope(scope);
  ASSERT_TRUE(waitFor(laidOut));
  EXPECT_GT(after->graphScene()->diagram().boxes.size(), folded);
  ASSERT_EQ(expanded.count(), 1);
  EXPECT_TRUE(expanded[0][3].toBool()) << "the group opened by a full relayout, not in place";
  std::fprintf(stderr, "[big graph] expanding %s took %.2f s\n", qPrintable(scope), expanded[0][2].toDouble());
  // The view stays on what was opened (the selected kernel, far above, does not pull it back).
  QRectF contents;
  for (auto* item : after->graphScene()->nodeItems())
    if (item && fw::diagram::scopeWithin(item->scopePath().toStdString(), scope.toStdString()))
      contents |= item->sceneBoundingRect();
  ASSERT_FALSE(contents.isNull());
  EXPECT_TRUE(after->mapToScene(after->viewport()->rect()).boundingRect().intersects(contents));
  // By path, in both views: already open is no error, a name the views do not show is one.
  EXPECT_TRUE(w.expandGroup(scope).isEmpty());
  EXPECT_TRUE(w.expandGroup("no such group").contains("not a folded group"));
}

// One owner of the options: a level change keeps the user's explicit rule choices, and the summary
// shows every option in effect besides the level.
TEST(MainWindow, ALevelChangeKeepsRuleOverridesAndTheSummaryShowsThem) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.setAutoVerify(false, 0);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.setOptLevel(2);
  w.openModel("zoo:resnet50?image=32");
  ASSERT_TRUE(waitFor(done));
  auto* rules = w.findChild<fwui::RulesPanel*>();
  ASSERT_NE(rules, nullptr);
  done.clear();
  rules->itemForRule("conv_activation")->setCheckState(0, Qt::Unchecked);  // a level-1 rule off
  ASSERT_TRUE(waitFor(done));
  EXPECT_TRUE(w.analysis()->fusionOptions.disabled.count("conv_activation"));
  for (int level : {3, 1}) {
    done.clear();
    w.setOptLevel(level);
    ASSERT_TRUE(waitFor(done));
    EXPECT_TRUE(w.analysis()->fusionOptions.disabled.count("conv_activation")) << "level " << level;
    EXPECT_EQ(rules->itemForRule("conv_activation")->checkState(0), Qt::Unchecked);
  }
  auto* summary = w.findChild<QLabel*>("summaryBar");
  ASSERT_NE(summary, nullptr);
  EXPECT_TRUE(summary->text().contains(QString::fromUtf8("rules \u2212conv_activation"))) << summary->text().toStdString();
  // Checking it again is no override any more.
  done.clear();
  rules->itemForRule("conv_activation")->setCheckState(0, Qt::Checked);
  ASSERT_TRUE(waitFor(done));
  EXPECT_FALSE(summary->text().contains("rules ")) << summary->text().toStdString();
}

// A programmatic level change with a model open starts one analysis, not two.
TEST(MainWindow, SetOptLevelStartsOneAnalysis) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.setAutoVerify(false, 0);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.setOptLevel(2);
  w.openModel("zoo:resnet50?image=32");
  ASSERT_TRUE(waitFor(done));
  const size_t baselines = fw::simulateBaselineCalls();
  QSignalSpy started(&w, &fwui::MainWindow::analysisStarted);
  done.clear();
  w.setOptLevel(1);
  ASSERT_TRUE(waitFor(done));
  QTest::qWait(200);
  EXPECT_EQ(started.count(), 1);
  EXPECT_EQ(done.count(), 1);
  EXPECT_EQ(fw::simulateBaselineCalls(), baselines);
}
