// File → Load measured times…: a measured run set beside the after run (a "Measured (host) µs" column in the
// timing table and its CSV, the accuracy in the summary); a malformed file is refused naming it.
#include <gtest/gtest.h>

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "simulator/Measured.h"
#include "tests/ui/TestApp.h"
#include "ui/MainWindow.h"
#include "ui/models/TimingTableModel.h"

TEST(MainWindowMeasured, LoadedRunAddsTheMeasuredColumnAndTheAccuracy) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  w.setOptLevel(2);
  w.openModel("zoo:resnet50?image=64");
  ASSERT_TRUE(ready.count() > 0 || ready.wait(120000));
  ASSERT_NE(w.analysis(), nullptr);
  ASSERT_TRUE(w.analysis()->simulated);
  EXPECT_FALSE(w.timingModel()->hasMeasured());
  EXPECT_FALSE(w.timingModel()->toCsv().contains("Measured"));

  // A "measurement" of twice every simulated kernel: every error is -50 %, ranks agree.
  fw::sim::MeasuredRun run;
  run.source = "test";
  run.model = "zoo:resnet50?image=64";
  run.optLevel = 2;
  for (const auto& k : w.analysis()->after.kernels) {
    run.kernels.push_back({k.name, k.ops, 2 * k.durUs, -1, -1, k.nodes});
    run.totalUs += 2 * k.durUs;
  }
  QTemporaryDir dir;
  // Writes the run to `file`, loads it in the window and waits for the analysis it starts.
  auto load = [&](const char* file) {
    const QString path = dir.filePath(file);
    if (!fw::sim::writeMeasuredJson(path.toStdString(), run).ok()) return false;
    QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
    return w.loadMeasured(path).isEmpty() && (done.count() > 0 || done.wait(120000)) && w.measuredAccuracy();
  };
  ASSERT_TRUE(load("prof.json"));
  EXPECT_NEAR(w.measuredAccuracy()->medianAbsErr, 0.5, 1e-9);
  EXPECT_TRUE(w.timingModel()->hasMeasured());
  const auto* row = w.timingModel()->rowAt(0);
  ASSERT_NE(row, nullptr);
  const QString cell = w.timingModel()->data(w.timingModel()->index(0, fwui::TimingTableModel::MeasuredUs), Qt::DisplayRole).toString();
  EXPECT_EQ(cell, QString::number(2 * row->afterUs, 'f', 2));
  EXPECT_TRUE(w.timingModel()->toCsv().section('\n', 0, 0).endsWith("Measured (host) µs"));
  EXPECT_TRUE(w.summaryLabel()->text().contains("measured (host, ")) << w.summaryLabel()->text().toStdString();
  EXPECT_TRUE(w.summaryLabel()->text().contains("Spearman 1.000")) << w.summaryLabel()->text().toStdString();
  EXPECT_TRUE(w.summaryLabel()->text().contains("median 50.0%")) << w.summaryLabel()->text().toStdString();
  // Every kernel measured at twice its simulated time: the ops whose kernels take longest move the
  // whole-model error most, and the summary names them.
  ASSERT_FALSE(w.measuredAccuracy()->byOps.empty());
  const auto& top = w.measuredAccuracy()->byOps.front();
  for (const auto& g : w.measuredAccuracy()->byOps) EXPECT_LE(g.measuredUs, top.measuredUs) << g.ops;
  EXPECT_LT(top.shareOfTotal, 0.0);
  EXPECT_TRUE(w.summaryLabel()->text().contains(QString("most of the gap from %1 (%2 kernel(s), ")
                                                    .arg(QString::fromStdString(fw::sim::shortOps(top.ops)))
                                                    .arg(top.kernels)))
      << w.summaryLabel()->text().toStdString();
  EXPECT_FALSE(w.summaryLabel()->text().contains("ran other nodes"))
      << w.summaryLabel()->text().toStdString();

  // The same run, its second kernel measured on another plan (other nodes under the same name): left
  // unmatched, and the summary says so.
  ASSERT_GE(run.kernels.size(), 2u);
  run.kernels[1].nodes = {"some_other_node"};
  ASSERT_TRUE(load("other.json"));
  EXPECT_EQ(w.measuredAccuracy()->otherPlan.size(), 1u);
  EXPECT_TRUE(w.summaryLabel()->text().contains("1 measured kernel(s) ran other nodes"))
      << w.summaryLabel()->text().toStdString();

  // Two profiles, every kernel measured at 2x and 4x the simulated time: the median per kernel, 3x.
  run.kernels[1].nodes = w.analysis()->after.kernels[1].nodes;  // back on this plan
  const QString twice = dir.filePath("twice.json"), four = dir.filePath("four.json");
  ASSERT_TRUE(fw::sim::writeMeasuredJson(twice.toStdString(), run).ok());
  auto fourTimes = run;
  for (auto& k : fourTimes.kernels) k.us *= 2;
  ASSERT_TRUE(fw::sim::writeMeasuredJson(four.toStdString(), fourTimes).ok());
  {
    QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
    ASSERT_TRUE(w.loadMeasured(QStringList{twice, four}).isEmpty());
    ASSERT_TRUE(done.count() > 0 || done.wait(120000));
  }
  ASSERT_NE(w.measuredAccuracy(), nullptr);
  EXPECT_NEAR(w.measuredAccuracy()->medianAbsErr, 2.0 / 3.0, 1e-9);
  auto otherLevel = run;
  otherLevel.optLevel = 0;
  const QString o0 = dir.filePath("o0.json");
  ASSERT_TRUE(fw::sim::writeMeasuredJson(o0.toStdString(), otherLevel).ok());
  EXPECT_TRUE(w.loadMeasured(QStringList{twice, o0}).contains("o0.json: opt_level is 0"));

  // A run of one measured kernel has no ranking: the summary says "Spearman n/a", not a correlation of 0.
  run.kernels.resize(1);
  ASSERT_TRUE(load("one.json"));
  EXPECT_FALSE(w.measuredAccuracy()->ranked);
  EXPECT_TRUE(w.summaryLabel()->text().contains("Spearman n/a over 1 kernel(s)"))
      << w.summaryLabel()->text().toStdString();

  const QString bad = dir.filePath("broken.json");
  {
    QFile f(bad);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"model":"m","opt_level":2,"threads":1,"total_us":1,"kernels":[{"name":"a"}]})");
  }
  const QString err = w.loadMeasured(bad);
  EXPECT_TRUE(err.contains("broken.json: kernels[0].measured_us")) << err.toStdString();
}

// On a cpu profile with a speed probe (simulator/SpeedProbe.h), a measured run whose probe took twice the
// calibration's: the summary says it was measured in another machine state; the same probe says nothing.
TEST(MainWindowMeasured, TheSummarySaysWhenTheMeasuredRunRanInAnotherMachineState) {
  fwtest::testApp();
  QTemporaryDir dir;
  const QString hw = dir.filePath("host.json");
  {
    QFile f(hw);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"name": "probedcpu", "kind": "cpu", "dtype": "float32", "clock_hz": 2.0e9, "cube_cores": 1,
      "vector_cores": 1, "cpu": {"gemm_flops_per_s": 1.0e11, "conv_flops_per_s": 5.0e10,
      "cache_bandwidth_bytes_per_s": 1.0e11, "speed_probe_us": {"call": 0.25, "stream": 20, "product": 10}},
      "l2_bytes": 33554432, "hbm_bandwidth_bytes_per_s": 1.0e10, "hbm_capacity_bytes": 1.0e10, "launch_us": 2.0,
      "host_dispatch_us": 0, "efficiency": {"elementwise": 0.1, "reduction": 0.02}, "notes": []})");
  }
  fwui::MainWindow w;
  w.setQuietErrors(true);
  QSignalSpy ready(&w, &fwui::MainWindow::viewsReady);
  w.setHardware(hw);
  w.setOptLevel(2);
  w.openModel("zoo:resnet50?image=32");
  ASSERT_TRUE(ready.count() > 0 || ready.wait(120000));
  ASSERT_NE(w.analysis(), nullptr);
  ASSERT_TRUE(w.analysis()->simulated);
  ASSERT_EQ(w.analysis()->hw.name, "probedcpu");
  fw::sim::MeasuredRun run;
  run.source = "test";
  run.model = "zoo:resnet50?image=32";
  run.optLevel = 2;
  for (const auto& k : w.analysis()->after.kernels) {
    run.kernels.push_back({k.name, k.ops, k.durUs, -1, -1, k.nodes});
    run.totalUs += k.durUs;
  }
  auto load = [&](const char* file, fw::sim::SpeedProbe probe) {
    run.probe = probe;
    run.probeDrift = 1.0;
    const QString path = dir.filePath(file);
    if (!fw::sim::writeMeasuredJson(path.toStdString(), run).ok()) return false;
    QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
    return w.loadMeasured(path).isEmpty() && (done.count() > 0 || done.wait(120000)) && w.measuredAccuracy();
  };
  ASSERT_TRUE(load("same.json", {0.25, 20, 10}));
  EXPECT_NEAR(w.measuredAccuracy()->machineTimeRatio, 1.0, 1e-9);
  EXPECT_FALSE(w.summaryLabel()->text().contains("another machine state")) << w.summaryLabel()->text().toStdString();
  ASSERT_TRUE(load("slow.json", {0.5, 40, 20}));
  EXPECT_NEAR(w.measuredAccuracy()->machineTimeRatio, 2.0, 1e-9);
  EXPECT_TRUE(w.summaryLabel()->text().contains("measured in another machine state"))
      << w.summaryLabel()->text().toStdString();
  EXPECT_TRUE(w.summaryLabel()->text().contains("+100 %")) << w.summaryLabel()->text().toStdString();
}
