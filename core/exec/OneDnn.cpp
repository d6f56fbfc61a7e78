#include "core/exec/OneDnn.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/exec/ThreadPool.h"

namespace fw::exec::onednn {

namespace {

// Bounds on the caches: every distinct shape makes one primitive; a model has a few hundred.
constexpr size_t kMaxPrimitives = 4096;

struct PrimitiveCache {
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<const CachedPrimitive>> map;
};
PrimitiveCache& primitiveCache() {
  static PrimitiveCache c;
  return c;
}

struct WeightsEntry {
  std::weak_ptr<const void> owner;
  dnnl::memory mem;
};
struct WeightsCache {
  std::mutex mu;
  std::map<std::pair<std::string, const void*>, WeightsEntry> map;
};
WeightsCache& weightsCache() {
  static WeightsCache c;
  return c;
}

// One growing 64-byte aligned scratchpad per thread.
struct Scratch {
  void* p = nullptr;
  size_t size = 0;
  ~Scratch() { std::free(p); }
  void* get(size_t n) {
    if (n > size) {
      std::free(p);
      size = (n + 63) / 64 * 64;
      p = std::aligned_alloc(64, size);
      if (!p) throw std::bad_alloc();
    }
    return p;
  }
};

}  // namespace

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& threadStream() {
  // A stream a thread: making one a call added 0.4 us to a [2, 16] x [16, 32] primitive of 1.3 (session 29).
  thread_local dnnl::stream s(engine());
  return s;
}

int useThreads() {
  // Without OMP_WAIT_POLICY in the environment libgomp spins between and inside parallel regions; on
  // this shared 2-core machine ResNet-50 with 2 threads then took 0.76 s instead of 0.11 s (load ~3).
  // libgomp reads the variable when it is loaded, before main, so it cannot be set from here: more
  // than one oneDNN thread only when the user has chosen a wait policy.
  static const bool policyChosen = std::getenv("OMP_WAIT_POLICY") != nullptr;
  const int n = policyChosen ? std::max(1, parallelThreads()) : 1;
  if (omp_get_max_threads() != n) omp_set_num_threads(n);
  return n;
}

dnnl::memory::dims contiguousStrides(const dnnl::memory::dims& d) {
  dnnl::memory::dims s(d.size(), 1);
  for (size_t k = d.size(); k-- > 1;) s[k - 1] = s[k] * d[k];
  return s;
}

std::string dimsKey(const std::vector<int64_t>& d) {
  std::string s;
  for (size_t k = 0; k < d.size(); ++k) {
    if (k) s += 'x';
    s += std::to_string(d[k]);
  }
  return s;
}

std::shared_ptr<const CachedPrimitive> cachedPrimitive(const std::string& key,
                                                       const std::function<CachedPrimitive()>& make) {
  PrimitiveCache& c = primitiveCache();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.map.find(key);
    if (it != c.map.end()) return it->second;
  }
  // Created outside the lock: two threads may both create the same primitive; one copy is kept.
  auto made = std::make_shared<const CachedPrimitive>(make());
  std::lock_guard<std::mutex> lock(c.mu);
  if (c.map.size() >= kMaxPrimitives) c.map.clear();
  return c.map.emplace(key, std::move(made)).first->second;
}

dnnl::memory reorderedWeights(const std::string& key, const float* w, const std::weak_ptr<const void>& owner,
                              const dnnl::memory::desc& from, const dnnl::memory::desc& to) {
  auto reorder = [&] {
    dnnl::memory src = wrap(from, w);
    dnnl::memory dst(to, engine());
    dnnl::stream s(engine());
    dnnl::reorder(src, dst).execute(s, src, dst);
    s.wait();
    return dst;
  };
  if (owner.expired()) return reorder();
  WeightsCache& c = weightsCache();
  const auto k = std::make_pair(key, static_cast<const void*>(w));
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.map.find(k);
    // Same address, same owner still alive: the same tensor.
    if (it != c.map.end() && !it->second.owner.expired() && !it->second.owner.owner_before(owner) &&
        !owner.owner_before(it->second.owner))
      return it->second.mem;
  }
  dnnl::memory mem = reorder();
  std::lock_guard<std::mutex> lock(c.mu);
  for (auto it = c.map.begin(); it != c.map.end();) it = it->second.owner.expired() ? c.map.erase(it) : std::next(it);
  c.map[k] = WeightsEntry{owner, mem};
  return mem;
}

size_t cachedWeightCopies() {
  WeightsCache& c = weightsCache();
  std::lock_guard<std::mutex> lock(c.mu);
  return static_cast<size_t>(
      std::count_if(c.map.begin(), c.map.end(), [](const auto& e) { return !e.second.owner.expired(); }));
}

void execute(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
             std::unordered_map<int, dnnl::memory> args) {
  thread_local Scratch scratch;
  const dnnl::memory::desc sd = pd.scratchpad_desc();
  if (sd.get_size() > 0) args.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(sd, engine(), scratch.get(sd.get_size())));
  prim.execute(threadStream(), args);
  threadStream().wait();
}

dnnl::memory staged(int slot, const dnnl::memory::desc& md) {
  thread_local Scratch buffers[3];
  if (slot < 0 || slot > 2)
    throw std::invalid_argument("staging slot " + std::to_string(slot) + " is not 0, 1 or 2");
  return dnnl::memory(md, engine(), buffers[slot].get(std::max<size_t>(md.get_size(), 1)));
}

dnnl::memory wrap(const dnnl::memory::desc& md, const void* data) {
  return dnnl::memory(md, engine(), const_cast<void*>(data));
}

}  // namespace fw::exec::onednn
