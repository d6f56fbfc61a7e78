// The main window end to end: load, fuse, simulate, verify, selection linking, bad input, settings.
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

TEST(MainWindow, LoadsFusesSimulatesAndFillsEveryModel) {
  fwtest::testApp();
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
  fwtest::testApp();
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

// The proof: every analysis is verified in the background; the summary bar, the properties dock and
// the report carry the result; a newer analysis supersedes a running proof; over budget, a button.
TEST(MainWindow, FusedModelIsVerifiedInTheBackgroundAndTheResultIsShown) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.setAutoVerify(true, 60);
  w.setExecutorThreads(1);
  QSignalSpy proved(&w, &fwui::MainWindow::proofFinished);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.setOptLevel(2);
  w.openModel(kModel);
  ASSERT_TRUE(waitFor(done));
  // Superseded: a level change while the -O2 proof may still run; the result shown is -O1's.
  done.clear();
  w.setOptLevel(1);
  EXPECT_EQ(w.proofState(), fwui::MainWindow::Proof::None);
  ASSERT_TRUE(waitFor(done));
  while (w.proofState() == fwui::MainWindow::Proof::Running) ASSERT_TRUE(proved.wait(120000));
  ASSERT_EQ(w.proofState(), fwui::MainWindow::Proof::Equal) << w.proofText().toStdString();
  ASSERT_NE(w.proofReport(), nullptr);
  EXPECT_DOUBLE_EQ(w.proofReport()->tolerance, 1e-5);  // level 1's tolerance: the newest analysis
  EXPECT_TRUE(w.proofText().startsWith(QString::fromUtf8("equal \u2714 max rel "))) << w.proofText().toStdString();
  EXPECT_TRUE(w.findChild<QLabel*>("proofLabel")->text().contains("equal"));
  EXPECT_FALSE(w.findChild<QToolButton*>("verifyButton")->isVisible());
  const nlohmann::json j = w.proofJson();
  EXPECT_EQ(j["state"], "equal");
  EXPECT_EQ(j["report"]["passed"], true);
  EXPECT_EQ(j["executor_threads"], 1);
  // The properties dock of a fused kernel says so too.
  auto* details = w.findChild<QTextBrowser*>();
  ASSERT_NE(details, nullptr);
  const auto& k = w.analysis()->fused.kernels.front();
  QStringList members;
  for (fw::NodeId id : k.members) members << QString::fromStdString(w.analysis()->fused.rewritten.graph->node(id).name);
  emit w.afterView()->selectionChanged(members);
  EXPECT_TRUE(details->toPlainText().contains("Verification")) << details->toPlainText().toStdString();
  EXPECT_TRUE(details->toPlainText().contains("equal")) << details->toPlainText().toStdString();

  // Over the budget: no automatic run, a Verify button; pressing it proves.
  w.setAutoVerify(true, 0);
  done.clear();
  w.setOptLevel(2);
  ASSERT_TRUE(waitFor(done));
  EXPECT_EQ(w.proofState(), fwui::MainWindow::Proof::Manual);
  EXPECT_TRUE(w.proofText().contains("not verified yet")) << w.proofText().toStdString();
  EXPECT_EQ(w.proofJson()["state"], "not run (over budget)");
  EXPECT_FALSE(w.findChild<QToolButton*>("verifyButton")->isHidden());
  proved.clear();
  w.verifyNow();
  EXPECT_EQ(w.proofState(), fwui::MainWindow::Proof::Running);
  while (w.proofState() == fwui::MainWindow::Proof::Running) ASSERT_TRUE(proved.wait(120000));
  EXPECT_EQ(w.proofState(), fwui::MainWindow::Proof::Equal) << w.proofText().toStdString();
  EXPECT_DOUBLE_EQ(w.proofReport()->tolerance, 1e-4);
  w.setAutoVerify(true, 4);
  w.setExecutorThreads(0);
}

TEST(MainWindow, SelectingAFusedKernelHighlightsItsOriginalNodes) {
  fwtest::testApp();
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
  fwtest::testApp();
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

namespace {

// x[N,3,H,W] -> Conv(stride 2) -> Relu, saved as a file: the user's own model with open dims.
std::string writeSymbolicModel(const QTemporaryDir& dir, bool mystery) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape({fw::Dim::sym("N"), 3, fw::Dim::sym("H"), fw::Dim::sym("W")}));
  auto w = g->addInitializer("w", fw::Tensor::floats({4, 3, 3, 3}, std::vector<float>(108, 0.1f)));
  auto c = g->addValue("c");
  fw::Attributes a;
  a.set(fw::Attribute::makeInts("strides", {2, 2}));
  g->addNode("Conv", {x, w}, {c}, a, "conv");
  auto r = g->addValue("r");
  g->addNode("Relu", {c}, {r}, {}, "relu");
  if (mystery) {  // an op nobody can run: its output shape stays unknown
    auto y = g->addValue("y");
    g->addNode("Mystery", {r}, {y}, {}, "mystery", "com.example");
    g->addOutput(y);
  } else {
    g->addOutput(r);
  }
  fw::Model m;
  m.opsetImports = {{"", 13}, {"com.example", 1}};
  m.graph = g;
  const std::string path = dir.filePath(mystery ? "mystery.onnx" : "symbolic.onnx").toStdString();
  EXPECT_TRUE(fw::saveOnnxFile(m, path).ok());
  return path;
}

}  // namespace

// A proof that fails with a long message (here an op type of 300 characters nobody can run) keeps
// the bar beside the summary one readable line; the whole message is the tooltip.
TEST(MainWindow, ALongProofMessageStaysOneLine) {
  fwtest::testApp();
  QTemporaryDir dir;
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape({1, 8}));
  auto r = g->addValue("r"), y = g->addValue("y");
  g->addNode("Relu", {x}, {r}, {}, "relu");
  const std::string longOp = "Decode" + std::string(300, 'X');
  g->addNode(longOp, {r}, {y}, {}, "decoder", "com.example");
  g->addOutput(y);
  fw::Model m;
  m.opsetImports = {{"", 13}, {"com.example", 1}};
  m.graph = g;
  const std::string path = dir.filePath("long_op.onnx").toStdString();
  ASSERT_TRUE(fw::saveOnnxFile(m, path).ok());
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.setAutoVerify(true, 60);
  QSignalSpy proved(&w, &fwui::MainWindow::proofFinished);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.openModel(QString::fromStdString(path));
  ASSERT_TRUE(waitFor(done));
  while (w.proofState() == fwui::MainWindow::Proof::Running || w.proofState() == fwui::MainWindow::Proof::None)
    ASSERT_TRUE(proved.wait(120000));
  ASSERT_EQ(w.proofState(), fwui::MainWindow::Proof::Failed) << w.proofText().toStdString();
  ASSERT_GT(w.proofText().size(), 300);
  auto* label = w.findChild<QLabel*>("proofLabel");
  QTextDocument doc;
  doc.setHtml(label->text());
  const QString shown = doc.toPlainText();
  EXPECT_LE(shown.size(), 141) << shown.toStdString();
  EXPECT_FALSE(shown.contains('\n'));
  EXPECT_TRUE(shown.endsWith(QString::fromUtf8("…"))) << shown.toStdString();
  EXPECT_TRUE(label->toolTip().contains(QString::fromStdString(longOp)));
}

TEST(MainWindow, OpenDimsAreBoundByDefaultAndByTheUser) {
  fwtest::testApp();
  QTemporaryDir dir;
  const QString path = QString::fromStdString(writeSymbolicModel(dir, false));
  QSettings().remove("inputShapes/" + path);
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.openModel(path);
  ASSERT_TRUE(waitFor(done));
  ASSERT_TRUE(w.analysis()->simulated);
  EXPECT_GT(w.timingModel()->rowCount(), 0);
  EXPECT_FALSE(w.timingModel()->isMessage());
  EXPECT_TRUE(w.bindingLabel()->text().contains("H=224 (image)")) << w.bindingLabel()->text().toStdString();
  const auto& in = w.analysis()->original.graph->value(w.analysis()->original.graph->inputs()[0]);
  EXPECT_EQ(in.shape, fw::Shape::ofInts({1, 3, 224, 224}));

  // The user's binding: recomputed, remembered for this file.
  done.clear();
  EXPECT_TRUE(w.setInputShapes({"x=2,3,64,96"}).isEmpty());
  ASSERT_TRUE(waitFor(done));
  const auto& in2 = w.analysis()->original.graph->value(w.analysis()->original.graph->inputs()[0]);
  EXPECT_EQ(in2.shape, fw::Shape::ofInts({2, 3, 64, 96}));
  EXPECT_EQ(QSettings().value("inputShapes/" + path).toStringList(), QStringList{"x=2,3,64,96"});
  EXPECT_FALSE(w.setInputShapes({"x="}).isEmpty());  // a bad text changes nothing
  QSettings().remove("inputShapes/" + path);
}

TEST(MainWindow, SaysOnceWhenItsSettingsCannotBeWritten) {
  fwtest::testApp();
  fwui::MainWindow w;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, "/proc/fw-settings-cannot-be-here");
  w.setOptLevel(1);
  const QString said = w.statusBar()->currentMessage();
  w.statusBar()->clearMessage();
  w.setOptLevel(2);  // not said again
  const QString again = w.statusBar()->currentMessage();
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, fwtest::testSettingsDir());
  EXPECT_TRUE(said.contains("Settings are not remembered")) << said.toStdString();
  EXPECT_TRUE(said.contains("/proc/fw-settings-cannot-be-here")) << said.toStdString();
  EXPECT_TRUE(again.isEmpty()) << again.toStdString();
}

TEST(MainWindow, TimingTableSaysWhyWhenNothingCanBeSimulated) {
  fwtest::testApp();
  QTemporaryDir dir;
  const QString path = QString::fromStdString(writeSymbolicModel(dir, true));
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QAbstractItemModelTester timingTester(w.timingModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.openModel(path);
  ASSERT_TRUE(waitFor(done));
  ASSERT_TRUE(w.timingModel()->isMessage());
  ASSERT_EQ(w.timingModel()->rowCount(), 1);
  const QString why = w.timingModel()->data(w.timingModel()->index(0, 0), Qt::DisplayRole).toString();
  EXPECT_TRUE(why.contains("mystery")) << why.toStdString();
  EXPECT_TRUE(w.timingModel()->toCsv().contains("not simulated"));
}

// Every refused case of the broken-model corpus: an error that names the problem, previous model kept.
TEST(MainWindow, CorpusOfBrokenModelsIsRefusedAndThePreviousModelKept) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  w.openModel(kModel);
  ASSERT_TRUE(waitFor(ready));
  const int rows = w.nodeModel()->rowCount();
  std::ifstream expect(std::string(FW_TEST_DATA_DIR) + "/bad/EXPECT.tsv");
  ASSERT_TRUE(expect.good());
  std::string line;
  int refused = 0;
  while (std::getline(expect, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    const std::string name = line.substr(0, t1), kind = line.substr(t1 + 1, t2 - t1 - 1), text = line.substr(t2 + 1);
    if (kind != "refuse") continue;
    std::string path = std::string(FW_TEST_DATA_DIR) + "/bad/" + name + ".onnx";
    if (!std::ifstream(path).good()) path = std::string(FW_TEST_DATA_DIR) + "/bad/" + name + ".bin";
    QSignalSpy failed(&w, &fwui::MainWindow::loadFailed);
    w.openModel(QString::fromStdString(path));
    ASSERT_TRUE(waitFor(failed, 60000)) << name;
    EXPECT_TRUE(failed.front().front().toString().contains(QString::fromStdString(text), Qt::CaseInsensitive))
        << name << ": " << failed.front().front().toString().toStdString();
    EXPECT_EQ(w.currentSpec(), kModel) << name;
    EXPECT_EQ(w.nodeModel()->rowCount(), rows) << name;
    ++refused;
  }
  EXPECT_GE(refused, 40);
}

