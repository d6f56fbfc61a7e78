// The thread's run limits (LimitScope), the deadline clock and checked byte counts.
#include "core/exec/RunLimits.h"

#include <chrono>

namespace fw::exec {

namespace {
thread_local const RunLimits* tlsLimits = nullptr;
}

LimitScope::LimitScope(const RunLimits& l) : saved_(tlsLimits) { tlsLimits = &l; }
LimitScope::~LimitScope() { tlsLimits = saved_; }
const RunLimits* currentLimits() { return tlsLimits; }
double steadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::optional<int64_t> checkedBytes(const std::vector<int64_t>& dims, int64_t elemBytes) {
  int64_t n = std::max<int64_t>(elemBytes, 1);
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return std::nullopt;
    n *= d;
  }
  return n;
}

}  // namespace fw::exec
