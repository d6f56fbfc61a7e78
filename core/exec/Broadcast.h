#pragma once
// Internal to core/exec: numpy-style broadcasting loops shared by the elementwise kernels.
#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/exec/OpContext.h"

namespace fw::exec {

// Calls f(std::integral_constant<int, K>{}) with K = n for 1 <= n <= 8, so that a loop over a short row has a
// trip count the compiler knows (unrolled, no set-up a row), else with K = 0 (n read at run time).
template <class F>
void byShortLength(int64_t n, F&& f) {
  switch (n) {
    case 1:
      f(std::integral_constant<int, 1>{});
      return;
    case 2:
      f(std::integral_constant<int, 2>{});
      return;
    case 3:
      f(std::integral_constant<int, 3>{});
      return;
    case 4:
      f(std::integral_constant<int, 4>{});
      return;
    case 5:
      f(std::integral_constant<int, 5>{});
      return;
    case 6:
      f(std::integral_constant<int, 6>{});
      return;
    case 7:
      f(std::integral_constant<int, 7>{});
      return;
    case 8:
      f(std::integral_constant<int, 8>{});
      return;
    default:
      f(std::integral_constant<int, 0>{});
      return;
  }
}

// The output's dims with the dims that every input walks as one merged (each input's stride of the
// outer dim is its stride of the inner one times the inner size, or both are 0), and each input's
// stride of every merged dim: [1,C,H,W] * [1,C,1,1] is C rows of H*W, not C*H rows of W.
template <size_t N>
struct MergedDims {
  std::vector<int64_t> out;
  std::array<std::vector<int64_t>, N> strides;
};

template <size_t N>
MergedDims<N> mergeBroadcastDims(const std::vector<int64_t>& outDims,
                                 const std::array<std::vector<int64_t>, N>& inDims) {
  std::array<std::vector<int64_t>, N> full;
  for (size_t k = 0; k < N; ++k) full[k] = broadcastStrides(inDims[k], outDims);
  MergedDims<N> m;
  for (size_t d = 0; d < outDims.size(); ++d) {
    bool merge = !m.out.empty();
    for (size_t k = 0; k < N && merge; ++k) merge = m.strides[k].back() == full[k][d] * outDims[d];
    if (merge) {
      m.out.back() *= outDims[d];
      for (size_t k = 0; k < N; ++k) m.strides[k].back() = full[k][d];
    } else {
      m.out.push_back(outDims[d]);
      for (size_t k = 0; k < N; ++k) m.strides[k].push_back(full[k][d]);
    }
  }
  return m;
}

// Calls fn(outOffset, inOffsets) for every index of the merged dims but the last `keep` (1 <= keep <=
// rank): outOffset is that index's first output element, inOffsets each input's element there. The
// indices are split among threads when the output is large. An index is decomposed once a chunk, then
// carried from one to the next (an odometer): a division a dim a row took most of the time of short rows
// (StyleGAN2's modulation, [1, 64, 64, 3, 3] * [4, 1, 64, 1, 1] in rows of 9: 141 us).
template <size_t N, class Fn>
void walkOuterDims(const MergedDims<N>& m, size_t keep, Fn fn) {
  const size_t r = m.out.size(), lead = r - keep;
  int64_t block = 1;
  for (size_t d = lead; d < r; ++d) block *= m.out[d];
  const int64_t count = block == 0 ? 0 : numelOf(m.out) / block;
  parallelFor(count, block, [&](int64_t b, int64_t e) {
    std::vector<int64_t> idx(lead, 0);
    std::array<int64_t, N> off{};
    int64_t rem = b;
    for (size_t d = lead; d-- > 0;) {
      idx[d] = rem % m.out[d];
      rem /= m.out[d];
      for (size_t k = 0; k < N; ++k) off[k] += idx[d] * m.strides[k][d];
    }
    for (int64_t at = b; at < e; ++at) {
      fn(at * block, off);
      for (size_t d = lead; d-- > 0;) {
        if (++idx[d] < m.out[d]) {
          for (size_t k = 0; k < N; ++k) off[k] += m.strides[k][d];
          break;
        }
        idx[d] = 0;
        for (size_t k = 0; k < N; ++k) off[k] -= (m.out[d] - 1) * m.strides[k][d];
      }
    }
  });
}

// Calls fn(outOffset, inOffsets, len, innerStrides) for every row of the output (the last merged dim
// is the row).
template <size_t N, class Fn>
void broadcastRows(const std::vector<int64_t>& outDims, const std::array<std::vector<int64_t>, N>& inDims,
                   Fn fn) {
  if (outDims.empty()) {
    std::array<int64_t, N> off{};
    std::array<int64_t, N> st{};
    fn(int64_t{0}, off, int64_t{1}, st);
    return;
  }
  const MergedDims<N> m = mergeBroadcastDims(outDims, inDims);
  const size_t r = m.out.size();
  const int64_t len = m.out[r - 1];
  std::array<int64_t, N> inner{};
  for (size_t k = 0; k < N; ++k) inner[k] = m.strides[k][r - 1];
  walkOuterDims(m, 1, [&](int64_t o, const std::array<int64_t, N>& off) { fn(o, off, len, inner); });
}

// Whether `d` (leading 1s aside) is the trailing dims of `od`: one row repeated over the output, as
// a bias over the last dim is.
inline bool isTrailingOf(const std::vector<int64_t>& d, const std::vector<int64_t>& od) {
  size_t lead = 0;
  while (lead < d.size() && d[lead] == 1) ++lead;
  const size_t k = d.size() - lead;
  if (k > od.size()) return false;
  return std::equal(d.begin() + static_cast<std::ptrdiff_t>(lead), d.end(), od.end() - static_cast<std::ptrdiff_t>(k));
}

// The loops below write a different buffer than they read (or the same element they read): no
// dependence between iterations. Said to the vectorizer, which otherwise must assume that a bool
// (uint8) output aliases its float inputs and leaves the loop scalar; for the same reason the loops
// read their pointers from locals, not from the closure, which a uint8 store could alias too (an
// Equal over 60K floats took 53 us, an Add 9 us).
#if defined(__clang__)
#define FW_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#else
#define FW_IVDEP _Pragma("GCC ivdep")
#endif

// Short rows, one operand's row repeated down the last two merged dims [m, len] and the other's plane
// dense (a pairwise difference of points, [B, N, 1, 3] - [B, 1, N, 3]): each plane against a tile of the
// repeated row, in runs of up to 64 elements that vectorise; false (nothing written) for any other shapes.
// Row by row, a row of 3 cost the odometer and a loop's set-up: that Sub over [2, 1024, 1024, 3] took 7.1 ms
// alone (9.8 in a Point Transformer), 1.0-1.1 this way; [2, 1024, 1, 3] - [2, 1024, 16, 3] 182 us, 62-63
// (session 51).
template <class A, class B, class R, class F>
bool tiledRowLoop(const A* a, const std::vector<int64_t>& ad, const B* b, const std::vector<int64_t>& bd,
                  R* out, const std::vector<int64_t>& od, F f) {
  const int64_t n = numelOf(od);
  const MergedDims<2> md = mergeBroadcastDims<2>(od, {ad, bd});
  if (md.out.size() >= 2 && n > 0) {
    const size_t r = md.out.size();
    const int64_t len = md.out[r - 1], m = md.out[r - 2];
    const auto& sa = md.strides[0];
    const auto& sb = md.strides[1];
    const bool aRow = sa[r - 1] == 1 && sa[r - 2] == 0 && sb[r - 1] == 1 && sb[r - 2] == len;
    const bool bRow = sb[r - 1] == 1 && sb[r - 2] == 0 && sa[r - 1] == 1 && sa[r - 2] == len;
    if (len < 16 && m > 1 && (aRow || bRow)) {
      const int64_t reps = std::min<int64_t>(m, std::max<int64_t>(1, 64 / len));
      // rowIsA: a's row is the one repeated (b's plane dense), else b's.
      auto planes = [&](auto rowIsA) {
        constexpr bool fromA = decltype(rowIsA)::value;
        using T = std::conditional_t<fromA, A, B>;
        walkOuterDims(md, 2, [&](int64_t o, const std::array<int64_t, 2>& off) {
          R* const po = out + o;
          const T* const row = [&] {
            if constexpr (fromA)
              return a + off[0];
            else
              return b + off[1];
          }();
          const auto* const plane = [&] {
            if constexpr (fromA)
              return b + off[1];
            else
              return a + off[0];
          }();
          T tile[64 + 16];
          for (int64_t i = 0; i < len; ++i) tile[i] = row[i];
          for (int64_t t = len; t < reps * len; t *= 2)
            std::memcpy(tile + t, tile, static_cast<size_t>(std::min(t, reps * len - t)) * sizeof(T));
          for (int64_t j = 0; j < m; j += reps) {
            const int64_t cnt = std::min(reps, m - j) * len, at = j * len;
            if constexpr (fromA) {
              FW_IVDEP
              for (int64_t i = 0; i < cnt; ++i) po[at + i] = f(tile[i], plane[at + i]);
            } else {
              FW_IVDEP
              for (int64_t i = 0; i < cnt; ++i) po[at + i] = f(plane[at + i], tile[i]);
            }
          }
        });
      };
      if (aRow)
        planes(std::true_type{});
      else
        planes(std::false_type{});
      return true;
    }
  }
  return false;
}

// out[i] = f(a[i], b[i]) with broadcasting. A, B, R are element types.
template <class A, class B, class R, class F>
void binaryLoop(const A* a, const std::vector<int64_t>& ad, const B* b, const std::vector<int64_t>& bd, R* out,
                const std::vector<int64_t>& od, F f) {
  const int64_t n = numelOf(od);
  // One operand is the whole output, the other a row of its trailing dims (a bias): each output row
  // against that row, with no index arithmetic (a [1,48,20] + [20] took 1.2-1.8 us through
  // broadcastRows, 0.5 us for two whole operands).
  const int64_t na = numelOf(ad), nb = numelOf(bd);
  // Rows of up to 8 with their length known to the compiler (a hash grid's cell corners times three primes,
  // [8192, 8, 8, 3] * [3]: 942 us with rows of 3 read at run time).
  if (ad == od && nb > 1 && nb < n && isTrailingOf(bd, od)) {
    byShortLength(nb, [&](auto k) {
      constexpr int K = decltype(k)::value;
      parallelFor(n / nb, nb, [&](int64_t s, int64_t e) {
        const A* const pa = a;
        const B* const pb = b;
        R* const po = out;
        const int64_t w = K > 0 ? K : nb;
        for (int64_t r = s; r < e; ++r) FW_IVDEP
        for (int64_t i = 0; i < w; ++i) po[r * w + i] = f(pa[r * w + i], pb[i]);
      });
    });
    return;
  }
  if (bd == od && na > 1 && na < n && isTrailingOf(ad, od)) {
    byShortLength(na, [&](auto k) {
      constexpr int K = decltype(k)::value;
      parallelFor(n / na, na, [&](int64_t s, int64_t e) {
        const A* const pa = a;
        const B* const pb = b;
        R* const po = out;
        const int64_t w = K > 0 ? K : na;
        for (int64_t r = s; r < e; ++r) FW_IVDEP
        for (int64_t i = 0; i < w; ++i) po[r * w + i] = f(pa[i], pb[r * w + i]);
      });
    });
    return;
  }
  // One operand is the whole output, the other one value a row of it (the output's dims with the last one
  // 1: x - mean, x / norm over the last axis): each row against its value. Through broadcastRows a row
  // paid an index decomposition: a capsule network's [16, 1152, 8] / [16, 1152, 1] took 91 us alone, 60
  // this way (session 35).
  if (const int64_t w = od.empty() ? 0 : od.back(); w > 1 && n > 0) {
    auto rowScalar = [&](const std::vector<int64_t>& d) {
      return d.size() == od.size() && d.back() == 1 && std::equal(d.begin(), d.end() - 1, od.begin());
    };
    const bool bRows = ad == od && rowScalar(bd), aRows = bd == od && rowScalar(ad);
    if (aRows || bRows) {
      parallelFor(n / w, w, [&](int64_t s, int64_t e) {
        const A* const pa = a;
        const B* const pb = b;
        R* const po = out;
        const int64_t len = w;
        // Rows of up to 8 with their length known to the compiler (a hash grid's features times their
        // corner's weight, [8192, 8, 8, 2] * [8192, 8, 8, 1]: 730 us in rows of 2 read at run time).
        byShortLength(len, [&](auto k) {
          constexpr int K = decltype(k)::value;
          const int64_t n = K > 0 ? K : len;
          for (int64_t r = s; r < e; ++r) {
            R* const row = po + r * n;
            if (bRows) {
              const B v = pb[r];
              const A* const x = pa + r * n;
              FW_IVDEP
              for (int64_t i = 0; i < n; ++i) row[i] = f(x[i], v);
            } else {
              const A v = pa[r];
              const B* const x = pb + r * n;
              FW_IVDEP
              for (int64_t i = 0; i < n; ++i) row[i] = f(v, x[i]);
            }
          }
        });
      });
      return;
    }
  }
  if (ad == od && bd == od) {
    parallelFor(n, 1, [&](int64_t s, int64_t e) {
      const A* const pa = a;
      const B* const pb = b;
      R* const po = out;
      FW_IVDEP
      for (int64_t i = s; i < e; ++i) po[i] = f(pa[i], pb[i]);
    });
    return;
  }
  if (ad == od && numelOf(bd) == 1) {
    const B bv = b[0];
    parallelFor(n, 1, [&](int64_t s, int64_t e) {
      const A* const pa = a;
      const B v = bv;
      R* const po = out;
      FW_IVDEP
      for (int64_t i = s; i < e; ++i) po[i] = f(pa[i], v);
    });
    return;
  }
  if (bd == od && numelOf(ad) == 1) {
    const A av = a[0];
    parallelFor(n, 1, [&](int64_t s, int64_t e) {
      const A v = av;
      const B* const pb = b;
      R* const po = out;
      FW_IVDEP
      for (int64_t i = s; i < e; ++i) po[i] = f(v, pb[i]);
    });
    return;
  }
  if constexpr (std::is_trivially_copyable_v<A> && std::is_trivially_copyable_v<B>)
    if (tiledRowLoop(a, ad, b, bd, out, od, f)) return;
  broadcastRows<2>(od, {ad, bd}, [&](int64_t o, const std::array<int64_t, 2>& off, int64_t len,
                                     const std::array<int64_t, 2>& st) {
    const A* pa = a + off[0];
    const B* pb = b + off[1];
    R* po = out + o;
    if (st[0] == 1 && st[1] == 1) {
      FW_IVDEP
      for (int64_t i = 0; i < len; ++i) po[i] = f(pa[i], pb[i]);
    } else if (st[0] == 1 && st[1] == 0) {
      const B bv = *pb;
      FW_IVDEP
      for (int64_t i = 0; i < len; ++i) po[i] = f(pa[i], bv);
    } else if (st[0] == 0 && st[1] == 1) {
      const A av = *pa;
      FW_IVDEP
      for (int64_t i = 0; i < len; ++i) po[i] = f(av, pb[i]);
    } else {
      const int64_t s0 = st[0], s1 = st[1];
      FW_IVDEP
      for (int64_t i = 0; i < len; ++i) po[i] = f(pa[i * s0], pb[i * s1]);
    }
  });
}

}  // namespace fw::exec
