#pragma once
// Internal to core/exec: the sum of a float row in double precision, in four running partial sums that
// each add a pair of elements a step (the pair's sum off the chain). One running sum is a chain of
// dependent double additions, one element each: its speed is the adder's latency, not the memory's
// (ops_reduce.cpp: ReduceMean over 32 x 1024 floats 0.7-0.9 ns an element with one chain; GlobalAveragePool
// over 8 x 128 x 64 x 64, one chain a plane: 2.5 ms alone, 0.81 with these partial sums, session 34).
#include <cstdint>

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

inline double sumRow(const float* x, int64_t n) {
  return sumRow(x, n, [](double v) { return v; });
}

}  // namespace fw::exec
