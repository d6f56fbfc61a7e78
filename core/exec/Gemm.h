#pragma once
// Internal to core/exec: single-precision GEMM on row-major matrices (the AVX2 kernel, or Eigen on
// CPUs without it), split over the executor's thread pool (ThreadPool.h) when large enough.
#include <cstdint>

namespace fw::exec {

// C[M,N] = alpha * op(A) * op(B) + beta * C. op(A) is [M,K]; lda/ldb/ldc are row strides of the
// matrices as stored. beta == 0 ignores C's previous contents (may be uninitialised).
void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
           const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

// The AVX2/FMA kernel (GemmAvx2.cpp), used by sgemm when the CPU has it.
bool avx2GemmAvailable();
void sgemmAvx2(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
               const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

}  // namespace fw::exec
