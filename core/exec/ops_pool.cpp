// Pooling: MaxPool (with Indices), AveragePool, GlobalAveragePool, GlobalMaxPool; any spatial rank.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/exec/ConvGeometry.h"
#include "core/exec/OpContext.h"
#include "core/exec/RowSum.h"

namespace fw::exec {
namespace {

// One pass of a separable pool: the window along spatial dim `d` of `planes` planes one after another,
// whose current dims are `dims` (row-major; the dims before `d` already pooled, the ones after not yet). A
// max keeps the first tap inside the input unless a later one is larger (a NaN there stays; a NaN later is
// passed over); a sum adds the taps inside. A window with no tap inside gets `empty`.
//
// The outputs whose window lies wholly inside the input, [lo, hi) along d, need no bounds checks: each is
// its taps' rows (`inner` values each) at fixed offsets. At stride 1 with as many outputs as inputs (a
// "same" window) the output at flat position f of the block takes the inputs at f + (t * dil - pb) x inner,
// so the inside outputs of every row of every plane are one loop over the block's flat positions from the
// first row's lo to the last row's hi, tap by tap (a loop the compiler vectorises); the positions between
// two rows' inside outputs, their borders, are then taken by the bounded loop. Otherwise the inside
// outputs run as such a loop a row. A plane of short rows is thus no loop of its own: a 3x3 MaxPool over
// [2, 512, 14, 14] (GoogLeNet's branch pools) took 2.5 ns an output row by row and plane by plane, 2.8x
// what the calibration's 32x32 planes took (session 64).
template <bool isMax, class A, class S>
void poolAlong(const S* src, A* dst, int64_t planes, const std::vector<int64_t>& dims, size_t d,
               const ConvGeometry& g, A empty) {
  int64_t outer = planes, inner = 1;
  for (size_t i = 0; i < d; ++i) outer *= dims[i];
  for (size_t i = d + 1; i < dims.size(); ++i) inner *= dims[i];
  const int64_t n = dims[d], on = g.out[d], k = g.kernel[d], st = g.strides[d], dil = g.dilations[d];
  const int64_t pb = g.padsBegin[d];
  const int64_t lo = pb <= 0 ? 0 : std::min(on, (pb + st - 1) / st);
  const int64_t last = n - 1 + pb - (k - 1) * dil;  // the last inside window starts at o * st <= last
  const int64_t hi = std::max(lo, last < 0 ? int64_t{0} : std::min(on, last / st + 1));
  // Taps t of outputs [0, m) at `stride` apart (inner == 1) or of whole rows (stride 1):
  // d0[j] from s0[j * stride + t * tapStep].
  auto inside = [&](const S* s0, A* d0, int64_t m, int64_t stride, int64_t tapStep) {
    if (stride == 1) {
      for (int64_t j = 0; j < m; ++j) d0[j] = static_cast<A>(s0[j]);
      for (int64_t t = 1; t < k; ++t) {
        const S* s = s0 + t * tapStep;
        for (int64_t j = 0; j < m; ++j) {
          const A v = static_cast<A>(s[j]);
          if constexpr (isMax)
            d0[j] = v > d0[j] ? v : d0[j];
          else
            d0[j] += v;
        }
      }
    } else {
      for (int64_t j = 0; j < m; ++j) d0[j] = static_cast<A>(s0[j * stride]);
      for (int64_t t = 1; t < k; ++t) {
        const S* s = s0 + t * tapStep;
        for (int64_t j = 0; j < m; ++j) {
          const A v = static_cast<A>(s[j * stride]);
          if constexpr (isMax)
            d0[j] = v > d0[j] ? v : d0[j];
          else
            d0[j] += v;
        }
      }
    }
  };
  const bool flat = st == 1 && on == n && hi > lo;
  if (flat)
    inside(src + (lo - pb) * inner, dst + lo * inner, ((outer - 1) * n + hi - lo) * inner, 1, dil * inner);
  for (int64_t a = 0; a < outer; ++a) {
    const S* sp = src + a * n * inner;
    A* dp = dst + a * on * inner;
    if (hi > lo && !flat) {
      if (inner == 1)
        inside(sp + lo * st - pb, dp + lo, hi - lo, st, dil);
      else if (st == 1)
        inside(sp + (lo - pb) * inner, dp + lo * inner, (hi - lo) * inner, 1, dil * inner);
    }
    const bool rowsDone = hi > lo && (inner == 1 || st == 1);
    for (int64_t o = 0; o < on; ++o) {
      if (o == lo && rowsDone) o = hi;
      if (o >= on) break;
      A* row = dp + o * inner;
      bool first = true;
      for (int64_t t = 0; t < k; ++t) {
        const int64_t i = o * st - pb + t * dil;
        if (i < 0 || i >= n) continue;
        const S* in = sp + i * inner;
        if (first) {
          for (int64_t j = 0; j < inner; ++j) row[j] = static_cast<A>(in[j]);
          first = false;
        } else if constexpr (isMax) {
          for (int64_t j = 0; j < inner; ++j)
            row[j] = static_cast<A>(in[j]) > row[j] ? static_cast<A>(in[j]) : row[j];
        } else {
          for (int64_t j = 0; j < inner; ++j) row[j] += static_cast<A>(in[j]);
        }
      }
      if (first) std::fill(row, row + inner, empty);
    }
  }
}

// A 2x2 window at stride 2 over 2-D planes, no padding, floats (a U-Net's or a VGG's downsampling): each
// output row from its two input rows directly, 4 outputs a step; the separable passes' max in their order
// (the row below against the row above, then the right column against the left), so the same results, NaN
// included. The two passes and their scratch took 180 us over [16, 32, 32, 32] (0.34 ns an input element, 1
// thread; a spiking CNN's pools at 0.46 of their simulated time, session 52).
bool isMaxPool2x2(const ConvGeometry& g) {
  if (g.in.size() != 2) return false;
  for (size_t d = 0; d < 2; ++d)
    if (g.kernel[d] != 2 || g.strides[d] != 2 || g.dilations[d] != 1 || g.padsBegin[d] != 0 ||
        g.padsEnd[d] != 0 || g.out[d] != g.in[d] / 2)
      return false;
  return true;
}

void maxPool2x2(const float* x, float* y, int64_t planes, const ConvGeometry& g) {
  using V4 = float __attribute__((vector_size(16)));  // SSE's width: wider types were split lane by lane
  const int64_t iw = g.in[1], oh = g.out[0], ow = g.out[1];
  parallelFor(planes * oh, 2 * iw, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const float* r0 = x + (row / oh) * g.in[0] * iw + (row % oh) * 2 * iw;
      const float* r1 = r0 + iw;
      float* out = y + row * ow;
      int64_t j = 0;
      for (; j + 4 <= ow; j += 4) {
        V4 p, q, u, v;
        std::memcpy(&p, r0 + 2 * j, sizeof p);
        std::memcpy(&q, r0 + 2 * j + 4, sizeof q);
        std::memcpy(&u, r1 + 2 * j, sizeof u);
        std::memcpy(&v, r1 + 2 * j + 4, sizeof v);
        const V4 m0 = u > p ? u : p, m1 = v > q ? v : q;
        const V4 left = __builtin_shufflevector(m0, m1, 0, 2, 4, 6);
        const V4 right = __builtin_shufflevector(m0, m1, 1, 3, 5, 7);
        const V4 o = right > left ? right : left;
        std::memcpy(out + j, &o, sizeof o);
      }
      for (; j < ow; ++j) {
        const float l = r1[2 * j] > r0[2 * j] ? r1[2 * j] : r0[2 * j];
        const float r = r1[2 * j + 1] > r0[2 * j + 1] ? r1[2 * j + 1] : r0[2 * j + 1];
        out[j] = r > l ? r : l;
      }
    }
  });
}

// MaxPool without indices and AveragePool: a box window is the product of one window per spatial dim,
// so the pool runs as one 1-D pass per dim (the sum of the kernel's extents per output, not their
// product), first spatial dim first: the outer dims' passes take whole rows at a time and shrink the
// plane before the last dim's pass, which takes one value a tap. A sum's divisor is the product of the
// per-dim tap counts (inside the input, or inside the padded input for count_include_pad). Sums are
// kept in double, as the box loop keeps them. One thread: a 3x3x3 MaxPool over [1, 192, 8, 28, 28] (S3D)
// took 483 ms on the box loop below (index arithmetic per tap), 3.6 ms so; a [1, 3, 3] stride-2 one over
// [1, 64, 8, 112, 112] 247 -> 4.9 ms; a 3x3 AveragePool over [1, 256, 28, 28] 16.4 -> 0.83 ms; the 3x3
// stride-2 MaxPool of a ResNet stem over [1, 64, 112, 112], once a direct 2-D loop, 2.15 -> 0.49 ms.
template <class T>
void poolSeparable(const T* x, T* y, int64_t planes, const ConvGeometry& g, bool isMax, bool countPad) {
  const size_t r = g.in.size();
  const int64_t ip = g.inSize(), op = g.outSize();
  // The plane's dims after each pass, and the largest of them (scratch size).
  std::vector<std::vector<int64_t>> dimsBefore(r);
  std::vector<int64_t> cur = g.in;
  int64_t scratch = 1;
  for (size_t d = 0; d < r; ++d) {
    dimsBefore[d] = cur;
    cur[d] = g.out[d];
    scratch = std::max(scratch, numelOf(cur));
  }
  // The dims whose window is more than one tap at stride 1, in order (a 1-tap window at stride 1
  // with no padding, e.g. the time dim of a [1, 3, 3] pool, leaves the plane as it is).
  std::vector<size_t> passes;
  for (size_t d = 0; d < r; ++d) {
    if (g.kernel[d] != 1 || g.strides[d] != 1 || g.padsBegin[d] != 0 || g.out[d] != g.in[d])
      passes.push_back(d);
  }
  // Divisors of the average: one per output position, the product of the per-dim tap counts.
  std::vector<double> divisor;
  if (!isMax) {
    std::vector<std::vector<double>> counts(r);
    for (size_t d = 0; d < r; ++d) {
      counts[d].resize(static_cast<size_t>(g.out[d]));
      for (int64_t o = 0; o < g.out[d]; ++o) {
        int64_t c = 0;
        for (int64_t t = 0; t < g.kernel[d]; ++t) {
          const int64_t i = o * g.strides[d] - g.padsBegin[d] + t * g.dilations[d];
          c += countPad ? (i >= -g.padsBegin[d] && i < g.in[d] + g.padsEnd[d]) : (i >= 0 && i < g.in[d]);
        }
        counts[d][static_cast<size_t>(o)] = static_cast<double>(c);
      }
    }
    divisor.assign(static_cast<size_t>(op), 1.0);
    const auto ostr = stridesOf(g.out);
    for (int64_t o = 0; o < op; ++o)
      for (size_t d = 0; d < r; ++d)
        divisor[static_cast<size_t>(o)] *= counts[d][static_cast<size_t>((o / ostr[d]) % g.out[d])];
  }
  auto run = [&](auto maxTag, auto zero, auto empty) {
    using A = decltype(zero);
    constexpr bool kMax = decltype(maxTag)::value;
    // Planes a block at a time (each pass one loop over the block: poolAlong), about 16K values of scratch.
    const int64_t block = std::max<int64_t>(1, (int64_t{1} << 14) / scratch);
    parallelFor(planes, (ip + op) * static_cast<int64_t>(r), [&](int64_t b, int64_t e) {
      const int64_t most = std::min(block, e - b);
      std::vector<A> bufA(static_cast<size_t>(scratch * most)), bufB(static_cast<size_t>(scratch * most));
      for (int64_t p = b; p < e; p += most) {
        const int64_t cnt = std::min(most, e - p);
        const T* xp = x + p * ip;
        A* out = nullptr;
        for (size_t d : passes) {
          A* next = out == bufA.data() ? bufB.data() : bufA.data();
          if (out)
            poolAlong<kMax, A, A>(out, next, cnt, dimsBefore[d], d, g, empty);
          else
            poolAlong<kMax, A, T>(xp, next, cnt, dimsBefore[d], d, g, empty);
          out = next;
        }
        if (!out) {  // every dim a 1-tap window at stride 1: the planes as they are
          out = bufA.data();
          for (int64_t o = 0; o < cnt * op; ++o) out[o] = static_cast<A>(xp[o]);
        }
        T* yp = y + p * op;
        if constexpr (kMax) {
          for (int64_t o = 0; o < cnt * op; ++o) yp[o] = static_cast<T>(out[o]);
        } else {
          for (int64_t q = 0; q < cnt; ++q)
            for (int64_t o = 0; o < op; ++o) {
              const double dv = divisor[static_cast<size_t>(o)];
              yp[q * op + o] = static_cast<T>(dv > 0 ? static_cast<double>(out[q * op + o]) / dv : 0.0);
            }
        }
      }
    });
  };
  if (!isMax)
    run(std::false_type{}, 0.0, 0.0);
  else if constexpr (std::is_floating_point_v<T>)
    run(std::true_type{}, T{}, -std::numeric_limits<T>::infinity());
  else
    run(std::true_type{}, T{}, std::numeric_limits<T>::lowest());
}

template <class T>
void poolPlanes(const T* x, T* y, int64_t* indices, int64_t planes, const ConvGeometry& g, bool isMax,
                bool countPad, bool colMajor) {
  const size_t r = g.in.size();
  const int64_t ip = g.inSize(), op = g.outSize(), kp = g.kernelSize();
  const auto ostr = stridesOf(g.out), kstr = stridesOf(g.kernel), istr = stridesOf(g.in);
  // Column-major index strides (storage_order = 1) over the spatial dims.
  std::vector<int64_t> cstr(r, 1);
  for (size_t d = 1; d < r; ++d) cstr[d] = cstr[d - 1] * g.in[d - 1];
  if (!indices) {
    if constexpr (std::is_same_v<T, float>)
      if (isMax && isMaxPool2x2(g)) {
        maxPool2x2(x, y, planes, g);
        return;
      }
    poolSeparable(x, y, planes, g, isMax, countPad);
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
        Y.mf()[p] = extremeRow<true>(xp, inner);  // NaN if the plane has one, as ReduceMax
      } else {
        Y.mf()[p] = static_cast<float>(sumRow(xp, inner) / static_cast<double>(inner));
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
