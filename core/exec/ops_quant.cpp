// Quantization kernels: QuantizeLinear, DequantizeLinear (opset 10 per-tensor, opset 13 per-axis),
// DynamicQuantizeLinear, QLinearConv and QLinearMatMul.
//
// Quantized tensors keep their ONNX dtype (uint8/int8/...) with int64 storage like every integer
// type, so graph outputs and Cast see the declared type. Rounding is half to even (std::nearbyint in
// the default rounding mode) and results saturate to the output type's range.
//
// QLinearConv / QLinearMatMul follow ONNX's definition (dequantize, float conv/matmul, requantize)
// computed the way ONNX Runtime does: the sum of (x - x_zp) * (w - w_zp) is exact in integers, the
// int32 bias is added to it (it is quantized with scale x_scale * w_scale, zero point 0), and the
// result is requantized with the float multiplier x_scale * w_scale / y_scale.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/exec/ConvGeometry.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

struct QRange {
  int64_t lo, hi;
};

bool quantRange(DType t, QRange& r) {
  switch (t) {
    case DType::UInt8: r = {0, 255}; return true;
    case DType::Int8: r = {-128, 127}; return true;
    case DType::UInt16: r = {0, 65535}; return true;
    case DType::Int16: r = {-32768, 32767}; return true;
    case DType::Int32: r = {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()}; return true;
    default: return false;
  }
}

// Round half to even and saturate: v is already x / scale (without the zero point).
inline int64_t quantizeValue(float v, int64_t zp, const QRange& r) {
  // Same order as ONNX Runtime's MlasQuantizeLinear: clamp to [lo - zp, hi - zp], round, add zp.
  const float lo = static_cast<float>(r.lo - zp), hi = static_cast<float>(r.hi - zp);
  if (std::isnan(v)) return std::clamp<int64_t>(zp, r.lo, r.hi);
  v = std::min(hi, std::max(lo, v));
  return std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(v)) + zp, r.lo, r.hi);
}

// Scale / zero point broadcast: one value (per tensor) or one per slice along `axis`.
struct QParams {
  std::vector<float> scale;
  std::vector<int64_t> zp;
  int64_t axisLen = 1, inner = 1;
  bool perAxis = false;
  int64_t channel(int64_t k) const { return perAxis ? (k / inner) % axisLen : 0; }
};

Result<QParams> quantParams(const OpContext& c, const std::vector<int64_t>& xdims, const RtTensor& scale,
                            const RtTensor* zp) {
  QParams p;
  if (c.attrInt("block_size", 0) != 0) return c.fail("blocked quantization (block_size) is not supported");
  if (scale.store() != Store::F32) return c.fail("scale must be floating-point, got " + std::string(dtypeName(scale.dtype)));
  if (zp && zp->store() != Store::I64)
    return c.fail("zero point type " + std::string(dtypeName(zp->dtype)) + " is not supported");
  const int64_t n = scale.numel();
  if (zp && zp->numel() != n)
    return c.fail("scale " + dimsStr(scale.dims) + " and zero point " + dimsStr(zp->dims) + " differ in size");
  if (n != 1 || scale.rank() > 1) {
    if (n != 1 && c.opset < 13) return c.fail("per-axis scales need opset 13 (this model has opset " + std::to_string(c.opset) + ")");
    if (n != 1) {
      if (scale.rank() != 1) return c.fail("scale must be a scalar or 1-D, got " + dimsStr(scale.dims));
      const int64_t rank = static_cast<int64_t>(xdims.size());
      const int64_t axis = normAxis(c.attrInt("axis", 1), rank);
      if (axis < 0 || axis >= rank) return c.fail("axis out of range for input " + dimsStr(xdims));
      if (xdims[static_cast<size_t>(axis)] != n)
        return c.fail("scale has " + std::to_string(n) + " values but input " + dimsStr(xdims) + " has " +
                      std::to_string(xdims[static_cast<size_t>(axis)]) + " along axis " + std::to_string(axis));
      p.perAxis = true;
      p.axisLen = n;
      for (size_t d = static_cast<size_t>(axis) + 1; d < xdims.size(); ++d) p.inner *= xdims[d];
    }
  }
  p.scale.assign(scale.f(), scale.f() + n);
  p.zp.assign(static_cast<size_t>(n), 0);
  if (zp) std::copy(zp->i(), zp->i() + n, p.zp.begin());
  return p;
}

Status opQuantizeLinear(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects x and y_scale");
  const RtTensor x = asFloat(c.input(0));
  const RtTensor* zp = c.has(2) ? &c.input(2) : nullptr;
  const DType outType = zp ? zp->dtype : DType::UInt8;
  if (c.attrs.has("output_dtype") && !zp) {
    auto dt = dtypeFromInt(static_cast<int32_t>(c.attrInt("output_dtype", 0)));
    if (dt && *dt != DType::Undefined) return c.fail("output_dtype is not supported (give a zero point)");
  }
  QRange r{};
  if (!quantRange(outType, r) || outType == DType::Int32)
    return c.fail("unsupported output type " + std::string(dtypeName(outType)));
  auto p = quantParams(c, x.dims, c.input(1), zp);
  if (!p.ok()) return p.error();
  RtTensor y = RtTensor::alloc(outType, x.dims);
  const float* xs = x.f();
  int64_t* ys = y.mi();
  const QParams& q = *p;
  parallelFor(x.numel(), 4, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      const int64_t ch = q.channel(k);
      ys[k] = quantizeValue(xs[k] / q.scale[static_cast<size_t>(ch)], q.zp[static_cast<size_t>(ch)], r);
    }
  });
  c.out[0] = std::move(y);
  return {};
}

Status opDequantizeLinear(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects x and x_scale");
  const RtTensor& x = c.input(0);
  if (x.store() != Store::I64) return c.fail("x must be an integer tensor, got " + std::string(dtypeName(x.dtype)));
  const RtTensor* zp = c.has(2) ? &c.input(2) : nullptr;
  if (zp && zp->dtype != x.dtype)
    return c.fail("x (" + std::string(dtypeName(x.dtype)) + ") and x_zero_point (" + std::string(dtypeName(zp->dtype)) +
                  ") types differ");
  auto p = quantParams(c, x.dims, c.input(1), zp);
  if (!p.ok()) return p.error();
  const QParams& q = *p;
  if (x.dtype == DType::Int32)
    for (int64_t v : q.zp)
      if (v != 0) return c.fail("an int32 input needs a zero point of 0");
  RtTensor y = RtTensor::alloc(c.input(1).dtype, x.dims);
  const int64_t* xs = x.i();
  float* ys = y.mf();
  parallelFor(x.numel(), 2, [&](int64_t b, int64_t e) {
    // Runs of `inner` elements share a channel: its scale and zero point are looked up once a run.
    for (int64_t k = b; k < e;) {
      const int64_t ch = q.channel(k);
      const int64_t end = q.perAxis ? std::min(e, (k / q.inner + 1) * q.inner) : e;
      const int64_t z = q.zp[static_cast<size_t>(ch)];
      const float sc = q.scale[static_cast<size_t>(ch)];
      // As ONNX Runtime: float(int32(x) - int32(zp)) * scale.
      for (; k < end; ++k) ys[k] = static_cast<float>(static_cast<int32_t>(xs[k] - z)) * sc;
    }
  });
  c.out[0] = std::move(y);
  return {};
}

Status opDynamicQuantizeLinear(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor x = asFloat(c.input(0));
  const int64_t n = x.numel();
  float mn = 0.f, mx = 0.f;  // the range always includes 0
  for (int64_t k = 0; k < n; ++k) {
    mn = std::min(mn, x.f()[k]);
    mx = std::max(mx, x.f()[k]);
  }
  const QRange r{0, 255};
  const float scale = (mx - mn) / 255.f;
  int64_t zp = 0;
  if (scale != 0.f) {
    const float z = 0.f - mn / scale;
    zp = static_cast<int64_t>(std::nearbyint(std::min(255.f, std::max(0.f, z))));
  }
  RtTensor y = RtTensor::alloc(DType::UInt8, x.dims);
  for (int64_t k = 0; k < n; ++k) y.mi()[k] = scale != 0.f ? quantizeValue(x.f()[k] / scale, zp, r) : zp;
  RtTensor s = RtTensor::alloc(DType::Float32, {});
  s.mf()[0] = scale;
  RtTensor z = RtTensor::alloc(DType::UInt8, {});
  z.mi()[0] = zp;
  c.out[0] = std::move(y);
  if (c.out.size() > 1) c.out[1] = std::move(s);
  if (c.out.size() > 2) c.out[2] = std::move(z);
  return {};
}

// A scalar (or one-element) float parameter.
Result<float> scalarScale(const OpContext& c, const RtTensor& t, const char* what) {
  if (t.store() != Store::F32) return c.fail(std::string(what) + " must be floating-point");
  if (t.numel() != 1) return c.fail(std::string(what) + " must be a scalar, got " + dimsStr(t.dims));
  return t.f()[0];
}

// Output type, range and zero point of the requantized result (y_zero_point may be omitted: uint8, 0).
Status outputQuant(const OpContext& c, size_t zpIndex, DType& type, QRange& r, int64_t& zp) {
  type = DType::UInt8;
  zp = 0;
  if (c.has(zpIndex)) {
    const RtTensor& z = c.input(zpIndex);
    if (z.numel() != 1) return c.fail("y_zero_point must be a scalar, got " + dimsStr(z.dims));
    type = z.dtype;
    zp = z.getI(0);
  }
  if (!quantRange(type, r) || type == DType::Int32) return c.fail("unsupported output type " + std::string(dtypeName(type)));
  return {};
}

// float(acc) * multiplier, rounded half to even, plus the zero point, saturated (MlasRequantizeOutput).
inline int64_t requantize(int64_t acc, float multiplier, int64_t zp, const QRange& r) {
  return quantizeValue(static_cast<float>(acc) * multiplier, zp, r);
}

Status opQLinearConv(OpContext& c) {
  for (size_t k = 0; k < 7; ++k)
    if (!c.has(k)) return c.fail("expects x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale[, y_zero_point, B]");
  const RtTensor& X = c.input(0);
  const RtTensor& W = c.input(3);
  if (X.store() != Store::I64 || W.store() != Store::I64) return c.fail("x and w must be quantized integer tensors");
  if (X.rank() < 3 || W.rank() != X.rank())
    return c.fail("X " + dimsStr(X.dims) + " and W " + dimsStr(W.dims) + " must have the same rank >= 3");
  auto xs = scalarScale(c, c.input(1), "x_scale");
  if (!xs.ok()) return xs.error();
  auto ys = scalarScale(c, c.input(6), "y_scale");
  if (!ys.ok()) return ys.error();
  if (c.input(2).numel() != 1) return c.fail("x_zero_point must be a scalar");
  const int64_t xzp = c.input(2).getI(0);
  const int64_t group = c.attrInt("group", 1);
  const int64_t N = X.dims[0], C = X.dims[1], M = W.dims[0];
  if (group <= 0 || C % group || M % group || W.dims[1] != C / group)
    return c.fail("channel mismatch: X has " + std::to_string(C) + " channels, W " + dimsStr(W.dims) + ", group " +
                  std::to_string(group));
  // Per-tensor or per-output-channel weight scale and zero point.
  const RtTensor& wsT = c.input(4);
  const RtTensor& wzT = c.input(5);
  if (wsT.store() != Store::F32) return c.fail("w_scale must be floating-point");
  if ((wsT.numel() != 1 && wsT.numel() != M) || (wzT.numel() != 1 && wzT.numel() != M))
    return c.fail("w_scale " + dimsStr(wsT.dims) + " / w_zero_point " + dimsStr(wzT.dims) + " must have 1 or " +
                  std::to_string(M) + " values");
  DType outType;
  QRange r{};
  int64_t yzp = 0;
  FW_TRY_STATUS(outputQuant(c, 7, outType, r, yzp));
  std::vector<int64_t> bias;
  if (c.has(8)) {
    const RtTensor& B = c.input(8);
    if (B.store() != Store::I64 || B.numel() != M)
      return c.fail("B must be an int32 vector of " + std::to_string(M) + " values, got " + dimsStr(B.dims));
    bias.assign(B.i(), B.i() + M);
  }
  std::vector<float> mult(static_cast<size_t>(M));
  std::vector<int64_t> wzp(static_cast<size_t>(M));
  for (int64_t m = 0; m < M; ++m) {
    // The same float expression as ONNX Runtime: x_scale * w_scale / y_scale.
    mult[static_cast<size_t>(m)] = *xs * wsT.f()[wsT.numel() == 1 ? 0 : m] / *ys;
    wzp[static_cast<size_t>(m)] = wzT.getI(wzT.numel() == 1 ? 0 : m);
  }
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end());
  std::vector<int64_t> kernel(W.dims.begin() + 2, W.dims.end());
  auto geo = convGeometry(c, spatial, kernel, false);
  if (!geo.ok()) return geo.error();
  const ConvGeometry& g = *geo;
  std::vector<int64_t> ydims{N, M};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  RtTensor Y = RtTensor::alloc(outType, ydims);
  const int64_t Cg = C / group, Mg = M / group, kp = g.kernelSize(), op = g.outSize(), ip = g.inSize();
  const int64_t K = Cg * kp;
  const size_t r0 = g.in.size();
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  // Zero-point-adjusted weights, [M, K].
  std::vector<int32_t> wq(static_cast<size_t>(M * K));
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k)
      wq[static_cast<size_t>(m * K + k)] = static_cast<int32_t>(W.i()[m * K + k] - wzp[static_cast<size_t>(m)]);
  // Input offsets of each (kernel position, output position); -1 where the window reads padding.
  std::vector<int64_t> srcOff(static_cast<size_t>(kp * op));
  {
    std::vector<int64_t> kidx(r0);
    for (int64_t kk = 0; kk < kp; ++kk) {
      for (size_t d = 0; d < r0; ++d) kidx[d] = (kk / kstr[d]) % g.kernel[d];
      for (int64_t o = 0; o < op; ++o) {
        int64_t off = 0;
        for (size_t d = 0; d < r0 && off >= 0; ++d) {
          const int64_t od = (o / ostr[d]) % g.out[d];
          const int64_t id = od * g.strides[d] + kidx[d] * g.dilations[d] - g.padsBegin[d];
          off = (id < 0 || id >= g.in[d]) ? -1 : off + id * istr[d];
        }
        srcOff[static_cast<size_t>(kk * op + o)] = off;
      }
    }
  }
  std::vector<int32_t> col(static_cast<size_t>(K * op));
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t gr = 0; gr < group; ++gr) {
      const int64_t* xg = X.i() + (n * C + gr * Cg) * ip;
      // im2col of x - x_zero_point (padding reads the zero point, i.e. 0 after the shift).
      for (int64_t ci = 0; ci < Cg; ++ci)
        for (int64_t kk = 0; kk < kp; ++kk) {
          int32_t* dst = col.data() + (ci * kp + kk) * op;
          const int64_t* so = srcOff.data() + kk * op;
          for (int64_t o = 0; o < op; ++o)
            dst[o] = so[o] < 0 ? 0 : static_cast<int32_t>(xg[ci * ip + so[o]] - xzp);
        }
      parallelFor(Mg, K * op, [&](int64_t b, int64_t e) {
        std::vector<int64_t> acc(static_cast<size_t>(op));
        for (int64_t mg = b; mg < e; ++mg) {
          const int64_t m = gr * Mg + mg;
          std::fill(acc.begin(), acc.end(), bias.empty() ? 0 : bias[static_cast<size_t>(m)]);
          const int32_t* wr = wq.data() + m * K;
          for (int64_t k = 0; k < K; ++k) {
            const int64_t wv = wr[k];
            if (wv == 0) continue;
            const int32_t* cr = col.data() + k * op;
            for (int64_t o = 0; o < op; ++o) acc[static_cast<size_t>(o)] += wv * cr[o];
          }
          int64_t* yr = Y.mi() + (n * M + m) * op;
          const float mu = mult[static_cast<size_t>(m)];
          for (int64_t o = 0; o < op; ++o) yr[o] = requantize(acc[static_cast<size_t>(o)], mu, yzp, r);
        }
      });
    }
  }
  c.out[0] = std::move(Y);
  return {};
}

Status opQLinearMatMul(OpContext& c) {
  for (size_t k = 0; k < 7; ++k)
    if (!c.has(k)) return c.fail("expects a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale[, y_zero_point]");
  const RtTensor& A = c.input(0);
  const RtTensor& B = c.input(3);
  if (A.store() != Store::I64 || B.store() != Store::I64) return c.fail("a and b must be quantized integer tensors");
  if (A.rank() == 0 || B.rank() == 0) return c.fail("inputs must not be scalars");
  auto ys = scalarScale(c, c.input(6), "y_scale");
  if (!ys.ok()) return ys.error();
  DType outType;
  QRange r{};
  int64_t yzp = 0;
  FW_TRY_STATUS(outputQuant(c, 7, outType, r, yzp));
  auto shape = matmulShape(A.dims, B.dims);
  if (!shape.ok()) return c.fail(shape.error().message);
  const MatMulShape& ms = *shape;
  const int64_t M = ms.M, K = ms.K, N = ms.N;
  const int64_t nb = ms.batches(), nbA = numelOf(ms.aBatch), nbB = numelOf(ms.bBatch);
  // a's scale / zero point: per tensor, per row (M values) or per row of every batch (nbA * M);
  // b's: per tensor, per column (N) or per column of every batch (nbB * N).
  const RtTensor &asT = c.input(1), &azT = c.input(2), &bsT = c.input(4), &bzT = c.input(5);
  if (asT.store() != Store::F32 || bsT.store() != Store::F32) return c.fail("scales must be floating-point");
  auto perIndex = [](int64_t numel, int64_t rows, int64_t batches) -> int {
    if (numel == 1) return 0;
    if (numel == rows) return 1;
    if (numel == rows * batches) return 2;
    return -1;
  };
  const int aMode = perIndex(asT.numel(), M, nbA), bMode = perIndex(bsT.numel(), N, nbB);
  if (aMode < 0 || azT.numel() != asT.numel())
    return c.fail("a_scale " + dimsStr(asT.dims) + " / a_zero_point " + dimsStr(azT.dims) + " do not match a " + dimsStr(A.dims));
  if (bMode < 0 || bzT.numel() != bsT.numel())
    return c.fail("b_scale " + dimsStr(bsT.dims) + " / b_zero_point " + dimsStr(bzT.dims) + " do not match b " + dimsStr(B.dims));
  RtTensor Y = RtTensor::alloc(outType, ms.out);
  std::vector<int64_t> acc(static_cast<size_t>(N));
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t oa = ms.aMatrix(b), ob = ms.bMatrix(b);
    const int64_t* pa = A.i() + oa * M * K;
    const int64_t* pb = B.i() + ob * K * N;
    int64_t* py = Y.mi() + b * M * N;
    for (int64_t i = 0; i < M; ++i) {
      const int64_t ai = aMode == 0 ? 0 : aMode == 1 ? i : oa * M + i;
      const int64_t azp = azT.getI(ai);
      std::fill(acc.begin(), acc.end(), 0);
      for (int64_t k = 0; k < K; ++k) {
        const int64_t av = pa[i * K + k] - azp;
        const int64_t* br = pb + k * N;
        for (int64_t j = 0; j < N; ++j) {
          const int64_t bj = bMode == 0 ? 0 : bMode == 1 ? j : ob * N + j;
          acc[static_cast<size_t>(j)] += av * (br[j] - bzT.getI(bj));
        }
      }
      for (int64_t j = 0; j < N; ++j) {
        const int64_t bj = bMode == 0 ? 0 : bMode == 1 ? j : ob * N + j;
        // ONNX Runtime's multiplier: a_scale * b_scale / y_scale in float.
        const float mu = asT.f()[ai] * bsT.f()[bj] / *ys;
        py[i * N + j] = requantize(acc[static_cast<size_t>(j)], mu, yzp, r);
      }
    }
  }
  c.out[0] = std::move(Y);
  return {};
}

}  // namespace

std::vector<OpEntry> quantOps() {
  return {{"QuantizeLinear", opQuantizeLinear},
          {"DequantizeLinear", opDequantizeLinear},
          {"DynamicQuantizeLinear", opDynamicQuantizeLinear},
          {"QLinearConv", opQLinearConv},
          {"QLinearMatMul", opQLinearMatMul}};
}

}  // namespace fw::exec
