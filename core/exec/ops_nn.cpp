// Dense kernels: Conv (im2col + GEMM), ConvTranspose (GEMM + col2im), MatMul, Gemm,
// BatchNormalization. Pooling lives in ops_pool.cpp.
#include <cmath>
#include <cstring>

#include "core/exec/ConvGeometry.h"
#include "core/exec/Gemm.h"
#include "core/exec/Kernel.h"

namespace fw::exec {
namespace {

// Lower one image's group of channels into columns: col[(c,k...), (o...)].
void im2col(const float* x, int64_t channels, const ConvGeometry& g, float* col) {
  const size_t r = g.in.size();
  const int64_t kp = g.kernelSize(), op = g.outSize(), ip = g.inSize();
  if (r == 2) {
    const int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1];
    const int64_t KW = g.kernel[1];
    const int64_t sh = g.strides[0], sw = g.strides[1], dh = g.dilations[0], dw = g.dilations[1];
    const int64_t ph = g.padsBegin[0], pw = g.padsBegin[1];
    parallelFor(channels * kp, op, [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        const int64_t c = row / kp, kk = row % kp, kh = kk / KW, kw = kk % KW;
        const float* xc = x + c * ip;
        float* dst = col + row * op;
        for (int64_t oh = 0; oh < OH; ++oh) {
          const int64_t ih = oh * sh + kh * dh - ph;
          float* d = dst + oh * OW;
          if (ih < 0 || ih >= H) {
            std::memset(d, 0, static_cast<size_t>(OW) * sizeof(float));
            continue;
          }
          const float* src = xc + ih * W;
          const int64_t off = kw * dw - pw;
          if (sw == 1) {
            // Valid ow range: 0 <= ow + off < W.
            const int64_t lo = std::max<int64_t>(0, -off), hi = std::min<int64_t>(OW, W - off);
            for (int64_t ow = 0; ow < std::min(lo, OW); ++ow) d[ow] = 0.f;
            if (hi > lo) std::memcpy(d + lo, src + lo + off, static_cast<size_t>(hi - lo) * sizeof(float));
            for (int64_t ow = std::max(hi, lo); ow < OW; ++ow) d[ow] = 0.f;
          } else {
            for (int64_t ow = 0; ow < OW; ++ow) {
              const int64_t iw = ow * sw + off;
              d[ow] = (iw >= 0 && iw < W) ? src[iw] : 0.f;
            }
          }
        }
      }
    });
    return;
  }
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  parallelFor(channels * kp, op, [&](int64_t b, int64_t e) {
    std::vector<int64_t> kidx(r), oidx(r);
    for (int64_t row = b; row < e; ++row) {
      const int64_t c = row / kp, kk = row % kp;
      for (size_t d = 0; d < r; ++d) kidx[d] = (kk / kstr[d]) % g.kernel[d];
      for (int64_t o = 0; o < op; ++o) {
        int64_t off = 0;
        bool inside = true;
        for (size_t d = 0; d < r; ++d) {
          const int64_t od = (o / ostr[d]) % g.out[d];
          const int64_t id = od * g.strides[d] + kidx[d] * g.dilations[d] - g.padsBegin[d];
          if (id < 0 || id >= g.in[d]) {
            inside = false;
            break;
          }
          off += id * istr[d];
        }
        col[row * op + o] = inside ? x[c * ip + off] : 0.f;
      }
    }
  });
}

// Scatter-add columns back into an image: the adjoint of im2col (for ConvTranspose).
void col2im(const float* col, int64_t channels, const ConvGeometry& g, float* y) {
  // Here g.in is the *output image* (the large one) and g.out the input positions.
  const size_t r = g.in.size();
  const int64_t kp = g.kernelSize(), op = g.outSize(), ip = g.inSize();
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  parallelFor(channels, kp * op, [&](int64_t b, int64_t e) {
    std::vector<int64_t> kidx(r);
    for (int64_t c = b; c < e; ++c) {
      for (int64_t kk = 0; kk < kp; ++kk) {
        for (size_t d = 0; d < r; ++d) kidx[d] = (kk / kstr[d]) % g.kernel[d];
        const float* src = col + (c * kp + kk) * op;
        for (int64_t o = 0; o < op; ++o) {
          int64_t off = 0;
          bool inside = true;
          for (size_t d = 0; d < r; ++d) {
            const int64_t od = (o / ostr[d]) % g.out[d];
            const int64_t id = od * g.strides[d] + kidx[d] * g.dilations[d] - g.padsBegin[d];
            if (id < 0 || id >= g.in[d]) {
              inside = false;
              break;
            }
            off += id * istr[d];
          }
          if (inside) y[c * ip + off] += src[o];
        }
      }
    }
  });
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
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, ydims);
  const int64_t Cg = C / group, Mg = M / group, kp = g.kernelSize(), op = g.outSize(), ip = g.inSize();
  const bool pointwise = kp == 1 && g.isIdentityMapping();
  std::vector<float> col(pointwise ? 0 : static_cast<size_t>(Cg * kp * op));
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t gr = 0; gr < group; ++gr) {
      const float* xg = X.f() + (n * C + gr * Cg) * ip;
      const float* B = xg;
      if (!pointwise) {
        im2col(xg, Cg, g, col.data());
        B = col.data();
      }
      float* yg = Y.mf() + (n * M + gr * Mg) * op;
      sgemm(false, false, Mg, op, Cg * kp, 1.f, W.f() + gr * Mg * Cg * kp, Cg * kp, B, op, 0.f, yg, op);
    }
  }
  if (c.has(2)) {
    const RtTensor bias = asFloat(c.input(2));
    if (bias.numel() != M) return c.fail("bias has " + std::to_string(bias.numel()) + " elements, expected " + std::to_string(M));
    parallelFor(N * M, op, [&](int64_t b, int64_t e) {
      for (int64_t nm = b; nm < e; ++nm) {
        const float bv = bias.f()[nm % M];
        float* p = Y.mf() + nm * op;
        for (int64_t k = 0; k < op; ++k) p[k] += bv;
      }
    });
  }
  c.out[0] = std::move(Y);
  return {};
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
  const int64_t Mg = W.dims[1], M = Mg * group, Cg = C / group;
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end());
  std::vector<int64_t> kernel(W.dims.begin() + 2, W.dims.end());
  auto geo = convGeometry(c, spatial, kernel, true);
  if (!geo.ok()) return geo.error();
  const ConvGeometry& g = *geo;
  // For col2im the roles swap: the image is the output, the positions are the input's.
  ConvGeometry back = g;
  back.in = g.out;
  back.out = g.in;
  std::vector<int64_t> ydims{N, M};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  RtTensor Y = RtTensor::zeros(c.input(0).dtype, ydims);
  const int64_t kp = g.kernelSize(), ip = g.inSize(), op = g.outSize();
  std::vector<float> col(static_cast<size_t>(Mg * kp * ip));
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t gr = 0; gr < group; ++gr) {
      const float* xg = X.f() + (n * C + gr * Cg) * ip;
      const float* wg = W.f() + gr * Cg * Mg * kp;  // [Cg, Mg*kp]
      sgemm(true, false, Mg * kp, ip, Cg, 1.f, wg, Mg * kp, xg, ip, 0.f, col.data(), ip);
      col2im(col.data(), Mg, back, Y.mf() + (n * M + gr * Mg) * op);
    }
  }
  if (c.has(2)) {
    const RtTensor bias = asFloat(c.input(2));
    if (bias.numel() != M) return c.fail("bias size mismatch");
    for (int64_t nm = 0; nm < N * M; ++nm) {
      float* p = Y.mf() + nm * op;
      for (int64_t k = 0; k < op; ++k) p[k] += bias.f()[nm % M];
    }
  }
  c.out[0] = std::move(Y);
  return {};
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
  RtTensor Y = RtTensor::alloc(A0.dtype, ms.out);
  const int64_t nb = ms.batches();
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
  } else if (ms.bBatch.empty() || numelOf(ms.bBatch) == 1) {
    // B shared by every batch: one GEMM over all rows of A.
    sgemm(false, false, nb * M, N, K, 1.f, A.f(), K, B.f(), N, 0.f, Y.mf(), N);
  } else {
    for (int64_t b = 0; b < nb; ++b)
      sgemm(false, false, M, N, K, 1.f, A.f() + ms.aMatrix(b) * M * K, K, B.f() + ms.bMatrix(b) * K * N, N, 0.f,
            Y.mf() + b * M * N, N);
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
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, {M, N});
  float b = 0.f;
  if (c.has(2) && beta != 0.f) {
    const RtTensor C = asFloat(c.input(2));
    auto od = broadcastShapes({C.dims, {M, N}});
    if (!od.ok() || *od != std::vector<int64_t>{M, N}) return c.fail("C " + dimsStr(C.dims) + " does not broadcast to " + dimsStr({M, N}));
    const auto cs = broadcastStrides(C.dims, {M, N});
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) Y.mf()[i * N + j] = C.f()[i * cs[0] + j * cs[1]];
    b = beta;
  }
  sgemm(tA, tB, M, N, K, alpha, A.f(), A.dims[1], B.f(), B.dims[1], b, Y.mf(), N);
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
  parallelFor(N * C, inner, [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; ++nc) {
      const int64_t ch = nc % C;
      const float mul = s.f()[ch] / std::sqrt(useVar[static_cast<size_t>(ch)] + eps);
      const float add = bias.f()[ch] - useMean[static_cast<size_t>(ch)] * mul;
      const float* px = X.f() + nc * inner;
      float* py = Y.mf() + nc * inner;
      for (int64_t k = 0; k < inner; ++k) py[k] = px[k] * mul + add;
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

}  // namespace

std::vector<OpEntry> nnOps() {
  return {{"Conv", opConv}, {"ConvTranspose", opConvTranspose}, {"MatMul", opMatMul},
          {"Gemm", opGemm}, {"BatchNormalization", opBatchNorm}};
}

}  // namespace fw::exec
