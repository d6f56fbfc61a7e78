// if_constant_inline: an If with a constant condition becomes the branch it takes, proven equal by the
// reference executor (fuseAndVerify); output names stay; clashes, passthroughs and run-time
// conditions are handled.
#include "tests/fusion/FusionTestUtil.h"

namespace fwtest {
namespace {

// A branch reading outer `x[4]`: op(x) + x, with a node and a value named `clash` (also a name of
// the main graph) unless `passthrough`, in which case it returns x itself.
GraphPtr branch(const std::string& op, bool passthrough = false) {
  auto g = std::make_shared<Graph>();
  ValueId x = g->addValue("x", DType::Float32, Shape::ofInts({4}));
  if (passthrough) {
    g->addOutput(x);
    return g;
  }
  ValueId a = g->addValue("clash", DType::Float32, Shape::ofInts({4}));
  g->addNode(op, {x}, {a}, {}, "clash");
  ValueId y = g->addValue(op + "_y", DType::Float32, Shape::ofInts({4}));
  g->addNode("Add", {a, x}, {y}, {}, op + "_add");
  g->addOutput(y);
  return g;
}

// out = Mul(If(cond), clash) where clash = Neg(x) in the main graph; cond from `condOf(b, x)`.
template <class CondFn>
Model ifModel(CondFn condOf, GraphPtr thenG, GraphPtr elseG) {
  GraphBuilder b;
  ValueId x = b.input("x", {4});
  ValueId clash = b.graph().addValue("clash", DType::Float32, Shape::ofInts({4}));
  b.graph().addNode("Neg", {x}, {clash}, {}, "clash");
  ValueId cond = condOf(b, x);
  ValueId y = b.graph().addValue("if_y", DType::Float32, Shape::ofInts({4}));
  b.graph().addNode("If", {cond}, {y},
                    attrs({Attribute::makeGraph("then_branch", thenG), Attribute::makeGraph("else_branch", elseG)}),
                    "If_0");
  ValueId out = b.graph().addValue("out", DType::Float32, Shape::ofInts({4}));
  b.graph().addNode("Mul", {y, clash}, {out}, {}, "mul");
  b.output(out);
  return b.model();
}

ValueId constCond(GraphBuilder& b, bool v) {
  return b.graph().addInitializer("cond", Tensor(DType::Bool, {}, {static_cast<uint8_t>(v)}));
}

TEST(IfConstantInline, TrueTakesThenAndKeepsOutputNames) {
  auto m = ifModel([](GraphBuilder& b, ValueId) { return constCond(b, true); }, branch("Relu"), branch("Tanh"));
  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}), 1e-6);
  EXPECT_EQ(countOp(*r.rewritten.graph, "If"), 0);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Relu"), 1);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Tanh"), 0);
  EXPECT_NE(r.rewritten.graph->findValue("out"), kNoId);
  EXPECT_TRUE(hasDecision(r, "if_constant_inline", true));
}

TEST(IfConstantInline, FalseTakesElse) {
  auto m = ifModel([](GraphBuilder& b, ValueId) { return constCond(b, false); }, branch("Relu"), branch("Tanh"));
  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}), 1e-6);
  EXPECT_EQ(countOp(*r.rewritten.graph, "If"), 0);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Tanh"), 1);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Relu"), 0);
}

TEST(IfConstantInline, PassthroughBranchGetsAnIdentity) {
  auto m = ifModel([](GraphBuilder& b, ValueId) { return constCond(b, true); }, branch("", true), branch("Tanh"));
  auto r = fuseAndVerify(m, onlyRules({"if_constant_inline"}), 1e-6);
  EXPECT_EQ(countOp(*r.rewritten.graph, "If"), 0);
}

TEST(IfConstantInline, ConditionFromShapesFoldsThenInlines) {
  // cond = Gather(Shape(x), 0) > 2: constant once x's shape is known.
  auto m = ifModel(
      [](GraphBuilder& b, ValueId x) {
        ValueId s = b.graph().addValue("s", DType::Int64, Shape::ofInts({1}));
        b.graph().addNode("Shape", {x}, {s}, {}, "shape");
        ValueId d = b.graph().addValue("d", DType::Int64, Shape::ofInts({}));
        b.graph().addNode("Gather", {s, b.graph().addInitializer("i0", Tensor::int64s({}, {0}))}, {d},
                          attrs({Attribute::makeInt("axis", 0)}), "gather");
        ValueId c = b.graph().addValue("c", DType::Bool, Shape::ofInts({}));
        b.graph().addNode("Greater", {d, b.graph().addInitializer("two", Tensor::int64s({}, {2}))}, {c}, {}, "gt");
        return c;
      },
      branch("Relu"), branch("Tanh"));
  auto r = fuseAndVerify(m, onlyRules({"constant_fold", "if_constant_inline"}), 1e-6);
  EXPECT_EQ(countOp(*r.rewritten.graph, "If"), 0);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Relu"), 1);  // 4 > 2: then
}

TEST(IfConstantInline, RunTimeConditionStaysAndSaysWhy) {
  auto m = ifModel(
      [](GraphBuilder& b, ValueId x) {
        ValueId s = b.op("ReduceSum", {x}, {}, attrs({Attribute::makeInt("keepdims", 0)}), "sum");
        ValueId c = b.graph().addValue("c", DType::Bool, Shape::ofInts({}));
        b.graph().addNode("Greater", {s, b.scalar("zero", 0.f)}, {c}, {}, "gt");
        return c;
      },
      branch("Relu"), branch("Tanh"));
  auto r = fuseAndVerify(m, onlyRules({"constant_fold", "if_constant_inline"}), 1e-6);
  EXPECT_EQ(countOp(*r.rewritten.graph, "If"), 1);
  EXPECT_TRUE(hasDecision(r, "if_constant_inline", false, "computed at run time"));
}

}  // namespace
}  // namespace fwtest
