#include "simulator/StolenTime.h"

#include <algorithm>
#include <ctime>
#include <numeric>

namespace fw::sim {

double threadCpuMicros() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) * 1e-3;
}

RunSelection keepRunsNotStolen(const std::vector<double>& wallUs, const std::vector<double>& cpuUs,
                               size_t minKept, double tol, double slackUs) {
  RunSelection s;
  const size_t n = wallUs.size();
  if (cpuUs.size() != n) {
    s.kept.resize(n);
    std::iota(s.kept.begin(), s.kept.end(), size_t{0});
    return s;
  }
  std::vector<double> lost(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    if (wallUs[i] > 0) lost[i] = std::max(0.0, (wallUs[i] - cpuUs[i]) / wallUs[i]);
    if (wallUs[i] <= cpuUs[i] * (1 + tol) + slackUs)
      s.kept.push_back(i);
    else
      ++s.stolen;
  }
  if (n) {
    std::vector<double> sorted = lost;
    std::sort(sorted.begin(), sorted.end());
    s.medianLostShare = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  }
  if (s.kept.size() >= std::min(minKept, n)) return s;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lost[a] < lost[b]; });
  order.resize(std::min(n, std::max(minKept, (n + 1) / 2)));
  std::sort(order.begin(), order.end());
  s.kept = std::move(order);
  s.leastStolen = true;
  return s;
}

}  // namespace fw::sim
