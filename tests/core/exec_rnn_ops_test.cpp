// GRU, RNN, LSTM beyond the ONNX node tests, and the seeded random
// generators. Expected recurrent values come from an independent float64 numpy loop over the ONNX
// equations, on the patterned inputs below (pat(n, a, m, d, o)[k] = ((k*a) % m)/d - o).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/exec/Executor.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::Tensor;

namespace {

std::vector<float> pat(int64_t n, int64_t a, int64_t m, float d, float o) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] = static_cast<float>((k * a) % m) / d - o;
  return v;
}

// X [3, 2, 2], W/R/B/initial_h of a layer with G gates, H = 2, sequence_lens {3, 2}.
std::vector<In> patterned(int64_t G, int64_t dirs) {
  const int64_t seq = 3, batch = 2, I = 2, H = 2;
  return {{"x", Tensor::floats({seq, batch, I}, pat(seq * batch * I, 3, 5, 2, 1))},
          {"w", Tensor::floats({dirs, G * H, I}, pat(dirs * G * H * I, 7, 11, 10, .5f)), true},
          {"r", Tensor::floats({dirs, G * H, H}, pat(dirs * G * H * H, 5, 13, 13, .5f)), true},
          {"b", Tensor::floats({dirs, 2 * G * H}, pat(dirs * 2 * G * H, 3, 7, 10, .3f)), true},
          {"lens", Tensor::fromVector<int32_t>(fw::DType::Int32, {batch}, {3, 2})},
          {"h0", Tensor::floats({dirs, batch, H}, pat(dirs * batch * H, 1, 4, 4, .4f))}};
}

// [d0, d1, d2, d3] -> [d1, d0, d2, d3] (or [d0, d1, d2] -> [d1, d0, d2]) of a float tensor.
Tensor swap01(const Tensor& t) {
  auto d = t.dims();
  const auto v = t.toFloats();
  int64_t inner = 1;
  for (size_t k = 2; k < d.size(); ++k) inner *= d[k];
  std::vector<float> o(v.size());
  for (int64_t a = 0; a < d[0]; ++a)
    for (int64_t b = 0; b < d[1]; ++b)
      for (int64_t k = 0; k < inner; ++k) o[static_cast<size_t>((b * d[0] + a) * inner + k)] = v[static_cast<size_t>((a * d[1] + b) * inner + k)];
  std::swap(d[0], d[1]);
  return Tensor::floats(d, o);
}

}  // namespace

TEST(ExecRnn, GruLinearBeforeResetBidirectionalWithLensAndInitialH) {
  auto r = runOne("GRU", patterned(3, 2), 2,
                  attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeInt("linear_before_reset", 1),
                         Attribute::makeString("direction", "bidirectional")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {3, 2, 2, 2},
             {-0.0297446f, -0.2185941f, 0.3070069f, -0.0409850f, 0.0948069f,  0.2666887f,  0.1441571f, 0.2775003f,
              -0.0995159f, 0.2052414f,  -0.0876070f, 0.1010615f, 0.1805143f,  -0.2246584f, 0.2594156f, 0.0777723f,
              -0.1900173f, -0.0713564f, 0.f,         0.f,        0.0134058f,  -0.2738210f, 0.f,        0.f},
             1e-5f);
  expectNear((*r)[1], {2, 2, 2},
             {-0.1900173f, -0.0713564f, -0.0876070f, 0.1010615f, 0.0948069f, 0.2666887f, 0.1441571f, 0.2775003f},
             1e-5f);
}

TEST(ExecRnn, GruResetBeforeLinearReverse) {
  auto r = runOne("GRU", patterned(3, 1), 2,
                  attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeString("direction", "reverse")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {3, 1, 2, 2},
             {0.1139802f, 0.0213185f, 0.1521285f, -0.0905289f, -0.1893092f, 0.2541593f, -0.1478412f, 0.2237520f,
              -0.2735855f, -0.1516126f, 0.f, 0.f},
             1e-5f);
  expectNear((*r)[1], {1, 2, 2}, {0.1139802f, 0.0213185f, 0.1521285f, -0.0905289f}, 1e-5f);
}

TEST(ExecRnn, RnnActivationsAndClip) {
  auto r = runOne("RNN", patterned(1, 2), 2,
                  attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeString("direction", "bidirectional"),
                         Attribute::makeStrings("activations", {"Relu", "Tanh"}), Attribute::makeFloat("clip", 0.5f)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {3, 2, 2, 2},
             {0.5f, 0.2942308f, 0.3596154f, 0.4057692f, -0.1270471f, -0.4621172f, -0.1357666f, -0.4621172f,
              0.f,  0.f,        0.f,        0.f,        0.4621172f,  -0.4621172f, 0.4621172f,  -0.2467255f,
              0.f,  0.f,        0.f,        0.f,        0.3105499f,  -0.0518765f, 0.f,         0.f},
             1e-5f);
  expectNear((*r)[1], {2, 2, 2}, {0.f, 0.f, 0.f, 0.f, -0.1270471f, -0.4621172f, -0.1357666f, -0.4621172f}, 1e-5f);
}

// Every per-gate path of the LSTM step (which applies each function over whole gate blocks): peepholes,
// coupled input and forget gates, the clip, functions that take alpha/beta in one direction and the
// defaults in the other, an initial cell state, a row shorter than the sequence.
TEST(ExecRnn, LstmPeepholesCoupledGatesClipAndActivations) {
  auto in = patterned(4, 2);
  in.push_back({"c0", Tensor::floats({2, 2, 2}, pat(8, 3, 5, 5, .3f))});
  in.push_back({"p", Tensor::floats({2, 6}, pat(12, 2, 7, 7, .4f)), true});
  auto r = runOne("LSTM", in, 3,
                  attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeString("direction", "bidirectional"),
                         Attribute::makeInt("input_forget", 1), Attribute::makeFloat("clip", 0.9f),
                         Attribute::makeStrings("activations", {"HardSigmoid", "ScaledTanh", "Softsign", "Sigmoid", "Tanh", "Tanh"}),
                         Attribute::makeFloats("activation_alpha", {0.3f, 1.2f}),
                         Attribute::makeFloats("activation_beta", {0.45f, 0.8f})}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {3, 2, 2, 2},
             {-0.1087772f, -0.0784521f, -0.1080183f, -0.0272648f, 0.0407094f,  0.1421762f,  0.0909684f, 0.1441707f,
              -0.1096765f, -0.1098189f, -0.1027729f, -0.0387227f, 0.1804221f,  -0.0736067f, 0.1667410f, -0.0170736f,
              -0.0726277f, -0.0457736f, 0.f,         0.f,         0.1845933f,  -0.0930944f, 0.f,        0.f},
             1e-5f);
  expectNear((*r)[1], {2, 2, 2},
             {-0.0726277f, -0.0457736f, -0.1027729f, -0.0387227f, 0.0407094f, 0.1421762f, 0.0909684f, 0.1441707f}, 1e-5f);
  expectNear((*r)[2], {2, 2, 2},
             {-0.1636677f, -0.0843520f, -0.2279812f, -0.0781940f, 0.0956835f, 0.2318477f, 0.2089784f, 0.2476940f}, 1e-5f);
}

TEST(ExecRnn, BatchFirstLayoutIsTheTransposeOfTimeMajor) {
  // layout = 1 swaps X, initial_h, Y and Y_h; the values are those of layout 0.
  for (const char* op : {"GRU", "RNN", "LSTM"}) {
    const int64_t G = std::string(op) == "GRU" ? 3 : std::string(op) == "LSTM" ? 4 : 1;
    auto ins = patterned(G, 2);
    auto base = attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeString("direction", "bidirectional")});
    auto r0 = runOne(op, ins, 2, base);
    ASSERT_TRUE(r0.ok()) << op << ": " << r0.error().message;
    ins[0].t = swap01(ins[0].t);
    ins[5].t = swap01(ins[5].t);
    base.set(Attribute::makeInt("layout", 1));
    auto r1 = runOne(op, ins, 2, base);
    ASSERT_TRUE(r1.ok()) << op << ": " << r1.error().message;
    // Y: [seq, dirs, batch, H] -> [batch, seq, dirs, H].
    const Tensor y0 = (*r0)[0];
    const auto d = y0.dims();
    const auto v0 = y0.toFloats();
    std::vector<float> want(v0.size());
    for (int64_t s = 0; s < d[0]; ++s)
      for (int64_t k = 0; k < d[1]; ++k)
        for (int64_t b = 0; b < d[2]; ++b)
          for (int64_t h = 0; h < d[3]; ++h)
            want[static_cast<size_t>(((b * d[0] + s) * d[1] + k) * d[3] + h)] =
                v0[static_cast<size_t>(((s * d[1] + k) * d[2] + b) * d[3] + h)];
    expectNear((*r1)[0], {d[2], d[0], d[1], d[3]}, want);
    const Tensor yh = swap01((*r0)[1]);
    expectNear((*r1)[1], yh.dims(), yh.toFloats());
  }
}

TEST(ExecRnn, FloatSixtyFourInputKeepsItsDtype) {
  auto ins = patterned(3, 1);
  for (size_t k : {0, 5}) {
    const auto v = ins[k].t.toFloats();
    ins[k].t = Tensor::fromVector<double>(fw::DType::Float64, ins[k].t.dims(), std::vector<double>(v.begin(), v.end()));
  }
  for (size_t k : {1, 2, 3}) {
    const auto v = ins[k].t.toFloats();
    ins[k].t = Tensor::fromVector<double>(fw::DType::Float64, ins[k].t.dims(), std::vector<double>(v.begin(), v.end()));
  }
  auto r = runOne("GRU", ins, 2, attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeString("direction", "reverse")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[1].dtype(), fw::DType::Float64);
  expectNear((*r)[1], {1, 2, 2}, {0.1139802f, 0.0213185f, 0.1521285f, -0.0905289f}, 1e-5f);
}

TEST(ExecRnn, BadArgumentsAreCleanErrors) {
  auto ins = patterned(3, 1);
  ins[4].t = Tensor::fromVector<int32_t>(fw::DType::Int32, {2}, {4, 1});  // longer than seq_length 3
  auto r = runOne("GRU", ins, 2, attrs({Attribute::makeInt("hidden_size", 2)}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("sequence_lens"), std::string::npos) << r.error().message;

  auto r2 = runOne("GRU", patterned(3, 1), 2,
                   attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeStrings("activations", {"Sigmoid"})}));
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().message.find("activations"), std::string::npos) << r2.error().message;

  auto r3 = runOne("RNN", patterned(1, 1), 2,
                   attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeString("direction", "bidirectional")}));
  ASSERT_FALSE(r3.ok());
  EXPECT_NE(r3.error().message.find("direction"), std::string::npos) << r3.error().message;

  auto ins4 = patterned(1, 1);
  ins4[5].t = Tensor::floats({1, 3, 2}, std::vector<float>(6, 0.f));  // batch 3 != 2
  auto r4 = runOne("RNN", ins4, 2, attrs({Attribute::makeInt("hidden_size", 2)}));
  ASSERT_FALSE(r4.ok());
  EXPECT_NE(r4.error().message.find("initial state"), std::string::npos) << r4.error().message;

  auto r5 = runOne("GRU", patterned(3, 1), 2,
                   attrs({Attribute::makeInt("hidden_size", 2), Attribute::makeStrings("activations", {"Sigmoid", "Gelu"})}));
  ASSERT_FALSE(r5.ok());
  EXPECT_NE(r5.error().message.find("Gelu"), std::string::npos) << r5.error().message;
}

// Random generators ------------------------------------------------------------------------------

TEST(ExecRandom, SeededUniformIsReproducibleInRangeAndSeedDependent) {
  auto a = [](float seed) {
    return runOne("RandomUniform", {}, 1,
                  attrs({Attribute::makeInts("shape", {1000}), Attribute::makeFloat("low", -2.f),
                         Attribute::makeFloat("high", 3.f), Attribute::makeFloat("seed", seed)}));
  };
  auto r1 = a(5.f), r2 = a(5.f), r3 = a(6.f);
  ASSERT_TRUE(r1.ok() && r2.ok() && r3.ok());
  EXPECT_EQ((*r1)[0].dtype(), fw::DType::Float32);
  const auto v1 = (*r1)[0].toFloats(), v2 = (*r2)[0].toFloats(), v3 = (*r3)[0].toFloats();
  EXPECT_EQ(v1, v2);
  EXPECT_NE(v1, v3);
  double sum = 0;
  for (float v : v1) {
    EXPECT_GE(v, -2.f);
    EXPECT_LT(v, 3.f);
    sum += v;
  }
  EXPECT_NEAR(sum / 1000, 0.5, 0.15);
}

TEST(ExecRandom, NormalHonoursDtypeMeanAndScale) {
  auto r = runOne("RandomNormal", {}, 1,
                  attrs({Attribute::makeInts("shape", {100, 100}), Attribute::makeFloat("mean", 4.f),
                         Attribute::makeFloat("scale", 0.5f),
                         Attribute::makeInt("dtype", static_cast<int64_t>(fw::DType::Float64))}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dtype(), fw::DType::Float64);
  ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{100, 100}));
  const auto v = (*r)[0].toFloats();
  double s = 0, s2 = 0;
  for (float x : v) s += x, s2 += static_cast<double>(x) * x;
  const double mean = s / v.size(), var = s2 / v.size() - mean * mean;
  EXPECT_NEAR(mean, 4.0, 0.03);
  EXPECT_NEAR(std::sqrt(var), 0.5, 0.03);
  // Without a seed the fixed default seed makes two runs alike.
  auto again = runOne("RandomNormal", {}, 1,
                      attrs({Attribute::makeInts("shape", {100, 100}), Attribute::makeFloat("mean", 4.f),
                             Attribute::makeFloat("scale", 0.5f),
                             Attribute::makeInt("dtype", static_cast<int64_t>(fw::DType::Float64))}));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)[0].toFloats(), v);
}

TEST(ExecRandom, LikeVariantsTakeShapeAndDtypeFromTheInput) {
  auto r = runOne("RandomUniformLike", {{"x", Tensor::fromVector<uint16_t>(fw::DType::Float16, {2, 3}, std::vector<uint16_t>(6, 0))}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), fw::DType::Float16);
  EXPECT_EQ((*r)[0].dims(), (std::vector<int64_t>{2, 3}));
  auto r2 = runOne("RandomNormalLike", {{"x", Tensor::int64s({4}, {1, 2, 3, 4})}}, 1,
                   attrs({Attribute::makeInt("dtype", static_cast<int64_t>(fw::DType::Float32))}));
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  EXPECT_EQ((*r2)[0].dtype(), fw::DType::Float32);
  // An integer input without dtype has no float type to copy.
  auto r3 = runOne("RandomNormalLike", {{"x", Tensor::int64s({4}, {1, 2, 3, 4})}});
  ASSERT_FALSE(r3.ok());
  EXPECT_NE(r3.error().message.find("dtype"), std::string::npos) << r3.error().message;
}

TEST(ExecRandom, BernoulliExtremesAndDtype) {
  auto r = runOne("Bernoulli", {{"p", Tensor::floats({6}, {0, 1, 0, 1, 1, 0})}}, 1,
                  attrs({Attribute::makeInt("dtype", static_cast<int64_t>(fw::DType::Bool))}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), fw::DType::Bool);
  EXPECT_EQ((*r)[0].toInt64s(), (std::vector<int64_t>{0, 1, 0, 1, 1, 0}));
  auto half = runOne("Bernoulli", {{"p", Tensor::floats({2000}, std::vector<float>(2000, 0.25f))}});
  ASSERT_TRUE(half.ok());
  EXPECT_EQ((*half)[0].dtype(), fw::DType::Float32);
  double s = 0;
  for (float v : (*half)[0].toFloats()) s += v;
  EXPECT_NEAR(s / 2000, 0.25, 0.05);
  auto bad = runOne("Bernoulli", {{"p", Tensor::floats({2}, {0.5f, 1.5f})}});
  ASSERT_FALSE(bad.ok());
}

TEST(ExecRandom, MultinomialSamplesFromTheSoftmaxOfEachRow) {
  const float ninf = -std::numeric_limits<float>::infinity();
  // Row 0 can only give class 2; row 1 gives classes 0 and 1 at 1:3.
  auto r = runOne("Multinomial", {{"x", Tensor::floats({2, 3}, {ninf, ninf, 0.f, 0.f, std::log(3.f), ninf})}}, 1,
                  attrs({Attribute::makeInt("sample_size", 4000),
                         Attribute::makeInt("dtype", static_cast<int64_t>(fw::DType::Int64)),
                         Attribute::makeFloat("seed", 1.f)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dtype(), fw::DType::Int64);
  ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{2, 4000}));
  const auto v = (*r)[0].toInt64s();
  int64_t ones = 0;
  for (int k = 0; k < 4000; ++k) {
    EXPECT_EQ(v[static_cast<size_t>(k)], 2);
    const int64_t c = v[static_cast<size_t>(4000 + k)];
    EXPECT_TRUE(c == 0 || c == 1);
    ones += c;
  }
  EXPECT_NEAR(ones / 4000.0, 0.75, 0.03);
  auto dflt = runOne("Multinomial", {{"x", Tensor::floats({1, 2}, {0.f, 0.f})}});
  ASSERT_TRUE(dflt.ok());
  EXPECT_EQ((*dflt)[0].dtype(), fw::DType::Int32);
  EXPECT_EQ((*dflt)[0].dims(), (std::vector<int64_t>{1, 1}));
}
