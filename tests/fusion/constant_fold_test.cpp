#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(ConstantFold, FoldsConstantsAndShapeArithmetic) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3, 4});
  auto c = b.op("Add", {b.constant("a", {4}), b.constant("b", {4})}, {4});
  auto y = b.op("Add", {x, c}, {2, 3, 4});
  auto s = b.op("Shape", {y}, {3});
  b.graph().value(s).dtype = DType::Int64;
  auto sl = b.op("Slice", {s, b.ints("st", {0}), b.ints("en", {2})}, {2});
  b.graph().value(sl).dtype = DType::Int64;
  auto shp = b.op("Concat", {sl, b.ints("m1", {-1})}, {3}, attrs({Attribute::makeInt("axis", 0)}));
  b.graph().value(shp).dtype = DType::Int64;
  b.output(b.op("Reshape", {y, shp}, {2, 3, 4}));
  auto r = fuseAndVerify(b.model(), onlyRules({"constant_fold"}));
  EXPECT_EQ(countOp(*r.rewritten.graph, "Add"), 1);
  EXPECT_EQ(countOp(*r.rewritten.graph, "Shape") + countOp(*r.rewritten.graph, "Concat"), 0);
}
TEST(ConstantFold, RejectsGraphOutput) {
  GraphBuilder b;
  auto x = b.input("x", {4});
  b.output(b.op("Relu", {x}, {4}));
  b.output(b.op("Add", {b.constant("a", {4}), b.constant("b", {4})}, {4}));
  auto r = fuseAndVerify(b.model(), onlyRules({"constant_fold"}));
  EXPECT_TRUE(hasDecision(r, "constant_fold", false, "is a graph output"));
}
}  // namespace
}  // namespace fwtest
