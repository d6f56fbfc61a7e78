#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(InjectiveAbsorb, AbsorbsReshapeAndTranspose) {
  GraphBuilder b;
  auto r1 = b.op("Relu", {b.input("x", {2, 12})}, {2, 12});
  auto rs = b.op("Reshape", {r1, b.ints("shape", {2, 3, 4})}, {2, 3, 4});
  b.output(b.op("Transpose", {rs}, {4, 3, 2}, attrs({Attribute::makeInts("perm", {2, 1, 0})})));
  auto r = fuseAndVerify(b.model(), onlyRules({"injective_absorb"}, 0));
  ASSERT_EQ(r.kernels.size(), 1u);
}
TEST(InjectiveAbsorb, RejectsRuntimeShape) {
  GraphBuilder b;
  auto r1 = b.op("Relu", {b.input("x", {2, 12})}, {2, 12});
  auto shp = b.input("shape", {3});
  b.graph().value(shp).dtype = DType::Int64;
  b.output(b.op("Reshape", {r1, shp}, {2, 3, 4}));
  auto r = fusion::fuseModel(b.model(), onlyRules({"injective_absorb"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kernels.size(), 2u);
  EXPECT_TRUE(hasDecision(*r, "injective_absorb", false, "is not constant"));
}
}  // namespace
}  // namespace fwtest
