// Process-wide settings for executables that run the executor: OpenMP's wait policy, glibc's
// allocator thresholds, the default tensor memory budget.
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>

#include "core/exec/Executor.h"

namespace fw {

void preferPassiveOpenMp(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  if (setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OMP_WAIT_POLICY");  // exec failed: this process keeps libgomp's default, say so honestly
}

void tuneAllocatorForTensors() {
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  mallopt(M_TOP_PAD, 16 << 20);
}

int64_t defaultMemoryBudget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return int64_t{8} << 30;
  return static_cast<int64_t>(pages) * static_cast<int64_t>(page) / 2;
}

}  // namespace fw
