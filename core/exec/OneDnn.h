#pragma once
// Internal to core/exec: what every oneDNN-backed kernel shares (Gemm.cpp, ConvDnnl.cpp) — the CPU
// engine, the thread count, a process-wide primitive cache, a cache of weights already reordered into
// the layout a primitive prefers, and execution with a scratchpad we own.
//
// Threads: Debian's libdnnl 2.6 is built with the OpenMP runtime (DNNL_CPU_RUNTIME = OMP in
// dnnl_config.h; libdnnl.so links libgomp). useThreads() sets the calling thread's OpenMP thread
// count to the executor's budget (parallelThreads(), 1 inside a thread-pool chunk) — but only when
// OMP_WAIT_POLICY is set in the environment (PASSIVE recommended). libgomp's default policy spins at
// barriers and after each region, which on a shared machine collapses as ThreadPool.h describes
// (measured: ResNet-50, 2 threads, 0.76 s spinning vs 0.11 s passive); the policy is read when libgomp
// loads, before main, so we cannot set it ourselves. Without it oneDNN runs on the calling thread
// only (no OpenMP team is started) and the other kernels still use the executor's thread pool.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <dnnl.hpp>

namespace fw::exec::onednn {

dnnl::engine& engine();
// The calling thread's stream on engine() (streams are not thread-safe; one is kept a thread).
dnnl::stream& threadStream();

// Sets the calling thread's OpenMP thread count to the executor's budget and returns it. Call before
// creating a primitive (oneDNN sizes its work split at creation) and before executing it.
int useThreads();

// Row-major strides of dims.
dnnl::memory::dims contiguousStrides(const dnnl::memory::dims& d);

// "1x2x3" for keys.
std::string dimsKey(const std::vector<int64_t>& d);

// A primitive descriptor and its primitive, created once per key (shape, attributes, thread count).
struct CachedPrimitive {
  dnnl::primitive_desc_base pd;
  dnnl::primitive prim;
  // Reorders between the caller's plain layout and the primitive's (empty when the layouts match).
  dnnl::primitive srcIn, dstOut;
};

// The cached entry for `key`, made by `make` on first use (thread-safe; `make` may throw dnnl::error).
std::shared_ptr<const CachedPrimitive> cachedPrimitive(const std::string& key,
                                                       const std::function<CachedPrimitive()>& make);

// Weights `w` (plain layout `from`) reordered into `to`, cached under (key, w) for as long as `owner`
// — the storage holding w — is alive: a live owner means the address still holds the same immutable
// tensor; entries whose owner expired are dropped. An empty `owner` is reordered every time.
dnnl::memory reorderedWeights(const std::string& key, const float* w, const std::weak_ptr<const void>& owner,
                              const dnnl::memory::desc& from, const dnnl::memory::desc& to);

// How many reordered weight copies the cache holds for tensors still alive.
size_t cachedWeightCopies();

// Runs `prim` (made from `pd` with scratchpad_mode::user) with a per-thread scratchpad and waits.
void execute(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
             std::unordered_map<int, dnnl::memory> args);

// A memory object of layout `md` over this thread's staging buffer `slot` (0, 1 or 2), grown as needed and
// kept: a Conv's activations in the primitive's layout (0 and 1), or its input prepared before those
// (2: a depth multiplier's replicated channels), reused by the next call instead of allocated.
// Valid until the next call for the same slot on this thread.
dnnl::memory staged(int slot, const dnnl::memory::desc& md);

// A memory object over caller-owned data.
dnnl::memory wrap(const dnnl::memory::desc& md, const void* data);

}  // namespace fw::exec::onednn
