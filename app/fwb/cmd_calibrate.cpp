// fwb calibrate -o host.json [--threads N] [--name NAME]
//     Measures this machine with microbenchmarks on the reference executor and writes a hardware profile
//     of kind "cpu" (simulator/CpuCost.h says how the simulator uses it).
// fwb calibrate --from op_summary.csv --hw PROFILE MODEL [-O L ...] [-o FITTED.json] [--fit FIELDS]
//     Fits the profile's uncertain fields to a board's per-op times (msprof op_summary CSV) by least squares
//     against the simulated kernels of MODEL (simulator/ProfileFit.h).
// fwb calibrate --synthesize OUT.csv --hw PROFILE MODEL [-O L ...] [--set FIELD=VALUE ...] [--noise 0.05] [--seed N]
//     Writes the op summary a board with PROFILE (changed by --set) would give for MODEL, with seeded noise:
//     the test input of --from when there is no board.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/fwb/CliCommon.h"
#include "core/exec/Executor.h"
#include "core/ir/OpCost.h"
#include "core/util/FileUtil.h"
#include "core/zoo/ZooBuilder.h"
#include "fusion/Pipeline.h"
#include "simulator/HwProfile.h"
#include "simulator/OpFamily.h"
#include "simulator/OpSummary.h"
#include "simulator/ProfileFit.h"
#include "ui/analysis/Analysis.h"

namespace fwcli {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string procField(const char* file, const char* key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  return {};
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string bytesStr(double b) {
  if (b >= 1 << 30) return fmt("%.1f GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt("%.1f MiB", b / (1 << 20));
  return fmt("%.0f KiB", b / 1024);
}

// --- microbenchmarks on the reference executor ------------------------------------------------------

// A model of `copies` independent one-node chains x -> op -> y_i built by `make`, run through the
// executor with its per-node profile; returns the median wall time of one node.
struct Bench {
  fw::Model model;
  std::vector<fw::Tensor> inputs;
  fw::NodeId node = fw::kNoId;  // the node whose cost figures (FLOPs, elements) are used
};

fw::Result<double> timeNode(const Bench& b, int threads, int warmup, int repeat) {
  fw::ExecOptions o;
  o.threads = threads;
  for (int w = 0; w < warmup; ++w) {
    auto r = fw::runGraph(b.model, b.inputs, o);
    if (!r.ok()) return r.error();
  }
  std::vector<double> us;
  for (int i = 0; i < repeat; ++i) {
    fw::ExecProfile prof;
    o.profile = &prof;
    auto r = fw::runGraph(b.model, b.inputs, o);
    if (!r.ok()) return r.error();
    for (const auto& t : prof.nodes) us.push_back(t.us);
  }
  return median(us);
}

// Values like a network's activations: both signs, unpredictable (kernels that branch on the sign,
// LeakyRelu, Max, a numerically careful Sigmoid, run at their real speed), around `v0`.
fw::Tensor filled(std::vector<int64_t> dims, float v0) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  uint64_t x = 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(n);
  for (auto& e : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    e = v0 + static_cast<float>(static_cast<double>(x >> 11) / 9007199254740992.0 * 2.0 - 1.0);
  }
  return fw::Tensor::floats(std::move(dims), v);
}

// One op on input x[dims] (plus optional initializers), `copies` times on the same input: every node's
// time is one sample. The input is a graph input, so nothing is constant-folded.
Bench oneOp(const std::string& op, const std::vector<int64_t>& dims, const std::vector<fw::Tensor>& weights,
            fw::Attributes attrs, int copies) {
  fw::Graph g;
  g.name = "calibrate_" + op;
  const fw::ValueId x = g.addInput("x", fw::DType::Float32, fw::Shape::ofInts(dims));
  std::vector<fw::ValueId> ws;
  for (size_t i = 0; i < weights.size(); ++i) ws.push_back(g.addInitializer("w" + std::to_string(i), weights[i]));
  Bench b;
  for (int c = 0; c < copies; ++c) {
    std::vector<fw::ValueId> ins = {x};
    ins.insert(ins.end(), ws.begin(), ws.end());
    const fw::ValueId y = g.addValue("y" + std::to_string(c), fw::DType::Float32);
    const fw::NodeId n = g.addNode(op, ins, {y}, attrs, op + "_" + std::to_string(c));
    if (c == 0) b.node = n;
    g.addOutput(y);
  }
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:" + op;
  b.inputs = {filled(dims, 0.0f)};
  return b;
}

struct OpFigures {
  double flops = 0, elems = 0, bytes = 0;
};

// Shapes of the bench graph (for FLOPs): the executor infers them; the cost helper needs them stored.
fw::Result<OpFigures> figuresOf(Bench& b) {
  fw::Model m = b.model;
  auto shapes = fw::resolveShapes(m);
  if (!shapes.ok()) return shapes.error();
  const fw::Graph& g = *m.graph;
  const fw::NodeCost nc = fw::nodeCost(g, b.node);
  if (!nc.known) return fw::Error::internal("calibrate: " + nc.problem);
  OpFigures f;
  f.flops = nc.flops;
  f.bytes = nc.bytesIn + nc.bytesOut + nc.weightBytes;
  const fw::Node& n = g.node(b.node);
  double out = 0, in = 0;
  for (fw::ValueId v : n.outputs)
    if (auto d = g.value(v).shape.ints()) {
      double e = 1;
      for (int64_t x : *d) e *= static_cast<double>(x);
      out += e;
    }
  if (auto d = g.value(n.inputs[0]).shape.ints()) {
    in = 1;
    for (int64_t x : *d) in *= static_cast<double>(x);
  }
  const auto fam = fw::sim::opFamily(n.opType);
  f.elems = fam == fw::sim::OpFamily::Reduction ? std::max(in, out) : out;
  b.model = std::move(m);
  return f;
}

// Streaming copy of `bytes` (split over `threads` threads): the best of 7 samples of ~8 ms, counting the
// read and the write (2 × bytes per copy).
double copyBandwidth(size_t bytes, int threads) {
  const size_t per = std::max<size_t>(bytes / static_cast<size_t>(threads) / 64 * 64, 64);
  std::vector<std::vector<char>> src(static_cast<size_t>(threads)), dst(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    src[static_cast<size_t>(t)].assign(per, static_cast<char>(t + 1));
    dst[static_cast<size_t>(t)].assign(per, 0);
  }
  // Enough copies per sample for ~4 ms, at least one.
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
  for (int s = 0; s < 7; ++s) {
    const auto a = Clock::now();
    copyAll(reps);
    const double sec = std::chrono::duration<double>(Clock::now() - a).count();
    bw.push_back(2.0 * static_cast<double>(per) * threads * reps / sec);
  }
  // Best of the samples, as STREAM reports: another process on the machine only ever slows a sample.
  return *std::max_element(bw.begin(), bw.end());
}

struct Measured {
  std::string cpu;
  int threads = 1;
  double clockHz = 0, memBytes = 0;
  double overheadUs = 0;
  double gemmFlops = 0, convFlops = 0;
  double groupedFlops = 0;  // depthwise convolutions: oneDNN's rate differs by an order of magnitude
  std::string gemmShape, convShape, groupedShape;
  std::vector<std::pair<size_t, double>> copy;  // buffer bytes -> bandwidth
  std::vector<int64_t> drops;                   // footprints where the bandwidth drops
  double cubeEff = 1;                           // median rate / peak over the GEMM and Conv cases
  std::map<std::string, double> opEff;          // per op type measured (median over its cases)
  std::string cubeCases;
  double llcBytes = 0, cacheBw = 0, dramBw = 0;
  std::string llcHow;
  struct Family {
    std::string key, op;  // op: what was run, with its time and efficiency
    double us = 0, work = 0, eff = 0;
  };
  std::vector<Family> families;
};

fw::Result<Measured> measureHost(int threads, int repeat) {
  Measured m;
  m.threads = threads;
  m.cpu = procField("/proc/cpuinfo", "model name");
  if (m.cpu.empty()) m.cpu = "an unnamed CPU";
  m.clockHz = std::atof(procField("/proc/cpuinfo", "cpu MHz").c_str()) * 1e6;
  if (m.clockHz <= 0) m.clockHz = 1e9;  // no clock reported: cycles are then nanoseconds
  m.memBytes = std::atof(procField("/proc/meminfo", "MemTotal").c_str()) * 1024.0;
  if (m.memBytes <= 0) m.memBytes = 1e9;
  const int warm = 3;

  // Per-kernel overhead: a one-element Add, many copies (each node one sample).
  {
    Bench b = oneOp("Add", {1}, {fw::Tensor::floats({1}, {1.0f})}, {}, 64);
    FW_ASSIGN_OR_RETURN(m.overheadUs, timeNode(b, threads, warm, repeat));
  }
  std::fprintf(stderr, "fwb: calibrate: per-kernel overhead %.2f us\n", m.overheadUs);

  // Peak GEMM / convolution through the executor's oneDNN path: the best of a few sizes each; the cube
  // efficiency is the median over all of them of rate / peak of its kind (real layers rarely hit the best).
  std::vector<double> cubeRatios;
  {
    std::vector<std::pair<double, std::string>> gemm, conv;
    for (int64_t s : {256, 512, 1024}) {
      Bench b = oneOp("MatMul", {s, s}, {filled({s, s}, 0.25f)}, {}, 2);
      FW_ASSIGN_OR_RETURN(OpFigures f, figuresOf(b));
      FW_ASSIGN_OR_RETURN(double us, timeNode(b, threads, warm, std::max(3, repeat / 4)));
      gemm.push_back({f.flops / (std::max(us - m.overheadUs, 1e-3) * 1e-6),
                      "MatMul " + std::to_string(s) + "x" + std::to_string(s) + "x" + std::to_string(s)});
    }
    struct ConvCase {
      int64_t cin, cout, hw, k, group;
    };
    std::vector<std::pair<double, std::string>> grouped;
    for (ConvCase cc : {ConvCase{64, 64, 56, 3, 1}, ConvCase{128, 128, 28, 3, 1}, ConvCase{256, 256, 14, 3, 1},
                        ConvCase{64, 256, 56, 1, 1}, ConvCase{256, 64, 56, 1, 1}, ConvCase{512, 128, 28, 1, 1},
                        ConvCase{96, 96, 56, 3, 96}, ConvCase{144, 144, 28, 3, 144}, ConvCase{32, 32, 112, 3, 32}}) {
      const int64_t pad = cc.k / 2;
      Bench b = oneOp("Conv", {1, cc.cin, cc.hw, cc.hw}, {filled({cc.cout, cc.cin / cc.group, cc.k, cc.k}, 0.01f)},
                      fw::zoo::attrs({fw::Attribute::makeInts("pads", {pad, pad, pad, pad}),
                                      fw::Attribute::makeInt("group", cc.group)}),
                      2);
      FW_ASSIGN_OR_RETURN(OpFigures f, figuresOf(b));
      FW_ASSIGN_OR_RETURN(double us, timeNode(b, threads, warm, std::max(3, repeat / 4)));
      (cc.group > 1 ? grouped : conv).push_back({f.flops / (std::max(us - m.overheadUs, 1e-3) * 1e-6),
                      "Conv " + std::to_string(cc.k) + "x" + std::to_string(cc.k) + " " + std::to_string(cc.cin) + "->" +
                          std::to_string(cc.cout) + (cc.group > 1 ? " depthwise" : "") + " at " + std::to_string(cc.hw) +
                          "x" + std::to_string(cc.hw)});
    }
    for (auto* set : {&gemm, &conv, &grouped}) {
      const auto best = *std::max_element(set->begin(), set->end());
      (set == &gemm ? m.gemmFlops : set == &conv ? m.convFlops : m.groupedFlops) = best.first;
      (set == &gemm ? m.gemmShape : set == &conv ? m.convShape : m.groupedShape) = best.second;
      for (const auto& [r, what] : *set) {
        cubeRatios.push_back(r / best.first);
        m.cubeCases += (m.cubeCases.empty() ? "" : "; ") + what + " " + fmt("%.1f", r / 1e9);
      }
    }
    m.cubeEff = median(cubeRatios);
  }
  std::fprintf(stderr, "fwb: calibrate: GEMM %.1f GFLOP/s (%s), Conv %.1f GFLOP/s (%s), median share of peak %.2f\n",
               m.gemmFlops / 1e9, m.gemmShape.c_str(), m.convFlops / 1e9, m.convShape.c_str(), m.cubeEff);

  // Streaming copy from 8 KiB to 256 MiB buffers (footprint: source + destination = 2x).
  for (size_t bytes = 8 << 10; bytes <= (size_t{256} << 20); bytes *= 2) {
    if (static_cast<double>(bytes) * 2.5 > m.memBytes / 4) break;
    m.copy.push_back({bytes, copyBandwidth(bytes, threads)});
  }
  // A drop: from this size on the bandwidth never again reaches 70 % of the best below it (a cache
  // boundary is permanent; a dip from another process on the machine is not).
  // The last two sizes cannot start a drop: nothing after them shows that it lasts.
  for (size_t i = 1; i + 2 < m.copy.size(); ++i) {
    double below = 0, above = 0;
    for (size_t j = 0; j < i; ++j) below = std::max(below, m.copy[j].second);
    for (size_t j = i; j < m.copy.size(); ++j) above = std::max(above, m.copy[j].second);
    const bool newLevel = m.drops.empty() || static_cast<int64_t>(2 * m.copy[i - 1].first) > m.drops.back();
    // Only the first size of a drop counts; the plateau below is the best since the previous drop.
    double plateau = 0;
    for (size_t j = 0; j < i; ++j)
      if (m.drops.empty() || static_cast<int64_t>(2 * m.copy[j].first) > m.drops.back()) plateau = std::max(plateau, m.copy[j].second);
    if (newLevel && above < 0.7 * plateau && below > 0) m.drops.push_back(static_cast<int64_t>(2 * m.copy[i - 1].first));
  }
  m.dramBw = m.copy.back().second;
  if (!m.drops.empty()) {
    m.llcBytes = static_cast<double>(m.drops.back());
    m.llcHow = "the footprint (source + destination) after which the copy bandwidth last drops below 70 % of its plateau";
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
  const double inner = m.drops.size() >= 2 ? static_cast<double>(m.drops[m.drops.size() - 2]) : 0.0;
  std::vector<double> inCache;
  for (const auto& [bytes, bw] : m.copy)
    if (2.0 * static_cast<double>(bytes) <= m.llcBytes && 2.0 * static_cast<double>(bytes) > inner) inCache.push_back(bw);
  m.cacheBw = inCache.empty() ? m.dramBw : median(inCache);
  std::fprintf(stderr, "fwb: calibrate: copy bandwidth %.1f GB/s in cache, %.1f GB/s from DRAM; LLC %s\n", m.cacheBw / 1e9,
               m.dramBw / 1e9, bytesStr(m.llcBytes).c_str());

  // A few ops per family at a size that fits the cache: throughput relative to peak = efficiency; the
  // family's efficiency is the median over its ops.
  using fw::Attribute;
  const int64_t rows = 256, cols = 1024;
  struct FamCase {
    std::string key;
    Bench bench;
  };
  const std::vector<int64_t> img = {1, 64, 64, 64};
  std::vector<FamCase> cases;
  auto I64 = [](std::vector<int64_t> v) { return fw::Tensor::int64s({static_cast<int64_t>(v.size())}, v); };
  const fw::Tensor same = filled({rows, cols}, 0.5f);
  for (const char* op : {"Add", "Mul", "Sub", "Div", "Max"}) cases.push_back({"elementwise", oneOp(op, {rows, cols}, {same}, {}, 8)});
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Erf", "Sqrt", "Exp", "HardSigmoid", "HardSwish", "LeakyRelu", "Neg"}) {
    cases.push_back({"elementwise", oneOp(op, {rows, cols}, {}, {}, 8)});
    // Sqrt of a negative number takes the library's error path; a network takes the root of a variance.
    if (std::string(op) == "Sqrt") cases.back().bench.inputs = {filled({rows, cols}, 1.5f)};
  }
  cases.push_back({"elementwise", oneOp("Clip", {rows, cols}, {fw::Tensor::floats({}, {0.0f}), fw::Tensor::floats({}, {6.0f})}, {}, 8)});
  cases.push_back({"elementwise", oneOp("Pow", {rows, cols}, {fw::Tensor::floats({}, {2.0f})}, {}, 8)});
  cases.push_back({"reduction", oneOp("ReduceMean", {rows, cols}, {},
                                      fw::zoo::attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 1)}), 8)});
  cases.push_back({"reduction", oneOp("ReduceSum", {rows, cols}, {I64({-1})}, fw::zoo::attrs({Attribute::makeInt("keepdims", 1)}), 8)});
  cases.push_back({"reduction", oneOp("GlobalAveragePool", img, {}, {}, 8)});
  cases.push_back({"softmax", oneOp("Softmax", {rows, cols}, {}, fw::zoo::attrs({Attribute::makeInt("axis", -1)}), 8)});
  cases.push_back({"norm", oneOp("LayerNormalization", {rows, cols}, {filled({cols}, 1.0f), filled({cols}, 0.0f)},
                                 fw::zoo::attrs({Attribute::makeInt("axis", -1)}), 8)});
  cases.push_back({"norm", oneOp("BatchNormalization", img,
                                 {filled({64}, 1.0f), filled({64}, 0.0f), filled({64}, 0.0f), filled({64}, 1.0f)}, {}, 8)});
  cases.push_back({"norm", oneOp("InstanceNormalization", img, {filled({64}, 1.0f), filled({64}, 0.0f)}, {}, 8)});
  cases.push_back({"pooling", oneOp("MaxPool", img, {},
                                    fw::zoo::attrs({Attribute::makeInts("kernel_shape", {3, 3}),
                                                    Attribute::makeInts("pads", {1, 1, 1, 1})}), 8)});
  cases.push_back({"pooling", oneOp("AveragePool", img, {},
                                    fw::zoo::attrs({Attribute::makeInts("kernel_shape", {3, 3}),
                                                    Attribute::makeInts("pads", {1, 1, 1, 1})}), 2)});
  cases.push_back({"data_movement", oneOp("Transpose", {rows, cols}, {}, fw::zoo::attrs({Attribute::makeInts("perm", {1, 0})}), 8)});
  cases.push_back({"data_movement", oneOp("Transpose", img, {}, fw::zoo::attrs({Attribute::makeInts("perm", {0, 2, 3, 1})}), 8)});
  cases.push_back({"data_movement", oneOp("Concat", {rows, cols}, {same}, fw::zoo::attrs({Attribute::makeInt("axis", 1)}), 8)});
  cases.push_back({"data_movement", oneOp("Slice", {rows, cols}, {I64({0}), I64({cols / 2}), I64({1})}, {}, 8)});
  cases.push_back({"data_movement", oneOp("Gather", {rows, cols}, {I64({0, 5, 9, 17, 33, 65, 129, 255})},
                                          fw::zoo::attrs({Attribute::makeInt("axis", 0)}), 8)});
  cases.push_back({"data_movement", oneOp("Expand", {1, cols}, {I64({rows, cols})}, {}, 8)});
  const double peak = std::max(m.gemmFlops, m.convFlops);
  std::map<std::string, std::vector<double>> effs, opEffs;
  for (auto& c : cases) {
    FW_ASSIGN_OR_RETURN(OpFigures f, figuresOf(c.bench));
    FW_ASSIGN_OR_RETURN(double us, timeNode(c.bench, threads, warm, repeat));
    const double work = std::max(f.flops, f.elems);
    const double body = std::max(us - m.overheadUs, 0.05 * us);
    const double eff = std::min(999.0, work / (peak * body * 1e-6));
    const std::string op = c.bench.model.graph->node(c.bench.node).opType;
    std::fprintf(stderr, "fwb: calibrate: %-13s %-22s %8.1f us  efficiency %.4f\n", c.key.c_str(), op.c_str(), us, eff);
    effs[c.key].push_back(eff);
    opEffs[op].push_back(eff);
    auto it = std::find_if(m.families.begin(), m.families.end(), [&](const Measured::Family& x) { return x.key == c.key; });
    if (it == m.families.end()) {
      m.families.push_back({c.key, "", 0, 0, 0});
      it = m.families.end() - 1;
    }
    it->op += (it->op.empty() ? "" : ", ") + op + " " + fmt("%.1f us", us) + " (" + fmt("%.4f", eff) + ")";
  }
  for (auto& f : m.families) f.eff = median(effs[f.key]);
  for (const auto& [op, v] : opEffs) m.opEff[op] = median(v);
  return m;
}

fw::sim::HwProfile profileOf(const Measured& m, const std::string& name) {
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
  p.hbmCapacityBytes = m.memBytes;
  p.launchUs = m.overheadUs;
  p.hostDispatchUs = 0;
  p.cpu.gemmFlops = m.gemmFlops;
  p.cpu.convFlops = m.convFlops;
  p.cpu.groupedConvFlops = m.groupedFlops;
  p.cpu.cacheBandwidth = m.cacheBw;
  p.cpu.cacheDropsBytes = m.drops;
  for (const auto& [bytes, bw] : m.copy) p.cpu.bandwidthCurve.push_back({2.0 * static_cast<double>(bytes), bw});
  for (const auto& f : m.families)
    for (const auto& [key, fam] : fw::sim::efficiencyKeys())
      if (key == f.key) *p.efficiency.field(fam) = f.eff;
  p.efficiency.cube = m.cubeEff;
  p.cpu.opEfficiency = m.opEff;
  const std::string by = "measured by fwb calibrate on " + m.cpu + ", " + today() + ", " + std::to_string(m.threads) +
                         (m.threads == 1 ? " thread" : " threads") + ": ";
  auto note = [&](const std::string& field, const std::string& how) { p.notes.push_back(HwNote{field, by + how, false}); };
  note("dtype", "the reference executor computes every floating tensor in float32");
  note("clock_hz", "'cpu MHz' of /proc/cpuinfo at calibration time (the unit of the simulator's cycle counts only)");
  note("cube_cores", "the executor threads the calibration ran with (a CPU has no cube unit; oneDNN runs on these)");
  note("vector_cores", "the executor threads the calibration ran with");
  note("cpu.gemm_flops_per_s", "best of MatMul 256^3, 512^3, 1024^3 (fp32) on the executor's oneDNN path, per-node median, "
                               "per-kernel overhead subtracted; best: " + m.gemmShape);
  note("cpu.conv_flops_per_s", "best of seven convolutions (3x3, 1x1, depthwise; fp32) on the executor's oneDNN path; best: " +
                               m.convShape);
  note("cpu.grouped_conv_flops_per_s", "best of three depthwise 3x3 convolutions (fp32) on the executor's oneDNN path; best: " +
                                       m.groupedShape);
  note("efficiency.cube", "median over the GEMM, Conv and depthwise Conv cases of rate / best rate of its kind; GFLOP/s per case: " + m.cubeCases);
  std::string curve;
  for (const auto& [bytes, bw] : m.copy) curve += (curve.empty() ? "" : ", ") + bytesStr(static_cast<double>(bytes)) + " " + fmt("%.1f", bw / 1e9);
  note("cpu.cache_bandwidth_bytes_per_s", "median streaming-copy bandwidth (read + write, best of 7 samples per size) over "
                                          "buffers whose footprint fits the last-level cache but not the level before; the "
                                          "curve in GB/s by buffer size: " + curve);
  note("cpu.bandwidth_curve", "best-of-7 streaming-copy bandwidth (read + write) per buffer size, by footprint (2 x buffer)");
  if (!m.drops.empty()) note("cpu.cache_drops_bytes", "footprints after which the streaming-copy bandwidth drops below 70 % of its plateau");
  note("cpu.op_efficiency", "each op type timed on a cache-resident tensor (the cases listed under efficiency.*); it replaces "
                           "its family's efficiency for that op type");
  note("l2_bytes", "last-level cache: " + m.llcHow);
  note("hbm_bandwidth_bytes_per_s", "streaming-copy bandwidth (read + write) at the largest buffer, " +
                                        bytesStr(static_cast<double>(m.copy.back().first)) + " (DRAM)");
  note("hbm_capacity_bytes", "MemTotal of /proc/meminfo");
  note("launch_us", "median wall time of a one-element Add node (64 per run), the executor's per-node overhead");
  note("host_dispatch_us", "0: the executor runs each node on the calling thread; its dispatch is part of launch_us");
  for (const auto& f : m.families)
    note("efficiency." + f.key, "median over " + f.op + " (per-node time, efficiency) on cache-resident tensors; efficiency = "
                                "work (max of FLOPs and elements) / (peak FLOP/s x (time - overhead))");
  return p;
}

int runMeasure(const std::string& out, int threads, int repeat, const std::string& name) {
  const std::string load = procField("/proc/loadavg", "");
  auto m = measureHost(threads, repeat);
  if (!m.ok()) return fail(m.error().context("fwb calibrate"));
  fw::sim::HwProfile p = profileOf(*m, name);
  const nlohmann::json j = fw::sim::hwProfileToJson(p);
  // The profile must read back as written (validation of every field).
  auto back = fw::sim::parseHwProfile(j, out);
  if (!back.ok()) return fail(fw::Error::internal("the measured profile does not validate: " + back.error().message));
  std::printf("measured on %s, %d thread(s), %s\n", m->cpu.c_str(), threads, today().c_str());
  std::printf("  per-kernel overhead     %10.2f us\n", m->overheadUs);
  std::printf("  GEMM peak               %10.1f GFLOP/s (%s)\n", m->gemmFlops / 1e9, m->gemmShape.c_str());
  std::printf("  Conv peak               %10.1f GFLOP/s (%s)\n", m->convFlops / 1e9, m->convShape.c_str());
  std::printf("  depthwise Conv peak     %10.1f GFLOP/s (%s)\n", m->groupedFlops / 1e9, m->groupedShape.c_str());
  std::printf("  copy bandwidth, cache   %10.1f GB/s\n", m->cacheBw / 1e9);
  std::printf("  copy bandwidth, DRAM    %10.1f GB/s\n", m->dramBw / 1e9);
  std::printf("  last-level cache        %10s (%s)\n", bytesStr(m->llcBytes).c_str(),
              m->drops.empty() ? "sysfs" : "where the copy bandwidth drops");
  std::string drops;
  for (int64_t d : m->drops) drops += (drops.empty() ? "" : ", ") + bytesStr(static_cast<double>(d));
  if (!drops.empty()) std::printf("  bandwidth drops at      %s\n", drops.c_str());
  std::printf("  cube efficiency         %10.3f (median share of peak over the GEMM/Conv cases)\n", m->cubeEff);
  for (const auto& f : m->families)
    std::printf("  %-14s efficiency %.4f  (%s)\n", f.key.c_str(), f.eff, f.op.c_str());
  if (!load.empty()) std::printf("  load average at start: %s\n", load.c_str());
  if (out.empty()) {
    std::printf("%s\n", j.dump(2).c_str());
    return kOk;
  }
  if (auto st = fw::writeFileAtomic(out, j.dump(2) + "\n"); !st.ok()) return fail(st.error());
  std::printf("wrote %s\n", out.c_str());
  return kOk;
}

// --- fitting to a board's op summary --------------------------------------------------------------

struct PlanSim {
  fw::fusion::FusionResult plan;
  std::vector<fw::sim::KernelGroup> groups;
  std::map<std::string, std::vector<fw::sim::KernelGroup>> bodies;
  fw::sim::SimOptions opts;
};

fw::Result<std::unique_ptr<PlanSim>> planOf(const PreparedModel& pm, const FusionArgs& fa) {
  auto ps = std::make_unique<PlanSim>();
  FW_ASSIGN_OR_RETURN(auto fo, fusionOptionsFromArgs(fa));
  FW_TRY_STATUS(checkExcludedNodes(fo, pm.model));
  FW_ASSIGN_OR_RETURN(ps->plan, fw::fusion::fuseModel(pm.model, fo));
  ps->groups = fw::kernelGroups(ps->plan);
  ps->bodies = fw::bodyKernelGroups(ps->plan);
  ps->opts.trace = &pm.shapes.trace;
  ps->opts.bodyGroups = &ps->bodies;
  return ps;
}

std::string pct(double v) { return fmt("%.1f %%", 100 * v); }

int runFit(const std::string& from, const ModelArgs& args, const FusionArgs& fa, const std::string& out,
           const std::vector<std::string>& fitFields) {
  if (!out.empty() && std::filesystem::exists(from) && std::filesystem::exists(out) &&
      std::filesystem::equivalent(from, out))
    return failUsage("-o would overwrite the op summary " + from);
  auto hw = fw::sim::resolveHwProfile(fa.hw);
  if (!hw.ok()) return fail(hw.error());
  if (!out.empty() && std::filesystem::exists(out) && std::filesystem::exists(hw->sourcePath) &&
      std::filesystem::equivalent(hw->sourcePath, out))
    return failUsage("-o would overwrite the input profile " + hw->sourcePath + "; write the fitted profile elsewhere");
  auto measured = fw::sim::loadOpSummaryCsv(from);
  if (!measured.ok()) return fail(measured.error());
  auto pm = prepareModelFromArgs(args);
  if (!pm.ok()) return fail(pm.error());
  printShapeNotes(*pm);
  auto ps = planOf(*pm, fa);
  if (!ps.ok()) return fail(ps.error());
  fw::sim::FitOptions fo;
  fo.fields = fitFields;
  const fw::Graph& g = *(*ps)->plan.rewritten.graph;
  auto fit = fw::sim::fitProfile(g, (*ps)->groups, *hw, *measured, (*ps)->opts, fo);
  if (!fit.ok()) return fail(fit.error().context(args.model));
  const auto& f = *fit;

  std::ostringstream os;
  os << "fitted " << hw->name << " to " << measured->source << "\n";
  os << "  model " << args.model << " at -O" << fa.optLevel << ": " << f.kernelsUsed << " kernels matched ("
     << f.match.matchedRows << " op-summary rows), " << f.match.unmatchedRows.size() << " rows unmatched, "
     << f.match.unmatchedKernels.size() << " simulated kernels without a row\n";
  for (size_t i = 0; i < f.match.unmatchedRows.size() && i < 8; ++i) os << "    unmatched row: " << f.match.unmatchedRows[i] << "\n";
  if (f.match.unmatchedRows.size() > 8) os << "    ... (" << f.match.unmatchedRows.size() - 8 << " more)\n";
  os << "  field                            before        fitted    std err  sensitivity\n";
  for (const auto& ff : f.fields) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-28s %12.5g  %12.5g  %9s  %8.3f  %s\n", ff.field.c_str(), ff.before, ff.after,
                  std::isfinite(ff.stdErr) ? pct(ff.stdErr).c_str() : "-", ff.sensitivity,
                  ff.determined ? "fitted" : "not determined by these times: kept");
    os << line;
  }
  os << "  residual over matched kernels: RMS ln(sim/measured) " << fmt("%.4f", f.rmsLogBefore) << " -> "
     << fmt("%.4f", f.rmsLogAfter) << ", median |sim - measured| / measured " << pct(f.medianAbsErrBefore) << " -> "
     << pct(f.medianAbsErrAfter) << " (" << f.iterations << " iterations)\n";

  fw::sim::HwProfile p = f.fitted;
  const std::string src = std::filesystem::path(from).filename().string();
  if (!out.empty()) {
    p.name = std::filesystem::path(out).stem().string();
    p.description = hw->description + " Fields fitted by fwb calibrate --from " + src + " on " + today() + ".";
  }
  const std::string how = "fitted by fwb calibrate --from " + src + " (" + std::to_string(f.kernelsUsed) + " kernels of " +
                          args.model + " at -O" + std::to_string(fa.optLevel) + ") on " + today();
  for (const auto& ff : f.fields) {
    if (!ff.determined) continue;
    const std::string key = ff.field;
    p.notes.erase(std::remove_if(p.notes.begin(), p.notes.end(), [&](const fw::sim::HwNote& n) { return n.field == key; }),
                  p.notes.end());
    p.notes.push_back({key, how + ": " + fmt("%.6g", ff.before) + " -> " + fmt("%.6g", ff.after) + ", standard error " +
                                pct(ff.stdErr), false});
  }
  std::string kept;
  for (const auto& ff : f.fields)
    if (!ff.determined) kept += (kept.empty() ? "" : ", ") + ff.field;
  p.notes.push_back({"*", how + ": residual RMS ln(sim/measured) " + fmt("%.4f", f.rmsLogBefore) + " -> " +
                              fmt("%.4f", f.rmsLogAfter) + ", median per-kernel error " + pct(f.medianAbsErrBefore) +
                              " -> " + pct(f.medianAbsErrAfter) + "; " + std::to_string(f.match.unmatchedRows.size()) +
                              " rows unmatched" + (kept.empty() ? "" : "; not determined by these times, kept: " + kept),
                     false});
  const nlohmann::json j = fw::sim::hwProfileToJson(p);
  if (auto back = fw::sim::parseHwProfile(j, out.empty() ? "fitted" : out); !back.ok())
    return fail(fw::Error::internal("the fitted profile does not validate: " + back.error().message));
  std::fputs(os.str().c_str(), stdout);
  if (out.empty()) {
    std::printf("%s\n", j.dump(2).c_str());
    return kOk;
  }
  if (auto st = fw::writeFileAtomic(out, j.dump(2) + "\n"); !st.ok()) return fail(st.error());
  std::printf("wrote %s\n", out.c_str());
  return kOk;
}

int runSynthesize(const std::string& out, const ModelArgs& args, const FusionArgs& fa, const std::vector<std::string>& sets,
                  double noise, uint64_t seed) {
  auto hw = fw::sim::resolveHwProfile(fa.hw);
  if (!hw.ok()) return fail(hw.error());
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) return failUsage("--set '" + s + "': expected FIELD=VALUE");
    char* end = nullptr;
    const std::string val = s.substr(eq + 1);
    const double v = std::strtod(val.c_str(), &end);
    if (val.empty() || *end != '\0') return failUsage("--set '" + s + "': '" + val + "' is not a number");
    if (auto st = fw::sim::setProfileField(*hw, s.substr(0, eq), v); !st.ok()) return fail(st.error().context("--set"));
  }
  auto pm = prepareModelFromArgs(args);
  if (!pm.ok()) return fail(pm.error());
  printShapeNotes(*pm);
  auto ps = planOf(*pm, fa);
  if (!ps.ok()) return fail(ps.error());
  const fw::Graph& g = *(*ps)->plan.rewritten.graph;
  auto sim = fw::sim::simulate(g, (*ps)->groups, *hw, (*ps)->opts);
  if (!sim.ok()) return fail(sim.error().context(args.model));
  const std::string csv = fw::sim::synthesizeOpSummaryCsv(g, *sim, *hw, {noise, seed});
  if (auto st = fw::writeFileAtomic(out, csv); !st.ok()) return fail(st.error());
  size_t rows = 0;
  for (const auto& k : sim->kernels) rows += k.unit != fw::sim::Unit::None;
  std::printf("wrote %s: %zu op-summary rows simulated on %s (changed by %zu --set) for %s at -O%d, noise ±%s, seed %llu\n",
              out.c_str(), rows, hw->name.c_str(), sets.size(), args.model.c_str(), fa.optLevel, pct(noise).c_str(),
              static_cast<unsigned long long>(seed));
  return kOk;
}

}  // namespace

void addCalibrateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Measure this machine into a cpu hardware profile, or fit a profile to a board's op summary (--from)");
  auto args = std::make_shared<ModelArgs>();
  auto fa = std::make_shared<FusionArgs>();
  auto out = std::make_shared<std::string>();
  auto from = std::make_shared<std::string>();
  auto synth = std::make_shared<std::string>();
  auto threads = std::make_shared<int>(1);
  auto repeat = std::make_shared<int>(30);
  auto name = std::make_shared<std::string>("host");
  auto fitFields = std::make_shared<std::vector<std::string>>();
  auto sets = std::make_shared<std::vector<std::string>>();
  auto noise = std::make_shared<double>(0.05);
  auto seed = std::make_shared<uint64_t>(1);
  addModelArgs(cmd, *args);
  cmd->get_option("model")->required(false)->description("--from/--synthesize: ONNX file or zoo:NAME the op summary is of");
  addFusionArgs(cmd, *fa);
  cmd->add_option("-o,--output", *out, "write the profile (JSON) to FILE (default: stdout)");
  cmd->add_option("--threads", *threads, "measure: executor threads")->check(CLI::Range(1, 4096))->capture_default_str();
  cmd->add_option("--repeat", *repeat, "measure: timed runs per microbenchmark (each a median)")
      ->check(CLI::Range(3, 100000))
      ->capture_default_str();
  cmd->add_option("--name", *name, "measure: the profile's name")->capture_default_str();
  auto* fromOpt = cmd->add_option("--from", *from, "fit --hw to this op_summary_*.csv of MODEL run on a board");
  auto* synthOpt = cmd->add_option("--synthesize", *synth,
                                   "write to FILE the op summary CSV that --hw (changed by --set) gives for MODEL, with noise");
  fromOpt->excludes(synthOpt);
  cmd->add_option("--fit", *fitFields, "--from: the fields to fit (default: launch_us, hbm_bandwidth_bytes_per_s, efficiency.*)")
      ->delimiter(',');
  cmd->add_option("--set", *sets, "--synthesize: FIELD=VALUE changes a field of --hw first (repeatable)");
  cmd->add_option("--noise", *noise, "--synthesize: each time times a factor uniform in [1-x, 1+x]")
      ->check(CLI::Range(0.0, 0.9))
      ->capture_default_str();
  cmd->add_option("--seed", *seed, "--synthesize: noise seed")->capture_default_str();
  setRunner(cmd, [=]() {
    for (const auto& f : *fitFields)
      if (auto v = fw::sim::profileField(fw::sim::HwProfile{}, f); !v.ok()) return fail(v.error().context("--fit"));
    if (!from->empty() || !synth->empty()) {
      if (args->model.empty()) return failUsage("--from and --synthesize need the MODEL the op summary is of");
      if (!from->empty()) return runFit(*from, *args, *fa, *out, *fitFields);
      return runSynthesize(*synth, *args, *fa, *sets, *noise, *seed);
    }
    if (!args->model.empty()) return failUsage("a MODEL is only used with --from or --synthesize");
    if (!sets->empty() || !fitFields->empty()) return failUsage("--set and --fit belong to --synthesize and --from");
    return runMeasure(*out, *threads, *repeat, *name);
  });
}

}  // namespace fwcli
