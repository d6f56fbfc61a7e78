// Fusion inside If subgraphs: each branch body is rewritten and grouped on its own (kernels exported as
// fwb.fused functions inside the body), the If node stays one kernel of the main graph, nothing is
// fused across the boundary, outer references keep working and the results stay equal.
#include "core/onnx/OnnxIO.h"
#include "fusion/Report.h"
#include "tests/fusion/FusionTestUtil.h"

namespace fwtest {
namespace {

constexpr int64_t kN = 4, kK = 8;

// then: Relu(Add(MatMul(Identity(h), W), b)) * Sigmoid(...)      (h read from the main graph)
// else: Tanh(Mul(Identity(h), 2)) + Mul(Identity(h), 2)         (cse from -O2, identity_elim, chain)
// main: h = Add(x, bias); c = Greater(ReduceSum(x), 0); y = If(c); out = Relu(y)
Model ifModel() {
  GraphBuilder b;
  b.graph().name = "if_model";
  ValueId x = b.input("x", {kN, kK});
  ValueId bias = b.constant("bias", {kK});
  ValueId h = b.op("Add", {x, bias}, {kN, kK}, {}, "outer_add");
  (void)h;  // read by the branches by name (an outer-scope reference)
  ValueId s = b.op("ReduceSum", {x}, {}, attrs({Attribute::makeInt("keepdims", 0)}), "outer_sum");
  ValueId zero = b.scalar("zero", 0.f);
  ValueId c = b.graph().addValue("cond", DType::Bool, Shape::ofInts({}));
  b.graph().addNode("Greater", {s, zero}, {c}, {}, "outer_greater");

  auto thenG = std::make_shared<Graph>();
  {
    Graph& t = *thenG;
    t.name = "then_body";
    ValueId hv = t.addValue("outer_add_out", DType::Float32, Shape::ofInts({kN, kK}));  // outer reference
    std::vector<float> w(static_cast<size_t>(kK * kK));
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * static_cast<float>((i * 7) % 11) - 0.25f;
    ValueId W = t.addInitializer("then_w", Tensor::floats({kK, kK}, w));
    ValueId bb = t.addInitializer("then_b", Tensor::floats({kK}, std::vector<float>(kK, 0.1f)));
    auto val = [&](const std::string& n) { return t.addValue(n, DType::Float32, Shape::ofInts({kN, kK})); };
    ValueId i0 = val("then_id"), m = val("then_mm"), a = val("then_add"), r = val("then_relu"), sg = val("then_sig"),
            o = val("then_out");
    t.addNode("Identity", {hv}, {i0}, {}, "then_identity");
    t.addNode("MatMul", {i0, W}, {m}, {}, "then_matmul");
    t.addNode("Add", {m, bb}, {a}, {}, "then_addb");
    t.addNode("Relu", {a}, {r}, {}, "then_relu");
    t.addNode("Sigmoid", {r}, {sg}, {}, "then_sigmoid");
    t.addNode("Mul", {r, sg}, {o}, {}, "then_mul");
    t.addOutput(o);
  }
  auto elseG = std::make_shared<Graph>();
  {
    Graph& e = *elseG;
    e.name = "else_body";
    ValueId hv = e.addValue("outer_add_out", DType::Float32, Shape::ofInts({kN, kK}));
    ValueId two = e.addInitializer("else_two", Tensor::floats({}, {2.f}));
    auto val = [&](const std::string& n) { return e.addValue(n, DType::Float32, Shape::ofInts({kN, kK})); };
    ValueId i0 = val("else_id"), m1 = val("else_mul1"), m2 = val("else_mul2"), th = val("else_tanh"), o = val("else_out");
    e.addNode("Identity", {hv}, {i0}, {}, "else_identity");
    e.addNode("Mul", {i0, two}, {m1}, {}, "else_mul_a");
    e.addNode("Mul", {i0, two}, {m2}, {}, "else_mul_b");  // CSE duplicate of else_mul_a
    e.addNode("Tanh", {m1}, {th}, {}, "else_tanh");
    e.addNode("Add", {th, m2}, {o}, {}, "else_add");
    e.addOutput(o);
  }
  ValueId y = b.graph().addValue("if_out", DType::Float32, Shape::ofInts({kN, kK}));
  Attributes ia;
  ia.set(Attribute::makeGraph("then_branch", thenG));
  ia.set(Attribute::makeGraph("else_branch", elseG));
  b.graph().addNode("If", {c}, {y}, ia, "If_0");
  ValueId out = b.op("Relu", {y}, {kN, kK}, {}, "outer_relu");
  b.output(out);
  Model m = b.model();
  m.opsetImports[""] = 17;
  return m;
}

size_t countFusedCalls(const Graph& g) {
  size_t n = 0;
  for (NodeId id : g.liveNodes()) n += g.node(id).domain == fusion::kFusedDomain;
  return n;
}

const Graph& branch(const Model& m, const char* attr) {
  for (NodeId id : m.graph->liveNodes())
    if (m.graph->node(id).opType == "If") return *m.graph->node(id).attrs.getGraph(attr);
  ADD_FAILURE() << "no If node";
  return *m.graph;
}

TEST(SubgraphFusion, BranchesAreFusedInsideAndRunEqual) {
  Model m = ifModel();
  ASSERT_TRUE(checkOnnx(m).ok()) << checkOnnx(m).error().message;
  for (int level = 0; level <= 3; ++level) {
    fusion::FusionOptions o;
    o.optLevel = level;
    auto r = fuseAndVerify(m, o);
    ASSERT_EQ(r.subgraphs.size(), 2u) << "-O" << level;
    auto e = fusion::exportFused(r);
    ASSERT_TRUE(e.ok()) << e.error().message;
    auto chk = checkOnnx(*e);
    EXPECT_TRUE(chk.ok()) << "-O" << level << ": " << (chk.ok() ? "" : chk.error().message);
    // Both branches are taken by some seed: compare on several.
    for (uint64_t seed = 1; seed <= 6; ++seed) EXPECT_LE(boundRatio(m, *e, seed, &r.rewritten), 1.0) << "-O" << level << " seed " << seed;
    if (level == 0) {
      EXPECT_EQ(countOp(branch(r.rewritten, "then_branch"), "Identity"), 1);
      continue;
    }
    // Level 1 rewrites ran inside: the Identity nodes and the duplicate Mul are gone.
    EXPECT_EQ(countOp(branch(r.rewritten, "then_branch"), "Identity"), 0) << "-O" << level;
    EXPECT_EQ(countOp(branch(r.rewritten, "else_branch"), "Identity"), 0) << "-O" << level;
    // cse is a level-2 rewrite.
    EXPECT_EQ(countOp(branch(r.rewritten, "else_branch"), "Mul"), level >= 2 ? 1 : 2) << "-O" << level;
    EXPECT_TRUE(hasDecision(r, "identity_elim", true)) << "-O" << level;
    bool scoped = false;
    for (const auto& d : r.decisions)
      if (d.rule == "identity_elim" && d.applied && d.node == "If_0/then_branch/then_identity") scoped = true;
    EXPECT_TRUE(scoped) << "decisions inside a body name the node with its scope";
    const auto* tk = r.findSubgraph("If_0/then_branch");
    ASSERT_NE(tk, nullptr);
    EXPECT_EQ(tk->nodesBefore, 6u);
    if (level >= 2) {
      // Grouping ran inside the then branch; the export calls fwb.fused functions inside the body.
      size_t multi = 0;
      for (const auto& k : tk->kernels) multi += k.members.size() > 1;
      EXPECT_GE(multi, 1u) << "-O" << level;
      EXPECT_LT(tk->kernels.size(), 4u) << "-O" << level;
      EXPECT_GE(countFusedCalls(branch(*e, "then_branch")), 1u) << "-O" << level;
      for (const auto& k : tk->kernels) EXPECT_EQ(k.name.rfind("If_0_then_branch__", 0), 0u) << k.name;
    }
  }
}

TEST(SubgraphFusion, NothingCrossesTheBoundary) {
  Model m = ifModel();
  fusion::FusionOptions o;
  o.optLevel = 3;
  auto r = fusion::fuseModel(m, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Graph& g = *r->rewritten.graph;
  // The If node is a kernel of its own in the main graph (a "control" kernel).
  bool found = false;
  for (const auto& k : r->kernels) {
    for (NodeId n : k.members) {
      if (g.node(n).opType != "If") continue;
      found = true;
      EXPECT_EQ(k.members.size(), 1u) << k.name;
      EXPECT_EQ(k.unit, "control");
    }
  }
  EXPECT_TRUE(found);
  // Body kernels hold body nodes only: their member ids index the body, and every body node is in
  // exactly one kernel of its body.
  for (const char* attr : {"then_branch", "else_branch"}) {
    const Graph& body = branch(r->rewritten, attr);
    const auto* sk = r->findSubgraph(std::string("If_0/") + attr);
    ASSERT_NE(sk, nullptr) << attr;
    std::vector<int> seen(body.nodeCapacity(), 0);
    for (const auto& k : sk->kernels)
      for (NodeId n : k.members) {
        ASSERT_LT(static_cast<size_t>(n), body.nodeCapacity());
        ++seen[static_cast<size_t>(n)];
      }
    for (NodeId n : body.liveNodes()) EXPECT_EQ(seen[static_cast<size_t>(n)], 1) << body.node(n).name;
    // The outer reference still names the main graph's value.
    std::vector<std::string> refs;
    Graph::collectOuterRefs(body, refs);
    ASSERT_EQ(refs.size(), 1u) << attr;
    EXPECT_NE(g.findValue(refs[0]), kNoId) << refs[0];
  }
  // The report lists the bodies.
  auto j = fusion::reportJson(*r);
  EXPECT_EQ(j["subgraphs"].size(), 2u);
}

// A rewrite in the main graph that replaces the value a branch reads renames the outer reference;
// an excluded node inside a body is left alone.
TEST(SubgraphFusion, OuterRefsFollowMainGraphRewritesAndExclusionsApplyInside) {
  Model m = ifModel();
  fusion::FusionOptions o;
  o.optLevel = 2;
  o.excludedNodes.insert("else_identity");
  auto r = fuseAndVerify(m, o);
  EXPECT_EQ(countOp(branch(r.rewritten, "else_branch"), "Identity"), 1);
  EXPECT_EQ(countOp(branch(r.rewritten, "then_branch"), "Identity"), 0);
}

}  // namespace
}  // namespace fwtest
