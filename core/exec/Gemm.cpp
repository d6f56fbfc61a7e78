#include "core/exec/Gemm.h"

#include <immintrin.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>

#include "core/exec/OneDnn.h"
#include "core/exec/OpContext.h"

namespace fw::exec {

namespace {

using dnnl::memory;

struct Operand {
  memory::dims dims, strides;
};

// A [M,K] (or stored [K,M] when transposed) with row stride ld, optionally batched.
// A batch stride of 0 is one matrix every product reads: a batch axis of 1, which oneDNN's matmul broadcasts.
Operand operand(int64_t batch, int64_t rows, int64_t cols, bool trans, int64_t ld, int64_t stride) {
  Operand o;
  o.dims = {rows, cols};
  o.strides = trans ? memory::dims{1, ld} : memory::dims{ld, 1};
  if (batch > 1) {
    o.dims.insert(o.dims.begin(), stride == 0 ? 1 : batch);
    o.strides.insert(o.strides.begin(), stride == 0 ? ld * (trans ? cols : rows) : stride);
  }
  return o;
}

// Exact text of a float for cache keys.
std::string floatKey(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
  return buf;
}

// The cached primitive of one product shape and its operands' descriptors.
// w is the weights' layout as the primitive reads them: B as stored, or, for a product made with
// packedWeights, the layout oneDNN chose (the weights go through onednn::reorderedWeights first).
// A bias added to the product: none, one value a row of C (bias[i]; a 1x1 Conv's channels as rows) or one
// a column (bias[j]; a Gemm's C of [N], as PyTorch exports a Linear's bias).
enum class BiasAlong { None, Rows, Columns };

struct Product {
  std::shared_ptr<const onednn::CachedPrimitive> entry;
  std::string key;
  memory::desc a, w, c, bias, wStored;
};

// Whether a product with constant weights B runs on a copy in oneDNN's own weight layout: every model
// weight does (batch 1; the caller's owner says it outlives the run). oneDNN 2.6's matmul reads B as stored,
// and on the AVX-512 Xeon of sessions 26-30 every [K, N] layout is slower there than on the copy (one
// thread, a one-MatMul model, median of three interleaved profiles, session 30): 128x3072x768 (a
// transformer's second MLP product) 10379 against 5938 us, 50x768x2304 3951 against 2387, 8x1024x640
// 263 against 187, 1x2048x1000 609 against 462, 197x384x1152 2407 against 1947, 1x768x768 133 against
// 105; 1x64x4096 20 against 20. In two of three paired runs of the zoo BERT its 768x768
// products took 0.79-0.83 of their time as stored, its other kernels within 7 % (session 30). Session 14's
// machine (an AMD EPYC) gained 0-20 % on [K, N] weights except two layouts, where the copy was made alone:
// - B^T stored [N, K] (a Gemm with transB, a recurrent layer's W and R): few rows walk it down its
//   columns. 1x256x1024 (an LSTM step, H = 256) took 34.2 us against 12.3 on the packed copy,
//   1x1280x1000 210 against 72, 1x2048x1000 586 against 119, 64x3072x768 3220 against 2787.
// - B stored [K, N] with rows a multiple of 2 KiB apart, which share cache sets: 64x768x3072 4008
//   against 2805 us, 1x768x3072 178 against 56, 1x2048x512 145 against 46.
// The copy is made once per weight tensor and kept while the tensor lives (memory: one more copy of
// the model's matrix weights; docs/executor.md has the peak RSS). A B the run computes is read as stored.
bool packedWeights(const std::weak_ptr<const void>& bOwner) { return !bOwner.expired(); }

Product productFor(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha,
                   int64_t lda, int64_t strideA, int64_t ldb, int64_t strideB, float beta, int64_t ldc,
                   int64_t strideC, BiasAlong bias, bool relu, bool packed = false) {
  const Operand a = operand(batch, M, K, transA, lda, strideA);
  const Operand w = operand(batch, K, N, transB, ldb, strideB);
  const Operand c = operand(batch, M, N, false, ldc, strideC);
  const int threads = onednn::useThreads();
  const std::string key = "matmul|" + onednn::dimsKey(a.dims) + "|" + onednn::dimsKey(a.strides) + "|" +
                          onednn::dimsKey(w.dims) + "|" + onednn::dimsKey(w.strides) + "|" +
                          onednn::dimsKey(c.strides) + "|" + floatKey(alpha) + "|" + floatKey(beta) + "|t" +
                          std::to_string(threads) +
                          (bias == BiasAlong::Rows      ? "|rowbias"
                           : bias == BiasAlong::Columns ? "|colbias"
                                                        : "") +
                          (relu ? "|relu" : "") + (packed ? "|packed" : "");
  Product p;
  p.key = key;
  p.a = memory::desc(a.dims, memory::data_type::f32, a.strides);
  p.wStored = memory::desc(w.dims, memory::data_type::f32, w.strides);
  p.w = packed ? memory::desc(w.dims, memory::data_type::f32, memory::format_tag::any) : p.wStored;
  p.c = memory::desc(c.dims, memory::data_type::f32, c.strides);
  memory::dims biasDims(c.dims.size(), 1);
  if (bias == BiasAlong::Rows) biasDims[biasDims.size() - 2] = M;
  if (bias == BiasAlong::Columns) biasDims.back() = N;
  if (bias != BiasAlong::None)
    p.bias = memory::desc(biasDims, memory::data_type::f32, onednn::contiguousStrides(biasDims));
  p.entry = onednn::cachedPrimitive(key, [&] {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (alpha != 1.f) attr.set_output_scales(0, {alpha});
    dnnl::post_ops po;
    if (beta != 0.f) po.append_sum(beta);
    if (relu) po.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
    if (po.len() > 0) attr.set_post_ops(po);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p.a, p.w, p.bias, p.c), attr, onednn::engine());
    return onednn::CachedPrimitive{pd, dnnl::matmul(pd), {}, {}};
  });
  if (packed) p.w = p.entry->pd.query_md(dnnl::query::weights_md);
  return p;
}

// A product as one thread calls it, kept between calls: its primitive and descriptors (productFor) and
// memory objects over no data, pointed at each call's operands. Made anew every call, the key's text, the
// descriptors and the memory objects took about 3 us of the 4 that a [2, 16] x [16, 32] product took
// (one thread, hot; oneDNN's own execution 0.7; session 29).
struct ProductCall {
  Product p;
  memory a, w, c, bias;  // w over B as stored (unused when the product reads a packed copy)
};

ProductCall& productCall(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K,
                         float alpha, int64_t lda, int64_t strideA, int64_t ldb, int64_t strideB, float beta,
                         int64_t ldc, int64_t strideC, BiasAlong bias, bool relu, bool packed) {
  thread_local std::unordered_map<std::string, ProductCall> calls;
  const int threads = onednn::useThreads();
  uint32_t alphaBits = 0, betaBits = 0;
  std::memcpy(&alphaBits, &alpha, sizeof alpha);
  std::memcpy(&betaBits, &beta, sizeof beta);
  const int64_t fields[] = {batch,
                            M,
                            N,
                            K,
                            lda,
                            strideA,
                            ldb,
                            strideB,
                            ldc,
                            strideC,
                            alphaBits,
                            betaBits,
                            threads,
                            (transA ? 1 : 0) | (transB ? 2 : 0) | (static_cast<int64_t>(bias) << 2) |
                                (relu ? 16 : 0) | (packed ? 32 : 0)};
  std::string key(reinterpret_cast<const char*>(fields), sizeof fields);
  if (auto it = calls.find(key); it != calls.end()) return it->second;
  if (calls.size() >= 4096) calls.clear();  // as many as the primitive cache keeps
  ProductCall pc;
  pc.p = productFor(batch, transA, transB, M, N, K, alpha, lda, strideA, ldb, strideB, beta, ldc, strideC,
                    bias, relu, packed);
  pc.a = onednn::wrap(pc.p.a, nullptr);
  pc.w = onednn::wrap(pc.p.wStored, nullptr);
  pc.c = onednn::wrap(pc.p.c, nullptr);
  if (bias != BiasAlong::None) pc.bias = onednn::wrap(pc.p.bias, nullptr);
  return calls.emplace(std::move(key), std::move(pc)).first->second;
}

// The weights as the product reads them: B itself, or its packed copy (cached per weight tensor).
memory weightsFor(const Product& p, const float* B, const std::weak_ptr<const void>& bOwner) {
  if (p.w == p.wStored) return onednn::wrap(p.w, B);
  return onednn::reorderedWeights(p.key, B, bOwner, p.wStored, p.w);
}

// One row against a weight stored [K, N] whose rows are a multiple of 4 KiB apart (a recurrent step
// unrolled into MatMuls, a decoder's token): C[0,:] = alpha * sum over k of A[0,k] * B[k,:], k in
// order, streaming B once. oneDNN's matmul walks such a B down its columns a block at a time, and rows
// that far apart share cache sets: [1,256] x [256,1024] took 36 us there against 16-23 us for this
// loop, [1,256] x [256,2048] 89 us against 37-44 us, [1,512] x [512,2048] 165 us against 76 us (one
// thread, hot). Elsewhere oneDNN is as fast or faster: [1,768] x [768,768] 37 us against 42,
// [1,2048] x [2048,1000] 124 against 147, and four rows [4,1024] x [1024,1024] 203 against 306.
__attribute__((always_inline)) inline void rowTimesMatrix(int64_t N, int64_t K, float alpha, const float* __restrict a,
                                                          const float* __restrict B, int64_t ldb, float* __restrict c) {
  std::fill(c, c + N, 0.f);
  for (int64_t k = 0; k < K; ++k) {
    const float ak = a[k];
    const float* __restrict b = B + k * ldb;
    for (int64_t j = 0; j < N; ++j) c[j] += ak * b[j];
  }
  if (alpha != 1.f)
    for (int64_t j = 0; j < N; ++j) c[j] *= alpha;
}
__attribute__((target("avx2"))) void rowTimesMatrixAvx2(int64_t N, int64_t K, float alpha, const float* a, const float* B,
                                                         int64_t ldb, float* c) {
  rowTimesMatrix(N, K, alpha, a, B, ldb, c);
}
void rowTimesMatrixBase(int64_t N, int64_t K, float alpha, const float* a, const float* B, int64_t ldb, float* c) {
  rowTimesMatrix(N, K, alpha, a, B, ldb, c);
}

// Rows against one column (a regression or scoring head, [M, K] x [K, 1]): C[i] = alpha * (A[i,:] . b)
// + beta * C[i] (a Gemm's bias), b contiguous. oneDNN 2.6's matmul has no fast path for one output column:
// [128, 270] x [270, 1] took 9-12 us there (one thread, hot; session 29). Each row's sum is sixteen partial
// sums (lane l takes the elements k = l mod 16), then the last K mod 16 elements, then halves added pairwise:
// the same order on every build and whichever rows are computed together.
inline float finishRowDot(float* acc, int64_t k, int64_t K, const float* a, const float* b, float alpha,
                          float beta, float c) {
  for (int64_t l = 0; k + l < K; ++l) acc[l] += a[k + l] * b[k + l];
  for (int64_t w = 8; w > 0; w /= 2)
    for (int64_t l = 0; l < w; ++l) acc[l] += acc[l + w];
  const float v = alpha == 1.f ? acc[0] : alpha * acc[0];
  return beta == 0.f ? v : v + beta * c;
}
void rowsDotVectorBase(int64_t M, int64_t K, float alpha, const float* A, int64_t lda, const float* b,
                       float beta, float* c, int64_t ldc) {
  for (int64_t i = 0; i < M; ++i) {
    const float* a = A + i * lda;
    float acc[16] = {};
    int64_t k = 0;
    for (; k + 16 <= K; k += 16)
      for (int64_t l = 0; l < 16; ++l) acc[l] += a[k + l] * b[k + l];
    c[i * ldc] = finishRowDot(acc, k, K, a, b, alpha, beta, c[i * ldc]);
  }
}
// R rows at a time, lanes 0-7 and 8-15 of each in two registers: the adds of R rows are independent.
template <int R>
__attribute__((target("avx2"), always_inline)) inline void rowsDotAvx2(int64_t K, float alpha, const float* A,
                                                                       int64_t lda, const float* b,
                                                                       float beta, float* c, int64_t ldc) {
  __m256 lo[R], hi[R];
  for (int r = 0; r < R; ++r) lo[r] = hi[r] = _mm256_setzero_ps();
  int64_t k = 0;
  for (; k + 16 <= K; k += 16) {
    const __m256 b0 = _mm256_loadu_ps(b + k), b1 = _mm256_loadu_ps(b + k + 8);
    for (int r = 0; r < R; ++r) {
      lo[r] = _mm256_add_ps(lo[r], _mm256_mul_ps(_mm256_loadu_ps(A + r * lda + k), b0));
      hi[r] = _mm256_add_ps(hi[r], _mm256_mul_ps(_mm256_loadu_ps(A + r * lda + k + 8), b1));
    }
  }
  // The last K mod 16 elements and the pairwise halves in registers, each lane's multiply then add as
  // finishRowDot does them (the same bits): its scalar steps took most of a short row's time (a
  // squeeze-excitation's expanding 1x1 Conv 52 -> 1248 over one position, K = 52: 22 ns a row, 27 us an
  // image, against 2.4 us for the 52 x 1248 multiply-adds; session 71).
  const int64_t tail = K - k;
  alignas(32) static const int32_t kLanes[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const __m256i lanesLo = _mm256_load_si256(reinterpret_cast<const __m256i*>(kLanes)),
                lanesHi = _mm256_load_si256(reinterpret_cast<const __m256i*>(kLanes + 8));
  const __m256i n = _mm256_set1_epi32(static_cast<int32_t>(tail));
  const __m256i maskLo = _mm256_cmpgt_epi32(n, lanesLo), maskHi = _mm256_cmpgt_epi32(n, lanesHi);
  const __m256 b0 = _mm256_maskload_ps(b + k, maskLo), b1 = _mm256_maskload_ps(b + k + 8, maskHi);
  for (int r = 0; r < R; ++r) {
    const float* a = A + r * lda + k;
    // Lanes past the tail add 0 x 0 = +0, which leaves their sum as it is: a lane's sum starts at +0 and
    // never becomes -0 (x + -x rounds to +0), and only -0 + +0 would change.
    lo[r] = _mm256_add_ps(lo[r], _mm256_mul_ps(_mm256_maskload_ps(a, maskLo), b0));
    hi[r] = _mm256_add_ps(hi[r], _mm256_mul_ps(_mm256_maskload_ps(a + 8, maskHi), b1));
    // acc[l] += acc[l + 8], then + 4, + 2, + 1: lane l of each step the same add.
    const __m256 s8 = _mm256_add_ps(lo[r], hi[r]);
    const __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1));
    const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    const __m128 s1 = _mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1));
    const float sum = _mm_cvtss_f32(s1);
    const float v = alpha == 1.f ? sum : alpha * sum;
    c[r * ldc] = beta == 0.f ? v : v + beta * c[r * ldc];
  }
}
__attribute__((target("avx2"))) void rowsDotVectorAvx2(int64_t M, int64_t K, float alpha, const float* A,
                                                       int64_t lda, const float* b, float beta, float* c,
                                                       int64_t ldc) {
  int64_t i = 0;
  for (; i + 4 <= M; i += 4) rowsDotAvx2<4>(K, alpha, A + i * lda, lda, b, beta, c + i * ldc, ldc);
  for (; i < M; ++i) rowsDotAvx2<1>(K, alpha, A + i * lda, lda, b, beta, c + i * ldc, ldc);
}

// A small product's rows R at a time, the sums of 16 (or 8) columns of each in registers across the whole K:
// C[i, j] = sum over k in order of A[i, k] * B[k, j], each step a multiply then an add, as rowTimesMatrix
// adds them (the same bits). rowTimesMatrix keeps a row of C in memory, each k loading and storing it,
// every step waiting on the last one's store: 1024 products of 16 x 8 x 16 (a TabTransformer's attention
// over 16 columns, set 64) ran at half the rate the cost model expects of them (session 53).
template <int R>
__attribute__((target("avx2"), always_inline)) inline void smallRowsAvx2(int64_t N, int64_t K, const float* A,
                                                                         int64_t lda, const float* B,
                                                                         int64_t ldb, float* C, int64_t ldc) {
  int64_t j = 0;
  for (; j + 16 <= N; j += 16) {
    __m256 lo[R], hi[R];
    for (int r = 0; r < R; ++r) lo[r] = hi[r] = _mm256_setzero_ps();
    for (int64_t k = 0; k < K; ++k) {
      const __m256 b0 = _mm256_loadu_ps(B + k * ldb + j), b1 = _mm256_loadu_ps(B + k * ldb + j + 8);
      for (int r = 0; r < R; ++r) {
        const __m256 a = _mm256_broadcast_ss(A + r * lda + k);
        lo[r] = _mm256_add_ps(lo[r], _mm256_mul_ps(a, b0));
        hi[r] = _mm256_add_ps(hi[r], _mm256_mul_ps(a, b1));
      }
    }
    for (int r = 0; r < R; ++r) {
      _mm256_storeu_ps(C + r * ldc + j, lo[r]);
      _mm256_storeu_ps(C + r * ldc + j + 8, hi[r]);
    }
  }
  if (j + 8 <= N) {  // 8 columns left: plain loads and stores
    __m256 acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps();
    for (int64_t k = 0; k < K; ++k) {
      const __m256 b = _mm256_loadu_ps(B + k * ldb + j);
      for (int r = 0; r < R; ++r)
        acc[r] = _mm256_add_ps(acc[r], _mm256_mul_ps(_mm256_broadcast_ss(A + r * lda + k), b));
    }
    for (int r = 0; r < R; ++r) _mm256_storeu_ps(C + r * ldc + j, acc[r]);
    j += 8;
  }
  // The last 1-7 columns read under a mask (nothing read or written past N), written through a buffer.
  // Every column went this way, 8 at a time, before, written by a masked store, which costs this CPU (AMD
  // EPYC) far more than a plain one: 49152 products of 8 x 8 x 8 (a JPEG-style DCT, set 76) took 6.3 ms,
  // 128 ns each, and 1.36 with plain stores; [4096, 8, 16] x [4096, 16, 4] 471 us masked (1 thread,
  // session 61).
  for (; j < N; j += 8) {
    {
      const int64_t w = std::min<int64_t>(8, N - j);
      alignas(32) int32_t lanes[8];
      for (int l = 0; l < 8; ++l) lanes[l] = l < w ? -1 : 0;
      const __m256i mask = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
      __m256 acc[R];
      for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps();
      for (int64_t k = 0; k < K; ++k) {
        const __m256 b = _mm256_maskload_ps(B + k * ldb + j, mask);
        for (int r = 0; r < R; ++r)
          acc[r] = _mm256_add_ps(acc[r], _mm256_mul_ps(_mm256_broadcast_ss(A + r * lda + k), b));
      }
      alignas(32) float out[8];  // stored whole, then the w columns copied: no masked store
      for (int r = 0; r < R; ++r) {
        _mm256_store_ps(out, acc[r]);
        std::memcpy(C + r * ldc + j, out, static_cast<size_t>(w) * sizeof(float));
      }
    }
  }
}
__attribute__((target("avx2"))) void smallProductAvx2(int64_t M, int64_t N, int64_t K, const float* A,
                                                      int64_t lda, const float* B, int64_t ldb, float* C,
                                                      int64_t ldc) {
  int64_t i = 0;
  for (; i + 4 <= M; i += 4) smallRowsAvx2<4>(N, K, A + i * lda, lda, B, ldb, C + i * ldc, ldc);
  for (; i < M; ++i) smallRowsAvx2<1>(N, K, A + i * lda, lda, B, ldb, C + i * ldc, ldc);
}

// Whether the AVX2 build of the loop may run: the CPU has AVX2 and oneDNN is not capped below it
// (ONEDNN_MAX_CPU_ISA=SSE41 or AVX, as CI runs the float tests), so the loop runs as the capped CPU would.
bool rowLoopAvx2() {
  static const bool yes = [] {
    std::string cap = std::getenv("ONEDNN_MAX_CPU_ISA") ? std::getenv("ONEDNN_MAX_CPU_ISA") : "";
    for (char& ch : cap) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return __builtin_cpu_supports("avx2") && cap != "sse41" && cap != "avx";
  }();
  return yes;
}

void matmul(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha,
            const float* A, int64_t lda, int64_t strideA, const float* B, int64_t ldb, int64_t strideB,
            float beta, float* C, int64_t ldc, int64_t strideC, const float* bias = nullptr,
            BiasAlong along = BiasAlong::None, bool relu = false,
            const std::weak_ptr<const void>& bOwner = {}) {
  if (!bias) along = BiasAlong::None;
  if (M <= 0 || N <= 0 || batch <= 0) return;
  if (K <= 0) {  // an empty sum: C = beta * C
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < M; ++i) {
        float* row = C + b * strideC + i * ldc;
        for (int64_t j = 0; j < N; ++j) {
          const float v = (beta == 0.f ? 0.f : beta * row[j]) + (along == BiasAlong::Rows      ? bias[i]
                                                                 : along == BiasAlong::Columns ? bias[j]
                                                                                               : 0.f);
          row[j] = relu && v < 0 ? 0.f : v;
        }
      }
    return;
  }
  // The loop above on one thread (with more, oneDNN spreads the columns over them); the products
  // differ from oneDNN's only in rounding.
  if (batch == 1 && !transA && !transB && M == 1 && N >= 64 && (ldb * 4) % 4096 == 0 && beta == 0.f &&
      !bias && !relu && onednn::useThreads() == 1) {
    (rowLoopAvx2() ? rowTimesMatrixAvx2 : rowTimesMatrixBase)(N, K, alpha, A, B, ldb, C);
    return;
  }
  if (batch == 1 && !transA && N == 1 && (transB || ldb == 1) && !bias && !relu &&
      onednn::useThreads() == 1) {
    (rowLoopAvx2() ? rowsDotVectorAvx2 : rowsDotVectorBase)(M, K, alpha, A, lda, B, beta, C, ldc);
    return;
  }
  const bool packed = batch == 1 && packedWeights(bOwner);
  ProductCall& call = productCall(batch, transA, transB, M, N, K, alpha, lda, strideA, ldb, strideB, beta,
                                  ldc, strideC, along, relu, packed);
  const Product& p = call.p;
  call.a.set_data_handle(const_cast<float*>(A));
  call.c.set_data_handle(C);
  memory w = call.w;
  if (p.w == p.wStored)
    w.set_data_handle(const_cast<float*>(B));
  else
    w = weightsFor(p, B, bOwner);
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, call.a}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, call.c}};
  if (bias) {
    call.bias.set_data_handle(const_cast<float*>(bias));
    args.emplace(DNNL_ARG_BIAS, call.bias);
  }
  onednn::execute(p.entry->prim, p.entry->pd, std::move(args));
}

}  // namespace

void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
           int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
           const std::weak_ptr<const void>& bOwner) {
  matmul(1, transA, transB, M, N, K, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, nullptr, BiasAlong::None,
         false, bOwner);
}

// A Gemm's C of one value a column went into C first (a broadcast copy), then the product accumulated
// into it as oneDNN's sum post-op (beta = 1); as the primitive's bias it costs what the product alone
// does (1 thread, a chain of 12 Gemms with transB, medians of 3 interleaved profiles each, session 37):
// 256x64x64 17.3 -> 13.9 us (13.1 without a bias), 256x128x128 59 -> 50, 1024x64x64 66 -> 51.
void sgemmColumnBias(bool transA, bool transB, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                     const float* B, int64_t ldb, const float* bias, float* C, int64_t ldc,
                     const std::weak_ptr<const void>& bOwner, bool relu) {
  matmul(1, transA, transB, M, N, K, 1.f, A, lda, 0, B, ldb, 0, 0.f, C, ldc, 0, bias, BiasAlong::Columns,
         relu, bOwner);
}

bool smallProductsOnRowLoop(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K) {
  // (One column each goes to the rows-dot-vector loop, sgemmBatched: [256, 16, 64] x [256, 64, 1] 82.6 us
  // here, a column of one masked lane a row; session 82.)
  return batch > 1 && !transA && !transB && M > 0 && N > 1 && K > 0 && M <= 16 && M * N * K <= 2048;
}

void sgemmBatched(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K, const float* A,
                  int64_t lda, int64_t strideA, const float* B, int64_t ldb, int64_t strideB, float* C, int64_t ldc,
                  int64_t strideC) {
  // Many small products, B not transposed (a hypernetwork's [512, 1, 64] x [512, 64, 8], a few tokens a
  // head): oneDNN 2.6's batched matmul took about 0.5-0.9 us a matrix whatever its size. Each row against
  // its matrix on the row loop instead (1 thread, `fwb profile` of one MatMul, three alternating runs
  // each, session 43): [512, 1, 64] x [512, 64, 8] 230-238 -> 85-95 us, [1024, 2, 16] x [.., 16, 32]
  // 911 -> 141, [256, 2, 32] x [.., 32, 32] 176-264 -> 60-63, [256, 8, 8] x [.., 8, 8] 113 -> 62. Slower
  // there: 16 x 16 x 16 (207-356 against 207-395), 32 rows of 8 x 8 (131-152 against 158-244), and with
  // B transposed ([512, 4, 32] x [512, 16, 32]^T 272-508 against 376-700, as dot products).
  if (smallProductsOnRowLoop(batch, transA, transB, M, N, K)) {
    const bool avx2 = rowLoopAvx2();
    parallelFor(batch, M * N * K, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        const float *Ab = A + b * strideA, *Bb = B + b * strideB;
        float* Cb = C + b * strideC;
        if (avx2)
          smallProductAvx2(M, N, K, Ab, lda, Bb, ldb, Cb, ldc);
        else
          for (int64_t i = 0; i < M; ++i) rowTimesMatrixBase(N, K, 1.f, Ab + i * lda, Bb, ldb, Cb + i * ldc);
      }
    });
    return;
  }
  // Products of one column each (a batch of matrix-vector products: a solver's A p, a head's weights against
  // one vector each): each matrix's rows against its column on the rows-dot-vector loop, as one such
  // product alone runs, where oneDNN 2.6's batched matmul took 0.5 us a matrix (1 thread, a conjugate-
  // gradient step's [64, 48, 48] x [64, 48, 1]: 30.8 us a step measured, 10.5 simulated on that loop;
  // session 82). Each row's sum in the loop's fixed order, whichever thread computes it.
  if (batch > 1 && !transA && N == 1 && (transB || ldb == 1) && M > 0 && K > 0) {
    const bool avx2 = rowLoopAvx2();
    parallelFor(batch, M * K, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b)
        (avx2 ? rowsDotVectorAvx2 : rowsDotVectorBase)(M, K, 1.f, A + b * strideA, lda, B + b * strideB, 0.f,
                                                       C + b * strideC, ldc);
    });
    return;
  }
  matmul(batch, transA, transB, M, N, K, 1.f, A, lda, strideA, B, ldb, strideB, 0.f, C, ldc, strideC);
}

void sgemmRowBias(int64_t M, int64_t N, int64_t K, const float* A, const float* B, const float* bias,
                  float* C, bool relu, int64_t ldb) {
  if (ldb <= 0) ldb = N;
  // oneDNN 2.6 has no optimised matmul for a bias broadcast along rows (it falls back to its
  // reference kernel, ~500x slower on a ResNet-50 1x1 conv), and accumulating into a C pre-filled with
  // the bias (beta = 1) is ~3x slower than the plain product (a MobileNetV2 1x1 conv 24->144 at 56x56:
  // 211 us against 75 us): the product, then the bias (and the ReLU) in one pass over C.
  // One column (a 1x1 Conv over one position, as after a squeeze-excitation's pool) without a bias but
  // with a ReLU goes the same way: the product on the own rows-dot-vector loop, the ReLU after, where the
  // ReLU as oneDNN's post-op took its product (1 thread, fused: a [1, 64, 1, 1] -> 16 Conv 3.0 us there,
  // 1.2 here; [8, 256, 1, 1] -> 64, 40 and 10.5 us).
  if ((!bias && !(relu && N == 1)) || K <= 0)
    return matmul(1, false, false, M, N, K, 1.f, A, K, 0, B, ldb, 0, 0.f, C, N, 0, bias, BiasAlong::Rows,
                  relu);
  matmul(1, false, false, M, N, K, 1.f, A, K, 0, B, ldb, 0, 0.f, C, N, 0);
  parallelFor(M, N, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      float* row = C + i * N;
      const float v = bias ? bias[i] : 0.f;
      if (relu)
        for (int64_t j = 0; j < N; ++j) row[j] = std::max(row[j] + v, 0.f);
      else
        for (int64_t j = 0; j < N; ++j) row[j] += v;
    }
  });
}

struct PreparedGemm::Impl {
  Product p;
  int64_t M = 0, N = 0, K = 0, ldc = 0;
  memory a, w, c;
  bool fixedB = false;  // w holds the packed copy of the constant B given at preparation
};

PreparedGemm::PreparedGemm(bool transB, int64_t M, int64_t N, int64_t K, int64_t lda, int64_t ldb,
                           int64_t ldc, const float* constantB, const std::weak_ptr<const void>& bOwner)
    : impl_(std::make_shared<Impl>()) {
  impl_->M = M, impl_->N = N, impl_->K = K, impl_->ldc = ldc;
  if (M <= 0 || N <= 0 || K <= 0) return;
  const bool packed = constantB != nullptr && packedWeights(bOwner);
  impl_->p =
      productFor(1, false, transB, M, N, K, 1.f, lda, 0, ldb, 0, 0.f, ldc, 0, BiasAlong::None, false, packed);
  impl_->a = onednn::wrap(impl_->p.a, nullptr);
  impl_->fixedB = packed && impl_->p.w != impl_->p.wStored;
  impl_->w = impl_->fixedB ? weightsFor(impl_->p, constantB, bOwner) : onednn::wrap(impl_->p.w, nullptr);
  impl_->c = onednn::wrap(impl_->p.c, nullptr);
}

void PreparedGemm::run(const float* A, const float* B, float* C) {
  Impl& m = *impl_;
  if (m.M <= 0 || m.N <= 0) return;
  if (m.K <= 0) {  // an empty sum
    for (int64_t i = 0; i < m.M; ++i) std::fill(C + i * m.ldc, C + i * m.ldc + m.N, 0.f);
    return;
  }
  onednn::useThreads();
  m.a.set_data_handle(const_cast<float*>(A));
  if (!m.fixedB) m.w.set_data_handle(const_cast<float*>(B));
  m.c.set_data_handle(C);
  onednn::execute(m.p.entry->prim, m.p.entry->pd, {{DNNL_ARG_SRC, m.a}, {DNNL_ARG_WEIGHTS, m.w}, {DNNL_ARG_DST, m.c}});
}

}  // namespace fw::exec
