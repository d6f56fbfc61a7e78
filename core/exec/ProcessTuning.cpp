// Process-wide settings for executables that run the executor: OpenMP's wait policy, glibc's
// allocator thresholds, the default tensor memory budget.
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include "core/exec/Executor.h"

namespace fw {

void setProcessEnvironment(char** argv) {
  // Each variable the user has not set; the process reads them at start, hence the re-exec.
  const std::pair<const char*, const char*> vars[] = {{"OMP_WAIT_POLICY", "PASSIVE"},
                                                      {"GLIBC_TUNABLES", "glibc.malloc.tcache_count=256"}};
  std::vector<const char*> set;
  for (const auto& [name, value] : vars)
    if (std::getenv(name) == nullptr && setenv(name, value, 1) == 0) set.push_back(name);
  if (set.empty()) return;
  execv("/proc/self/exe", argv);
  for (const char* name : set) unsetenv(name);  // exec failed: this process keeps the defaults
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
