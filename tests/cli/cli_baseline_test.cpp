// The honest baselines (ui/analysis/Analysis.h) and one path from a plan to its simulation:
// `fwb simulate` prints exactly the figures analyze() (the GUI's analysis) computes for the same
// switches, in graph and in eager mode.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include "core/io/ModelSource.h"
#include "core/shape/ShapeResolve.h"
#include "tests/cli/CliRunner.h"
#include "ui/analysis/Analysis.h"

namespace {

// "latency   A us → B us" from fwb simulate's table.
std::pair<double, double> latencies(const std::string& out) {
  std::smatch m;
  static const std::regex re(R"(latency\s+([0-9.]+) us \S+ ([0-9.]+) us)");
  if (!std::regex_search(out, m, re)) return {-1, -1};
  return {std::stod(m[1]), std::stod(m[2])};
}

fw::Model bert() {
  auto m = fw::loadModel("zoo:bert?layers=2&seq=32");
  EXPECT_TRUE(m.ok());
  fw::Model model = std::move(m).value();
  EXPECT_TRUE(fw::resolveShapes(model).ok());
  return model;
}

}  // namespace

TEST(CliBaseline, SimulateAndTheGuiAnalysisAgreeInGraphAndEagerMode) {
  const fw::Model model = bert();
  for (const bool eager : {false, true}) {
    fw::AnalysisOptions o;
    o.fusion.optLevel = 2;
    o.beforeMode = eager ? fw::sim::SimMode::Eager : fw::sim::SimMode::Graph;
    auto a = fw::analyze(model, o);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(a->simulated);
    auto r = runFwb(std::string("simulate \"zoo:bert?layers=2&seq=32\" -O 2 --baseline ") + (eager ? "eager" : "graph"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto [before, after] = latencies(r.out);
    EXPECT_NEAR(before, a->before.latencyUs, 0.051) << (eager ? "eager" : "graph") << "\n" << r.out;
    EXPECT_NEAR(after, a->after.latencyUs, 0.051) << r.out;
  }
}

// Throughput counts the samples a run computes: an imported model's static leading dim whatever the
// batch setting (which binds a symbolic one; the GUI's spin box said 1 for a batch-4 model and counted a
// quarter of its throughput), the setting for a zoo model, as `fwb simulate` reports it.
TEST(CliBaseline, ThroughputCountsAStaticBatchWhateverTheSetting) {
  fw::Model m;
  m.sourcePath = "batch4.onnx";
  {
    auto g = std::make_shared<fw::Graph>();
    const fw::ValueId x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({4, 8}));
    const fw::ValueId y = g->addValue("y", fw::DType::Float32, fw::Shape::ofInts({4, 8}));
    g->addNode("Relu", {x}, {y}, {}, "relu");
    g->addOutput(y);
    m.graph = g;
  }
  EXPECT_EQ(fw::samplesPerRun(m, 1), 4);
  fw::AnalysisOptions o;
  o.batch = 1;
  auto a = fw::analyze(m, o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(a->simulated);
  EXPECT_EQ(a->before.batch, 4);
  EXPECT_EQ(a->after.batch, 4);
  m.sourcePath = "zoo:lstm";  // a zoo model: the setting
  EXPECT_EQ(fw::samplesPerRun(m, 3), 3);
  m.graph = std::make_shared<fw::Graph>();  // no input: the setting
  m.sourcePath = "x.onnx";
  EXPECT_EQ(fw::samplesPerRun(m, 2), 2);
}

// The graph-mode baseline runs the compile-time passes a graph compiler runs whatever the level:
// shape arithmetic on static shapes is folded (no kernel launches it), the eager baseline dispatches
// every original operator.
TEST(CliBaseline, GraphBaselineFoldsShapeArithmeticEagerDispatchesEverything) {
  const fw::Model model = bert();
  auto hw = fw::sim::resolveHwProfile(fw::sim::defaultHwProfileName());
  ASSERT_TRUE(hw.ok());
  fw::sim::SimOptions so;
  auto graph = fw::simulateBaseline(model, *hw, so);
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  so.mode = fw::sim::SimMode::Eager;
  auto eager = fw::simulateBaseline(model, *hw, so);
  ASSERT_TRUE(eager.ok()) << eager.error().message;
  EXPECT_EQ(eager->kernels.size(), model.graph->liveNodeCount());
  auto plan = fw::baselinePlan(model);
  ASSERT_TRUE(plan.ok());
  EXPECT_LT(plan->rewritten.graph->liveNodeCount(), model.graph->liveNodeCount());
  for (const auto& k : graph->kernels)
    for (const auto& op : k.ops) EXPECT_NE(op, "Shape") << k.name;
  EXPECT_GT(eager->latencyUs, graph->latencyUs);
}

namespace {
fw::Model shapeArithmetic(bool dataDependent) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape({2, 3, 4, 5}));
  auto r = g->addValue("r"), s = g->addValue("s"), b = g->addValue("b"), bu = g->addValue("bu"), t = g->addValue("t");
  auto y = g->addValue("y");
  g->addNode("Relu", {x}, {r}, {}, "relu");
  fw::ValueId src = r;
  if (dataDependent) {  // the number of positive elements: a shape only the data tells
    auto zero = g->addInitializer("zero", fw::Tensor::scalarFloat(0));
    auto pos = g->addValue("pos"), nz = g->addValue("nz");
    g->addNode("Greater", {x, zero}, {pos}, {}, "positive");
    g->addNode("NonZero", {pos}, {nz}, {}, "where_positive");
    src = nz;
  }
  g->addNode("Shape", {src}, {s}, {}, "shape");
  auto idx = g->addInitializer("idx", fw::Tensor::scalarInt64(dataDependent ? 1 : 0));
  g->addNode("Gather", {s, idx}, {b}, {}, "dim_of");
  auto axes = g->addInitializer("axes", fw::Tensor::int64s({1}, {0}));
  g->addNode("Unsqueeze", {b, axes}, {bu}, {}, "unsq");
  if (dataDependent) {  // y = zeros([N]): its size is the count
    g->addNode("ConstantOfShape", {bu}, {y}, {}, "zeros");
    g->addOutput(y);
    g->addOutput(r);
  } else {
    auto minus1 = g->addInitializer("minus1", fw::Tensor::int64s({1}, {-1}));
    fw::Attributes ca;
    ca.set(fw::Attribute::makeInt("axis", 0));
    g->addNode("Concat", {bu, minus1}, {t}, ca, "target_of");
    g->addNode("Reshape", {r, t}, {y}, {}, "reshape");
    g->addOutput(y);
  }
  fw::Model m;
  m.opsetImports = {{"", 13}};
  m.graph = g;
  return m;
}
}  // namespace

// Static shapes: the shape arithmetic folds at compile time in the graph baseline (no launch), and
// eager dispatches it. Data-dependent shapes: nothing folds; the integer shape work runs on the host
// (bound "host", no device kernel) instead of as device launches.
TEST(CliBaseline, ShapeWorkIsFoldedOrHostTimeNeverADeviceLaunch) {
  auto hw = fw::sim::resolveHwProfile(fw::sim::defaultHwProfileName());
  ASSERT_TRUE(hw.ok());
  fw::Model fixed = shapeArithmetic(false);
  ASSERT_TRUE(fw::resolveShapes(fixed).ok());
  fw::sim::SimOptions so;
  auto graph = fw::simulateBaseline(fixed, *hw, so);
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  std::vector<std::string> ops;
  for (const auto& k : graph->kernels) ops.insert(ops.end(), k.ops.begin(), k.ops.end());
  EXPECT_EQ(ops, (std::vector<std::string>{"Relu", "Reshape"}));
  so.mode = fw::sim::SimMode::Eager;
  auto eager = fw::simulateBaseline(fixed, *hw, so);
  ASSERT_TRUE(eager.ok());
  EXPECT_EQ(eager->kernels.size(), 6u);

  fw::Model data = shapeArithmetic(true);
  auto res = fw::resolveShapes(data);
  ASSERT_TRUE(res.ok()) << res.error().message;
  ASSERT_TRUE(res->traced) << res->traceError << " unresolved: " << res->unresolved.size();
  fw::sim::SimOptions gs;
  gs.trace = &res->trace;
  auto d = fw::simulateBaseline(data, *hw, gs);
  ASSERT_TRUE(d.ok()) << d.error().message;
  int host = 0;
  for (const auto& k : d->kernels) {
    if (k.ops.front() == "Gather") {  // integer work on the count: host time, no device kernel
      EXPECT_EQ(k.bound, fw::sim::Bound::Host) << k.name;
      EXPECT_GT(k.durUs, 0) << k.name;
      ++host;
    }
    if (k.ops.front() == "Gather" || k.ops.front() == "Unsqueeze" || k.ops.front() == "Shape") {
      EXPECT_EQ(k.unit, fw::sim::Unit::None) << k.name;
      EXPECT_EQ(k.launchCycles, 0) << k.name;
    }
  }
  EXPECT_EQ(host, 1);
}
