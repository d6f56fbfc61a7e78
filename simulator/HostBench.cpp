#include "simulator/HostBench.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>

#include "core/ir/OpCost.h"
#include "core/shape/ShapeResolve.h"
#include "simulator/CpuCost.h"
#include "simulator/OpFamily.h"
#include "simulator/StolenTime.h"

namespace fw::sim::hostbench {

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

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
// The time a bench's warm-up and its timed runs take at least, whatever their counts: 0.2 ms and 0.5 ms
// per timed run asked for (6 and 15 ms at fwb calibrate's default 30). A tiny op's first tens of runs
// are slower (a 1x128 by 128x6 Gemm: 6.8 us after 2 runs, 3.3 after 128), and a count alone kept the
// grids' small shapes in that phase: the fitted GEMM(transB) cost a call moved 3.1-5.5 us, the
// depthwise one 6.5-10.2 us, between three calibrations in a row.
double warmSeconds(int repeat) { return 2e-4 * std::max(1, repeat); }
double timedSeconds(int repeat) { return 5e-4 * std::max(1, repeat); }
constexpr int kMaxRuns = 100000;

// Runs `b` untimed until both `warmup` runs and `seconds` have passed.
fw::Status warmUp(const Bench& b, const fw::ExecOptions& o, int warmup, double seconds) {
  const auto t0 = Clock::now();
  for (int w = 0; w < warmup || (secondsSince(t0) < seconds && w < kMaxRuns); ++w) {
    auto r = fw::runGraph(b.model, b.inputs, o);
    if (!r.ok()) return r.error();
  }
  return fw::Status::okStatus();
}

// The runs' samples, each run's wall and CPU time: at one thread only the runs no other tenant took time
// from count (simulator/StolenTime.h; a tiny op's runs are rarely hit, a second of a busy host hits many).
// Flat, so that keeping a run's figures allocates nothing between runs once the vectors have grown.
struct Runs {
  std::vector<double> samples;  // every run's samples, run after run
  std::vector<size_t> end;      // per run: one past its last sample
  std::vector<double> wall, cpu;
  void reserve(size_t runs, size_t perRun) {
    samples.reserve(runs * perRun);
    end.reserve(runs);
    wall.reserve(runs);
    cpu.reserve(runs);
  }
  std::vector<size_t> keptRuns(int threads) const {
    return keepRunsNotStolen(wall, threads == 1 ? cpu : std::vector<double>{}, 3).kept;
  }
  std::vector<double> kept(int threads) const {
    std::vector<double> out;
    for (size_t i : keptRuns(threads))
      out.insert(out.end(), samples.begin() + static_cast<std::ptrdiff_t>(i ? end[i - 1] : 0),
                 samples.begin() + static_cast<std::ptrdiff_t>(end[i]));
    return out;
  }
};

// One timed run of `b` into `prof`, its wall and CPU time appended to `runs` (both clocks read before
// anything is stored).
fw::Status timeRun(const Bench& b, fw::ExecOptions& o, fw::ExecProfile& prof, Runs& runs) {
  o.profile = &prof;
  double wallUs = 0, cpuUs = 0;
  auto r = timeWallAndCpu([&] { return fw::runGraph(b.model, b.inputs, o); }, wallUs, cpuUs);
  if (!r.ok()) return r.error();
  runs.wall.push_back(wallUs);
  runs.cpu.push_back(cpuUs);
  return fw::Status::okStatus();
}

}  // namespace

fw::Result<double> timeOutside(const Bench& b, int threads, int warmup, int repeat) {
  // As fwb profile runs a model: the run plans kept from the warm-up, every node timed.
  fw::ExecOptions o;
  o.threads = threads;
  o.plans = fw::makeRunPlans();
  fw::ExecProfile warm;
  o.profile = &warm;
  FW_TRY_STATUS(warmUp(b, o, warmup, warmSeconds(repeat)));
  Runs runs;
  const auto t0 = Clock::now();
  for (int i = 0; i < repeat || (secondsSince(t0) < timedSeconds(repeat) && i < kMaxRuns); ++i) {
    fw::ExecProfile prof;
    prof.nodes.reserve(b.model.graph->nodes().size());
    FW_TRY_STATUS(timeRun(b, o, prof, runs));
    double inNodes = 0;
    for (const auto& t : prof.nodes) inNodes += t.us;
    runs.samples.push_back(runs.wall.back() - inNodes);
    runs.end.push_back(runs.samples.size());
  }
  return median(runs.kept(threads));
}

fw::Result<double> timeNode(const Bench& b, int threads, int warmup, int repeat) {
  fw::ExecOptions o;
  o.threads = threads;
  FW_TRY_STATUS(warmUp(b, o, warmup, warmSeconds(repeat)));
  Runs runs;
  const auto t0 = Clock::now();
  for (int i = 0; i < repeat || (secondsSince(t0) < timedSeconds(repeat) && i < kMaxRuns); ++i) {
    fw::ExecProfile prof;
    FW_TRY_STATUS(timeRun(b, o, prof, runs));
    for (const auto& t : prof.nodes)
      if (!b.onlyNode || t.node == b.node) runs.samples.push_back(t.us);
    runs.end.push_back(runs.samples.size());
  }
  return median(runs.kept(threads));
}

fw::Result<std::vector<double>> timeNodesInRounds(const std::vector<const Bench*>& benches, int threads, int warmup,
                                                  int repeat, int rounds) {
  std::vector<std::vector<double>> per(benches.size());
  const int warm = std::max(2, warmup);  // a run to record the bench's buffers, one to allocate its arena
  for (int r = 0; r < std::max(1, rounds); ++r)
    for (size_t i = 0; i < benches.size(); ++i) {
      FW_ASSIGN_OR_RETURN(double us, timeNode(*benches[i], threads, warm, repeat));
      per[i].push_back(us);
    }
  std::vector<double> out;
  for (auto& v : per) out.push_back(median(v));
  return out;
}

Bench sequenceOf(const std::vector<Bench>& parts) {
  fw::Graph g;
  g.name = "calibrate_sequence";
  Bench out;
  for (size_t i = 0; i < parts.size(); ++i) {
    const fw::Graph& pg = *parts[i].model.graph;
    const fw::Node& n = pg.node(parts[i].node);
    const std::string tag = std::to_string(i);
    std::vector<fw::ValueId> ins;
    for (fw::ValueId v : n.inputs) {
      if (v == fw::kNoId) {
        ins.push_back(fw::kNoId);
        continue;
      }
      const fw::Value& val = pg.value(v);
      ins.push_back(val.isInitializer() ? g.addInitializer(val.name + "_" + tag, *val.initializer)
                                        : g.addInput(val.name + "_" + tag, val.dtype, val.shape));
    }
    const fw::ValueId y = g.addValue("y_" + tag, pg.value(n.outputs[0]).dtype);
    g.addNode(n.opType, ins, {y}, n.attrs, n.name + "_" + tag);
    g.addOutput(y);
    out.inputs.insert(out.inputs.end(), parts[i].inputs.begin(), parts[i].inputs.end());
  }
  out.node = 0;
  out.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  out.model.sourcePath = "calibrate:sequence";
  return out;
}

fw::Result<std::vector<double>> timeNodes(const Bench& b, int threads, int warmup, int repeat) {
  fw::ExecOptions o;
  o.threads = threads;
  FW_TRY_STATUS(warmUp(b, o, warmup, warmSeconds(repeat)));
  const size_t nodes = b.model.graph->nodes().size();
  Runs runs;  // every run's samples: one per node, in node id order (0 for a node the run did not time)
  runs.reserve(static_cast<size_t>(std::max(1, repeat)) * 4, nodes);
  const auto t0 = Clock::now();
  for (int i = 0; i < repeat || (secondsSince(t0) < timedSeconds(repeat) && i < kMaxRuns); ++i) {
    fw::ExecProfile prof;
    FW_TRY_STATUS(timeRun(b, o, prof, runs));
    const size_t at = runs.samples.size();
    runs.samples.resize(at + nodes, 0.0);
    for (const auto& t : prof.nodes)
      if (static_cast<size_t>(t.node) < nodes) runs.samples[at + static_cast<size_t>(t.node)] = t.us;
    runs.end.push_back(runs.samples.size());
  }
  const std::vector<size_t> kept = runs.keptRuns(threads);
  std::vector<double> med(nodes, 0.0), us;
  for (size_t k = 0; k < nodes; ++k) {
    us.clear();
    for (size_t r : kept) us.push_back(runs.samples[r * nodes + k]);
    med[k] = median(us);
  }
  return med;
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

// One op on input x (plus optional initializers), `copies` times on the same input: every node's time is
// one sample. The input is a graph input, so nothing is constant-folded.
Bench oneOpOn(const std::string& op, fw::Tensor x, const std::vector<fw::Tensor>& weights,
              fw::Attributes attrs, int copies, fw::DType outType, int outputs) {
  fw::Graph g;
  g.name = "calibrate_" + op;
  const fw::ValueId xv = g.addInput("x", x.dtype(), fw::Shape::ofInts(x.dims()));
  std::vector<fw::ValueId> ws;
  for (size_t i = 0; i < weights.size(); ++i) ws.push_back(g.addInitializer("w" + std::to_string(i), weights[i]));
  Bench b;
  for (int c = 0; c < copies; ++c) {
    std::vector<fw::ValueId> ins = {xv};
    ins.insert(ins.end(), ws.begin(), ws.end());
    std::vector<fw::ValueId> ys;
    for (int o = 0; o < outputs; ++o)
      ys.push_back(g.addValue("y" + std::to_string(c) + (o ? "_" + std::to_string(o) : ""), outType));
    const fw::NodeId n = g.addNode(op, ins, ys, attrs, op + "_" + std::to_string(c));
    if (c == 0) b.node = n;
    for (fw::ValueId y : ys) g.addOutput(y);
  }
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.sourcePath = "calibrate:" + op;
  b.inputs = {std::move(x)};
  return b;
}

Bench reluNegPairs(int copies, bool asCalls) {
  fw::Graph g;
  g.name = asCalls ? "calibrate_fused_calls" : "calibrate_pairs";
  const fw::ValueId xv = g.addInput("x", fw::DType::Float32, fw::Shape::ofInts({16}));
  Bench b;
  if (asCalls) {
    auto body = std::make_shared<fw::Graph>();
    body->name = "relu_neg";
    const fw::ValueId bx = body->addInput("x", fw::DType::Float32, fw::Shape::ofInts({16}));
    const fw::ValueId br = body->addValue("r", fw::DType::Float32, fw::Shape::ofInts({16}));
    const fw::ValueId by = body->addValue("y", fw::DType::Float32, fw::Shape::ofInts({16}));
    body->addNode("Relu", {bx}, {br}, {}, "relu");
    body->addNode("Neg", {br}, {by}, {}, "neg");
    body->setOutputs({by});
    fw::Function f;
    f.name = "relu_neg";
    f.domain = "calibrate.fused";
    f.opsetImports = {{"", 17}};
    f.body = body;
    b.model.functions.push_back(std::move(f));
  }
  for (int c = 0; c < copies; ++c) {
    const std::string k = std::to_string(c);
    const fw::ValueId y = g.addValue("y" + k, fw::DType::Float32, fw::Shape::ofInts({16}));
    fw::NodeId n;
    if (asCalls) {
      n = g.addNode("relu_neg", {xv}, {y}, {}, "call_" + k, "calibrate.fused");
    } else {
      const fw::ValueId r = g.addValue("r" + k, fw::DType::Float32, fw::Shape::ofInts({16}));
      n = g.addNode("Relu", {xv}, {r}, {}, "relu_" + k);
      g.addNode("Neg", {r}, {y}, {}, "neg_" + k);
    }
    if (c == 0) b.node = n;
    g.addOutput(y);
  }
  b.model.graph = std::make_shared<const fw::Graph>(std::move(g));
  b.model.opsetImports = {{"", 17}, {"calibrate.fused", 1}};
  b.model.sourcePath = asCalls ? "calibrate:fused_calls" : "calibrate:pairs";
  b.inputs = {filled({16}, 0.0f)};
  return b;
}

Bench oneOp(const std::string& op, const std::vector<int64_t>& dims, const std::vector<fw::Tensor>& weights,
            fw::Attributes attrs, int copies) {
  return oneOpOn(op, filled(dims, 0.0f), weights, std::move(attrs), copies, fw::DType::Float32);
}

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
  f.work =
      fw::sim::cpuVectorWork(g, n, f.flops, f.elems, true);  // as fwb calibrate fits it (scatterCopyApart)
  b.model = std::move(m);
  return f;
}

}  // namespace fw::sim::hostbench
