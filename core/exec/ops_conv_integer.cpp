// Integer convolution and matrix product: ConvInteger, MatMulInteger.
//
// Direct implementations, not oneDNN primitives: oneDNN's int8 convolution wants u8 x s8 with a zero
// point only on the source, while ONNX allows u8/s8 on both sides and per-channel weight zero points;
// these ops are rare in practice, so an exact int32-accumulating loop (im2col + row products) is used.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/ConvGeometry.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

// ---------------------------------------------------------------------------------------------------
// ConvInteger / MatMulInteger: int32 results of (x - x_zero_point) * (w - w_zero_point), exact;
// the accumulator wraps like an int32 one would.

inline int64_t wrapInt32(int64_t v) { return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)))); }

Status zeroPoints(const OpContext& c, size_t k, const char* name, int64_t count, const char* perWhat,
                  std::vector<int64_t>& zp) {
  zp.assign(static_cast<size_t>(std::max<int64_t>(count, 0)), 0);
  if (!c.has(k)) return {};
  const RtTensor& z = c.input(k);
  if (z.store() != Store::I64) return c.fail(std::string(name) + " must be an integer tensor");
  if (z.numel() == 1) {
    std::fill(zp.begin(), zp.end(), z.i()[0]);
    return {};
  }
  if (perWhat && z.rank() == 1 && z.numel() == count) {
    std::copy(z.i(), z.i() + count, zp.begin());
    return {};
  }
  return c.fail(std::string(name) + " must be a scalar" + (perWhat ? std::string(" or one value per ") + perWhat + " (" + std::to_string(count) + ")" : std::string()) +
                ", got " + dimsStr(z.dims));
}

Status opConvInteger(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects x and w");
  const RtTensor& X = c.input(0);
  const RtTensor& W = c.input(1);
  if (X.store() != Store::I64 || W.store() != Store::I64) return c.fail("x and w must be 8-bit integer tensors");
  if (X.rank() < 3 || W.rank() != X.rank())
    return c.fail("x " + dimsStr(X.dims) + " and w " + dimsStr(W.dims) + " must have the same rank >= 3");
  const int64_t group = c.attrInt("group", 1);
  const int64_t N = X.dims[0], C = X.dims[1], M = W.dims[0];
  if (group <= 0 || C % group || M % group || W.dims[1] != C / group)
    return c.fail("channel mismatch: x has " + std::to_string(C) + " channels, w " + dimsStr(W.dims) + ", group " + std::to_string(group));
  std::vector<int64_t> xzp, wzp;
  FW_TRY_STATUS(zeroPoints(c, 2, "x_zero_point", 1, nullptr, xzp));
  FW_TRY_STATUS(zeroPoints(c, 3, "w_zero_point", M, "output channel", wzp));
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end()), kernel(W.dims.begin() + 2, W.dims.end());
  auto geo = convGeometry(c, spatial, kernel, false);
  if (!geo.ok()) return geo.error();
  const ConvGeometry& g = *geo;
  std::vector<int64_t> ydims{N, M};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  RtTensor Y = RtTensor::alloc(DType::Int32, ydims);
  const int64_t Cg = C / group, Mg = M / group, kp = g.kernelSize(), op = g.outSize(), ip = g.inSize(), K = Cg * kp;
  const size_t r = g.in.size();
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  // Input offset of each (kernel position, output position); -1 where the window reads padding.
  std::vector<int64_t> srcOff(static_cast<size_t>(kp * op));
  for (int64_t kk = 0; kk < kp; ++kk)
    for (int64_t o = 0; o < op; ++o) {
      int64_t off = 0;
      for (size_t d = 0; d < r && off >= 0; ++d) {
        const int64_t id = ((o / ostr[d]) % g.out[d]) * g.strides[d] + ((kk / kstr[d]) % g.kernel[d]) * g.dilations[d] - g.padsBegin[d];
        off = (id < 0 || id >= g.in[d]) ? -1 : off + id * istr[d];
      }
      srcOff[static_cast<size_t>(kk * op + o)] = off;
    }
  // Padding is the zero point, i.e. 0 after subtracting it.
  std::vector<int64_t> col(static_cast<size_t>(K * op));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t gr = 0; gr < group; ++gr) {
      const int64_t* xg = X.i() + (n * C + gr * Cg) * ip;
      parallelFor(K, op, [&](int64_t b, int64_t e) {
        for (int64_t k = b; k < e; ++k) {
          const int64_t ci = k / kp, kk = k % kp;
          const int64_t* so = srcOff.data() + kk * op;
          int64_t* dst = col.data() + k * op;
          for (int64_t o = 0; o < op; ++o) dst[o] = so[o] < 0 ? 0 : xg[ci * ip + so[o]] - xzp[0];
        }
      });
      parallelFor(Mg, K * op, [&](int64_t b, int64_t e) {
        std::vector<int64_t> acc(static_cast<size_t>(op));
        for (int64_t mg = b; mg < e; ++mg) {
          const int64_t m = gr * Mg + mg;
          std::fill(acc.begin(), acc.end(), 0);
          const int64_t* wr = W.i() + m * K;
          for (int64_t k = 0; k < K; ++k) {
            const int64_t wv = wr[k] - wzp[static_cast<size_t>(m)];
            if (wv == 0) continue;
            const int64_t* cr = col.data() + k * op;
            for (int64_t o = 0; o < op; ++o) acc[static_cast<size_t>(o)] += wv * cr[o];
          }
          int64_t* yr = Y.mi() + (n * M + m) * op;
          for (int64_t o = 0; o < op; ++o) yr[o] = wrapInt32(acc[static_cast<size_t>(o)]);
        }
      });
    }
  c.out[0] = std::move(Y);
  return {};
}

Status opMatMulInteger(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects A and B");
  const RtTensor& A = c.input(0);
  const RtTensor& B = c.input(1);
  if (A.store() != Store::I64 || B.store() != Store::I64) return c.fail("A and B must be 8-bit integer tensors");
  if (A.rank() == 0 || B.rank() == 0) return c.fail("A and B must not be scalars");
  auto shape = matmulShape(A.dims, B.dims);
  if (!shape.ok()) return c.fail(shape.error().message);
  const MatMulShape& ms = *shape;
  const int64_t M = ms.M, K = ms.K, N = ms.N;
  std::vector<int64_t> azp, bzp;
  FW_TRY_STATUS(zeroPoints(c, 2, "a_zero_point", M, "row of A", azp));
  FW_TRY_STATUS(zeroPoints(c, 3, "b_zero_point", N, "column of B", bzp));
  RtTensor Y = RtTensor::alloc(DType::Int32, ms.out);
  parallelFor(ms.batches() * M, K * N, [&](int64_t b, int64_t e) {
    std::vector<int64_t> acc(static_cast<size_t>(N));
    for (int64_t bi = b; bi < e; ++bi) {
      const int64_t bat = bi / M, i = bi % M;
      const int64_t* pa = A.i() + ms.aMatrix(bat) * M * K + i * K;
      const int64_t* pb = B.i() + ms.bMatrix(bat) * K * N;
      std::fill(acc.begin(), acc.end(), 0);
      for (int64_t k = 0; k < K; ++k) {
        const int64_t av = pa[k] - azp[static_cast<size_t>(i)];
        if (av == 0) continue;
        const int64_t* br = pb + k * N;
        for (int64_t j = 0; j < N; ++j) acc[static_cast<size_t>(j)] += av * (br[j] - bzp[static_cast<size_t>(j)]);
      }
      int64_t* py = Y.mi() + bi * N;
      for (int64_t j = 0; j < N; ++j) py[j] = wrapInt32(acc[static_cast<size_t>(j)]);
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

}  // namespace

std::vector<OpEntry> convIntegerOps() {
  return {
      {"ConvInteger", opConvInteger},
      {"MatMulInteger", opMatMulInteger},
  };
}

}  // namespace fw::exec
