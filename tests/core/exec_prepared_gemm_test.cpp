// core/exec/Gemm.h: a PreparedGemm run many times on new operands gives the products an index-by-index
// loop gives, with and without the transposed weights, with row strides wider than the rows, and for an
// empty sum.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/exec/Gemm.h"

namespace {

std::vector<float> pattern(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 7 + static_cast<size_t>(seed) * 13) % 17) - 8) / 8.f;
  return v;
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
