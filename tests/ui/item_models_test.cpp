// The item models on their own (no window): QAbstractItemModelTester checks every index, row count
// and signal while each model goes through the changes the window makes.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "core/io/ModelInfo.h"
#include "core/io/Prepare.h"
#include "simulator/Comparison.h"
#include "tests/ui/TestApp.h"
#include "ui/analysis/Analysis.h"
#include "ui/models/NodeTableModel.h"
#include "ui/models/TimingTableModel.h"

namespace {

fw::Analysis analysed(const std::string& spec) {
  auto p = fw::prepareModel(spec);
  EXPECT_TRUE(p.ok()) << p.error().message;
  fw::AnalysisOptions o;
  o.fusion.optLevel = 2;
  auto a = fw::analyze(p->model, o);
  EXPECT_TRUE(a.ok()) << a.error().message;
  return std::move(a).value();
}

}  // namespace

TEST(ItemModels, NodeTableModelThroughTwoModels) {
  fwtest::testApp();
  fwui::NodeTableModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(m.rowCount(), 0);
  auto a = fw::loadModel("zoo:resnet50?image=32");
  ASSERT_TRUE(a.ok());
  m.setInfo(std::make_shared<const fw::ModelInfo>(fw::summarizeModel(*a)));
  EXPECT_EQ(static_cast<size_t>(m.rowCount()), a->graph->liveNodeCount());
  auto b = fw::loadModel("zoo:lstm?seq=2");
  ASSERT_TRUE(b.ok());
  m.setInfo(std::make_shared<const fw::ModelInfo>(fw::summarizeModel(*b)));
  EXPECT_EQ(static_cast<size_t>(m.rowCount()), b->graph->liveNodeCount());
  for (int c = 0; c < m.columnCount(); ++c) EXPECT_FALSE(m.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString().isEmpty());
}

TEST(ItemModels, TimingTableModelRowsMessageRows) {
  fwtest::testApp();
  fwui::TimingTableModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const fw::Analysis a = analysed("zoo:resnet50?image=32");
  ASSERT_TRUE(a.simulated);
  auto rows = fw::sim::compareRuns(a.before, a.after);
  m.setRows(rows);
  EXPECT_GT(m.rowCount(), 0);
  EXPECT_FALSE(m.isMessage());
  ASSERT_NE(m.rowAt(0), nullptr);
  m.setMessage("the simulation did not run", "give the input shapes");
  EXPECT_TRUE(m.isMessage());
  EXPECT_EQ(m.rowCount(), 1);
  m.setRows(std::move(rows));
  EXPECT_FALSE(m.isMessage());
}
