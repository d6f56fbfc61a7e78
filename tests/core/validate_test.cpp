// The validation pass on models built in code: each rule names node, attribute and rule; legal
// models pass; sizes use checked arithmetic.
#include <gtest/gtest.h>

#include "core/check/Validate.h"

using fw::Attribute;
using fw::DType;
using fw::Shape;
using fw::Tensor;

namespace {

fw::Model convModel(std::vector<Attribute> attrs, std::vector<int64_t> w = {4, 3, 3, 3}) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", DType::Float32, Shape::ofInts({1, 3, 8, 8}));
  int64_t n = 1;
  for (auto d : w) n *= d;
  auto wt = g->addInitializer("w", Tensor::floats(w, std::vector<float>(static_cast<size_t>(n), 0.1f)));
  auto y = g->addValue("y");
  fw::Attributes a;
  for (auto& at : attrs) a.set(std::move(at));
  g->addNode("Conv", {x, wt}, {y}, a, "conv");
  g->addOutput(y);
  fw::Model m;
  m.opsetImports[""] = 13;
  m.graph = g;
  return m;
}

std::string firstProblem(const fw::Model& m) {
  auto r = fw::validateModel(m, false);
  return r.problems.empty() ? std::string() : r.problems.front().message;
}

}  // namespace

TEST(Validate, ConvAttributesAndChannels) {
  EXPECT_EQ(firstProblem(convModel({})), "");
  EXPECT_NE(firstProblem(convModel({Attribute::makeInts("strides", {0, 0})})).find("attribute 'strides' = [0,0]"), std::string::npos);
  EXPECT_NE(firstProblem(convModel({Attribute::makeInts("dilations", {1, 0})})).find("dilations"), std::string::npos);
  EXPECT_NE(firstProblem(convModel({Attribute::makeInt("group", 0)})).find("group must be >= 1"), std::string::npos);
  EXPECT_NE(firstProblem(convModel({Attribute::makeInt("group", 2)})).find("does not divide"), std::string::npos);
  EXPECT_NE(firstProblem(convModel({}, {4, 5, 3, 3})).find("channel mismatch"), std::string::npos);
  EXPECT_NE(firstProblem(convModel({Attribute::makeFloats("strides", {1.f, 1.f})})).find("has type floats, the spec requires ints"), std::string::npos);
  EXPECT_NE(firstProblem(convModel({Attribute::makeInts("pads", {-1, 0, 0, 0})})).find("pads must be >= 0"), std::string::npos);
  const auto p = fw::validateModel(convModel({Attribute::makeInts("strides", {0, 0})}), false).problems.front();
  EXPECT_EQ(p.node, "conv");
  EXPECT_EQ(p.field, "strides");
}

TEST(Validate, ElementCountsAreChecked) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", DType::Float32, Shape::ofInts({int64_t{1} << 40, int64_t{1} << 24}));
  auto y = g->addValue("y", DType::Float32, Shape::ofInts({int64_t{1} << 40, int64_t{1} << 24}));
  g->addNode("Relu", {x}, {y}, {}, "relu");
  g->addOutput(y);
  fw::Model m;
  m.graph = g;
  EXPECT_NE(firstProblem(m).find("overflows 64 bits"), std::string::npos) << firstProblem(m);
  const auto e = fw::validateModel(m, false).error("m.onnx");
  EXPECT_EQ(e.code, fw::ErrorCode::BadInput);
  EXPECT_NE(e.message.find("m.onnx: the model breaks the ONNX spec"), std::string::npos);
}

TEST(Validate, ConstantIndicesAndSplitSizes) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", DType::Float32, Shape::ofInts({4, 3}));
  auto idx = g->addInitializer("idx", Tensor::int64s({2}, {1, 9}));
  auto y = g->addValue("y");
  g->addNode("Gather", {x, idx}, {y}, {}, "gather");
  auto sp = g->addInitializer("sp", Tensor::int64s({2}, {1, 1}));
  auto a = g->addValue("a"), b = g->addValue("b");
  g->addNode("Split", {x, sp}, {a, b}, {}, "split");
  g->addOutput(y);
  g->addOutput(a);
  g->addOutput(b);
  fw::Model m;
  m.opsetImports[""] = 13;
  m.graph = g;
  auto r = fw::validateModel(m, false);
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_NE(r.problems[0].message.find("constant index 9 is out of range"), std::string::npos);
  EXPECT_NE(r.problems[1].message.find("sum to 2, but axis 0 has 4"), std::string::npos);
}
