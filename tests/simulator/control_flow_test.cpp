// Control flow in the simulator: the body kernels of the path that runs are timed under their scope.
#include <map>

#include "tests/simulator/SimTestUtil.h"

namespace fw::sim::test {
namespace {

Attributes graphAttrs(std::vector<Attribute> a) {
  Attributes out;
  for (auto& x : a) out.set(std::move(x));
  return out;
}

// A body reading outer `x[64,64]`: `n` unary ops in a chain.
GraphPtr body(const std::string& tag, int n, bool loop = false) {
  auto g = std::make_shared<Graph>();
  g->name = tag;
  ValueId cur = kNoId;
  if (loop) {
    g->addInput("iter", DType::Int64, Shape::ofInts({}));
    auto cond = g->addInput("cond_in", DType::Bool, Shape::ofInts({}));
    cur = g->addInput("carried", DType::Float32, Shape::ofInts({64, 64}));
    auto condOut = g->addValue("cond_out", DType::Bool, Shape::ofInts({}));
    g->addNode("Identity", {cond}, {condOut}, {}, tag + "_cond");
    g->addOutput(condOut);
  } else {
    cur = g->addValue("x", DType::Float32, Shape::ofInts({64, 64}));  // outer reference
  }
  for (int i = 0; i < n; ++i) {
    auto out = g->addValue(tag + "_t" + std::to_string(i), DType::Float32, Shape::ofInts({64, 64}));
    g->addNode("Exp", {cur}, {out}, {}, tag + "_exp" + std::to_string(i));
    cur = out;
  }
  g->addOutput(cur);
  return g;
}

Graph ifGraph() {
  Graph g;
  auto c = g.addInput("c", DType::Bool, Shape::ofInts({}));
  auto x = g.addInput("x", DType::Float32, Shape::ofInts({64, 64}));
  (void)x;
  auto y = g.addValue("y", DType::Float32, Shape::ofInts({64, 64}));
  g.addNode("If", {c}, {y},
            graphAttrs({Attribute::makeGraph("then_branch", body("then", 1)),
                        Attribute::makeGraph("else_branch", body("else", 3))}),
            "If_0");
  g.addOutput(y);
  return g;
}

TEST(SimControlFlow, TimesTheTracedBranchUnderItsScope) {
  Graph g = ifGraph();
  auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  ExecTrace trace;
  trace.controlFlow["If_0"] = {"If", 1, 0, 1, 0};  // took else once
  SimOptions o;
  o.trace = &trace;
  auto r = simulate(g, *groups, toy(), o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->kernels.size(), 3u);
  EXPECT_EQ(r->kernels[0].name, "If_0/else_branch/else_exp0");
  EXPECT_EQ(r->kernels[0].scope, "If_0/else_branch");
  for (const auto& k : r->kernels) EXPECT_GT(k.durUs, 0);
  ASSERT_FALSE(r->controlFlowNotes.empty());
  EXPECT_NE(r->controlFlowNotes[0].find("else_branch (trace)"), std::string::npos) << r->controlFlowNotes[0];

  o.controlFlow = ControlFlowPolicy::Then;
  auto t = simulate(g, *groups, toy(), o);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->kernels.size(), 1u);
  EXPECT_EQ(t->kernels[0].name, "If_0/then_branch/then_exp0");

  o.controlFlow = ControlFlowPolicy::Max;  // the 3-op else branch is the slower one
  auto mx = simulate(g, *groups, toy(), o);
  ASSERT_TRUE(mx.ok());
  EXPECT_EQ(mx->kernels.size(), 3u);
  EXPECT_NEAR(mx->latencyUs, r->latencyUs, 1e-9);
  EXPECT_GT(mx->latencyUs, t->latencyUs);
}

TEST(SimControlFlow, UntracedIfIsAClearError) {
  Graph g = ifGraph();
  auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  auto r = simulate(g, *groups, toy(), {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("If_0"), std::string::npos);
  EXPECT_NE(r.error().message.find("--control-flow"), std::string::npos);
}

TEST(SimControlFlow, FusedBodyGroupsAreUsedAndLoopsRepeat) {
  Graph g;
  auto init = g.addInput("x0", DType::Float32, Shape::ofInts({64, 64}));
  auto trips = g.addInitializer("M", Tensor::int64s({}, {5}));
  auto out = g.addValue("xN", DType::Float32, Shape::ofInts({64, 64}));
  g.addNode("Loop", {trips, kNoId, init}, {out}, graphAttrs({Attribute::makeGraph("body", body("b", 2, true))}),
            "Loop_0");
  g.addOutput(out);
  auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  // Without a trace the constant trip count is used.
  auto r = simulate(g, *groups, toy(), {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  double exps = 0;
  for (const auto& k : r->kernels) {
    EXPECT_EQ(k.repeats, 5);
    if (k.ops == std::vector<std::string>{"Exp"}) exps += k.durUs;
  }
  // Fusing the two Exps of the body into one kernel (as fusion's body groups would) is faster.
  const Graph& b = *g.node(0).attrs.getGraph("body");
  std::map<std::string, std::vector<KernelGroup>> bodies;
  bodies["Loop_0/body"] = {{"k_cond", {b.findNode("b_cond")}}, {"k_exps", {b.findNode("b_exp0"), b.findNode("b_exp1")}}};
  SimOptions o;
  o.bodyGroups = &bodies;
  auto f = simulate(g, *groups, toy(), o);
  ASSERT_TRUE(f.ok()) << f.error().message;
  ASSERT_EQ(f->kernels.size(), 2u);
  EXPECT_EQ(f->kernels[1].name, "Loop_0/body/k_exps");
  EXPECT_EQ(f->kernels[1].repeats, 5);
  EXPECT_LT(f->kernels[1].durUs, exps);
  EXPECT_NE(f->controlFlowNotes[0].find("5 trips (constant trip count)"), std::string::npos);
}

}  // namespace
}  // namespace fw::sim::test
