#include "core/exec/Gemm.h"

// The executor's thread pool splits the rows itself; Eigen must not start OpenMP threads of its own.
#define EIGEN_DONT_PARALLELIZE
#include <Eigen/Core>

#include <algorithm>

#include "core/exec/ThreadPool.h"

namespace fw::exec {

namespace {
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat, Eigen::Unaligned, Eigen::OuterStride<>>;
using MutMap = Eigen::Map<RowMat, Eigen::Unaligned, Eigen::OuterStride<>>;
}  // namespace

void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
           const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  if (M <= 0 || N <= 0) return;
  MutMap c(C, M, N, Eigen::OuterStride<>(ldc));
  if (K <= 0) {
    if (beta == 0.f) c.setZero();
    else c *= beta;
    return;
  }
  if (avx2GemmAvailable()) {
    sgemmAvx2(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  // Stored shapes: A is [M,K] or [K,M]; B is [K,N] or [N,K].
  ConstMap a(A, transA ? K : M, transA ? M : K, Eigen::OuterStride<>(lda));
  ConstMap b(B, transB ? N : K, transB ? K : N, Eigen::OuterStride<>(ldb));
  // Row slabs of C on the thread pool (each row's arithmetic is independent of the split).
  const int64_t slabs = std::min<int64_t>({parallelThreads(), M, M * N * K / (int64_t{1} << 18)});
  auto run = [&](const auto& pa, const auto& pb) {
    auto slab = [&](int64_t r0, int64_t r1) {
      auto cc = c.middleRows(r0, r1 - r0);
      const auto ra = pa.middleRows(r0, r1 - r0);
      if (beta == 0.f) {
        cc.noalias() = alpha * (ra * pb);
      } else {
        if (beta != 1.f) cc *= beta;
        cc.noalias() += alpha * (ra * pb);
      }
    };
    if (slabs <= 1) slab(0, M);
    else parallelChunks(slabs, [&](int64_t s) { slab(M * s / slabs, M * (s + 1) / slabs); });
  };
  if (!transA && !transB) run(a, b);
  else if (transA && !transB) run(a.transpose(), b);
  else if (!transA && transB) run(a, b.transpose());
  else run(a.transpose(), b.transpose());
}

}  // namespace fw::exec
