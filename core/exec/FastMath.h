#pragma once
// Internal to core/exec: float exp, erf, tanh and the logistic function over arrays, sixteen, eight or
// four lanes at a time (GCC/Clang vector extensions, no calls, no branches, selects by mask; built for
// AVX-512F, AVX2 and any x86-64, chosen when the program loads; the builds round identically, no FMA); and
// floor, ceil and nearbyint, exact (at the end). The library's std::erf and std::tanh are scalar calls whose
// speed depends on the argument: Erf took 2.1 ns an element on ConvNeXt-T's GELU inputs, 2.4 ns on values in
// [-1, 1] and 12 ns on normal(0, 2) values, which no cost model of an op can follow. These take 1.8 ns (AVX2)
// to 3.3 ns (SSE2) an element on any data (session 18), and about 0.6 of the AVX2 time on AVX-512 (session
// 29: bench/bench_kernels).
//
// Accuracy (tests/core/fast_math_test.cpp sweeps every 61st float against double-precision results):
// within 4 units in the last place of the float result, exact at 0, ±inf and NaN.
// The polynomial coefficients were derived for this file: exp and the small-argument erf are Taylor
// series (terms 1/k! and 2/√π·(-1)^n/(n!(2n+1))); the erfc and small-argument tanh polynomials are
// least-squares fits of the relative error against Python's math.erfc and numpy's tanh in double
// precision (erfc(x)·e^{x²} as a polynomial in t = 1/(1 + x/2) on [0.875, 3.92]: relative error
// 2.6e-10; tanh(x) = x + x³·R(x²) on [0, 0.625]: 5.1e-10).
#include <cstdint>
#include <vector>

namespace fw::exec::fastmath {

// out[i] = f(in[i]) for i < n; in and out may be the same array.
void exp(const float* in, float* out, int64_t n);
void erf(const float* in, float* out, int64_t n);
void tanh(const float* in, float* out, int64_t n);
void sigmoid(const float* in, float* out, int64_t n);
// log(1 + e^x), from e^{-|x|} (FastMath.cpp), within 3.5 ulp: 32K normal(0, 3) values took 491 us as
// std::log1p(std::exp(x)) an element, 49 us here (AVX2 build; 107 us SSE2).
void softplus(const float* in, float* out, int64_t n);
// sin and cos: reduced and evaluated in double precision (FastMath.cpp), within 1 ulp; the library's
// calls at |x| >= 10^6, ±inf and NaN. std::sin took 3.8-4.1 ns an element on [-1, 1] and 8.1-8.3 ns on
// [-1600, 1600] (a NeRF encoding's arguments); these take 1.6 ns on either (AVX2 build).
void sin(const float* in, float* out, int64_t n);
void cos(const float* in, float* out, int64_t n);
// Exact: the library's std::floor, std::ceil and std::nearbyint (the current rounding mode, no
// exception), bit for bit, on roundps where the CPU has SSE4.1.
void floor(const float* in, float* out, int64_t n);
void ceil(const float* in, float* out, int64_t n);
void nearbyint(const float* in, float* out, int64_t n);

// The builds this CPU runs, widest first: lanes 16 (AVX-512F), 8 (AVX2), 4 (SSE2, always). Tests run each:
// allowLanes(w) makes every call take the widest build of at most w lanes (not thread-safe; 16 restores).
std::vector<int> buildLanes();
void allowLanes(int lanes);
// The lanes of the build every call takes now: the widest the CPU runs (16 only where ONEDNN_MAX_CPU_ISA, if
// set, allows AVX-512), at most what allowLanes allows. For other files' own vector loops.
int lanes();

inline float exp(float x) { exp(&x, &x, 1); return x; }
inline float erf(float x) { erf(&x, &x, 1); return x; }
inline float tanh(float x) { tanh(&x, &x, 1); return x; }
inline float sigmoid(float x) { sigmoid(&x, &x, 1); return x; }
inline float softplus(float x) {
  softplus(&x, &x, 1);
  return x;
}
inline float sin(float x) {
  sin(&x, &x, 1);
  return x;
}
inline float cos(float x) {
  cos(&x, &x, 1);
  return x;
}

}  // namespace fw::exec::fastmath
