#pragma once
// Internal to core/exec: the limits of one run (ExecOptions' memory budget, iteration cap, deadline)
// and where numeric tensors get their storage, in force on the thread running the interpreter.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace fw::exec {

class BufferPool;  // core/exec/MemoryPlan.h

// Limits of one run (ExecOptions), in force on the thread running the interpreter. A tensor above
// the memory budget, a loop above the iteration cap, a run past its deadline: LimitExceeded, which
// the interpreter turns into a BadInput error naming the node.
struct RunLimits {
  int64_t maxTensorBytes = 0;  // 0 = no limit
  int64_t maxIterations = 0;   // 0 = no limit
  double deadline = 0;         // steady-clock seconds; 0 = none
  BufferPool* pool = nullptr;  // where numeric tensors get their storage; null = the heap
};
struct LimitExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};
class LimitScope {
 public:
  explicit LimitScope(const RunLimits& l);
  explicit LimitScope(RunLimits&&) = delete;  // the scope keeps a pointer: a temporary would dangle
  ~LimitScope();
  LimitScope(const LimitScope&) = delete;
  LimitScope& operator=(const LimitScope&) = delete;

 private:
  const RunLimits* saved_;
};
const RunLimits* currentLimits();  // null outside a run
double steadySeconds();
// numel and bytes of `dims` for elements of `elemBytes`, or nullopt when the product overflows int64
// (or a dim is negative).
std::optional<int64_t> checkedBytes(const std::vector<int64_t>& dims, int64_t elemBytes);

}  // namespace fw::exec
