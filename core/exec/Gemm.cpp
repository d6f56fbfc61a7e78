#include "core/exec/Gemm.h"

#include <Eigen/Core>

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
  auto run = [&](const auto& pa, const auto& pb) {
    if (beta == 0.f) {
      c.noalias() = alpha * (pa * pb);
    } else {
      if (beta != 1.f) c *= beta;
      c.noalias() += alpha * (pa * pb);
    }
  };
  if (!transA && !transB) run(a, b);
  else if (transA && !transB) run(a.transpose(), b);
  else if (!transA && transB) run(a, b.transpose());
  else run(a.transpose(), b.transpose());
}

}  // namespace fw::exec
