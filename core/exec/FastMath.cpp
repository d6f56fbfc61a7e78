// Vector bodies of core/exec/FastMath.h (accuracy and the derivation of the coefficients are there).
#include "core/exec/FastMath.h"

#include <immintrin.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace fw::exec::fastmath {

namespace {
// Inlined into each target clone below, so that the AVX2 clone runs them on AVX2.
#define FW_INLINE __attribute__((always_inline)) inline
// Four lanes (SSE2, any x86-64), eight (AVX2) or sixteen (AVX-512F).
using V4 = float __attribute__((vector_size(16)));
using I4 = int32_t __attribute__((vector_size(16)));
using V8 = float __attribute__((vector_size(32)));
using I8 = int32_t __attribute__((vector_size(32)));
using V16 = float __attribute__((vector_size(64)));
using I16 = int32_t __attribute__((vector_size(64)));

template <class V, class I>
FW_INLINE V splat(float v) { return V{} + v; }
template <class V, class I>
FW_INLINE I bits(V v) { return __builtin_bit_cast(I, v); }
template <class V, class I>
FW_INLINE V floats(I v) { return __builtin_bit_cast(V, v); }
// m ? a : b per lane (m is all ones or all zeros, as a comparison gives).
template <class V, class I>
FW_INLINE V select(I m, V a, V b) { return floats<V, I>((bits<V, I>(a) & m) | (bits<V, I>(b) & ~m)); }
template <class V, class I>
FW_INLINE V abs(V v) { return floats<V, I>(bits<V, I>(v) & 0x7fffffff); }
template <class V, class I>
FW_INLINE V copySign(V mag, V sign) { return floats<V, I>((bits<V, I>(mag) & 0x7fffffff) | (bits<V, I>(sign) & INT32_MIN)); }

// c[0]·x^(N-1) + c[1]·x^(N-2) + ... + c[N-1], by Horner's rule (the highest power first).
template <class V, class I, size_t N>
FW_INLINE V horner(V x, const float (&c)[N]) {
  V p = splat<V, I>(c[0]);
  for (size_t i = 1; i < N; ++i) p = p * x + c[i];
  return p;
}

template <class V, class I>
FW_INLINE V expV(V x) {
  const I nan = x != x;
  V v = select<V, I>(nan, splat<V, I>(0.f), x);
  v = select<V, I>(v > 88.7228f, splat<V, I>(88.7228f), v);
  // Below -103.9 the result is 0 (selected at the end): computed on 0 there, not on -103.9, whose 2^k is
  // subnormal, and a product with a subnormal takes the core's slow path (an attention softmax over rows
  // of 64 with half its scores masked to -1e9 took 2.1 ms where unmasked it took 0.6).
  v = select<V, I>(v < -103.9f, splat<V, I>(0.f), v);
  // k = round(v / ln 2) by the 1.5·2^23 trick (exact for |k| < 2^22), then r = v - k·ln 2 with ln 2
  // split in two so that k·hi is exact: |r| <= ln2 / 2.
  const V kf = (v * 1.44269504f + 12582912.f) - 12582912.f;
  const V r = (v - kf * 0.693359375f) + kf * 2.12194440e-4f;
  static constexpr float kTaylor[] = {1.f / 5040, 1.f / 720, 1.f / 120, 1.f / 24, 1.f / 6, 0.5f, 1.f, 1.f};
  const V p = horner<V, I>(r, kTaylor);
  // 2^k as two normal powers of two: k reaches -150 (a subnormal result) and 128.
  const I k = __builtin_convertvector(kf, I);
  const I k1 = k / 2, k2 = k - k1;
  const V y = p * floats<V, I>((k1 + 127) << 23) * floats<V, I>((k2 + 127) << 23);
  const V inf = splat<V, I>(__builtin_inff());
  return select<V, I>(nan, x, select<V, I>(x > 88.7228f, inf, select<V, I>(x < -103.9f, splat<V, I>(0.f), y)));
}

template <class V, class I>
FW_INLINE V erfV(V x) {
  const V a = abs<V, I>(x);
  const V z = a * a;
  // |x| < 0.875: x·P(x²), the Taylor series to the x^17 term (relative error < 2e-8 there).
  static constexpr float kSmall[] = {1.646211437e-06f, -1.492565036e-05f, 1.205533298e-04f, -8.548327023e-04f, 5.223977625e-03f,
                                     -2.686617065e-02f, 1.128379167e-01f,  -3.761263890e-01f, 1.128379167e+00f};
  const V s = horner<V, I>(z, kSmall);
  // |x| >= 0.875: 1 - erfc(|x|), erfc(a) = e^{-a²}·Q(1 / (1 + a/2)); erfc < 2^-25 beyond 3.92.
  const V t = 1.f / (1.f + 0.5f * a);
  static constexpr float kErfc[] = {6.482930797e-03f, 9.379607932e-02f, -4.276153378e-01f, 5.212562278e-01f, -7.858129591e-02f,
                                     3.383637338e-01f, 2.618882690e-01f,  2.846224517e-01f,  -1.376258140e-04f};
  const V q = horner<V, I>(t, kErfc);
  const V big = select<V, I>(a >= 3.92f, splat<V, I>(1.f), 1.f - expV<V, I>(-z) * q);
  return select<V, I>(a < 0.875f, x * s, copySign<V, I>(big, x));
}

template <class V, class I>
FW_INLINE V tanhV(V x) {
  const V a = abs<V, I>(x);
  const V z = x * x;
  // |x| < 0.625: x + x³·R(x²).
  static constexpr float kSmall[] = {2.17781755529475e-03f, -8.21476192737033e-03f, 2.171547356535773e-02f,
                                     -5.394938331111507e-02f, 1.333322596650023e-01f, -3.3333331283384016e-01f};
  const V r = horner<V, I>(z, kSmall);
  const V big = 1.f - 2.f / (expV<V, I>(2.f * a) + 1.f);
  return select<V, I>(a < 0.625f, x + x * z * r, copySign<V, I>(big, x));
}

// 1 / (1 + e^{-x}), from e^{-|x|} so that neither side overflows.
template <class V, class I>
FW_INLINE V sigmoidV(V x) {
  const V e = expV<V, I>(-abs<V, I>(x));
  const V d = 1.f + e;
  return select<V, I>(x >= 0.f, 1.f / d, select<V, I>(x < 0.f, e / d, x));
}

// log(1 + e^x) = max(x, 0) + log1p(e^{-|x|}); log1p(u) = 2·atanh(s) with s = u / (2 + u) <= 1/3, the
// series 2s·(1 + s²/3 + s⁴/5 + ... + s^14/15) (the next term is under 2e-9 of the sum): no cancellation
// where u is tiny, so a very negative x keeps e^x's relative accuracy.
template <class V, class I>
FW_INLINE V softplusV(V x) {
  const V u = expV<V, I>(-abs<V, I>(x));
  const V s = u / (2.f + u);
  static constexpr float kAtanh[] = {1.f / 15, 1.f / 13, 1.f / 11, 1.f / 9, 1.f / 7, 1.f / 5, 1.f / 3, 1.f};
  const V l = 2.f * s * horner<V, I>(s * s, kAtanh);
  return select<V, I>(x > 0.f, x, splat<V, I>(0.f)) + l;
}

// sin and cos reduce and evaluate in double precision, half a float vector at a time: x - k·π/2 with π/2 in three
// parts, the first two of 33 significant bits, is exact in its first two steps for |k| < 2^20, and the
// Taylor series of sin and cos on |r| <= π/4 to the r^13 and r^14 terms are within 3e-14 of them; the
// float result is the double one rounded, within one unit in the last place. A lane at or beyond 10^6
// (and ±inf and NaN) takes the library's call instead.
// Halves of a float vector and the double and int64 vectors of as many lanes (two- or four-wide).
template <class V>
struct Halves;
template <>
struct Halves<V4> {
  using F = float __attribute__((vector_size(8)));
  using D = double __attribute__((vector_size(16)));
  using L = int64_t __attribute__((vector_size(16)));
  static FW_INLINE F lo(V4 v) { return __builtin_shufflevector(v, v, 0, 1); }
  static FW_INLINE F hi(V4 v) { return __builtin_shufflevector(v, v, 2, 3); }
  static FW_INLINE V4 join(F a, F b) { return __builtin_shufflevector(a, b, 0, 1, 2, 3); }
};
template <>
struct Halves<V8> {
  using F = V4;
  using D = double __attribute__((vector_size(32)));
  using L = int64_t __attribute__((vector_size(32)));
  static FW_INLINE F lo(V8 v) { return __builtin_shufflevector(v, v, 0, 1, 2, 3); }
  static FW_INLINE F hi(V8 v) { return __builtin_shufflevector(v, v, 4, 5, 6, 7); }
  static FW_INLINE V8 join(F a, F b) { return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7); }
};

template <>
struct Halves<V16> {
  using F = V8;
  using D = double __attribute__((vector_size(64)));
  using L = int64_t __attribute__((vector_size(64)));
  static FW_INLINE F lo(V16 v) { return __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7); }
  static FW_INLINE F hi(V16 v) { return __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15); }
  static FW_INLINE V16 join(F a, F b) {
    return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  }
};

template <class D, class L, bool Cos>
FW_INLINE D sinCosD(D d) {
  // k = round(d·2/π) by the 1.5·2^52 trick (exact for |k| < 2^51), then r = d - k·π/2, |r| <= π/4 + tiny.
  const D t = d * 0x1.45f306dc9c883p-1 + 0x1.8p52;
  const D kf = t - 0x1.8p52;
  const D r = ((d - kf * 0x1.921fb54400000p+0) - kf * 0x1.0b4611a600000p-34) - kf * 0x1.3198a2e037073p-69;
  const D z = r * r;
  const D ps =
      ((((z * (1.0 / 6227020800) - 1.0 / 39916800) * z + 1.0 / 362880) * z - 1.0 / 5040) * z + 1.0 / 120) *
          z -
      1.0 / 6;
  const D pc = ((((z * (-1.0 / 87178291200) + 1.0 / 479001600) * z - 1.0 / 3628800) * z + 1.0 / 40320) * z -
                1.0 / 720) *
                   z +
               1.0 / 24;
  const D sinR = r + r * z * ps;
  const D cosR = (1.0 - 0.5 * z) + z * z * pc;
  // sin(x) by quadrant k mod 4: sin r, cos r, -sin r, -cos r; cos(x) is sin(x + π/2): quadrant k + 1.
  // k's low bits are t's (AVX2 has no double-to-int64 conversion).
  const L q = __builtin_bit_cast(L, t) + (Cos ? 1 : 0);
  const L odd = (q & 1) != 0, neg = (q & 2) != 0;  // all ones or zeros a lane
  const L pick = (__builtin_bit_cast(L, cosR) & odd) | (__builtin_bit_cast(L, sinR) & ~odd);
  return __builtin_bit_cast(D, pick ^ (neg & INT64_MIN));
}

template <class V, class I, bool Cos>
FW_INLINE V sinCosV(V x) {
  using H = Halves<V>;
  using D = typename H::D;
  using L = typename H::L;
  const V a = abs<V, I>(x);
  const I far = ~(a < 1e6f);  // NaN compares false: far too
  const V in = select<V, I>(far, splat<V, I>(0.f), x);
  const D lo = sinCosD<D, L, Cos>(__builtin_convertvector(H::lo(in), D));
  const D hi = sinCosD<D, L, Cos>(__builtin_convertvector(H::hi(in), D));
  using F = typename H::F;
  V out = H::join(__builtin_convertvector(lo, F), __builtin_convertvector(hi, F));
  if (!Cos) out = select<V, I>(a == 0.f, x, out);  // sin(-0) is -0
  uint64_t words[sizeof(I) / 8];
  std::memcpy(words, &far, sizeof far);
  uint64_t any = 0;
  for (uint64_t w : words) any |= w;
  if (any)
    for (size_t i = 0; i < sizeof(V) / sizeof(float); ++i)
      if (far[i]) out[i] = Cos ? std::cos(x[i]) : std::sin(x[i]);
  return out;
}
template <class V, class I>
FW_INLINE V sinV(V x) {
  return sinCosV<V, I, false>(x);
}
template <class V, class I>
FW_INLINE V cosV(V x) {
  return sinCosV<V, I, true>(x);
}

template <class V, class I, V (*Fn)(V)>
FW_INLINE void apply(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  constexpr int64_t lanes = sizeof(V) / sizeof(float);
  // A length past a whole number of vectors ends with the last full vector of the array, overlapping
  // the one before: computed from the input first (in and out may be the same array) and stored last.
  // The part-vector through a variable-length copy cost about 30 ns an array: a softmax over rows of 25,
  // 33 or 49 floats took 30 ns a row more than one over rows of 24, 32 or 48 (1 thread, AVX2 build).
  const bool overlap = n > lanes && n % lanes != 0;
  V last{};
  if (overlap) {
    std::memcpy(&last, in + n - lanes, sizeof last);
    last = Fn(last);
  }
  for (; i + lanes <= n; i += lanes) {
    V v;
    std::memcpy(&v, in + i, sizeof v);
    v = Fn(v);
    std::memcpy(out + i, &v, sizeof v);
  }
  if (overlap) {
    std::memcpy(out + n - lanes, &last, sizeof last);
  } else if (i < n) {
    V v = splat<V, I>(0.f);
    std::memcpy(&v, in + i, sizeof(float) * static_cast<size_t>(n - i));
    v = Fn(v);
    std::memcpy(out + i, &v, sizeof(float) * static_cast<size_t>(n - i));
  }
}

}  // namespace

// The widest build the CPU has (checked once) and tests allow: sixteen lanes where it has AVX-512F and
// ONEDNN_MAX_CPU_ISA, when set, names an AVX-512 or AMX level (CI's AVX2 and SSE41 runs then take the
// build an AVX2 CPU takes), eight where it has AVX2, four otherwise. All three round alike: the same
// operations a lane, no FMA (this file is built with -ffp-contract=off). Erf over 196608 floats took
// 0.59 of the eight-lane time on sixteen lanes, Exp, Tanh and Sigmoid 0.57-0.64 (bench/bench_kernels,
// one thread, AVX-512 Xeon; session 29).
int allowedLanes = 16;
int cpuLanes() {
  static const int lanes = [] {
    std::string cap = std::getenv("ONEDNN_MAX_CPU_ISA") ? std::getenv("ONEDNN_MAX_CPU_ISA") : "";
    for (char& ch : cap) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool capAllows512 = cap.empty() || cap.rfind("avx512", 0) == 0 || cap.rfind("amx", 0) == 0;
    if (__builtin_cpu_supports("avx512f") && capAllows512) return 16;
    return __builtin_cpu_supports("avx2") ? 8 : 4;
  }();
  return lanes;
}
int lanesInUse() { return std::min(cpuLanes(), allowedLanes); }
bool hasAvx2() { return lanesInUse() >= 8; }
#define FW_FASTMATH_FN(name, body)                                                                      \
  __attribute__((target("avx512f"))) static void name##Avx512(const float* in, float* out, int64_t n) { \
    apply<V16, I16, body<V16, I16>>(in, out, n);                                                        \
  }                                                                                                     \
  __attribute__((target("avx2"))) static void name##Avx2(const float* in, float* out, int64_t n) {      \
    apply<V8, I8, body<V8, I8>>(in, out, n);                                                            \
  }                                                                                                     \
  void name(const float* in, float* out, int64_t n) {                                                   \
    const int lanes = lanesInUse();                                                                     \
    if (lanes >= 16) return name##Avx512(in, out, n);                                                   \
    if (lanes >= 8) return name##Avx2(in, out, n);                                                      \
    apply<V4, I4, body<V4, I4>>(in, out, n);                                                            \
  }
std::vector<int> buildLanes() {
  std::vector<int> out;
  for (int lanes : {16, 8, 4})
    if (lanes <= cpuLanes()) out.push_back(lanes);
  return out;
}
void allowLanes(int lanes) { allowedLanes = lanes; }
int lanes() { return lanesInUse(); }

FW_FASTMATH_FN(exp, expV)
FW_FASTMATH_FN(erf, erfV)
FW_FASTMATH_FN(tanh, tanhV)
FW_FASTMATH_FN(sigmoid, sigmoidV)
FW_FASTMATH_FN(softplus, softplusV)
FW_FASTMATH_FN(sin, sinV)
FW_FASTMATH_FN(cos, cosV)

// Rounding to an integer is exact: roundps (SSE4.1, or AVX2's eight lanes) with the library's own modes
// (floor 0x9, ceil 0xA, the current mode 0xC, each without the inexact exception: what GCC emits for
// one std::floor, std::ceil or std::nearbyint) gives its results bit for bit, NaN, ±inf and -0 included;
// without SSE4.1, the library's calls. std::floor was a call an element: Floor took 31 us over 32K
// elements, Round 39.
bool hasSse41() {
  static const bool yes = __builtin_cpu_supports("sse4.1");
  return yes;
}
template <int Mode>
__attribute__((target("avx2"))) void roundAvx2(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, _mm256_round_ps(_mm256_loadu_ps(in + i), Mode));
  for (; i < n; ++i) _mm_store_ss(out + i, _mm_round_ss(_mm_setzero_ps(), _mm_load_ss(in + i), Mode));
}
template <int Mode>
__attribute__((target("sse4.1"))) void roundSse41(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm_storeu_ps(out + i, _mm_round_ps(_mm_loadu_ps(in + i), Mode));
  for (; i < n; ++i) _mm_store_ss(out + i, _mm_round_ss(_mm_setzero_ps(), _mm_load_ss(in + i), Mode));
}
template <int Mode, float (*Call)(float)>
void roundAny(const float* in, float* out, int64_t n) {
  if (hasAvx2()) return roundAvx2<Mode>(in, out, n);
  if (hasSse41()) return roundSse41<Mode>(in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = Call(in[i]);
}
float floorCall(float v) { return std::floor(v); }
float ceilCall(float v) { return std::ceil(v); }
float nearbyintCall(float v) { return std::nearbyint(v); }

void floor(const float* in, float* out, int64_t n) {
  roundAny<_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC, floorCall>(in, out, n);
}
void ceil(const float* in, float* out, int64_t n) {
  roundAny<_MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC, ceilCall>(in, out, n);
}
void nearbyint(const float* in, float* out, int64_t n) {
  roundAny<_MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC, nearbyintCall>(in, out, n);
}

}  // namespace fw::exec::fastmath
