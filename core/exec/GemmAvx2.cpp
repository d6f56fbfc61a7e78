// A packed single-precision GEMM for x86-64 CPUs with AVX2 + FMA, compiled for that target with
// function attributes (the rest of the build stays generic x86-64) and chosen at run time. The
// structure is the classic one: B is packed into 16-wide column panels per K block, A into 6-high row
// panels per (M, K) block, and a 6x16 register-tile micro-kernel accumulates in 12 ymm registers.
// Threads (ThreadPool.h) split C into a few coarse slabs along its larger dimension — rows in steps of
// 6, columns in steps of 16, so each element's arithmetic is the same whatever the split — and each
// packs its own operands into reused per-thread buffers: one parallel call per GEMM, no barriers.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/exec/ThreadPool.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FW_HAVE_AVX2_GEMM 1
#endif

namespace fw::exec {

#ifdef FW_HAVE_AVX2_GEMM

namespace {

constexpr int64_t kMR = 6, kNR = 16, kKC = 256, kMC = 120, kNC = 2048;  // kNC: a multiple of kNR

// Element (i, k) of op(A) and (k, j) of op(B).
inline float aAt(const float* A, int64_t lda, bool tA, int64_t i, int64_t k) { return tA ? A[k * lda + i] : A[i * lda + k]; }

// Packs op(B)[k0:k0+kc, n0:n1] into panels of 16 columns: panel p holds kc rows of 16 floats.
void packB(const float* B, int64_t ldb, bool tB, int64_t k0, int64_t kc, int64_t n0, int64_t n1, float* out) {
  const int64_t panels = (n1 - n0 + kNR - 1) / kNR;
  for (int64_t p = 0; p < panels; ++p) {
    float* dst = out + p * kc * kNR;
    const int64_t j0 = n0 + p * kNR, w = std::min(kNR, n1 - j0);
    for (int64_t k = 0; k < kc; ++k) {
      float* row = dst + k * kNR;
      if (!tB) {
        const float* src = B + (k0 + k) * ldb + j0;
        std::memcpy(row, src, static_cast<size_t>(w) * sizeof(float));
      } else {
        for (int64_t j = 0; j < w; ++j) row[j] = B[(j0 + j) * ldb + k0 + k];
      }
      for (int64_t j = w; j < kNR; ++j) row[j] = 0.f;
    }
  }
}

// Packs op(A)[i0:i0+mc, k0:k0+kc] into panels of 6 rows: panel q holds kc columns of 6 floats.
void packA(const float* A, int64_t lda, bool tA, int64_t i0, int64_t mc, int64_t k0, int64_t kc, float* out) {
  const int64_t panels = (mc + kMR - 1) / kMR;
  for (int64_t q = 0; q < panels; ++q) {
    float* dst = out + q * kc * kMR;
    const int64_t r0 = i0 + q * kMR, h = std::min(kMR, i0 + mc - r0);
    if (!tA) {
      for (int64_t r = 0; r < h; ++r) {
        const float* src = A + (r0 + r) * lda + k0;
        for (int64_t k = 0; k < kc; ++k) dst[k * kMR + r] = src[k];
      }
    } else {
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t r = 0; r < h; ++r) dst[k * kMR + r] = aAt(A, lda, true, r0 + r, k0 + k);
    }
    for (int64_t r = h; r < kMR; ++r)
      for (int64_t k = 0; k < kc; ++k) dst[k * kMR + r] = 0.f;
  }
}

// C tile (h x w, at most 6 x 16) = alpha * Apanel * Bpanel + beta * C.
__attribute__((target("avx2,fma"))) void microKernel(int64_t kc, const float* a, const float* b, float* C, int64_t ldc,
                                                     int64_t h, int64_t w, float alpha, float beta) {
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(), c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
  __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  for (int64_t k = 0; k < kc; ++k) {
    const __m256 b0 = _mm256_loadu_ps(b + k * kNR), b1 = _mm256_loadu_ps(b + k * kNR + 8);
    const float* ak = a + k * kMR;
    __m256 av = _mm256_broadcast_ss(ak + 0);
    c00 = _mm256_fmadd_ps(av, b0, c00);
    c01 = _mm256_fmadd_ps(av, b1, c01);
    av = _mm256_broadcast_ss(ak + 1);
    c10 = _mm256_fmadd_ps(av, b0, c10);
    c11 = _mm256_fmadd_ps(av, b1, c11);
    av = _mm256_broadcast_ss(ak + 2);
    c20 = _mm256_fmadd_ps(av, b0, c20);
    c21 = _mm256_fmadd_ps(av, b1, c21);
    av = _mm256_broadcast_ss(ak + 3);
    c30 = _mm256_fmadd_ps(av, b0, c30);
    c31 = _mm256_fmadd_ps(av, b1, c31);
    av = _mm256_broadcast_ss(ak + 4);
    c40 = _mm256_fmadd_ps(av, b0, c40);
    c41 = _mm256_fmadd_ps(av, b1, c41);
    av = _mm256_broadcast_ss(ak + 5);
    c50 = _mm256_fmadd_ps(av, b0, c50);
    c51 = _mm256_fmadd_ps(av, b1, c51);
  }
  alignas(32) float tile[kMR * kNR];
  _mm256_store_ps(tile + 0, c00);
  _mm256_store_ps(tile + 8, c01);
  _mm256_store_ps(tile + 16, c10);
  _mm256_store_ps(tile + 24, c11);
  _mm256_store_ps(tile + 32, c20);
  _mm256_store_ps(tile + 40, c21);
  _mm256_store_ps(tile + 48, c30);
  _mm256_store_ps(tile + 56, c31);
  _mm256_store_ps(tile + 64, c40);
  _mm256_store_ps(tile + 72, c41);
  _mm256_store_ps(tile + 80, c50);
  _mm256_store_ps(tile + 88, c51);
  for (int64_t r = 0; r < h; ++r) {
    float* crow = C + r * ldc;
    const float* t = tile + r * kNR;
    if (beta == 0.f) {
      for (int64_t j = 0; j < w; ++j) crow[j] = alpha * t[j];
    } else {
      for (int64_t j = 0; j < w; ++j) crow[j] = alpha * t[j] + beta * crow[j];
    }
  }
}

// C[i0:i1, j0:j1] of the product, all of K, in column blocks of at most kNC (so the reused packing
// buffers stay small: kNC * kKC floats for B). j0 is a multiple of 16.
void gemmSlab(bool tA, bool tB, int64_t i0, int64_t i1, int64_t j0, int64_t j1, int64_t K, float alpha,
              const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  thread_local std::vector<float> bpack, apack;  // reused across calls: no allocation per GEMM
  const int64_t kcMax = std::min(K, kKC);
  bpack.resize(std::max(bpack.size(), static_cast<size_t>(std::min(kNC, (j1 - j0 + kNR - 1) / kNR * kNR) * kcMax)));
  apack.resize(std::max(apack.size(), static_cast<size_t>(kMC * kcMax)));
  for (int64_t jc = j0; jc < j1; jc += kNC) {
    const int64_t jcEnd = std::min(j1, jc + kNC), panelsN = (jcEnd - jc + kNR - 1) / kNR;
    for (int64_t k0 = 0; k0 < K; k0 += kKC) {
      const int64_t kc = std::min(kKC, K - k0);
      const float b = k0 == 0 ? beta : 1.f;
      packB(B, ldb, tB, k0, kc, jc, jcEnd, bpack.data());
      for (int64_t ib = i0; ib < i1; ib += kMC) {
        const int64_t mh = std::min(kMC, i1 - ib);
        packA(A, lda, tA, ib, mh, k0, kc, apack.data());
        for (int64_t p = 0; p < panelsN; ++p) {
          const int64_t jp = jc + p * kNR, w = std::min(kNR, jcEnd - jp);
          for (int64_t q = 0; q * kMR < mh; ++q) {
            const int64_t r0 = ib + q * kMR, h = std::min(kMR, i1 - r0);
            microKernel(kc, apack.data() + q * kc * kMR, bpack.data() + p * kc * kNR, C + r0 * ldc + jp, ldc, h, w,
                        alpha, b);
          }
        }
      }
    }
  }
}

}  // namespace

bool avx2GemmAvailable() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok;
}

void sgemmAvx2(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
               const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  // One slab per thread, and at least kMinFlops multiply-adds per slab: waking a worker costs
  // microseconds. (Four slabs per thread, for finer balancing, measured ~6% slower on ResNet-50.)
  // Split the larger side: the duplicated packing of the other operand costs (threads / larger
  // side) of the arithmetic.
  constexpr int64_t kMinFlops = 1 << 18;
  const bool splitN = N > M;
  const int64_t unit = splitN ? kNR : kMR, units = ((splitN ? N : M) + unit - 1) / unit;
  const int64_t slabs = std::min<int64_t>({parallelThreads(), units, M * N * K / kMinFlops});
  if (slabs <= 1) {
    gemmSlab(tA, tB, 0, M, 0, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  parallelChunks(slabs, [&](int64_t s) {
    const int64_t u0 = units * s / slabs, u1 = units * (s + 1) / slabs;
    if (splitN)
      gemmSlab(tA, tB, 0, M, u0 * kNR, std::min(N, u1 * kNR), K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
      gemmSlab(tA, tB, u0 * kMR, std::min(M, u1 * kMR), 0, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  });
}

#else

bool avx2GemmAvailable() { return false; }
void sgemmAvx2(bool, bool, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t, float, float*,
               int64_t) {}

#endif

}  // namespace fw::exec
