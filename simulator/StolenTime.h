#pragma once
// Runs timed on a shared machine (fwb profile, fwb calibrate): time the thread did not run. A virtual
// machine's vCPU is descheduled while the host runs other tenants (hypervisor steal): the wall clock goes
// on, the thread's CPU clock does not. On this project's 2-vCPU VM a model's run took 2x its time while
// /proc/stat counted 30 % steal, and a one-thread loop of 48 ms CPU took 65-75 ms wall in such seconds;
// runs whose wall time is their CPU time are the machine's own speed. One-thread runs only: with worker
// threads the calling thread's CPU clock does not count their work.
#include <chrono>
#include <cstddef>
#include <vector>

namespace fw::sim {

// The calling thread's CPU time, microseconds (CLOCK_THREAD_CPUTIME_ID): a system call, ~0.35 us here, so
// taken per run, not per kernel.
double threadCpuMicros();

// Calls f() with both clocks read around it and nothing else between them; returns what f returns, its
// wall and thread-CPU microseconds in wallUs and cpuUs.
template <class F>
auto timeWallAndCpu(F&& f, double& wallUs, double& cpuUs) {
  const double c0 = threadCpuMicros();
  const auto a = std::chrono::steady_clock::now();
  auto r = f();
  const auto z = std::chrono::steady_clock::now();
  const double c1 = threadCpuMicros();
  wallUs = std::chrono::duration<double, std::micro>(z - a).count();
  cpuUs = c1 - c0;
  return r;
}

// A run is whole when its wall time is at most its CPU time x (1 + kStealTolerance) + a few us.
inline constexpr double kStealTolerance = 0.02;
inline constexpr double kStealSlackUs = 5.0;
inline bool runIsWhole(double wallUs, double cpuUs) {
  return wallUs <= cpuUs * (1 + kStealTolerance) + kStealSlackUs;
}

struct RunSelection {
  std::vector<size_t> kept;    // indices of the runs whose times count, ascending
  size_t stolen = 0;           // runs whose wall time exceeded their CPU time by more than the tolerance
  double medianLostShare = 0;  // over every run: (wall - CPU) / wall, 0 when CPU >= wall
  // Fewer than `minKept` runs were whole: the least-stolen runs were kept instead (at least minKept, and
  // at least half of the runs).
  bool leastStolen = false;
};

// The runs to keep: those whose wall time is at most their thread's CPU time x (1 + tol) + slackUs. When
// fewer than minKept are, the least-stolen (by lost share) max(minKept, half) runs. Empty input: none.
// wallUs and cpuUs are per run, the same length (a shorter cpuUs keeps every run).
RunSelection keepRunsNotStolen(const std::vector<double>& wallUs, const std::vector<double>& cpuUs,
                               size_t minKept, double tol = kStealTolerance, double slackUs = kStealSlackUs);

}  // namespace fw::sim
