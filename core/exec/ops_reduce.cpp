// Reductions and normalisations: Reduce*, Softmax, LogSoftmax, LayerNormalization.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/exec/Broadcast.h"
#include "core/exec/ColumnBlocks.h"
#include "core/exec/FastMath.h"
#include "core/exec/OpContext.h"
#include "core/exec/RowSum.h"

namespace fw::exec {
namespace {

enum class Red { Sum, Mean, Max, Min, Prod, SumSquare, L1, L2, LogSum, LogSumExp };

// A softmax's x - max whose exponential would be subnormal (below e^-87.34, the smallest normal float)
// moved to where it is 0: a product with a subnormal takes the core's slow path, in the exponential, the
// sum and the scaling alike. A Swin-style window attention masks its wrapped windows' scores with -100
// (e^-100 is 3.7e-44): its shifted windows' Softmax over [64, 3, 16, 16] took 437 us where the unshifted
// one took 206 (session 39). The probabilities lost are below 1.2e-38; a LogSoftmax's outputs are computed
// from x itself and keep them. (A mask of -1e9 was 0 already: FastMath.cpp.)
inline float belowNormalExpToZero(float d) {
  return d < -87.33f ? -std::numeric_limits<float>::infinity() : d;
}

// log(sum(exp(x))) over each [len] run of x viewed as [outer, len, inner] (y: [outer, inner]), floats: the
// maximum first, then the exponentials of x - max on vector lanes (FastMath.h) summed in doubles. With
// std::exp in doubles an element, behind an offset table, a Sinkhorn matching's 20 pairs of LogSumExps over
// [4, 257, 257] took 1.6 ms each (6 ns an element, session 52). A maximum of +-inf shifts by 0 instead, so
// that a row of -inf gives -inf and one with +inf gives +inf (log(sum(exp(x))) as written); a NaN anywhere
// gives NaN through its exponential.
void logSumExp(const float* x, float* y, int64_t outer, int64_t len, int64_t inner) {
  auto shiftOf = [](float mx) { return std::isinf(mx) ? 0.f : mx; };
  if (inner == 1) {
    parallelFor(outer, len * 4, [&](int64_t b, int64_t e) {
      std::vector<float> buf(static_cast<size_t>(len));
      for (int64_t o = b; o < e; ++o) {
        const float* px = x + o * len;
        const float shift = shiftOf(extremeRow<true>(px, len));
        for (int64_t k = 0; k < len; ++k) buf[static_cast<size_t>(k)] = belowNormalExpToZero(px[k] - shift);
        fastmath::exp(buf.data(), buf.data(), len);
        y[o] = static_cast<float>(std::log(sumRow(buf.data(), len, [](double v) { return v; })) + shift);
      }
    });
    return;
  }
  // Along a middle axis: a block of columns at a time (ColumnBlocks.h), as the Softmax's.
  forEachColumnBlock(outer, len, inner, 4, [&](int64_t o, int64_t i0, int64_t w) {
    float mx[kColumnBlock], row[kColumnBlock];
    double sum[kColumnBlock];
    const float* px = x + o * len * inner + i0;
    std::fill(mx, mx + w, -std::numeric_limits<float>::infinity());
    std::fill(sum, sum + w, 0.0);
    for (int64_t k = 0; k < len; ++k)
      for (int64_t i = 0; i < w; ++i) {
        const float v = px[k * inner + i];
        mx[i] = v > mx[i] ? v : mx[i];
      }
    for (int64_t i = 0; i < w; ++i) mx[i] = shiftOf(mx[i]);
    for (int64_t k = 0; k < len; ++k) {
      for (int64_t i = 0; i < w; ++i) row[i] = belowNormalExpToZero(px[k * inner + i] - mx[i]);
      fastmath::exp(row, row, w);
      for (int64_t i = 0; i < w; ++i) sum[i] += row[i];
    }
    float* py = y + o * inner + i0;
    for (int64_t i = 0; i < w; ++i) py[i] = static_cast<float>(std::log(sum[i]) + mx[i]);
  });
}

// The elements before and after the reduced axes (marked in `red`) when those are one run once axes of size 1
// are left out ([outer, reduced, inner]); nullopt when kept axes of more than one element lie between them.
std::optional<std::pair<int64_t, int64_t>> reducedRun(const std::vector<int64_t>& dims,
                                                      const std::vector<char>& red) {
  int64_t outer = 1, inner = 1;
  int at = 0;  // 0 before the reduced run, 1 in it, 2 after it
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;
    if (red[d]) {
      if (at == 2) return std::nullopt;
      at = 1;
    } else {
      if (at == 1) at = 2;
      (at == 0 ? outer : inner) *= dims[d];
    }
  }
  return std::make_pair(outer, inner);
}

// y[o, i] = finish(the fold of step over x[o, 0..len, i] in order from init) for x viewed as [outer, len,
// inner]. Rows (inner 1) one after another; up to 8 columns their accumulators in registers down each outer
// index's rows (a pair of features summed over a cell's corners); 16 columns or more a whole output row of
// accumulators at a time, adding the input's rows to it in order; 9 to 15 the rows of several outer indices
// at once, so that consecutive steps are independent. Rows and columns of up to 8 have their length known to
// the compiler (byShortLength). Through an offset table, element by element, with the op chosen for each, a
// hash grid's [8192, 8, 8, 3] took 3.5 ms for an int64 sum over its last axis and as long for a float
// product, and its float sum over the 8 corners of [8192, 8, 8, 2] 2.4 ms (1 thread, set 65, session
// 54); in the model this way 0.49, 0.58 and 0.30 ms (4.1, 4.0 and 2.5 for the old binary in the same run).
// (Blocks of 256 or 2048 columns down the rows made the sum over the middle axis of [4, 32, 16000] slower
// than whole rows, 482 -> 544-1029 us, as did 4 outer indices at once a row of 64.)
template <class T, class A, class Step, class Finish>
void reduceRun(const T* x, T* y, int64_t outer, int64_t len, int64_t inner, A init, const Step& step,
               const Finish& finish) {
  if (inner == 1) {  // rows of up to 8 with their length known to the compiler (byShortLength)
    byShortLength(len, [&](auto kk) {
      constexpr int K = decltype(kk)::value;
      const int64_t n = K > 0 ? K : len;
      parallelFor(outer, n, [&](int64_t b, int64_t e) {
        for (int64_t o = b; o < e; ++o) {
          const T* px = x + o * n;
          A acc = init;
          for (int64_t k = 0; k < n; ++k) acc = step(acc, px[k]);
          y[o] = finish(acc);
        }
      });
    });
    return;
  }
  if (inner <= 8) {  // up to 8 columns: each outer index's sums in registers down its rows
    byShortLength(inner, [&](auto ww) {
      constexpr int W = decltype(ww)::value;
      if constexpr (W > 0)  // always: inner is 2 to 8 here
        parallelFor(outer, len * W, [&](int64_t b, int64_t e) {
          for (int64_t o = b; o < e; ++o) {
            const T* px = x + o * len * W;
            A acc[W];
            for (int i = 0; i < W; ++i) acc[i] = init;
            for (int64_t k = 0; k < len; ++k, px += W)
              for (int i = 0; i < W; ++i) acc[i] = step(acc[i], px[i]);
            for (int i = 0; i < W; ++i) y[o * W + i] = finish(acc[i]);
          }
        });
    });
    return;
  }
  constexpr int64_t kShort = 16;
  const int64_t group =
      inner < kShort ? std::max<int64_t>(1, kColumnBlock / inner) : 1;  // outer indices a pass
  const int64_t groups = (outer + group - 1) / group;
  parallelFor(groups, group * len * inner, [&](int64_t b, int64_t e) {
    std::vector<A> acc(static_cast<size_t>(group * inner));
    for (int64_t gb = b; gb < e; ++gb) {
      const int64_t o0 = gb * group, o1 = std::min(outer, o0 + group);
      std::fill(acc.begin(), acc.begin() + (o1 - o0) * inner, init);
      for (int64_t k = 0; k < len; ++k)
        for (int64_t o = o0; o < o1; ++o) {
          const T* px = x + (o * len + k) * inner;
          A* pa = acc.data() + (o - o0) * inner;
          for (int64_t i = 0; i < inner; ++i) pa[i] = step(pa[i], px[i]);
        }
      for (int64_t i = 0; i < (o1 - o0) * inner; ++i) y[o0 * inner + i] = finish(acc[static_cast<size_t>(i)]);
    }
  });
}

template <Red op>
Status opReduce(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  std::vector<int64_t> axes = c.has(1) ? c.input(1).toInts() : c.attrInts("axes");
  const bool keep = c.attrInt("keepdims", 1) != 0;
  if (axes.empty() && c.attrInt("noop_with_empty_axes", 0) != 0) {
    c.out[0] = x;
    return {};
  }
  std::vector<char> red(x.rank(), axes.empty() ? 1 : 0);
  for (int64_t a : axes) {
    const int64_t n = normAxis(a, r);
    if (n < 0 || n >= r) return c.fail("axis " + std::to_string(a) + " out of range for rank " + std::to_string(r));
    red[static_cast<size_t>(n)] = 1;
  }
  std::vector<int64_t> keptDims(x.rank()), od;
  std::vector<int64_t> redDims, redStr, keepDimsList, keepStr;
  const auto is = stridesOf(x.dims);
  for (size_t d = 0; d < x.rank(); ++d) {
    keptDims[d] = red[d] ? 1 : x.dims[d];
    if (red[d]) {
      redDims.push_back(x.dims[d]);
      redStr.push_back(is[d]);
      if (keep) od.push_back(1);
    } else {
      keepDimsList.push_back(x.dims[d]);
      keepStr.push_back(is[d]);
      od.push_back(x.dims[d]);
    }
  }
  const int64_t nr = numelOf(redDims);
  RtTensor y = RtTensor::alloc(x.dtype, od);
  const int64_t no = y.numel();
  if (x.store() != Store::F32 && x.store() != Store::I64) return c.fail("unsupported type " + std::string(dtypeName(x.dtype)));
  const bool isF = x.store() == Store::F32;
  // A float LogSumExp over axes that are one run once axes of size 1 are left out: [outer, nr, inner].
  if (isF && op == Red::LogSumExp && nr > 0)
    if (const auto run = reducedRun(x.dims, red)) {
      logSumExp(x.f(), y.mf(), run->first, nr, run->second);
      c.out[0] = std::move(y);
      return {};
    }
  // Float rows reduced whole (the last axes: a LayerNorm's mean and variance, a pooled feature): the
  // sum in four running partial sums, not one. One sum is a chain of dependent double additions, so
  // its time an element grew with the row (ReduceMean over 1024 x 32 floats 0.49 ns an element, over
  // 32 x 1024 0.7-0.9 ns, 1 thread; the rows overlap only between themselves). Four chains still left
  // long rows slower than short ones (32 x 1024: 19.6 us, 256 x 128: 12.3 us, session 32), as the
  // chains of several short rows overlap; each chain now adds a pair of elements a step (the pair's sum
  // off the chain), which halves a long row's chain. Max and Min are exact in any order.
  // The reduced axes are the last ones (x is dense): output o's row is elements [o * nr, (o + 1) * nr).
  // An axis of size 1 after the first reduced one lays the elements out alike reduced or not: a sum over
  // the 12 fields of [256, 12, 1] is rows of 12 (9.3 us as a middle axis of one column, 1.2 as rows).
  bool lastAxes = isF && op != Red::Prod && op != Red::LogSumExp && nr > 0;
  {
    bool seen = false;
    std::vector<char> rowAxis(x.rank());
    for (size_t d = 0; d < x.rank(); ++d) {
      seen = seen || red[d];
      rowAxis[d] = red[d] || (seen && x.dims[d] == 1);
    }
    for (size_t d = 1; d < x.rank(); ++d) lastAxes = lastAxes && (!rowAxis[d - 1] || rowAxis[d]);
  }
  if (lastAxes) {
    // n: the row length, a constant for sums over rows of 2 to 8; those of 2 to 7 summed four rows at a time
    // (sumFourRows: the same sums in the same order, so the same results; a row of 8 is two 4-float loads
    // as it is). With n read at run time a row of 3 (a point cloud's xyz summed) cost a loop's set-up and a
    // partial sum indexed k % 4: ReduceSum over 6M floats took 5.9 ms in rows of 2, 3.9 in rows of 3, 3.1-3.3
    // in rows of 5 to 7, 1.6 in rows of 8; 1.8-2.3 ms in rows of 2 to 7 this way (session 51).
    auto term = [](auto v) {
      return op == Red::SumSquare || op == Red::L2 ? v * v : op == Red::L1 ? magnitude(v) : v;
    };
    auto finish = [](double acc, int64_t len) {
      if (op == Red::Mean) acc /= static_cast<double>(len);
      if (op == Red::L2) acc = std::sqrt(acc);
      if (op == Red::LogSum) acc = std::log(acc);
      return static_cast<float>(acc);
    };
    // len: std::integral_constant<int, K>, K the row length when it is a constant, 0 for nr read at run time.
    auto rows = [&](auto len) {
      constexpr int K = decltype(len)::value;
      const int64_t n = K > 0 ? K : nr;
      parallelFor(no, nr, [&](int64_t b, int64_t e) {
        const float* px = x.f() + b * n;
        float* py = y.mf();
        int64_t o = b;
        if constexpr (K >= 2 && K <= 7)
          for (double acc[4]; o + 4 <= e; o += 4, px += 4 * n) {
            sumFourRows<K>(px, term, acc);
            for (int i = 0; i < 4; ++i) py[o + i] = finish(acc[i], n);
          }
        for (; o < e; ++o, px += n) {
          if (op == Red::Max || op == Red::Min)
            py[o] = op == Red::Max ? extremeRow<true>(px, n) : extremeRow<false>(px, n);
          else
            py[o] = finish(sumRow(px, n, term), n);
        }
      });
    };
    // The constant lengths 2 to 8 (K = L + 2).
    auto constantLength = [&]<int... L>(std::integer_sequence<int, L...>) {
      ((nr == L + 2 ? rows(std::integral_constant<int, L + 2>{}) : void()), ...);
    };
    if (op == Red::Max || op == Red::Min || nr < 2 || nr > 8)
      rows(std::integral_constant<int, 0>{});
    else
      constantLength(std::make_integer_sequence<int, 7>{});
    c.out[0] = std::move(y);
    return {};
  }
  // Float rows reduced across a run of middle axes ([outer, R, inner], R reduced: a mean over a sequence's
  // tokens, a pool over a middle axis): each output row of `inner` sums R input rows, row after row, every
  // element in the same order as the loop below (bit for bit the same result). That loop walked each output
  // down its column, `inner` floats apart, with an offset table: a mean over the 200 tokens of [64, 200, 64]
  // took 1299 us in a fastText-style model (1.6 ns an element, session 30).
  int64_t first = -1, last = -1;
  for (int64_t d = 0; d < r; ++d)
    if (red[static_cast<size_t>(d)]) {
      if (first < 0) first = d;
      last = d;
    }
  bool middle = isF && op != Red::Prod && op != Red::LogSumExp && nr > 0 && first >= 0 && last + 1 < r;
  for (int64_t d = first; middle && d <= last; ++d) middle = red[static_cast<size_t>(d)] != 0;
  if (middle) {
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < first; ++d) outer *= x.dims[static_cast<size_t>(d)];
    for (int64_t d = last + 1; d < r; ++d) inner *= x.dims[static_cast<size_t>(d)];
    // A Max or Min in 4-lane float vectors across a row (any x86-64 has them), a NaN noted in a mask: exact
    // in any precision and order. In doubles element by element, a channel max of [8, 32, 64, 64] (CBAM's
    // spatial attention) took 656 us, where the mean takes 246; this way 191 (1 thread, session 36).
    using V4 = float __attribute__((vector_size(16)));
    using I4 = int32_t __attribute__((vector_size(16)));
    const int64_t vec = inner / 4 * 4;
    if (op == Red::Max || op == Red::Min) {
      parallelFor(outer, nr * inner, [&](int64_t b, int64_t e) {
        std::vector<V4> acc(static_cast<size_t>(vec / 4));
        std::vector<I4> bad(static_cast<size_t>(vec / 4));
        for (int64_t o = b; o < e; ++o) {
          const float* px0 = x.f() + o * nr * inner;
          float* py = y.mf() + o * inner;
          std::fill(acc.begin(), acc.end(),
                    V4{} + (op == Red::Max ? -std::numeric_limits<float>::infinity()
                                           : std::numeric_limits<float>::infinity()));
          std::fill(bad.begin(), bad.end(), I4{});
          // Four rows a pass: a quarter of the accumulators' loads and stores.
          auto pick = [](V4 v, V4 a) { return op == Red::Max ? (v > a ? v : a) : (v < a ? v : a); };
          int64_t k = 0;
          for (; k + 4 <= nr; k += 4) {
            const float* px = px0 + k * inner;
            for (int64_t j = 0; j < vec; j += 4) {
              V4 v0, v1, v2, v3;
              std::memcpy(&v0, px + j, sizeof v0);
              std::memcpy(&v1, px + inner + j, sizeof v1);
              std::memcpy(&v2, px + 2 * inner + j, sizeof v2);
              std::memcpy(&v3, px + 3 * inner + j, sizeof v3);
              V4& a = acc[static_cast<size_t>(j / 4)];
              bad[static_cast<size_t>(j / 4)] |= (v0 != v0) | (v1 != v1) | (v2 != v2) | (v3 != v3);
              a = pick(pick(v0, v1), pick(pick(v2, v3), a));
            }
          }
          for (; k < nr; ++k) {
            const float* px = px0 + k * inner;
            for (int64_t j = 0; j < vec; j += 4) {
              V4 v;
              std::memcpy(&v, px + j, sizeof v);
              V4& a = acc[static_cast<size_t>(j / 4)];
              bad[static_cast<size_t>(j / 4)] |= v != v;
              a = pick(v, a);
            }
          }
          // Written out a vector at a time (element by element, a third of a ReduceMax over the 9 neighbours
          // of [4, 196, 9, 192] went here: 324-329 us alone, 208-244 since; session 50).
          const V4 qnan = V4{} + std::numeric_limits<float>::quiet_NaN();
          for (int64_t j = 0; j < vec; j += 4) {
            const auto q = static_cast<size_t>(j / 4);
            const V4 out = bad[q] != 0 ? qnan : acc[q];
            std::memcpy(py + j, &out, sizeof out);
          }
          for (int64_t j = vec; j < inner; ++j) {
            float a = op == Red::Max ? -std::numeric_limits<float>::infinity()
                                     : std::numeric_limits<float>::infinity();
            bool nan = false;
            for (int64_t k = 0; k < nr; ++k) {
              const float v = px0[k * inner + j];
              nan |= v != v;
              a = op == Red::Max ? (v > a ? v : a) : (v < a ? v : a);
            }
            py[j] = nan ? std::numeric_limits<float>::quiet_NaN() : a;
          }
        }
      });
      c.out[0] = std::move(y);
      return {};
    }
    // The sums (Sum, Mean, LogSum, and the squares or magnitudes of SumSquare, L2 and L1; Max and Min took
    // the vectors above) accumulate in doubles in a loop of their own, the op chosen outside it, in the same
    // order: with the choice made per element, the sum over the 32 neighbours of SchNet's [16, 32, 32, 64]
    // took 461-505 us alone, this way 244-362 (session 46, a slow machine).
    // reduceRun: each element adds its rows in order, the same sums bit for bit whatever the grouping.
    auto finish = [&](double a) {
      if (op == Red::Mean) a /= static_cast<double>(nr);
      if (op == Red::L2) a = std::sqrt(a);
      if (op == Red::LogSum) a = std::log(a);
      return static_cast<float>(a);
    };
    if (op == Red::SumSquare || op == Red::L2)
      reduceRun(
          x.f(), y.mf(), outer, nr, inner, 0.0,
          [](double a, float v) { return a + static_cast<double>(v) * static_cast<double>(v); }, finish);
    else if (op == Red::L1)
      reduceRun(
          x.f(), y.mf(), outer, nr, inner, 0.0,
          [](double a, float v) { return a + std::fabs(static_cast<double>(v)); }, finish);
    else
      reduceRun(
          x.f(), y.mf(), outer, nr, inner, 0.0, [](double a, float v) { return a + static_cast<double>(v); },
          finish);
    c.out[0] = std::move(y);
    return {};
  }
  // A float product, and an integer Sum, SumSquare, L1, Prod, Max or Min, over axes that are one run once
  // axes of size 1 are left out ([outer, nr, inner]): reduceRun. Integers add and multiply in int64
  // (wrapping, as int64 arithmetic does), not in doubles, exact beyond 2^53; the result wraps to the input's
  // width.
  if (nr > 0)
    if (const auto run = reducedRun(x.dims, red)) {
      const auto [outer, inner] = *run;
      if (isF && op == Red::Prod) {
        reduceRun(
            x.f(), y.mf(), outer, nr, inner, 1.0,
            [](double a, float v) { return a * static_cast<double>(v); },
            [](double a) { return static_cast<float>(a); });
        c.out[0] = std::move(y);
        return {};
      }
      if constexpr (op == Red::Sum || op == Red::SumSquare || op == Red::L1 || op == Red::Prod ||
                    op == Red::Max || op == Red::Min)
        if (!isF) {
          using U = uint64_t;  // wrapping arithmetic
          auto step = [](int64_t a, int64_t v) {
            if constexpr (op == Red::Max) return v > a ? v : a;
            if constexpr (op == Red::Min) return v < a ? v : a;
            const U t = op == Red::SumSquare ? static_cast<U>(v) * static_cast<U>(v)
                        : op == Red::L1      ? (v < 0 ? U{0} - static_cast<U>(v) : static_cast<U>(v))
                                             : static_cast<U>(v);
            return static_cast<int64_t>(op == Red::Prod ? static_cast<U>(a) * t : static_cast<U>(a) + t);
          };
          const int64_t init = op == Red::Prod  ? 1
                               : op == Red::Max ? std::numeric_limits<int64_t>::min()
                               : op == Red::Min ? std::numeric_limits<int64_t>::max()
                                                : 0;
          // The result wrapped to the input's own width (a uint8 sum of 200 and 100 is 44), as CumSum's.
          const DType dt = x.dtype;
          reduceRun(x.i(), y.mi(), outer, nr, inner, init, step,
                    [dt](int64_t a) { return wrapInt(dt, static_cast<uint64_t>(a)); });
          c.out[0] = std::move(y);
          return {};
        }
    }
  // Offsets of every reduced position relative to an output's base offset (a division per axis and
  // position: made only here, where they are read; a reduction of 128K floats to one spent 390 us making
  // them before the row paths above, which read none, session 35).
  std::vector<int64_t> roff(static_cast<size_t>(nr));
  for (int64_t k = 0; k < nr; ++k) {
    int64_t rem = k, off = 0;
    for (size_t d = redDims.size(); d-- > 0;) {
      off += (rem % redDims[d]) * redStr[d];
      rem /= redDims[d];
    }
    roff[static_cast<size_t>(k)] = off;
  }
  parallelFor(no, nr, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      int64_t rem = o, base = 0;
      for (size_t d = keepDimsList.size(); d-- > 0;) {
        base += (rem % keepDimsList[d]) * keepStr[d];
        rem /= keepDimsList[d];
      }
      double acc;
      switch (op) {
        case Red::Max: acc = -std::numeric_limits<double>::infinity(); break;
        case Red::Min: acc = std::numeric_limits<double>::infinity(); break;
        case Red::Prod: acc = 1; break;
        default: acc = 0;
      }
      double mx = -std::numeric_limits<double>::infinity();
      if (op == Red::LogSumExp) {
        for (int64_t k = 0; k < nr; ++k) mx = std::max(mx, isF ? double(x.f()[base + roff[static_cast<size_t>(k)]]) : double(x.i()[base + roff[static_cast<size_t>(k)]]));
        if (std::isinf(mx)) mx = 0;  // as logSumExp's shift: -inf for a row of -inf, +inf with a +inf
      }
      for (int64_t k = 0; k < nr; ++k) {
        const int64_t at = base + roff[static_cast<size_t>(k)];
        const double v = isF ? static_cast<double>(x.f()[at]) : static_cast<double>(x.i()[at]);
        switch (op) {
          case Red::Sum:
          case Red::Mean:
          case Red::LogSum: acc += v; break;
          case Red::Max: acc = (std::isnan(v) || v > acc) ? v : acc; break;
          case Red::Min: acc = (std::isnan(v) || v < acc) ? v : acc; break;
          case Red::Prod: acc *= v; break;
          case Red::SumSquare:
          case Red::L2: acc += v * v; break;
          case Red::L1: acc += std::fabs(v); break;
          case Red::LogSumExp: acc += std::exp(v - mx); break;
        }
      }
      if (op == Red::Mean) acc = nr ? acc / static_cast<double>(nr) : std::numeric_limits<double>::quiet_NaN();
      if (op == Red::L2) acc = std::sqrt(acc);
      if (op == Red::LogSum) acc = std::log(acc);
      if (op == Red::LogSumExp) acc = std::log(acc) + mx;
      if (isF) y.mf()[o] = static_cast<float>(acc);
      else y.mi()[o] = static_cast<int64_t>(acc);
    }
  });
  c.out[0] = std::move(y);
  return {};
}

template <bool isLog>
Status opSoftmax(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor x = asFloat(c.input(0));
  const int64_t r = static_cast<int64_t>(x.rank());
  const bool legacy = c.opset < 13;
  const int64_t axis = normAxis(c.attrInt("axis", legacy ? 1 : -1), r);
  if (r == 0 || axis < 0 || axis >= r) return c.fail("axis out of range");
  int64_t outer = 1, len = 1, inner = 1;
  for (int64_t d = 0; d < r; ++d) {
    const int64_t v = x.dims[static_cast<size_t>(d)];
    if (d < axis) outer *= v;
    else if (d == axis || legacy) len *= v;
    else inner *= v;
  }
  RtTensor y = RtTensor::alloc(c.input(0).dtype, x.dims);
  if (inner > 1) {
    // Along a middle axis (a channel softmax, a split attention over its radix): a block of columns at a
    // time (ColumnBlocks.h), every pass over the axis reading its rows in order, the exponentials of a row's
    // block on vector lanes. A column at a time, strided, with std::exp: [8, 64, 32, 32] over axis 1 took
    // 4.4 ms (1 thread, session 37). Each column's maximum and sum run over the axis in order, as before.
    forEachColumnBlock(outer, len, inner, 4, [&](int64_t o, int64_t i0, int64_t w) {
      float mx[kColumnBlock], scale[kColumnBlock];
      double sum[kColumnBlock];
      const float* px = x.f() + o * len * inner + i0;
      float* py = y.mf() + o * len * inner + i0;
      std::fill(mx, mx + w, -std::numeric_limits<float>::infinity());
      std::fill(sum, sum + w, 0.0);
      // The maxima in 4-lane vectors, `v > m ? v : m` as std::max(m, v) picks (a NaN never taken): the
      // compiler left std::max's loop scalar, a load, compare and store an element (a Point Transformer's
      // softmax over 16 neighbours, axis 2 of [2, 1024, 16, 64]: 5.42-5.50 ms alone, 2.78-2.95 since; session
      // 50).
      using V4 = float __attribute__((vector_size(16)));
      const int64_t vec = w / 4 * 4;
      for (int64_t k = 0; k < len; ++k) {
        const float* pr = px + k * inner;
        for (int64_t i = 0; i < vec; i += 4) {
          V4 m, v;
          std::memcpy(&m, mx + i, sizeof m);
          std::memcpy(&v, pr + i, sizeof v);
          m = v > m ? v : m;
          std::memcpy(mx + i, &m, sizeof m);
        }
        for (int64_t i = vec; i < w; ++i) mx[i] = std::max(mx[i], pr[i]);
      }
      for (int64_t k = 0; k < len; ++k) {
        float* row = py + k * inner;
        for (int64_t i = 0; i < w; ++i) row[i] = belowNormalExpToZero(px[k * inner + i] - mx[i]);
        fastmath::exp(row, row, w);
        for (int64_t i = 0; i < w; ++i) sum[i] += row[i];
      }
      if (isLog) {
        for (int64_t i = 0; i < w; ++i) scale[i] = static_cast<float>(std::log(sum[i]));
        for (int64_t k = 0; k < len; ++k)
          for (int64_t i = 0; i < w; ++i) py[k * inner + i] = px[k * inner + i] - mx[i] - scale[i];
      } else {
        for (int64_t i = 0; i < w; ++i) scale[i] = static_cast<float>(1.0 / sum[i]);
        for (int64_t k = 0; k < len; ++k)
          for (int64_t i = 0; i < w; ++i) py[k * inner + i] *= scale[i];
      }
    });
    c.out[0] = std::move(y);
    return {};
  }
  // A contiguous row (attention, classifiers, a language model's log-probabilities): four running maxima
  // (exact in any order; one was a chain of dependent comparisons), then the exponentials on vector lanes
  // (FastMath.h), in the output row, which LogSoftmax then overwrites with x - max - log(sum) (a 8000-word
  // LogSoftmax over 1024 rows took 30.6 ms with std::exp).
  parallelFor(outer, len * 4, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      const float* px = x.f() + o * len;
      float* py = y.mf() + o * len;
      float mx = -std::numeric_limits<float>::infinity();
      float part[4] = {mx, mx, mx, mx};
      int64_t k = 0;
      for (; k + 4 <= len; k += 4)
        for (int j = 0; j < 4; ++j) part[j] = std::max(part[j], px[k + j]);
      for (; k < len; ++k) part[0] = std::max(part[0], px[k]);
      mx = std::max(std::max(part[0], part[1]), std::max(part[2], part[3]));
      for (k = 0; k < len; ++k) py[k] = belowNormalExpToZero(px[k] - mx);
      fastmath::exp(py, py, len);
      double sums[4] = {0, 0, 0, 0};
      for (k = 0; k + 4 <= len; k += 4)
        for (int j = 0; j < 4; ++j) sums[j] += py[k + j];
      for (; k < len; ++k) sums[0] += py[k];
      const double sum = (sums[0] + sums[1]) + (sums[2] + sums[3]);
      if (isLog) {
        const float ls = static_cast<float>(std::log(sum));
        for (k = 0; k < len; ++k) py[k] = px[k] - mx - ls;
      } else {
        const float inv = static_cast<float>(1.0 / sum);
        for (k = 0; k < len; ++k) py[k] *= inv;
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

Status opLayerNorm(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X and Scale");
  const RtTensor x = asFloat(c.input(0));
  const RtTensor s = asFloat(c.input(1));
  RtTensor b;
  if (c.has(2)) b = asFloat(c.input(2));
  const int64_t r = static_cast<int64_t>(x.rank());
  const int64_t axis = normAxis(c.attrInt("axis", -1), r);
  if (axis < 0 || axis >= r) return c.fail("axis out of range");
  const float eps = c.attrFloat("epsilon", 1e-5f);
  int64_t outer = 1, len = 1;  // len from the dims, so an empty batch keeps its normalized shape
  for (int64_t d = 0; d < r; ++d) (d < axis ? outer : len) *= x.dims[static_cast<size_t>(d)];
  if (s.numel() != len && s.numel() != 1) return c.fail("Scale " + dimsStr(s.dims) + " does not match the normalized shape");
  if (b.defined() && b.numel() != len && b.numel() != 1) return c.fail("B " + dimsStr(b.dims) + " does not match the normalized shape");
  std::vector<int64_t> statDims = x.dims;
  for (int64_t d = axis; d < r; ++d) statDims[static_cast<size_t>(d)] = 1;
  RtTensor y = RtTensor::alloc(c.input(0).dtype, x.dims);
  RtTensor mean = RtTensor::alloc(DType::Float32, statDims), inv = RtTensor::alloc(DType::Float32, statDims);
  parallelFor(outer, len * 3, [&](int64_t bg, int64_t e) {
    for (int64_t o = bg; o < e; ++o) {
      const float* px = x.f() + o * len;
      float* py = y.mf() + o * len;
      // Mean and variance in four running partial sums each, and the output loop without a branch an
      // element where scale and bias are whole rows: one sum was a chain of dependent additions and
      // the loop chose its scale and bias an element, 6.4 ns an element over 32K floats (1 thread).
      double ps[4] = {0, 0, 0, 0};
      int64_t k = 0;
      for (; k + 4 <= len; k += 4)
        for (int j = 0; j < 4; ++j) ps[j] += px[k + j];
      for (; k < len; ++k) ps[0] += px[k];
      const double m = ((ps[0] + ps[1]) + (ps[2] + ps[3])) / static_cast<double>(len);
      double pq[4] = {0, 0, 0, 0};
      for (k = 0; k + 4 <= len; k += 4)
        for (int j = 0; j < 4; ++j) pq[j] += (px[k + j] - m) * (px[k + j] - m);
      for (; k < len; ++k) pq[0] += (px[k] - m) * (px[k] - m);
      const double sq = (pq[0] + pq[1]) + (pq[2] + pq[3]);
      const double is = 1.0 / std::sqrt(sq / static_cast<double>(len) + eps);
      mean.mf()[o] = static_cast<float>(m);
      inv.mf()[o] = static_cast<float>(is);
      if (s.numel() == len && b.defined() && b.numel() == len) {
        const float* sc = s.f();
        const float* bi = b.f();
        for (k = 0; k < len; ++k) py[k] = static_cast<float>((px[k] - m) * is) * sc[k] + bi[k];
        continue;
      }
      for (k = 0; k < len; ++k) {
        const float sc = s.f()[s.numel() == 1 ? 0 : k];
        const float bi = b.defined() ? b.f()[b.numel() == 1 ? 0 : k] : 0.f;
        py[k] = static_cast<float>((px[k] - m) * is) * sc + bi;
      }
    }
  });
  c.out[0] = std::move(y);
  if (c.out.size() > 1) c.out[1] = std::move(mean);
  if (c.out.size() > 2) c.out[2] = std::move(inv);
  return {};
}

}  // namespace

std::vector<OpEntry> reduceOps() {
  return {{"ReduceSum", opReduce<Red::Sum>},
          {"ReduceMean", opReduce<Red::Mean>},
          {"ReduceMax", opReduce<Red::Max>},
          {"ReduceMin", opReduce<Red::Min>},
          {"ReduceProd", opReduce<Red::Prod>},
          {"ReduceSumSquare", opReduce<Red::SumSquare>},
          {"ReduceL1", opReduce<Red::L1>},
          {"ReduceL2", opReduce<Red::L2>},
          {"ReduceLogSum", opReduce<Red::LogSum>},
          {"ReduceLogSumExp", opReduce<Red::LogSumExp>},
          {"Softmax", opSoftmax<false>},
          {"LogSoftmax", opSoftmax<true>},
          {"LayerNormalization", opLayerNorm}};
}

}  // namespace fw::exec
