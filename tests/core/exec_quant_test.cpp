// QuantizeLinear / DequantizeLinear / DynamicQuantizeLinear / QLinearConv / QLinearMatMul in the
// reference executor. Expected numbers are hand-checked or computed with numpy (float32 division,
// np.rint = round half to even, np.clip) as noted per case.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/exec/Executor.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::DType;
using fw::Tensor;

namespace {

Tensor u8(std::vector<int64_t> dims, const std::vector<uint8_t>& v) { return Tensor::fromVector(DType::UInt8, std::move(dims), v); }
Tensor i8(std::vector<int64_t> dims, const std::vector<int8_t>& v) { return Tensor::fromVector(DType::Int8, std::move(dims), v); }
Tensor i32(std::vector<int64_t> dims, const std::vector<int32_t>& v) { return Tensor::fromVector(DType::Int32, std::move(dims), v); }

void expectInts(const Tensor& t, DType dt, const std::vector<int64_t>& dims, const std::vector<int64_t>& want) {
  EXPECT_EQ(t.dtype(), dt);
  ASSERT_EQ(t.dims(), dims);
  EXPECT_EQ(t.toInt64s(), want);
}

}  // namespace

TEST(ExecQuant, QuantizeLinearPerTensorRoundsHalfToEvenAndSaturates) {
  // numpy: clip(rint(x / 2) + 128, 0, 255); 2.5 -> 1.25 -> 1, 3 -> 1.5 -> 2, 5 -> 2.5 -> 2, 7 -> 3.5 -> 4.
  auto r = runOne("QuantizeLinear",
                  {{"x", Tensor::floats({12}, {0, 2, 3, 1000, -254, -1000, 2.5f, -2.5f, 1.5f, 0.5f, 5, 7})},
                   {"s", Tensor::scalarFloat(2.f), true},
                   {"z", u8({}, {128}), true}},
                  1, {}, 13);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::UInt8, {12}, {128, 129, 130, 255, 1, 0, 129, 127, 129, 128, 130, 132});
}

TEST(ExecQuant, QuantizeLinearWithoutZeroPointIsUint8) {
  // numpy: clip(rint(x), 0, 255).
  auto r = runOne("QuantizeLinear",
                  {{"x", Tensor::floats({5}, {-1, 0.4f, 0.6f, 1.5f, 300})}, {"s", Tensor::scalarFloat(1.f), true}}, 1, {}, 10);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::UInt8, {5}, {0, 0, 1, 2, 255});
}

TEST(ExecQuant, QuantizeLinearPerAxisInt8) {
  // x = (arange(12) - 6) * 0.7 as float32, shape [1,3,2,2]; axis 1 (default), scales [0.5,0.25,2],
  // zero points [-3,0,10]; numpy: clip(rint(x / s) + zp, -128, 127).
  std::vector<float> x(12);
  for (int k = 0; k < 12; ++k) x[k] = static_cast<float>(k - 6) * 0.7f;
  auto r = runOne("QuantizeLinear",
                  {{"x", Tensor::floats({1, 3, 2, 2}, x)},
                   {"s", Tensor::floats({3}, {0.5f, 0.25f, 2.f}), true},
                   {"z", i8({3}, {-3, 0, 10}), true}},
                  1, {}, 13);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::Int8, {1, 3, 2, 2}, {-11, -10, -9, -7, -6, -3, 0, 3, 11, 11, 11, 12});

  // axis -1 on [3,2], scales [0.1,0.3], zero points [0,5]; numpy as above.
  auto r2 = runOne("QuantizeLinear",
                   {{"x", Tensor::floats({3, 2}, {0.05f, 0.15f, -0.25f, 1.f, 20.f, -40.f})},
                    {"s", Tensor::floats({2}, {0.1f, 0.3f}), true},
                    {"z", i8({2}, {0, 5}), true}},
                   1, attrs({Attribute::makeInt("axis", -1)}), 13);
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  expectInts((*r2)[0], DType::Int8, {3, 2}, {0, 5, -2, 8, 127, -128});
}

TEST(ExecQuant, PerAxisNeedsOpset13AndMatchingLength) {
  auto r = runOne("QuantizeLinear",
                  {{"x", Tensor::floats({2, 2}, {1, 2, 3, 4})},
                   {"s", Tensor::floats({2}, {1.f, 2.f}), true},
                   {"z", u8({2}, {0, 0}), true}},
                  1, {}, 10);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("opset 13"), std::string::npos) << r.error().message;
  auto r2 = runOne("DequantizeLinear",
                   {{"x", u8({2, 2}, {1, 2, 3, 4})},
                    {"s", Tensor::floats({3}, {1.f, 2.f, 3.f}), true},
                    {"z", u8({3}, {0, 0, 0}), true}},
                   1, {}, 13);
  ASSERT_FALSE(r2.ok());
}

TEST(ExecQuant, DequantizeLinearPerTensorPerAxisAndInt32) {
  // (x - 128) * 0.5.
  auto r = runOne("DequantizeLinear",
                  {{"x", u8({4}, {0, 3, 128, 255})}, {"s", Tensor::scalarFloat(0.5f), true}, {"z", u8({}, {128}), true}},
                  1, {}, 10);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), DType::Float32);
  expectNear((*r)[0], {4}, {-64, -62.5f, 0, 63.5f});

  // axis 0 of [3,2] int8, scales [0.5,2,0.1], zero points [1,-2,0]; numpy float32 (x - zp) * s.
  auto r2 = runOne("DequantizeLinear",
                   {{"x", i8({3, 2}, {-128, -1, 0, 1, 127, 50})},
                    {"s", Tensor::floats({3}, {0.5f, 2.f, 0.1f}), true},
                    {"z", i8({3}, {1, -2, 0}), true}},
                   1, attrs({Attribute::makeInt("axis", 0)}), 13);
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  expectNear((*r2)[0], {3, 2}, {-64.5f, -1, 4, 6, 12.7f, 5});

  // int32 input without a zero point (bias dequantization): x * s.
  auto r3 = runOne("DequantizeLinear", {{"x", i32({3}, {-1000, 0, 70000})}, {"s", Tensor::scalarFloat(0.25f), true}}, 1, {}, 13);
  ASSERT_TRUE(r3.ok()) << r3.error().message;
  expectNear((*r3)[0], {3}, {-250, 0, 17500});
}

TEST(ExecQuant, QuantizeDequantizeRoundTripAndCastKeepTypes) {
  // Q(x) -> Cast(to float): the quantized value keeps uint8 in between, Cast reads it as a number.
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", DType::Float32, fw::Shape::ofInts({3}));
  auto s = g->addInitializer("s", Tensor::scalarFloat(0.1f));
  auto z = g->addInitializer("z", u8({}, {10}));
  auto q = g->addValue("q");
  auto f = g->addValue("f");
  auto d = g->addValue("d");
  g->addNode("QuantizeLinear", {x, s, z}, {q}, {}, "q0");
  g->addNode("Cast", {q}, {f}, attrs({Attribute::makeInt("to", 1)}), "c0");
  g->addNode("DequantizeLinear", {q, s, z}, {d}, {}, "d0");
  g->addOutput(q);
  g->addOutput(f);
  g->addOutput(d);
  fw::Model m;
  m.opsetImports[""] = 13;
  m.graph = g;
  // 0.26 / 0.1 = 2.6 -> 3 (+10 = 13); -2 -> -20 -> 0 (saturated, 10 - 20 < 0); 30 -> 300 -> 255.
  auto r = fw::runGraph(m, {Tensor::floats({3}, {0.26f, -2.f, 30.f})});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::UInt8, {3}, {13, 0, 255});
  EXPECT_EQ((*r)[1].dtype(), DType::Float32);
  expectNear((*r)[1], {3}, {13, 0, 255});
  expectNear((*r)[2], {3}, {0.3f, -1.f, 24.5f});
}

TEST(ExecQuant, DynamicQuantizeLinear) {
  // The ONNX operator documentation example: range [-3, 2] -> scale 5/255, zero point 153.
  auto r = runOne("DynamicQuantizeLinear", {{"x", Tensor::floats({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f})}}, 3, {}, 11);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::UInt8, {6}, {153, 255, 0, 26, 221, 179});
  expectNear((*r)[1], {}, {5.f / 255.f});
  expectInts((*r)[2], DType::UInt8, {}, {153});
}

TEST(ExecQuant, QLinearMatMulOnnxExample) {
  // The ONNX operator documentation example (test_qlinearmatmul_2D).
  auto r = runOne("QLinearMatMul",
                  {{"a", u8({2, 4}, {208, 236, 0, 238, 3, 214, 255, 29})},
                   {"as", Tensor::floats({1}, {0.0066f}), true},
                   {"az", u8({1}, {113}), true},
                   {"b", u8({4, 3}, {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247}), true},
                   {"bs", Tensor::floats({1}, {0.00705f}), true},
                   {"bz", u8({1}, {114}), true},
                   {"ys", Tensor::floats({1}, {0.0107f}), true},
                   {"yz", u8({1}, {118}), true}},
                  1, {}, 10);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::UInt8, {2, 3}, {168, 115, 255, 1, 66, 151});
}

TEST(ExecQuant, QLinearMatMulInt8BatchedPerColumn) {
  // a int8 [2,2,3] (zp -5, scale 0.02) x b int8 [3,2] with per-column scales [0.01,0.03] and zero
  // points [3,-7]; y int8 (scale 0.05, zp -10). numpy float64 reference:
  // clip(rint(((a-azp)*as) @ ((b-bzp)*bs) / ys) + yzp, -128, 127) (same as the integer path here).
  auto r = runOne("QLinearMatMul",
                  {{"a", i8({2, 2, 3}, {101, -55, 93, 81, -1, 31, 2, -45, 50, 18, -107, -9})},
                   {"as", Tensor::scalarFloat(0.02f), true},
                   {"az", i8({}, {-5}), true},
                   {"b", i8({3, 2}, {-61, 75, 58, -81, -112, -116}), true},
                   {"bs", Tensor::floats({2}, {0.01f, 0.03f}), true},
                   {"bz", i8({2}, {3, -7}), true},
                   {"ys", Tensor::scalarFloat(0.05f), true},
                   {"yz", i8({}, {-10}), true}},
                  1, {}, 10);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::Int8, {2, 2, 2}, {-93, 11, -48, 24, -46, -40, -36, 108});
}

TEST(ExecQuant, QLinearConvPerChannelWithBiasPadsStrides) {
  // numpy (RandomState(7)): x = randint(0,256,(1,2,4,5)) uint8, w = randint(-128,128,(3,2,3,3)) int8,
  // x_scale 0.05, x_zp 120, w_scale [0.01,0.02,0.005], w_zp [0,1,-2], B int32 [100,-200,0],
  // y_scale 0.1, y_zp 128, pads (1,0,1,1), strides (1,2). Expected: float64 dequantize -> direct conv
  // (+ B * x_scale * w_scale) -> clip(rint(y / y_scale) + y_zp, 0, 255).
  const std::vector<uint8_t> x = {175, 196, 25,  246, 67,  211, 151, 103, 92,  185, 142, 23, 72, 89,
                                  110, 42,  218, 136, 167, 230, 68,  176, 127, 135, 172, 0,  75, 55,
                                  250, 6,   19,  188, 44,  191, 69,  56,  152, 183, 181, 112};
  const std::vector<int8_t> w = {123, 61,  64,  -94,  -72,  73,   78,  -90, -124, 110, 9,   -41, 99,  67,
                                 -56, -45, 48,  -127, 64,   16,   -10, 31,  -35,  44,  -36, 124, -57, -105,
                                 -118, 105, -93, 64,  -67,  7,    23,  -36, 119,  96,  21,  -28, 35,  97,
                                 -61, -5,  91,  97,   -109, 27,   -124, -109, -95, -5, -98, 57};
  auto r = runOne("QLinearConv",
                  {{"x", u8({1, 2, 4, 5}, x)},
                   {"xs", Tensor::scalarFloat(0.05f), true},
                   {"xz", u8({}, {120}), true},
                   {"w", i8({3, 2, 3, 3}, w), true},
                   {"ws", Tensor::floats({3}, {0.01f, 0.02f, 0.005f}), true},
                   {"wz", i8({3}, {0, 1, -2}), true},
                   {"ys", Tensor::scalarFloat(0.1f), true},
                   {"yz", u8({}, {128}), true},
                   {"b", i32({3}, {100, -200, 0}), true}},
                  1, attrs({Attribute::makeInts("pads", {1, 0, 1, 1}), Attribute::makeInts("strides", {1, 2})}), 10);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], DType::UInt8, {1, 3, 4, 2},
             {121, 186, 180, 238, 33, 77, 29, 128, 175, 0, 253, 255, 255, 51, 63, 55, 92, 85, 146, 136, 164, 81, 74, 61});
}

TEST(ExecQuant, OpsAreRegistered) {
  for (const char* op : {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "QLinearConv", "QLinearMatMul"})
    EXPECT_TRUE(fw::isOpSupported(op)) << op;
}
