#pragma once
// Internal to core/exec: the reference executor's worker threads (no OpenMP).
//
// Why not OpenMP: libgomp's threads spin-wait at every barrier and between regions. On a machine
// whose cores are shared with other processes (CI running `ctest -j2` on 2 cores) a spinning thread
// burns the time slice the thread it waits for needs, and ResNet-50 went from 0.2 s to > 10 s per run.
// This pool never spins: idle workers sleep on a condition variable, work is handed out as a few
// coarse chunks that any participant claims with an atomic counter, and the calling thread works too.
// A worker that has not been scheduled yet simply claims nothing — the caller does the chunks itself —
// so with busy cores a parallel call degrades to about the serial time instead of collapsing.
#include <cstdint>
#include <functional>

namespace fw::exec {

// Threads executor work started from the calling thread may use (1 inside a parallel chunk).
int parallelThreads();
// The default thread count: std::thread::hardware_concurrency() (at least 1).
int defaultThreads();

// Sets the calling thread's thread budget for the scope (threads <= 0: defaultThreads()).
class ThreadBudget {
 public:
  explicit ThreadBudget(int threads);
  ~ThreadBudget();
  ThreadBudget(const ThreadBudget&) = delete;
  ThreadBudget& operator=(const ThreadBudget&) = delete;

 private:
  int saved_;
};

// Runs fn(i) for every i in [0, chunks), on up to min(chunks, parallelThreads()) threads including
// the caller, and returns when all are done (the first exception thrown by a chunk is rethrown).
// Serial when nested in a chunk, when the budget is 1, or when another thread is using the pool.
void parallelChunks(int64_t chunks, const std::function<void(int64_t)>& fn);

}  // namespace fw::exec
