// One owner of the options (issue 20): the window's fw::AnalysisSettings is the only place an option
// lives. A click in the Rules dock, the level box, the baseline box, a tuned plan and a new model each
// change exactly the fields they name and start exactly one analysis; the widgets show the value and
// the summary shows every option the shown result was made with.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include "fusion/FusionConfig.h"
#include "tests/ui/TestApp.h"
#include "ui/MainWindow.h"
#include "ui/analysis/AnalysisSettings.h"
#include "ui/views/RulesPanel.h"

namespace {

bool waitFor(QSignalSpy& spy, int ms = 120000) { return spy.count() > 0 || spy.wait(ms); }

std::string text(const QLabel* l) { return l->text().toStdString(); }

}  // namespace

TEST(MainWindowOptions, EachChangeSetsExactlyItsFieldsAndEverythingShowsTheOneValue) {
  fwtest::testApp();
  fwui::MainWindow w;
  w.setQuietErrors(true);
  w.setAutoVerify(false, 0);
  // Settings of earlier tests in this process are remembered: start from known ones.
  w.setOptLevel(2);
  w.setHardware("ascend910b2");
  w.setBatch(1);
  w.setEagerBaseline(false);
  QSignalSpy started(&w, &fwui::MainWindow::analysisStarted);
  QSignalSpy done(&w, &fwui::MainWindow::analysisFinished);
  w.openModel("zoo:resnet50?image=32");
  ASSERT_TRUE(waitFor(done));
  fwui::RulesPanel* rules = w.rulesPanel();
  auto* levelBox = w.findChild<QComboBox*>("levelBox");
  auto* modeBox = w.findChild<QComboBox*>("modeBox");
  ASSERT_TRUE(rules && levelBox && modeBox);
  const QLabel* summary = w.summaryLabel();

  fw::AnalysisSettings expected;
  expected.hw = "ascend910b2";
  ASSERT_EQ(w.settings(), expected);
  EXPECT_FALSE(summary->text().contains("rules ")) << text(summary);
  EXPECT_TRUE(summary->text().contains("simulated on ascend910b2, batch 1, graph baseline")) << text(summary);

  // Runs `change`, waits for its analysis and checks that it started exactly one.
  auto oneAnalysis = [&](const std::function<void()>& change) {
    started.clear();
    done.clear();
    change();
    ASSERT_TRUE(waitFor(done));
    while (w.isBusy()) QTest::qWait(50);
    EXPECT_EQ(started.count(), 1);
    EXPECT_EQ(done.count(), 1);
  };
  auto checkWidgets = [&](const char* step) {
    EXPECT_EQ(levelBox->currentIndex(), w.settings().optLevel) << step;
    EXPECT_EQ(modeBox->currentIndex(), w.settings().beforeMode == fw::sim::SimMode::Eager ? 1 : 0) << step;
    for (const char* id : {"conv_activation", "cse", "stitch_reduce"})
      EXPECT_EQ(rules->itemForRule(id)->checkState(0) == Qt::Checked, w.settings().ruleRuns(id)) << step << " " << id;
  };

  // 1. A click in the Rules dock: one rule choice, nothing else.
  oneAnalysis([&] { rules->itemForRule("conv_activation")->setCheckState(0, Qt::Unchecked); });
  expected.rulesOff = {"conv_activation"};
  EXPECT_EQ(w.settings(), expected);
  EXPECT_EQ(w.analysisOptions().fusion.disabled, expected.rulesOff);
  EXPECT_TRUE(w.analysis()->fusionOptions.disabled.count("conv_activation"));
  EXPECT_TRUE(summary->text().contains(QString::fromUtf8("rules \u2212conv_activation"))) << text(summary);
  checkWidgets("rule click");

  // 2. The level box, as the user changes it: the level, the rule choice kept.
  oneAnalysis([&] { levelBox->setCurrentIndex(3); });
  expected.optLevel = 3;
  EXPECT_EQ(w.settings(), expected);
  EXPECT_EQ(w.analysis()->fused.optLevel, 3);
  EXPECT_TRUE(w.analysis()->fusionOptions.disabled.count("conv_activation"));
  EXPECT_EQ(rules->itemForRule("stitch_reduce")->checkState(0), Qt::Checked);  // runs at -O3
  checkWidgets("level box");
  // The same level again starts nothing.
  started.clear();
  w.setOptLevel(3);
  QTest::qWait(100);
  EXPECT_EQ(started.count(), 0);

  // 3. The baseline box: the mode only.
  oneAnalysis([&] { modeBox->setCurrentIndex(1); });
  expected.beforeMode = fw::sim::SimMode::Eager;
  EXPECT_EQ(w.settings(), expected);
  EXPECT_TRUE(summary->text().contains("batch 1, eager baseline")) << text(summary);
  checkWidgets("mode box");

  // 4. A tuned plan (Tune → Apply; here as `fwb tune` writes it): level, rule switches, exclusions,
  //    min saving and UB share replace the previous ones; hardware, batch and mode stay.
  const std::string conv = w.model()->graph->node(w.model()->graph->liveNodes().front()).name;
  fw::fusion::FusionOptions tuned;
  ASSERT_TRUE(fw::fusion::applyFusionConfig(tuned, R"({"opt_level": 1, "enable": ["cse"], "exclude_nodes": [")" + conv +
                                                       R"("], "min_traffic_saving": 0.5, "ub_fraction": 0.75})",
                                            "tuned.json")
                  .ok());
  oneAnalysis([&] { w.applyFusionOptions(tuned); });
  expected.optLevel = 1;
  expected.rulesOn = {"cse"};
  expected.rulesOff.clear();
  expected.excludedNodes = {conv};
  expected.minSaving = 0.5;
  expected.ubFraction = 0.75;
  EXPECT_EQ(w.settings(), expected);
  const fw::fusion::FusionOptions& made = w.analysis()->fusionOptions;
  EXPECT_EQ(made.optLevel, 1);
  EXPECT_EQ(made.enabled, std::set<std::string>{"cse"});
  EXPECT_TRUE(made.disabled.empty());
  EXPECT_EQ(made.excludedNodes, expected.excludedNodes);
  EXPECT_DOUBLE_EQ(made.hw.minTrafficSaving, 0.5);
  EXPECT_DOUBLE_EQ(made.hw.ubFraction, 0.75);
  for (const char* part : {"rules +cse", "1 node(s) excluded", "min saving 0.5", "UB share 75%", "eager baseline"})
    EXPECT_TRUE(summary->text().contains(part)) << part << " in " << text(summary);
  checkWidgets("tuned plan");

  // 5. Another model: the tuned limits and the exclusions go; level, rule choices, profile, batch and
  //    mode stay.
  oneAnalysis([&] { w.openModel("zoo:mobilenetv2?image=32"); });
  ASSERT_EQ(w.currentSpec(), "zoo:mobilenetv2?image=32");
  expected.excludedNodes.clear();
  expected.minSaving.reset();
  expected.ubFraction = 1;
  EXPECT_EQ(w.settings(), expected);
  EXPECT_TRUE(w.analysis()->fusionOptions.excludedNodes.empty());
  EXPECT_DOUBLE_EQ(w.analysis()->fusionOptions.hw.minTrafficSaving, fw::fusion::HwLimits{}.minTrafficSaving);
  EXPECT_DOUBLE_EQ(w.analysis()->fusionOptions.hw.ubFraction, 1.0);
  EXPECT_TRUE(summary->text().contains("rules +cse")) << text(summary);
  for (const char* gone : {"excluded", "min saving", "UB share"})
    EXPECT_FALSE(summary->text().contains(gone)) << gone << " in " << text(summary);
  checkWidgets("new model");
}
