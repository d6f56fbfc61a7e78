#include "simulator/HostCalibration.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "core/shape/ShapeResolve.h"
#include "core/zoo/ZooBuilder.h"
#include "simulator/CpuCost.h"
#include "simulator/CpuCubeModel.h"
#include "simulator/HostBench.h"
#include "simulator/HostOpCases.h"
#include "simulator/NonNegFit.h"
#include "simulator/OpFamily.h"

namespace fw::sim {

using namespace hostbench;

namespace {

using Clock = std::chrono::steady_clock;

// Source and destination buffers of a copy, one pair a thread.
struct CopyBuffers {
  std::vector<std::vector<char>> src, dst;
  CopyBuffers(size_t per, int threads)
      : src(static_cast<size_t>(threads)), dst(static_cast<size_t>(threads)) {
    for (int t = 0; t < threads; ++t) {
      src[static_cast<size_t>(t)].assign(per, static_cast<char>(t + 1));
      dst[static_cast<size_t>(t)].assign(per, 0);
    }
  }
};

// The copy bandwidth over `buffers`: the best of `samples` timings of ~8 ms each.
double copyBandwidthOf(CopyBuffers& buffers, int threads, int samples) {
  auto& src = buffers.src;
  auto& dst = buffers.dst;
  const size_t per = src[0].size();
  auto copyAll = [&](int reps) {
    auto work = [&](int t) {
      for (int r = 0; r < reps; ++r) {
        std::memcpy(dst[static_cast<size_t>(t)].data(), src[static_cast<size_t>(t)].data(), per);
        src[static_cast<size_t>(t)][static_cast<size_t>(r) % per] ^= 1;  // keep the copies from being merged
      }
    };
    if (threads == 1) {
      work(0);
      return;
    }
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) ts.emplace_back(work, t);
    for (auto& t : ts) t.join();
  };
  copyAll(1);
  // Copies per sample from one copy on this thread (timing copyAll(1) would time the thread starts):
  // enough for ~8 ms, so starting the threads costs a few percent at most.
  double one = 1e9;
  for (int k = 0; k < 3; ++k) {
    const auto t0 = Clock::now();
    std::memcpy(dst[0].data(), src[0].data(), per);
    one = std::min(one, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  const int reps = std::max(1, static_cast<int>(0.008 / std::max(one, 1e-8)));
  std::vector<double> bw;
  for (int s = 0; s < samples; ++s) {
    const auto a = Clock::now();
    copyAll(reps);
    const double sec = std::chrono::duration<double>(Clock::now() - a).count();
    bw.push_back(2.0 * static_cast<double>(per) * threads * reps / sec);
  }
  // Best of the samples, as STREAM reports: another process on the machine only ever slows a sample.
  return *std::max_element(bw.begin(), bw.end());
}

// The copy bandwidth of `bytes`-sized buffers. Where the footprint is near a cache's size the figure
// moves: 1 MiB footprints in a 1 MiB L2 ran 82-251 GB/s from one calibration to the next (mostly the
// shared machine's state), and within one run an odd allocation stood apart (213 GB/s against 167-181
// for the pairs after it). Up to 8 MiB buffers: the median over seven pairs allocated side by side (a
// pair freed and allocated again lands where it was), each the best of five samples; larger buffers, one
// pair, the best of seven.
double copyBandwidth(size_t bytes, int threads) {
  const size_t per = std::max<size_t>(bytes / static_cast<size_t>(threads) / 64 * 64, 64);
  if (bytes > (size_t{8} << 20)) {
    CopyBuffers one(per, threads);
    return copyBandwidthOf(one, threads, 7);
  }
  std::vector<CopyBuffers> pairs;
  for (int a = 0; a < 7; ++a) pairs.emplace_back(per, threads);
  std::vector<double> bw;
  for (auto& pair : pairs) bw.push_back(copyBandwidthOf(pair, threads, 5));
  return median(bw);
}

// The streaming-copy bandwidths by buffer size as cpu.bandwidth_curve holds them: by footprint (source +
// destination, 2x the buffer).
std::vector<std::pair<double, double>> footprintCurve(const std::vector<std::pair<size_t, double>>& copy) {
  std::vector<std::pair<double, double>> curve;
  for (const auto& [bytes, bw] : copy) curve.push_back({2.0 * static_cast<double>(bytes), bw});
  return curve;
}

// x[elems] through n nodes of `op`, one tensor into the next; an Add takes a constant of x's shape as
// its second input, the shared one or each its own.
Bench chainOf(const std::string& op, int n, int64_t elems, bool ownConstants = false) {
  fw::Graph g;
  g.name = "calibrate_" + op + "_chain";
  Bench b;
  const bool binary = op == "Add";
  fw::ValueId cur = g.addInput("x", fw::DType::Float32, fw::Shape::ofInts({elems}));
  const fw::Tensor c = filled({elems}, 0.5f);
  const fw::ValueId shared = binary && !ownConstants ? g.addInitializer("c", c) : fw::kNoId;
  for (int i = 0; i < n; ++i) {
    const std::string tag = std::to_string(i);
    std::vector<fw::ValueId> in = {cur};
    if (binary) in.push_back(ownConstants ? g.addInitializer("c" + tag, c) : shared);
    const fw::ValueId y = g.addValue("v" + tag, fw::DType::Float32, fw::Shape::ofInts({elems}));
    g.addNode(op, in, {y}, {}, "n" + tag);
    cur = y;
  }
  g.addOutput(cur);
  b.inputs = {filled({elems}, 1.0f)};
  b.node = 0;
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:chain";
  return b;
}

// Three rounds of: `cold` (groups of `coldEvery` nodes: an evicting op, then the ops; its timed nodes are
// those from position `coldFrom` of each group) and `hot` (the same ops in a row, groups of `hotEvery`,
// timed from `hotFrom`), each the median node time of its timed nodes. Returns the medians over the
// rounds, {cold us, hot us}.
fw::Result<std::pair<double, double>> coldAndHot(const Bench& cold, const Bench& hot, int threads, int warmup,
                                                 int repeat, size_t coldEvery = 2, size_t coldFrom = 1,
                                                 size_t hotEvery = 1, size_t hotFrom = 0) {
  std::vector<double> coldUs, hotUs;
  auto timedOf = [](const std::vector<double>& t, size_t every, size_t from) {
    std::vector<double> timed;
    for (size_t k = 0; k < t.size(); ++k)
      if (k % every >= from) timed.push_back(t[k]);
    return timed;
  };
  for (int round = 0; round < 3; ++round) {
    FW_ASSIGN_OR_RETURN(std::vector<double> c, timeNodes(cold, threads, warmup, std::max(3, repeat / 3)));
    FW_ASSIGN_OR_RETURN(std::vector<double> h, timeNodes(hot, threads, warmup, std::max(3, repeat / 3)));
    coldUs.push_back(median(timedOf(c, coldEvery, coldFrom)));
    hotUs.push_back(median(timedOf(h, hotEvery, hotFrom)));
  }
  return std::pair<double, double>{median(coldUs), median(hotUs)};
}

// `chains` PyTorch-style shape chains over x [8, 64] (Shape, Gather of dim 1, Add 1, Div 2, Mul 2: a chunk's
// size), each after a Neg over `evictElems` floats when that is not 0. Its timed nodes: the chains' four
// integer ops (`shapeNodes`).
Bench shapeChains(int chains, int64_t evictElems, std::vector<size_t>& shapeNodes) {
  fw::Graph g;
  g.name = "calibrate_shape_chains";
  Bench b;
  const fw::ValueId x = g.addInput("x", fw::DType::Float32, fw::Shape::ofInts({8, 64}));
  b.inputs = {filled({8, 64}, 1.0f)};
  const fw::ValueId idx = g.addInitializer("idx", fw::Tensor::int64s({}, {1}));
  const fw::ValueId one = g.addInitializer("one", fw::Tensor::int64s({}, {1}));
  const fw::ValueId two = g.addInitializer("two", fw::Tensor::int64s({}, {2}));
  fw::ValueId big = fw::kNoId;
  if (evictElems > 0) {
    big = g.addInput("big", fw::DType::Float32, fw::Shape::ofInts({evictElems}));
    b.inputs.push_back(filled({evictElems}, 1.0f));
  }
  shapeNodes.clear();
  auto node = [&](const std::string& op, std::vector<fw::ValueId> in, fw::DType dt, fw::Attributes a = {}) {
    const fw::ValueId y = g.addValue(op + std::to_string(g.nodes().size()), dt);
    g.addNode(op, std::move(in), {y}, std::move(a), "n" + std::to_string(g.nodes().size()));
    return y;
  };
  for (int i = 0; i < chains; ++i) {
    if (big != fw::kNoId) big = node("Neg", {big}, fw::DType::Float32);
    const fw::ValueId shape = node("Shape", {x}, fw::DType::Int64);
    shapeNodes.push_back(g.nodes().size());
    const fw::ValueId dim =
        node("Gather", {shape, idx}, fw::DType::Int64, fw::zoo::attrs({fw::Attribute::makeInt("axis", 0)}));
    shapeNodes.push_back(g.nodes().size());
    const fw::ValueId plus = node("Add", {dim, one}, fw::DType::Int64);
    shapeNodes.push_back(g.nodes().size());
    const fw::ValueId half = node("Div", {plus, two}, fw::DType::Int64);
    shapeNodes.push_back(g.nodes().size());
    g.addOutput(node("Mul", {half, two}, fw::DType::Int64));
  }
  if (big != fw::kNoId) g.addOutput(big);
  b.node = static_cast<fw::NodeId>(shapeNodes.empty() ? 0 : shapeNodes.front());
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:shape_chains";
  return b;
}

// `pairs` times: a tiny Neg on s [64, 8], then `op` on its output (with `weights` as initializers, `attrs`),
// each pair after a Neg over `evictElems` floats when that is not 0 (the evicting Negs a chain of their
// own). The op's input is the value the node before just wrote, as in a network; its time is every
// third node's (after a Neg) or every second's.
Bench loopChains(const std::string& op, const std::vector<fw::Tensor>& weights, const fw::Attributes& attrs,
                 int pairs, int64_t evictElems) {
  fw::Graph g;
  g.name = "calibrate_loop_chains";
  Bench b;
  const fw::ValueId s = g.addInput("s", fw::DType::Float32, fw::Shape::ofInts({64, 8}));
  b.inputs = {filled({64, 8}, 1.0f)};
  fw::ValueId big = fw::kNoId;
  if (evictElems > 0) {
    big = g.addInput("big", fw::DType::Float32, fw::Shape::ofInts({evictElems}));
    b.inputs.push_back(filled({evictElems}, 1.0f));
  }
  std::vector<fw::ValueId> w;
  for (size_t k = 0; k < weights.size(); ++k)
    w.push_back(g.addInitializer("w" + std::to_string(k), weights[k]));
  auto node = [&](const std::string& type, std::vector<fw::ValueId> in, fw::Attributes a = {}) {
    const fw::ValueId y = g.addValue(type + std::to_string(g.nodes().size()), fw::DType::Float32);
    g.addNode(type, std::move(in), {y}, std::move(a), "n" + std::to_string(g.nodes().size()));
    return y;
  };
  for (int i = 0; i < pairs; ++i) {
    if (big != fw::kNoId) big = node("Neg", {big});
    std::vector<fw::ValueId> in = {node("Neg", {s})};
    in.insert(in.end(), w.begin(), w.end());
    g.addOutput(node(op, in, attrs));
  }
  if (big != fw::kNoId) g.addOutput(big);
  b.node = 1;
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:loop_chains";
  return b;
}

// The tiny ops that time a cold call (cpu.cold_call_s, cold_call_curve): a one-element Add and a 4x16 by 16x4
// MatMul.
Bench tinyAdd() { return oneOp("Add", {1}, {fw::Tensor::floats({1}, {1.0f})}, {}, 1); }
Bench tinyProduct() { return oneOp("MatMul", {4, 16}, {filled({16, 4}, 0.25f)}, {}, 1); }

// `tiny`'s median node time after each of `pairs` copies of `evict`, and in a row (coldAndHot).
fw::Result<std::pair<double, double>> afterEvictions(const Bench& evict, const Bench& tiny, int pairs,
                                                     int threads, int warmup, int repeat) {
  std::vector<Bench> coldParts, hotParts;
  for (int i = 0; i < pairs; ++i) {
    coldParts.insert(coldParts.end(), {evict, tiny});
    hotParts.push_back(tiny);
  }
  return coldAndHot(sequenceOf(coldParts), sequenceOf(hotParts), threads, warmup, repeat);
}

// The ops on [64, 8] whose own loop cold_call_s "code/<op type>" times (loopChains: each after a tiny Neg
// whose output it reads): binary, unary, reductions, a softmax, a transpose.
using LoopOp = std::tuple<const char*, std::vector<fw::Tensor>, fw::Attributes>;
const std::vector<LoopOp>& coldLoopOps() {
  static const std::vector<LoopOp> ops = [] {
    const fw::Tensor row = filled({8}, 1.0f);
    const fw::Attributes lastAxis =
        fw::zoo::attrs({fw::Attribute::makeInts("axes", {-1}), fw::Attribute::makeInt("keepdims", 1)});
    const fw::Tensor two = fw::Tensor::floats({}, {2.0f});
    return std::vector<LoopOp>{{"Add", {row}, {}},
                               {"Sub", {row}, {}},
                               {"Mul", {row}, {}},
                               {"Div", {row}, {}},
                               {"Pow", {two}, {}},
                               {"Sqrt", {}, {}},
                               {"Relu", {}, {}},
                               {"Reciprocal", {}, {}},
                               {"Sigmoid", {}, {}},
                               {"Tanh", {}, {}},
                               {"Erf", {}, {}},
                               {"Exp", {}, {}},
                               {"ReduceMean", {}, lastAxis},
                               {"ReduceMax", {}, lastAxis},
                               {"Softmax", {}, fw::zoo::attrs({fw::Attribute::makeInt("axis", -1)})},
                               {"Transpose", {}, fw::zoo::attrs({fw::Attribute::makeInts("perm", {1, 0})})}};
  }();
  return ops;
}

// A tiny Neg on s [64, 8], then a chain of `adds` Adds on [64, 8] (each adding a row to the Add before it),
// after a Neg over `evictElems` floats when that is not 0: the Adds from the third on find their loop and
// the node before them just run, and only their own node (its tensors, its slot, its bookkeeping) as far as
// the run streams (cold_call_curve "node"). With `reduced`, the big Neg's output is read by a ReduceMax and
// only its one element is a graph output (no copy of it out of the run: cold_call_curve "outside").
constexpr int kNodeChainAdds = 8;
constexpr int kOutsideLongAdds = 72;  // the longer chain of cold_call_curve "outside"
Bench nodeChain(int64_t evictElems, int adds = kNodeChainAdds, bool reduced = false) {
  fw::Graph g;
  g.name = "calibrate_node_chain";
  Bench b;
  const fw::ValueId s = g.addInput("s", fw::DType::Float32, fw::Shape::ofInts({64, 8}));
  b.inputs = {filled({64, 8}, 1.0f)};
  auto node = [&](const std::string& type, std::vector<fw::ValueId> in) {
    const fw::ValueId y = g.addValue(type + std::to_string(g.nodes().size()), fw::DType::Float32);
    g.addNode(type, std::move(in), {y}, {}, "n" + std::to_string(g.nodes().size()));
    return y;
  };
  if (evictElems > 0) {
    const fw::ValueId big = g.addInput("big", fw::DType::Float32, fw::Shape::ofInts({evictElems}));
    b.inputs.push_back(filled({evictElems}, 1.0f));
    const fw::ValueId negated = node("Neg", {big});
    if (reduced) {
      const fw::ValueId y = g.addValue("max", fw::DType::Float32);
      g.addNode("ReduceMax", {negated}, {y}, fw::zoo::attrs({fw::Attribute::makeInt("keepdims", 0)}), "max");
      g.addOutput(y);
    } else {
      g.addOutput(negated);
    }
  }
  const fw::ValueId row = g.addInitializer("row", filled({8}, 1.0f));
  fw::ValueId cur = node("Neg", {s});
  for (int k = 0; k < adds; ++k) cur = node("Add", {cur, row});
  g.addOutput(cur);
  b.node = 0;
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:node_chain";
  return b;
}

// What a call costs more when the run's traffic since the op last ran has evicted its code and data from
// the core's own cache (HwProfile.h: cold_call_s): a tiny op (a one-element Add; a 4x16 by 16x4 MatMul,
// the library's product) after each of 12 Negs over twice the own cache's bytes, against the same 12
// tiny ops in a row, the medians of their node times over 3 rounds; a vector op whose own loop alone is
// cold ("code/<op type>", and their median "code"): what each of 16 ops on [64, 8] (binary, unary,
// reductions, a softmax, a transpose) takes more
// after each such Neg and a tiny Neg whose output it reads (loopChains: the tiny Neg brings the executor's
// state back) than after the tiny Neg alone, again and again; and a shape chain's integer ops
// (shapeChains), the mean of their node times in 12 chains each after such a Neg, less the same in 12
// chains in a row, the median of 3 rounds; and the tiny MatMul's own primitive alone cold
// ("product/primitive"): the MatMul after each such Neg and a MatMul of other shapes (4x16x8, 64x64x64),
// which brings the library's shared product code back, less the MatMul in a row, the mean of the two.
struct ColdCalls {
  double vectorUs = 0, productUs = 0, primitiveUs = 0, codeUs = 0, shapeUs = 0;
  std::map<std::string, double> codeByOpUs;
  std::string how;
};
fw::Result<ColdCalls> measureColdCalls(int threads, int repeat, double ownCacheBytes) {
  constexpr int kPairs = 12;
  ColdCalls out;
  const int64_t bigElems = coldCallEvictElems(ownCacheBytes);
  const Bench evict = oneOp("Neg", {bigElems}, {}, {}, 1);
  const Bench add = tinyAdd(), product = tinyProduct();
  std::string line;
  for (const Bench* tiny : {&add, &product}) {
    FW_ASSIGN_OR_RETURN(const auto times, afterEvictions(evict, *tiny, kPairs, threads, 3, repeat));
    const auto [coldMed, hotMed] = times;
    (tiny == &add ? out.vectorUs : out.productUs) = std::max(0.0, coldMed - hotMed);
    line += (line.empty() ? "" : "; ") + std::string(tiny == &add ? "Add of 1 element " : "MatMul 4x16x4 ") +
            fmt("%.2f", coldMed) + " us after the Neg, " + fmt("%.2f", hotMed) + " us in a row";
  }
  {
    // The same MatMul after the Neg and a product of other shapes: the library's code every product shares
    // (its dispatch, the executor's product path) is back in cache, the MatMul's own primitive (its
    // kernel, descriptor, packed weight) is not.
    std::vector<double> extra;
    std::string each;
    for (const auto& [xd, wd] :
         {std::pair<std::vector<int64_t>, std::vector<int64_t>>{{4, 16}, {16, 8}}, {{64, 64}, {64, 64}}}) {
      const Bench other = oneOp("MatMul", xd, {filled(wd, 0.25f)}, {}, 1);
      std::vector<Bench> coldParts, hotParts;
      for (int i = 0; i < kPairs; ++i) {
        coldParts.insert(coldParts.end(), {evict, other, product});
        hotParts.push_back(product);
      }
      FW_ASSIGN_OR_RETURN(const auto times,
                          coldAndHot(sequenceOf(coldParts), sequenceOf(hotParts), threads, 3, repeat, 3, 2));
      extra.push_back(std::max(0.0, times.first - times.second));
      each += (each.empty() ? "" : ", ") + std::to_string(xd[0]) + "x" + std::to_string(xd[1]) + "x" +
              std::to_string(wd[1]) + " " + fmt("%.2f", times.first);
    }
    out.primitiveUs = (extra[0] + extra[1]) / 2;
    line += "; its primitive alone (the MatMul after the Neg and a MatMul of other shapes): " + each +
            " us, " + fmt("%.2f", out.primitiveUs) + " more on average";
  }
  {
    // The tiny Neg after the evicting one brings the executor's state back and leaves every other op's
    // loop cold (its own is the evicting Neg's); the op reads what the tiny Neg wrote.
    std::vector<double> extra;
    std::string each;
    for (const auto& [name, weights, attrs] : coldLoopOps()) {
      FW_ASSIGN_OR_RETURN(const auto times, coldAndHot(loopChains(name, weights, attrs, kPairs, bigElems),
                                                       loopChains(name, weights, attrs, kPairs, 0), threads,
                                                       3, repeat, 3, 2, 2, 1));
      extra.push_back(std::max(0.0, times.first - times.second));
      out.codeByOpUs[name] = extra.back();
      each += (each.empty() ? "" : ", ") + std::string(name) + " " + fmt("%.2f", extra.back());
    }
    out.codeUs = median(extra);
    line +=
        "; its loop alone (an op on [64, 8] after the Neg and a tiny Neg whose output it reads, less the "
        "same in a row): " +
        each + " us more, median " + fmt("%.2f", out.codeUs);
  }
  std::vector<size_t> coldNodes, hotNodes;
  const Bench coldChains = shapeChains(kPairs, bigElems, coldNodes);
  const Bench hotChains = shapeChains(kPairs, 0, hotNodes);
  auto meanOf = [](const std::vector<double>& t, const std::vector<size_t>& at) {
    double sum = 0;
    for (size_t k : at) sum += k < t.size() ? t[k] : 0.0;
    return at.empty() ? 0.0 : sum / static_cast<double>(at.size());
  };
  std::vector<double> coldUs, hotUs;
  for (int round = 0; round < 3; ++round) {
    FW_ASSIGN_OR_RETURN(const std::vector<double> c,
                        timeNodes(coldChains, threads, 3, std::max(3, repeat / 3)));
    FW_ASSIGN_OR_RETURN(const std::vector<double> h,
                        timeNodes(hotChains, threads, 3, std::max(3, repeat / 3)));
    coldUs.push_back(meanOf(c, coldNodes));
    hotUs.push_back(meanOf(h, hotNodes));
  }
  out.shapeUs = std::max(0.0, median(coldUs) - median(hotUs));
  line += "; a shape chain's Gather, Add, Div and Mul on int64 " + fmt("%.2f", median(coldUs)) +
          " us a node after the Neg, " + fmt("%.2f", median(hotUs)) + " in a row";
  out.how = "after a Neg over " + bytesStr(4.0 * static_cast<double>(bigElems)) + ": " + line;
  return out;
}

// A cold call by distance (HwProfile.h: cold_call_curve): the one-element Add and the 4x16x4 MatMul of
// measureColdCalls each after each of 3 Negs whose input and output together are B bytes (B = 2 to 64
// MiB, while 3 such Negs fit an eighth of the memory), against the same 3 in a row (coldAndHot: medians of
// 3 rounds); and an op's own loop alone that far ("code"): the median over three of coldLoopOps (Add,
// ReduceMean, Transpose) of what each takes more after each such Neg and a tiny Neg whose output
// it reads than after the tiny Neg alone; and a node alone that far ("node"): the third to last Adds of a
// chain of Adds after one Neg of B bytes a run (nodeChain), less the same chain in a row; and the executor's
// time outside a node that far ("outside"): the run's time outside its nodes with 72 such Adds less with 8,
// a node (session 81, the AMD EPYC VM: 0.074 us at 2 MiB, 0.26 at 64; session 80's 0.94 at 64, from chains of
// 8 and 32 Adds timed once, did not hold up); each figure the running maximum over B (a call farther away
// costs no less).
struct ColdCurve {
  std::vector<CpuFigures::ColdCallPoint> points;
  std::string how;
};
fw::Result<ColdCurve> measureColdCallCurve(int threads, int repeat, double memBytes) {
  constexpr int kPairs = 3;
  const Bench add = tinyAdd(), product = tinyProduct();
  ColdCurve out;
  double vectorUs = 0, productUs = 0, codeUs = 0, nodeUs = 0, outsideUs = 0;
  for (const int64_t mib : {2, 4, 8, 16, 32, 64}) {
    // Each Neg's input, its copy and its output: half the footprint each.
    if (memBytes > 0 && 1.5 * kPairs * static_cast<double>(mib << 20) > memBytes / 8) break;
    const Bench evict = oneOp("Neg", {mib << 17}, {}, {}, 1);
    CpuFigures::ColdCallPoint pt;
    pt.bytes = static_cast<double>(mib << 20);
    std::string each;
    for (const Bench* tiny : {&add, &product}) {
      FW_ASSIGN_OR_RETURN(const auto times, afterEvictions(evict, *tiny, kPairs, threads, 1, repeat));
      double& running = tiny == &add ? vectorUs : productUs;
      running = std::max(running, times.first - times.second);
      (tiny == &add ? pt.vectorS : pt.productS) = running * 1e-6;
      each += std::string(each.empty() ? "" : ", ") + (tiny == &add ? "Add " : "MatMul ") +
              fmt("%.2f", times.first) + " us (" + fmt("%.2f", times.second) + " in a row)";
    }
    std::vector<double> loopExtra;
    std::string loops;
    for (const auto& [name, weights, attrs] : coldLoopOps()) {
      const std::string op = name;
      if (op != "Add" && op != "ReduceMean" && op != "Transpose") continue;
      FW_ASSIGN_OR_RETURN(const auto times, coldAndHot(loopChains(op, weights, attrs, kPairs, mib << 17),
                                                       loopChains(op, weights, attrs, kPairs, 0), threads, 1,
                                                       repeat, 3, 2, 2, 1));
      loopExtra.push_back(std::max(0.0, times.first - times.second));
      loops += (loops.empty() ? "" : ", ") + op + " " + fmt("%.2f", loopExtra.back());
    }
    codeUs = std::max(codeUs, median(loopExtra));
    pt.codeS = codeUs * 1e-6;
    each += "; own loop alone " + loops + " us more";
    {
      // One Neg a run, so an Add's node last ran that Neg's bytes (and the chain's few) ago: its third to
      // last Adds, each after an Add of its own type.
      const size_t withNeg = 2 + kNodeChainAdds, without = 1 + kNodeChainAdds;
      FW_ASSIGN_OR_RETURN(const auto times, coldAndHot(nodeChain(mib << 17), nodeChain(0), threads, 1, repeat,
                                                       withNeg, 4, without, 3));
      nodeUs = std::max(nodeUs, std::max(0.0, times.first - times.second));
      pt.nodeS = nodeUs * 1e-6;
      each += "; own node alone (an Add in a chain of Adds) " + fmt("%.2f", times.first) + " us (" +
              fmt("%.2f", times.second) + " in a row)";
    }
    {
      // The executor's time outside a node that far (its plan entry, its releases, its tensors' records):
      // what a run outside its nodes takes more with kOutsideLongAdds Adds in the chain than with
      // kNodeChainAdds, a node, the median of 3 rounds (the big Neg's output reduced in the run, not copied
      // out: the copy's jitter would be larger than the chain's difference).
      std::vector<double> shortUs, longUs;
      for (int round = 0; round < 3; ++round) {
        FW_ASSIGN_OR_RETURN(const double s, timeOutside(nodeChain(mib << 17, kNodeChainAdds, true), threads,
                                                        1, std::max(5, repeat)));
        FW_ASSIGN_OR_RETURN(const double l, timeOutside(nodeChain(mib << 17, kOutsideLongAdds, true), threads,
                                                        1, std::max(5, repeat)));
        shortUs.push_back(s);
        longUs.push_back(l);
      }
      const double perNode = (median(longUs) - median(shortUs)) / (kOutsideLongAdds - kNodeChainAdds);
      outsideUs = std::max(outsideUs, std::max(0.0, perNode));
      pt.outsideS = outsideUs * 1e-6;
      each += "; outside the nodes " + fmt("%.1f", median(shortUs)) + " us with " +
              std::to_string(kNodeChainAdds) + " Adds, " + fmt("%.1f", median(longUs)) + " with " +
              std::to_string(kOutsideLongAdds) + " (" + fmt("%.3f", perNode) + " a node)";
    }
    out.points.push_back(pt);
    out.how += (out.how.empty() ? "" : "; ") + std::to_string(mib) + " MiB: " + each;
  }
  return out;
}

// One run over `parts` (each a node of its own, their weights read in turn), 3 rounds: each round's median
// node time.
fw::Result<std::vector<double>> cycledNodeTimes(const std::vector<Bench>& parts, int threads, int runs,
                                                const char* what) {
  const Bench seq = sequenceOf(parts);
  std::vector<double> us;
  for (int round = 0; round < 3; ++round) {
    FW_ASSIGN_OR_RETURN(const std::vector<double> t, timeNodes(seq, threads, 1, runs));
    if (t.size() != parts.size())
      return fw::Error::internal(std::string("calibrate: the ") + what + " run timed " +
                                 std::to_string(t.size()) + " nodes of " + std::to_string(parts.size()));
    us.push_back(median(t));
  }
  return us;
}

// A model weight streamed by a product of two rows (HwProfile.h: weight_stream_curve): Gemm [2, 512] x
// [512, N]^T alone on weights of 0.5 to 16 MiB (distance: its own bytes), in one run over 8 and 16 copies on
// their own 4 MiB weights (the other copies' weights between two reads of one), and, where 2 GiB fit an
// eighth of the memory, over 8 and 16 copies on 16 MiB weights (128 and 256 MiB apart; a VGG's first fully
// connected layer is 411 MB. Session 58's Xeon VM streamed 16 MiB weights 256 MiB apart at 14.6-16.6 GB/s, a
// calibration and a model's run; session 57 timed one 256 MiB weight alone at 13.4 there: a run's far weights
// are several read in turn more often than one alone); bytes a
// second of each read's median time (the run's median copy) less the per-kernel overhead (`overheadUs`: the
// profile's launch, which the simulator adds on top, as the shape models' fit takes it off), medians of 3
// rounds.
fw::Result<std::vector<std::pair<double, double>>> measureWeightStream(int threads, int repeat, double memBytes,
                                                                       double overheadUs, std::string& how) {
  const auto transB = fw::zoo::attrs({fw::Attribute::makeInt("transB", 1)});
  const int runs = std::max(3, repeat / 3);
  std::vector<std::pair<double, double>> curve;
  auto add = [&](double distance, double weightBytes, const std::vector<double>& us, const std::string& what) {
    const double whole = median(us), t = std::max(whole - overheadUs, 0.05 * whole);
    if (t <= 0) return;
    curve.push_back({distance, weightBytes / (t * 1e-6)});
    how += (how.empty() ? "" : "; ") + what + " " + fmt("%.1f", t) + " us (" +
           fmt("%.1f", weightBytes / (t * 1e-6) / 1e9) + " GB/s)";
  };
  for (int64_t kib : {512, 1024, 2048, 4096, 8192, 16384}) {
    const int64_t n = kib * 1024 / 4 / 512;
    const Bench one = oneOp("Gemm", {2, 512}, {filled({n, 512}, 0.05f)}, transB, 1);
    std::vector<double> us;
    for (int round = 0; round < 3; ++round) {
      FW_ASSIGN_OR_RETURN(const double t, timeNode(one, threads, 2, runs));
      us.push_back(t);
    }
    add(static_cast<double>(kib) * 1024, static_cast<double>(kib) * 1024, us, bytesStr(static_cast<double>(kib) * 1024) + " alone");
  }
  const bool far = memBytes <= 0 || (int64_t{2} << 30) <= memBytes / 8;
  for (const int64_t mib : {int64_t{4}, int64_t{16}}) {
    if (mib > 4 && !far) break;
    for (int copies : {8, 16}) {
      std::vector<Bench> parts;
      for (int c = 0; c < copies; ++c)
        parts.push_back(oneOp(
            "Gemm", {2, 512},
            {filled({mib * 1024 * 1024 / 4 / 512, 512}, 0.05f + 0.001f * static_cast<float>(c))}, transB, 1));
      FW_ASSIGN_OR_RETURN(
          const std::vector<double> us,
          cycledNodeTimes(parts, threads, mib > 4 ? std::min(runs, 3) : runs, "weight-stream"));
      const double w = static_cast<double>(mib) * 1024 * 1024;
      add(static_cast<double>(copies) * w, w, us, std::to_string(copies) + " x " + bytesStr(w) + " cycled");
    }
  }
  return curve;
}

// A product of `rows` rows against its own weight (HwProfile.h: product_stream_share): MatMul [rows, 512] x
// [512, N], the weight a model's (`seed` makes copies differ); N = 2048 (4 MiB) for the near set, 8192 (16
// MiB) for the far one.
constexpr int64_t kProductStreamK = 512;
constexpr int kProductStreamCopies = 16;
int64_t productStreamN(bool far) { return far ? 8192 : 2048; }
Bench productStreamProbe(int64_t rows, bool far, float seed) {
  return oneOp("MatMul", {rows, kProductStreamK},
               {filled({kProductStreamK, productStreamN(far)}, 0.05f + seed)}, {}, 1);
}
// Its weight's reuse distance in a run over the copies, as CpuRunReuse counts it: the other copies' weights
// and outputs and the shared input between two reads, its own weight included.
double productStreamDistance(int64_t rows, bool far) {
  const double n = static_cast<double>(productStreamN(far)), w = 4.0 * kProductStreamK * n,
               out = 4.0 * static_cast<double>(rows) * n;
  return kProductStreamCopies * (w + out) + 4.0 * static_cast<double>(rows) * kProductStreamK;
}

fw::Result<std::vector<std::pair<int64_t, double>>> measureProductStream(int threads, int repeat,
                                                                         double overheadUs, bool far) {
  const int runs = far ? 3 : std::max(3, repeat / 3);
  std::vector<std::pair<int64_t, double>> out;
  // Up to 32 rows: beyond, the arithmetic takes 4x the stream and more, and the shape model's own error of a
  // few percent reads as most of the stream (128 rows here: 1411 us measured, 1284 by the shape model, a
  // stream of 164: "0.78").
  for (int64_t rows : {4, 8, 16, 32}) {
    std::vector<Bench> parts;
    for (int c = 0; c < kProductStreamCopies; ++c)
      parts.push_back(productStreamProbe(rows, far, 0.001f * static_cast<float>(c)));
    FW_ASSIGN_OR_RETURN(const std::vector<double> us,
                        cycledNodeTimes(parts, threads, runs, "product-stream"));
    const double whole = median(us);
    out.push_back({rows, std::max(whole - overheadUs, 0.05 * whole)});
  }
  return out;
}

}  // namespace

CpuFigures::ProductStreamSet productStreamShares(const HwProfile& p,
                                                 const std::vector<std::pair<int64_t, double>>& us, bool far,
                                                 std::string& how) {
  CpuFigures::ProductStreamSet set;
  const auto copyRate = [&](double bytes) { return p.cpu.cacheBandwidthFor(bytes); };
  for (const auto& [rows, t] : us) {
    const Bench b = productStreamProbe(rows, far, 0);
    fw::Model shaped = b.model;  // the cost model's features need the output's shape
    if (!fw::resolveShapes(shaped).ok()) continue;
    const auto f = cubeFeatures(*shaped.graph, b.node);
    const auto model = f ? p.cpu.cubeModels.find(f->kind) : p.cpu.cubeModels.end();
    const double distance = productStreamDistance(rows, far);
    const double bw = p.cpu.weightStreamBandwidthFor(distance);
    if (model == p.cpu.cubeModels.end() || bw <= 0) continue;
    const double c = model->second.boundedSeconds(*f, copyRate) * 1e6,
                 ws = 4.0 * kProductStreamK * static_cast<double>(productStreamN(far)) / bw * 1e6;
    const double shorter = std::min(c, ws), longer = std::max(c, ws);
    if (shorter <= 0) continue;
    const double share = std::clamp((t - longer) / shorter, 0.0, 1.0);
    set.share.push_back({static_cast<double>(rows), share});
    set.us.push_back({rows, t});
    set.distance = std::max(set.distance, distance);
    how += (how.empty() ? "" : "; ") + std::to_string(rows) + " rows " + fmt("%.1f", t) +
           " us (shape model " + fmt("%.1f", c) + ", stream " + fmt("%.1f", ws) + "): " + fmt("%.2f", share);
  }
  return set;
}

int64_t farTierScale(double ownCacheBytes, double memBytes) {
  int64_t scale = 1;
  while (static_cast<double>(scale << 23) < 1.5 * ownCacheBytes && scale < 64) scale *= 2;
  // The ops' buffers (the Conv's input and output and their blocked copies, the Relu's input and output:
  // about 5 x 8 MiB a scale) within an eighth of the memory.
  while (scale > 1 && memBytes > 0 && 5.0 * static_cast<double>(scale << 23) > memBytes / 8) scale /= 2;
  return scale;
}

FarShares farSharesOf(const std::vector<double>& distances, const std::vector<double>& reluDistances,
                      const std::vector<double>& excessConv, const std::vector<double>& excessRelu) {
  FarShares out;
  if (distances.empty() || excessConv.size() != distances.size() || excessRelu.size() != distances.size() ||
      reluDistances.size() != distances.size())
    return out;
  const double top = excessConv.back() + excessRelu.back();
  double running = 0, runningVector = 0;
  for (size_t i = 0; i < distances.size(); ++i) {
    running = std::max(running, top > 0 ? std::clamp((excessConv[i] + excessRelu[i]) / top, 0.0, 1.0) : 0.0);
    out.pooled.push_back({distances[i], running});
    if (excessRelu.back() > 0) {
      runningVector = std::max(runningVector, std::clamp(excessRelu[i] / excessRelu.back(), 0.0, 1.0));
      out.vector.push_back({reluDistances[i], runningVector});
    }
  }
  return out;
}

namespace {

// The tier beyond the last-level cache (HwProfile.h: far_curve, far_s_per_byte): a 3x3 Conv 8 -> 32 at
// 256x256 (2 MiB in, 8 MiB out; a product) and a Relu over 8 MiB (a vector op), both times farTierScale
// (batch, length) on a core whose own cache is as large, each alone (its arena bytes
// reused from one run to the next: near) and in one run after a Neg over E bytes (E = 4 to 128 MiB), whose
// input and output come between two of the op's calls: the op's bytes are 2E and half its own away. The
// share at that distance is what the two took more than alone, over what they took more after the largest
// Neg (non-decreasing); a vector op's share (curveVector) the same of the Relu's excess alone; a byte's cost
// is that largest excess over the bytes the cost model counts (each activation larger than the own cache).
// Medians of 3 rounds.
struct FarTier {
  std::vector<std::pair<double, double>> curve, curveVector;
  double productSPerByte = 0, vectorSPerByte = 0;
  std::string how;
};
fw::Result<FarTier> measureFarTier(int threads, int repeat, double ownCacheBytes, double memBytes) {
  const int64_t scale = farTierScale(ownCacheBytes, memBytes);
  const Bench conv = oneOp("Conv", {scale, 8, 256, 256}, {filled({32, 8, 3, 3}, 0.05f)},
                           fw::zoo::attrs({fw::Attribute::makeInts("pads", {1, 1, 1, 1})}), 1);
  const Bench relu = oneOp("Relu", {scale << 21}, {}, {}, 1);
  const double convIn = 4.0 * 8 * 256 * 256 * static_cast<double>(scale), convOut = 4.0 * convIn,
               reluIn = 4.0 * static_cast<double>(scale << 21);
  auto counted = [&](double in, double out) {
    return (in > ownCacheBytes ? in : 0.0) + (out > ownCacheBytes ? out : 0.0);
  };
  const double convBytes = counted(convIn, convOut), reluBytes = counted(reluIn, reluIn);
  const std::vector<int64_t> evictMiB = {4, 8, 16, 32, 64, 128};
  const int runs = std::max(3, repeat / 3);
  auto medianOf = [&](auto timeOnce) -> fw::Result<double> {
    std::vector<double> us;
    for (int round = 0; round < 3; ++round) {
      FW_ASSIGN_OR_RETURN(double t, timeOnce());
      us.push_back(t);
    }
    return median(us);
  };
  FarTier out;
  if (scale > 1)
    out.how = "batch " + std::to_string(scale) + " and " + bytesStr(reluIn) + " (an own cache of " +
              bytesStr(ownCacheBytes) + ")";
  std::vector<double> excessConv, excessRelu;
  for (const Bench* op : {&conv, &relu}) {
    FW_ASSIGN_OR_RETURN(const double near, medianOf([&]() { return timeNode(*op, threads, 2, runs); }));
    for (int64_t mib : evictMiB) {
      const Bench evict = oneOp("Neg", {mib << 18}, {}, {}, 1);
      const Bench seq = sequenceOf({evict, *op});
      FW_ASSIGN_OR_RETURN(const double far, medianOf([&]() -> fw::Result<double> {
                            FW_ASSIGN_OR_RETURN(std::vector<double> t, timeNodes(seq, threads, 1, runs));
                            if (t.size() != 2)
                              return fw::Error::internal("calibrate: the far-tier run timed " +
                                                         std::to_string(t.size()) + " nodes of 2");
                            return t[1];
                          }));
      (op == &conv ? excessConv : excessRelu).push_back(std::max(0.0, far - near));
      out.how += (out.how.empty() ? "" : "; ") + std::string(op == &conv ? "Conv " : "Relu ") +
                 fmt("%.0f", near) + " us alone, " + fmt("%.0f", far) + " after " + std::to_string(mib) +
                 " MiB";
    }
  }
  // The pooled curve's distance is the two ops' mean: 2E and half of each op's own bytes, averaged; the
  // vector curve's the Relu's own, 2E and half its input and output.
  std::vector<double> distances, reluDistances;
  for (int64_t mib : evictMiB) {
    distances.push_back(2.0 * static_cast<double>(mib << 20) + (convIn + convOut + 2 * reluIn) / 4);
    reluDistances.push_back(2.0 * static_cast<double>(mib << 20) + reluIn);
  }
  FarShares shares = farSharesOf(distances, reluDistances, excessConv, excessRelu);
  out.curve = std::move(shares.pooled);
  out.curveVector = std::move(shares.vector);
  out.productSPerByte = convBytes > 0 ? excessConv.back() * 1e-6 / convBytes : 0.0;
  out.vectorSPerByte = reluBytes > 0 ? excessRelu.back() * 1e-6 / reluBytes : 0.0;
  return out;
}

// A pointwise Conv's images beyond the last-level cache (HwProfile.h: far_s_per_byte "pointwise"): the
// executor runs it as one product an image (core/exec/ConvPrimitive.cpp), whose C input rows and M output
// rows it reads and writes a column block at a time. A 1x1 Conv 64 -> 64 at 56x56 (1.6 MB in and out an
// image): one image (within the cache), and a batch whose input and output are 3x the last-level cache, in
// 3 interleaved rounds, the medians. The figure is what the batch took more than its images at one image's
// time, over its activation bytes beyond the cache's.
struct PointwiseFar {
  double sPerByte = 0;
  std::string how;
};
fw::Result<PointwiseFar> measurePointwiseFar(int threads, int repeat, double llcBytes, double memBytes) {
  constexpr int64_t kC = 64, kSide = 56;
  const double imageBytes = 2.0 * 4 * kC * kSide * kSide;
  int64_t batch = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(3 * llcBytes / imageBytes)), 2, 256);
  while (batch > 2 && memBytes > 0 && 2.0 * static_cast<double>(batch) * imageBytes > memBytes / 8)
    batch /= 2;
  const auto conv = [&](int64_t n) {
    return oneOp("Conv", {n, kC, kSide, kSide}, {filled({kC, kC, 1, 1}, 0.05f)}, {}, 1);
  };
  const Bench one = conv(1), many = conv(batch);
  FW_ASSIGN_OR_RETURN(const std::vector<double> us,
                      timeNodesInRounds({&one, &many}, threads, 2, std::max(3, repeat / 3), 3));
  const double n = static_cast<double>(batch), beyond = n * imageBytes - llcBytes;
  PointwiseFar out;
  out.sPerByte = beyond > 0 ? std::max(0.0, us[1] - n * us[0]) * 1e-6 / beyond : 0.0;
  out.how = "a 1x1 Conv 64 -> 64 at 56x56, 1 image " + fmt("%.0f", us[0]) + " us, " + std::to_string(batch) +
            " images " + fmt("%.0f", us[1]) + " us (" + bytesStr(n * imageBytes) +
            " in and out; the last-level cache " + bytesStr(llcBytes) + ")";
  return out;
}

// K Gathers of the same `picks` rows of `width` floats, spread over one [rows, width] table (a graph input;
// rows a power of 2), each after a Neg over `evictElems` floats when that is positive (the Negs a chain,
// each reading the one before). Without the Negs every Gather finds the rows the one before it read.
Bench gathersOf(int64_t rows, int64_t width, int64_t picks, int k, int64_t evictElems) {
  fw::Graph g;
  g.name = "calibrate_cold_gather";
  Bench b;
  const fw::ValueId table = g.addInput("table", fw::DType::Float32, fw::Shape::ofInts({rows, width}));
  b.inputs.push_back(filled({rows, width}, 0.5f));
  fw::ValueId cur = fw::kNoId;
  if (evictElems > 0) {
    cur = g.addInput("e", fw::DType::Float32, fw::Shape::ofInts({evictElems}));
    b.inputs.push_back(filled({evictElems}, 1.0f));
  }
  for (int i = 0; i < k; ++i) {
    const std::string tag = std::to_string(i);
    if (evictElems > 0) {
      const fw::ValueId y = g.addValue("n" + tag, fw::DType::Float32, fw::Shape::ofInts({evictElems}));
      g.addNode("Neg", {cur}, {y}, {}, "neg" + tag);
      cur = y;
    }
    std::vector<int64_t> at(static_cast<size_t>(picks));
    for (int64_t j = 0; j < picks; ++j)
      at[static_cast<size_t>(j)] = j * 37 % rows;  // distinct while picks <= rows
    const fw::ValueId idx = g.addInitializer("i" + tag, fw::Tensor::int64s({picks}, at));
    const fw::ValueId y = g.addValue("g" + tag, fw::DType::Float32, fw::Shape::ofInts({picks, width}));
    g.addNode("Gather", {table, idx}, {y}, fw::zoo::attrs({fw::Attribute::makeInt("axis", 0)}),
              "gather" + tag);
    g.addOutput(y);
  }
  if (evictElems > 0) g.addOutput(cur);
  b.node = evictElems > 0 ? 1 : 0;
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:cold_gather";
  return b;
}

// What a Gather's picks cost more with the table's rows in DRAM (HwProfile.h: cold_gather): per row width
// (64 B, 768 B, 3 KiB: a categorical feature's embedding, a small and a BERT-sized word embedding), 6
// Gathers each after a Neg over `evictElems` floats, against the same 6 in a row (the rows they pick, 64-768
// KiB, stay in cache from one to the next), the medians of their node times over 3 rounds.
fw::Result<CpuFigures::ColdGather> coldGathersAfter(int threads, int repeat, int64_t evictElems,
                                                    std::string& how) {
  constexpr int kGathers = 6;
  struct Shape {
    int64_t rows, width, picks;
  };
  std::vector<ColdGatherSample> samples;
  std::string each;
  for (const Shape& s : {Shape{4096, 16, 1024}, Shape{4096, 192, 512}, Shape{4096, 768, 256}}) {
    FW_ASSIGN_OR_RETURN(const auto times,
                        coldAndHot(gathersOf(s.rows, s.width, s.picks, kGathers, evictElems),
                                   gathersOf(s.rows, s.width, s.picks, kGathers, 0), threads, 2, repeat));
    const ColdGatherSample sample{static_cast<double>(s.picks), 4.0 * static_cast<double>(s.picks * s.width),
                                  std::max(times.first, 1e-3), std::max(times.second, 1e-3)};
    const int64_t rowBytes = 4 * s.width;
    each += (each.empty() ? "" : "; ") + std::to_string(s.picks) + " rows of " +
            (rowBytes < 1024 ? std::to_string(rowBytes) + " B" : bytesStr(static_cast<double>(rowBytes))) +
            " " + fmt("%.1f", sample.coldUs) + " us after the Neg, " + fmt("%.1f", sample.hotUs) +
            " us in a row";
    samples.push_back(sample);
  }
  how = "after a Neg over " + bytesStr(4.0 * static_cast<double>(evictElems)) + ": " + each;
  FW_ASSIGN_OR_RETURN(CpuFigures::ColdGather c, fitColdGather(samples));
  // Between two Gathers the Neg read and wrote its bytes.
  c.distanceBytes = 2 * 4.0 * static_cast<double>(evictElems);
  return c;
}

// Near: after a Neg over twice the last-level cache; far (since session 59), when 8 times 64 MiB fit an
// eighth of the memory: after a Neg over 64 MiB, the rows well out in DRAM (140 rows
// of 2.6 KB from a 26 MB table: 9.7 us in a row, 29 after 8 MiB of other bytes, 74 after 128).
fw::Result<CpuFigures::ColdGather> measureColdGathers(int threads, int repeat, double llcBytes,
                                                      double memBytes, std::string& how) {
  const int64_t nearElems = static_cast<int64_t>(2 * llcBytes / 4);
  FW_ASSIGN_OR_RETURN(CpuFigures::ColdGather c, coldGathersAfter(threads, repeat, nearElems, how));
  constexpr int64_t kFarElems = int64_t{16} << 20;  // 64 MiB
  if (!c.any() || 8.0 * 4 * static_cast<double>(kFarElems) > memBytes / 8 || kFarElems <= nearElems) return c;
  std::string farHow;
  FW_ASSIGN_OR_RETURN(const CpuFigures::ColdGather far, coldGathersAfter(threads, repeat, kFarElems, farHow));
  how += "; " + farHow;
  if (far.any() && far.distanceBytes > c.distanceBytes)
    c.far = {far.perRowS, far.perByteS, far.distanceBytes};
  return c;
}

}  // namespace

Result<CpuFigures::ColdGather> fitColdGather(const std::vector<ColdGatherSample>& samples) {
  std::vector<std::vector<double>> rows;
  for (const auto& s : samples) {
    for (double v : {s.picks, s.bytes, s.coldUs, s.hotUs})
      if (!(v > 0) || !std::isfinite(v))
        return Error::badInput("fitting the cold gather: counts, sizes and times must be positive (got " +
                               fmt("%g", s.picks) + " rows, " + fmt("%g", s.bytes) + " bytes, " +
                               fmt("%g", s.coldUs) + " and " + fmt("%g", s.hotUs) + " us)");
    const double extraS = (s.coldUs - s.hotUs) * 1e-6;
    if (extraS > 0) rows.push_back({s.picks / extraS, s.bytes / extraS});
  }
  CpuFigures::ColdGather c;
  if (rows.size() < 2) return c;  // not slower: nothing to charge
  const auto fit = fitRelativeNonNegative(rows);
  if (!fit) return c;
  c.perRowS = (*fit)[0];
  c.perByteS = (*fit)[1];
  return c;
}

Result<CpuFigures::RunOverhead> fitRunOverhead(const std::vector<RunOverheadSample>& samples) {
  if (samples.size() < 4)
    return Error::badInput("fitting the run overhead needs at least 4 timed chains (got " +
                           std::to_string(samples.size()) + ")");
  std::vector<std::vector<double>> rows;
  std::vector<double> targets;  // what is left after the copies, relative to the whole time
  for (const auto& s : samples) {
    if (!(s.us > 0) || !std::isfinite(s.us))
      return Error::badInput(
          "fitting the run overhead: a chain's time outside its nodes must be positive (got " +
          fmt("%g", s.us) + " us)");
    rows.push_back({1.0 / s.us, s.nodes / s.us, s.initializers / s.us, s.ioBytes / s.us});
    targets.push_back(std::max(0.0, s.us - s.copyUs) / s.us);
  }
  const auto c = fitRelativeNonNegative(rows, targets);
  if (!c) return Error::badInput("no non-negative run overhead fits these chains");
  CpuFigures::RunOverhead o;
  o.perRunS = (*c)[0] * 1e-6;
  o.perNodeS = (*c)[1] * 1e-6;
  o.perInitializerS = (*c)[2] * 1e-6;
  o.perIoByteS = (*c)[3] * 1e-6;
  return o;
}

Result<RunOverheadFit> measureRunOverhead(int threads, int repeat, const CpuFigures& copy) {
  struct Chain {
    int n;
    int64_t elems;
    bool own;
  };
  const std::vector<Chain> chains = {{1, 16, false},      {4, 16, false},     {16, 16, false},
                                     {64, 16, false},     {256, 16, false},   {16, 16, true},
                                     {64, 16, true},      {256, 16, true},    {4, 262144, false},
                                     {4, 1048576, false}, {4, 4194304, false}};
  // Three rounds over the chains, the median per chain (a slow phase of the shared machine moves a
  // minority of a chain's rounds).
  std::vector<std::vector<double>> rounds(chains.size());
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < chains.size(); ++i) {
      const Bench b = chainOf("Add", chains[i].n, chains[i].elems, chains[i].own);
      FW_ASSIGN_OR_RETURN(double us, timeOutside(b, threads, 2, std::max(3, repeat)));
      rounds[i].push_back(us);
    }
  std::vector<RunOverheadSample> samples;
  for (size_t i = 0; i < chains.size(); ++i) {
    const auto& c = chains[i];
    // The output out (a fresh buffer); the float input is held as is (RtTensor::storedAsIs).
    const double bytes = 4.0 * static_cast<double>(c.elems);
    const double copyUs = copy.copySeconds(bytes) * 1e6;
    samples.push_back({static_cast<double>(c.n), c.own ? static_cast<double>(c.n) : 1.0, bytes,
                       std::max(median(rounds[i]), 1e-3), copyUs});
  }
  FW_ASSIGN_OR_RETURN(CpuFigures::RunOverhead o, fitRunOverhead(samples));
  RunOverheadFit out{o, ""};
  for (const auto& s : samples) {
    const double model = s.copyUs + 1e6 * (o.perRunS + o.perNodeS * s.nodes +
                                           o.perInitializerS * s.initializers + o.perIoByteS * s.ioBytes);
    out.how += (out.how.empty() ? "" : "; ") + fmt("%.0f", s.nodes) + "/" + fmt("%.0f", s.initializers) +
               "/" + fmt("%.0f KiB", s.ioBytes / 1024) + " " + fmt("%.1f", s.us) + " (" + fmt("%.1f", model) +
               ")";
  }
  return out;
}

std::vector<int64_t> cacheDrops(const std::vector<std::pair<size_t, double>>& copy) {
  // A level's bandwidth: the median over its sizes (the sizes in a boundary's transition and a dip from
  // another process on the machine are a minority).
  auto levelBw = [&](size_t from, size_t to) {
    std::vector<double> v;
    for (size_t j = from; j < to; ++j) v.push_back(copy[j].second);
    return median(v);
  };
  // Levels: from size i on the bandwidth never again reaches 70 % of the level before's (a cache
  // boundary is permanent; a dip is not). The last two sizes cannot begin a level: nothing after them
  // shows that it lasts.
  const size_t n = copy.size();
  std::vector<size_t> starts;  // first size of each level after the first
  for (size_t i = 1; i + 2 < n; ++i) {
    if (!starts.empty() && starts.back() == i - 1) continue;  // only the first size of a drop counts
    double above = 0;
    for (size_t j = i; j < n; ++j) above = std::max(above, copy[j].second);
    if (above < 0.7 * levelBw(starts.empty() ? 0 : starts.back(), i)) starts.push_back(i);
  }
  // Each boundary: the end of the level before, the footprint where the bandwidth falls 10 % under
  // that level's, interpolated on log size. That is the data a level holds before copies start to miss
  // it (what the cost model's cold share counts from: at a 1 MiB footprint in a 1 MiB L2 the copy ran
  // 15-60 % under its plateau already). Which size first falls under 70 % depends on a size right at
  // the cache's capacity; where the fall begins hardly does.
  std::vector<int64_t> drops;
  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t lo = k == 0 ? 0 : starts[k - 1], hi = k + 1 < starts.size() ? starts[k + 1] : n;
    const double edge = 0.9 * levelBw(lo, starts[k]);
    size_t at = starts[k] - 1;  // the last size at or above the edge with a size after it in the range
    for (size_t j = lo; j + 1 < hi; ++j)
      if (copy[j].second >= edge) at = j;
    const double b0 = static_cast<double>(copy[at].first), b1 = static_cast<double>(copy[at + 1].first);
    const double v0 = copy[at].second, v1 = copy[at + 1].second;
    const double f = v0 > v1 ? std::clamp((v0 - edge) / (v0 - v1), 0.0, 1.0) : 0.0;
    const double footprint = 2.0 * b0 * std::pow(b1 / b0, f);
    if (drops.empty() || footprint > static_cast<double>(drops.back()))
      drops.push_back(std::llround(footprint));
  }
  return drops;
}

int lastCacheLevel(const std::vector<int64_t>& drops) {
  const double own = ownCacheBytes(drops);
  for (size_t i = 0; i < drops.size(); ++i)
    if (own > 0 && static_cast<double>(drops[i]) >= 4 * own) return static_cast<int>(i);
  return static_cast<int>(drops.size()) - 1;
}

fw::Result<HostMeasurement> measureHost(int threads, int repeat) {
  HostMeasurement m;
  m.threads = threads;
  m.cpu = procField("/proc/cpuinfo", "model name");
  if (m.cpu.empty()) m.cpu = "an unnamed CPU";
  m.clockHz = std::atof(procField("/proc/cpuinfo", "cpu MHz").c_str()) * 1e6;
  if (m.clockHz <= 0) m.clockHz = 1e9;  // no clock reported: cycles are then nanoseconds
  m.memBytes = std::atof(procField("/proc/meminfo", "MemTotal").c_str()) * 1024.0;
  if (m.memBytes <= 0) m.memBytes = 1e9;
  const int warm = 3;
  FW_ASSIGN_OR_RETURN(m.probeStart, measureSpeedProbe(threads));

  // Per-kernel overhead (a one-element Add, many copies: each node one sample) and the vector ops, each
  // at a size that fits the cache and at a tiny one, all timed in turn in five rounds (HostBench.h: a
  // slow phase of the shared machine moves a minority of each figure's rounds). Their efficiencies need
  // the matrix ops' peak, below.
  const Bench overhead = oneOp("Add", {1}, {fw::Tensor::floats({1}, {1.0f})}, {}, 64);
  // A view: the executor's node that hands out its input, 64 copies (each node one sample).
  const Bench view = oneOp("Reshape", {32, 1024}, {fw::Tensor::int64s({2}, {1024, 32})}, {}, 64);
  std::vector<FamilyCase> cases = familyCases(CaseSize::normal());
  std::vector<FamilyCase> tiny = familyCases(CaseSize::tiny());
  // A fused body's call: Relu then Neg as plain nodes and as the body of a function called once.
  const Bench pairs = reluNegPairs(32, false), fusedCalls = reluNegPairs(32, true);
  std::vector<const Bench*> timed = {&overhead, &view, &pairs, &fusedCalls};
  std::vector<OpFigures> figures;
  for (size_t i = 0; i < cases.size(); ++i) {
    FW_ASSIGN_OR_RETURN(OpFigures f, figuresOf(cases[i].bench));
    figures.push_back(f);
    timed.insert(timed.end(), {&cases[i].bench, &tiny[i].bench});
  }
  // The row-wise ops again in rows of 8 (HostOpCases.h: rowCases), timed after the cases.
  const std::vector<FamilyCase> rowWise = rowCases();
  for (const FamilyCase& r : rowWise) timed.push_back(&r.bench);
  constexpr int kRounds = 5;
  FW_ASSIGN_OR_RETURN(std::vector<double> times, timeNodesInRounds(timed, threads, warm, std::max(3, repeat / kRounds), kRounds));
  m.overheadUs = times[0];
  m.viewCallUs = times[1];
  // A call's time less its two members' (each the median node time of the plain pairs).
  const double memberUs = times[2], callUs = times[3];
  m.fusedCallUs = std::max(0.0, callUs - 2 * memberUs);
  times.erase(times.begin() + 1, times.begin() + 4);  // the cases' times follow the overhead's, as below
  std::fprintf(
      stderr,
      "fwb: calibrate: per-kernel overhead %.2f us, a view %.2f us, a fused body's call %.2f us (%.2f us "
      "against two members of %.2f us)\n",
      m.overheadUs, m.viewCallUs, m.fusedCallUs, callUs, memberUs);

  // Streaming copy from 8 KiB to 256 MiB buffers (footprint: source + destination = 2x): steps of sqrt(2)
  // up to 8 MiB, where the caches end, then of 2.
  for (double x = 8 << 10; x <= static_cast<double>(size_t{256} << 20) * 1.01;
       x *= x < (8 << 20) * 0.99 ? std::sqrt(2.0) : 2.0) {
    const size_t bytes = static_cast<size_t>(std::llround(x / 64)) * 64;
    if (static_cast<double>(bytes) * 2.5 > m.memBytes / 4) break;
    m.copy.push_back({bytes, copyBandwidth(bytes, threads)});
  }
  m.drops = cacheDrops(m.copy);
  m.dramBw = m.copy.back().second;
  // The executor's elementwise loops beyond the core's own cache: a chain of 8 Relus, one tensor streamed
  // into the next, at tensors of 256 KiB to 32 MiB; per size the median node time of the chain (the
  // first nodes meet the data the run's input and output copies left), the median over 3 rounds over
  // the sizes. Bytes moved: input + output.
  {
    std::vector<size_t> sizes;
    for (size_t bytes = size_t{256} << 10; bytes <= size_t{32} << 20; bytes *= 2)
      if (static_cast<double>(bytes) * 4 <= m.memBytes / 4) sizes.push_back(bytes);
    std::vector<std::vector<double>> rounds(sizes.size());
    for (int round = 0; round < 3; ++round)
      for (size_t i = 0; i < sizes.size(); ++i) {
        FW_ASSIGN_OR_RETURN(std::vector<double> t,
                            timeNodes(chainOf("Relu", 8, static_cast<int64_t>(sizes[i] / 4)), threads, warm,
                                      std::max(3, repeat / 3)));
        rounds[i].push_back(median(t));
      }
    for (size_t i = 0; i < sizes.size(); ++i)
      m.stream.push_back(
          {sizes[i], 2.0 * static_cast<double>(sizes[i]) / (std::max(median(rounds[i]), 1e-3) * 1e-6)});
  }
  const int llcLevel = lastCacheLevel(m.drops);
  if (llcLevel >= 0) {
    m.llcBytes = static_cast<double>(m.drops[static_cast<size_t>(llcLevel)]);
    m.llcHow =
        "the footprint (source + destination) where the copy bandwidth falls 10 % under the level's after "
        "the core's own cache";
    if (static_cast<size_t>(llcLevel) + 1 < m.drops.size())
      m.llcHow += " (it fell again at " + bytesStr(static_cast<double>(m.drops.back())) +
                  ": a tier the far curve covers)";
  } else {
    // No drop stood out of the noise: the kernel's own report of the last-level cache.
    double best = 0;
    for (int i = 0; i < 8; ++i) {
      std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/size");
      std::string s;
      if (!(in >> s)) continue;
      double v = std::atof(s.c_str());
      if (s.back() == 'K') v *= 1024;
      if (s.back() == 'M') v *= 1024 * 1024;
      best = std::max(best, v);
    }
    m.llcBytes = best;
    m.llcHow = "no drop of the copy bandwidth stood out of the noise: the largest cache sysfs reports";
  }
  // Cache bandwidth: the median over the sizes whose footprint fits the last-level cache but not the
  // level before it (what a kernel's activations stream from when they do not fit the inner caches).
  const double inner = llcLevel >= 1 ? static_cast<double>(m.drops[static_cast<size_t>(llcLevel) - 1]) : 0.0;
  std::vector<double> inCache;
  for (const auto& [bytes, bw] : m.copy)
    if (2.0 * static_cast<double>(bytes) <= m.llcBytes && 2.0 * static_cast<double>(bytes) > inner) inCache.push_back(bw);
  m.cacheBw = inCache.empty() ? m.dramBw : median(inCache);
  std::fprintf(stderr, "fwb: calibrate: copy bandwidth %.1f GB/s in cache, %.1f GB/s from DRAM; LLC %s\n", m.cacheBw / 1e9,
               m.dramBw / 1e9, bytesStr(m.llcBytes).c_str());
  {
    std::string line;
    for (const auto& [bytes, bw] : m.stream)
      line += (line.empty() ? "" : ", ") + bytesStr(2.0 * static_cast<double>(bytes)) + " " +
              fmt("%.1f", bw / 1e9);
    std::fprintf(stderr, "fwb: calibrate: a Relu chain streams (GB/s by footprint) %s\n", line.c_str());
  }

  // The core's own cache as the cost model takes it (1 MiB when no drop stood out).
  const double own = ownCacheBytes(m.drops) > 0 ? ownCacheBytes(m.drops) : double{1 << 20};
  {
    FW_ASSIGN_OR_RETURN(const ColdCalls cold, measureColdCalls(threads, repeat, own));
    m.coldCallUs = cold.vectorUs;
    m.coldProductCallUs = cold.productUs;
    m.coldPrimitiveCallUs = cold.primitiveUs;
    m.coldShapeCallUs = cold.shapeUs;
    m.coldCodeCallUs = cold.codeUs;
    m.coldCodeUs = cold.codeByOpUs;
    m.coldCallHow = cold.how;
    std::fprintf(
        stderr,
        "fwb: calibrate: a call with its cache evicted costs %.2f us more (a product %.2f, its primitive "
        "alone %.2f, a vector op's loop alone %.2f, shape work %.2f): %s\n",
        m.coldCallUs, m.coldProductCallUs, m.coldPrimitiveCallUs, m.coldCodeCallUs, m.coldShapeCallUs,
        m.coldCallHow.c_str());
  }
  {
    FW_ASSIGN_OR_RETURN(ColdCurve curve, measureColdCallCurve(threads, repeat, m.memBytes));
    m.coldCallCurve = curve.points;
    m.coldCurveHow = curve.how;
    std::string line;
    for (const auto& pt : m.coldCallCurve)
      line += (line.empty() ? "" : ", ") + bytesStr(pt.bytes) + " " + fmt("%.2f", pt.vectorS * 1e6) + " / " +
              fmt("%.2f", pt.productS * 1e6) + " / " + fmt("%.2f", pt.codeS * 1e6) + " / " +
              fmt("%.2f", pt.nodeS * 1e6) + " / " + fmt("%.3f", pt.outsideS * 1e6);
    std::fprintf(stderr,
                 "fwb: calibrate: a cold call by distance (us more, an Add / a MatMul / an op's own loop / a "
                 "node alone; us a node outside the nodes): %s (%s)\n",
                 line.c_str(), m.coldCurveHow.c_str());
  }
  // The tier beyond the last-level cache, when 2 x 128 MiB fit an eighth of the memory.
  if (m.memBytes <= 0 || (int64_t{256} << 20) <= m.memBytes / 8) {
    FW_ASSIGN_OR_RETURN(FarTier far, measureFarTier(threads, repeat, own, m.memBytes));
    m.farCurve = far.curve;
    m.farCurveVector = far.curveVector;
    m.farProductSPerByte = far.productSPerByte;
    m.farVectorSPerByte = far.vectorSPerByte;
    m.farHow = far.how;
    std::fprintf(
        stderr,
        "fwb: calibrate: a byte from beyond the last-level cache costs %.3f ns more (a product %.3f): %s\n",
        m.farVectorSPerByte * 1e9, m.farProductSPerByte * 1e9, m.farHow.c_str());
    if (m.llcBytes > 0) {
      FW_ASSIGN_OR_RETURN(PointwiseFar pw, measurePointwiseFar(threads, repeat, m.llcBytes, m.memBytes));
      m.farPointwiseSPerByte = pw.sPerByte;
      m.farPointwiseHow = pw.how;
      std::fprintf(
          stderr,
          "fwb: calibrate: a pointwise Conv's byte beyond the last-level cache costs %.3f ns more: %s\n",
          m.farPointwiseSPerByte * 1e9, m.farPointwiseHow.c_str());
    }
  }
  // A weight's stream by its reuse distance, when 2 x 64 MiB fit an eighth of the memory.
  if (m.memBytes <= 0 || (int64_t{128} << 20) <= m.memBytes / 8) {
    FW_ASSIGN_OR_RETURN(m.weightStream, measureWeightStream(threads, repeat, m.memBytes, m.overheadUs, m.weightStreamHow));
    std::fprintf(stderr, "fwb: calibrate: a weight streams (by distance since its last read): %s\n",
                 m.weightStreamHow.c_str());
    FW_ASSIGN_OR_RETURN(m.productStreamUs, measureProductStream(threads, repeat, m.overheadUs, false));
    // And 16 MiB weights 272 MB apart, when 2 GiB fit an eighth of the memory (as the far weight stream).
    if (m.memBytes <= 0 || (int64_t{2} << 30) <= m.memBytes / 8) {
      FW_ASSIGN_OR_RETURN(m.productStreamFarUs, measureProductStream(threads, repeat, m.overheadUs, true));
    }
  }
  // A Gather's rows from DRAM (an embedding table in a run), when the last-level cache is known and twice
  // it fits an eighth of the memory.
  if (m.llcBytes > 0 && 2 * m.llcBytes * 2 <= m.memBytes / 8) {
    FW_ASSIGN_OR_RETURN(m.coldGather,
                        measureColdGathers(threads, repeat, m.llcBytes, m.memBytes, m.coldGatherHow));
    std::fprintf(stderr,
                 "fwb: calibrate: a Gather's rows from DRAM cost %.1f ns a row and %.3f ns a byte more "
                 "(%.1f and %.3f from further away): %s\n",
                 m.coldGather.perRowS * 1e9, m.coldGather.perByteS * 1e9, m.coldGather.far.perRowS * 1e9,
                 m.coldGather.far.perByteS * 1e9, m.coldGatherHow.c_str());
  }

  // The matrix ops: a grid of shapes per kind, timed and fitted (HostCubeBench.cpp). The peaks are the
  // best rate of each kind over its shapes; the cube efficiency is the median over all shapes of rate /
  // peak of its kind (real layers rarely hit the best).
  {
    // The pointwise Conv's block of positions and the dense Conv's block of output channels first: their
    // shape models are fitted on padded FLOPs.
    const fw::IdleArenaLimit keepArenas(1024);
    FW_ASSIGN_OR_RETURN(BlockFit pb, measurePositionBlock(threads, repeat));
    m.positionBlock = pb.block;
    m.positionHow = pb.how;
    FW_ASSIGN_OR_RETURN(BlockFit cb, measureChannelBlock(threads, repeat));
    m.channelBlock = cb.block;
    m.channelHow = cb.how;
  }
  {
    // The copy bandwidth, measured above, times a dense Conv's weight stream; its drops give the own cache
    // a pointwise Conv's far activations are counted past (CubeFeatures::withOwnCache).
    CpuFigures copy;
    copy.cacheBandwidth = m.cacheBw;
    copy.bandwidthCurve = footprintCurve(m.copy);
    copy.cacheDropsBytes = m.drops;
    FW_ASSIGN_OR_RETURN(m.cubeModels, measureCubeModels(threads, repeat, m.overheadUs, m.positionBlock,
                                                        m.channelBlock, copy));
  }
  std::vector<double> cubeRatios;
  for (const char* kind : {"gemm", "conv", "pointwise_conv", "grouped_conv", "depthwise_conv"}) {
    const auto it = m.cubeModels.find(kind);
    if (it == m.cubeModels.end() || it->second.rates.empty())
      return fw::Error::internal(std::string("calibrate: no ") + kind + " shape was timed");
    const auto& rates = it->second.rates;
    const auto best = *std::max_element(rates.begin(), rates.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
    const std::string k = kind;
    if (k == "gemm" || k == "conv" || k == "grouped_conv") {
      (k == "gemm" ? m.gemmFlops : k == "conv" ? m.convFlops : m.groupedFlops) = best.second;
      (k == "gemm" ? m.gemmShape : k == "conv" ? m.convShape : m.groupedShape) = best.first;
    }
    for (const auto& [what, r] : rates) {
      cubeRatios.push_back(r / best.second);
      m.cubeCases += (m.cubeCases.empty() ? "" : "; ") + what + " " + fmt("%.1f", r / 1e9);
    }
  }
  m.cubeEff = median(cubeRatios);
  std::fprintf(stderr,
               "fwb: calibrate: GEMM %.1f GFLOP/s (%s), Conv %.1f GFLOP/s (%s), median share of peak %.2f\n",
               m.gemmFlops / 1e9, m.gemmShape.c_str(), m.convFlops / 1e9, m.convShape.c_str(), m.cubeEff);

  // Cold data: a sample of the matrix-op grid timed again as one network, one shape after another (in a
  // model, the kernels between two uses of a tensor pass their own data through the caches).
  FW_ASSIGN_OR_RETURN(ColdCost cold, measureColdCost(threads, repeat));
  m.coldBw = cold.bytesPerS;
  m.coldHow = "intercept " + fmt("%.1f", cold.callS * 1e6) + " us a call (a cold start of a shape's code and descriptors; not "
              "charged: a model's layers repeat their shapes); per shape, alone and in sequence (us): " + cold.how;
  std::fprintf(stderr, "fwb: calibrate: matrix ops in a network: 1 s per %.1f GB of cold input, output and weights (and %.1f us "
               "a call)\n", m.coldBw / 1e9, cold.callS * 1e6);

  // A Conv's weight computed in the run (a QDQ model's DequantizeLinear at -O0): reordered on every call.
  FW_ASSIGN_OR_RETURN(m.weightReorder, measureWeightReorder(threads, repeat));
  std::fprintf(stderr,
               "fwb: calibrate: a Conv's computed weight: %.1f us a call and 1 s per %.1f GB reordered\n",
               m.weightReorder.callS * 1e6, m.weightReorder.bytesPerS / 1e9);

  // The executor's time in a run outside its nodes.
  CpuFigures copyFigures;  // the copy's bandwidth by footprint, as a profile written from here has it
  copyFigures.cacheBandwidth = m.cacheBw;
  copyFigures.bandwidthCurve = footprintCurve(m.copy);
  FW_ASSIGN_OR_RETURN(m.runOverhead, measureRunOverhead(threads, repeat, copyFigures));
  {
    const auto& o = m.runOverhead.overhead;
    std::fprintf(stderr,
                 "fwb: calibrate: run overhead outside the nodes: %.2f us a run, %.3f us a node, %.3f us an "
                 "initializer, %.2f us per MiB in and out\n",
                 o.perRunS * 1e6, o.perNodeS * 1e6, o.perInitializerS * 1e6, o.perIoByteS * 1e6 * (1 << 20));
  }

  // The vector ops timed above: throughput relative to peak = efficiency; the family's efficiency is the
  // median over its ops. The tiny size gives each op's fixed cost a call.
  const double peak = std::max(m.gemmFlops, m.convFlops);
  std::map<std::string, std::vector<double>> effs, opEffs;
  std::map<std::string, std::vector<double>> calls;
  // A row-wise op's time a row: what its rows of 8 took beyond its rows of 1024 over as many elements,
  // divided by the rows they have more.
  std::map<std::string, std::pair<double, int64_t>> shortRows;  // op -> (us, rows)
  for (size_t j = 0; j < rowWise.size(); ++j) {
    const Graph& g = *rowWise[j].bench.model.graph;
    shortRows[rowWise[j].key] = {times[1 + 2 * cases.size() + j],
                                 rowWiseRows(g, g.node(rowWise[j].bench.node))};
  }
  std::set<std::string> familyKeys;  // the efficiency keys the family cases time
  for (const auto& c : cases) {
    const Graph& cg = *c.bench.model.graph;
    familyKeys.insert(efficiencyKey(cg, cg.node(c.bench.node)));
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    auto& c = cases[i];
    const OpFigures& f = figures[i];
    const double us = times[1 + 2 * i], tinyUs = times[2 + 2 * i];
    // The tiny run is the op's fixed cost (dispatch included); the rest of the normal run is its work
    // (less its rows' time, for a row-wise op).
    const double fixedUs = std::min(tinyUs, us);
    const double work = f.work;
    const Graph& cg = *c.bench.model.graph;
    const Node& node = cg.node(c.bench.node);
    const std::string op = efficiencyKey(cg, node);
    double rowsUs = 0;
    // The op's own short rows, and a variant's of it that has no family case of its own ("Gather/elements"
    // beside the Gather case): each timed against this case's rows, over as many elements.
    for (const auto& [key, sr] : shortRows) {
      const bool own = key == op;
      if (!own && (key.rfind(op + "/", 0) != 0 || familyKeys.count(key) > 0)) continue;
      const int64_t rows = rowWiseRows(cg, node);  // none for two whole operands (an Add's case)
      if (rows >= 0 && sr.second > rows) {
        const double rowUs = std::max(0.0, (sr.first - us) / static_cast<double>(sr.second - rows));
        m.opRowUs[key] = rowUs;
        if (own) rowsUs = rowUs * static_cast<double>(rows);
        std::fprintf(stderr, "fwb: calibrate: %-13s %-22s %8.1f us in short rows: %.1f ns a row\n",
                     c.key.c_str(), key.c_str(), sr.first, rowUs * 1e3);
      }
    }
    // A ScatterElements's copy of its data, at the copy's bandwidth (scatterCopySeconds): the rest is its
    // updates' (cpuVectorWork counts them alone, as a profile with its rows prices it).
    double copyUs = 0;
    if (node.opType == "ScatterElements" && !node.inputs.empty())
      if (const auto d = cg.value(node.inputs[0]).shape.ints()) {
        double bytes = static_cast<double>(fw::dtypeSize(cg.value(node.inputs[0]).dtype));
        for (int64_t x : *d) bytes *= static_cast<double>(x);
        copyUs = scatterCopySeconds(bytes, copyFigures) * 1e6;
      }
    const double body = std::max(us - fixedUs - rowsUs - copyUs, 0.05 * us);
    const double eff = std::min(999.0, work / (peak * body * 1e-6));
    std::fprintf(stderr, "fwb: calibrate: %-13s %-22s %8.1f us (tiny %.2f us)  efficiency %.4f\n", c.key.c_str(), op.c_str(), us,
                 tinyUs, eff);
    if (!c.ownFiguresOnly) effs[c.key].push_back(eff);
    opEffs[op].push_back(eff);
    calls[op].push_back(fixedUs);
    auto it = std::find_if(m.families.begin(), m.families.end(), [&](const HostMeasurement::Family& x) { return x.key == c.key; });
    if (it == m.families.end()) {
      m.families.push_back({c.key, "", 0, 0, 0});
      it = m.families.end() - 1;
    }
    if (!c.ownFiguresOnly)
      it->op += (it->op.empty() ? "" : ", ") + op + " " + fmt("%.1f us", us) + " (" + fmt("%.4f", eff) +
                "; tiny " + fmt("%.2f us", tinyUs) + ")";
  }
  for (auto& f : m.families) f.eff = median(effs[f.key]);
  for (const auto& [op, v] : opEffs) m.opEff[op] = median(v);
  for (const auto& [op, v] : calls) m.opCallUs[op] = median(v);
  FW_ASSIGN_OR_RETURN(m.probeEnd, measureSpeedProbe(threads));
  if (const double drift = probeTimeRatio(m.probeStart, m.probeEnd); probeRatioOff(drift))
    std::fprintf(
        stderr,
        "fwb: calibrate: warning: the machine's speed moved during the calibration: the speed probe's "
        "time changed by %s from its start to its end (call %.2f -> %.2f us, stream %.1f -> %.1f, "
        "product %.1f -> %.1f); its figures mix two machine states: calibrate again when the machine "
        "is steady, or merge several calibrations (fwb calibrate --merge)\n",
        probeRatioText(drift).c_str(), m.probeStart.callUs, m.probeEnd.callUs, m.probeStart.streamUs,
        m.probeEnd.streamUs, m.probeStart.productUs, m.probeEnd.productUs);
  return m;
}

HwProfile hostProfile(const HostMeasurement& m, const std::string& name) {
  using fw::sim::HwNote;
  fw::sim::HwProfile p;
  p.name = name;
  p.kind = fw::sim::DeviceKind::Cpu;
  p.description = "This machine as the reference executor sees it (" + m.cpu + ", " + std::to_string(m.threads) +
                  (m.threads == 1 ? " thread" : " threads") + "), measured by fwb calibrate on " + today();
  p.dtype = fw::DType::Float32;
  p.clockHz = m.clockHz;
  p.cubeCores = m.threads;
  p.vectorCores = m.threads;
  p.l2Bytes = static_cast<int64_t>(m.llcBytes);
  p.hbmBandwidth = m.dramBw;
  p.cpu.coldBandwidth = m.coldBw;
  p.cpu.weightReorder.callS = m.weightReorder.callS;
  p.cpu.weightReorder.bytesPerS = m.weightReorder.bytesPerS;
  p.cpu.runOverhead = m.runOverhead.overhead;
  p.cpu.pointwisePositionBlock = m.positionBlock;
  p.cpu.convChannelBlock = m.channelBlock;
  p.hbmCapacityBytes = m.memBytes;
  p.launchUs = m.overheadUs;
  p.hostDispatchUs = 0;
  p.cpu.gemmFlops = m.gemmFlops;
  p.cpu.convFlops = m.convFlops;
  p.cpu.groupedConvFlops = m.groupedFlops;
  p.cpu.cacheBandwidth = m.cacheBw;
  p.cpu.cacheDropsBytes = m.drops;
  p.cpu.bandwidthCurve = footprintCurve(m.copy);
  p.cpu.streamCurve = footprintCurve(m.stream);
  for (const auto& f : m.families)
    for (const auto& [key, fam] : fw::sim::efficiencyKeys())
      if (key == f.key) *p.efficiency.field(fam) = f.eff;
  p.efficiency.cube = m.cubeEff;
  p.cpu.opEfficiency = m.opEff;
  for (const auto& [op, us] : m.opCallUs) p.cpu.opCallS[op] = us * 1e-6;
  for (const auto& [op, us] : m.opRowUs) p.cpu.opRowS[op] = us * 1e-6;
  p.cpu.viewCallS = m.viewCallUs * 1e-6;
  if (!m.coldCallHow.empty()) {
    p.cpu.coldCallS["vector"] = m.coldCallUs * 1e-6;
    p.cpu.coldCallS["product"] = m.coldProductCallUs * 1e-6;
    p.cpu.coldCallS["product/primitive"] = m.coldPrimitiveCallUs * 1e-6;
    p.cpu.coldCallS["shape"] = m.coldShapeCallUs * 1e-6;
    p.cpu.coldCallS["code"] = m.coldCodeCallUs * 1e-6;
    for (const auto& [op, us] : m.coldCodeUs) p.cpu.coldCallS["code/" + op] = us * 1e-6;
  }
  p.cpu.fusedCallS = m.fusedCallUs * 1e-6;
  p.cpu.coldCallCurve = m.coldCallCurve;
  p.cpu.coldNodeCurve = !m.coldCallCurve.empty();
  p.cpu.coldOutsideCurve = !m.coldCallCurve.empty();
  p.cpu.coldGather = m.coldGather;
  p.cpu.weightStreamCurve = m.weightStream;
  if (!m.farCurve.empty() && m.farProductSPerByte + m.farVectorSPerByte > 0) {
    p.cpu.farCurve = m.farCurve;
    p.cpu.farCurveVector = m.farCurveVector;
    p.cpu.farSPerByte["product"] = m.farProductSPerByte;
    p.cpu.farSPerByte["vector"] = m.farVectorSPerByte;
    if (!m.farPointwiseHow.empty()) p.cpu.farSPerByte["pointwise"] = m.farPointwiseSPerByte;
  }
  const std::string by = "measured by fwb calibrate on " + m.cpu + ", " + today() + ", " + std::to_string(m.threads) +
                         (m.threads == 1 ? " thread" : " threads") + ": ";
  auto note = [&](const std::string& field, const std::string& how) { p.notes.push_back(HwNote{field, by + how, false}); };
  note("dtype", "the reference executor computes every floating tensor in float32");
  note("clock_hz", "'cpu MHz' of /proc/cpuinfo at calibration time (the unit of the simulator's cycle counts only)");
  note("cube_cores", "the executor threads the calibration ran with (a CPU has no cube unit; oneDNN runs on these)");
  note("vector_cores", "the executor threads the calibration ran with");
  note("cpu.gemm_flops_per_s", "best rate of the MatMul shapes of cpu.cube_time_models.gemm (fp32) on the executor's "
                               "oneDNN path, per-node median, per-kernel overhead subtracted; best: " + m.gemmShape);
  note("cpu.conv_flops_per_s", "best rate of the dense Conv shapes of cpu.cube_time_models.conv (fp32) on the executor's "
                               "oneDNN path (the pointwise ones, on its GEMM path, have their own model); best: " + m.convShape);
  note("cpu.grouped_conv_flops_per_s", "best rate of the grouped Conv shapes (several input channels a group) of "
                                       "cpu.cube_time_models.grouped_conv (fp32) on the executor's oneDNN path; best: " + m.groupedShape);
  note("efficiency.cube", "median over the GEMM, dense, pointwise, grouped and depthwise Conv cases of rate / best rate of its kind; "
                          "GFLOP/s per case: " + m.cubeCases);
  std::string curve;
  for (const auto& [bytes, bw] : m.copy) curve += (curve.empty() ? "" : ", ") + bytesStr(static_cast<double>(bytes)) + " " + fmt("%.1f", bw / 1e9);
  note("cpu.cache_bandwidth_bytes_per_s", "median streaming-copy bandwidth (read + write, best of 7 samples per size) over "
                                          "buffers whose footprint fits the last-level cache but not the level before; the "
                                          "curve in GB/s by buffer size: " + curve);
  if (m.coldBw > 0) {
    const std::string how = "least-squares line (relative error) of (time in sequence - time alone) on the input + output + "
                            "weight bytes, over a sample of the matrix-op shapes run as one network";
    note("cpu.cold_bandwidth_bytes_per_s", "1 / slope of the " + how + "; " + m.coldHow);
  }
  const std::string reorderHow =
      "a 3x3 Conv timed on a model's weight and on a weight a Mul by a graph input computes in the run (the "
      "Conv's "
      "node time, median of 3 rounds), the difference fitted as s_per_call + weight bytes / bytes_per_s by "
      "non-negative least squares on relative error (0 when no shape paid it); per shape weight, "
      "model-weight us, "
      "computed-weight us: ";
  note("cpu.weight_reorder", reorderHow + m.weightReorder.how);
  if (m.runOverhead.overhead.any())
    note("cpu.run_overhead",
         "non-negative least squares (relative error) of a run's wall time less its nodes' times and one "
         "copy of its output at cpu.bandwidth_curve, as fwb profile runs a model (median of 3 rounds), on "
         "chains of Adds (a float input, held as is); per chain nodes/initializers/bytes out, measured us "
         "(model "
         "us, copies included): " +
             m.runOverhead.how);
  note("cpu.pointwise_position_block", "a 1x1 Conv 256->256 over 1 x P positions timed for P on both sides of multiples of "
                                      "16 (positions us), and the RMS ln residual of time = a + c * ceil(P / b) * b for each "
                                      "block b, from 1 up; a larger block replaces a smaller one only when its residual is 10 % "
                                      "below: " + m.positionHow);
  note("cpu.conv_channel_block", "a 3x3 Conv 64->M at 28x28 timed for M on both sides of multiples of 16 (M us), and the RMS "
                                 "ln residual of time = a + c * ceil(M / b) * b for each block b, from 1 up; a larger block "
                                 "replaces a smaller one only when its residual is 10 % below: " + m.channelHow);
  note("cpu.bandwidth_curve", "best-of-7 streaming-copy bandwidth (read + write) per buffer size, by footprint (2 x buffer)");
  note("cpu.stream_curve",
       "a chain of 8 Relu nodes on the executor, one tensor streamed into the next: bytes moved "
       "(input + output) per second of the median node time (median of 3 rounds), by footprint "
       "(2 x tensor)");
  if (!m.drops.empty())
    note("cpu.cache_drops_bytes",
         "footprints where the streaming-copy bandwidth falls 10 % under its level's, the level's end (a "
         "level: where it stays under 70 % of the level before, each level its median)");
  note("cpu.op_call_s", "each op type of cpu.op_efficiency timed on a tiny tensor (16 elements, or 4 channels of 2x2): what a "
                       "call costs whatever its size, dispatch included; its efficiency is measured on the time beyond it");
  if (!m.opRowUs.empty())
    note("cpu.op_row_s",
         "Softmax, LogSoftmax, LayerNormalization and a Transpose that moves whole rows "
         "(Transpose/rows) over 32K floats in rows of 8 (4096 rows) beside "
         "their cases' rows of 1024 (32 rows), and a Gather of 1024 rows of 8 floats from a [4096, 8] "
         "table beside its case's 8 rows of 1024, a Gather of 8192 single floats from [8, 2048] along its "
         "last axis (Gather/elements) beside the same case, a Split of [2048, 16] into halves beside "
         "[32, 1024]'s, a Slice of [1024, 32] to 16 columns beside [32, 1024] to 512, ReduceMean, ReduceSum "
         "and ReduceMax over the last axis of [4096, 8] beside their "
         "cases' rows of 1024, the top 16 of [4096, 64] beside the TopK case's of [512, 1024] (its rows the "
         "values that go in among a row's best), Add, Sub, Mul and Div of [64, 64, 8] and [64, 1, 8] "
         "(4096 broadcast rows of 8) beside their cases' two whole [32, 1024], "
         "and a BatchNormalization of [1, 4096, 2, 4] (4096 planes of 8) beside its case's 32 planes of "
         "1024, timed in the same rounds: the time the short rows took more, per row they have more; the "
         "cases' efficiencies are measured on the time beyond their rows'");
  if (!m.coldGatherHow.empty())
    note("cpu.cold_gather",
         "what a Gather's picks took more from a table in DRAM than from cache, fitted (non-negative least "
         "squares on relative error) as a time a row plus a time a byte to three row widths, each 6 Gathers "
         "of "
         "the same rows spread over a table of 4096 " +
             m.coldGatherHow +
             (m.coldGather.anyFar()
                  ? "; the near figures at " + bytesStr(m.coldGather.distanceBytes) +
                        " apart, the far ones (" + fmt("%.1f", m.coldGather.far.perRowS * 1e9) +
                        " ns a row, " + fmt("%.3f", m.coldGather.far.perByteS * 1e9) + " ns a byte) at " +
                        bytesStr(m.coldGather.far.distanceBytes) +
                        ", a pick between taking them interpolated in log distance"
                  : std::string()) +
             (m.coldGather.any() ? "" : " (no width slower from DRAM in two or more: nothing charged)"));
  if (!p.cpu.weightStreamCurve.empty())
    note("cpu.weight_stream_curve",
         std::string("a Gemm [2, 512] x [512, N]^T alone on weights of 0.5 to 16 MiB") +
             (p.cpu.weightStreamCurve.back().first >= 256.0 * 1024 * 1024 ? " and 256 MiB" : "") +
             " (its distance: its weight's bytes) and in one run over 8 and 16 copies on 4 MiB weights of their own "
             "(the copies' weights): weight bytes a second of the median time less the per-kernel overhead "
             "(launch_us), medians of 3 rounds: " +
             m.weightStreamHow);
  p.cpu.probe = probeMidpoint(m.probeStart, m.probeEnd);
  if (p.cpu.probe.valid())
    note("cpu.speed_probe_us",
         "the machine's speed: an Add of 16 floats (\"call\"), a Relu over 2 MiB (\"stream\") and a "
         "128x128x128 "
         "MatMul (\"product\"), each the median node time over 3 rounds of 15 runs, at the calibration's "
         "start (" +
             fmt("%.2f", m.probeStart.callUs) + ", " + fmt("%.1f", m.probeStart.streamUs) + ", " +
             fmt("%.1f", m.probeStart.productUs) + " us) and end (" + fmt("%.2f", m.probeEnd.callUs) + ", " +
             fmt("%.1f", m.probeEnd.streamUs) + ", " + fmt("%.1f", m.probeEnd.productUs) +
             " us; the time changed by " + probeRatioText(probeTimeRatio(m.probeStart, m.probeEnd)) +
             "); the geometric mean of the two");
  if (!p.cpu.farCurve.empty()) {
    const std::string how =
        "a 3x3 Conv 8 -> 32 at 256x256 (\"product\") and a Relu over 8 MiB (\"vector\"), each alone and in "
        "one run "
        "after a Neg over 4 to 128 MiB, medians of 3 rounds; ";
    note("cpu.far_curve",
         "the share of the largest Neg's excess that each Neg size's took, at the distance of "
         "the Neg's input and output and half the op's own bytes: " +
             how + m.farHow);
    if (!p.cpu.farCurveVector.empty())
      note("cpu.far_curve_vector",
           "the same share of the Relu's excess alone (a vector op's; the Conv's excess at the shorter "
           "distances "
           "is mostly its run-to-run noise): " +
               how + m.farHow);
    note("cpu.far_s_per_byte",
         "the excess after the largest Neg over the op's activation bytes larger than the "
         "core's own cache: " +
             how + m.farHow +
             (m.farPointwiseHow.empty()
                  ? std::string()
                  : "; \"pointwise\": what a batch of a pointwise Conv's images took more than its images at "
                    "one image's time, over its input and output bytes beyond the last-level cache's, 3 "
                    "interleaved rounds: " +
                        m.farPointwiseHow));
  }
  if (!m.coldCallHow.empty())
    note(
        "cpu.cold_call_s",
        "what a call costs more with its code and data evicted from the core's own cache: the median node "
        "time of 12 tiny ops each after a Neg over twice that cache's bytes, less that of the same 12 in a "
        "row (\"vector\": a one-element Add; \"product\": a 4x16 by 16x4 MatMul), 3 rounds; \"code/<op "
        "type>\": "
        "the op's median time on [64, 8], the output of a tiny Neg after such a Neg, less its time on a tiny "
        "Neg's output again and again, 16 op types, 3 rounds; \"code\": their median; \"shape\": the mean "
        "node time of the int64 Gather, Add, Div and Mul of 12 shape chains each after such a Neg, less "
        "that of 12 chains in a row, the median of 3 rounds; " +
            m.coldCallHow);
  if (!m.coldCallCurve.empty())
    note(
        "cpu.cold_call_curve",
        "what a one-element Add and a 4x16 by 16x4 MatMul take more than in a row after each of 3 Negs whose "
        "input and output together are that many bytes (2 to 64 MiB), and (\"code\") what an Add, a "
        "ReduceMean and a Transpose on [64, 8] take more after each such Neg and a tiny Neg "
        "whose output they read than after the tiny Neg alone (their median), and (\"node\") what the third "
        "to last Adds of a chain of 8 Adds on [64, 8] take more after one such Neg a run than in a row, and "
        "(\"outside\") what the run's time outside its nodes takes more a node with a chain of 72 such Adds "
        "than with 8, the Neg's output reduced in the run, the medians of 3 rounds, the running maximum by "
        "distance: " +
            m.coldCurveHow);
  note("cpu.view_call_s",
       "a Reshape of a [32,1024] tensor (a view: the executor hands out its input), 64 nodes, median "
       "time a node");
  note("cpu.fused_call_s",
       "32 calls of a model-local function whose body is a Relu then a Neg on 16 elements (as fwb fuse "
       "exports a fused kernel), median time a call, less twice the median time of those two ops as "
       "plain nodes");
  note("cpu.op_efficiency", "each op type timed on a cache-resident tensor (the cases listed under efficiency.*); it replaces "
                           "its family's efficiency for that op type");
  note("l2_bytes", "last-level cache: " + m.llcHow);
  note("hbm_bandwidth_bytes_per_s", "streaming-copy bandwidth (read + write) at the largest buffer, " +
                                        bytesStr(static_cast<double>(m.copy.back().first)) + " (DRAM)");
  note("hbm_capacity_bytes", "MemTotal of /proc/meminfo");
  note("launch_us", "median wall time of a one-element Add node (64 per run), the executor's per-node overhead");
  note("host_dispatch_us", "0: the executor runs each node on the calling thread; its dispatch is part of launch_us");
  for (const auto& f : m.families)
    note("efficiency." + f.key, "median over " + f.op +
                                    " (per-node time, efficiency) on cache-resident tensors; efficiency = "
                                    "work (max of FLOPs and elements; a pool: the taps of its 1-D passes) / "
                                    "(peak FLOP/s x (time - overhead))");
  for (const auto& [kind, fit] : m.cubeModels) {
    p.cpu.cubeModels[kind] = fit.model;
    const std::string stream =
        fit.model.weightStreamEfficiency > 0
            ? "; weight_stream_efficiency " + fmt("%.3f", fit.model.weightStreamEfficiency) +
                  (kind == "depthwise_conv"
                       ? std::string(": the share of the streaming-copy bandwidth (at the footprint of the "
                                     "plain and blocked copies, 2 x (input + output)) its three passes over "
                                     "its activations (the reorders and the kernel, 3 x (input + output)) "
                                     "stream at")
                       : ": the share of the streaming-copy bandwidth (at the weights' footprint) the "
                         "weights "
                         "stream at, once an " +
                             std::string(fit.model.weightStreamPerImage ? "image (weight_stream_reads)"
                                                                        : "output row of each image")) +
                  ", fitted with the coefficients (0.30 to 1.50 by 0.05, once a row or once an image, the "
                  "share "
                  "of the shorter unhidden 0 to 1 by quarters: the least RMS); the shapes that stream bounds "
                  "within 80 % of their time are left out of the least squares, and the model is the larger "
                  "of the two plus weight_stream_share " +
                  fmt("%.2f", fit.model.weightStreamShare) + " of the shorter"
            : "";
    note("cpu.cube_time_models." + kind,
         "fitted (non-negative least squares on relative error) to " + std::to_string(fit.model.cases) +
             " shapes timed on the executor, RMS ln(model/measured) " + fmt("%.3f", fit.model.rmsLogError) +
             stream + "; us per shape without the per-kernel overhead, measured (model): " + fit.cases);
  }
  std::string shareHow, farShareHow;
  p.cpu.productStream = productStreamShares(p, m.productStreamUs, false, shareHow);
  if (!p.cpu.productStream.empty())
    p.cpu.productStreamFar = productStreamShares(p, m.productStreamFarUs, true, farShareHow);
  if (p.cpu.productStreamFar.distance <= p.cpu.productStream.distance) p.cpu.productStreamFar = {};
  if (!p.cpu.productStream.empty())
    note("cpu.product_stream_distance_bytes",
         "the reuse distance of the product_stream_share runs' weights (16 copies' weights and outputs), the "
         "largest over their rows");
  if (!p.cpu.productStream.empty())
    note("cpu.product_stream_share",
         "a MatMul [R, 512] x [512, 2048] for R = 4, 8, 16 and 32, each in one run over 16 copies on 4 MiB "
         "weights of their own, the median node time of 3 rounds less the per-kernel overhead (launch_us); "
         "the share is (time - the longer of cpu.cube_time_models.gemm's time and the weight's stream at its "
         "distance by cpu.weight_stream_curve) / the shorter, within [0, 1]: " +
             shareHow);
  if (!p.cpu.productStreamFar.empty()) {
    note("cpu.product_stream_far_distance_bytes",
         "the reuse distance of the product_stream_share_far runs' weights (16 copies' weights and outputs), "
         "the largest over their rows");
    note("cpu.product_stream_share_far",
         "as cpu.product_stream_share on 16 MiB weights: a MatMul [R, 512] x [512, 8192] for R = 4, 8, 16 "
         "and 32, each in one run over 16 copies: " +
             farShareHow);
  }
  return p;
}

}  // namespace fw::sim
