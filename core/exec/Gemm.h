#pragma once
// Internal to core/exec: single-precision GEMM on row-major matrices, on oneDNN's matmul primitive
// (OneDnn.h: cached per shape and attributes, threads from the executor's budget); one row against a
// [K, N] weight whose rows are a multiple of 4 KiB apart runs the executor's own loop on one thread
// (Gemm.cpp says why).
#include <cstdint>
#include <memory>

namespace fw::exec {

// C[M,N] = alpha * op(A) * op(B) + beta * C. op(A) is [M,K]; lda/ldb/ldc are row strides of the
// matrices as stored. beta == 0 ignores C's previous contents (may be uninitialised).
// bOwner: B's RtTensor::constantOwner() when B is a model's weight. B then runs on a copy in oneDNN's
// own layout, made once per weight (Gemm.cpp, packedWeights, says why and what it measured).
void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
           int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
           const std::weak_ptr<const void>& bOwner = {});

// C[M,N] = op(A) * op(B) + bias[j] on every column j: a Gemm whose C is one value a column (PyTorch's
// Linear), as oneDNN's matmul bias. Filling C with the bias and accumulating the product into it (beta = 1)
// took 1.5x the product alone (Gemm.cpp says what was measured). bias may be null; relu: C = max(C, 0) in the
// same pass (oneDNN post-op).
void sgemmColumnBias(bool transA, bool transB, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                     const float* B, int64_t ldb, const float* bias, float* C, int64_t ldc,
                     const std::weak_ptr<const void>& bOwner = {}, bool relu = false);

// `batch` independent products C[b] = op(A[b]) * op(B[b]), the matrices strideA/strideB/strideC
// elements apart (each > 0), in one primitive; many small ones (16 rows or fewer, B not transposed, at most
// 2048 multiply-adds each) on the executor's own row loop (Gemm.cpp says what was measured).
// Whether sgemmBatched runs these products on the executor's row loop (the cost model asks too).
bool smallProductsOnRowLoop(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K);
void sgemmBatched(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K, const float* A,
                  int64_t lda, int64_t strideA, const float* B, int64_t ldb, int64_t strideB, float* C, int64_t ldc,
                  int64_t strideC);

// C[M,N] = A[M,K] * B[K,N] + bias[i] on every row i (no bias when null); all rows contiguous.
// relu: C = max(C, 0) in the same pass (oneDNN post-op; a Conv's Relu epilogue).
// ldb: B's row stride (0: N).
void sgemmRowBias(int64_t M, int64_t N, int64_t K, const float* A, const float* B, const float* bias,
                  float* C, bool relu = false, int64_t ldb = 0);

// One product C[M,N] = A[M,K] * op(B) (op(B) = B^T when transB; row strides lda/ldb/ldc), prepared once
// and run many times on new operands: a recurrent layer's step, which before paid the primitive's lookup
// (a key string, three descriptors, three memory objects) on every step. Not for concurrent runs of one
// object (its memory objects are rebound by each run). With constantB and its owner (a layer's R), B is
// packed as sgemm's bOwner says, once, and run() then reads that copy, whatever B it is given.
class PreparedGemm {
 public:
  PreparedGemm(bool transB, int64_t M, int64_t N, int64_t K, int64_t lda, int64_t ldb, int64_t ldc,
               const float* constantB = nullptr, const std::weak_ptr<const void>& bOwner = {});
  void run(const float* A, const float* B, float* C);

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace fw::exec
