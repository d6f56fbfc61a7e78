// Dense kernels: Conv, ConvTranspose, MatMul, Gemm (on oneDNN: ConvPrimitive.h, Gemm.h),
// BatchNormalization. Pooling lives in ops_pool.cpp.
#include <algorithm>
#include <cmath>
#include <dnnl.hpp>

#include "core/exec/ConvGeometry.h"
#include "core/exec/ConvPrimitive.h"
#include "core/exec/Epilogue.h"
#include "core/exec/Gemm.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

Status runConvolution(OpContext& c, const ConvProblem& p, const RtTensor& X, const RtTensor& W, const float* bias,
                      RtTensor& Y) {
  if (X.numel() == 0 || Y.numel() == 0) {
    std::fill(Y.mf(), Y.mf() + Y.numel(), 0.f);
    if (bias) {
      const int64_t inner = Y.numel() / std::max<int64_t>(1, p.N * p.M);
      for (int64_t nm = 0; nm < p.N * p.M; ++nm) std::fill_n(Y.mf() + nm * inner, inner, bias[nm % p.M]);
    }
  } else {
    try {
      convolution(p, X.f(), W.f(), W.owner(), bias, Y.mf(), c.fuseRelu);
      c.reluApplied = c.fuseRelu;
    } catch (const dnnl::error& e) {
      return c.fail(std::string("oneDNN refused X ") + dimsStr(X.dims) + ", W " + dimsStr(W.dims) + ": " + e.what());
    } catch (const std::invalid_argument& e) {
      return c.fail(e.what());
    }
  }
  c.out[0] = std::move(Y);
  return {};
}

Status opConv(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X and W");
  const RtTensor X = asFloat(c.input(0));
  const RtTensor W = asFloat(c.input(1));
  if (X.rank() < 3 || W.rank() != X.rank())
    return c.fail("X " + dimsStr(X.dims) + " and W " + dimsStr(W.dims) + " must have the same rank >= 3");
  const int64_t group = c.attrInt("group", 1);
  const int64_t N = X.dims[0], C = X.dims[1], M = W.dims[0];
  if (group <= 0 || C % group || M % group || W.dims[1] != C / group)
    return c.fail("channel mismatch: X has " + std::to_string(C) + " channels, W " + dimsStr(W.dims) +
                  ", group " + std::to_string(group));
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end());
  std::vector<int64_t> kernel(W.dims.begin() + 2, W.dims.end());
  auto geo = convGeometry(c, spatial, kernel, false);
  if (!geo.ok()) return geo.error();
  const ConvGeometry& g = *geo;
  std::vector<int64_t> ydims{N, M};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  const float* bias = nullptr;
  RtTensor B;
  if (c.has(2)) {
    B = asFloat(c.input(2));
    if (B.numel() != M) return c.fail("bias has " + std::to_string(B.numel()) + " elements, expected " + std::to_string(M));
    bias = B.f();
  }
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, ydims);
  return runConvolution(c, ConvProblem{false, N, C, M, group, *geo}, X, W, bias, Y);
}

Status opConvTranspose(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X and W");
  const RtTensor X = asFloat(c.input(0));
  const RtTensor W = asFloat(c.input(1));
  if (X.rank() < 3 || W.rank() != X.rank())
    return c.fail("X " + dimsStr(X.dims) + " and W " + dimsStr(W.dims) + " must have the same rank >= 3");
  const int64_t group = c.attrInt("group", 1);
  const int64_t N = X.dims[0], C = X.dims[1];
  if (group <= 0 || C % group || W.dims[0] != C) return c.fail("W " + dimsStr(W.dims) + " does not match X channels");
  const int64_t M = W.dims[1] * group;
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end());
  std::vector<int64_t> kernel(W.dims.begin() + 2, W.dims.end());
  auto geo = convGeometry(c, spatial, kernel, true);
  if (!geo.ok()) return geo.error();
  const ConvGeometry& g = *geo;
  std::vector<int64_t> ydims{N, M};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  const float* bias = nullptr;
  RtTensor B;
  if (c.has(2)) {
    B = asFloat(c.input(2));
    if (B.numel() != M) return c.fail("bias has " + std::to_string(B.numel()) + " elements, expected " + std::to_string(M));
    bias = B.f();
  }
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, ydims);
  return runConvolution(c, ConvProblem{true, N, C, M, group, g}, X, W, bias, Y);
}

// The column counts of the parts a Split epilogue (OpContext::splitAfter) asks of a product with N columns
// in its output's last axis (of rank `outRank`), or nullopt when the Split is over another axis or its
// sizes do not divide N (the interpreter then splits the whole product).
std::optional<std::vector<int64_t>> splitColumns(const OpContext& c, size_t outRank, int64_t N) {
  if (!c.splitAfter || outRank == 0) return std::nullopt;
  const auto r = static_cast<int64_t>(outRank);
  if (normAxis(c.splitAfter->axis, r) != r - 1) return std::nullopt;
  return c.splitAfter->widthsFor(N);
}

// Each part of `widths` columns of C = op(A) * op(B) [+ bias per column], [rows, sum of widths], as its own
// product on B's columns (B's rows when transB) from the part's first: the Split's copy of the whole
// product is not made.
void productParts(OpContext& c, DType dtype, std::vector<int64_t> dims, const std::vector<int64_t>& widths,
                  bool transA, bool transB, int64_t rows, int64_t K, const float* A, int64_t lda,
                  const float* B, int64_t ldb, const float* bias, const std::weak_ptr<const void>& bOwner) {
  int64_t at = 0;
  for (int64_t w : widths) {
    dims.back() = w;
    RtTensor P = RtTensor::alloc(dtype, dims);
    const float* b = B + (transB ? at * ldb : at);
    if (w > 0 && rows > 0) {
      if (bias)
        sgemmColumnBias(transA, transB, rows, w, K, A, lda, b, ldb, bias + at, P.mf(), w, bOwner);
      else
        sgemm(transA, transB, rows, w, K, 1.f, A, lda, b, ldb, 0.f, P.mf(), w, bOwner);
    }
    at += w;
    c.splitParts.push_back(std::move(P));
  }
}

Status opMatMul(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects two inputs");
  const RtTensor& A0 = c.input(0);
  const RtTensor& B0 = c.input(1);
  if (A0.rank() == 0 || B0.rank() == 0) return c.fail("inputs must not be scalars");
  const bool intMode = A0.store() == Store::I64 && B0.store() == Store::I64;
  const RtTensor A = intMode ? A0 : asFloat(A0);
  const RtTensor B = intMode ? B0 : asFloat(B0);
  auto shape = matmulShape(A.dims, B.dims);
  if (!shape.ok()) return c.fail(shape.error().message);
  const MatMulShape& ms = *shape;
  const int64_t M = ms.M, K = ms.K, N = ms.N;
  const int64_t nb = ms.batches();
  const bool sharedB = ms.bBatch.empty() || numelOf(ms.bBatch) == 1;
  if (!intMode && sharedB && B.rank() >= 2)
    if (auto parts = splitColumns(c, ms.out.size(), N)) {
      productParts(c, A0.dtype, ms.out, *parts, false, false, nb * M, K, A.f(), K, B.f(), N, nullptr,
                   B.constantOwner());
      return {};
    }
  RtTensor Y = RtTensor::alloc(A0.dtype, ms.out);
  if (intMode) {
    for (int64_t b = 0; b < nb; ++b) {
      const int64_t* pa = A.i() + ms.aMatrix(b) * M * K;
      const int64_t* pb = B.i() + ms.bMatrix(b) * K * N;
      int64_t* py = Y.mi() + b * M * N;
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          int64_t s = 0;
          for (int64_t k = 0; k < K; ++k) s += pa[i * K + k] * pb[k * N + j];
          py[i * N + j] = s;
        }
    }
  } else if (sharedB) {
    // B shared by every batch: one GEMM over all rows of A (or a product a part of a Split epilogue's).
    sgemm(false, false, nb * M, N, K, 1.f, A.f(), K, B.f(), N, 0.f, Y.mf(), N, B.constantOwner());
  } else if (numelOf(ms.aBatch) == nb && numelOf(ms.bBatch) == nb) {
    // No broadcasting: matrix b of A, B and Y line up.
    sgemmBatched(nb, false, false, M, N, K, A.f(), K, M * K, B.f(), N, K * N, Y.mf(), N, M * N);
  } else {
    // Broadcast batch dims: the output matrices in runs that A and B walk at a fixed step each (a shared
    // A: step 0), each run one batched product. One GEMM an output matrix took about 1 us a call: a
    // JPEG-style DCT's [8, 8] x [16, 3, 32, 32, 8, 8] 51.7 ms over 49152 matrices (1 thread, set 76,
    // session 61), where the same product with B shared took 1.2.
    const auto [run, stepA, stepB] = ms.batchRun();
    for (int64_t b = 0; b < nb; b += run)
      sgemmBatched(run, false, false, M, N, K, A.f() + ms.aMatrix(b) * M * K, K, stepA * M * K,
                   B.f() + ms.bMatrix(b) * K * N, N, stepB * K * N, Y.mf() + b * M * N, N, M * N);
  }
  c.out[0] = std::move(Y);
  return {};
}

Status opGemm(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects A and B");
  const RtTensor A = asFloat(c.input(0)), B = asFloat(c.input(1));
  if (A.rank() != 2 || B.rank() != 2) return c.fail("A and B must be 2-D, got " + dimsStr(A.dims) + ", " + dimsStr(B.dims));
  const bool tA = c.attrInt("transA", 0) != 0, tB = c.attrInt("transB", 0) != 0;
  const float alpha = c.attrFloat("alpha", 1.f), beta = c.attrFloat("beta", 1.f);
  const int64_t M = tA ? A.dims[1] : A.dims[0], K = tA ? A.dims[0] : A.dims[1];
  const int64_t N = tB ? B.dims[0] : B.dims[1], K2 = tB ? B.dims[1] : B.dims[0];
  if (K != K2) return c.fail("inner dims differ: A " + dimsStr(A.dims) + ", B " + dimsStr(B.dims));
  const bool withC = c.has(2) && beta != 0.f;
  const RtTensor C = withC ? asFloat(c.input(2)) : RtTensor();
  // A bias of one value a column (a Linear's) as the product's own bias; one column of output stays on
  // the rows-dot-vector loop, which takes C as beta = 1 (Gemm.cpp).
  const bool columnBias = withC &&
                          (C.dims == std::vector<int64_t>{N} || C.dims == std::vector<int64_t>{1, N}) &&
                          alpha == 1.f && beta == 1.f && N > 1;
  if (columnBias || (!withC && alpha == 1.f))
    if (auto parts = splitColumns(c, 2, N)) {
      productParts(c, c.input(0).dtype, {M, N}, *parts, tA, tB, M, K, A.f(), A.dims[1], B.f(), B.dims[1],
                   columnBias ? C.f() : nullptr, B.constantOwner());
      return {};
    }
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, {M, N});
  float b = 0.f;
  if (columnBias) {
    sgemmColumnBias(tA, tB, M, N, K, A.f(), A.dims[1], B.f(), B.dims[1], C.f(), Y.mf(), N, B.constantOwner());
    c.out[0] = std::move(Y);
    return {};
  }
  if (withC) {
    auto od = broadcastShapes({C.dims, {M, N}});
    if (!od.ok() || *od != std::vector<int64_t>{M, N}) return c.fail("C " + dimsStr(C.dims) + " does not broadcast to " + dimsStr({M, N}));
    const auto cs = broadcastStrides(C.dims, {M, N});
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) Y.mf()[i * N + j] = C.f()[i * cs[0] + j * cs[1]];
    b = beta;
  }
  sgemm(tA, tB, M, N, K, alpha, A.f(), A.dims[1], B.f(), B.dims[1], b, Y.mf(), N, B.constantOwner());
  c.out[0] = std::move(Y);
  return {};
}

Status opBatchNorm(OpContext& c) {
  for (size_t k = 0; k < 5; ++k)
    if (!c.has(k)) return c.fail("expects 5 inputs (X, scale, B, mean, var)");
  const RtTensor X = asFloat(c.input(0));
  const RtTensor s = asFloat(c.input(1)), bias = asFloat(c.input(2));
  const RtTensor mean = asFloat(c.input(3)), var = asFloat(c.input(4));
  if (X.rank() < 2) return c.fail("X must have rank >= 2");
  const int64_t N = X.dims[0], C = X.dims[1], inner = X.numel() / std::max<int64_t>(1, N * C);
  if (s.numel() != C || bias.numel() != C || mean.numel() != C || var.numel() != C)
    return c.fail("per-channel inputs must have " + std::to_string(C) + " elements");
  const float eps = c.attrFloat("epsilon", 1e-5f);
  const bool training = c.attrInt("training_mode", 0) != 0;
  std::vector<float> useMean(mean.f(), mean.f() + C), useVar(var.f(), var.f() + C);
  if (training) {
    const float momentum = c.attrFloat("momentum", 0.9f);
    RtTensor rm = RtTensor::alloc(c.input(3).dtype, {C}), rv = RtTensor::alloc(c.input(4).dtype, {C});
    for (int64_t ch = 0; ch < C; ++ch) {
      double sum = 0, sq = 0;
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < inner; ++k) sum += X.f()[(n * C + ch) * inner + k];
      const double cnt = static_cast<double>(N * inner), m = sum / cnt;
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < inner; ++k) {
          const double d = X.f()[(n * C + ch) * inner + k] - m;
          sq += d * d;
        }
      useMean[static_cast<size_t>(ch)] = static_cast<float>(m);
      useVar[static_cast<size_t>(ch)] = static_cast<float>(sq / cnt);
      rm.mf()[ch] = mean.f()[ch] * momentum + static_cast<float>(m) * (1 - momentum);
      rv.mf()[ch] = var.f()[ch] * momentum + static_cast<float>(sq / cnt) * (1 - momentum);
    }
    if (c.out.size() > 1) c.out[1] = std::move(rm);
    if (c.out.size() > 2) c.out[2] = std::move(rv);
  }
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, X.dims);
  const bool relu = c.fuseRelu && c.out.size() == 1;
  // Each channel's y = x·mul + add, its mul and add computed once: a BatchNorm1d over [512, 256] (one
  // element a channel and row) took 1.1 ms computing them for every element, a sqrt and a division each.
  std::vector<float> mul(static_cast<size_t>(C)), add(static_cast<size_t>(C));
  for (int64_t ch = 0; ch < C; ++ch) {
    const auto k = static_cast<size_t>(ch);
    mul[k] = s.f()[ch] / std::sqrt(useVar[k] + eps);
    add[k] = bias.f()[ch] - useMean[k] * mul[k];
  }
  if (inner == 1) {
    // Rows of C channels: a row at a time, every channel its own mul and add.
    parallelFor(N, C, [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n) {
        const float* px = X.f() + n * C;
        float* py = Y.mf() + n * C;
        for (int64_t k = 0; k < C; ++k)
          py[k] = px[k] * mul[static_cast<size_t>(k)] + add[static_cast<size_t>(k)];
        if (relu)
          for (int64_t k = 0; k < C; ++k) py[k] = py[k] < 0 ? 0.f : py[k];
      }
    });
  } else {
    parallelFor(N * C, inner, [&](int64_t b, int64_t e) {
      for (int64_t nc = b; nc < e; ++nc) {
        const auto ch = static_cast<size_t>(nc % C);
        const float m = mul[ch], a = add[ch];
        const float* px = X.f() + nc * inner;
        float* py = Y.mf() + nc * inner;
        if (relu) {
          for (int64_t k = 0; k < inner; ++k) {
            const float v = px[k] * m + a;
            py[k] = v < 0 ? 0.f : v;
          }
        } else {
          for (int64_t k = 0; k < inner; ++k) py[k] = px[k] * m + a;
        }
      }
    });
  }
  c.reluApplied = relu;
  c.out[0] = std::move(Y);
  return {};
}

}  // namespace

std::vector<OpEntry> nnOps() {
  return {{"Conv", opConv}, {"ConvTranspose", opConvTranspose}, {"MatMul", opMatMul},
          {"Gemm", opGemm}, {"BatchNormalization", opBatchNorm}};
}

}  // namespace fw::exec
