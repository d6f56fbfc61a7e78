#include "simulator/CpuCost.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include "core/exec/Epilogue.h"
#include "core/exec/MemoryPlan.h"
#include "core/exec/ResizePasses.h"
#include "core/ir/OpCost.h"
#include "simulator/CpuCubeModel.h"
#include "simulator/OpFamily.h"

namespace fw::sim {
namespace {

// Whether input i of `n` is a value an earlier input already is (x * x): read once, counted once.
bool repeatsAnEarlierInput(const Node& n, size_t i) {
  const auto at = n.inputs.begin() + static_cast<std::ptrdiff_t>(i);
  return std::find(n.inputs.begin(), at, *at) != at;
}

constexpr double kCacheLine = 64;  // bytes

bool isConvOp(const std::string& op) {
  return op == "Conv" || op == "ConvTranspose" || op == "ConvInteger" || op == "QLinearConv";
}

Result<double> elementsOf(const Graph& g, ValueId v, const HwProfile& hw, NodeId n) {
  const Value& val = g.value(v);
  const DType dt = val.initializer ? val.initializer->dtype() : val.dtype;
  FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, n));
  const size_t es = deviceElemBytes(dt, hw);
  return es > 0 ? b / static_cast<double>(es) : 0.0;
}

// The rows of a product's output (every axis but the last); 0 when its shape is not static.
int64_t outputRows(const Graph& g, const Node& n) {
  if (n.outputs.empty() || n.outputs[0] == kNoId) return 0;
  const auto d = g.value(n.outputs[0]).shape.ints();
  if (!d || d->empty()) return 0;
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < d->size(); ++i) rows *= (*d)[i];
  return rows;
}

}  // namespace

double gatherReadBytes(const Graph& g, const Node& n, const HwProfile& hw, NodeId id) {
  if ((n.opType != "Gather" && n.opType != "GatherElements" && n.opType != "GatherND") || n.outputs.empty() ||
      n.outputs[0] == kNoId || n.inputs.empty() || n.inputs[0] == kNoId)
    return -1;
  const auto ob = deviceBytes(g, n.outputs[0], hw, id);
  if (!ob.ok()) return -1;
  if (n.opType != "GatherElements" || n.inputs.size() < 2) return *ob;
  const auto src = deviceBytes(g, n.inputs[0], hw, id);
  auto dimsOf = [&](ValueId v) -> std::optional<std::vector<int64_t>> {
    if (v == kNoId) return std::nullopt;
    const Value& val = g.value(v);
    return val.initializer ? std::optional(val.initializer->dims()) : val.shape.ints();
  };
  const auto d = dimsOf(n.inputs[0]), ix = dimsOf(n.inputs[1]);
  const auto es = static_cast<double>(deviceElemBytes(g.value(n.inputs[0]).dtype, hw));
  if (!src.ok() || !d || !ix || d->empty() || d->size() != ix->size() || es <= 0) return *ob;
  auto rank = static_cast<int64_t>(d->size());
  int64_t axis = n.attrs.intOr("axis", 0);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return *ob;
  double pools = 1, poolLines = 0, picks = 0;
  if (axis == rank - 1) {  // each output row's picks from its source row
    for (int64_t k = 0; k + 1 < rank; ++k) pools *= static_cast<double>((*ix)[static_cast<size_t>(k)]);
    poolLines = std::ceil(static_cast<double>(d->back()) * es / kCacheLine);
    picks = static_cast<double>(ix->back());
  } else {  // each block of the axes before the axis: the picks of its index block over its data block
    double block = 1, pickBlock = 1;
    for (int64_t k = 0; k < rank; ++k) {
      const auto sk = static_cast<size_t>(k);
      if (k < axis)
        pools *= static_cast<double>((*ix)[sk]);
      else
        block *= static_cast<double>((*d)[sk]), pickBlock *= static_cast<double>((*ix)[sk]);
    }
    poolLines = std::ceil(block * es / kCacheLine);
    picks = pickBlock;
  }
  if (poolLines <= 0 || picks <= 0) return *ob;
  const double lines = pools * poolLines * (1.0 - std::pow(1.0 - 1.0 / poolLines, picks));
  return std::clamp(lines * kCacheLine, *ob, std::max(*ob, *src));
}

double resizePassElems(const std::optional<std::vector<int64_t>>& in,
                       const std::optional<std::vector<int64_t>>& out) {
  if (!in || !out || in->size() != out->size() || in->empty()) return 0;
  const size_t r = in->size();
  std::vector<int64_t> cur = *in;
  double written = 0;
  for (size_t d : exec::resizePassOrder(r, r >= 2 && (*out)[r - 1] > (*in)[r - 1])) {
    if (cur[d] == (*out)[d]) continue;
    cur[d] = (*out)[d];
    double e = 1;
    for (int64_t v : cur) e *= static_cast<double>(v);
    written += e;
  }
  return written;
}

bool scatterCopyApart(const CpuFigures& cpu) { return cpu.opRowS.count("ScatterElements") > 0; }

double scatterCopySeconds(double dataBytes, const CpuFigures& cpu) {
  const double bw = cpu.cacheBandwidthFor(2 * dataBytes);
  return dataBytes > 0 && bw > 0 ? 2 * dataBytes / bw : 0.0;
}

double cpuVectorWork(const Graph& g, const Node& n, double flops, double elems, bool scatterCopyApart) {
  // A TopK's values each pass once against its line's k-th best; what goes in among the best k is its rows'
  // time (rowWiseRows), not a sort's n log n (core/ir/OpCost.h).
  if (n.opType == "TopK") return elems;
  // A scatter copies its data, then writes each update at its index (a GNN's scatter-add of 16384 edges'
  // messages onto 2048 nodes moves 8x its output's elements; session 47). A ScatterElements's copy is a
  // copy's, priced apart where the profile says so (scatterCopySeconds): at the updates' rate, Mask R-CNN's
  // RoI-pool level merges that write few or no rows over [70, 256, 14, 14] took 0.5-0.7 ms measured, 1.6
  // simulated (session 79).
  if ((n.opType == "ScatterElements" || n.opType == "Scatter" || n.opType == "ScatterND") &&
      n.inputs.size() > 2 && n.inputs[2] != kNoId)
    if (const auto u = g.value(n.inputs[2]).shape.ints()) {
      double e = 1;
      for (int64_t x : *u) e *= static_cast<double>(x);
      return (scatterCopyApart && n.opType == "ScatterElements" ? 0.0 : elems) + e;
    }
  const double plain = std::max(flops, elems);
  // A Resize runs axis by axis (core/exec/ops_resize.cpp): each pass writes the tensor at its axes so far,
  // the last axis first when it upsamples. Its work is what the passes write, in units of what the
  // calibration's Resize (a 2x upsampling of both spatial axes, HostOpCases.cpp) writes an output element:
  // 1.5, its two passes 0.5 and 1 times its output. So a profile's Resize figures keep their meaning, as
  // timed before session 76, where every Resize counted its output's elements: a bilinear 8x upsampling,
  // whose passes write 1.125 times its output, 0.89 ms measured, 1.86 simulated so, 1.36 now; a 2x
  // downsampling, 3 times, [2, 64, 64, 64] -> 32x32 258 us, 171 and 301 (session 76).
  if (n.opType == "Resize" && n.domain.empty() && !n.inputs.empty() && !n.outputs.empty()) {
    // Every axis kept at its length: the executor hands the input on, no pass (a detector's transform
    // resizing a 320x320 image to 320x320: 4.5 us measured, 378 simulated as a full pass; session 77).
    const auto in = g.value(n.inputs[0]).shape.ints(), out = g.value(n.outputs[0]).shape.ints();
    if (in && out && *in == *out &&
        n.attrs.stringOr("coordinate_transformation_mode", "") != "tf_crop_and_resize")
      return 0;
    const double written = resizePassElems(in, out);
    static const double calibrationPerOutput =
        resizePassElems(std::vector<int64_t>{1, 1, 8, 8}, std::vector<int64_t>{1, 1, 16, 16}) / 256.0;
    if (written > 0) return written / calibrationPerOutput;
  }
  // A pool's taps, pass by pass (poolLoops): the sum of the kernel's extents an output, not their product.
  const auto p = poolLoops(g, n);
  return p ? std::max(p->contiguousTaps + p->stridedTaps, elems) : plain;
}

double runFootprintBytes(const Graph& g, const HwProfile& hw) {
  // The executor frees a value after its last use and plans its buffers in one arena (core/exec/
  // MemoryPlan.h): the bytes a run touches are its weights and the peak of its live values in node
  // order, not every output's. (Every output counted, a ViT over 41 tokens of 1.6 ms, 200 nodes, came to
  // several MB where its arena is a few hundred KB.)
  double weights = 0;
  std::vector<char> seen(g.values().size(), 0);
  std::vector<double> bytes(g.values().size(), 0);
  std::vector<int64_t> readersLeft(g.values().size(), 0);
  auto order = g.topoOrder();
  std::vector<NodeId> nodes;
  if (order.ok())
    nodes = *order;
  else
    for (const Node& n : g.nodes())
      if (!n.dead) nodes.push_back(n.id);
  for (NodeId id : nodes)
    for (ValueId v : g.node(id).inputs)
      if (v != kNoId) ++readersLeft[static_cast<size_t>(v)];
  for (ValueId v : g.outputs())
    if (v != kNoId) ++readersLeft[static_cast<size_t>(v)];  // held to the end of the run
  // A table only Gathers read (an embedding) is touched in the rows they gather, not whole: a two-tower
  // recommender's 10000- and 20000-row tables (3.8 MB) made every call of its 0.2 ms run cold, where a
  // run gathers 256 rows of each (64 KB).
  std::vector<char> wholeRead(g.values().size(), 0);
  std::vector<double> gathered(g.values().size(), 0);
  // A view of a weight (an Identity a layer sharing it) is the weight's storage: read where its
  // readers read, and no live bytes of its own.
  std::vector<ValueId> weightOf(g.values().size(), kNoId);
  for (size_t v = 0; v < weightOf.size(); ++v) weightOf[v] = weightBehindViews(g, static_cast<ValueId>(v));
  auto readsWeights = [&](const Node& n) { return nodeFamily(g, n) != OpFamily::View; };
  for (NodeId id : nodes) {
    const Node& n = g.node(id);
    if (!readsWeights(n)) continue;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      const ValueId v = n.inputs[i] == kNoId ? kNoId : weightOf[static_cast<size_t>(n.inputs[i])];
      if (v == kNoId) continue;
      if (n.opType == "Gather" && n.domain.empty() && i == 0 && !n.outputs.empty() && n.outputs[0] != kNoId) {
        if (auto b = deviceBytes(g, n.outputs[0], hw, id); b.ok()) gathered[static_cast<size_t>(v)] += *b;
      } else {
        wholeRead[static_cast<size_t>(v)] = 1;
      }
    }
  }
  double live = 0, peak = 0;
  for (NodeId id : nodes) {
    const Node& n = g.node(id);
    for (ValueId in : n.inputs) {
      const ValueId v = in == kNoId || !readsWeights(n) ? kNoId : weightOf[static_cast<size_t>(in)];
      if (v != kNoId && !seen[static_cast<size_t>(v)]) {
        seen[static_cast<size_t>(v)] = 1;
        if (auto b = deviceBytes(g, v, hw, id); b.ok())
          weights += wholeRead[static_cast<size_t>(v)] ? *b : std::min(*b, gathered[static_cast<size_t>(v)]);
      }
    }
    for (ValueId v : n.outputs)
      if (v != kNoId && weightOf[static_cast<size_t>(v)] == kNoId)
        if (auto b = deviceBytes(g, v, hw, id); b.ok()) {
          bytes[static_cast<size_t>(v)] = *b;
          live += *b;
        }
    peak = std::max(peak, live);
    for (ValueId v : n.inputs)
      if (v != kNoId && !g.value(v).isInitializer() && --readersLeft[static_cast<size_t>(v)] == 0)
        live -= bytes[static_cast<size_t>(v)];
    for (ValueId v : n.outputs)
      if (v != kNoId && readersLeft[static_cast<size_t>(v)] == 0) live -= bytes[static_cast<size_t>(v)];
  }
  return weights + peak;
}

double ownCacheBytes(const std::vector<int64_t>& cacheDrops) {
  for (int64_t d : cacheDrops)
    if (d >= (int64_t{256} << 10)) return static_cast<double>(d);
  return 0;
}

double ownCacheBytes(const HwProfile& hw) { return ownCacheBytes(hw.cpu.cacheDropsBytes); }

int64_t coldCallEvictElems(double ownCacheBytes) {
  return std::max<int64_t>(int64_t{1} << 18, static_cast<int64_t>(ownCacheBytes / 2));
}

double coldShareOf(const HwProfile& hw, double footprintBytes) {
  const double own = ownCacheBytes(hw);
  if (footprintBytes <= 0) return 1.0;
  return std::clamp(1.0 - own / footprintBytes, 0.0, 1.0);
}

namespace {

// What the executor's library keys a matrix op's primitive by (core/exec/Gemm.cpp, ConvPrimitive.cpp): its
// op and the shapes it reads and writes. Two layers of one shape run the same primitive.
std::string primitiveKey(const Graph& g, const Node& n) {
  std::string key = "#" + n.opType;
  for (const auto* vs : {&n.inputs, &n.outputs}) {
    key += '|';
    for (ValueId v : *vs) {
      key += ';';
      if (v == kNoId) continue;
      const auto d = g.value(v).shape.ints();
      if (!d) return "#" + std::to_string(n.id);  // a shape not known: its own primitive
      for (int64_t x : *d) key += std::to_string(x) + ',';
    }
  }
  for (const char* a : {"transA", "transB", "group"}) key += '|' + std::to_string(n.attrs.intOr(a, 0));
  for (const char* a : {"strides", "pads", "dilations"})
    for (int64_t x : n.attrs.getInts(a).value_or(std::vector<int64_t>{})) key += ',' + std::to_string(x);
  return key;
}

// A buffer by 64 KiB chunks: when the run last touched each, and where that touch ended (what its toucher
// streamed after the chunk).
class ChunkClock {
 public:
  void touch(size_t begin, size_t end, size_t t) {
    if (end <= begin) return;
    const size_t last = (end - 1) / kChunk;
    if (at_.size() <= last) {
      at_.resize(last + 1, -1);
      end_.resize(last + 1, 0);
    }
    for (size_t c = begin / kChunk; c <= last; ++c) {
      at_[c] = static_cast<int64_t>(t);
      end_[c] = end;
    }
  }
  // The mean share of the far tier (cpu.far_curve, or a vector op's curve: `product` false) over the chunks
  // of [begin, end) at time t: each at what its toucher streamed after it and `since(then, t)`, at most
  // `cap`; a chunk never touched at `cap`.
  template <typename Since>
  double farShare(size_t begin, size_t end, size_t t, const Since& since, double cap, const HwProfile& hw,
                  bool product) const {
    double share = 0, chunks = 0;
    for (size_t c = begin / kChunk; c * kChunk < end; ++c, ++chunks) {
      const bool touched = c < at_.size() && at_[c] >= 0;
      share += hw.cpu.farShareAt(touched ? std::min(cap, since(static_cast<size_t>(at_[c]), t) +
                                                             static_cast<double>(end_[c] - c * kChunk))
                                         : cap,
                                 product);
    }
    return chunks > 0 ? share / chunks : 0.0;
  }
  // The bytes of [begin, end) the core's own cache (`own` bytes) has lost since they were last touched at
  // time t, written in order from `begin`: a chunk whose distance (what its toucher streamed after it, what
  // the run touched since, and the range's bytes before it) exceeds `own`; a chunk never touched counts.
  template <typename Since>
  double evictedBytes(size_t begin, size_t end, size_t t, const Since& since, double own) const {
    double bytes = 0;
    for (size_t c = begin / kChunk; c * kChunk < end; ++c) {
      const size_t lo = std::max(begin, c * kChunk), hi = std::min(end, (c + 1) * kChunk);
      const bool touched = c < at_.size() && at_[c] >= 0;
      const double d = touched ? since(static_cast<size_t>(at_[c]), t) +
                                     static_cast<double>(end_[c] > hi ? end_[c] - hi : 0) +
                                     static_cast<double>(lo - begin)
                               : own + 1;
      if (d > own) bytes += static_cast<double>(hi - lo);
    }
    return bytes;
  }

 private:
  static constexpr size_t kChunk = 64 << 10;
  std::vector<int64_t> at_;
  std::vector<size_t> end_;
};

// Where the executor's arena puts each activation of a run (core/exec/MemoryPlan.h: planArena over the
// values' lifetimes in the run's order): an output is written over bytes the run last touched some distance
// ago, which decides the tier they come from. A view's output is its input's buffer (storageBehindViews):
// its readers keep that buffer alive (a block input read again through a Reshape lives to that read, not
// to the end of the run). Only values of `minBytes` or more are placed: the rest barely move the large
// ones, and planArena's time grows with the square of the buffers alive at once (a 20k-node encoder: 3.3 s
// simulated with all of them placed, 2.0 with none).
struct RunArena {
  std::vector<size_t> slotOf;   // by ValueId: its buffer in `plan`, SIZE_MAX for none
  std::vector<ValueId> rootOf;  // by ValueId: the value whose storage it is (storageBehindViews)
  exec::ArenaPlan plan;
};
RunArena planRunArena(const Graph& g, const std::vector<NodeId>& seq, const HwProfile& hw, double minBytes) {
  RunArena a;
  a.slotOf.assign(g.values().size(), SIZE_MAX);
  a.rootOf.resize(g.values().size());
  for (size_t v = 0; v < a.rootOf.size(); ++v) a.rootOf[v] = storageBehindViews(g, static_cast<ValueId>(v));
  auto root = [&](ValueId v) { return a.rootOf[static_cast<size_t>(v)]; };
  std::vector<int64_t> readers(g.values().size(), 0);
  for (NodeId id : seq)
    if (nodeFamily(g, g.node(id)) != OpFamily::View)
      for (ValueId v : g.node(id).inputs)
        if (v != kNoId) ++readers[static_cast<size_t>(root(v))];
  for (ValueId v : g.outputs())
    if (v != kNoId) ++readers[static_cast<size_t>(root(v))];  // held to the end of the run
  std::vector<exec::BufferLife> lives;
  int64_t clock = 0;
  auto release = [&](ValueId v) {
    if (a.slotOf[static_cast<size_t>(v)] != SIZE_MAX && readers[static_cast<size_t>(v)] == 0)
      lives[a.slotOf[static_cast<size_t>(v)]].end = clock++;
  };
  for (NodeId id : seq) {
    const Node& n = g.node(id);
    if (nodeFamily(g, n) == OpFamily::View) continue;
    for (ValueId v : n.outputs) {
      if (v == kNoId || weightBehindViews(g, v) != kNoId) continue;
      auto b = deviceBytes(g, v, hw, id);
      if (!b.ok() || *b < minBytes) continue;
      a.slotOf[static_cast<size_t>(v)] = lives.size();
      lives.push_back({static_cast<size_t>(*b), clock++, 0});
    }
    for (ValueId v : n.inputs)
      if (v != kNoId && --readers[static_cast<size_t>(root(v))] == 0) release(root(v));
    for (ValueId v : n.outputs)
      if (v != kNoId) release(v);
  }
  for (auto& l : lives)
    if (l.end == 0) l.end = clock++;
  a.plan = exec::planArena(lives);
  return a;
}

// A Conv on oneDNN's layout (not the executor's own product path) writes its output into one staging
// buffer a thread, which every such Conv reuses from its start, and reorders it into the output
// (core/exec/OneDnn.cpp: staged): the bytes it writes there, 0 for any other node.
double stagedOutputBytes(const Graph& g, NodeId id, const HwProfile& hw) {
  const Node& n = g.node(id);
  if (n.opType != "Conv" && n.opType != "ConvTranspose") return 0.0;
  const auto f = cubeFeatures(g, id);
  if (!f || f->plainProduct || n.outputs.empty() || n.outputs[0] == kNoId) return 0.0;
  auto b = deviceBytes(g, n.outputs[0], hw, id);
  return b.ok() ? *b : 0.0;
}

}  // namespace

CpuRunReuse cpuRunReuse(const Graph& g, const std::vector<KernelGroup>& groups,
                        const std::vector<size_t>& order, const HwProfile& hw, double runFootprint) {
  CpuRunReuse out;
  out.callColdShare.assign(g.nodeCapacity(), 0.0);
  out.codeColdShare.assign(g.nodeCapacity(), 0.0);
  out.stateColdShare.assign(g.nodeCapacity(), 0.0);
  out.callDistance.assign(g.nodeCapacity(), 0.0);
  out.codeDistance.assign(g.nodeCapacity(), 0.0);
  out.nodeDistance.assign(g.nodeCapacity(), 0.0);
  out.farInputBytes.assign(g.nodeCapacity(), 0.0);
  out.farInputSPerByte.assign(g.nodeCapacity(), 0.0);
  out.evictedOutputBytes.assign(g.nodeCapacity(), 0.0);
  out.farBytes.assign(g.nodeCapacity(), 0.0);
  out.weightFarBytes.assign(g.nodeCapacity(), 0.0);
  out.weightStreamS.assign(g.nodeCapacity(), 0.0);
  out.weightStreamNearS.assign(g.nodeCapacity(), 0.0);
  out.weightStreamDistance.assign(g.nodeCapacity(), 0.0);
  out.gatherDistance.assign(g.nodeCapacity(), 0.0);
  const double shareDistance = hw.cpu.productStreamShareDistance();
  const bool far = !hw.cpu.farCurve.empty();
  // By value: the far share of the arena bytes it was written over, by the matrix ops' curve and by the
  // vector ops' (cpu.far_curve_vector), for whichever reads it.
  std::vector<double> slotShare(g.values().size(), 0.0), slotShareVector(g.values().size(), 0.0);

  std::vector<NodeId> seq;
  for (size_t gi : order)
    if (gi < groups.size())
      for (NodeId m : groups[gi].members) seq.push_back(m);
  if (seq.empty()) return out;
  const double own = ownCacheBytes(hw) > 0 ? ownCacheBytes(hw) : double{1 << 20};
  const RunArena arena = planRunArena(g, seq, hw, own / 64);
  ChunkClock arenaClock, stageClock;  // the arena's bytes, and the staging buffer's
  // Distinct bytes touched between two times: each value's (or arena chunk's) bytes sit at the time it was
  // last touched (a Fenwick tree over two passes of the run), so a sum over a span counts each once.
  const size_t steps = 2 * seq.size();
  std::vector<double> tree(steps + 1, 0.0);
  auto add = [&](size_t t, double b) {
    for (size_t i = t + 1; i <= steps; i += i & (~i + 1)) tree[i] += b;
  };
  auto prefix = [&](size_t t) {  // sum over times [0, t)
    double sum = 0;
    for (size_t i = t; i > 0; i -= i & (~i + 1)) sum += tree[i];
    return sum;
  };
  auto since = [&](size_t from, size_t t) { return std::min(prefix(t) - prefix(from + 1), runFootprint); };
  // The bytes in the tree are memory, not values: a value the arena places is its slot's chunks, which the
  // values before and after it in that slot touched too (a transformer's layers write over the same bytes:
  // distinct memory between two of its LayerNorms' Sqrts is a layer's arena and weights, not the sum of
  // its values).
  constexpr size_t kDistChunk = 16 << 10;
  std::vector<int64_t> chunkTouch;
  std::vector<double> bytes(g.values().size(), -1.0);
  std::vector<int64_t> lastTouch(g.values().size(), -1);
  std::vector<double> touchedBytes(g.values().size(),
                                   0.0);  // what a value's last touch added (not an arena one)
  // A view of a weight is that weight's storage (weightBehindViews), looked up once a value.
  std::vector<ValueId> weightOf(g.values().size(), kNoId - 1);
  auto weightFor = [&](ValueId v) {
    ValueId& w = weightOf[static_cast<size_t>(v)];
    if (w == kNoId - 1) w = weightBehindViews(g, v);
    return w;
  };
  // What a value's last touch is kept under: its storage (a weight, or the value behind its views).
  auto keyOf = [&](ValueId v) {
    if (const ValueId w = weightFor(v); w != kNoId) return w;
    return arena.rootOf[static_cast<size_t>(v)];
  };
  std::map<std::string, size_t> lastRun;  // by the code a node runs: its op type, or the node for a matrix op
  const double coldAt = 8.0 * static_cast<double>(coldCallEvictElems(own));
  const double evictedAt = std::sqrt(own * std::max(own, static_cast<double>(hw.l2Bytes)));
  int64_t lastWork = -1;  // the last node that moved bytes (not a view)
  for (size_t t = 0; t < steps; ++t) {
    const NodeId id = seq[t % seq.size()];
    const auto ni = static_cast<size_t>(id);
    const Node& n = g.node(id);
    auto bytesOf = [&](ValueId v) {
      if (const ValueId w = weightFor(v); w != kNoId) v = w;
      const auto vi = static_cast<size_t>(v);
      if (bytes[vi] < 0) {
        auto b = deviceBytes(g, v, hw, id);
        bytes[vi] = b.ok() ? *b : 0.0;
      }
      return bytes[vi];
    };
    // A matrix op on the executor's own loop (CubeFeatures::ownLoop) is code of the executor's, as a
    // vector op's loop is, not a primitive of the library's.
    bool product = nodeFamily(g, n) == OpFamily::Cube;
    // The library code every product of a family shares: by op type, except a Conv the executor runs as
    // a Gemm with transB (a squeeze-excitation's over a batch: the library's matmul on a packed weight, the
    // code a Gemm's runs, where the pointwise Convs' products run its plain-layout GEMM).
    std::string family = "#product|" + n.opType;
    if (product)
      if (const auto f = cubeFeatures(g, id)) {
        if (f->ownLoop) product = false;
        if (n.opType == "Conv" && f->kind == "gemm_tb") family = "#product|Gemm";
      }
    const std::string code = product ? primitiveKey(g, n) : n.opType;
    // A gather or a Slice reads from its data input only what it writes out (a ConvLSTM's frame
    // x[:, k], 32 KB of a 256 KB clip: 3.3-4.8 us measured, 18.9 simulated with the whole clip cold). Both
    // blocks below run in the second pass only.
    const double gathered = t >= seq.size() ? gatherReadBytes(g, n, hw, id) : -1.0;
    const bool readsItsOutputsWorth =
        gathered >= 0 || (n.opType == "Slice" && !n.outputs.empty() && n.outputs[0] != kNoId);
    const double outBytes = gathered >= 0 ? gathered : readsItsOutputsWorth ? bytesOf(n.outputs[0]) : 0.0;
    if (t >= seq.size()) {  // every code ran, and every value was touched, in the first pass
      // A vector op's call also finds the executor's own state (its dispatch, the node's tensors, its loop)
      // evicted after a node that streamed more than the own cache, however recently the op last ran: the
      // larger of the two shares, that one the bytes the last node (not a view) touched over twice the own
      // cache. (Tiny vector kernels of the stored rows, session 35: 0.59 us median after a kernel of
      // under 64 KB, 1.03 after one of 0.25-1 MB, 3.4 after one of 1-3 MB.) A matrix op's primitive is
      // code and data of its own: its distance alone.
      const double codeShare = std::clamp(since(lastRun[code], t) / coldAt, 0.0, 1.0);
      const double stateShare =
          !product && lastWork >= 0
              ? std::clamp(since(static_cast<size_t>(std::max<int64_t>(lastWork - 1, 0)), t) / (2 * own), 0.0,
                           1.0)
              : 0.0;
      out.callColdShare[ni] = std::max(codeShare, stateShare);
      if (product) {
        // A library product: the code every product of its op type shares, by the distance since one last
        // ran, and its own primitive, by its shapes' distance (codeShare).
        out.codeColdShare[ni] = std::clamp(since(lastRun[family], t) / coldAt, 0.0, 1.0);
        out.stateColdShare[ni] = codeShare;
      } else {
        out.codeColdShare[ni] = codeShare;
        out.stateColdShare[ni] = stateShare;
      }
      if (!product) out.codeDistance[ni] = since(lastRun[code], t);
      out.nodeDistance[ni] = since(t - seq.size(), t);  // its first-pass run
      out.callDistance[ni] = product ? since(lastRun[family], t)
                             : lastWork >= 0
                                 ? since(static_cast<size_t>(std::max<int64_t>(lastWork - 1, 0)), t)
                                 : 0.0;
      double farInputS = 0;  // farInputBytes at the copy's bandwidth for their distances
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        const ValueId v = n.inputs[i];
        if (v == kNoId || weightFor(v) != kNoId || repeatsAnEarlierInput(n, i)) continue;
        const double b = bytesOf(v);
        const int64_t last = lastTouch[static_cast<size_t>(keyOf(v))];
        if (b <= own && last >= 0 && since(static_cast<size_t>(last), t) + b > own) {
          const double distance = since(static_cast<size_t>(last), t) + b;
          const double share = std::min(1.0, (distance - own) / b);
          const double evicted = share * (i == 0 && readsItsOutputsWorth ? std::min(b, outBytes) : b);
          out.farInputBytes[ni] += evicted;
          if (const double bw = hw.cpu.cacheBandwidthFor(distance); bw > 0) farInputS += evicted / bw;
        }
      }
      if (out.farInputBytes[ni] > 0) out.farInputSPerByte[ni] = farInputS / out.farInputBytes[ni];
      // Its weights, each read at the profile's weight stream for its distance since its last read (its own
      // bytes included), each storage once (a weight and a view of it are one read). A gather's or Slice's
      // table as far as it reads it; a Gather's picks from a table that cpu.cold_gather prices are no stream
      // (rows picked here and there, costCpuKernel charges them).
      const bool coldGathered = hw.cpu.coldGather.any() && n.opType == "Gather" && n.domain.empty();
      if (coldGathered && !n.inputs.empty() && n.inputs[0] != kNoId)
        if (const ValueId w = weightFor(n.inputs[0]); w != kNoId) {
          const int64_t last = lastTouch[static_cast<size_t>(w)];
          out.gatherDistance[ni] =
              last >= 0 ? std::min(since(static_cast<size_t>(last), t) + outBytes, runFootprint)
                        : runFootprint;
        }
      double largestWeight = 0;
      if (nodeFamily(g, n) != OpFamily::View && !hw.cpu.weightStreamCurve.empty())
        for (size_t i = 0; i < n.inputs.size(); ++i) {
          const ValueId v = n.inputs[i];
          const ValueId w = v == kNoId ? kNoId : weightFor(v);
          if (w == kNoId || (i == 0 && coldGathered) ||
              std::any_of(n.inputs.begin(), n.inputs.begin() + static_cast<std::ptrdiff_t>(i),
                          [&](ValueId u) { return u != kNoId && weightFor(u) == w; }))
            continue;
          const double whole = bytesOf(w);
          const double b = i == 0 && readsItsOutputsWorth ? std::min(whole, outBytes) : whole;
          const int64_t last = lastTouch[static_cast<size_t>(w)];
          const double d =
              last >= 0 ? std::min(since(static_cast<size_t>(last), t) + whole, runFootprint) : runFootprint;
          if (const double bw = hw.cpu.weightStreamBandwidthFor(d); bw > 0) {
            out.weightStreamS[ni] += b / bw;
            const double nearBw =
                shareDistance > 0 ? hw.cpu.weightStreamBandwidthFor(std::min(d, shareDistance)) : bw;
            out.weightStreamNearS[ni] += b / std::max(nearBw, bw);
            if (b > largestWeight) {
              largestWeight = b;
              out.weightStreamDistance[ni] = d;
            }
          }
        }
      // An output no larger than the own cache, of an op on the executor's own loop, written over arena bytes
      // touched further back than the point between the own and the last-level cache (their geometric
      // mean, as the cost of such bytes takes it): those bytes come in before they are written. A library
      // product's, as its inputs are counted (farInputBytes): the bytes beyond the own cache.
      for (ValueId v : n.outputs) {
        const size_t si = v == kNoId ? SIZE_MAX : arena.slotOf[static_cast<size_t>(v)];
        const double b = si == SIZE_MAX ? 0.0 : bytesOf(v);
        if (si == SIZE_MAX || b > own) continue;
        const size_t at = arena.plan.offsets[si];
        out.evictedOutputBytes[ni] +=
            arenaClock.evictedBytes(at, at + static_cast<size_t>(b), t, since, product ? own : evictedAt);
      }
    }
    if (far && t >= seq.size()) {
      // The bytes of the node's activations beyond the own cache, each by its share of the far tier
      // (cpu.far_curve): an input by its distance since last touched, or, written this run, by the share
      // of the bytes it was written over; an output by the distance since its arena bytes were last touched,
      // a chunk at a time (what the chunk's last toucher streamed after it, and everything since).
      double fb = 0;
      const bool matrixOp = nodeFamily(g, n) == OpFamily::Cube;  // which far curve (cpu.far_curve_vector)
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        const ValueId v = n.inputs[i];
        if (v == kNoId || weightFor(v) != kNoId || repeatsAnEarlierInput(n, i)) continue;
        const double b = bytesOf(v);
        const int64_t last = lastTouch[static_cast<size_t>(keyOf(v))];
        if (b <= own || last < 0) continue;
        // A Slice or gather reads its output's worth of its data, as its traffic counts (farInputBytes
        // above): the first rows of a 64 MiB activation, 16 KiB, took 3-5 us measured, 1808 simulated with
        // the far tier on the whole value (session 70).
        const double read = i == 0 && readsItsOutputsWorth ? std::min(b, outBytes) : b;
        // Its chunks' distances run from what came since to that and its own stream after each.
        fb += read * std::max(hw.cpu.farShareAt(
                                  std::min(since(static_cast<size_t>(last), t) + b, runFootprint), matrixOp),
                              (matrixOp ? slotShare : slotShareVector)[static_cast<size_t>(keyOf(v))]);
      }
      // A matrix op's weight larger than the own cache, by the share of its distance since its last read: the
      // weight stream curve (its rate by distance) was timed over other weights, read only; in a run the
      // bytes between two reads are mostly activations the run wrote, and a read from beyond the last-level
      // cache after them takes the far tier's extra as an activation's does. (Session 70: a classifier
      // head, Gemm [8, 512] x [1000, 512]^T after 64 MiB of Negs, 263 us measured, 121 simulated without it,
      // 190 with it; over the 60 held-out rows of sets 85-87, the kernels whose weights pass 1.5 MB, median
      // ln(simulated / measured) -0.074 -> -0.009, mean absolute 0.196 -> 0.157.)
      if (matrixOp)
        for (size_t i = 0; i < n.inputs.size(); ++i) {
          const ValueId v = n.inputs[i];
          const ValueId w = v == kNoId ? kNoId : weightFor(v);
          if (w == kNoId || std::any_of(n.inputs.begin(), n.inputs.begin() + static_cast<std::ptrdiff_t>(i),
                                        [&](ValueId u) { return u != kNoId && weightFor(u) == w; }))
            continue;
          const double whole = bytesOf(w);
          const int64_t last = lastTouch[static_cast<size_t>(w)];
          if (whole <= own) continue;
          const double wb =
              whole * hw.cpu.farShareAt(
                          last >= 0 ? std::min(since(static_cast<size_t>(last), t) + whole, runFootprint)
                                    : runFootprint,
                          true);
          fb += wb;
          out.weightFarBytes[ni] += wb;
        }
      for (ValueId v : n.outputs) {
        if (v == kNoId) continue;
        const double b = bytesOf(v);
        const size_t si = arena.slotOf[static_cast<size_t>(v)];
        if (b <= own || si == SIZE_MAX) continue;
        const size_t at = arena.plan.offsets[si];
        slotShare[static_cast<size_t>(v)] =
            arenaClock.farShare(at, at + arena.plan.sizes[si], t, since, runFootprint, hw, true);
        slotShareVector[static_cast<size_t>(v)] =
            hw.cpu.farCurveVector.empty()
                ? slotShare[static_cast<size_t>(v)]
                : arenaClock.farShare(at, at + arena.plan.sizes[si], t, since, runFootprint, hw, false);
        fb += b * (matrixOp ? slotShare : slotShareVector)[static_cast<size_t>(v)];
      }
      // A Conv on oneDNN's layout also writes into the staging buffer, from its start.
      if (const double staged = stagedOutputBytes(g, id, hw); staged > own)
        fb += staged * stageClock.farShare(0, static_cast<size_t>(staged), t, since, runFootprint, hw, true);
      out.farBytes[ni] = fb;
    }
    if (nodeFamily(g, n) != OpFamily::View) {
      if (far) stageClock.touch(0, static_cast<size_t>(stagedOutputBytes(g, id, hw)), t);
      for (const auto* vs : {&n.inputs, &n.outputs})
        for (ValueId v : *vs)
          if (const size_t si = v == kNoId ? SIZE_MAX : arena.slotOf[static_cast<size_t>(keyOf(v))];
              si != SIZE_MAX)
            arenaClock.touch(arena.plan.offsets[si], arena.plan.offsets[si] + arena.plan.sizes[si], t);
    }
    lastRun[code] = t;
    if (product) lastRun[family] = t;
    // `part`: the bytes of it the node reads, when fewer than its own (a Gather's picks from a table); an
    // arena value counts whole.
    auto touch = [&](ValueId v, double part) {
      if (v == kNoId) return;
      v = keyOf(v);
      const auto vi = static_cast<size_t>(v);
      const size_t si = arena.slotOf[vi];
      if (si == SIZE_MAX) {
        const double b = part >= 0 ? std::min(part, bytesOf(v)) : bytesOf(v);
        if (lastTouch[vi] >= 0) add(static_cast<size_t>(lastTouch[vi]), -touchedBytes[vi]);
        add(t, b);
        touchedBytes[vi] = b;
      } else {
        const size_t begin = arena.plan.offsets[si], end = begin + arena.plan.sizes[si];
        if (chunkTouch.size() * kDistChunk < end) chunkTouch.resize((end + kDistChunk - 1) / kDistChunk, -1);
        for (size_t c = begin / kDistChunk; c * kDistChunk < end; ++c) {
          if (chunkTouch[c] == static_cast<int64_t>(t)) continue;
          if (chunkTouch[c] >= 0) add(static_cast<size_t>(chunkTouch[c]), -double{kDistChunk});
          add(t, double{kDistChunk});
          chunkTouch[c] = static_cast<int64_t>(t);
        }
      }
      lastTouch[vi] = static_cast<int64_t>(t);
    };
    if (nodeFamily(g, n) == OpFamily::View) continue;  // hands out its input's buffer: no bytes move
    lastWork = static_cast<int64_t>(t);
    // A gather's data input (not an arena value: a table): the bytes it picks (a DLRM's column picks after an
    // embedding Gather had been charged a cold call, 0.61 us simulated against 0.21-0.25 measured, as if the
    // Gather had streamed its whole 5 MB table). A Slice's input counts whole as before: windows of a
    // waveform one after another (an audio transformer's 40 frames, 0.56-0.84 us measured) come out 0.62
    // simulated so, 0.54 with each window alone.
    const double firstRead = gatherReadBytes(g, n, hw, id);
    for (size_t i = 0; i < n.inputs.size(); ++i) touch(n.inputs[i], i == 0 ? firstRead : -1.0);
    for (ValueId v : n.outputs) touch(v, -1.0);
  }
  return out;
}

namespace {

// A Relu the executor computes in its producer's loop (core/exec/Epilogue.h), its producer in the same
// fused kernel: a fused body runs untimed, so it takes the epilogue; at -O0 every node is timed on its own.
bool reluEpilogue(const Graph& g, const Node& n, const std::vector<char>& inGroup) {
  if (n.opType != "Relu" || n.inputs.size() != 1 || n.inputs[0] == kNoId) return false;
  const NodeId producer = g.value(n.inputs[0]).producer;
  if (producer == kNoId || !inGroup[static_cast<size_t>(producer)]) return false;
  const auto& outs = g.outputs();
  auto isOutput = [&](ValueId v) { return std::find(outs.begin(), outs.end(), v) != outs.end(); };
  return exec::reluEpilogueOf(g, producer, isOutput) == n.id;
}

// A Split its producer writes in parts (core/exec/Epilogue.h), the producer in the same fused kernel: the
// epilogue, or nullopt. `n`: the Split, or with `asProducer` the MatMul or Gemm.
std::optional<exec::SplitEpilogue> splitInParts(const Graph& g, const Node& n,
                                                const std::vector<char>& inGroup, bool asProducer) {
  if (asProducer ? n.opType != "MatMul" && n.opType != "Gemm" : n.opType != "Split") return std::nullopt;
  if (n.inputs.empty() || n.inputs[0] == kNoId) return std::nullopt;
  const NodeId producer = asProducer ? n.id : g.value(n.inputs[0]).producer;
  if (producer == kNoId || !inGroup[static_cast<size_t>(producer)]) return std::nullopt;
  const auto& outs = g.outputs();
  auto isOutput = [&](ValueId v) { return std::find(outs.begin(), outs.end(), v) != outs.end(); };
  auto e = exec::splitEpilogueOf(g, producer, isOutput);
  if (!e || !inGroup[static_cast<size_t>(e->split)] || (!asProducer && e->split != n.id) ||
      !exec::splitWrittenInParts(g, producer, *e))
    return std::nullopt;
  return e;
}

}  // namespace

namespace {
// cold_call_curve "node" at the distance since node `id` last ran (CpuRunReuse::nodeDistance); 0 without
// the reuse figures or the column.
double nodeCurveSeconds(const HwProfile& hw, const CpuRunReuse* reuse, NodeId id) {
  const auto i = static_cast<size_t>(id);
  return reuse && i < reuse->nodeDistance.size() ? hw.cpu.coldNodeCurveSeconds(reuse->nodeDistance[i]) : 0.0;
}
}  // namespace

std::optional<double> cpuShapeWorkSeconds(const Graph& g, NodeId id, const HwProfile& hw, double runFootprint,
                                          const CpuRunReuse* reuse) {
  const std::optional<double> cold = hw.cpu.coldShapeCallSeconds();
  if (!cold) return std::nullopt;
  const Node& n = g.node(id);
  const auto call = hw.cpu.opCallS.find(n.opType);
  const double callS = call != hw.cpu.opCallS.end() ? call->second : hw.launchUs * 1e-6;
  const auto ni = static_cast<size_t>(id);
  const double share =
      reuse && ni < reuse->callColdShare.size() ? reuse->callColdShare[ni] : coldShareOf(hw, runFootprint);
  // At least the node curve at the distance since the node last ran, as a vector op pays it (costCpuKernel).
  return callS + std::max(share * *cold, nodeCurveSeconds(hw, reuse, id));
}

Result<KernelCost> costCpuKernel(const Graph& g, const KernelGroup& group, const HwProfile& hw,
                                 std::vector<std::string>* warnings, double runFootprint,
                                 const CpuRunReuse* reuse) {
  const double coldShare = coldShareOf(hw, runFootprint);
  const double ownCache = ownCacheBytes(hw);
  std::vector<char> inGroup;
  KernelCost kc = beginKernelCost(g, group, inGroup);
  KernelTiming& t = kc.timing;

  const double peak = std::max(hw.cpu.gemmFlops, hw.cpu.convFlops);
  const auto llc = static_cast<double>(hw.l2Bytes);
  double memoryS = 0, bodyS = 0, cubeS = 0, vectorS = 0, memBoundS = 0, compBoundS = 0;
  int64_t running = 0, views = 0;
  double viewColdS = 0;  // the views' node curve (below)
  bool anyCube = false, anyVector = false;
  for (NodeId m : group.members) {
    const Node& n = g.node(m);
    t.ops.push_back(n.opType);
    t.nodes.push_back(n.name);
    const OpFamily fam = nodeFamily(g, n);
    if (fam == OpFamily::ControlFlow)
      return Error::badInput("node '" + n.name + "' (" + n.opType + "): control flow is not simulated; inline or unroll it first");
    const NodeCost nc = nodeCost(g, m);
    if (fam != OpFamily::View && !nc.known) return Error::badInput(nc.problem);
    t.flops += nc.flops;
    if (fam == OpFamily::View) {
      ++views;
      // The executor runs a view as a node too: its record and its tensors' as cold as a vector op's
      // (cpu.cold_call_curve "node" at the distance since it last ran; session 80: a detector's Unsqueezes
      // and Reshapes 0.35-0.44 us measured at their median, 0.09 simulated at the view's call alone, a
      // decoder's Identities within 5 MB 0.17).
      viewColdS += nodeCurveSeconds(hw, reuse, m);
      continue;
    }
    // Computed in its producer's loop: no pass of its own (bert_lite's MatMul+Add+Relu over [100, 512]:
    // 128 us measured fused, where the three took 141 + 14 + 21 alone).
    if (reluEpilogue(g, n, inGroup)) continue;
    // Written by its producer, a product a part (slot attention's merged key and value projections: the
    // MatMul + Split 491-500 us measured with the Split's copy, the two products 187 + 196 alone).
    if (splitInParts(g, n, inGroup, false)) continue;
    if (fam == OpFamily::Unknown && warnings) {
      const std::string w = "op type '" + n.opType + "' is not in the cost table: costed as one elementwise pass over its output";
      if (std::find(warnings->begin(), warnings->end(), w) == warnings->end()) warnings->push_back(w);
    }
    ++running;
    // Traffic of this member: what it reads and writes, whether or not the value is internal to the kernel
    // (the executor materialises every member's output).
    double actIn = 0, weights = 0, out = 0, inElems = 0, outElems = 0;
    double weightShares = 0;  // each weight over its readers: the DRAM traffic a run reports for it
    double actInBeyondOwn = 0;  // activation inputs larger than the core's own cache
    // Each weight read priced by its own reuse distance (CpuRunReuse::weightStreamS) rather than by its size
    // and the run's footprint: a profile with a weight stream and the run's reuse.
    const auto wi = static_cast<size_t>(m);
    const bool byDistance =
        reuse && ownCache > 0 && !hw.cpu.weightStreamCurve.empty() && wi < reuse->weightStreamS.size();
    const double weightStreamS = byDistance ? reuse->weightStreamS[wi] : 0.0;
    // A gather reads the rows it picks, not its whole table (an embedding of 5000 words, 48 looked up); a
    // GatherElements the cache lines its picks land on (gatherReadBytes).
    // A Slice the same: it copies its output's rows from its data (a spectrogram's 400-sample frames of a
    // [4, 16000] waveform, 6.4 KB of 256 KB: 0.55-0.6 us measured, 1.7 simulated reading the whole waveform).
    double picked = gatherReadBytes(g, n, hw, m);
    if (picked < 0 && n.opType == "Slice" && n.domain.empty() && !n.outputs.empty() &&
        n.outputs[0] != kNoId) {
      FW_ASSIGN_OR_RETURN(picked, deviceBytes(g, n.outputs[0], hw, m));
    }
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      const ValueId v = n.inputs[i];
      // A value that is two of its inputs (x * x) streams once: the second read of each element finds it in
      // the first's cache line (Zero-DCE's curve, x * x over 4 x 3 x 512 x 512: 591-653 us measured in the
      // network, where the Muls of two values beside it took 967-1089; simulated 969 with both read).
      if (v == kNoId || repeatsAnEarlierInput(n, i)) continue;
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, m));
      if (i == 0 && picked >= 0) b = std::min(b, picked);
      // With the run's reuse distances (byDistance), each read of a weight is where the run left it since its
      // last read (CpuRunReuse::weightStreamS): the steps of an unrolled recurrent network each read their
      // shared weight whole, from as near as the other steps' bytes leave it.
      // Without them, a weight is read from DRAM once per run: shared by several nodes, each reader is
      // charged its share.
      // Through views too: a PyTorch export that shares a weight between layers hands each layer an
      // Identity of it, which the executor passes on as the same storage (a small ViT's four layers on one
      // set of weights: the QKV product 434-444 us measured in each; simulated 474 in the first layer and
      // 571 in the others, whose weight counted as a 1.8 MB activation).
      if (const ValueId w = weightBehindViews(g, v); w != kNoId) {
        weightShares += b / static_cast<double>(weightReaders(g, w));
        weights += byDistance ? b : b / static_cast<double>(weightReaders(g, w));
      } else {
        actIn += b;
        if (b > ownCache) actInBeyondOwn += b;
      }
      if (i == 0) {
        FW_ASSIGN_OR_RETURN(inElems, elementsOf(g, v, hw, m));
      }
    }
    for (ValueId v : n.outputs) {
      if (v == kNoId) continue;
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, m));
      out += b;
      FW_ASSIGN_OR_RETURN(double e, elementsOf(g, v, hw, m));
      outElems += e;
    }
    // Activations pass from one kernel to the next: what fits the last-level cache is read from it.
    // Weights are read once per run, with the whole run's data in between: from DRAM, as far as the
    // run's footprint exceeds the core's own cache (coldShare); a small model's weights stay in it
    // between runs (openWakeWord's head: a Gemm 1x1536 by 128x1536 of 0.79 MB took 12.7 us in the
    // network, 62 GB/s, where DRAM bandwidth would take 31 us). Weights larger than that cache evict
    // themselves as they stream: from DRAM in full.
    // A Gather's picks from a model's table that the profile's cold_gather prices (below) are timed
    // here as from cache: cold_gather is what they take more from DRAM, measured against that. (Both
    // charged, a fastText-style lookup of 12800 random rows of 256 B from a 12.8 MB table came to
    // 908 us simulated against 536-668 measured.)
    const bool coldGatherPriced = hw.cpu.coldGather.any() && n.opType == "Gather" && n.domain.empty() &&
                                  picked > 0 && n.inputs[0] != kNoId &&
                                  weightBehindViews(g, n.inputs[0]) != kNoId;
    // A GatherElements's picks from an activation larger than the last-level cache (a point cloud's
    // neighbours picked from [4, 64, 256, 256] features, 67 MB): each cache line they land on beyond the
    // cache's share of it is a miss as a table row's from DRAM is (cpu.cold_gather, below), not a stream at
    // the copy's bandwidth (PointNet++-style grouping, 1M picks of 16 a row of 256: 10.0 ms measured, 2.1
    // simulated as a stream). Those bytes are timed here as from cache.
    double coldPickedBytes = 0;
    if (hw.cpu.coldGather.any() && n.opType == "GatherElements" && n.domain.empty() && picked > 0 &&
        llc > 0 && n.inputs[0] != kNoId && weightBehindViews(g, n.inputs[0]) == kNoId) {
      FW_ASSIGN_OR_RETURN(const double dataBytes, deviceBytes(g, n.inputs[0], hw, m));
      if (dataBytes > llc) coldPickedBytes = (dataBytes - llc) / dataBytes * picked;
    }
    // An op that writes more than it reads (an Expand, a Gather of many rows from a small table) moves each
    // output byte twice within the last-level cache, as a copy moves a byte read and one written: a line is
    // fetched before it is written over. (Session 79, one op alone: Expand [1, 64] -> [32768, 64] 263 us and
    // a Gather of 32768 rows of 256 B from a 1 MB table 290-360, where a Relu 8 MB -> 8 MB takes 266-282;
    // simulated 135 and 184 on the output's bytes once.) From twice the cache on, once: Mask R-CNN v2's
    // Expands of a RoI pool's indices to 40-43 MB were measured at 1.4-1.5 ms, simulated 1.7-2.1 on them
    // once. Between, linearly. A matrix op's output is its shape model's; what an op reads (a table's rows
    // too) stands for that second pass where it is as large.
    const double rewritten =
        fam == OpFamily::Cube || llc <= 0 ? 0.0 : out * std::clamp(2.0 - out / llc, 0.0, 1.0);
    const double acts = actIn + out + std::max(0.0, rewritten - actIn - weights);  // its reads count as such
    // By distance, a weight's bytes count as the cache's here, and its read takes at least its stream at its
    // distance (weightStreamS, below).
    const double dram = (coldGatherPriced || byDistance ? 0.0 : (weights > ownCache ? 1.0 : coldShare) * weights) +
                        std::max(0.0, acts - coldPickedBytes - llc);
    const double cached = acts + weights - dram;
    const double memS = dram / hw.hbmBandwidth +
                        (cached > 0 ? cached / hw.cpu.cacheBandwidthFor(std::min(cached, llc)) : 0.0);
    // The executor's loops beyond the core's own cache: a chain of Relus streams slower there than in it
    // (cpu.stream_curve, measured here: 109 GB/s at 512 KiB of footprint, 72 at 16 MiB, 42 at 64 MiB,
    // where a copy moves 262, 113 and 42), and slower than the op's in-cache rate and the copy's
    // bandwidth together say. What each byte takes beyond the chain's in-cache rate is added to the op's
    // time (a Mul in wav2vec's feature encoder, 2 x 512 x 3199 floats times the same: 404 us measured,
    // 184 simulated without the curve, 268 with it). The op's copy-model time (memS) is another estimate of
    // that same traffic: the larger of the two counts, not their sum (session 33: a DenseNet's BNs, Relus
    // and Concats over 3-6 MB, 26 GB/s measured as the curve says, were simulated at 14 GB/s with both;
    // ResNet-50's residual Adds +76 %).
    double streamStallS = 0;
    if (fam != OpFamily::Cube && !hw.cpu.streamCurve.empty()) {
      const double bytes = acts + weights;
      streamStallS = bytes * std::max(0.0, 1.0 / hw.cpu.streamBandwidthFor(bytes) -
                                               1.0 / hw.cpu.streamCurve.front().second);
    }
    // The traffic reported: by distance too, a weight from DRAM once a run as far as the run evicts it (the
    // time is its stream's, above).
    t.hbmBytes += byDistance && !coldGatherPriced
                      ? dram + (weightShares > ownCache ? 1.0 : coldShare) * weightShares
                      : dram;

    double work = 0, rate = 0, fixedS = 0, rowsS = 0;
    double copyS = 0;              // a ScatterElements's copy of its data, priced apart (scatterCopyApart)
    std::optional<double> shaped;  // seconds from the profile's shape model of this kind of matrix op
    double weightTermS = 0;        // of which its weight terms (CubeTimeModel::weightSeconds)
    double reorderS = 0;           // a computed weight's reorder into oneDNN's layout (cpu.weight_reorder)
    double imageStreamFarS = 0;    // a Conv's first weight read from beyond its own footprint's distance
    bool imageStream = false;      // its shape model streams its weights once an image (imageStreamFarS)
    bool ownLoop = false;          // the executor's own loop (CubeFeatures::ownLoop)
    bool plainProduct = false;     // a Conv on the executor's GEMM path (CubeFeatures::plainProduct)
    bool imageProducts = false;    // a pointwise Conv: one product an image (far_s_per_byte "pointwise")
    double passesFar = 0;          // a depthwise Conv's passes its model streams from beyond the LLC (0-1)
    if (fam == OpFamily::Cube)
      if (auto f = cubeFeatures(g, m)) {
        *f = f->withOwnCache(ownCacheBytes(hw));
        ownLoop = f->ownLoop;
        plainProduct = f->plainProduct;
        imageProducts = f->kind == "pointwise_conv";
        if (const auto e = splitInParts(g, n, inGroup, true)) f->calls *= static_cast<double>(e->parts);
        // A Conv or ConvTranspose on oneDNN's blocked layout reorders a weight the run computes on every
        // call (a QDQ model's DequantizeLinear at -O0: openWakeWord's embedding, 20 Convs 727 us simulated
        // against 957 measured without it); the pointwise path reads its weight as stored.
        const bool blockedConv = (n.opType == "Conv" || n.opType == "ConvTranspose") && !f->plainProduct;
        if (blockedConv && hw.cpu.weightReorder.any() && n.inputs.size() > 1 && n.inputs[1] != kNoId &&
            !storedAcrossRuns(g, n.inputs[1], true)) {
          FW_ASSIGN_OR_RETURN(double wb, deviceBytes(g, n.inputs[1], hw, m));
          reorderS = hw.cpu.weightReorder.seconds(wb);
        }
        auto it = hw.cpu.cubeModels.find(f->kind);
        // Older profiles: Gemm(transB) had the GEMM model (a product of one column the GEMM or Gemm(transB)
        // one), a pointwise or 1-D Conv or a filter bank the dense one, a depthwise
        // Conv or one of more than 16 channels a group the grouped one (one call a Conv), a 1-D ConvTranspose
        // or one of a few output channels the 2-D one.
        if (it == hw.cpu.cubeModels.end() && f->kind == "grouped_conv_wide") {
          it = hw.cpu.cubeModels.find("grouped_conv");
          f->calls = 1;
        }
        if (it == hw.cpu.cubeModels.end() && f->kind == "gemm_tb") it = hw.cpu.cubeModels.find("gemm");
        if (it == hw.cpu.cubeModels.end() && f->kind == "gemm_col")
          it = hw.cpu.cubeModels.find(n.opType == "Gemm" && n.attrs.intOr("transB", 0) != 0 ? "gemm_tb"
                                                                                            : "gemm");
        if (it == hw.cpu.cubeModels.end() && f->kind == "conv_rows")
          it = hw.cpu.cubeModels.find("conv_direct");
        if (it == hw.cpu.cubeModels.end() && (f->kind == "pointwise_conv" || f->kind == "conv1d" ||
                                              f->kind == "conv_direct" || f->kind == "conv_rows"))
          it = hw.cpu.cubeModels.find("conv");
        if (it == hw.cpu.cubeModels.end() && f->kind == "depthwise_conv") it = hw.cpu.cubeModels.find("grouped_conv");
        if (it == hw.cpu.cubeModels.end() &&
            (f->kind == "conv_transpose1d" || f->kind == "conv_transpose_plain"))
          it = hw.cpu.cubeModels.find("conv_transpose");
        if (it != hw.cpu.cubeModels.end()) {
          if (f->actStreamBytes > 0 && it->second.weightStreamEfficiency > 0 && llc > 0)
            passesFar = std::clamp(f->actFootprintBytes / llc - 1, 0.0, 1.0);
          const auto copyRate = [&](double bytes) { return hw.cpu.cacheBandwidthFor(bytes); };
          // A recurrent cell whose model was fitted without its input projection: that product priced by
          // the GEMM model (DeepSpeech2's GRU over [400, 640] x [640, 1152]: the recurrent model's one rate
          // a GFLOP, fitted on cells whose steps dominate, put it at 45 GFLOP/s, where the GEMM model says
          // 83, on session 47's AVX2 CPU).
          const auto projection = it->second.projectionKind.empty()
                                      ? hw.cpu.cubeModels.end()
                                      : hw.cpu.cubeModels.find(it->second.projectionKind);
          if (projection != hw.cpu.cubeModels.end() && f->projRows > 0) {
            shaped = it->second.boundedSeconds(f->withoutInputProjection(), copyRate) +
                     projection->second.seconds(f->inputProjection());
            weightTermS =
                it->second.weightSeconds(*f) + projection->second.weightSeconds(f->inputProjection());
          } else {
            shaped = it->second.boundedSeconds(
                f->withPositionBlock(hw.cpu.pointwisePositionBlock).withChannelBlock(hw.cpu.convChannelBlock),
                copyRate);
            weightTermS = it->second.weightSeconds(*f);
            // A model that reads the weights once an image was fitted on weights read from their own
            // footprint's distance; what the first read takes more from the run's distance no arithmetic
            // hides (session 58's Xeon: 3x3 Convs 512 -> 512 at 5x5 over 2 to 8 weights of 9.4 MB in turn,
            // 715-735 us a Conv; over 16, 151 MB apart, 1055).
            // (Its stream is then in its shape time, from its footprint's distance, plus that: not also the
            // bound of the weight's stream below.)
            if (it->second.weightStreamPerImage && it->second.weightStreamEfficiency > 0 &&
                f->weightBytes > 0 && weightStreamS > 0)
              if (const double own = hw.cpu.weightStreamBandwidthFor(f->weightBytes); own > 0) {
                imageStreamFarS = std::max(0.0, weightStreamS - f->weightBytes / own);
                imageStream = true;
              }
          }
        }
      }
    if (fam == OpFamily::Cube) {
      anyCube = true;
      work = nc.flops;
      const bool grouped = n.attrs.intOr("group", 1) > 1 && hw.cpu.groupedConvFlops > 0;
      rate = (!isConvOp(n.opType) ? hw.cpu.gemmFlops : grouped ? hw.cpu.groupedConvFlops : hw.cpu.convFlops) *
             hw.efficiency.cube;
    } else {
      anyVector = true;
      const double elems = fam == OpFamily::Reduction ? std::max(inElems, outElems) : outElems;
      work = cpuVectorWork(g, n, nc.flops, elems, scatterCopyApart(hw.cpu));
      if (n.opType == "ScatterElements" && n.domain.empty() && scatterCopyApart(hw.cpu) &&
          !n.inputs.empty() && n.inputs[0] != kNoId) {
        FW_ASSIGN_OR_RETURN(const double dataBytes, deviceBytes(g, n.inputs[0], hw, m));
        copyS = scatterCopySeconds(dataBytes, hw.cpu);
      }
      // A profile that does not time a TopK's insertions (calibrated before session 38) costs it as a sort.
      if (n.opType == "TopK" && !hw.cpu.opRowS.count("TopK")) work = std::max(nc.flops, elems);
      const std::string key = efficiencyKey(g, n);
      auto op = hw.cpu.opEfficiency.find(key);
      // A comparison of int64 operands without figures of its own pays Equal's (OpFamily.cpp: efficiencyKey).
      const bool int64Comparison = isComparison(n) && key == n.opType + "/int64";
      if (op == hw.cpu.opEfficiency.end() && int64Comparison) op = hw.cpu.opEfficiency.find("Equal/int64");
      if (op == hw.cpu.opEfficiency.end()) op = hw.cpu.opEfficiency.find(n.opType);
      rate = peak * (op != hw.cpu.opEfficiency.end() ? op->second : hw.efficiency.of(fam));
      // A pool's strided taps at the strided pool's rate and its contiguous ones at the op's (poolLoops;
      // a profile calibrated before session 65 times neither apart: every tap at the key's rate). Its rows
      // are its bounded loop's taps (poolLoops); on such an older profile, its planes.
      const auto pool = poolLoops(g, n);
      const auto strided = pool ? hw.cpu.opEfficiency.find(n.opType + "/strided") : hw.cpu.opEfficiency.end();
      if (strided != hw.cpu.opEfficiency.end() && strided->second > 0 && rate > 0) {
        const auto plain = hw.cpu.opEfficiency.find(n.opType);
        const double plainRate =
            plain != hw.cpu.opEfficiency.end() && plain->second > 0 ? peak * plain->second : rate;
        const double taps = pool->contiguousTaps + pool->stridedTaps;
        if (taps > 0)
          work *= (pool->contiguousTaps * rate / plainRate +
                   pool->stridedTaps * rate / (peak * strided->second)) /
                  taps;
      }
      auto call = hw.cpu.opCallS.find(key);
      if (call == hw.cpu.opCallS.end() && int64Comparison) call = hw.cpu.opCallS.find("Equal/int64");
      if (call == hw.cpu.opCallS.end()) call = hw.cpu.opCallS.find(n.opType);
      // A kernel of this op alone: its call, dispatch included, in place of the per-kernel overhead
      // (launch_us, a one-element Add's), less where the op's own call is cheaper (a Relu's 0.18 us, a Tanh's
      // 0.21, against the Add's 0.28 here; an LSTM's steps of Sigmoids and Tanhs over 256 values, 0.37-0.41
      // us measured, were simulated 0.57-0.68 with the Add's overhead on top of their work). A fused body's
      // member costs no less than that overhead (the zoo LSTM's Sigmoid+Tanh+Mul: 1.79 us measured, 1.48
      // simulated with it, 1.32 with the members' own calls).
      // An op with nothing to do (its outputs empty, no work counted: a detector's RoIAlign of a pyramid
      // level no box was assigned to) pays the executor's call, not its op's fitted fixed part (RoiAlign's
      // 73 us there, timed on 32 boxes; Mask R-CNN's empty levels took 1.3-2.5 us, session 78).
      const bool nothingToDo = outElems == 0 && work == 0;
      if (call != hw.cpu.opCallS.end() && !nothingToDo)
        fixedS = group.members.size() == 1 ? call->second - hw.launchUs * 1e-6
                                           : std::max(0.0, call->second - hw.launchUs * 1e-6);
      // A row-wise op's rows (cpu.op_row_s): each row's set-up and finish, apart from its elements
      // (ft-transformer's attention softmax over [64, 8, 25, 25]: 1148-1155 us measured, 589 simulated
      // at the elements' rate alone).
      // A variant without a figure of its own pays its op type's (a profile calibrated before
      // "Gather/elements" was timed: the longer rows' time).
      auto row = hw.cpu.opRowS.find(key);
      if (row == hw.cpu.opRowS.end()) row = hw.cpu.opRowS.find(n.opType);
      if (row == hw.cpu.opRowS.end() && isComparison(n)) row = hw.cpu.opRowS.find("Equal");
      if (row != hw.cpu.opRowS.end())
        rowsS = static_cast<double>(pool && strided == hw.cpu.opEfficiency.end() ? pool->planes
                                                                                 : rowWiseRows(g, n)) *
                row->second;
    }
    // A call whose code and data the run's traffic has evicted since the op last ran costs more
    // (cpu.cold_call_s), by its call's cold share (CpuRunReuse; ft-transformer's head, a Gemm 64x96x2
    // after the encoder: 41 us in the network, 10.7 alone).
    const auto mi = static_cast<size_t>(m);
    const bool libraryCall = fam == OpFamily::Cube && !ownLoop;
    const double callCold = reuse && mi < reuse->callColdShare.size() ? reuse->callColdShare[mi] : coldShare;
    const std::optional<double> codeCold = libraryCall ? std::nullopt : hw.cpu.coldCodeSeconds(n.opType);
    // A library product whose profile times its primitive alone (cold_call_s "product/primitive") pays that
    // figure by its primitive's distance and the rest of "product" by the distance since a product of its
    // op type last ran: a product right after another of other shapes finds the library's shared code in
    // cache (a 4x16x4 MatMul after a Neg over 4 MiB: 15 us more alone, 2.0-5.1 after another MatMul;
    // session 40: N-BEATS's basis products, 4-7 us measured, 20-21 simulated with a whole cold call).
    const std::optional<double> primitiveCold = libraryCall ? hw.cpu.coldPrimitiveSeconds() : std::nullopt;
    const bool split = reuse && mi < reuse->codeColdShare.size();
    const double productCold = hw.cpu.coldCallSeconds(true);
    double coldCallS = codeCold && split ? std::max(reuse->stateColdShare[mi] * hw.cpu.coldCallSeconds(false),
                                                    reuse->codeColdShare[mi] * *codeCold)
                       : primitiveCold && split
                           ? reuse->codeColdShare[mi] * std::max(0.0, productCold - *primitiveCold) +
                                 reuse->stateColdShare[mi] * std::min(*primitiveCold, productCold)
                           : callCold * hw.cpu.coldCallSeconds(libraryCall);
    // A profile that timed cold calls at several distances (cpu.cold_call_curve) charges at least what its
    // curve says at the call's distance (CpuRunReuse::callDistance): cold_call_s's figures were timed at one
    // distance, and a call whose code or state the run pushed beyond the last-level cache costs far more.
    if (reuse && mi < reuse->callDistance.size())
      coldCallS = std::max(coldCallS, hw.cpu.coldCallCurveSeconds(libraryCall, reuse->callDistance[mi]));
    // And a vector op whose own loop last ran far away, at least the curve's "code" there: cold_call_s's
    // "code" was timed within the last-level cache (a ReduceSum's loop a run of 32 MB ago: 2.9 us after a
    // tiny op, 0.27 in a row; session 78).
    if (!libraryCall && reuse && mi < reuse->codeDistance.size())
      coldCallS = std::max(coldCallS, hw.cpu.coldCodeCurveSeconds(reuse->codeDistance[mi]));
    // And a vector op at least the curve's "node" at the distance since the node itself last ran: its own
    // tensors and the executor's record of it, whatever ran just before (a detector's transform's tiny
    // nodes, 0.20 us a node alone, 0.54 with 64 MB streamed elsewhere in the run; session 79).
    if (!libraryCall) coldCallS = std::max(coldCallS, nodeCurveSeconds(hw, reuse, m));
    fixedS += coldCallS;
    double compS = shaped ? *shaped : fixedS + rowsS + copyS + (rate > 0 ? work / rate : 0.0);
    // An Einsum run as a product copies an operand whose axes are not in product order into that order,
    // and the result into the output's (core/exec/ops_linalg.cpp): a Transpose's work per element.
    if (fam == OpFamily::Cube && n.opType == "Einsum")
      if (const auto p = einsumProductOf(g, n)) {
        const double moved = static_cast<double>(p->movedElements());
        auto tr = hw.cpu.opEfficiency.find("Transpose");
        const double eff =
            tr != hw.cpu.opEfficiency.end() ? tr->second : hw.efficiency.of(OpFamily::DataMovement);
        if (moved > 0 && peak * eff > 0) compS += moved / (peak * eff);
      }
    (fam == OpFamily::Cube ? cubeS : vectorS) += compS;
    memoryS += std::max(memS, weightStreamS);
    // A shape model was timed with the op's data in cache. In a run, its weights and its output buffer
    // were last touched a run ago, and its input, when it is larger than the core's own cache, has partly
    // left it too; the run's other data may have evicted them (coldShare). The profile's measured cost of
    // cold bytes is charged on the bytes its fit counted (input, weights and output), or, in a profile
    // without one, the weights from DRAM. Weights are read in order, and the prefetcher streams them in
    // while the op computes: only what their cold cost exceeds the op's arithmetic at peak rate is
    // charged (ResNet-152 at 128x128: a 3x3 Conv 256->256 at 8x8 with 2.4 MB of weights takes 565 us
    // alone and 600 us in the network). A recurrent cell's steps are matrix-vector products bound by
    // that same stream, so its weights are charged whole. A MatMul's or Gemm's model weight runs on
    // the executor's copy in oneDNN's layout, made once (core/exec/Gemm.cpp, session 30): its panels
    // stream in while it computes, like a Conv's. (Before that copy, oneDNN packed them before the
    // arithmetic, which they did not overlap; charged whole after it, session 30's in-network products of
    // 10-100 us came out 25 % over measured. A constant B of several batches, read as stored, still
    // is charged whole.) A product of one row
    // is a matrix-vector product: it reads each weight once as it computes, so its cold stream takes the
    // place of the shape model's weight terms, which timed that same stream from cache (VGG-11's first
    // fully connected layer, 1 x 25088 by 25088 x 4096, 411 MB: 10.6 ms measured, 14.5 simulated with
    // both, 13.0 with the larger).
    double coldS = byDistance ? 0.0 : weights / hw.hbmBandwidth;
    if (hw.cpu.coldBandwidth > 0) {
      const bool recurrent = n.opType == "LSTM" || n.opType == "GRU" || n.opType == "RNN";
      const bool product = n.opType == "MatMul" || n.opType == "Gemm";
      const bool packedB = product && n.inputs.size() > 1 && n.inputs[1] != kNoId &&
                           storedAcrossRuns(g, n.inputs[1], false) && g.value(n.inputs[1]).shape.rankKnown &&
                           g.value(n.inputs[1]).shape.rank() <= 2;
      const double overlapS = !shaped || recurrent               ? 0.0
                              : product && outputRows(g, n) == 1 ? weightTermS
                              : product && !packedB              ? 0.0
                              : peak > 0                         ? nc.flops / peak
                                                                 : 0.0;
      // Its activation inputs: with the run's reuse distances, an input no larger than the core's own
      // cache is cold only when the run has evicted it since it was last touched (farInputBytes: an
      // attention product's Q and K, written by the node before, are in cache), a larger one partly
      // (coldShare); without them, or without a measured own cache, every input as the run's share. A
      // MatMul's or Gemm's larger input is not charged here (session 40): its shape model was timed with its
      // input in the last-level cache, where a run's recent values are, and its bytes beyond that cache pay
      // the far tier (farTierS, below). (A hypernetwork's batched product over 4 MB of weights it generated
      // a node before: 216 us measured, 441 simulated before, 190 after; 296 stored rows 240 -> 241 met, mean
      // per-row median 14.20 -> 14.08 %, mean |whole-model error| 7.78 -> 7.94 %. For a Conv the same took
      // conv-heavy rows already 12-15 % under further under: 240 -> 234.) A pointwise Conv on the executor's
      // GEMM path (plainProduct) is such a product, one an image over the data as they are, and is charged as
      // one (session 59: PointNet's Conv1d 128 -> 512 over 8 x 1024 points, 16 MiB out, 7.68 ms measured,
      // 8.92 simulated with the run's share of its input and output at the cold rate, 7.92 so; over 913
      // such Convs of the stored, fresh and held-out rows on session 58's merged calibration, the median
      // ln(simulated/measured) +0.085 -> -0.007, 3 more rows met, none lost).
      const double coldIn =
          reuse && ownCache > 0 && mi < reuse->farInputBytes.size()
              ? reuse->farInputBytes[mi] +
                    (product || plainProduct ? 0.0 : (1 - passesFar) * coldShare * actInBeyondOwn)
              : coldShare * actIn;
      // A depthwise Conv's model streams its three passes from their footprint (passesFar): past twice the
      // last-level cache that stream is from DRAM, and the run's cold share of its input and output is not
      // charged on top of it (linearly from once the cache). Session 72: depthwise Convs over 2.5-15 MB of
      // input at a median exp(+0.23) of their time over the 156 held-out rows of sets 85-93; with this, 125
      // -> 127 rows met, mean |whole-model error| 7.66 -> 7.49 %, mean per-row median 13.19 -> 12.72 %. Its
      // output: a MatMul or Gemm writes over arena bytes, cold as far as the run has evicted them since they
      // were last touched (CpuRunReuse::evictedOutputBytes; larger than the own cache, the far tier prices
      // them), not the run's cold share of them (a transformer's products write over bytes a node or two
      // before touched: 296 stored rows re-simulated, the mean per-row median 14.96 -> 14.46 %; a Swin
      // block's QKV product, 196 KB in, 590 KB out: 94 us measured, 125 simulated before, 115 now, session
      // 40); a pointwise Conv's the same (above). A Conv on oneDNN's layout writes into its staging buffer
      // and reorders from it: the run's share.
      const double coldOut =
          (product || plainProduct) && reuse && ownCache > 0 && mi < reuse->evictedOutputBytes.size()
              ? reuse->evictedOutputBytes[mi]
              : (1 - passesFar) * coldShare * out;
      // Its weights: by distance (byDistance), their reads are bounded by their stream (weightStreamS, below);
      // without it, the run's cold share of each weight at the cold rate.
      const double weightColdS =
          byDistance ? 0.0 : std::max(0.0, coldShare * weights / hw.cpu.coldBandwidth - overlapS);
      coldS = (coldIn + coldOut) / hw.cpu.coldBandwidth + weightColdS;
    }
    // An op's fixed cost a call (dispatch, its output's allocation) is spent before its loop starts:
    // it overlaps neither its arithmetic nor its memory traffic.
    // An activation the run has evicted from the core's own cache since it was last touched (a residual
    // Add's block input) streams in from beyond it: its bytes at the cold rate on top of the op's in-cache
    // time (zoo BERT's residual Adds over 2 x 393 KB: 46-61 us measured, 22 simulated from the cache, 45
    // with it). (Charging only what the cold rate exceeds the cache's, or only ops whose data fit the own
    // cache, met 40 of 68 rows of session 28's run where this met 41.) Such an input is no further than the
    // last-level cache (beyond it the far tier prices it, below): since session 36 its bytes take what the
    // copy takes more a byte at a footprint between the own cache and the last-level cache (their
    // geometric mean) than at the op's own, not the rate from DRAM. (Today's executor runs those BERT Adds
    // in 25-31 us, 3-8 more than the same Add of two inputs from cache, where the rate from DRAM charged
    // 23 more; re-simulating the 188 stored rows, the mean per-row median went from 16.2 to 15.7 %.)
    // An output written over arena bytes evicted that far (CpuRunReuse::evictedOutputBytes) pays the same
    // on its bytes (a TCN's causal Slice after its Conv: 42 us measured, 25 simulated).
    // Since session 71 an input's bytes take the copy's rate at the footprint of their distance since last
    // touched (CpuRunReuse::farInputSPerByte) in place of that geometric mean's: past the last-level cache,
    // the rate from DRAM (an EfficientNet's residual Adds over 2 x 90-250 KB, their block's input written
    // several MB before on a VM whose last-level cache was 2.5 MiB: a median 0.51 of their time simulated
    // over held-out sets 89 and 90 at that cache's rate). Just past the own cache that rate is less than the
    // geometric mean's; floored at it, the 132 stored rows of sets 85-91 re-simulated alike (102 met, mean
    // |whole| 8.10 %, mean median 13.68 %; 23 kernels moved, Concats further over, Adds less under): no
    // floor.
    double farS = 0;
    const double farInBytes = reuse && mi < reuse->farInputBytes.size() ? reuse->farInputBytes[mi] : 0.0;
    const double farBytesIn = farInBytes + (reuse && mi < reuse->evictedOutputBytes.size() && !libraryCall
                                                ? reuse->evictedOutputBytes[mi]
                                                : 0.0);
    if (!shaped && farBytesIn > 0 && hw.cpu.coldBandwidth > 0) {
      farS = farBytesIn / hw.cpu.coldBandwidth;
      if (ownCache > 0 && llc > ownCache) {
        const double tierBw = hw.cpu.cacheBandwidthFor(std::sqrt(ownCache * llc));
        const double nearBw = cached > 0 ? hw.cpu.cacheBandwidthFor(std::min(cached, llc)) : 0.0;
        const double inPerByte =
            reuse && mi < reuse->farInputSPerByte.size() && reuse->farInputSPerByte[mi] > 0
                ? reuse->farInputSPerByte[mi]
            : tierBw > 0 ? 1.0 / tierBw
                         : 0.0;
        if (tierBw > 0 && nearBw > 0)
          farS = farInBytes * std::max(0.0, inPerByte - 1.0 / nearBw) +
                 (farBytesIn - farInBytes) * std::max(0.0, 1.0 / tierBw - 1.0 / nearBw);
      }
    }
    // A Gather's picks from a model's table (an embedding) whose rows the run's other data have sent to
    // DRAM (cpu.cold_gather): each row its misses, each byte its transfer, beyond their time from cache.
    // A run whose footprint exceeds the last-level cache twice over passes all of it through that cache
    // between two runs, and the rows picked a run ago have left (zoo BERT's word embedding, 128 rows of
    // 3 KiB: 82 us measured in the run, 33 simulated from cache alone, 105 with this). A run that fits the
    // cache finds them there (a two-tower model's 0.2 ms run, 256 rows of 128 B from a 2.6 MB table:
    // 3.6 us measured, 12.6 simulated when a table larger than the core's own cache paid in full, 3.2 now).
    // In between, a linear share (a text CNN's 1024 rows of 512 B: 132 us measured, 29 from cache, 91 with
    // it; 68 when the share was the footprint's beyond the cache, session 30).
    // Only a row's first pick misses: the rows picked more than once (gatherDistinctRows) are in cache
    // from the first (BiDAF's character embedding, 100 rows of 64 B picked 9216 times: 26 us measured,
    // 148 simulated with every pick a miss).
    // A profile with cold_gather's far figures takes them at the table's distance (CpuRunReuse::
    // gatherDistance), interpolated in log distance from the near ones (a PTB-style language model's 140
    // words of 2.6 KB from a 26 MB embedding, 80 MB apart: 62-68 us measured, 27 simulated at the near
    // figures; session 59).
    double gatherColdS = 0;
    if (coldGatherPriced) {
      const double picks = static_cast<double>(rowWiseRows(g, n)), distinct = gatherDistinctRows(g, n);
      const double missed = distinct > 0 && picks > 0 ? std::min(picks, distinct) : picks;
      const double distance = reuse && mi < reuse->gatherDistance.size() ? reuse->gatherDistance[mi] : 0.0;
      // From further away, a row narrower than a cache line misses once a line: the far figures' rows are at
      // most the table's lines (a hash-grid NeRF's 524288 picks of 8 B from a 1 MiB table: 653-774 us
      // measured, 1644 simulated with each distinct row a far miss, 779 so).
      double farRows = missed;
      if (picks > 0 && picked / picks < kCacheLine) {
        FW_ASSIGN_OR_RETURN(const double tableBytes, deviceBytes(g, n.inputs[0], hw, m));
        farRows = std::min(missed, tableBytes / kCacheLine);
      }
      gatherColdS = (llc > 0 ? std::clamp((runFootprint - llc) / llc, 0.0, 1.0) : 1.0) *
                    hw.cpu.coldGather.secondsAt(missed, picks > 0 ? picked * missed / picks : picked,
                                                distance, farRows);
    }
    if (coldPickedBytes > 0)
      gatherColdS = hw.cpu.coldGather.seconds(coldPickedBytes / kCacheLine, coldPickedBytes);
    // Its activations' bytes from beyond the last-level cache (cpu.far_curve, CpuRunReuse::farBytes) cost
    // the measured extra a byte on top of the rest: the calibration timed them as what an op took more
    // than alone, whatever bound it alone.
    const bool product = n.opType == "MatMul" || n.opType == "Gemm";
    const bool takesTurns = shaped && byDistance && product && !hw.cpu.productStream.empty() &&
                            weightStreamS > 0 && outputRows(g, n) > 1 && wi < reuse->weightStreamNearS.size();
    // A product whose arithmetic and weight stream take turns pays its weight's far bytes for the share of
    // the stream's time in its arithmetic's (at most all): while the arithmetic is longer, the far reads
    // go under it. ViT-B/32 at batch 2, its 9.4 MB MLP weights a run of 350 MB apart, 100 rows: [2, 50,
    // 768] x [768, 3072] 2.41 ms alone, 2.69-2.75 in the network, 3.49-3.51 simulated with the weight's
    // far tier in full, 2.96-2.97 so, 2.78-2.79 without it; ConvNeXt-Tiny's last stage at batch 2 and 128,
    // 32 rows over such a weight, 1.32-1.38 ms, 1.37-1.38 in full, 1.15 so, 1.01-1.02 without; its
    // classifier (2 rows over 3.1 MB) 0.22 ms, 0.24 in full and so, 0.12 without (session 76).
    const double weightFar =
        takesTurns && mi < reuse->weightFarBytes.size() ? reuse->weightFarBytes[mi] : 0.0;
    const double farPerByte = hw.cpu.farSecondsPerByte(fam == OpFamily::Cube);
    double farTierS =
        reuse && mi < reuse->farBytes.size()
            ? (reuse->farBytes[mi] - weightFar) * farPerByte +
                  weightFar * farPerByte * (compS > 0 ? std::min(1.0, weightStreamS / compS) : 1.0)
            : 0.0;
    // A pointwise Conv's activations beyond the last-level cache's bytes, whatever their distance: its
    // product an image reads and writes them as strided rows from and to DRAM (far_s_per_byte "pointwise";
    // one figure for the same bytes as the far tier's, the larger). Session 66, one node alone over 16 images
    // at 56x56, where the far tier charged nothing (one calibration, 16.8 MiB of last-level cache, 0.034 ns
    // a byte): 128 -> 16 2078 us measured, 1617 simulated without it, 2001 with it; 64 -> 64 2808, 2596,
    // 2871.
    if (imageProducts && llc > 0)
      farTierS = std::max(farTierS, std::max(0.0, actIn + out - llc) * hw.cpu.farPointwiseSecondsPerByte());
    // A product of several rows whose weight streams in (byDistance): its arithmetic and its weight's stream
    // up to the furthest distance cpu.product_stream_share(_far) was measured at take turns in part (the
    // share of the shorter the longer does not hide, by rows and by its weight's distance); what the stream
    // takes more from further away no arithmetic hides. ConvNeXt-base's last stage at 128x128, 16 rows over a
    // 16 MiB weight whose stream from 350 MB away takes 1.2 ms: 1.7-1.85 ms measured, 1.25 simulated as the
    // longer alone, 1.64 with the near share (session 57; its -O0 and -O2 rows -21 and -24 % -> -7 and -11
    // %). A product of one row is its stream (above).
    const double nearStreamS = takesTurns ? std::min(reuse->weightStreamNearS[wi], weightStreamS) : 0.0;
    const double productStreamS = takesTurns
                                      ? weightStreamS - nearStreamS +
                                            hw.cpu.productStreamShareAt(static_cast<double>(outputRows(g, n)),
                                                                        reuse->weightStreamDistance[wi]) *
                                                std::min(compS, nearStreamS)
                                      : 0.0;
    const double memberS =
        reorderS +
        // A weight's read takes at least its stream at its distance (a product of few rows is bound by it: a
        // [2, 512] x [512, 2048]^T Gemm's 4.2 MB weight, 52 us alone, 82 with 42 MB of other weights between
        // its reads, session 55's AMD EPYC; the shape model timed the weight a node away and the run's cold
        // share charged it from DRAM in full: 106 and 123 simulated. Session 56's Xeon, a GRU decoder's 1.6
        // MB cell weight read with 7 MB between its reads: 58 us measured, 93 simulated with its bytes
        // evicted from the own cache at the cold rate on top of the shape model, 54 by its stream).
        (shaped
             ? coldCallS +
                   std::max({compS + coldS, memS,
                             imageStream  ? 0.0
                             : takesTurns ? nearStreamS
                                          : weightStreamS}) +
                   productStreamS + imageStreamFarS
             : fixedS + std::max({compS - fixedS + streamStallS, memS, weightStreamS}) + farS + gatherColdS) +
        farTierS;
    bodyS += memberS;
    (std::max(memS, weightStreamS) >= compS ? memBoundS : compBoundS) += memberS;
  }
  t.origins = group.origins.empty() ? t.nodes : group.origins;
  t.unit = anyCube && anyVector ? Unit::CubeVector : anyCube ? Unit::Cube : anyVector ? Unit::Vector : Unit::None;
  // The executor runs a view too (HwProfile.h: view_call_s): views alone are a step on the host, no
  // kernel; in a fused kernel they add to its body, as does the call of that body (fused_call_s).
  const double viewS = static_cast<double>(views) * hw.cpu.viewCallS + viewColdS +
                       (group.members.size() >= 2 ? hw.cpu.fusedCallS : 0.0);
  if (t.unit == Unit::None) {
    if (viewS > 0) {
      t.bound = Bound::Host;
      t.cycles = hw.usToCycles(viewS * 1e6);
    }
    return kc;
  }
  bodyS += viewS;

  auto sumBytes = [&](const std::vector<ValueId>& vs, double& sum) -> Status {
    for (ValueId v : vs) {
      const NodeId p = g.value(v).producer;
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, p != kNoId ? p : group.members.front()));
      sum += b;
    }
    return {};
  };
  FW_TRY_STATUS(sumBytes(kc.boundary.inputs, t.inputBytes));
  FW_TRY_STATUS(sumBytes(kc.boundary.weights, t.weightBytes));
  FW_TRY_STATUS(sumBytes(kc.boundary.outputs, t.outputBytes));

  auto cycles = [&](double s) { return static_cast<int64_t>(std::ceil(s * hw.clockHz - 1e-9)); };
  t.cubeCycles = cycles(cubeS);
  t.vectorCycles = cycles(vectorS);
  t.transferCycles = cycles(memoryS);
  t.launchCycles = hw.usToCycles(hw.launchUs) * running;
  const int64_t body = cycles(bodyS);
  t.fillCycles = 0;
  t.tilesPerCore = 1;
  t.cycles = body + t.launchCycles;
  if (t.launchCycles > body)
    t.bound = Bound::Launch;
  else if (memBoundS >= compBoundS)
    t.bound = Bound::Memory;
  else
    t.bound = Bound::Compute;
  return kc;
}

}  // namespace fw::sim
