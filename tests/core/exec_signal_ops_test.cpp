// DFT, STFT, windows, MelWeightMatrix, StringNormalizer and TfIdfVectorizer in the reference executor.
// The FFT is checked against a direct O(n^2) double-precision DFT written here, for powers of two,
// composite and prime lengths (the Bluestein path); the other expected numbers are worked out by hand
// or with numpy as noted per case.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::DType;
using fw::Tensor;

namespace {

using cd = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

// Direct DFT of x (inverse: e^{+}, divided by n).
std::vector<cd> directDft(const std::vector<cd>& x, bool inverse) {
  const size_t n = x.size();
  std::vector<cd> y(n);
  for (size_t k = 0; k < n; ++k) {
    cd acc = 0;
    for (size_t j = 0; j < n; ++j) {
      const double ang = (inverse ? 2 : -2) * kPi * double((j * k) % n) / double(n);
      acc += x[j] * std::polar(1.0, ang);
    }
    y[k] = inverse ? acc / double(n) : acc;
  }
  return y;
}

// Signal of length n as complex noise (real part only when !complexIn).
std::vector<cd> signal(size_t n, uint64_t seed, bool complexIn) {
  const auto t = noise({static_cast<int64_t>(n), 2}, seed).toFloats();
  std::vector<cd> v(n);
  for (size_t k = 0; k < n; ++k) v[k] = cd(t[2 * k], complexIn ? t[2 * k + 1] : 0.f);
  return v;
}

Tensor asSignalTensor(const std::vector<cd>& v, bool complexIn) {
  std::vector<float> f;
  for (const auto& c : v) {
    f.push_back(static_cast<float>(c.real()));
    if (complexIn) f.push_back(static_cast<float>(c.imag()));
  }
  return Tensor::floats({1, static_cast<int64_t>(v.size()), complexIn ? 2 : 1}, f);
}

void expectSpectrum(const Tensor& t, const std::vector<cd>& want, double tol) {
  const auto got = t.toFloats();
  ASSERT_EQ(got.size(), want.size() * 2);
  double scale = 1;
  for (const auto& w : want) scale = std::max(scale, std::abs(w));
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_NEAR(got[2 * k], want[k].real(), tol * scale) << "re at bin " << k;
    EXPECT_NEAR(got[2 * k + 1], want[k].imag(), tol * scale) << "im at bin " << k;
  }
}

Tensor i32Scalar(int32_t v) { return Tensor::fromVector(DType::Int32, {}, std::vector<int32_t>{v}); }
Tensor strs(std::vector<int64_t> dims, std::vector<std::string> v) { return Tensor(std::move(dims), std::move(v)); }

}  // namespace

TEST(ExecSignal, DftMatchesDirectDftForManyLengths) {
  // 1, powers of two, composites and primes (Bluestein), real and complex, forward and inverse.
  for (int n : {1, 2, 3, 5, 8, 12, 17, 64, 97, 100, 256, 257}) {
    for (bool complexIn : {false, true}) {
      for (bool inverse : {false, true}) {
        const auto x = signal(static_cast<size_t>(n), static_cast<uint64_t>(n), complexIn);
        auto r = runOne("DFT", {{"x", asSignalTensor(x, complexIn)}}, 1,
                        attrs({Attribute::makeInt("inverse", inverse ? 1 : 0)}));
        ASSERT_TRUE(r.ok()) << r.error().message;
        ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{1, n, 2}));
        SCOPED_TRACE("n=" + std::to_string(n) + " complex=" + std::to_string(complexIn) + " inverse=" + std::to_string(inverse));
        expectSpectrum((*r)[0], directDft(x, inverse), 2e-6);
      }
    }
  }
}

TEST(ExecSignal, DftLengthPadsAndTruncatesAndOnesidedKeepsHalf) {
  const auto x = signal(10, 7, false);
  for (int64_t len : {6, 10, 13, 16}) {
    std::vector<cd> padded(static_cast<size_t>(len));
    for (int64_t k = 0; k < len && k < 10; ++k) padded[static_cast<size_t>(k)] = x[static_cast<size_t>(k)];
    auto want = directDft(padded, false);
    want.resize(static_cast<size_t>(len / 2 + 1));
    auto r = runOne("DFT", {{"x", asSignalTensor(x, false)}, {"len", Tensor::scalarInt64(len), true}}, 1,
                    attrs({Attribute::makeInt("onesided", 1)}));
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{1, len / 2 + 1, 2}));
    expectSpectrum((*r)[0], want, 2e-6);
  }
}

TEST(ExecSignal, DftAlongAMiddleAxisWithInnerDims) {
  // x [2, 3, 5, 1]: transform axis 1 (length 3) for every (batch, column), and axis -2 (length 5).
  const auto t = noise({2, 3, 5, 1}, 3);
  const auto v = t.toFloats();
  for (int64_t axis : {1, 2, -2}) {
    auto r = runOne("DFT", {{"x", t}}, 1, attrs({Attribute::makeInt("axis", axis)}));
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{2, 3, 5, 2}));
    const auto got = (*r)[0].toFloats();
    const bool rows = axis == 1;
    for (int b = 0; b < 2; ++b) {
      for (int other = 0; other < (rows ? 5 : 3); ++other) {
        std::vector<cd> line;
        for (int k = 0; k < (rows ? 3 : 5); ++k) line.emplace_back(v[static_cast<size_t>(b * 15 + (rows ? k * 5 + other : other * 5 + k))], 0);
        const auto want = directDft(line, false);
        for (size_t k = 0; k < want.size(); ++k) {
          const size_t at = static_cast<size_t>(b * 15 + (rows ? int(k) * 5 + other : other * 5 + int(k))) * 2;
          EXPECT_NEAR(got[at], want[k].real(), 1e-5);
          EXPECT_NEAR(got[at + 1], want[k].imag(), 1e-5);
        }
      }
    }
  }
}

TEST(ExecSignal, DftRejectsBadShapesAndAxes) {
  EXPECT_FALSE(runOne("DFT", {{"x", noise({4, 3}, 1)}}).ok());                   // rank 2
  EXPECT_FALSE(runOne("DFT", {{"x", noise({1, 4, 3}, 1)}}).ok());                // last dim 3
  EXPECT_FALSE(runOne("DFT", {{"x", noise({1, 4, 1}, 1)}}, 1, attrs({Attribute::makeInt("axis", 2)})).ok());
  EXPECT_FALSE(runOne("DFT", {{"x", noise({1, 4, 1}, 1)}, {"l", Tensor::scalarInt64(0), true}}).ok());
  auto r = runOne("DFT", {{"x", noise({1, 4, 1}, 1)}}, 1, attrs({Attribute::makeInt("axis", 5)}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("axis 5"), std::string::npos) << r.error().message;
}

TEST(ExecSignal, StftFramesWithWindowAndComplexSignal) {
  // 2 batches of 23 complex samples, Hann window of 8, step 5: frames (23 - 8) / 5 + 1 = 4, full
  // spectrum (onesided = 0) compared with the direct DFT of each windowed frame.
  const auto t = noise({2, 23, 2}, 11);
  const auto v = t.toFloats();
  std::vector<float> win(8);
  for (int k = 0; k < 8; ++k) win[static_cast<size_t>(k)] = static_cast<float>(0.5 - 0.5 * std::cos(2 * kPi * k / 8));
  auto r = runOne("STFT", {{"x", t}, {"step", Tensor::scalarInt64(5), true}, {"w", Tensor::floats({8}, win), true},
                            {"len", Tensor::scalarInt64(8), true}},
                  1, attrs({Attribute::makeInt("onesided", 0)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{2, 4, 8, 2}));
  const auto got = (*r)[0].toFloats();
  for (int b = 0; b < 2; ++b) {
    for (int f = 0; f < 4; ++f) {
      std::vector<cd> frame;
      for (int k = 0; k < 8; ++k) {
        const size_t at = static_cast<size_t>((b * 23 + f * 5 + k) * 2);
        frame.emplace_back(v[at] * win[static_cast<size_t>(k)], v[at + 1] * win[static_cast<size_t>(k)]);
      }
      const auto want = directDft(frame, false);
      for (size_t k = 0; k < 8; ++k) {
        const size_t at = static_cast<size_t>(((b * 4 + f) * 8) + int(k)) * 2;
        EXPECT_NEAR(got[at], want[k].real(), 1e-5);
        EXPECT_NEAR(got[at + 1], want[k].imag(), 1e-5);
      }
    }
  }
}

TEST(ExecSignal, StftOnesidedWithoutWindowAndErrors) {
  // 12 real samples, frame_length 6 (no window), step 3: 3 frames of 4 bins.
  auto r = runOne("STFT", {{"x", iota({1, 12, 1})}, {"step", Tensor::scalarInt64(3), true}, {"", {}}, {"len", Tensor::scalarInt64(6), true}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{1, 3, 4, 2}));
  // Frame 1 is 3..8: its DC bin is 33.
  EXPECT_NEAR((*r)[0].toFloats()[static_cast<size_t>(1 * 8)], 33.f, 1e-5);
  // Signal shorter than a frame: no frames.
  auto shortSig = runOne("STFT", {{"x", iota({1, 4, 1})}, {"step", Tensor::scalarInt64(3), true}, {"", {}}, {"len", Tensor::scalarInt64(6), true}});
  ASSERT_TRUE(shortSig.ok()) << shortSig.error().message;
  EXPECT_EQ((*shortSig)[0].dims(), (std::vector<int64_t>{1, 0, 4, 2}));
  // No window nor frame_length; a window that disagrees with frame_length; step 0.
  EXPECT_FALSE(runOne("STFT", {{"x", iota({1, 12, 1})}, {"step", Tensor::scalarInt64(3), true}}).ok());
  EXPECT_FALSE(runOne("STFT", {{"x", iota({1, 12, 1})}, {"step", Tensor::scalarInt64(3), true}, {"w", iota({4}), true},
                               {"len", Tensor::scalarInt64(6), true}}).ok());
  EXPECT_FALSE(runOne("STFT", {{"x", iota({1, 12, 1})}, {"step", Tensor::scalarInt64(0), true}, {"w", iota({4}), true}}).ok());
}

TEST(ExecSignal, WindowsPeriodicSymmetricAndOutputType) {
  // numpy: np.hanning(5) = [0, .5, 1, .5, 0] (symmetric); periodic Hann of 4 = [0, .5, 1, .5].
  auto sym = runOne("HannWindow", {{"n", i32Scalar(5), true}}, 1, attrs({Attribute::makeInt("periodic", 0)}));
  ASSERT_TRUE(sym.ok()) << sym.error().message;
  expectNear((*sym)[0], {5}, {0, .5f, 1, .5f, 0});
  auto per = runOne("HannWindow", {{"n", i32Scalar(4), true}});
  ASSERT_TRUE(per.ok());
  expectNear((*per)[0], {4}, {0, .5f, 1, .5f});
  // Hamming 25/46 - 21/46 cos: ends at 4/46; Blackman 0.42 - 0.5 cos + 0.08 cos 2x: ends at 0, middle 1.
  auto ham = runOne("HammingWindow", {{"n", i32Scalar(3), true}}, 1, attrs({Attribute::makeInt("periodic", 0)}));
  ASSERT_TRUE(ham.ok());
  expectNear((*ham)[0], {3}, {4.f / 46, 1, 4.f / 46});
  auto bl = runOne("BlackmanWindow", {{"n", i32Scalar(3), true}}, 1, attrs({Attribute::makeInt("periodic", 0)}));
  ASSERT_TRUE(bl.ok());
  expectNear((*bl)[0], {3}, {0, 1, 0});
  // output_datatype int64 truncates; size 0 is empty; a negative size and a string type are errors.
  auto asInt = runOne("HannWindow", {{"n", i32Scalar(4), true}}, 1, attrs({Attribute::makeInt("output_datatype", 7)}));
  ASSERT_TRUE(asInt.ok());
  EXPECT_EQ((*asInt)[0].dtype(), DType::Int64);
  EXPECT_EQ((*asInt)[0].toInt64s(), (std::vector<int64_t>{0, 0, 1, 0}));
  auto empty = runOne("HannWindow", {{"n", i32Scalar(0), true}});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)[0].dims(), (std::vector<int64_t>{0}));
  EXPECT_FALSE(runOne("HannWindow", {{"n", i32Scalar(-1), true}}).ok());
  EXPECT_FALSE(runOne("HannWindow", {{"n", i32Scalar(4), true}}, 1, attrs({Attribute::makeInt("output_datatype", 8)})).ok());
}

TEST(ExecSignal, MelWeightMatrixShapeAndTriangles) {
  // The ONNX example (8 bins, dft 16, 8192 Hz, 0..4096 Hz) as float64: 9 x 8, each column one peak of 1.
  auto r = runOne("MelWeightMatrix", {{"m", i32Scalar(8), true}, {"d", i32Scalar(16), true}, {"s", i32Scalar(8192), true},
                                      {"lo", Tensor::scalarFloat(0), true}, {"hi", Tensor::scalarFloat(4096), true}},
                  1, attrs({Attribute::makeInt("output_datatype", 11)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), DType::Float64);
  ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{9, 8}));
  const auto v = (*r)[0].toFloats();
  // numpy reference rows 0 and 1: [1,1,0,...] and [0,0,1,1,0,...].
  EXPECT_EQ(v[0], 1.f);
  EXPECT_EQ(v[1], 1.f);
  EXPECT_EQ(v[8 + 2], 1.f);
  EXPECT_EQ(v[8 + 3], 1.f);
  // An upper edge far above Nyquist stays inside the matrix; bad edges are errors.
  auto wide = runOne("MelWeightMatrix", {{"m", i32Scalar(4), true}, {"d", i32Scalar(16), true}, {"s", i32Scalar(100), true},
                                         {"lo", Tensor::scalarFloat(0), true}, {"hi", Tensor::scalarFloat(1e30f), true}});
  ASSERT_TRUE(wide.ok()) << wide.error().message;
  EXPECT_EQ((*wide)[0].dims(), (std::vector<int64_t>{9, 4}));
  EXPECT_FALSE(runOne("MelWeightMatrix", {{"m", i32Scalar(4), true}, {"d", i32Scalar(16), true}, {"s", i32Scalar(100), true},
                                          {"lo", Tensor::scalarFloat(50), true}, {"hi", Tensor::scalarFloat(10), true}}).ok());
  EXPECT_FALSE(runOne("MelWeightMatrix", {{"m", i32Scalar(0), true}, {"d", i32Scalar(16), true}, {"s", i32Scalar(100), true},
                                          {"lo", Tensor::scalarFloat(0), true}, {"hi", Tensor::scalarFloat(10), true}}).ok());
}

TEST(ExecString, StringNormalizerCaseInsensitiveStopwordsAndUtf8Case) {
  auto r = runOne("StringNormalizer", {{"x", strs({1, 4}, {"Straße", "the", "ÉCOLE", "Привет"})}}, 1,
                  attrs({Attribute::makeStrings("stopwords", {"THE"}), Attribute::makeString("case_change_action", "LOWER")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ((*r)[0].strings(), (std::vector<std::string>{"straße", "école", "привет"}));
  auto up = runOne("StringNormalizer", {{"x", strs({2}, {"ça", "déjà"})}}, 1, attrs({Attribute::makeString("case_change_action", "UPPER")}));
  ASSERT_TRUE(up.ok());
  EXPECT_EQ((*up)[0].strings(), (std::vector<std::string>{"ÇA", "DÉJÀ"}));
}

TEST(ExecString, StringNormalizerAllDroppedAndErrors) {
  // Case-sensitive: "The" is not the stopword "the"; all dropped in 2-D gives [1, 1] holding "".
  auto keep = runOne("StringNormalizer", {{"x", strs({2}, {"The", "the"})}}, 1,
                     attrs({Attribute::makeStrings("stopwords", {"the"}), Attribute::makeInt("is_case_sensitive", 1)}));
  ASSERT_TRUE(keep.ok());
  EXPECT_EQ((*keep)[0].strings(), (std::vector<std::string>{"The"}));
  auto none = runOne("StringNormalizer", {{"x", strs({1, 2}, {"a", "A"})}}, 1, attrs({Attribute::makeStrings("stopwords", {"a"})}));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)[0].dims(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ((*none)[0].strings(), (std::vector<std::string>{""}));
  EXPECT_FALSE(runOne("StringNormalizer", {{"x", strs({2, 1}, {"a", "b"})}}).ok());
  EXPECT_FALSE(runOne("StringNormalizer", {{"x", strs({1}, {"a"})}}, 1, attrs({Attribute::makeString("case_change_action", "TITLE")})).ok());
}

TEST(ExecString, TfIdfModesWeightsAndStringPool) {
  // Pool: unigrams "a", "b"; bigram ("a", "b"). Input "a b a b b": a x2, b x3, (a b) x2 adjacent
  // (0-1, 2-3); with max_skip_count 1 also one apart (2-4), x3.
  const auto x = strs({5}, {"a", "b", "a", "b", "b"});
  auto base = [](const std::string& mode, int64_t skip) {
    return attrs({Attribute::makeString("mode", mode), Attribute::makeInt("min_gram_length", 1),
                  Attribute::makeInt("max_gram_length", 2), Attribute::makeInt("max_skip_count", skip),
                  Attribute::makeInts("ngram_counts", {0, 2}), Attribute::makeInts("ngram_indexes", {2, 0, 1}),
                  Attribute::makeStrings("pool_strings", {"a", "b", "a", "b"}),
                  Attribute::makeFloats("weights", {0.5f, 2.f, 10.f})});
  };
  auto tf = runOne("TfIdfVectorizer", {{"x", x}}, 1, base("TF", 0));
  ASSERT_TRUE(tf.ok()) << tf.error().message;
  expectNear((*tf)[0], {3}, {3, 2, 2});  // slot 0 = "b", slot 1 = (a b), slot 2 = "a"
  auto tfSkip = runOne("TfIdfVectorizer", {{"x", x}}, 1, base("TF", 1));
  ASSERT_TRUE(tfSkip.ok());
  expectNear((*tfSkip)[0], {3}, {3, 3, 2});
  auto idf = runOne("TfIdfVectorizer", {{"x", x}}, 1, base("IDF", 0));
  ASSERT_TRUE(idf.ok());
  expectNear((*idf)[0], {3}, {2, 10, 0.5f});
  auto tfidf = runOne("TfIdfVectorizer", {{"x", x}}, 1, base("TFIDF", 0));
  ASSERT_TRUE(tfidf.ok());
  expectNear((*tfidf)[0], {3}, {6, 20, 1});
}

TEST(ExecString, TfIdfRejectsInconsistentAttributes) {
  auto with = [](std::vector<int64_t> counts, std::vector<int64_t> indexes) {
    return attrs({Attribute::makeString("mode", "TF"), Attribute::makeInt("min_gram_length", 1),
                  Attribute::makeInt("max_gram_length", 2), Attribute::makeInt("max_skip_count", 0),
                  Attribute::makeInts("ngram_counts", std::move(counts)), Attribute::makeInts("ngram_indexes", std::move(indexes)),
                  Attribute::makeInts("pool_int64s", {1, 2, 3})});
  };
  const Tensor x = Tensor::int64s({4}, {1, 2, 3, 1});
  EXPECT_TRUE(runOne("TfIdfVectorizer", {{"x", x}}, 1, with({0, 1}, {0, 1})).ok());
  EXPECT_FALSE(runOne("TfIdfVectorizer", {{"x", x}}, 1, with({0, 2}, {0, 1})).ok());     // 1 item left for a 2-gram
  EXPECT_FALSE(runOne("TfIdfVectorizer", {{"x", x}}, 1, with({0, 1}, {0})).ok());        // too few indexes
  EXPECT_FALSE(runOne("TfIdfVectorizer", {{"x", x}}, 1, with({0, 1}, {0, -1})).ok());    // negative index
  EXPECT_FALSE(runOne("TfIdfVectorizer", {{"x", x}}, 1, with({0, 7}, {0, 1})).ok());     // count past the pool
  EXPECT_FALSE(runOne("TfIdfVectorizer", {{"x", strs({1}, {"a"})}}, 1, with({0, 1}, {0, 1})).ok());  // string X, int pool
}
