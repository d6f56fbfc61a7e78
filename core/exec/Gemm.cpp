#include <algorithm>
#include "core/exec/Gemm.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/exec/OneDnn.h"
#include "core/exec/OpContext.h"

namespace fw::exec {

namespace {

using dnnl::memory;

struct Operand {
  memory::dims dims, strides;
};

// A [M,K] (or stored [K,M] when transposed) with row stride ld, optionally batched.
Operand operand(int64_t batch, int64_t rows, int64_t cols, bool trans, int64_t ld, int64_t stride) {
  Operand o;
  o.dims = {rows, cols};
  o.strides = trans ? memory::dims{1, ld} : memory::dims{ld, 1};
  if (batch > 1) {
    o.dims.insert(o.dims.begin(), batch);
    o.strides.insert(o.strides.begin(), stride);
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
struct Product {
  std::shared_ptr<const onednn::CachedPrimitive> entry;
  std::string key;
  memory::desc a, w, c, bias, wStored;
};

// Whether a product with constant weights B runs on a copy in oneDNN's own weight layout. oneDNN 2.6's
// matmul reads B as stored; two layouts are slow there (one thread, hot, median of 60 runs, session 14):
// - B^T stored [N, K] (a Gemm with transB, a recurrent layer's W and R): few rows walk it down its
//   columns. 1x256x1024 (an LSTM step, H = 256) took 34.2 us against 12.3 on the packed copy,
//   1x1280x1000 210 against 72, 1x2048x1000 586 against 119, 64x3072x768 3220 against 2787.
// - B stored [K, N] with rows a multiple of 2 KiB apart, which share cache sets: 64x768x3072 4008
//   against 2805 us, 50x768x3072 3068 against 2076, 256x256x3072 4905 against 3665, 1x768x3072 178
//   against 56, 1x2048x512 145 against 46, 4x2048x512 180 against 74. Other [K, N] weights gain 0-20 %
//   (64x768x768 654 against 646, 50x768x2304 1736 against 1556, 1x1024x640 37 against 31): not worth
//   a second copy of every weight.
// The copy is made once per weight tensor and kept while the tensor lives (memory: one more copy of
// those weights).
bool packedWeights(bool transB, int64_t ldb, const std::weak_ptr<const void>& bOwner) {
  if (bOwner.expired()) return false;
  return transB || (ldb * 4) % 2048 == 0;
}

Product productFor(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha,
                   int64_t lda, int64_t strideA, int64_t ldb, int64_t strideB, float beta, int64_t ldc,
                   int64_t strideC, bool rowBias, bool relu, bool packed = false) {
  const Operand a = operand(batch, M, K, transA, lda, strideA);
  const Operand w = operand(batch, K, N, transB, ldb, strideB);
  const Operand c = operand(batch, M, N, false, ldc, strideC);
  const int threads = onednn::useThreads();
  const std::string key = "matmul|" + onednn::dimsKey(a.dims) + "|" + onednn::dimsKey(a.strides) + "|" +
                          onednn::dimsKey(w.dims) + "|" + onednn::dimsKey(w.strides) + "|" +
                          onednn::dimsKey(c.strides) + "|" + floatKey(alpha) + "|" + floatKey(beta) + "|t" +
                          std::to_string(threads) + (rowBias ? "|rowbias" : "") + (relu ? "|relu" : "") +
                          (packed ? "|packed" : "");
  Product p;
  p.key = key;
  p.a = memory::desc(a.dims, memory::data_type::f32, a.strides);
  p.wStored = memory::desc(w.dims, memory::data_type::f32, w.strides);
  p.w = packed ? memory::desc(w.dims, memory::data_type::f32, memory::format_tag::any) : p.wStored;
  p.c = memory::desc(c.dims, memory::data_type::f32, c.strides);
  memory::dims biasDims(c.dims.size(), 1);
  biasDims[biasDims.size() - 2] = M;
  if (rowBias) p.bias = memory::desc(biasDims, memory::data_type::f32, onednn::contiguousStrides(biasDims));
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
            float beta, float* C, int64_t ldc, int64_t strideC, const float* rowBias = nullptr,
            bool relu = false, const std::weak_ptr<const void>& bOwner = {}) {
  if (M <= 0 || N <= 0 || batch <= 0) return;
  if (K <= 0) {  // an empty sum: C = beta * C
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < M; ++i) {
        float* row = C + b * strideC + i * ldc;
        for (int64_t j = 0; j < N; ++j) {
          const float v = (beta == 0.f ? 0.f : beta * row[j]) + (rowBias ? rowBias[i] : 0.f);
          row[j] = relu && v < 0 ? 0.f : v;
        }
      }
    return;
  }
  // The loop above on one thread (with more, oneDNN spreads the columns over them); the products
  // differ from oneDNN's only in rounding.
  if (batch == 1 && !transA && !transB && M == 1 && N >= 64 && (ldb * 4) % 4096 == 0 && beta == 0.f && !rowBias &&
      !relu && onednn::useThreads() == 1) {
    (rowLoopAvx2() ? rowTimesMatrixAvx2 : rowTimesMatrixBase)(N, K, alpha, A, B, ldb, C);
    return;
  }
  const bool packed = batch == 1 && packedWeights(transB, ldb, bOwner);
  const Product p = productFor(batch, transA, transB, M, N, K, alpha, lda, strideA, ldb, strideB, beta, ldc,
                               strideC, rowBias != nullptr, relu, packed);
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, onednn::wrap(p.a, A)},
                                       {DNNL_ARG_WEIGHTS, weightsFor(p, B, bOwner)},
                                       {DNNL_ARG_DST, onednn::wrap(p.c, C)}};
  if (rowBias) args.emplace(DNNL_ARG_BIAS, onednn::wrap(p.bias, rowBias));
  onednn::execute(p.entry->prim, p.entry->pd, std::move(args));
}

}  // namespace

void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
           int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
           const std::weak_ptr<const void>& bOwner) {
  matmul(1, transA, transB, M, N, K, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, nullptr, false, bOwner);
}

void sgemmBatched(int64_t batch, bool transA, bool transB, int64_t M, int64_t N, int64_t K, const float* A,
                  int64_t lda, int64_t strideA, const float* B, int64_t ldb, int64_t strideB, float* C, int64_t ldc,
                  int64_t strideC) {
  matmul(batch, transA, transB, M, N, K, 1.f, A, lda, strideA, B, ldb, strideB, 0.f, C, ldc, strideC);
}

void sgemmRowBias(int64_t M, int64_t N, int64_t K, const float* A, const float* B, const float* bias, float* C, bool relu) {
  // oneDNN 2.6 has no optimised matmul for a bias broadcast along rows (it falls back to its
  // reference kernel, ~500x slower on a ResNet-50 1x1 conv), and accumulating into a C pre-filled with
  // the bias (beta = 1) is ~3x slower than the plain product (a MobileNetV2 1x1 conv 24->144 at 56x56:
  // 211 us against 75 us): the product, then the bias (and the ReLU) in one pass over C.
  if (!bias || K <= 0) return matmul(1, false, false, M, N, K, 1.f, A, K, 0, B, N, 0, 0.f, C, N, 0, bias, relu);
  matmul(1, false, false, M, N, K, 1.f, A, K, 0, B, N, 0, 0.f, C, N, 0, nullptr, false);
  parallelFor(M, N, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      float* row = C + i * N;
      const float v = bias[i];
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
  const bool packed = constantB != nullptr && packedWeights(transB, ldb, bOwner);
  impl_->p = productFor(1, false, transB, M, N, K, 1.f, lda, 0, ldb, 0, 0.f, ldc, 0, false, false, packed);
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
