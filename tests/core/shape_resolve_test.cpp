// Shape resolution on generated models (not the zoo, not the manifest): default binding, partial
// evaluation of shape arithmetic, traced shapes for data-dependent values, control-flow trace.
#include <gtest/gtest.h>

#include "core/exec/Executor.h"
#include "core/onnx/OnnxIO.h"
#include "core/shape/ShapeResolve.h"

using fw::Attribute;
using fw::Attributes;
using fw::Dim;
using fw::DType;
using fw::Shape;
using fw::Tensor;

namespace {

Attributes attrs(std::vector<Attribute> a) {
  Attributes out;
  for (auto& x : a) out.set(std::move(x));
  return out;
}

// Export and re-import, as a file from the user would come in (ONNX shape inference runs).
fw::Model roundTrip(const fw::Model& m) {
  auto bytes = fw::serializeOnnx(m);
  EXPECT_TRUE(bytes.ok()) << bytes.error().message;
  auto back = fw::parseOnnxBytes(*bytes, "generated.onnx", "");
  EXPECT_TRUE(back.ok()) << back.error().message;
  return std::move(back).value();
}

// A model of graph `g` at opset 13.
fw::Model modelOf(std::shared_ptr<fw::Graph> g) {
  fw::Model m;
  m.opsetImports[""] = 13;
  m.graph = std::move(g);
  return m;
}

Tensor weights(std::vector<int64_t> dims) {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>((k * 37) % 11) / 11.f - 0.5f;
  return Tensor::floats(dims, v);
}

// x[N,3,H,W] -> `convs` stride-2 convs -> Shape -> Gather(0) -> Unsqueeze -> Concat(-1) -> Reshape
// (a flatten computed at run time, as paddle2onnx and torch.onnx export it) -> MatMul.
fw::Model imageNet(int convs) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", DType::Float32, Shape({Dim::sym("N"), 3, Dim::sym("H"), Dim::sym("W")}));
  fw::ValueId cur = x;
  int64_t c = 3;
  for (int i = 0; i < convs; ++i) {
    auto w = g->addInitializer("w" + std::to_string(i), weights({4, c, 3, 3}));
    auto y = g->addValue("conv" + std::to_string(i));
    g->addNode("Conv", {cur, w}, {y},
               attrs({Attribute::makeInts("strides", {2, 2}), Attribute::makeInts("pads", {1, 1, 1, 1}),
                      Attribute::makeInts("kernel_shape", {3, 3})}),
               "conv" + std::to_string(i));
    cur = y;
    c = 4;
  }
  auto pool = g->addValue("pooled");
  g->addNode("GlobalAveragePool", {cur}, {pool}, {}, "gap");
  auto shp = g->addValue("shp");
  g->addNode("Shape", {pool}, {shp}, {}, "shape");
  auto idx = g->addInitializer("zero", Tensor::int64s({}, {0}));
  auto n = g->addValue("n");
  g->addNode("Gather", {shp, idx}, {n}, attrs({Attribute::makeInt("axis", 0)}), "gather");
  auto n1 = g->addValue("n1");
  g->addNode("Unsqueeze", {n, g->addInitializer("ax0", Tensor::int64s({1}, {0}))}, {n1}, {}, "unsq");
  auto target = g->addValue("target");
  g->addNode("Concat", {n1, g->addInitializer("m1", Tensor::int64s({1}, {-1}))}, {target},
             attrs({Attribute::makeInt("axis", 0)}), "concat");
  auto flat = g->addValue("flat");
  g->addNode("Reshape", {pool, target}, {flat}, {}, "reshape");
  auto out = g->addValue("logits");
  g->addNode("MatMul", {flat, g->addInitializer("fc", weights({4, 5}))}, {out}, {}, "fc");
  g->addOutput(out);
  fw::Model m;
  m.opsetImports[""] = 13;
  m.graph = g;
  return roundTrip(m);
}

}  // namespace

TEST(ShapeResolve, ImageDefaultsFollowTheModelsStrides) {
  EXPECT_EQ(fw::spatialReduction(*imageNet(5).graph)[0], 32);
  EXPECT_EQ(fw::spatialReduction(*imageNet(6).graph)[1], 64);
  for (int convs : {5, 6}) {
    auto m = imageNet(convs);
    auto r = fw::resolveShapes(m);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const int64_t side = convs == 5 ? 224 : 256;  // smallest multiple of 2^convs >= 224
    const auto& x = m.graph->value(m.graph->inputs()[0]);
    EXPECT_EQ(x.shape, Shape::ofInts({1, 3, side, side}));
    EXPECT_TRUE(r->unresolved.empty()) << r->unresolved.front();
    const auto line = r->bindingLine();
    EXPECT_NE(line.find("N=1"), std::string::npos) << line;
    EXPECT_NE(line.find("H=" + std::to_string(side) + " (image)"), std::string::npos) << line;
    // The Reshape's target came from Shape→Gather→Concat: now static.
    const auto flat = m.graph->findValue("flat");
    EXPECT_EQ(m.graph->value(flat).shape, Shape::ofInts({1, 4}));
  }
}

TEST(ShapeResolve, UserBindingWinsAndInfoKeepsSymbols) {
  auto m = imageNet(5);
  fw::ResolveOptions keep;
  keep.bindDefaults = false;
  auto r0 = fw::resolveShapes(m, keep);
  ASSERT_TRUE(r0.ok());
  EXPECT_EQ(m.graph->value(m.graph->inputs()[0]).shape.str(), "[N,3,H,W]");

  ASSERT_TRUE(fw::inferShapes(m, {{"H", {Dim(64)}}, {"W", {Dim(96)}}}).ok());
  auto r = fw::resolveShapes(m);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(m.graph->value(m.graph->inputs()[0]).shape, Shape::ofInts({1, 3, 64, 96}));
  ASSERT_EQ(r->defaults.size(), 1u);  // only N was left open
  EXPECT_EQ(r->defaults[0].symbol, "N");
}

TEST(ShapeResolve, ConvolutionLongerThanTheInputGetsAPowerOfTwoThatRuns) {
  // audio[N,T] -> Unsqueeze -> Conv1d(kernel 400, stride 160): T=1 cannot run; 512 is the smallest
  // power of two >= 400.
  auto g = std::make_shared<fw::Graph>();
  auto a = g->addInput("audio", DType::Float32, Shape({Dim::sym("N"), Dim::sym("T")}));
  auto u = g->addValue("u");
  g->addNode("Unsqueeze", {a, g->addInitializer("ax", Tensor::int64s({1}, {1}))}, {u}, {}, "unsq");
  auto y = g->addValue("spec");
  g->addNode("Conv", {u, g->addInitializer("w", weights({8, 1, 400}))}, {y},
             attrs({Attribute::makeInts("strides", {160}), Attribute::makeInts("kernel_shape", {400})}), "stft");
  g->addOutput(y);
  fw::Model m = roundTrip(modelOf(g));
  auto r = fw::resolveShapes(m);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(m.graph->value(m.graph->inputs()[0]).shape, Shape::ofInts({1, 512}));
  EXPECT_NE(r->bindingLine().find("T=512 (smallest power of two that runs)"), std::string::npos) << r->bindingLine();
}

TEST(ShapeResolve, DataDependentShapeComesFromTheTracedRun) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", DType::Float32, Shape::ofInts({2, 5}));
  auto pos = g->addValue("positive");
  g->addNode("Greater", {x, g->addInitializer("zero", Tensor::floats({}, {0.f}))}, {pos}, {}, "gt");
  auto nz = g->addValue("nz");
  g->addNode("NonZero", {pos}, {nz}, {}, "nonzero");
  auto t = g->addValue("nzt");
  g->addNode("Transpose", {nz}, {t}, {}, "tr");
  g->addOutput(t);
  fw::Model m = roundTrip(modelOf(g));
  EXPECT_FALSE(m.graph->value(m.graph->findValue("nz")).shape.isStatic())
      << m.graph->value(m.graph->findValue("nz")).shape.str();
  auto r = fw::resolveShapes(m);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->traced) << r->traceError << (r->warnings.empty() ? "" : r->warnings[0]);
  ASSERT_FALSE(r->tracedValues.empty());
  const auto& nzv = m.graph->value(m.graph->findValue("nz"));
  ASSERT_TRUE(nzv.shape.isStatic());
  EXPECT_EQ(nzv.shape.dims[0].value, 2);  // rank of x
  EXPECT_TRUE(r->unresolved.empty());
}

TEST(ShapeResolve, TraceRecordsTheBranchAndTheSampleFollowsTheModelsComparison) {
  // y = If(mode == 7) then Relu(x) else Neg(x): a sample input for `mode` is the compared constant.
  auto thenG = std::make_shared<fw::Graph>();
  {
    auto xo = thenG->addValue("x");
    auto y = thenG->addValue("then_y");
    thenG->addNode("Relu", {xo}, {y}, {}, "relu");
    thenG->addOutput(y);
  }
  auto elseG = std::make_shared<fw::Graph>();
  {
    auto xo = elseG->addValue("x");
    auto y = elseG->addValue("else_y");
    elseG->addNode("Neg", {xo}, {y}, {}, "neg");
    elseG->addOutput(y);
  }
  auto g = std::make_shared<fw::Graph>();
  auto mode = g->addInput("mode", DType::Int64, Shape::ofInts({}));
  auto x = g->addInput("x", DType::Float32, Shape::ofInts({4}));
  auto c = g->addValue("is7");
  g->addNode("Equal", {mode, g->addInitializer("seven", Tensor::int64s({}, {7}))}, {c}, {}, "eq");
  auto y = g->addValue("y");
  g->addNode("If", {c}, {y},
             attrs({Attribute::makeGraph("then_branch", thenG), Attribute::makeGraph("else_branch", elseG)}), "If_0");
  g->addOutput(y);
  (void)x;
  fw::Model m = roundTrip(modelOf(g));
  auto r = fw::resolveShapes(m);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->traced) << r->traceError;
  ASSERT_TRUE(r->trace.controlFlow.count("If_0"));
  EXPECT_EQ(r->trace.controlFlow.at("If_0").thenRuns, 1);
  EXPECT_EQ(r->trace.controlFlow.at("If_0").elseRuns, 0);
  // The body's outer reference took the shape of the enclosing x.
  const auto body = m.graph->node(m.graph->findNode("If_0")).attrs.getGraph("then_branch");
  ASSERT_TRUE(body);
  EXPECT_EQ(body->value(body->findValue("x")).shape, Shape::ofInts({4}));
}

// A loop body's carried sequence declared by its type (a non-tensor value, its type kept opaque) takes its
// elements' dtype from the traced run, as an undeclared one does: the simulator sizes every value it costs.
TEST(ShapeResolve, ALoopsCarriedSequenceTakesItsElementsTracedDtype) {
  // TypeProto{sequence_type{elem_type{tensor_type{elem_type: FLOAT}}}}, as an exporter declares it.
  const std::string sequenceOfFloats("\x22\x06\x0a\x04\x0a\x02\x08\x01", 8);
  auto body = std::make_shared<fw::Graph>();
  {
    body->addInput("i", DType::Int64, Shape::ofInts({}));
    auto c = body->addInput("c", DType::Bool, Shape::ofInts({}));
    auto seq = body->addInput("seq_in", DType::Undefined, Shape());
    body->value(seq).opaqueType = sequenceOfFloats;
    auto cOut = body->addValue("c_out", DType::Bool);
    body->addNode("Identity", {c}, {cOut}, {}, "keep");
    auto grown = body->addValue("seq_out", DType::Undefined);
    body->value(grown).opaqueType = sequenceOfFloats;
    body->addNode("SequenceInsert", {seq, body->addInitializer("row", weights({1, 4}))}, {grown}, {},
                  "append");
    body->addOutput(cOut);
    body->addOutput(grown);
  }
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", DType::Float32, Shape::ofInts({1, 4}));
  auto empty = g->addValue("empty", DType::Undefined);
  g->addNode("SequenceEmpty", {}, {empty}, attrs({Attribute::makeInt("dtype", 1)}), "start");
  auto rows = g->addValue("rows", DType::Undefined);
  g->addNode("Loop", {g->addInitializer("trips", Tensor::int64s({}, {3})), fw::kNoId, empty}, {rows},
             attrs({Attribute::makeGraph("body", body)}), "Loop_0");
  auto cat = g->addValue("cat", DType::Float32);
  g->addNode("ConcatFromSequence", {rows}, {cat}, attrs({Attribute::makeInt("axis", 0)}), "cat");
  auto y = g->addValue("y", DType::Float32);
  g->addNode("Add", {cat, x}, {y}, {}, "add");
  g->addOutput(y);
  fw::Model m = roundTrip(modelOf(g));
  const auto b0 = m.graph->node(m.graph->findNode("Loop_0")).attrs.getGraph("body");
  ASSERT_TRUE(b0);
  ASSERT_FALSE(b0->value(b0->findValue("seq_in")).opaqueType.empty());  // declared, as exported
  auto r = fw::resolveShapes(m);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->traced) << r->traceError;
  const auto b = m.graph->node(m.graph->findNode("Loop_0")).attrs.getGraph("body");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->value(b->findValue("seq_in")).dtype, DType::Float32);
  EXPECT_EQ(b->value(b->findValue("seq_out")).dtype, DType::Float32);
  EXPECT_FALSE(b->value(b->findValue("seq_in")).opaqueType.empty());  // still exported as a sequence
  EXPECT_EQ(m.graph->value(m.graph->findValue("y")).shape, Shape::ofInts({3, 4}));
}

// A loop's carried value that grows by one row an iteration takes its mean shape over the iterations, not
// its last: the body is costed once and times its trips (10 iterations writing 1 to 10 rows: 5.5 on average).
TEST(ShapeResolve, ALoopsGrowingValueTakesItsMeanShape) {
  auto body = std::make_shared<fw::Graph>();
  {
    body->addInput("i", DType::Int64, Shape::ofInts({}));
    auto c = body->addInput("c", DType::Bool, Shape::ofInts({}));
    auto acc = body->addInput("acc_in", DType::Float32, Shape({Dim::sym("r"), 4}));
    auto cOut = body->addValue("c_out", DType::Bool);
    body->addNode("Identity", {c}, {cOut}, {}, "keep");
    auto grown = body->addValue("acc_out", DType::Float32);
    body->addNode("Concat", {acc, body->addInitializer("row", weights({1, 4}))}, {grown},
                  attrs({Attribute::makeInt("axis", 0)}), "grow");
    body->addOutput(cOut);
    body->addOutput(grown);
  }
  auto g = std::make_shared<fw::Graph>();
  auto start = g->addInput("start", DType::Float32, Shape::ofInts({0, 4}));
  auto y = g->addValue("y", DType::Float32);
  g->addNode("Loop", {g->addInitializer("trips", Tensor::int64s({}, {10})), fw::kNoId, start}, {y},
             attrs({Attribute::makeGraph("body", body)}), "Loop_0");
  g->addOutput(y);
  fw::Model m = roundTrip(modelOf(g));
  auto r = fw::resolveShapes(m);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->traced) << r->traceError;
  const auto b = m.graph->node(m.graph->findNode("Loop_0")).attrs.getGraph("body");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->value(b->findValue("acc_out")).shape, Shape::ofInts({6, 4}));  // 5.5 rounded away from 0
  bool said = false;
  for (const auto& v : r->tracedValues) said |= v.find("acc_out [6,4] (varies between iterations; mean shown)") != std::string::npos;
  EXPECT_TRUE(said) << (r->tracedValues.empty() ? "" : r->tracedValues.front());
}
