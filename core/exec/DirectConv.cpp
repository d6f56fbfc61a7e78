#include "core/exec/DirectConv.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/exec/FastMath.h"
#include "core/exec/OneDnn.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

#define FW_INLINE __attribute__((always_inline)) inline
using V4 = float __attribute__((vector_size(16)));
using V8 = float __attribute__((vector_size(32)));

// Output channels and vectors of positions one block keeps in registers: 4 x 3 accumulators, 3 loaded
// vectors and a broadcast weight fill the 16 registers of AVX2 or SSE. (One output channel, a depthwise
// Conv's, by 6 vectors instead took 4x as long as by 3 as written, its loops not unrolled: 8 x 64 x 512, 128
// taps, 10.7 against 2.7 ms; session 41.)
constexpr int kChannels = 4;
constexpr int kVectors = 3;
// One output channel alone (a depthwise Conv's) by 3 vectors keeps 3 chains of dependent multiply-adds, each
// waiting on the last's latency: over rows of at least 8 vectors' positions it takes 8 vectors, 8 chains (the
// loops unrolled whole; rows narrower would compute mostly padding).
constexpr int kWideVectors = 8;

template <class V>
FW_INLINE V loadu(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}
template <class V>
FW_INLINE void storeu(float* p, V v) {
  std::memcpy(p, &v, sizeof(V));
}

// One output row's positions for `MB` output channels: outs[i][t] = bias_i + sum over the input channels'
// rows r and taps k of w[i * strideM + r * K + k] * rows[r][t + k * dil] (rows[r] null: a row in the
// padding).
template <class V, int MB, int TV = kVectors>
FW_INLINE void block(int64_t R, int64_t K, int64_t dil, const float* const* rows, const float* w,
                     int64_t strideM, float* const* outs, const float* bias, int64_t OW, bool relu) {
  constexpr int L = sizeof(V) / sizeof(float);
  constexpr int span = L * TV;
  for (int64_t t0 = 0; t0 < OW; t0 += span) {
    V acc[MB][TV];
#pragma GCC unroll 4
    for (int i = 0; i < MB; ++i)
#pragma GCC unroll 8
      for (int j = 0; j < TV; ++j) acc[i][j] = V{} + (bias ? bias[i] : 0.f);
    for (int64_t r = 0; r < R; ++r) {
      const float* xr = rows[r];
      if (!xr) continue;
      xr += t0;
      const float* wr = w + r * K;
      for (int64_t k = 0; k < K; ++k) {
        V xv[TV];
#pragma GCC unroll 8
        for (int j = 0; j < TV; ++j) xv[j] = loadu<V>(xr + j * L + k * dil);
#pragma GCC unroll 4
        for (int i = 0; i < MB; ++i) {
          const float wv = wr[i * strideM + k];
#pragma GCC unroll 8
          for (int j = 0; j < TV; ++j) acc[i][j] += wv * xv[j];
        }
      }
    }
    const int64_t n = std::min<int64_t>(span, OW - t0);
#pragma GCC unroll 4
    for (int i = 0; i < MB; ++i) {
      if (relu)
#pragma GCC unroll 8
        for (int j = 0; j < TV; ++j) acc[i][j] = acc[i][j] < 0.f ? V{} : acc[i][j];  // NaN stays NaN
      if (n == span) {
#pragma GCC unroll 8
        for (int j = 0; j < TV; ++j) storeu(outs[i] + t0 + j * L, acc[i][j]);
      } else {
        float tail[span];
        for (int j = 0; j < TV; ++j) storeu(tail + j * L, acc[i][j]);
        std::memcpy(outs[i] + t0, tail, static_cast<size_t>(n) * sizeof(float));
      }
    }
  }
}

// What every output row of the Conv needs: shapes, the padded input and the operands.
struct Job {
  const ConvProblem* p = nullptr;
  int64_t Cg = 0, Mg = 0, K = 0, dil = 1, rowsIn = 0, rowsOut = 0, OW = 0, Wp = 0;
  const float* padded = nullptr;  // [N * C * rowsIn][Wp]: each input row with its last axis's padding
  // A bank over rows: the input as it is ([N * C * rowsIn][OW]).
  const float* x = nullptr;
  // Each tap's offset along every axis before the last (taps x axes, dilated), the taps in the weight's
  // order: one tap of offset 0 for a kernel of 1 along them.
  int64_t taps = 0;
  std::vector<int64_t> tapOffsets;
  const float* w = nullptr;
  const float* bias = nullptr;
  float* y = nullptr;
  bool relu = false;
};

// The input row that tap `t` of output row `base` (its first tap's position along each axis before the last)
// lands on, as a row index of one channel's rows, or -1 in the padding.
FW_INLINE int64_t tapRow(const Job& j, const int64_t* base, int64_t t) {
  const ConvGeometry& g = j.p->geo;
  const size_t axes = g.in.size() - 1;
  int64_t in = 0, stride = 1;
  for (size_t d = axes; d-- > 0;) {
    const int64_t i = base[d] + j.tapOffsets[static_cast<size_t>(t) * axes + d];
    if (i < 0 || i >= g.in[d]) return -1;
    in += i * stride;
    stride *= g.in[d];
  }
  return in;
}

// Output row `orow`'s first tap's position along each axis before the last, into `base`.
FW_INLINE void rowBase(const ConvGeometry& g, int64_t orow, int64_t* base) {
  for (size_t d = g.in.size() - 1, rem = static_cast<size_t>(orow); d-- > 0;) {
    base[d] = (static_cast<int64_t>(rem) % g.out[d]) * g.strides[d] - g.padsBegin[d];
    rem /= static_cast<size_t>(g.out[d]);
  }
}

// Output rows [b, e) of N * group * rowsOut, each of every output channel of its group: every input channel's
// rows its taps along the axes before the last land on (one for a kernel of 1 along them), each padded
// along the last axis and read at K taps.
template <class V>
FW_INLINE void runRows(const Job& j, int64_t b, int64_t e) {
  const ConvProblem& p = *j.p;
  const ConvGeometry& g = p.geo;
  const int64_t R = j.Cg * j.taps;
  const float* rows[kDirectConvMaxRows];
  float* outs[kChannels];
  int64_t base[8];
  for (int64_t item = b; item < e; ++item) {
    const int64_t orow = item % j.rowsOut, ng = item / j.rowsOut, grp = ng % p.group, n = ng / p.group;
    rowBase(g, orow, base);
    for (int64_t t = 0; t < j.taps; ++t) {
      const int64_t in = tapRow(j, base, t);
      for (int64_t c = 0; c < j.Cg; ++c)
        rows[c * j.taps + t] =
            in >= 0 ? j.padded + ((n * p.C + grp * j.Cg + c) * j.rowsIn + in) * j.Wp : nullptr;
    }
    const int64_t strideM = R * j.K;
    for (int64_t m0 = 0; m0 < j.Mg; m0 += kChannels) {
      const int64_t mb = std::min<int64_t>(kChannels, j.Mg - m0), m = grp * j.Mg + m0;
      for (int64_t i = 0; i < mb; ++i) outs[i] = j.y + ((n * p.M + m + i) * j.rowsOut + orow) * j.OW;
      const float* w = j.w + m * strideM;
      const float* bias = j.bias ? j.bias + m : nullptr;
      switch (mb) {
        case 1:
          if (j.OW >= static_cast<int64_t>(sizeof(V) / sizeof(float)) * kWideVectors)
            block<V, 1, kWideVectors>(R, j.K, j.dil, rows, w, strideM, outs, bias, j.OW, j.relu);
          else
            block<V, 1>(R, j.K, j.dil, rows, w, strideM, outs, bias, j.OW, j.relu);
          break;
        case 2:
          block<V, 2>(R, j.K, j.dil, rows, w, strideM, outs, bias, j.OW, j.relu);
          break;
        case 3:
          block<V, 3>(R, j.K, j.dil, rows, w, strideM, outs, bias, j.OW, j.relu);
          break;
        default:
          block<V, 4>(R, j.K, j.dil, rows, w, strideM, outs, bias, j.OW, j.relu);
          break;
      }
    }
  }
}

template <class V, int MB>
FW_INLINE void rowBlock(int64_t R, const float* const* rows, const float* w, int64_t strideM,
                        float* const* outs, const float* bias, int64_t OW, bool relu) {
  block<V, MB>(R, 1, 1, rows, w, strideM, outs, bias, OW, relu);
}

// A bank over rows: output rows [b, e) of N * group * rowsOut, each of every output channel of its group,
// from the input rows its taps land on (null in the padding), each read as one tap; the positions past
// the last whole block of vectors from copies of those rows' ends, so no load passes a row.
template <class V>
FW_INLINE void runRowBank(const Job& j, int64_t b, int64_t e) {
  constexpr int64_t span = static_cast<int64_t>(sizeof(V) / sizeof(float)) * kVectors;
  const ConvProblem& p = *j.p;
  const ConvGeometry& g = p.geo;
  const int64_t R = j.Cg * j.taps, whole = j.OW / span * span, rest = j.OW - whole;
  const float* rows[kDirectConvMaxRows];
  const float* tailRows[kDirectConvMaxRows];
  float tails[kDirectConvMaxRows][span];
  float* outs[kChannels];
  float* tailOuts[kChannels];
  int64_t base[8];
  for (int64_t item = b; item < e; ++item) {
    const int64_t orow = item % j.rowsOut, ng = item / j.rowsOut, grp = ng % p.group, n = ng / p.group;
    rowBase(g, orow, base);
    for (int64_t t = 0; t < j.taps; ++t) {
      const int64_t in = tapRow(j, base, t);
      const bool inside = in >= 0;
      for (int64_t c = 0; c < j.Cg; ++c) {
        const int64_t r = c * j.taps + t;
        rows[r] = inside ? j.x + ((n * p.C + grp * j.Cg + c) * j.rowsIn + in) * j.OW : nullptr;
        tailRows[r] = nullptr;
        if (inside && rest > 0) {
          std::memcpy(tails[r], rows[r] + whole, static_cast<size_t>(rest) * sizeof(float));
          std::fill(tails[r] + rest, tails[r] + span, 0.f);
          tailRows[r] = tails[r];
        }
      }
    }
    const int64_t strideM = R;
    for (int64_t m0 = 0; m0 < j.Mg; m0 += kChannels) {
      const int64_t mb = std::min<int64_t>(kChannels, j.Mg - m0), m = grp * j.Mg + m0;
      for (int64_t i = 0; i < mb; ++i) {
        outs[i] = j.y + ((n * p.M + m + i) * j.rowsOut + orow) * j.OW;
        tailOuts[i] = outs[i] + whole;
      }
      const float* w = j.w + m * strideM;
      const float* bias = j.bias ? j.bias + m : nullptr;
      for (int part = 0; part < 2; ++part) {
        const float* const* rs = part == 0 ? rows : tailRows;
        float* const* os = part == 0 ? outs : tailOuts;
        const int64_t ow = part == 0 ? whole : rest;
        if (ow == 0) continue;
        switch (mb) {
          case 1:
            rowBlock<V, 1>(R, rs, w, strideM, os, bias, ow, j.relu);
            break;
          case 2:
            rowBlock<V, 2>(R, rs, w, strideM, os, bias, ow, j.relu);
            break;
          case 3:
            rowBlock<V, 3>(R, rs, w, strideM, os, bias, ow, j.relu);
            break;
          default:
            rowBlock<V, 4>(R, rs, w, strideM, os, bias, ow, j.relu);
            break;
        }
      }
    }
  }
}

__attribute__((target("avx2,fma"))) void runRowsAvx2(const Job& j, int64_t b, int64_t e) {
  if (j.x)
    runRowBank<V8>(j, b, e);
  else
    runRows<V8>(j, b, e);
}
void runRowsSse(const Job& j, int64_t b, int64_t e) {
  if (j.x)
    runRowBank<V4>(j, b, e);
  else
    runRows<V4>(j, b, e);
}

}  // namespace

bool directConvolutionFits(int64_t C, int64_t M, int64_t group, const std::vector<int64_t>& kernel,
                           int64_t lastStride, bool lastPadded) {
  if (kernel.empty() || kernel.size() > 8 || group < 1 || C % group != 0 || M % group != 0) return false;
  if (C / group > kDirectConvMaxChannels || lastStride != 1) return false;
  int64_t taps = 1;
  for (size_t d = 0; d + 1 < kernel.size(); ++d) {
    if (kernel[d] < 1) return false;
    taps *= kernel[d];
  }
  // Taps along the last axis, and along the others too when their input rows fit (a large-kernel depthwise
  // Conv: RepLKNet's 31 x 31).
  const int64_t minTaps =
      group > 1 && C == group && taps == 1 ? kDirectConvMinTapsDepthwise : kDirectConvMinTaps;
  if (kernel.back() >= minTaps) return taps == 1 || (C / group) * taps <= kDirectConvMaxRows;
  if (taps == 1) return false;
  // A bank over rows.
  return kernel.back() == 1 && !lastPadded && taps >= kDirectConvMinTaps &&
         (C / group) * taps <= kDirectConvMaxRows;
}

bool directConvolutionApplies(const ConvProblem& p) {
  const ConvGeometry& g = p.geo;
  const size_t r = g.in.size();
  if (p.transposed || r < 1 || g.kernel.size() != r || g.out.size() != r || g.strides.size() != r ||
      g.dilations.size() != r || g.padsBegin.size() != r || g.padsEnd.size() != r)
    return false;
  if (!directConvolutionFits(p.C, p.M, p.group, g.kernel, g.strides[r - 1],
                             g.padsBegin[r - 1] != 0 || g.padsEnd[r - 1] != 0))
    return false;
  if (g.kernel[r - 1] == 1 && g.out[r - 1] != g.in[r - 1]) return false;
  return g.padsBegin[r - 1] >= 0 && g.padsEnd[r - 1] >= 0 && g.outSize() > 0;
}

void directConvolution(const ConvProblem& p, const float* x, const float* w, const float* bias, float* y,
                       bool relu) {
  const ConvGeometry& g = p.geo;
  const size_t a = g.in.size() - 1;
  Job j;
  j.p = &p;
  j.Cg = p.C / p.group;
  j.Mg = p.M / p.group;
  j.K = g.kernel[a];
  j.dil = g.dilations[a];
  j.rowsIn = j.rowsOut = 1;
  for (size_t d = 0; d < a; ++d) {
    j.rowsIn *= g.in[d];
    j.rowsOut *= g.out[d];
  }
  j.OW = g.out[a];
  j.w = w;
  j.bias = bias;
  j.y = y;
  j.relu = relu;
  // Each tap's position along the axes before the last.
  j.taps = 1;
  for (size_t d = 0; d < a; ++d) j.taps *= g.kernel[d];
  j.tapOffsets.resize(static_cast<size_t>(j.taps) * a);
  for (int64_t t = 0; t < j.taps; ++t)
    for (size_t d = a, rem = static_cast<size_t>(t); d-- > 0;) {
      j.tapOffsets[static_cast<size_t>(t) * a + d] =
          (static_cast<int64_t>(rem) % g.kernel[d]) * g.dilations[d];
      rem /= static_cast<size_t>(g.kernel[d]);
    }
  if (g.kernel[a] == 1 && a > 0) {
    // A bank over rows: read in place, each tap (a position of the kernel along the axes before the last)
    // its own row.
    j.x = x;
  } else {
    // Room for the last block's vectors beyond the row (up to 8 x 8 positions) and the taps after them.
    const int64_t W = g.in[a], padL = g.padsBegin[a];
    j.Wp = std::max(padL + W, j.OW + 64 + (j.K - 1) * j.dil);
    const int64_t inRows = p.N * p.C * j.rowsIn;
    float* padded = static_cast<float*>(
        onednn::staged(
            0, dnnl::memory::desc({inRows * j.Wp}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a))
            .get_data_handle());
    parallelFor(inRows, j.Wp, [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        float* dst = padded + row * j.Wp;
        std::fill(dst, dst + padL, 0.f);
        std::memcpy(dst + padL, x + row * W, static_cast<size_t>(W) * sizeof(float));
        std::fill(dst + padL + W, dst + j.Wp, 0.f);
      }
    });
    j.padded = padded;
  }
  const bool avx2 = fastmath::lanes() >= 8 && __builtin_cpu_supports("fma");
  parallelFor(p.N * p.group * j.rowsOut, j.Mg * j.OW * j.Cg * j.taps * j.K, [&](int64_t b, int64_t e) {
    if (avx2)
      runRowsAvx2(j, b, e);
    else
      runRowsSse(j, b, e);
  });
}

}  // namespace fw::exec
