// if_constant_inline: an If with a constant condition becomes the branch it takes, proven equal by the
// reference executor (fuseAndVerify: the rewritten graph and its fused export against the original).
// The If's outputs keep their names; clashing names are renamed (nested bodies follow, renamed nodes
// keep their original name as provenance); outputs the branch does not compute get an Identity; a
// run-time condition stays and says why; Ifs inside Loop bodies and inside other branches inline there.
#include <algorithm>

#include "core/onnx/OnnxIO.h"
#include "tests/fusion/FusionTestUtil.h"

namespace fwtest {
namespace {

constexpr int64_t kN = 4;

// A named graph (onnx.checker wants every graph, bodies included, to have a name).
std::shared_ptr<Graph> newGraph(const std::string& name) {
  auto g = std::make_shared<Graph>();
  g->name = name;
  return g;
}

ValueId vec(Graph& g, const std::string& name) { return g.addValue(name, DType::Float32, Shape::ofInts({kN})); }

ValueId boolConst(Graph& g, const std::string& name, bool v) {
  return g.addInitializer(name, Tensor(DType::Bool, {}, {static_cast<uint8_t>(v)}));
}

Attributes branches(GraphPtr thenG, GraphPtr elseG) {
  return attrs({Attribute::makeGraph("then_branch", std::move(thenG)), Attribute::makeGraph("else_branch", std::move(elseG))});
}

// A branch of two ops reading the outer value `x`: `<p>_y = Add(<op>(x), x)`.
GraphPtr twoOps(const std::string& op, const std::string& p) {
  auto g = newGraph(p + "_branch");
  ValueId x = vec(*g, "x");  // outer-scope reference
  ValueId a = vec(*g, p + "_a"), y = vec(*g, p + "_y");
  g->addNode(op, {x}, {a}, {}, p + "_op");
  g->addNode("Add", {a, x}, {y}, {}, p + "_add");
  g->addOutput(y);
  return g;
}

// if_y = If(cond) is a graph output itself; out = Mul(if_y, x) is another.
template <class CondFn>
Model ifModel(CondFn condOf, GraphPtr thenG, GraphPtr elseG) {
  GraphBuilder b;
  b.graph().name = "main";
  ValueId x = b.input("x", {kN});
  ValueId cond = condOf(b, x);
  ValueId y = vec(b.graph(), "if_y");
  b.graph().addNode("If", {cond}, {y}, branches(std::move(thenG), std::move(elseG)), "If_0");
  ValueId out = vec(b.graph(), "out");
  b.graph().addNode("Mul", {y, x}, {out}, {}, "mul");
  b.output(y);
  b.output(out);
  Model m = b.model();
  m.opsetImports[""] = 17;
  return m;
}

ValueId constTrue(GraphBuilder& b, ValueId) { return boolConst(b.graph(), "cond", true); }
ValueId constFalse(GraphBuilder& b, ValueId) { return boolConst(b.graph(), "cond", false); }
// A condition known only at run time: ReduceSum(x) > 0.
ValueId runTimeCond(GraphBuilder& b, ValueId x) {
  ValueId s = b.op("ReduceSum", {x}, {}, attrs({Attribute::makeInt("keepdims", 0)}), "sum");
  ValueId c = b.graph().addValue("rc", DType::Bool, Shape::ofInts({}));
  b.graph().addNode("Greater", {s, b.scalar("zero", 0.f)}, {c}, {}, "gt");
  return c;
}

std::vector<std::string> outputNames(const Graph& g) {
  std::vector<std::string> names;
  for (ValueId v : g.outputs()) names.push_back(g.value(v).name);
  return names;
}

const Node& producerNamed(const Graph& g, const std::string& value) {
  const ValueId v = g.findValue(value);
  EXPECT_NE(v, kNoId) << value;
  EXPECT_NE(v == kNoId ? kNoId : g.value(v).producer, kNoId) << value;
  static const Node none{};
  if (v == kNoId || g.value(v).producer == kNoId) return none;
  return g.node(g.value(v).producer);
}

// The name of the first input of the node producing `value` ("" when there is none).
std::string firstInputOf(const Graph& g, const std::string& value) {
  const Node& p = producerNamed(g, value);
  return p.inputs.empty() || p.inputs[0] == kNoId ? std::string() : g.value(p.inputs[0]).name;
}

NodeId findOp(const Graph& g, const std::string& op) {
  for (NodeId id : g.liveNodes())
    if (g.node(id).opType == op) return id;
  return kNoId;
}

bool appliedAt(const fusion::FusionResult& r, const std::string& node) {
  for (const auto& d : r.decisions)
    if (d.rule == "if_constant_inline" && d.node == node && d.applied) return true;
  return false;
}

TEST(IfConstantInline, TrueTakesThenAndKeepsOutputNames) {
  Model m = ifModel(constTrue, twoOps("Relu", "t"), twoOps("Tanh", "e"));
  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}));
  const Graph& g = *r.rewritten.graph;
  EXPECT_EQ(countOp(g, "If"), 0);
  EXPECT_EQ(countOp(g, "Relu"), 1);
  EXPECT_EQ(countOp(g, "Tanh"), 0);
  EXPECT_EQ(countOp(g, "Add"), 1);
  EXPECT_EQ(outputNames(g), outputNames(*m.graph));
  // The branch's last node produces the If's output value itself, under its own (free) name.
  const Node& p = producerNamed(g, "if_y");
  EXPECT_EQ(p.name, "t_add");
  EXPECT_TRUE(p.origins.empty());
  EXPECT_TRUE(hasDecision(r, "if_constant_inline", true));
  auto e = fusion::exportFused(r);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_TRUE(checkOnnx(*e).ok()) << checkOnnx(*e).error().message;
}

TEST(IfConstantInline, FalseTakesElse) {
  Model m = ifModel(constFalse, twoOps("Relu", "t"), twoOps("Tanh", "e"));
  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}));
  const Graph& g = *r.rewritten.graph;
  EXPECT_EQ(countOp(g, "If"), 0);
  EXPECT_EQ(countOp(g, "Tanh"), 1);
  EXPECT_EQ(countOp(g, "Relu"), 0);
  EXPECT_EQ(producerNamed(g, "if_y").name, "e_add");
  EXPECT_EQ(outputNames(g), outputNames(*m.graph));
}

TEST(IfConstantInline, ConditionFromShapesFoldsThenInlines) {
  // cond = Gather(Shape(x), 0) > 2: a constant once x's shape is known (4 > 2: then).
  auto condOf = [](GraphBuilder& b, ValueId x) {
    Graph& g = b.graph();
    ValueId s = g.addValue("s", DType::Int64, Shape::ofInts({1}));
    g.addNode("Shape", {x}, {s}, {}, "shape");
    ValueId d = g.addValue("d", DType::Int64, Shape::ofInts({}));
    g.addNode("Gather", {s, g.addInitializer("i0", Tensor::int64s({}, {0}))}, {d}, attrs({Attribute::makeInt("axis", 0)}),
              "gather");
    ValueId c = g.addValue("c", DType::Bool, Shape::ofInts({}));
    g.addNode("Greater", {d, g.addInitializer("two", Tensor::int64s({}, {2}))}, {c}, {}, "gt");
    return c;
  };
  Model m = ifModel(condOf, twoOps("Relu", "t"), twoOps("Tanh", "e"));
  // The two rules alone, then level 1 as a whole (dead code elimination also drops the shape arithmetic).
  auto only = fuseAndVerify(m, onlyRules({"constant_fold", "if_constant_inline"}));
  EXPECT_EQ(countOp(*only.rewritten.graph, "If"), 0);
  EXPECT_EQ(countOp(*only.rewritten.graph, "Relu"), 1);
  EXPECT_TRUE(hasDecision(only, "constant_fold", true));
  fusion::FusionOptions o1;
  o1.optLevel = 1;
  auto r = fuseAndVerify(m, o1);
  const Graph& g = *r.rewritten.graph;
  EXPECT_EQ(countOp(g, "If"), 0);
  EXPECT_EQ(countOp(g, "Relu"), 1);
  EXPECT_EQ(countOp(g, "Tanh"), 0);
  EXPECT_EQ(countOp(g, "Shape") + countOp(g, "Gather") + countOp(g, "Greater"), 0);
  EXPECT_EQ(outputNames(g), outputNames(*m.graph));
  EXPECT_TRUE(hasDecision(r, "if_constant_inline", true));
  // Without constant_fold the condition is not a constant: the If stays.
  auto alone = fuseAndVerify(m, onlyRules({"if_constant_inline"}));
  EXPECT_EQ(countOp(*alone.rewritten.graph, "If"), 1);
}

// Two constant Ifs whose then-branches both define the value `t` and a node `shared_op` (legal: the
// branches are sibling scopes), and a main-graph node also named `shared_op`. If_1's branch also
// defines `t_1` (returned as its first output) and holds a run-time If that reads `t` and `t_1` by
// name. After If_0 is inlined, If_1's `t` clashes: it is renamed, its reader inside the nested If
// follows, and `t_1` (now the If output `if1_a`) is renamed there too - both at once.
Model clashModel() {
  GraphBuilder b;
  b.graph().name = "main";
  Graph& g = b.graph();
  ValueId x = b.input("x", {kN});
  ValueId rc = runTimeCond(b, x);
  (void)rc;  // read by the nested If by name

  auto then0 = newGraph("then0");
  {
    ValueId ox = vec(*then0, "x"), t = vec(*then0, "t"), y = vec(*then0, "b0_y");
    then0->addNode("Relu", {ox}, {t}, {}, "shared_op");
    then0->addNode("Add", {t, ox}, {y}, {}, "b0_add");
    then0->addOutput(y);
  }
  auto else0 = newGraph("else0");
  {
    ValueId ox = vec(*else0, "x"), y = vec(*else0, "e0_y");
    else0->addNode("Neg", {ox}, {y}, {}, "e0_neg");
    else0->addOutput(y);
  }
  // Nested If (run-time condition rc): then t - 2*t_1, else t_1 - t; both read t and t_1 by name.
  auto innerThen = newGraph("innerThen");
  {
    ValueId t = vec(*innerThen, "t"), t1 = vec(*innerThen, "t_1"), d = vec(*innerThen, "in_d"), y = vec(*innerThen, "in_t");
    ValueId two = innerThen->addInitializer("in_two", Tensor::floats({}, {2.f}));
    innerThen->addNode("Mul", {t1, two}, {d}, {}, "in_mul");
    innerThen->addNode("Sub", {t, d}, {y}, {}, "in_sub");
    innerThen->addOutput(y);
  }
  auto innerElse = newGraph("innerElse");
  {
    ValueId t = vec(*innerElse, "t"), t1 = vec(*innerElse, "t_1"), y = vec(*innerElse, "in_e");
    innerElse->addNode("Sub", {t1, t}, {y}, {}, "in_sub_e");
    innerElse->addOutput(y);
  }
  auto then1 = newGraph("then1");
  {
    ValueId ox = vec(*then1, "x"), t = vec(*then1, "t"), t1 = vec(*then1, "t_1"), n = vec(*then1, "b1_n");
    then1->addNode("Sigmoid", {ox}, {t}, {}, "shared_op");
    then1->addNode("Mul", {t, ox}, {t1}, {}, "b1_mul");
    // Added after t and t_1 exist: hooks them as the nested If's implicit inputs; rc is an outer ref.
    ValueId orc = then1->addValue("rc", DType::Bool, Shape::ofInts({}));
    then1->addNode("If", {orc}, {n}, branches(innerThen, innerElse), "inner");
    then1->addOutput(t1);
    then1->addOutput(n);
  }
  auto else1 = newGraph("else1");
  {
    ValueId ox = vec(*else1, "x"), a = vec(*else1, "e1_a"), n = vec(*else1, "e1_n");
    else1->addNode("Neg", {ox}, {a}, {}, "e1_neg");
    else1->addNode("Abs", {ox}, {n}, {}, "e1_abs");
    else1->addOutput(a);
    else1->addOutput(n);
  }
  ValueId y0 = vec(g, "if0_y"), a1 = vec(g, "if1_a"), y1 = vec(g, "if1_y");
  g.addNode("If", {boolConst(g, "c0", true)}, {y0}, branches(then0, else0), "If_0");
  g.addNode("If", {boolConst(g, "c1", true)}, {a1, y1}, branches(then1, else1), "If_1");
  ValueId out = vec(g, "out");
  g.addNode("Mul", {y0, y1}, {out}, {}, "shared_op");
  b.output(out);
  b.output(a1);
  Model m = b.model();
  m.opsetImports[""] = 17;
  return m;
}

TEST(IfConstantInline, NameClashesAreRenamedAndNestedBodiesFollow) {
  Model m = clashModel();
  ASSERT_TRUE(checkOnnx(m).ok()) << checkOnnx(m).error().message;
  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}));
  const Graph& g = *r.rewritten.graph;
  // Only the nested run-time If is left, now in the main graph.
  ASSERT_EQ(countOp(g, "If"), 1);
  const Node& inner = g.node(findOp(g, "If"));
  EXPECT_EQ(inner.name, "inner");
  EXPECT_EQ(countOp(g, "Relu"), 1);
  ASSERT_EQ(countOp(g, "Sigmoid"), 1);
  EXPECT_EQ(outputNames(g), outputNames(*m.graph));
  // The main node keeps its name; the two inlined `shared_op` nodes were renamed and name their origin.
  int named = 0, renamed = 0;
  for (NodeId id : g.liveNodes()) {
    const Node& n = g.node(id);
    if (n.name == "shared_op") {
      ++named;
      EXPECT_EQ(n.opType, "Mul");
    } else if (n.origins == std::vector<std::string>{"shared_op"}) {
      ++renamed;
    }
  }
  EXPECT_EQ(named, 1);
  EXPECT_EQ(renamed, 2);
  // The nested If's bodies read the values If_1's branch computed, under their names in the main graph:
  // Sigmoid's output (renamed from `t`) and if1_a (was `t_1`).
  const std::string sig = g.value(g.node(findOp(g, "Sigmoid")).outputs[0]).name;
  EXPECT_NE(sig, "t");
  for (const char* attr : {"then_branch", "else_branch"}) {
    std::vector<std::string> refs;
    Graph::collectOuterRefs(*inner.attrs.getGraph(attr), refs);
    std::sort(refs.begin(), refs.end());
    std::vector<std::string> want{"if1_a", sig};
    std::sort(want.begin(), want.end());
    EXPECT_EQ(refs, want) << attr;
  }
  // Both nested branches run on some seed; every seed agrees with the original.
  for (uint64_t seed = 1; seed <= 6; ++seed) EXPECT_LE(boundRatio(m, r.rewritten, seed), 1.0) << "seed " << seed;
  auto e = fusion::exportFused(r);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_TRUE(checkOnnx(*e).ok()) << checkOnnx(*e).error().message;
}

TEST(IfConstantInline, OutputsTheBranchDoesNotComputeGetAnIdentity) {
  // then returns: the outer x itself, its own initializer, Relu(x), and Relu(x) again.
  auto then = newGraph("then");
  {
    ValueId x = vec(*then, "x"), r = vec(*then, "t_relu");
    ValueId k = then->addInitializer("t_k", Tensor::floats({kN}, {1.f, -2.f, 3.f, -4.f}));
    then->addNode("Relu", {x}, {r}, {}, "t_relu");
    then->setOutputs({x, k, r, r});
  }
  auto els = newGraph("els");
  {
    ValueId x = vec(*els, "x"), a = vec(*els, "e_a"), b = vec(*els, "e_b"), c = vec(*els, "e_c"), d = vec(*els, "e_d");
    els->addNode("Neg", {x}, {a}, {}, "e_neg");
    els->addNode("Abs", {x}, {b}, {}, "e_abs");
    els->addNode("Tanh", {x}, {c}, {}, "e_tanh");
    els->addNode("Sigmoid", {x}, {d}, {}, "e_sig");
    els->setOutputs({a, b, c, d});
  }
  GraphBuilder b;
  b.graph().name = "main";
  ValueId x = b.input("x", {kN});
  std::vector<ValueId> outs{vec(b.graph(), "o_x"), vec(b.graph(), "o_k"), vec(b.graph(), "o_r"), vec(b.graph(), "o_r2")};
  b.graph().addNode("If", {boolConst(b.graph(), "cond", true)}, outs, branches(then, els), "If_0");
  for (ValueId o : outs) b.output(o);
  (void)x;
  Model m = b.model();
  m.opsetImports[""] = 17;
  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}));
  const Graph& g = *r.rewritten.graph;
  EXPECT_EQ(countOp(g, "If"), 0);
  EXPECT_EQ(countOp(g, "Identity"), 3);
  EXPECT_EQ(outputNames(g), outputNames(*m.graph));
  EXPECT_EQ(producerNamed(g, "o_r").opType, "Relu");
  for (const char* o : {"o_x", "o_k", "o_r2"}) {
    const Node& id = producerNamed(g, o);
    EXPECT_EQ(id.opType, "Identity") << o;
    EXPECT_EQ(id.origins, std::vector<std::string>{"If_0"}) << o;  // it stands for the If
  }
  EXPECT_EQ(firstInputOf(g, "o_x"), "x");
  EXPECT_EQ(firstInputOf(g, "o_r2"), "o_r");
  const ValueId k = g.findValue(firstInputOf(g, "o_k"));
  ASSERT_NE(k, kNoId);
  ASSERT_NE(g.value(k).initializer, nullptr);
  EXPECT_EQ(g.value(k).initializer->getDouble(1), -2.0);
}

TEST(IfConstantInline, RunTimeConditionStaysAndSaysWhy) {
  Model m = ifModel(runTimeCond, twoOps("Relu", "t"), twoOps("Tanh", "e"));
  auto r = fuseAndVerify(m, onlyRules({"constant_fold", "if_constant_inline"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "If"), 1);
  EXPECT_TRUE(hasDecision(r, "if_constant_inline", false, "condition 'rc' is computed at run time (depends on input 'x')"));
  EXPECT_FALSE(hasDecision(r, "if_constant_inline", true));
}

TEST(IfConstantInline, OverridableOrExcludedStays) {
  // An initializer that is also a graph input may be overridden by the caller: not a constant.
  auto overridable = [](GraphBuilder& b, ValueId) {
    ValueId c = b.graph().addInput("cond", DType::Bool, Shape::ofInts({}));
    b.graph().setInitializer(c, Tensor(DType::Bool, {}, {1}));
    return c;
  };
  auto r = fuseAndVerify(ifModel(overridable, twoOps("Relu", "t"), twoOps("Tanh", "e")), onlyRules({"if_constant_inline"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "If"), 1);
  EXPECT_TRUE(hasDecision(r, "if_constant_inline", false, "condition 'cond' is a graph input with a default value"));
  // An If the user excluded is left alone.
  auto o = onlyRules({"if_constant_inline"});
  o.excludedNodes.insert("If_0");
  auto x = fuseAndVerify(ifModel(constTrue, twoOps("Relu", "t"), twoOps("Tanh", "e")), o);
  EXPECT_EQ(countOp(*x.rewritten.graph, "If"), 1);
  EXPECT_TRUE(hasDecision(x, "if_constant_inline", false, "excluded by the user"));
}

// Loop (3 trips) whose body holds If_c with a constant condition of the body: then v*0.5 + x (a
// branch initializer, the loop-carried value and the main graph's x), else -v.
TEST(IfConstantInline, InsideALoopBody) {
  auto then = newGraph("then");
  {
    ValueId v = vec(*then, "v_in"), x = vec(*then, "x"), h = vec(*then, "t_h"), y = vec(*then, "t_y");
    ValueId half = then->addInitializer("t_half", Tensor::floats({}, {0.5f}));
    then->addNode("Mul", {v, half}, {h}, {}, "t_mul");
    then->addNode("Add", {h, x}, {y}, {}, "t_add");
    then->addOutput(y);
  }
  auto els = newGraph("els");
  {
    ValueId v = vec(*els, "v_in"), y = vec(*els, "e_y");
    els->addNode("Neg", {v}, {y}, {}, "e_neg");
    els->addOutput(y);
  }
  auto body = newGraph("body");
  {
    body->addInput("iter", DType::Int64, Shape::ofInts({}));
    ValueId cin = body->addInput("cond_in", DType::Bool, Shape::ofInts({}));
    ValueId v = body->addInput("v_in", DType::Float32, Shape::ofInts({kN}));
    (void)v;
    ValueId next = vec(*body, "v_next"), cout = body->addValue("cond_out", DType::Bool, Shape::ofInts({}));
    body->addNode("Identity", {cin}, {cout}, {}, "keep_going");
    body->addNode("If", {boolConst(*body, "bc", true)}, {next}, branches(then, els), "If_c");
    body->setOutputs({cout, next});
  }
  GraphBuilder b;
  b.graph().name = "main";
  ValueId x = b.input("x", {kN});
  ValueId out = vec(b.graph(), "loop_y");
  b.graph().addNode("Loop", {b.graph().addInitializer("M", Tensor::int64s({}, {3})), kNoId, x}, {out},
                    attrs({Attribute::makeGraph("body", body)}), "Loop_0");
  b.output(out);
  Model m = b.model();
  m.opsetImports[""] = 17;
  ASSERT_TRUE(checkOnnx(m).ok()) << checkOnnx(m).error().message;

  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}));
  const Graph& g = *r.rewritten.graph;
  ASSERT_EQ(countOp(g, "Loop"), 1);
  const Graph& fused = *g.node(findOp(g, "Loop")).attrs.getGraph("body");
  EXPECT_EQ(countOp(fused, "If"), 0);
  EXPECT_EQ(countOp(fused, "Mul"), 1);
  EXPECT_EQ(countOp(fused, "Neg"), 0);
  EXPECT_EQ(producerNamed(fused, "v_next").opType, "Add");
  EXPECT_NE(fused.findValue("t_half"), kNoId);
  EXPECT_NE(fused.value(fused.findValue("t_half")).initializer, nullptr);
  EXPECT_TRUE(appliedAt(r, "Loop_0/body/If_c"));
  auto e = fusion::exportFused(r);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_TRUE(checkOnnx(*e).ok()) << checkOnnx(*e).error().message;
}

// A run-time If_o whose then-branch holds If_i with a constant condition of that branch; If_i's
// taken branch reads the main graph's x two scopes out and If_o's branch value.
TEST(IfConstantInline, InsideAnotherIfsBranch) {
  auto innerThen = newGraph("innerThen");
  {
    ValueId x = vec(*innerThen, "x"), s = vec(*innerThen, "o_s"), y = vec(*innerThen, "i_y");
    innerThen->addNode("Mul", {x, s}, {y}, {}, "i_mul");
    innerThen->addOutput(y);
  }
  auto innerElse = newGraph("innerElse");
  {
    ValueId x = vec(*innerElse, "x"), y = vec(*innerElse, "i_e");
    innerElse->addNode("Neg", {x}, {y}, {}, "i_neg");
    innerElse->addOutput(y);
  }
  auto outerThen = newGraph("outerThen");
  {
    ValueId x = vec(*outerThen, "x"), s = vec(*outerThen, "o_s"), y = vec(*outerThen, "o_y");
    outerThen->addNode("Sigmoid", {x}, {s}, {}, "o_sig");
    outerThen->addNode("If", {boolConst(*outerThen, "ic", true)}, {y}, branches(innerThen, innerElse), "If_i");
    outerThen->addOutput(y);
  }
  Model m = ifModel(runTimeCond, outerThen, twoOps("Tanh", "e"));
  ASSERT_TRUE(checkOnnx(m).ok()) << checkOnnx(m).error().message;

  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}));
  const Graph& g = *r.rewritten.graph;
  ASSERT_EQ(countOp(g, "If"), 1);  // the run-time one
  const Graph& branch = *g.node(findOp(g, "If")).attrs.getGraph("then_branch");
  EXPECT_EQ(countOp(branch, "If"), 0);
  EXPECT_EQ(countOp(branch, "Neg"), 0);
  EXPECT_EQ(producerNamed(branch, "o_y").opType, "Mul");
  EXPECT_TRUE(appliedAt(r, "If_0/then_branch/If_i"));
  EXPECT_TRUE(hasDecision(r, "if_constant_inline", false, "condition 'rc'"));
  for (uint64_t seed = 1; seed <= 6; ++seed) EXPECT_LE(boundRatio(m, r.rewritten, seed), 1.0) << "seed " << seed;
  auto e = fusion::exportFused(r);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_TRUE(checkOnnx(*e).ok()) << checkOnnx(*e).error().message;
}

}  // namespace
}  // namespace fwtest
