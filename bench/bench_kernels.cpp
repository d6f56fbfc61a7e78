// The reference executor's own kernels beside what they replace, side by side in one process (rounds
// interleaved, median of each): the vector math of core/exec/FastMath.h on every build the CPU runs
// (16, 8 and 4 lanes) and on masked arguments, and small matrix products through sgemm against the
// oneDNN primitive it calls, kept with its memory objects between calls (the library's own floor).
// Prints figures and ratios; nothing here fails.
//   bench_kernels [ROUNDS=7]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dnnl.hpp>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/exec/FastMath.h"
#include "core/exec/Gemm.h"
#include "core/exec/ThreadPool.h"

namespace {

namespace fm = fw::exec::fastmath;

// Median over rounds of the mean time of one call (µs), each round long enough to read the clock.
double medianUs(const std::function<void()>& f, int rounds, int calls) {
  for (int w = 0; w < std::max(1, calls / 10); ++w) f();
  std::vector<double> us;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < calls; ++c) f();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                 calls);
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

std::vector<float> values(size_t n, float lo, float hi) {
  std::vector<float> v(n);
  uint32_t s = 12345;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * static_cast<float>(s >> 8) / static_cast<float>(1u << 24);
  }
  return v;
}

void vectorMath(int rounds) {
  const size_t n = 196608;  // a GELU's input in a 4 x 64 x 768 MLP
  const auto x = values(n, -4.f, 4.f);
  std::vector<float> y(n);
  struct Fn {
    const char* name;
    void (*f)(const float*, float*, int64_t);
  };
  const Fn fns[] = {{"Erf", fm::erf}, {"Exp", fm::exp}, {"Tanh", fm::tanh}, {"Sigmoid", fm::sigmoid}};
  const std::vector<int> builds = fm::buildLanes();
  std::printf("\n## Vector math over %zu floats in [-4, 4] (ns an element; median of %d rounds)\n\n", n,
              rounds);
  std::printf("| function |");
  for (int l : builds) std::printf(" %d lanes |", l);
  std::printf(" widest / 8 lanes |\n|---|");
  for (size_t k = 0; k <= builds.size(); ++k) std::printf("---|");
  std::printf("\n");
  for (const Fn& fn : fns) {
    std::vector<double> ns(builds.size(), 0);
    std::vector<std::vector<double>> each(builds.size());
    for (int r = 0; r < rounds; ++r)
      for (size_t b = 0; b < builds.size(); ++b) {
        fm::allowLanes(builds[b]);
        each[b].push_back(medianUs([&] { fn.f(x.data(), y.data(), static_cast<int64_t>(n)); }, 1, 20) * 1e3 /
                          static_cast<double>(n));
      }
    fm::allowLanes(16);
    std::printf("| %s |", fn.name);
    double at8 = 0;
    for (size_t b = 0; b < builds.size(); ++b) {
      std::sort(each[b].begin(), each[b].end());
      ns[b] = each[b][each[b].size() / 2];
      if (builds[b] == 8) at8 = ns[b];
      std::printf(" %.3f |", ns[b]);
    }
    if (at8 > 0)
      std::printf(" %.2f |\n", ns[0] / at8);
    else
      std::printf(" - |\n");
  }
  // Attention masks write -1e9, -inf or the lowest float: their exponentials must cost what others do.
  auto masked = values(n, -4.f, 4.f);
  for (size_t k = 0; k < n; k += 2) masked[k] = -1e9f;
  const double plain = medianUs([&] { fm::exp(x.data(), y.data(), static_cast<int64_t>(n)); }, rounds, 20);
  const double half =
      medianUs([&] { fm::exp(masked.data(), y.data(), static_cast<int64_t>(n)); }, rounds, 20);
  std::printf("\nExp with half its arguments at -1e9: %.1f us against %.1f unmasked (ratio %.2f).\n", half,
              plain, half / plain);
}

// sgemm against the primitive it runs, made once with its memory objects (what a caller that keeps
// everything between calls pays), on one thread.
void products(int rounds) {
  fw::exec::ThreadBudget one(1);
  struct Shape {
    int64_t M, N, K;
    bool transB;
  };
  const Shape shapes[] = {{2, 32, 16, true},   {64, 2, 96, true},   {1, 64, 1024, true},
                          {128, 1, 270, true}, {512, 1, 64, false}, {8, 1, 1536, true}};
  std::printf("\n## Small products, one thread (us a call; median of %d rounds)\n\n", rounds);
  std::printf(
      "| M x K x N | B stored | sgemm | oneDNN primitive kept | sgemm / primitive "
      "|\n|---|---|---|---|---|\n");
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream s(eng);
  for (const Shape& c : shapes) {
    using dnnl::memory;
    auto B = std::make_shared<std::vector<float>>(values(static_cast<size_t>(c.N * c.K), -1.f, 1.f));
    const auto A = values(static_cast<size_t>(c.M * c.K), -1.f, 1.f);
    std::vector<float> C(static_cast<size_t>(c.M * c.N));
    const std::weak_ptr<const void> owner = B;
    memory::desc ad({c.M, c.K}, memory::data_type::f32, memory::format_tag::ab);
    memory::desc wd({c.K, c.N}, memory::data_type::f32,
                    c.transB ? memory::format_tag::ba : memory::format_tag::ab);
    memory::desc cd({c.M, c.N}, memory::data_type::f32, memory::format_tag::ab);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(ad, wd, cd), eng);
    dnnl::matmul mm(pd);
    memory am(ad, eng, const_cast<float*>(A.data())), wm(wd, eng, B->data()), cm(cd, eng, C.data());
    std::vector<double> ours, lib;
    for (int r = 0; r < rounds; ++r) {
      ours.push_back(medianUs(
          [&] {
            fw::exec::sgemm(false, c.transB, c.M, c.N, c.K, 1.f, A.data(), c.K, B->data(),
                            c.transB ? c.K : c.N, 0.f, C.data(), c.N, owner);
          },
          1, 2000));
      lib.push_back(medianUs(
          [&] {
            mm.execute(s, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, cm}});
            s.wait();
          },
          1, 2000));
    }
    std::sort(ours.begin(), ours.end());
    std::sort(lib.begin(), lib.end());
    const double o = ours[ours.size() / 2], l = lib[lib.size() / 2];
    std::printf("| %lld x %lld x %lld | %s | %.2f | %.2f | %.2f |\n", static_cast<long long>(c.M),
                static_cast<long long>(c.K), static_cast<long long>(c.N), c.transB ? "[N, K]" : "[K, N]", o,
                l, o / l);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  std::printf("# bench_kernels: the executor's kernels beside what they replace (%d rounds, interleaved)\n",
              rounds);
  vectorMath(rounds);
  products(rounds);
  return 0;
}
