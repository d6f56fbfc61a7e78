#include "core/exec/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace fw::exec {

namespace {

// How long a thread busy-waits (yielding) before it sleeps: a worker for the next job, the caller for
// workers finishing theirs. Default 0 — block at once: on ResNet-50 (2 cores) a 50-300 us spin gave
// no consistent gain on a quiet machine and was sometimes 2-3x slower with two busy loops competing
// for the cores. FW_EXEC_SPIN_US=N sets it (for a dedicated machine).
int spinMicros() {
  static const int us = [] {
    const char* e = std::getenv("FW_EXEC_SPIN_US");
    return e ? std::max(0, std::atoi(e)) : 0;
  }();
  return us;
}

template <class Pred>
bool spinUntil(Pred done) {
  const int us = spinMicros();
  if (us <= 0) return done();
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  for (int i = 1;; ++i) {
    if (done()) return true;
    if ((i & 15) == 0) {
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::yield();
    }
  }
}

thread_local int tlBudget = 0;         // 0: defaultThreads()
thread_local bool tlInChunk = false;   // nested parallel calls run serially

struct Job {
  const std::function<void(int64_t)>* fn = nullptr;
  int64_t chunks = 0;
  std::atomic<int64_t> next{0};
  int slots = 0;  // workers that may still join (guarded by Pool::mu_)
  std::mutex errMu;
  std::exception_ptr error;

  void work() {
    const bool wasIn = tlInChunk;
    tlInChunk = true;
    for (;;) {
      const int64_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= chunks) break;
      try {
        (*fn)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lk(errMu);
        if (!error) error = std::current_exception();
        next.store(chunks, std::memory_order_relaxed);  // skip the rest
      }
    }
    tlInChunk = wasIn;
  }
};

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

  // Returns false (and does nothing) when another thread holds the pool.
  bool run(int threads, int64_t chunks, const std::function<void(int64_t)>& fn) {
    std::unique_lock<std::mutex> submit(submitMu_, std::try_to_lock);
    if (!submit.owns_lock()) return false;
    const int helpers = static_cast<int>(std::min<int64_t>(threads, chunks)) - 1;
    Job job;
    job.fn = &fn;
    job.chunks = chunks;
    {
      std::lock_guard<std::mutex> lk(mu_);
      while (static_cast<int>(workers_.size()) < helpers) workers_.emplace_back([this, g = generation_.load()] { loop(g); });
      job.slots = helpers;
      job_ = &job;
      generation_.fetch_add(1, std::memory_order_release);
    }
    if (helpers == 1) wake_.notify_one();
    else wake_.notify_all();
    job.work();
    {
      // Retire the job: workers not yet started find nothing; wait for those inside it.
      std::unique_lock<std::mutex> lk(mu_);
      job_ = nullptr;
      job.slots = 0;
      if (active_.load() > 0) {
        lk.unlock();
        spinUntil([this] { return active_.load(std::memory_order_acquire) == 0; });
        lk.lock();
        idle_.wait(lk, [this] { return active_.load() == 0; });
      }
    }
    if (job.error) std::rethrow_exception(job.error);
    return true;
  }

 private:
  // `seen`: the generation before the worker was created, so it joins the job that created it.
  void loop(uint64_t seen) {
    std::unique_lock<std::mutex> lk(mu_);
    for (;;) {
      if (!stop_ && generation_.load() == seen) {
        lk.unlock();
        spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; });
        lk.lock();
      }
      wake_.wait(lk, [&] { return stop_ || generation_.load() != seen; });
      if (stop_) return;
      seen = generation_.load();
      Job* job = job_;
      if (!job || job->slots <= 0) continue;
      --job->slots;
      ++active_;
      lk.unlock();
      job->work();
      lk.lock();
      if (active_.fetch_sub(1) == 1) idle_.notify_one();
    }
  }

  std::mutex submitMu_;  // one parallel call at a time; others run serially
  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::vector<std::thread> workers_;
  Job* job_ = nullptr;
  std::atomic<uint64_t> generation_{0};  // written under mu_; read while spinning
  std::atomic<int> active_{0};            // workers inside the current job; written under mu_
  bool stop_ = false;
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

int defaultThreads() {
  static const int n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return n;
}

int parallelThreads() {
  if (tlInChunk) return 1;
  return tlBudget > 0 ? tlBudget : defaultThreads();
}

ThreadBudget::ThreadBudget(int threads) : saved_(tlBudget) { tlBudget = std::max(0, threads); }
ThreadBudget::~ThreadBudget() { tlBudget = saved_; }

void parallelChunks(int64_t chunks, const std::function<void(int64_t)>& fn) {
  if (chunks <= 0) return;
  const int threads = parallelThreads();
  if (threads > 1 && chunks > 1 && pool().run(threads, chunks, fn)) return;
  const bool wasIn = tlInChunk;
  tlInChunk = true;
  try {
    for (int64_t i = 0; i < chunks; ++i) fn(i);
  } catch (...) {
    tlInChunk = wasIn;
    throw;
  }
  tlInChunk = wasIn;
}

}  // namespace fw::exec
