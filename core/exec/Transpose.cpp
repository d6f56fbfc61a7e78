#include "core/exec/Transpose.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/exec/FastMath.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

struct Axes {
  std::vector<int64_t> dims, inStride;
};

// Size-1 axes dropped; output neighbours that are neighbours in the input, in order, merged.
Axes coalesce(const std::vector<int64_t>& od, const std::vector<int64_t>& st) {
  Axes a;
  for (size_t k = 0; k < od.size(); ++k) {
    if (od[k] == 1) continue;
    if (!a.dims.empty() && a.inStride.back() == st[k] * od[k]) {
      a.dims.back() *= od[k];
      a.inStride.back() = st[k];
    } else {
      a.dims.push_back(od[k]);
      a.inStride.push_back(st[k]);
    }
  }
  return a;
}

// Input and output offsets of the `index`-th combination of `axes` (row-major over those axes).
void offsetsOf(int64_t index, const std::vector<size_t>& axes, const Axes& a, const std::vector<int64_t>& outStride,
               int64_t& in, int64_t& out) {
  in = out = 0;
  for (size_t k = axes.size(); k-- > 0;) {
    const size_t ax = axes[k];
    const int64_t i = index % a.dims[ax];
    index /= a.dims[ax];
    in += i * a.inStride[ax];
    out += i * outStride[ax];
  }
}

// An 8 x 8 block of floats transposed in AVX2 registers: dst[i * dstStride + j] = src[j * srcStride + i].
__attribute__((target("avx2"))) void transpose8x8(const float* src, int64_t srcStride, float* dst,
                                                  int64_t dstStride) {
  __m256 r[8], t[8];
  for (int k = 0; k < 8; ++k) r[k] = _mm256_loadu_ps(src + k * srcStride);
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  for (int k = 0; k < 8; k += 4) {
    r[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
    r[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
    r[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
    r[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
  }
  for (int k = 0; k < 4; ++k) {
    _mm256_storeu_ps(dst + k * dstStride, _mm256_permute2f128_ps(r[k], r[k + 4], 0x20));
    _mm256_storeu_ps(dst + (k + 4) * dstStride, _mm256_permute2f128_ps(r[k], r[k + 4], 0x31));
  }
}

// A tile of na x nb floats: dst[i * dstStride + j] = src[j * srcStride + i], by 8 x 8 blocks in AVX2
// registers and the edges one element at a time.
__attribute__((target("avx2"))) void transposeTileAvx2(const float* src, int64_t srcStride, float* dst,
                                                       int64_t dstStride, int64_t na, int64_t nb) {
  const int64_t na8 = na & ~int64_t{7}, nb8 = nb & ~int64_t{7};
  for (int64_t i = 0; i < na8; i += 8)
    for (int64_t j = 0; j < nb8; j += 8)
      transpose8x8(src + j * srcStride + i, srcStride, dst + i * dstStride + j, dstStride);
  for (int64_t i = 0; i < na; ++i)
    for (int64_t j = i < na8 ? nb8 : 0; j < nb; ++j) dst[i * dstStride + j] = src[j * srcStride + i];
}

template <class T>
void permute(const T* in, T* out, const Axes& a) {
  const size_t r = a.dims.size();
  const std::vector<int64_t> os = stridesOf(a.dims);
  const int64_t n = numelOf(a.dims);
  const int64_t len = a.dims[r - 1], sLast = a.inStride[r - 1];
  // Row by row in output order: the output offset is row * len; the input offset follows an odometer over
  // the row axes, set once per chunk (a division per axis and row cost more than copying rows of 32).
  auto byRows = [&] {
    parallelFor(n / len, len, [&](int64_t b, int64_t e) {
      std::vector<int64_t> idx(r > 1 ? r - 1 : 0);
      int64_t i = 0;
      for (int64_t k = static_cast<int64_t>(r) - 2, rem = b; k >= 0; --k) {
        idx[static_cast<size_t>(k)] = rem % a.dims[static_cast<size_t>(k)];
        rem /= a.dims[static_cast<size_t>(k)];
        i += idx[static_cast<size_t>(k)] * a.inStride[static_cast<size_t>(k)];
      }
      for (int64_t row = b; row < e; ++row) {
        T* dst = out + row * len;
        if (sLast == 1) {
          std::copy_n(in + i, len, dst);
        } else {
          for (int64_t k = 0; k < len; ++k) dst[k] = in[i + k * sLast];
        }
        for (size_t k = r - 1; k-- > 0;) {  // next row: carry through the row axes
          i += a.inStride[k];
          if (++idx[k] < a.dims[k]) break;
          i -= a.dims[k] * a.inStride[k];
          idx[k] = 0;
        }
      }
    });
  };
  // The input's innermost axis (stride 1) is output axis q, if any.
  const size_t q =
      static_cast<size_t>(std::find(a.inStride.begin(), a.inStride.end(), 1) - a.inStride.begin());
  // Rows that are contiguous in the input (a copy each), elements that are not plain bytes, or a view with
  // no stride-1 axis (a Slice with steps: x[..., ::2]), gathered along each output row. (As tiles of one
  // row, with a division per axis a row, a RoPE export's [2, 6, 64, 32] to [..., ::2] took 15 us, 20 ns
  // a row of 16, in session 35.)
  if constexpr (!std::is_trivially_copyable_v<T>) {
    byRows();
    return;
  } else if (sLast == 1 || q >= r) {
    byRows();
    return;
  }
  // Tiles of A (axis q) x B (the last axis).
  std::vector<size_t> outerAxes;
  for (size_t k = 0; k + 1 < r; ++k)
    if (k != q) outerAxes.push_back(k);
  const int64_t A = a.dims[q], oq = os[q];
  constexpr int64_t kT = 32;
  const int64_t tilesA = (A + kT - 1) / kT, outer = n / (A * len);
  // Floats go through 8 x 8 blocks in AVX2 registers where the CPU has it, the buffer below otherwise (and
  // for other element types): 1 thread, AMD EPYC, `fwb profile` of one node, old binary and new side by side
  // (session 41): [128, 180, 128] to [128, 128, 180] 9.7-11.0 -> 5.1-5.3 ms, [8, 128, 4, 48] to [8, 4, 48,
  // 128] 108-144 -> 56-61 us, [16, 32, 128] to [16, 128, 32] 42-46 -> 14-22 us.
  const bool blocks8 = std::is_same_v<T, float> && fastmath::lanes() >= 8;
  parallelFor(outer * tilesA, kT * len, [&](int64_t b, int64_t e) {
    T buf[kT * kT];
    for (int64_t it = b; it < e; ++it) {
      int64_t i0 = 0, o0 = 0;
      offsetsOf(it / tilesA, outerAxes, a, os, i0, o0);
      const int64_t a0 = (it % tilesA) * kT, na = std::min(A - a0, kT);
      for (int64_t b0 = 0; b0 < len; b0 += kT) {
        const int64_t nb = std::min(len - b0, kT);
        if constexpr (std::is_same_v<T, float>) {
          if (blocks8) {
            transposeTileAvx2(in + i0 + a0 + b0 * sLast, sLast, out + o0 + a0 * oq + b0, oq, na, nb);
            continue;
          }
        }
        for (int64_t j = 0; j < nb; ++j) {  // input order: a run of na elements per j
          const T* src = in + i0 + a0 + (b0 + j) * sLast;
          for (int64_t i = 0; i < na; ++i) buf[i * kT + j] = src[i];
        }
        // Output order: a run of nb elements per i, through memcpy. GCC turned the element loop into an
        // inline `rep movsq`, whose start-up dominated runs this short: [128, 9, 32] to [128, 32, 9] (runs
        // of 9) took 161-167 us, 4.5 ns an element, where its reverse took 48 (session 30).
        for (int64_t i = 0; i < na; ++i) {
          T* dst = out + o0 + (a0 + i) * oq + b0;
          if constexpr (std::is_trivially_copyable_v<T>)
            std::memcpy(dst, buf + i * kT, static_cast<size_t>(nb) * sizeof(T));
          else
            std::copy_n(buf + i * kT, nb, dst);  // not reached: such elements go row by row above
        }
      }
    }
  });
}

}  // namespace

void toChannelsLast(const float* x, int64_t N, int64_t C, int64_t S, float* y) {
  if (N * C * S == 0) return;
  permute(x, y, coalesce({N, S, C}, {C * S, 1, S}));
}

void toChannelsFirst(const float* x, int64_t N, int64_t C, int64_t S, float* y) {
  if (N * C * S == 0) return;
  permute(x, y, coalesce({N, C, S}, {S * C, 1, C}));
}

void copyStrided(const RtTensor& x, int64_t inOffset, const std::vector<int64_t>& inStride, RtTensor& y,
                 const std::vector<int64_t>& od) {
  const int64_t n = numelOf(od);
  if (n == 0) return;
  Axes a = coalesce(od, inStride);
  if (a.dims.empty()) a = {{1}, {1}};
  switch (x.store()) {
    case Store::F32: permute(x.f() + inOffset, y.mf(), a); break;
    case Store::I64: permute(x.i() + inOffset, y.mi(), a); break;
    case Store::U8: permute(x.b() + inOffset, y.mb(), a); break;
    case Store::Str: permute(x.s() + inOffset, y.ms(), a); break;
    default: break;
  }
}

}  // namespace fw::exec
