// Hand-computed cases for core/exec/ops_loss.cpp that the ONNX node tests do not reach: LpNormalization,
// LpPool, GlobalLpPool, Upsample's opset-1/7 forms and linear mode, Dropout's old mask type and seeded
// training mode, LRN with an even size, per-channel zero points of ConvInteger / MatMulInteger, and
// error paths (an out-of-range target is a clean error).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "core/exec/Executor.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::DType;
using fw::Tensor;

TEST(LossOps, LpNormalizationP1P2AndZeroRows) {
  const Tensor x = Tensor::floats({2, 3}, {3, -4, 0, 0, 0, 0});
  auto l2 = runOne("LpNormalization", {{"x", x}}, 1, {}, 1);
  ASSERT_TRUE(l2.ok()) << l2.error().message;
  expectNear((*l2)[0], {2, 3}, {0.6f, -0.8f, 0, 0, 0, 0});
  auto l1 = runOne("LpNormalization", {{"x", x}}, 1,
                   attrs({Attribute::makeInt("axis", 0), Attribute::makeInt("p", 1)}), 1);
  ASSERT_TRUE(l1.ok()) << l1.error().message;
  expectNear((*l1)[0], {2, 3}, {1, -1, 0, 0, 0, 0});
  auto bad = runOne("LpNormalization", {{"x", x}}, 1, attrs({Attribute::makeInt("p", 3)}), 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("p must be 1 or 2"), std::string::npos) << bad.error().message;
}

TEST(LossOps, LpPoolPaddingAndExponents) {
  const Tensor x = Tensor::floats({1, 1, 3}, {1, -2, 3});
  auto p2 = runOne("LpPool", {{"x", x}}, 1,
                   attrs({Attribute::makeInts("kernel_shape", {2}), Attribute::makeInts("pads", {1, 1})}), 11);
  ASSERT_TRUE(p2.ok()) << p2.error().message;
  expectNear((*p2)[0], {1, 1, 4}, {1.f, 2.2360680f, 3.6055513f, 3.f});
  auto p3 = runOne("LpPool", {{"x", x}}, 1,
                   attrs({Attribute::makeInts("kernel_shape", {2}), Attribute::makeInt("p", 3)}), 11);
  ASSERT_TRUE(p3.ok()) << p3.error().message;
  expectNear((*p3)[0], {1, 1, 2}, {2.0800838f, 3.2710663f});
  // Opset 1 stores p as a float.
  auto p1 = runOne("LpPool", {{"x", x}}, 1,
                   attrs({Attribute::makeInts("kernel_shape", {3}), Attribute::makeFloat("p", 1.f)}), 1);
  ASSERT_TRUE(p1.ok()) << p1.error().message;
  expectNear((*p1)[0], {1, 1, 1}, {6.f});
}

TEST(LossOps, GlobalLpPool) {
  const Tensor x = Tensor::floats({1, 2, 3}, {1, -2, 3, 0, 0, 2});
  auto p2 = runOne("GlobalLpPool", {{"x", x}}, 1, {}, 2);
  ASSERT_TRUE(p2.ok()) << p2.error().message;
  expectNear((*p2)[0], {1, 2, 1}, {3.7416574f, 2.f});
  auto p1 = runOne("GlobalLpPool", {{"x", x}}, 1, attrs({Attribute::makeInt("p", 1)}), 2);
  ASSERT_TRUE(p1.ok()) << p1.error().message;
  expectNear((*p1)[0], {1, 2, 1}, {6.f, 2.f});
}

TEST(LossOps, UpsampleLinearOpset7AndBilinearOpset1) {
  const Tensor x = Tensor::floats({1, 1, 2, 2}, {1, 2, 3, 4});
  const std::vector<float> want{1, 1.5f, 2, 2, 2, 2.5f, 3, 3, 3, 3.5f, 4, 4, 3, 3.5f, 4, 4};
  auto v7 = runOne("Upsample", {{"x", x}}, 1,
                   attrs({Attribute::makeFloats("scales", {1, 1, 2, 2}), Attribute::makeString("mode", "linear")}), 7);
  ASSERT_TRUE(v7.ok()) << v7.error().message;
  expectNear((*v7)[0], {1, 1, 4, 4}, want);
  auto v1 = runOne("Upsample", {{"x", x}}, 1,
                   attrs({Attribute::makeFloat("height_scale", 2), Attribute::makeFloat("width_scale", 2),
                          Attribute::makeString("mode", "bilinear")}),
                   1);
  ASSERT_TRUE(v1.ok()) << v1.error().message;
  expectNear((*v1)[0], {1, 1, 4, 4}, want);
}

TEST(LossOps, UpsampleNearestIntegersAndBadScales) {
  const Tensor x = Tensor::int64s({2, 2}, {1, 2, 3, 4});
  auto y = runOne("Upsample", {{"x", x}, {"s", Tensor::floats({2}, {1.5f, 2})}}, 1, {}, 9);
  ASSERT_TRUE(y.ok()) << y.error().message;
  EXPECT_EQ((*y)[0].dtype(), DType::Int64);
  EXPECT_EQ((*y)[0].dims(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ((*y)[0].toInt64s(), (std::vector<int64_t>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4}));
  auto wrongCount = runOne("Upsample", {{"x", x}, {"s", Tensor::floats({3}, {1, 1, 2})}}, 1, {}, 9);
  ASSERT_FALSE(wrongCount.ok());
  EXPECT_NE(wrongCount.error().message.find("one value per axis"), std::string::npos) << wrongCount.error().message;
  auto negative = runOne("Upsample", {{"x", x}, {"s", Tensor::floats({2}, {1, -2})}}, 1, {}, 9);
  ASSERT_FALSE(negative.ok());
}

TEST(LossOps, DropoutOldMaskTypeAndSeededTraining) {
  const Tensor x = Tensor::floats({2, 3}, {1, 2, 3, 4, 5, 6});
  // Opset 7: inference copy, the mask has the data's type.
  auto v7 = runOne("Dropout", {{"x", x}}, 2, attrs({Attribute::makeFloat("ratio", 0.3f)}), 7);
  ASSERT_TRUE(v7.ok()) << v7.error().message;
  expectNear((*v7)[0], {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ((*v7)[1].dtype(), DType::Float32);
  expectNear((*v7)[1], {2, 3}, {1, 1, 1, 1, 1, 1});
  // Opset 13 training without a seed attribute: the fixed default seed, the same mask every run, and
  // kept values scaled by 1 / (1 - ratio).
  const Tensor big = iota({64}, 1.f);
  const std::vector<In> ins{{"x", big}, {"r", Tensor::scalarFloat(0.5f)},
                            {"t", Tensor::fromVector<uint8_t>(DType::Bool, {}, {1})}};
  auto a = runOne("Dropout", ins, 2, {}, 13);
  auto b = runOne("Dropout", ins, 2, {}, 13);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*a)[1].dtype(), DType::Bool);
  EXPECT_EQ((*a)[0].toFloats(), (*b)[0].toFloats());
  const auto y = (*a)[0].toFloats();
  const auto m = (*a)[1].toInt64s();
  int kept = 0;
  for (size_t k = 0; k < y.size(); ++k) {
    EXPECT_EQ(y[k], m[k] ? 2.f * static_cast<float>(k + 1) : 0.f) << "at " << k;
    kept += m[k] ? 1 : 0;
  }
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, 64);
  // Another seed gives another mask.
  auto c = runOne("Dropout", ins, 2, attrs({Attribute::makeInt("seed", 7)}), 13);
  ASSERT_TRUE(c.ok());
  EXPECT_NE((*c)[1].toInt64s(), m);
  auto one = runOne("Dropout", {{"x", big}, {"r", Tensor::scalarFloat(1.f)}, ins[2]}, 1, {}, 13);
  ASSERT_FALSE(one.ok());
  EXPECT_NE(one.error().message.find("ratio must be in [0, 1)"), std::string::npos) << one.error().message;
}

TEST(LossOps, LrnEvenSizeWindowIsFloorCeil) {
  // size 2: channel c sums c and c + 1 (floor(1/2) = 0 before, ceil(1/2) = 1 after).
  const Tensor x = Tensor::floats({1, 3, 1}, {1, 2, 3});
  auto y = runOne("LRN", {{"x", x}}, 1, attrs({Attribute::makeInt("size", 2), Attribute::makeFloat("alpha", 0.1f)}));
  ASSERT_TRUE(y.ok()) << y.error().message;
  expectNear((*y)[0], {1, 3, 1}, {0.84589701f, 1.37377952f, 2.27036275f});
  auto missing = runOne("LRN", {{"x", x}}, 1);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("size"), std::string::npos);
}

TEST(LossOps, MvnNegativeAxes) {
  const Tensor x = Tensor::floats({2, 2}, {1, 3, 10, 30});
  auto y = runOne("MeanVarianceNormalization", {{"x", x}}, 1, attrs({Attribute::makeInts("axes", {-1})}));
  ASSERT_TRUE(y.ok()) << y.error().message;
  expectNear((*y)[0], {2, 2}, {-1, 1, -1, 1});
  auto bad = runOne("MeanVarianceNormalization", {{"x", x}}, 1);  // default axes [0, 2, 3] need rank 4
  ASSERT_FALSE(bad.ok());
}

TEST(LossOps, IntegerConvAndMatMulPerChannelZeroPoints) {
  std::vector<uint8_t> xv;
  for (uint8_t k = 1; k <= 9; ++k) xv.push_back(k);
  const Tensor x = Tensor::fromVector<uint8_t>(DType::UInt8, {1, 1, 3, 3}, xv);
  const Tensor w = Tensor::fromVector<int8_t>(DType::Int8, {2, 1, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto y = runOne("ConvInteger",
                  {{"x", x}, {"w", w}, {"xz", Tensor::fromVector<uint8_t>(DType::UInt8, {}, {1})},
                   {"wz", Tensor::fromVector<int8_t>(DType::Int8, {2}, {0, 1})}},
                  1, {}, 10);
  ASSERT_TRUE(y.ok()) << y.error().message;
  EXPECT_EQ((*y)[0].dtype(), DType::Int32);
  EXPECT_EQ((*y)[0].dims(), (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_EQ((*y)[0].toInt64s(), (std::vector<int64_t>{27, 37, 57, 67, 51, 73, 117, 139}));

  const Tensor A = Tensor::fromVector<uint8_t>(DType::UInt8, {2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor B = Tensor::fromVector<int8_t>(DType::Int8, {3, 2}, {1, -1, 2, 0, 3, 5});
  auto mm = runOne("MatMulInteger",
                   {{"a", A}, {"b", B}, {"az", Tensor::fromVector<uint8_t>(DType::UInt8, {2}, {1, 2})},
                    {"bz", Tensor::fromVector<int8_t>(DType::Int8, {2}, {0, -1})}},
                   1, {}, 10);
  ASSERT_TRUE(mm.ok()) << mm.error().message;
  EXPECT_EQ((*mm)[0].dtype(), DType::Int32);
  EXPECT_EQ((*mm)[0].toInt64s(), (std::vector<int64_t>{8, 13, 20, 27}));
  auto badZp = runOne("MatMulInteger",
                      {{"a", A}, {"b", B}, {"az", Tensor::fromVector<uint8_t>(DType::UInt8, {3}, {1, 2, 3})}}, 1, {}, 10);
  ASSERT_FALSE(badZp.ok());
  EXPECT_NE(badZp.error().message.find("a_zero_point"), std::string::npos) << badZp.error().message;
}

TEST(LossOps, NllLossTargetOutOfRangeIsACleanError) {
  const Tensor x = Tensor::floats({2, 3}, {-1, -2, -3, -4, -5, -6});
  auto bad = runOne("NegativeLogLikelihoodLoss", {{"x", x}, {"t", Tensor::int64s({2}, {0, 3})}}, 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("outside the classes [0, 3)"), std::string::npos) << bad.error().message;
  // The same value as ignore_index is fine and counts for nothing in the mean.
  auto ok = runOne("NegativeLogLikelihoodLoss", {{"x", x}, {"t", Tensor::int64s({2}, {1, 3})}}, 1,
                   attrs({Attribute::makeInt("ignore_index", 3)}));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  expectNear((*ok)[0], {}, {2.f});
  auto shape = runOne("SoftmaxCrossEntropyLoss", {{"x", x}, {"t", Tensor::int64s({3}, {0, 1, 2})}}, 1);
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.error().message.find("target [3]"), std::string::npos) << shape.error().message;
}
