#pragma once
// Memory planning by liveness for the reference executor (internal to core/exec).
//
// The first run of a graph on given input shapes records every tensor buffer it allocates: its size
// and when it was taken and released (the interpreter releases a value after its last use). From that
// record, planArena() places the buffers in one arena — the largest first, each at the lowest offset
// free throughout its lifetime, or over a buffer of its size released shortly before it is taken when
// that is free too (its bytes are then still in cache) — so buffers never alive at the same time share bytes.
// Later runs on the same shapes take their buffers from that arena in the same order: no allocator calls, no
// fresh pages, and a footprint close to the true peak of live tensors (planned bytes / live peak is reported
// by `fwb run --stats`). A run whose allocations stop matching the plan (data-dependent shapes, a Loop that
// ran longer, another branch taken) falls back to the heap for the rest of the run and is planned anew. A
// slot is only handed out when no slot in use overlaps it, so a plan that does not fit the run can never make
// two live tensors share bytes.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fw::exec {

struct BufferLife {
  size_t bytes = 0;
  int64_t start = 0, end = 0;  // event clock: taken at `start`, released at `end` (end > start)
};
struct ArenaPlan {
  std::vector<size_t> sizes;    // per allocation, in the order the run made them
  std::vector<size_t> offsets;  // into the arena
  size_t bytes = 0;             // arena size
  std::shared_ptr<uint8_t> arena;  // allocated at first use
};
// Offsets such that buffers alive at the same time never overlap. O(n * alive) time.
ArenaPlan planArena(const std::vector<BufferLife>& lives);

// One run's tensor storage: recording (no plan: heap buffers, lifetimes logged) or planned.
class BufferPool : public std::enable_shared_from_this<BufferPool> {
 public:
  explicit BufferPool(std::shared_ptr<ArenaPlan> plan = nullptr) : plan_(std::move(plan)) {}
  // Storage for `bytes` (malloc alignment at least); released when the returned owner is.
  std::shared_ptr<void> take(size_t bytes);

  bool planned() const { return plan_ != nullptr; }
  bool followedPlan() const;      // planned and every allocation matched it
  int64_t outstanding() const;    // buffers not yet released
  std::vector<BufferLife> lives() const;  // the record (recording pools)
  std::shared_ptr<ArenaPlan> plan() const { return plan_; }
  int64_t livePeak() const;
  int64_t allocations() const;

 private:
  void release(size_t index, size_t bytes, void* heap);
  bool slotFree(size_t offset, size_t bytes) const;  // no slot in use overlaps [offset, offset + bytes)
  mutable std::mutex m_;
  std::shared_ptr<ArenaPlan> plan_;
  bool diverged_ = false;
  std::map<size_t, size_t> liveSlots_;  // arena offset -> end of the slots in use (disjoint)
  std::vector<BufferLife> lives_;
  int64_t clock_ = 0, live_ = 0, livePeak_ = 0, outstanding_ = 0;
  size_t next_ = 0;
};

// Plans kept between runs, keyed by graph and input shapes; a plan is checked out by one run at a time.
std::string arenaKey(const void* graph, const std::vector<std::vector<int64_t>>& inputDims);
std::shared_ptr<ArenaPlan> checkOutPlan(const std::string& key);
void returnPlan(const std::string& key, std::shared_ptr<ArenaPlan> plan);
// How many idle plans returnPlan keeps (default 4; IdleArenaLimit in Executor.h); returns the previous.
size_t setIdlePlanLimit(size_t plans);

}  // namespace fw::exec
