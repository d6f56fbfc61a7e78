// Pooling: MaxPool (with Indices), AveragePool, GlobalAveragePool, GlobalMaxPool; any spatial rank.
#include <cmath>
#include <limits>

#include "core/exec/ConvGeometry.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

template <class T>
void poolPlanes(const T* x, T* y, int64_t* indices, int64_t planes, const ConvGeometry& g, bool isMax,
                bool countPad, bool colMajor) {
  const size_t r = g.in.size();
  const int64_t ip = g.inSize(), op = g.outSize(), kp = g.kernelSize();
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  // Column-major index strides (storage_order = 1) over the spatial dims.
  std::vector<int64_t> cstr(r, 1);
  for (size_t d = 1; d < r; ++d) cstr[d] = cstr[d - 1] * g.in[d - 1];
  if (r == 2 && isMax && !indices) {
    // The common case (e.g. the ResNet stem): a direct 2-D loop.
    const int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1];
    parallelFor(planes, op * kp, [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) {
        const T* xp = x + p * ip;
        T* yp = y + p * op;
        for (int64_t oh = 0; oh < OH; ++oh) {
          const int64_t h0 = oh * g.strides[0] - g.padsBegin[0];
          for (int64_t ow = 0; ow < OW; ++ow) {
            const int64_t w0 = ow * g.strides[1] - g.padsBegin[1];
            bool any = false;
            T best{};
            for (int64_t kh = 0; kh < g.kernel[0]; ++kh) {
              const int64_t ih = h0 + kh * g.dilations[0];
              if (ih < 0 || ih >= H) continue;
              for (int64_t kw = 0; kw < g.kernel[1]; ++kw) {
                const int64_t iw = w0 + kw * g.dilations[1];
                if (iw < 0 || iw >= W) continue;
                const T v = xp[ih * W + iw];
                if (!any || v > best) best = v;
                any = true;
              }
            }
            yp[oh * OW + ow] = any ? best : T{};
          }
        }
      }
    });
    return;
  }
  parallelFor(planes, op * kp, [&](int64_t b, int64_t e) {
    std::vector<int64_t> oidx(r), base(r);
    for (int64_t p = b; p < e; ++p) {
      const T* xp = x + p * ip;
      for (int64_t o = 0; o < op; ++o) {
        for (size_t d = 0; d < r; ++d) {
          oidx[d] = (o / ostr[d]) % g.out[d];
          base[d] = oidx[d] * g.strides[d] - g.padsBegin[d];
        }
        double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
        int64_t best = -1, count = 0, padCount = 0;
        for (int64_t k = 0; k < kp; ++k) {
          int64_t off = 0, coff = 0;
          bool inside = true, inPadded = true;
          for (size_t d = 0; d < r; ++d) {
            const int64_t id = base[d] + ((k / kstr[d]) % g.kernel[d]) * g.dilations[d];
            if (id < -g.padsBegin[d] || id >= g.in[d] + g.padsEnd[d]) inPadded = false;
            if (id < 0 || id >= g.in[d]) inside = false;
            off += id * istr[d];
            coff += id * cstr[d];
          }
          if (inPadded) ++padCount;
          if (!inside) continue;
          ++count;
          const double v = static_cast<double>(xp[off]);
          if (isMax) {
            if (v > acc || best < 0) {
              acc = v;
              best = colMajor ? coff : off;
            }
          } else {
            acc += v;
          }
        }
        if (isMax) {
          y[p * op + o] = static_cast<T>(acc);
          if (indices) indices[p * op + o] = p * ip + best;
        } else {
          const int64_t div = countPad ? padCount : count;
          y[p * op + o] = static_cast<T>(div > 0 ? acc / static_cast<double>(div) : 0.0);
        }
      }
    }
  });
}

Status pool(OpContext& c, bool isMax) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& X = c.input(0);
  if (X.rank() < 3) return c.fail("X must have rank >= 3, got " + dimsStr(X.dims));
  std::vector<int64_t> spatial(X.dims.begin() + 2, X.dims.end());
  auto geo = poolGeometry(c, spatial);
  if (!geo.ok()) return geo.error();
  std::vector<int64_t> ydims{X.dims[0], X.dims[1]};
  ydims.insert(ydims.end(), geo->out.begin(), geo->out.end());
  const int64_t planes = X.dims[0] * X.dims[1];
  const bool countPad = c.attrInt("count_include_pad", 0) != 0;
  const bool colMajor = c.attrInt("storage_order", 0) != 0;
  RtTensor Y = RtTensor::alloc(X.dtype, ydims);
  RtTensor I;
  if (isMax && c.wants(1)) I = RtTensor::alloc(DType::Int64, ydims);
  int64_t* ip = I.defined() ? I.mi() : nullptr;
  if (X.store() == Store::F32) poolPlanes(X.f(), Y.mf(), ip, planes, *geo, isMax, countPad, colMajor);
  else if (X.store() == Store::I64) poolPlanes(X.i(), Y.mi(), ip, planes, *geo, isMax, countPad, colMajor);
  else return c.fail("unsupported type " + std::string(dtypeName(X.dtype)));
  c.out[0] = std::move(Y);
  if (I.defined()) c.out[1] = std::move(I);
  return {};
}

Status opMaxPool(OpContext& c) { return pool(c, true); }
Status opAveragePool(OpContext& c) { return pool(c, false); }

Status globalPool(OpContext& c, bool isMax) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor X = asFloat(c.input(0));
  if (X.rank() < 3) return c.fail("X must have rank >= 3, got " + dimsStr(X.dims));
  std::vector<int64_t> ydims(X.dims.size(), 1);
  ydims[0] = X.dims[0];
  ydims[1] = X.dims[1];
  const int64_t planes = X.dims[0] * X.dims[1], inner = X.numel() / std::max<int64_t>(1, planes);
  RtTensor Y = RtTensor::alloc(c.input(0).dtype, ydims);
  parallelFor(planes, inner, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const float* xp = X.f() + p * inner;
      if (isMax) {
        float m = -std::numeric_limits<float>::infinity();
        for (int64_t k = 0; k < inner; ++k) m = std::max(m, xp[k]);
        Y.mf()[p] = m;
      } else {
        double s = 0;
        for (int64_t k = 0; k < inner; ++k) s += xp[k];
        Y.mf()[p] = static_cast<float>(s / static_cast<double>(inner));
      }
    }
  });
  c.out[0] = std::move(Y);
  return {};
}

Status opGlobalAveragePool(OpContext& c) { return globalPool(c, false); }
Status opGlobalMaxPool(OpContext& c) { return globalPool(c, true); }

}  // namespace

std::vector<OpEntry> poolOps() {
  return {{"MaxPool", opMaxPool},
          {"AveragePool", opAveragePool},
          {"GlobalAveragePool", opGlobalAveragePool},
          {"GlobalMaxPool", opGlobalMaxPool}};
}

}  // namespace fw::exec
