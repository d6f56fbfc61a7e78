#include "core/exec/MemoryPlan.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iterator>
#include <list>
#include <map>
#include <new>
#include <numeric>

namespace fw::exec {

namespace {

size_t roundBytes(size_t bytes) { return (std::max<size_t>(bytes, 1) + 63) / 64 * 64; }

// Heap buffers (recording runs, a run off its plan) come from malloc like any other allocation, so a
// recording run's footprint is that of an unplanned one; the arena is 64-byte aligned.
void* heapAlloc(size_t bytes) {
  void* p = std::malloc(bytes);
  if (!p) throw std::bad_alloc();
  return p;
}
void* arenaAlloc(size_t bytes) {
  void* p = std::aligned_alloc(64, bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

ArenaPlan planArena(const std::vector<BufferLife>& lives) {
  ArenaPlan plan;
  const size_t n = lives.size();
  plan.sizes.resize(n);
  plan.offsets.assign(n, 0);
  for (size_t k = 0; k < n; ++k) plan.sizes[k] = lives[k].bytes;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lives[a].bytes > lives[b].bytes; });
  // Placed buffers sorted by start time, so the ones alive during [start, end) are found by scanning
  // those that started before `end` — and on a graph only a few are alive at any time.
  std::vector<size_t> placed;  // indices, sorted by start
  std::multimap<int64_t, size_t> byEnd;         // placed buffers by the time they were released
  std::vector<std::pair<size_t, size_t>> busy;  // [offset, offset + bytes) of overlapping buffers
  auto fits = [&](size_t offset, size_t bytes) {  // no overlapping buffer in [offset, offset + bytes)
    auto it = std::lower_bound(busy.begin(), busy.end(), std::pair<size_t, size_t>{offset + bytes, 0});
    return it == busy.begin() ||
           std::all_of(busy.begin(), it, [&](const auto& r) { return r.second <= offset; });
  };
  for (size_t k : order) {
    const BufferLife& b = lives[k];
    busy.clear();
    // Every buffer starts before it ends, and starts are unique clock ticks: those overlapping b
    // started before b.end and end after b.start.
    const auto stop = std::lower_bound(placed.begin(), placed.end(), b.end,
                                       [&](size_t i, int64_t t) { return lives[i].start < t; });
    for (auto it = placed.begin(); it != stop; ++it)
      if (lives[*it].end > b.start) busy.emplace_back(plan.offsets[*it], plan.offsets[*it] + lives[*it].bytes);
    std::sort(busy.begin(), busy.end());
    size_t offset = 0;
    for (const auto& [lo, hi] : busy) {
      if (lo >= offset + b.bytes) break;  // fits in the gap before this one
      offset = std::max(offset, hi);
    }
    // Over the bytes of a buffer released shortly before this one is taken (the latest of those placed,
    // a few tried), when they are free for its lifetime and do not grow the arena: an op then writes its
    // output over bytes still in the core's cache, as malloc's free lists would hand them out. The lowest
    // free offset alone put ft-transformer's attention scaling (a Div over 614 KB, batch 64, 25 tokens,
    // 96 wide) over bytes last touched several ops earlier: 98-101 us, where it took 53 alone, on a core
    // whose own cache holds 1.4 MB and whose next level streams at 19 GB/s.
    int tries = 0;
    for (auto it = byEnd.upper_bound(b.start); it != byEnd.begin() && tries < 16; ++tries) {
      --it;
      const size_t o = plan.offsets[it->second];
      if (lives[it->second].bytes == b.bytes && o + b.bytes <= std::max(plan.bytes, offset + b.bytes) &&
          fits(o, b.bytes)) {
        offset = o;
        break;
      }
    }
    plan.offsets[k] = offset;
    plan.bytes = std::max(plan.bytes, offset + b.bytes);
    placed.insert(std::lower_bound(placed.begin(), placed.end(), b.start,
                                   [&](size_t i, int64_t t) { return lives[i].start < t; }),
                  k);
    byEnd.emplace(b.end, k);
  }
  return plan;
}

std::shared_ptr<void> BufferPool::take(size_t bytes) {
  const size_t cap = roundBytes(bytes);
  size_t index;
  void* arenaSlot = nullptr;
  {
    std::lock_guard<std::mutex> lock(m_);
    index = next_++;
    if (plan_ && !diverged_) {
      const bool fits = index < plan_->sizes.size() && plan_->sizes[index] == cap && slotFree(plan_->offsets[index], cap);
      if (fits) {
        liveSlots_.emplace(plan_->offsets[index], plan_->offsets[index] + cap);
        if (!plan_->arena) {
          auto* a = static_cast<uint8_t*>(arenaAlloc(roundBytes(plan_->bytes)));
          plan_->arena = std::shared_ptr<uint8_t>(a, [](uint8_t* q) { std::free(q); });
        }
        arenaSlot = plan_->arena.get() + plan_->offsets[index];
      } else {
        diverged_ = true;
      }
    }
    if (!plan_) lives_.push_back({cap, clock_, 0});
    ++clock_;
    live_ += static_cast<int64_t>(cap);
    livePeak_ = std::max(livePeak_, live_);
    ++outstanding_;
  }
  void* heap = arenaSlot ? nullptr : heapAlloc(cap);
  auto self = shared_from_this();
  return std::shared_ptr<void>(arenaSlot ? arenaSlot : heap,
                               [self, index, cap, heap](void*) { self->release(index, cap, heap); });
}

bool BufferPool::slotFree(size_t offset, size_t bytes) const {
  auto it = liveSlots_.lower_bound(offset);
  if (it != liveSlots_.end() && it->first < offset + bytes) return false;
  return it == liveSlots_.begin() || std::prev(it)->second <= offset;
}

void BufferPool::release(size_t index, size_t bytes, void* heap) {
  if (heap) std::free(heap);
  std::lock_guard<std::mutex> lock(m_);
  if (!heap && plan_) liveSlots_.erase(plan_->offsets[index]);
  if (!plan_ && index < lives_.size()) lives_[index].end = clock_;
  ++clock_;
  live_ -= static_cast<int64_t>(bytes);
  --outstanding_;
}

bool BufferPool::followedPlan() const {
  std::lock_guard<std::mutex> lock(m_);
  return plan_ && !diverged_ && next_ == plan_->sizes.size();
}
int64_t BufferPool::outstanding() const {
  std::lock_guard<std::mutex> lock(m_);
  return outstanding_;
}
std::vector<BufferLife> BufferPool::lives() const {
  std::lock_guard<std::mutex> lock(m_);
  return lives_;
}
int64_t BufferPool::livePeak() const {
  std::lock_guard<std::mutex> lock(m_);
  return livePeak_;
}
int64_t BufferPool::allocations() const {
  std::lock_guard<std::mutex> lock(m_);
  return static_cast<int64_t>(next_);
}

// --- plans kept between runs ------------------------------------------------------------------------

namespace {
struct PlanCache {
  std::mutex m;
  std::list<std::pair<std::string, std::shared_ptr<ArenaPlan>>> entries;  // most recent first
};
PlanCache& planCache() {
  static PlanCache* c = new PlanCache();  // never destroyed: runs may end during static destruction
  return *c;
}
std::atomic<size_t> idlePlanLimit{4};
// Arenas kept while idle: at most idlePlanLimit (4), and at most 1/8 of physical memory together.
size_t idleArenaBudget() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(pageSize) / 8 : size_t{1} << 30;
}
}  // namespace

std::string arenaKey(const void* graph, const std::vector<std::vector<int64_t>>& inputDims) {
  std::string k = std::to_string(reinterpret_cast<uintptr_t>(graph));
  for (const auto& d : inputDims) {
    k += '|';
    for (int64_t x : d) k += std::to_string(x) + ',';
  }
  return k;
}

size_t setIdlePlanLimit(size_t plans) { return idlePlanLimit.exchange(std::max<size_t>(1, plans)); }

std::shared_ptr<ArenaPlan> checkOutPlan(const std::string& key) {
  auto& c = planCache();
  std::lock_guard<std::mutex> lock(c.m);
  for (auto it = c.entries.begin(); it != c.entries.end(); ++it)
    if (it->first == key) {
      auto plan = std::move(it->second);
      c.entries.erase(it);
      return plan;
    }
  return nullptr;
}

void returnPlan(const std::string& key, std::shared_ptr<ArenaPlan> plan) {
  auto& c = planCache();
  std::lock_guard<std::mutex> lock(c.m);
  c.entries.emplace_front(key, std::move(plan));
  size_t total = 0, kept = 0;
  const size_t budget = idleArenaBudget();
  for (auto it = c.entries.begin(); it != c.entries.end();) {
    total += it->second->bytes;
    if (++kept > idlePlanLimit.load() || (kept > 1 && total > budget)) it = c.entries.erase(it);
    else ++it;
  }
}

}  // namespace fw::exec
