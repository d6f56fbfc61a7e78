// Executor behaviour beyond single kernels: control flow, model functions, unsupported ops,
// random inputs, verification and TensorProto files.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/exec/Executor.h"
#include "core/exec/RtTensor.h"
#include "core/exec/TensorPb.h"
#include "core/exec/Verify.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::Tensor;

namespace {

// y = If(cond) then x + x (reads x from the enclosing graph) else -x.
fw::Model ifModel() {
  auto thenG = std::make_shared<fw::Graph>();
  thenG->name = "then";
  {
    auto x = thenG->addValue("x");  // outer-scope reference
    auto y = thenG->addValue("then_y");
    thenG->addNode("Add", {x, x}, {y});
    thenG->addOutput(y);
  }
  auto elseG = std::make_shared<fw::Graph>();
  elseG->name = "else";
  {
    auto x = elseG->addValue("x");
    auto y = elseG->addValue("else_y");
    elseG->addNode("Neg", {x}, {y});
    elseG->addOutput(y);
  }
  auto g = std::make_shared<fw::Graph>();
  auto cond = g->addInput("cond", fw::DType::Bool, fw::Shape::ofInts({}));
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({3}));
  auto sq = g->addValue("x_sq");
  g->addNode("Mul", {x, x}, {sq});  // x is also used after the If: must stay alive
  auto y = g->addValue("y");
  g->addNode("If", {cond}, {y},
             attrs({Attribute::makeGraph("then_branch", thenG), Attribute::makeGraph("else_branch", elseG)}));
  auto z = g->addValue("z");
  g->addNode("Add", {y, sq}, {z});
  g->addOutput(z);
  fw::Model m;
  m.graph = g;
  return m;
}

Tensor boolScalar(bool b) { return Tensor(fw::DType::Bool, {}, {static_cast<uint8_t>(b)}); }

}  // namespace

TEST(ExecGraph, IfRunsTheChosenBranchWithOuterScope) {
  auto m = ifModel();
  auto x = Tensor::floats({3}, {1, -2, 3});
  auto t = fw::runGraph(m, {boolScalar(true), x});
  ASSERT_TRUE(t.ok()) << t.error().message;
  expectNear((*t)[0], {3}, {2 + 1, -4 + 4, 6 + 9});
  auto e = fw::runGraph(m, {boolScalar(false), x});
  ASSERT_TRUE(e.ok()) << e.error().message;
  expectNear((*e)[0], {3}, {-1 + 1, 2 + 4, -3 + 9});
}

TEST(ExecGraph, FunctionNodeRunsItsBodyWithAttributeReferences) {
  // fwb.fused:AddLeaky(a, b) = LeakyRelu(a + b, alpha = @alpha)
  fw::Function fn;
  fn.name = "AddLeaky";
  fn.domain = "fwb.fused";
  fn.attributeNames = {"alpha"};
  auto body = std::make_shared<fw::Graph>();
  {
    auto a = body->addInput("a", fw::DType::Float32, {});
    auto b = body->addInput("b", fw::DType::Float32, {});
    auto s = body->addValue("s");
    auto y = body->addValue("y");
    body->addNode("Add", {a, b}, {s});
    Attribute alpha;
    alpha.name = "alpha";
    alpha.kind = fw::AttrKind::Float;
    alpha.refAttrName = "alpha";
    fw::Attributes at;
    at.set(alpha);
    body->addNode("LeakyRelu", {s}, {y}, at);
    body->addOutput(y);
  }
  fn.body = body;
  auto m = oneNode("AddLeaky", {{"p", Tensor::floats({3}, {1, -2, 3})}, {"q", Tensor::floats({3}, {1, 1, -5})}}, 1,
                   attrs({Attribute::makeFloat("alpha", 0.5f)}), 17, "fwb.fused");
  m.opsetImports["fwb.fused"] = 1;
  m.functions.push_back(fn);
  EXPECT_TRUE(fw::unsupportedOps(m).empty());
  auto r = fw::runGraph(m, {Tensor::floats({3}, {1, -2, 3}), Tensor::floats({3}, {1, 1, -5})});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {3}, {2, -0.5f, -1});
}

namespace {
// A function `domain:name` of two inputs a, b computing one binary op (or calling `callee` functions:
// G(a, b) = d1:F(d2:F(a, b), d2:F(b, a))).
fw::Function binaryFunction(const std::string& domain, const std::string& name, const std::string& op) {
  fw::Function fn;
  fn.name = name;
  fn.domain = domain;
  auto body = std::make_shared<fw::Graph>();
  auto a = body->addInput("a", fw::DType::Float32, {});
  auto b = body->addInput("b", fw::DType::Float32, {});
  auto y = body->addValue("y");
  if (op == "G") {
    auto p = body->addValue("p"), q = body->addValue("q");
    body->addNode("F", {a, b}, {p}, {}, "", "d2");
    body->addNode("F", {b, a}, {q}, {}, "", "d2");
    body->addNode("F", {p, q}, {y}, {}, "", "d1");
  } else {
    body->addNode(op, {a, b}, {y});
  }
  body->addOutput(y);
  fn.body = body;
  return fn;
}
}  // namespace

TEST(ExecGraph, FunctionsAreFoundByDomainAndNameAndNestedCallsKeepTheirValues) {
  // z = d2:F(d1:G(x, w), d1:F(x, w)) with d1:F = Add, d2:F = Mul, G(a, b) = a*b + b*a; run twice in one
  // graph (the second call of G reuses the first call's frames) and in two runs.
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({3}));
  auto w = g->addInitializer("w", Tensor::floats({3}, {2, 3, -1}));
  auto g1 = g->addValue("g1"), g2 = g->addValue("g2"), s = g->addValue("s"), z = g->addValue("z");
  g->addNode("G", {x, w}, {g1}, {}, "call_g1", "d1");
  g->addNode("G", {g1, w}, {g2}, {}, "call_g2", "d1");
  g->addNode("F", {x, w}, {s}, {}, "call_add", "d1");
  g->addNode("F", {g2, s}, {z}, {}, "call_mul", "d2");
  g->addOutput(z);
  fw::Model m;
  m.graph = g;
  m.opsetImports["d1"] = 1;
  m.opsetImports["d2"] = 1;
  m.functions = {binaryFunction("d1", "F", "Add"), binaryFunction("d2", "F", "Mul"),
                 binaryFunction("d1", "G", "G"),
                 binaryFunction("d1", "F", "Sub")};  // a second d1:F: the first one counts
  const std::vector<float> xs = {1, -2, 0.5f}, ws = {2, 3, -1};
  std::vector<float> want;
  for (size_t k = 0; k < 3; ++k) {
    const float g1v = 2 * xs[k] * ws[k], g2v = 2 * g1v * ws[k];
    want.push_back(g2v * (xs[k] + ws[k]));
  }
  for (int run = 0; run < 2; ++run) {
    auto r = fw::runGraph(m, {Tensor::floats({3}, xs)});
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectNear((*r)[0], {3}, want);
  }

  // A call that leaves out an argument fails naming the function's input and the calling node.
  auto g3 = std::make_shared<fw::Graph>();
  auto x3 = g3->addInput("x", fw::DType::Float32, fw::Shape::ofInts({3}));
  auto y3 = g3->addValue("y");
  g3->addNode("F", {x3}, {y3}, {}, "call_short", "d1");
  g3->addOutput(y3);
  m.graph = g3;
  auto bad = fw::runGraph(m, {Tensor::floats({3}, xs)});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("no value given for input 'b'"), std::string::npos)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("call_short"), std::string::npos) << bad.error().message;
}

TEST(ExecGraph, UnsupportedOpFailsNamingIt) {
  auto m = oneNode("FancyNewOp", {{"x", iota({2})}}, 1);
  auto r = fw::runGraph(m, {iota({2})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("FancyNewOp"), std::string::npos) << r.error().message;
  EXPECT_EQ(fw::unsupportedOps(m), std::vector<std::string>{"FancyNewOp"});
  auto m2 = oneNode("Gelu", {{"x", iota({2})}}, 1, {}, 17, "com.microsoft");
  EXPECT_EQ(fw::unsupportedOps(m2), std::vector<std::string>{"com.microsoft:Gelu"});
  EXPECT_FALSE(fw::isOpSupported("Conv", "com.microsoft"));
  EXPECT_TRUE(fw::isOpSupported("Conv", ""));
}

TEST(ExecGraph, RandomInputsAreSeededAndBounded) {
  auto g = std::make_shared<fw::Graph>();
  auto table = g->addInitializer("table", iota({7, 2}));
  auto ids = g->addInput("input_ids", fw::DType::Int64, fw::Shape::ofInts({1, 50}));
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({64}));
  auto mask = g->addInput("attention_mask", fw::DType::Int64, fw::Shape::ofInts({1, 50}));
  auto e = g->addValue("e");
  g->addNode("Gather", {table, ids}, {e});
  g->addOutput(e);
  g->addOutput(x);
  g->addOutput(mask);
  fw::Model m;
  m.graph = g;
  auto a = fw::randomInputs(m, 42), b = fw::randomInputs(m, 42), c = fw::randomInputs(m, 43);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_TRUE((*a)[1].sameContent((*b)[1]));
  EXPECT_FALSE((*a)[1].sameContent((*c)[1]));
  for (int64_t v : (*a)[0].toInt64s()) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 7);
  }
  for (float v : (*a)[1].toFloats()) {
    EXPECT_GE(v, -1.f);
    EXPECT_LE(v, 1.f);
  }
  for (int64_t v : (*a)[2].toInt64s()) EXPECT_EQ(v, 1);
  auto r = fw::runGraph(m, *a);
  ASSERT_TRUE(r.ok()) << r.error().message;
}

// A categorical table's columns each picked by a Gather, then looked up in their own embeddings (a
// TabTransformer): the sample values stay below the smallest table's rows, through the pick and a Squeeze.
TEST(ExecGraph, RandomIndicesStayInTheTablesTheyReachThroughColumnPicks) {
  auto g = std::make_shared<fw::Graph>();
  auto cats = g->addInput("cats", fw::DType::Int64, fw::Shape::ofInts({64, 2}));
  std::vector<fw::ValueId> outs;
  for (int64_t col = 0; col < 2; ++col) {
    const int64_t rows = col == 0 ? 5 : 9;
    auto table = g->addInitializer("table" + std::to_string(col), iota({rows, 3}));
    auto at = g->addInitializer("col" + std::to_string(col), Tensor::int64s({1}, {col}));
    auto picked = g->addValue("picked" + std::to_string(col));
    auto axes = g->addInitializer("axes" + std::to_string(col), Tensor::int64s({1}, {1}));
    auto flat = g->addValue("flat" + std::to_string(col));
    auto e = g->addValue("e" + std::to_string(col));
    g->addNode("Gather", {cats, at}, {picked}, attrs({fw::Attribute::makeInt("axis", 1)}));
    g->addNode("Squeeze", {picked, axes}, {flat});
    g->addNode("Gather", {table, flat}, {e});
    g->addOutput(e);
  }
  fw::Model m;
  m.graph = g;
  auto in = fw::randomInputs(m, 11);
  ASSERT_TRUE(in.ok()) << in.error().message;
  int64_t largest = 0;
  for (int64_t v : (*in)[0].toInt64s()) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 5);
    largest = std::max(largest, v);
  }
  EXPECT_EQ(largest, 4);  // 128 draws cover the range
  auto r = fw::runGraph(m, *in);
  ASSERT_TRUE(r.ok()) << r.error().message;
}

TEST(ExecGraph, SymbolicInputDimAsksForInputShape) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape({fw::Dim::sym("batch"), fw::Dim(3)}));
  g->addOutput(x);
  fw::Model m;
  m.graph = g;
  auto r = fw::randomInputs(m, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--input-shape"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("batch"), std::string::npos) << r.error().message;
}

TEST(ExecGraph, VerifyPassesForEqualModelsAndFailsForPerturbed) {
  auto ref = oneNode("Relu", {{"x", iota({4})}}, 1);
  auto same = oneNode("Relu", {{"x", iota({4})}}, 1);
  fw::VerifyOptions opts;
  opts.seed = 7;
  auto ok = fw::verifyModels(ref, same, opts);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_TRUE(ok->passed);
  EXPECT_EQ(ok->outputs.at(0).maxAbs, 0.0);

  // candidate = Relu(x) * 1.001: relative error 1e-3 > 1e-5.
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({4}));
  auto k = g->addInitializer("k", Tensor::scalarFloat(1.001f));
  auto r = g->addValue("r");
  auto y = g->addValue("y");
  g->addNode("Relu", {x}, {r});
  g->addNode("Mul", {r, k}, {y});
  g->addOutput(y);
  fw::Model bad;
  bad.graph = g;
  auto fail = fw::verifyModels(ref, bad, opts);
  ASSERT_TRUE(fail.ok()) << fail.error().message;
  EXPECT_FALSE(fail->passed);
  EXPECT_NEAR(fail->outputs.at(0).maxRel, 1e-3, 1e-5);
  EXPECT_EQ(fail->toJson()["passed"], false);
}

TEST(ExecGraph, TensorPbRoundTrip) {
  const auto path = (std::filesystem::temp_directory_path() / "fw_exec_tensor_test.pb").string();
  auto t = Tensor::int64s({2, 2}, {1, -2, 3, 4});
  ASSERT_TRUE(fw::writeTensorPb(path, t, "ids").ok());
  std::string name;
  auto back = fw::readTensorPb(path, &name);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(name, "ids");
  EXPECT_TRUE(back->sameContent(t));
  std::filesystem::remove(path);
  EXPECT_FALSE(fw::readTensorPb(path).ok());
}

TEST(ExecGraph, KeepIntermediatesAndCancel) {
  auto m = ifModel();
  fw::ExecOptions o;
  o.keepIntermediates = true;
  auto r = fw::runGraphNamed(m, {{"cond", boolScalar(true)}, {"x", Tensor::floats({3}, {1, 2, 3})}}, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->intermediates.count("x_sq"));
  std::atomic<bool> cancel{true};
  o.cancel = &cancel;
  auto c = fw::runGraphNamed(m, {{"cond", boolScalar(true)}, {"x", Tensor::floats({3}, {1, 2, 3})}}, o);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("cancel"), std::string::npos);
  EXPECT_TRUE(c.error().isCancelled());  // a code, not a string to compare
}

TEST(ExecGraph, AModelsConvertedTensorsAreKeptWhileTheTensorLives) {
  // A float16 initializer is converted once: the same storage for every run, the values as converted
  // element by element; a tensor that is gone frees its entry (a new one is converted anew).
  std::vector<uint16_t> h;
  for (float v : {1.5f, -2.0f, 0.25f, 1024.0f}) h.push_back(fw::floatToHalf(v));
  auto t = std::make_unique<fw::Tensor>(fw::Tensor::fromVector<uint16_t>(fw::DType::Float16, {4}, h));
  const auto a = fw::exec::RtTensor::fromModelTensor(*t);
  const auto b = fw::exec::RtTensor::fromModelTensor(*t);
  EXPECT_EQ(a.f(), b.f());
  const auto plain = fw::exec::RtTensor::fromTensor(*t);
  EXPECT_NE(plain.f(), a.f());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a.f()[i], plain.f()[i]) << i;
  EXPECT_EQ(a.f()[3], 1024.0f);
  // float32 stays shared with the tensor itself, as before.
  const fw::Tensor f32 = fw::Tensor::floats({2}, {1.0f, 2.0f});
  EXPECT_EQ(static_cast<const void*>(fw::exec::RtTensor::fromModelTensor(f32).f()),
            static_cast<const void*>(f32.rawData()));
  // The same model run twice gives the same result through the cached weights.
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({4}));
  auto w = g->addInitializer("w", *t);
  auto wc = g->addValue("wc"), y = g->addValue("y");
  fw::Attributes to;
  to.set(fw::Attribute::makeInt("to", 1));
  g->addNode("Cast", {w}, {wc}, to, "cast");
  g->addNode("Mul", {x, wc}, {y}, {}, "mul");
  g->addOutput(y);
  fw::Model m;
  m.opsetImports[""] = 17;
  m.graph = g;
  const std::vector<fw::Tensor> in = {fw::Tensor::floats({4}, {1, 1, 2, 2})};
  auto r1 = fw::runGraph(m, in), r2 = fw::runGraph(m, in);
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ((*r1)[0].toFloats(), (std::vector<float>{1.5f, -2.0f, 0.5f, 2048.0f}));
  EXPECT_EQ((*r2)[0].toFloats(), (*r1)[0].toFloats());
}

// Appending to a sequence (SequenceInsert at its end) shares the sequence's element storage when it is the
// longest value on it, and copies it once when it is not: every value keeps its own elements.
TEST(ExecGraph, AppendingToASequenceSharesItsStorageAndKeepsEveryValuesElements) {
  using fw::exec::RtTensor;
  const RtTensor empty = RtTensor::sequence(fw::DType::Float32, {});
  const RtTensor a = RtTensor::appended(empty, RtTensor::scalarF(1));
  const RtTensor b = RtTensor::appended(a, RtTensor::scalarF(2));
  const RtTensor ab3 = RtTensor::appended(b, RtTensor::scalarF(3));
  EXPECT_EQ(ab3.items().begin(), a.items().begin());                    // one storage for the chain
  const RtTensor branch = RtTensor::appended(a, RtTensor::scalarF(7));  // a is no longer the longest
  EXPECT_NE(branch.items().begin(), a.items().begin());
  auto values = [](const RtTensor& s) {
    std::vector<double> v;
    for (const auto& e : s.items()) v.push_back(e.getD(0));
    return v;
  };
  EXPECT_TRUE(empty.items().empty());
  EXPECT_EQ(values(a), (std::vector<double>{1}));
  EXPECT_EQ(values(b), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(ab3), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values(branch), (std::vector<double>{1, 7}));
  const RtTensor more = RtTensor::appended(branch, RtTensor::scalarF(8));
  EXPECT_EQ(values(more), (std::vector<double>{1, 7, 8}));
  EXPECT_EQ(values(ab3), (std::vector<double>{1, 2, 3}));
}

// ConcatFromSequence over a SequenceConstruct of [2, 3] tensors: along an existing axis, along a new one
// inserted first, in the middle and last (new_axis: each element's dims read with the unit axis in place),
// and elements whose shapes differ off the axis refused, the error naming both shapes.
TEST(ExecGraph, ConcatFromSequenceJoinsAlongAnExistingOrANewAxis) {
  auto model = [](int64_t axis, int64_t newAxis, std::vector<int64_t> bDims) {
    auto g = std::make_shared<fw::Graph>();
    auto a = g->addInput("a", fw::DType::Float32, fw::Shape::ofInts({2, 3}));
    auto b = g->addInput("b", fw::DType::Float32, fw::Shape::ofInts(bDims));
    auto s = g->addValue("s");
    g->addNode("SequenceConstruct", {a, b}, {s});
    auto y = g->addValue("y");
    g->addNode("ConcatFromSequence", {s}, {y},
               attrs({Attribute::makeInt("axis", axis), Attribute::makeInt("new_axis", newAxis)}));
    g->addOutput(y);
    fw::Model m;
    m.graph = g;
    return m;
  };
  const Tensor a = Tensor::floats({2, 3}, {1, 2, 3, 4, 5, 6}),
               b = Tensor::floats({2, 3}, {7, 8, 9, 10, 11, 12});
  auto run = [&](int64_t axis, int64_t newAxis) {
    auto r = fw::runGraph(model(axis, newAxis, {2, 3}), {a, b});
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? (*r)[0] : Tensor();
  };
  expectNear(run(1, 0), {2, 6}, {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12});
  expectNear(run(0, 1), {2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  expectNear(run(1, 1), {2, 2, 3}, {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12});
  expectNear(run(-1, 1), {2, 3, 2}, {1, 7, 2, 8, 3, 9, 4, 10, 5, 11, 6, 12});
  auto bad = fw::runGraph(model(1, 1, {3, 2}), {a, Tensor::floats({3, 2}, {7, 8, 9, 10, 11, 12})});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("element shapes [2,1,3] and [3,1,2] differ off the axis"),
            std::string::npos)
      << bad.error().message;
}
