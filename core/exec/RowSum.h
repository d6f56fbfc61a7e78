#pragma once
// Internal to core/exec: a float row's extreme (extremeRow, below) and its sum in double precision, in
// four running partial sums that each add a pair of elements a step (the pair's sum off the chain). One
// running sum is a chain of dependent double additions, one element each: its speed is the adder's latency,
// not the memory's (ops_reduce.cpp: ReduceMean over 32 x 1024 floats 0.7-0.9 ns an element with one chain;
// GlobalAveragePool over 8 x 128 x 64 x 64, one chain a plane: 2.5 ms alone, 0.81 with these partial sums,
// session 34).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace fw::exec {

// sum over k < n of term(x[k]), term a double -> double.
template <typename Term>
inline double sumRow(const float* x, int64_t n, Term term) {
  double part[4] = {0, 0, 0, 0};
  int64_t k = 0;
  for (; k + 8 <= n; k += 8)
    for (int j = 0; j < 4; ++j)
      part[j] += term(static_cast<double>(x[k + j])) + term(static_cast<double>(x[k + 4 + j]));
  for (; k < n; ++k) part[k % 4] += term(static_cast<double>(x[k]));
  return (part[0] + part[1]) + (part[2] + part[3]);
}

// Two doubles, one lane a row (sumFourRows, below); magnitude() is std::fabs on a double and on each lane.
using RowPair = double __attribute__((vector_size(16)));
inline double magnitude(double v) { return std::fabs(v); }
inline RowPair magnitude(RowPair v) {
  using Bits = long long __attribute__((vector_size(16)));
  return reinterpret_cast<RowPair>(reinterpret_cast<Bits>(v) & (Bits{} + 0x7fffffffffffffffLL));
}

// sumRow of four rows of N (2 to 8) floats, rows x, x + N, x + 2N, x + 3N, two rows to a vector of doubles:
// each lane adds its row's partial sums in sumRow's order, so the four results are sumRow's. term takes a
// double or a RowPair. One row at a time a row of 3 took 1.4 ns, most of it its conversions and additions
// one by one (ReduceSum over [2, 1024, 1024, 3]: 2.9-3.0 ms; this way 2.2-2.4 in a standalone loop,
// session 51).
template <int N, typename Term>
inline void sumFourRows(const float* x, Term term, double out[4]) {
  static_assert(N >= 2 && N <= 8);
  using F2 = float __attribute__((vector_size(8)));
  RowPair lo[4] = {}, hi[4] = {};
  auto lane = [&](int row, int k) {
    return __builtin_convertvector((F2{x[row * N + k], x[(row + 1) * N + k]}), RowPair);
  };
  if constexpr (N == 8) {
    for (int j = 0; j < 4; ++j) {
      lo[j] += term(lane(0, j)) + term(lane(0, 4 + j));
      hi[j] += term(lane(2, j)) + term(lane(2, 4 + j));
    }
  } else {
    for (int k = 0; k < N; ++k) {
      lo[k % 4] += term(lane(0, k));
      hi[k % 4] += term(lane(2, k));
    }
  }
  const RowPair a = (lo[0] + lo[1]) + (lo[2] + lo[3]), b = (hi[0] + hi[1]) + (hi[2] + hi[3]);
  out[0] = a[0];
  out[1] = a[1];
  out[2] = b[0];
  out[3] = b[1];
}

inline double sumRow(const float* x, int64_t n) {
  return sumRow(x, n, [](double v) { return v; });
}

// The largest (isMax) or smallest element of a float row, NaN if any element is NaN (as ReduceMax and
// ReduceMin give it); -inf or +inf for an empty row. Sixteen elements a step in four 4-lane vectors (any
// x86-64 has them), then four a step in one, a NaN noted in a mask: exact in any order. A scalar loop took
// 0.4 ns an element (ReduceMax of 128K floats: 54 us, session 35; GlobalMaxPool of [8, 64, 32, 32]: 495 us,
// session 37). The four vectors meet in one and its lanes by shuffles, not lane by lane: a row of 16 (a
// DGCNN's max over 16 neighbours) took 8 ns, most of it the lanes' scalar maxima (session 38).
template <bool isMax>
inline float extremeRow(const float* px, int64_t nr) {
  using V4 = float __attribute__((vector_size(16)));
  using I4 = int32_t __attribute__((vector_size(16)));
  constexpr float start =
      isMax ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  auto pick = [](V4 v, V4 m) { return isMax ? (v > m ? v : m) : (v < m ? v : m); };
  V4 a = V4{} + start;
  I4 bad{};
  int64_t k = 0;
  if (nr >= 16) {
    V4 m[4] = {a, a, a, a};
    for (; k + 16 <= nr; k += 16)
      for (int j = 0; j < 4; ++j) {
        V4 v;
        std::memcpy(&v, px + k + 4 * j, sizeof v);
        bad |= v != v;
        m[j] = pick(v, m[j]);
      }
    a = pick(pick(m[0], m[1]), pick(m[2], m[3]));
  }
  for (; k + 4 <= nr; k += 4) {
    V4 v;
    std::memcpy(&v, px + k, sizeof v);
    bad |= v != v;
    a = pick(v, a);
  }
  a = pick(a, __builtin_shufflevector(a, a, 2, 3, 0, 1));
  a = pick(a, __builtin_shufflevector(a, a, 1, 0, 3, 2));
  bad |= __builtin_shufflevector(bad, bad, 2, 3, 0, 1);
  bad |= __builtin_shufflevector(bad, bad, 1, 0, 3, 2);
  float m = a[0];
  bool nan = bad[0] != 0;
  for (; k < nr; ++k) {
    const float v = px[k];
    nan |= v != v;
    m = isMax ? (v > m ? v : m) : (v < m ? v : m);
  }
  return nan ? std::numeric_limits<float>::quiet_NaN() : m;
}

}  // namespace fw::exec
