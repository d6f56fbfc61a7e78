// core/exec/Gemm.h: a PreparedGemm run many times on new operands gives the products an index-by-index
// loop gives, with and without the transposed weights, with row strides wider than the rows, and for an
// empty sum; so does sgemm for one row against a [K, N] weight with rows a multiple of 4 KiB apart (the
// executor's own loop on one thread) and for the shapes beside it that still take oneDNN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "core/exec/Gemm.h"
#include "core/exec/OneDnn.h"
#include "core/exec/RtTensor.h"
#include "core/exec/ThreadPool.h"

namespace {

std::vector<float> pattern(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 7 + static_cast<size_t>(seed) * 13) % 17) - 8) / 8.f;
  return v;
}

// On an uncapped AVX-512 CPU oneDNN 2.6 prefers a blocked weight layout for every packed case here;
// capped (ONEDNN_MAX_CPU_ISA=AVX2 or SSE41, as CI also runs) its kernel for a shape may read the plain
// one, and then no copy is made.
bool oneDnnPacks() {
  const char* cap = std::getenv("ONEDNN_MAX_CPU_ISA");
  return __builtin_cpu_supports("avx512f") && (cap == nullptr || *cap == 0);
}

}  // namespace

TEST(PreparedGemm, EachRunIsTheProductOfItsOwnOperands) {
  for (bool transB : {false, true}) {
    const int64_t M = 3, N = 5, K = 4, lda = K + 2, ldb = (transB ? K : N) + 1, ldc = N + 3;
    fw::exec::PreparedGemm g(transB, M, N, K, lda, ldb, ldc);
    for (int run = 0; run < 3; ++run) {
      const auto A = pattern(static_cast<size_t>(M * lda), run);
      const auto B = pattern(static_cast<size_t>((transB ? N : K) * ldb), run + 5);
      std::vector<float> C(static_cast<size_t>(M * ldc), 99.f);
      g.run(A.data(), B.data(), C.data());
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          float want = 0;
          for (int64_t k = 0; k < K; ++k) want += A[static_cast<size_t>(i * lda + k)] * B[static_cast<size_t>(transB ? j * ldb + k : k * ldb + j)];
          EXPECT_NEAR(C[static_cast<size_t>(i * ldc + j)], want, 1e-5f) << "transB " << transB << " run " << run << " at " << i << "," << j;
        }
      EXPECT_EQ(C[static_cast<size_t>(N)], 99.f);  // past the row: untouched
    }
  }
  // K = 0: an empty sum is zero.
  fw::exec::PreparedGemm empty(true, 2, 3, 0, 1, 1, 3);
  std::vector<float> C(6, 5.f);
  empty.run(nullptr, nullptr, C.data());
  EXPECT_EQ(C, std::vector<float>(6, 0.f));
}

// One row against a [K, N] weight whose rows are a multiple of 4 KiB apart takes the executor's own loop
// (one thread); more rows, other strides, a narrow N, a transposed operand or beta != 0 still take
// oneDNN. All must give the index loop's product, leave the row padding alone and ignore what C held.
TEST(Sgemm, FewRowsAgainstAWideWeightMatchAnIndexLoop) {
  fw::exec::ThreadBudget one(1);
  struct Case {
    int64_t M, N, K;
    float alpha, beta;
    bool transB;
  };
  for (const Case& c : {Case{1, 1024, 256, 1.f, 0.f, false}, Case{1, 1021, 1, 0.5f, 0.f, false},
                        Case{1, 2045, 37, 1.f, 0.f, false}, Case{2, 1021, 8, 1.f, 0.f, false},
                        Case{4, 1024, 16, 1.f, 0.f, false}, Case{1, 700, 16, 1.f, 0.f, false},
                        Case{1, 32, 16, 1.f, 0.f, false}, Case{1, 256, 16, 1.f, 0.f, true},
                        Case{1, 1021, 16, 1.f, 1.f, false}}) {
    // Rows of B padded to 1024 or 2048 floats where N is just under (4 KiB and 8 KiB apart: the loop).
    const int64_t lda = c.K + 1, ldb = c.transB ? c.K + 3 : (c.N > 1000 ? (c.N + 1023) / 1024 * 1024 : c.N + 3);
    const int64_t ldc = c.N + 2;
    const auto A = pattern(static_cast<size_t>(c.M * lda), 1);
    const auto B = pattern(static_cast<size_t>((c.transB ? c.N : c.K) * ldb), 2);
    std::vector<float> C(static_cast<size_t>(c.M * ldc), 7.f);
    fw::exec::sgemm(false, c.transB, c.M, c.N, c.K, c.alpha, A.data(), lda, B.data(), ldb, c.beta, C.data(), ldc);
    for (int64_t i = 0; i < c.M; ++i) {
      for (int64_t j = 0; j < c.N; ++j) {
        double want = 0;
        for (int64_t k = 0; k < c.K; ++k)
          want += static_cast<double>(A[static_cast<size_t>(i * lda + k)]) *
                  B[static_cast<size_t>(c.transB ? j * ldb + k : k * ldb + j)];
        want = c.alpha * want + c.beta * 7.0;
        ASSERT_NEAR(C[static_cast<size_t>(i * ldc + j)], want, 1e-4 * (1 + std::abs(want)))
            << "M " << c.M << " N " << c.N << " K " << c.K << " at " << i << "," << j;
      }
      for (int64_t j = c.N; j < ldc; ++j) EXPECT_EQ(C[static_cast<size_t>(i * ldc + j)], 7.f) << "padding of row " << i;
    }
  }
}

// A model's weight (an owner that outlives the run) runs on a copy in oneDNN's own layout, made once and
// kept while the weight lives; a B without an owner (one the run computes) is read as stored, and one row
// against a [K, N] weight with rows a multiple of 4 KiB apart runs on the executor's own loop, which
// streams B as stored. Every form gives the index loop's product.
TEST(Sgemm, AModelWeightRunsOnAPackedCopyThatGivesTheSameProduct) {
  fw::exec::ThreadBudget one(1);
  struct Case {
    int64_t M, N, K;
    bool transB;
    bool packed;  // whether a copy is expected
    bool owned = true;  // whether B is given with its owner (a model's weight)
  };
  for (const Case& c :
       {Case{1, 100, 64, true, true}, Case{3, 96, 130, true, true}, Case{2, 512, 40, false, true},
        Case{5, 1024, 33, false, true}, Case{4, 768, 20, false, true}, Case{1, 1024, 16, false, false},
        Case{4, 768, 20, false, false, false}, Case{3, 96, 130, true, false, false}}) {
    const int64_t ldb = c.transB ? c.K : c.N;
    auto B =
        std::make_shared<std::vector<float>>(pattern(static_cast<size_t>((c.transB ? c.N : c.K) * ldb), 3));
    const auto A = pattern(static_cast<size_t>(c.M * c.K), 4);
    std::vector<double> want(static_cast<size_t>(c.M * c.N), 0.0);
    for (int64_t i = 0; i < c.M; ++i)
      for (int64_t j = 0; j < c.N; ++j)
        for (int64_t k = 0; k < c.K; ++k)
          want[static_cast<size_t>(i * c.N + j)] +=
              static_cast<double>(A[static_cast<size_t>(i * c.K + k)]) *
              (*B)[static_cast<size_t>(c.transB ? j * ldb + k : k * ldb + j)];
    const size_t before = fw::exec::onednn::cachedWeightCopies();
    for (int run = 0; run < 2; ++run) {
      std::vector<float> C(static_cast<size_t>(c.M * c.N), 7.f);
      fw::exec::sgemm(false, c.transB, c.M, c.N, c.K, 1.f, A.data(), c.K, B->data(), ldb, 0.f, C.data(), c.N,
                      c.owned ? std::weak_ptr<const void>(B) : std::weak_ptr<const void>());
      for (size_t e = 0; e < C.size(); ++e)
        ASSERT_NEAR(C[e], want[e], 1e-4 * (1 + std::abs(want[e])))
            << "M " << c.M << " N " << c.N << " run " << run;
      const size_t copies = fw::exec::onednn::cachedWeightCopies() - before;
      if (oneDnnPacks()) {
        EXPECT_EQ(copies, c.packed ? 1u : 0u)
            << "M " << c.M << " N " << c.N << " K " << c.K << " run " << run;
      } else {
        EXPECT_LE(copies, c.packed ? 1u : 0u)
            << "M " << c.M << " N " << c.N << " K " << c.K << " run " << run;
      }
    }
    B.reset();  // the weight is gone: so is its copy
    EXPECT_EQ(fw::exec::onednn::cachedWeightCopies(), before) << "M " << c.M << " N " << c.N;
  }
  // A recurrent step's R given at preparation: each run reads the packed copy.
  const int64_t M = 1, N = 128, K = 32;
  const size_t before = fw::exec::onednn::cachedWeightCopies();
  auto R = std::make_shared<std::vector<float>>(pattern(static_cast<size_t>(N * K), 6));
  fw::exec::PreparedGemm step(true, M, N, K, K, K, N, R->data(), R);
  if (oneDnnPacks()) {
    EXPECT_EQ(fw::exec::onednn::cachedWeightCopies(), before + 1);
  } else {
    EXPECT_LE(fw::exec::onednn::cachedWeightCopies(), before + 1);
  }
  for (int run = 0; run < 3; ++run) {
    const auto h = pattern(static_cast<size_t>(K), 10 + run);
    std::vector<float> C(static_cast<size_t>(N));
    step.run(h.data(), R->data(), C.data());
    for (int64_t j = 0; j < N; ++j) {
      double want = 0;
      for (int64_t k = 0; k < K; ++k)
        want += static_cast<double>(h[static_cast<size_t>(k)]) * (*R)[static_cast<size_t>(j * K + k)];
      ASSERT_NEAR(C[static_cast<size_t>(j)], want, 1e-4 * (1 + std::abs(want)))
          << "run " << run << " at " << j;
    }
  }
}

// Rows against one column ([M, K] x [K, 1], a regression or scoring head) take the executor's own dot
// loop on one thread: sixteen lanes, four rows at a time, the last K mod 16 elements after them. Every row
// count around the block of four, every K around the lanes, B stored either way, a strided C, alpha and
// beta (a Gemm's bias in C) must give the index loop's product and leave C's other columns alone. (CI runs
// this under ONEDNN_MAX_CPU_ISA=SSE41 too: the loop's plain build.)
TEST(Sgemm, RowsAgainstOneColumnMatchAnIndexLoop) {
  fw::exec::ThreadBudget one(1);
  for (bool transB : {false, true})
    for (int64_t M : {1, 3, 4, 7, 128})
      for (int64_t K : {1, 15, 16, 17, 270})
        for (auto [alpha, beta] : {std::pair{1.f, 0.f}, std::pair{-0.5f, 0.f}, std::pair{1.f, 1.f}}) {
          const int64_t lda = K + 3, ldc = 3;
          const auto A = pattern(static_cast<size_t>(M * lda), static_cast<int>(K));
          const auto B = pattern(static_cast<size_t>(K), static_cast<int>(M) + 1);
          std::vector<float> C(static_cast<size_t>(M * ldc), 7.f);
          fw::exec::sgemm(false, transB, M, 1, K, alpha, A.data(), lda, B.data(), transB ? K : 1, beta,
                          C.data(), ldc);
          for (int64_t i = 0; i < M; ++i) {
            double want = 0;
            for (int64_t k = 0; k < K; ++k)
              want += static_cast<double>(A[static_cast<size_t>(i * lda + k)]) * B[static_cast<size_t>(k)];
            want = alpha * want + beta * 7.0;  // C held 7: a Gemm's bias
            ASSERT_NEAR(C[static_cast<size_t>(i * ldc)], want, 1e-5 * (1 + std::abs(want)))
                << "transB " << transB << " M " << M << " K " << K << " alpha " << alpha << " beta " << beta
                << " row " << i;
            EXPECT_EQ(C[static_cast<size_t>(i * ldc + 1)], 7.f);
            EXPECT_EQ(C[static_cast<size_t>(i * ldc + 2)], 7.f);
          }
        }
}

// The dot loop's sums are the same bits on every build: lane l adds the elements k = l mod 16 in order (a
// multiply, then an add), the last K mod 16 elements go to lanes 0.., then halves are added pairwise (8, 4,
// 2, 1). Since session 71 the AVX2 build does the tail and the halves in registers; it must still give these
// bits exactly (CI runs this under ONEDNN_MAX_CPU_ISA=SSE41 too: the plain build). The operands are random
// floats of both signs over six binary orders of magnitude, so a sum in any other order rounds differently
// (with the halves added 1, 2, 4, 8 instead, 460 of the 888 rows here differ), and rows lie further apart
// than K (a row stride of K + 3).
TEST(Sgemm, RowsAgainstOneColumnSumInOneOrderOnEveryBuild) {
  fw::exec::ThreadBudget one(1);
  std::mt19937 rng(71);
  std::uniform_real_distribution<float> mantissa(1.f, 2.f);
  std::uniform_int_distribution<int> exponent(-3, 2), sign(0, 1);
  auto randoms = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = (sign(rng) != 0 ? -1.f : 1.f) * std::ldexp(mantissa(rng), exponent(rng));
    return v;
  };
  for (int64_t M : {1, 4, 5, 9})
    for (int64_t K : {1, 4, 8, 9, 15, 16, 17, 20, 31, 52, 88, 270})
      for (int64_t lda : {K, K + 3})
        for (auto [alpha, beta] : {std::pair{1.f, 0.f}, std::pair{0.75f, 1.f}}) {
          if (lda != K && M == 1) continue;  // one row: the stride is never read
          const auto A = randoms(static_cast<size_t>(M * lda));
          const auto B = randoms(static_cast<size_t>(K));
          std::vector<float> C(static_cast<size_t>(M), 0.3f);
          fw::exec::sgemm(false, false, M, 1, K, alpha, A.data(), lda, B.data(), 1, beta, C.data(), 1);
          for (int64_t i = 0; i < M; ++i) {
            const float* a = A.data() + i * lda;
            float acc[16] = {};
            int64_t k = 0;
            for (; k + 16 <= K; k += 16)
              for (int64_t l = 0; l < 16; ++l) {
                const float prod = a[k + l] * B[static_cast<size_t>(k + l)];
                acc[l] = acc[l] + prod;
              }
            for (int64_t l = 0; k + l < K; ++l) {
              const float prod = a[k + l] * B[static_cast<size_t>(k + l)];
              acc[l] = acc[l] + prod;
            }
            for (int64_t w = 8; w > 0; w /= 2)
              for (int64_t l = 0; l < w; ++l) acc[l] = acc[l] + acc[l + w];
            const float v = alpha == 1.f ? acc[0] : alpha * acc[0];
            const float want = beta == 0.f ? v : v + beta * 0.3f;
            EXPECT_EQ(C[static_cast<size_t>(i)], want)
                << "M " << M << " K " << K << " lda " << lda << " beta " << beta << " row " << i;
          }
        }
}

// A product's primitive, descriptors and memory objects are kept between calls of the same shape (a
// thread's cache); each call must still read its own operands and write its own output, with a weight
// as stored, a model's weight on its packed copy, a row bias and a Relu.
TEST(Sgemm, RepeatedCallsOfOneShapeReadTheirOwnOperands) {
  fw::exec::ThreadBudget one(1);
  const int64_t M = 6, N = 40, K = 24;
  auto owned = std::make_shared<std::vector<float>>(pattern(static_cast<size_t>(N * K), 9));
  for (int call = 0; call < 4; ++call) {
    const auto A = pattern(static_cast<size_t>(M * K), 20 + call);
    const auto B = pattern(static_cast<size_t>(K * N), 30 + call);
    const auto bias = pattern(static_cast<size_t>(M), 40 + call);
    auto product = [&](const std::vector<float>& b, bool transB, int64_t i, int64_t j) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += static_cast<double>(A[static_cast<size_t>(i * K + k)]) *
             b[static_cast<size_t>(transB ? j * K + k : k * N + j)];
      return s;
    };
    std::vector<float> plain(static_cast<size_t>(M * N), 3.f), packed(plain), biased(plain);
    fw::exec::sgemm(false, false, M, N, K, 1.f, A.data(), K, B.data(), N, 0.f, plain.data(), N);
    fw::exec::sgemm(false, true, M, N, K, 1.f, A.data(), K, owned->data(), K, 0.f, packed.data(), N, owned);
    fw::exec::sgemmRowBias(M, N, K, A.data(), B.data(), bias.data(), biased.data(), call % 2 == 1);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        const size_t e = static_cast<size_t>(i * N + j);
        const double p = product(B, false, i, j), q = product(*owned, true, i, j);
        double r = p + bias[static_cast<size_t>(i)];
        if (call % 2 == 1) r = std::max(r, 0.0);
        ASSERT_NEAR(plain[e], p, 1e-4 * (1 + std::abs(p))) << "call " << call << " at " << i << "," << j;
        ASSERT_NEAR(packed[e], q, 1e-4 * (1 + std::abs(q))) << "call " << call << " at " << i << "," << j;
        ASSERT_NEAR(biased[e], r, 1e-4 * (1 + std::abs(r))) << "call " << call << " at " << i << "," << j;
      }
  }
}

// Only a model's own tensor has an owner that outlives the run (what the packed copies key on); a
// run's buffer and a caller's input do not.
TEST(RtTensor, OnlyAModelsOwnTensorHasAConstantOwner) {
  const fw::Tensor w = fw::Tensor::floats({4, 8}, std::vector<float>(32, 0.5f));
  EXPECT_FALSE(fw::exec::RtTensor::fromModelTensor(w).constantOwner().expired());
  EXPECT_FALSE(fw::exec::RtTensor::fromModelTensor(w).reshaped({32}).constantOwner().expired());
  EXPECT_TRUE(fw::exec::RtTensor::fromTensor(w).constantOwner().expired());
  EXPECT_TRUE(fw::exec::RtTensor::alloc(fw::DType::Float32, {4, 8}).constantOwner().expired());
}
