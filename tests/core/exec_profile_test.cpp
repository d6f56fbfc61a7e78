// ExecOptions::profile: one entry per node of the main graph, in execution order; a Relu that would
// run as its producer's epilogue is timed on its own while profiling; a function call (a fwb.fused
// kernel) and a control-flow node are one entry each; results are those of the unprofiled run.
// ExecOptions::plans: run plans kept between runs of one model.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

#include "tests/core/exec_test_util.h"

using fw::Tensor;
using fwtest::noise;

namespace {

// x -> Conv -> Relu -> fwb.fused:Scale2(h) (body: Mul by 2, Add of itself) -> y
fw::Model convReluFunction() {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({1, 4, 6, 6}));
  auto w = g->addInitializer("w", noise({4, 4, 3, 3}, 1));
  auto c = g->addValue("c"), r = g->addValue("r"), y = g->addValue("y");
  fw::Attributes pads;
  pads.set(fw::Attribute::makeInts("pads", {1, 1, 1, 1}));
  g->addNode("Conv", {x, w}, {c}, pads, "conv");
  g->addNode("Relu", {c}, {r}, {}, "relu");
  g->addNode("Scale2", {r}, {y}, {}, "k1_scale", "fwb.fused");
  g->addOutput(y);

  fw::Function fn;
  fn.name = "Scale2";
  fn.domain = "fwb.fused";
  auto body = std::make_shared<fw::Graph>();
  auto a = body->addInput("a", fw::DType::Float32, {});
  auto s = body->addValue("s"), o = body->addValue("o");
  body->addNode("Add", {a, a}, {s}, {}, "inner_add");
  body->addNode("Relu", {s}, {o}, {}, "inner_relu");
  body->addOutput(o);
  fn.body = body;

  fw::Model m;
  m.opsetImports[""] = 17;
  m.opsetImports["fwb.fused"] = 1;
  m.graph = g;
  m.functions.push_back(fn);
  return m;
}

}  // namespace

TEST(ExecProfile, OneEntryPerTopLevelNodeInOrder) {
  const auto m = convReluFunction();
  const std::vector<Tensor> in{noise({1, 4, 6, 6}, 7)};
  auto plain = fw::runGraph(m, in);
  ASSERT_TRUE(plain.ok()) << plain.error().message;

  fw::ExecProfile prof;
  fw::ExecOptions o;
  o.profile = &prof;
  auto r = fw::runGraph(m, in, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // conv, relu (no epilogue while profiling), the function call as one entry (not its 2 body nodes).
  ASSERT_EQ(prof.nodes.size(), 3u);
  const fw::Graph& g = *m.graph;
  EXPECT_EQ(g.node(prof.nodes[0].node).name, "conv");
  EXPECT_EQ(g.node(prof.nodes[1].node).name, "relu");
  EXPECT_EQ(g.node(prof.nodes[2].node).name, "k1_scale");
  for (size_t i = 0; i < prof.nodes.size(); ++i) {
    EXPECT_GE(prof.nodes[i].us, 0.0);
    if (i) {
      EXPECT_GE(prof.nodes[i].startUs, prof.nodes[i - 1].startUs + prof.nodes[i - 1].us);
    }
  }
  // Same results as the run without profiling.
  ASSERT_EQ(r->size(), plain->size());
  EXPECT_EQ((*r)[0].toFloats(), (*plain)[0].toFloats());

  // A second run appends its own entries; an unprofiled run records nothing anywhere.
  ASSERT_TRUE(fw::runGraph(m, in, o).ok());
  EXPECT_EQ(prof.nodes.size(), 6u);
  EXPECT_TRUE(prof.bodyNodes.empty());  // a function body (fused kernel) is timed as its one node
  fw::ExecProfile untouched;
  ASSERT_TRUE(fw::runGraph(m, in).ok());
  EXPECT_TRUE(untouched.nodes.empty());
}

TEST(ExecProfile, ControlFlowNodeIsOneEntryAndItsBodyIsTimedNodeByNode) {
  // If(cond) { then: Neg(x) } else { Abs(x) } followed by Relu: two top-level entries, and the branch
  // that ran timed node by node under its path.
  auto g = std::make_shared<fw::Graph>();
  auto cond = g->addInput("cond", fw::DType::Bool, fw::Shape::ofInts({}));
  g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({3}));
  auto branch = [&](const char* op, const char* name) {
    auto b = std::make_shared<fw::Graph>();
    auto xo = b->addValue("x");  // outer reference
    auto o = b->addValue(std::string(name) + "_out");
    b->addNode(op, {xo}, {o}, {}, name);
    b->addOutput(o);
    return b;
  };
  auto t = g->addValue("t"), y = g->addValue("y");
  fw::Attributes at;
  at.set(fw::Attribute::makeGraph("then_branch", branch("Neg", "neg")));
  at.set(fw::Attribute::makeGraph("else_branch", branch("Abs", "abs")));
  g->addNode("If", {cond}, {t}, at, "if0");
  g->addNode("Relu", {t}, {y}, {}, "relu");
  g->addOutput(y);
  fw::Model m;
  m.opsetImports[""] = 17;
  m.graph = g;
  fw::ExecProfile prof;
  fw::ExecOptions o;
  o.profile = &prof;
  auto r = fw::runGraph(m, {Tensor(fw::DType::Bool, {}, {static_cast<uint8_t>(1)}), Tensor::floats({3}, {1, -2, 3})}, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(prof.nodes.size(), 2u);
  EXPECT_EQ(m.graph->node(prof.nodes[0].node).name, "if0");
  EXPECT_EQ(m.graph->node(prof.nodes[1].node).name, "relu");
  ASSERT_EQ(prof.bodyNodes.size(), 1u);
  EXPECT_EQ(prof.bodyNodes[0].path, "if0/then_branch");
  EXPECT_EQ(prof.bodyNodes[0].node, "neg");
  EXPECT_EQ(prof.bodyNodes[0].opType, "Neg");
  EXPECT_EQ(prof.bodyNodes[0].calls, 1);
  EXPECT_LE(prof.bodyNodes[0].us, prof.nodes[0].us);  // inside its If's time

  // A run that starts from this profile with its times cleared (as fwb profile's timed runs do) adds to
  // the same row through the per-path index; the other branch, not run before, gets a row of its own.
  prof.bodyNodes[0].us = 0;
  prof.bodyNodes[0].calls = 0;
  prof.nodes.clear();
  fw::ExecOptions plans = o;
  plans.plans = fw::makeRunPlans();
  for (int run = 0; run < 2; ++run) {
    r = fw::runGraph(
        m, {Tensor(fw::DType::Bool, {}, {static_cast<uint8_t>(1)}), Tensor::floats({3}, {1, -2, 3})}, plans);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  ASSERT_EQ(prof.bodyNodes.size(), 1u);
  EXPECT_EQ(prof.bodyNodes[0].calls, 2);
  EXPECT_GT(prof.bodyNodes[0].us, 0.0);
  // The branch's plan position 0 points at row 0: later runs of the path find the row by position.
  ASSERT_EQ(prof.bodySlots.count("if0/then_branch"), 1u);
  EXPECT_EQ(prof.bodySlots.at("if0/then_branch"), std::vector<size_t>{0});
  r = fw::runGraph(
      m, {Tensor(fw::DType::Bool, {}, {static_cast<uint8_t>(0)}), Tensor::floats({3}, {1, -2, 3})}, plans);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(prof.bodyNodes.size(), 2u);
  EXPECT_EQ(prof.bodyNodes[1].path, "if0/else_branch");
  EXPECT_EQ(prof.bodyNodes[1].node, "abs");
  EXPECT_EQ(prof.bodyNodes[1].calls, 1);
  EXPECT_EQ(prof.bodyNodes[0].calls, 2);
  EXPECT_EQ(prof.bodySlots.at("if0/else_branch"), std::vector<size_t>{1});
}

// ExecOptions::plans: the plans of the main graph and of a function body are made once over many runs
// (profiled or not) with the same results; a model changed through mutableGraph after binding is a copy,
// runs with its own plans and gets its own results.
TEST(ExecRunPlans, MadeOnceForOneModelAndNotUsedForAnother) {
  const auto m = convReluFunction();
  const std::vector<Tensor> in{noise({1, 4, 6, 6}, 7)};
  auto plain = fw::runGraph(m, in);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  fw::ExecOptions o;
  o.plans = fw::makeRunPlans();
  fw::ExecProfile prof;
  for (int i = 0; i < 4; ++i) {
    o.profile = i % 2 ? &prof : nullptr;
    auto r = fw::runGraph(m, in, o);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ((*r)[0].toFloats(), (*plain)[0].toFloats());
  }
  // The main graph with epilogues and with every node timed, the function body once.
  EXPECT_EQ(fw::planCount(*o.plans), 3u);

  fw::Model changed = m;
  fw::Graph& g = changed.mutableGraph();
  EXPECT_NE(&g, m.graph.get());  // shared with the plans: copied, not changed in place
  g.node(1).opType = "Neg";      // relu -> neg
  auto want = fw::runGraph(changed, in);
  ASSERT_TRUE(want.ok()) << want.error().message;
  o.profile = nullptr;
  auto got = fw::runGraph(changed, in, o);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ((*got)[0].toFloats(), (*want)[0].toFloats());
  EXPECT_NE((*got)[0].toFloats(), (*plain)[0].toFloats());
  EXPECT_EQ(fw::planCount(*o.plans), 3u);
}
