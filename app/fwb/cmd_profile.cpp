// fwb profile MODEL [-O L] [--threads N] [--repeat N] [--min-time S] [--warmup N] [--warmup-time S]
//             [--json F] [--trace F] [--rows N]
// Measures the model on the reference executor (this machine's CPU) kernel by kernel, with the kernel
// names `fwb simulate` prints at the same level, so `fwb simulate --measured` can set the two side by side.
// The fused export of the plan runs (at -O0 every kernel is one node): a multi-node kernel is one
// `fwb.fused` node (its members back to back, timed as one), a single-node kernel its node. A control-flow
// node's bodies are timed node by node too (summed over the iterations of a run), under the names the
// simulator gives their kernels ("<node>/<attr>/<kernel>"); a control-flow node whose bodies did not run
// stays one row named by the node.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "app/fwb/CliCommon.h"
#include "core/exec/Executor.h"
#include "fusion/Export.h"
#include "fusion/Pipeline.h"
#include "simulator/Measured.h"
#include "simulator/SpeedProbe.h"
#include "simulator/StolenTime.h"

namespace fwcli {
namespace {

struct KernelName {
  std::string name;
  std::vector<std::string> ops;
  std::vector<std::string> nodes;  // member node names, as fwb simulate's kernels list them
};

// What runs and how its top-level nodes are named as kernels.
struct Runnable {
  fw::Model model;
  std::unordered_map<std::string, KernelName> byNodeName;   // plain nodes
  std::unordered_map<std::string, KernelName> byFusedOp;    // fwb.fused nodes, by op type (= kernel name)
  // Body nodes, by scope + '\n' + node name (plain) or + kernel name (fwb.fused): "<scope>/<kernel>".
  std::unordered_map<std::string, KernelName> byBodyNode;
  std::unordered_set<std::string> bodyControl;  // scope + '\n' + node of control-flow nodes inside bodies
};

// Every body of g's control-flow nodes by its scope ("If_3/then_branch", nested "Loop_1/body/If_2/else_branch").
void collectBodies(const fw::Graph& g, const std::string& prefix, std::map<std::string, const fw::Graph*>& out) {
  for (fw::NodeId n : g.liveNodes())
    for (const auto& a : g.node(n).attrs.all()) {
      const std::string base = prefix + g.node(n).name + "/" + a.name;
      if (a.kind == fw::AttrKind::Graph && a.g) {
        out[base] = a.g.get();
        collectBodies(*a.g, base + "/", out);
      } else if (a.kind == fw::AttrKind::Graphs) {
        for (size_t i = 0; i < a.graphs.size(); ++i) {
          const std::string sc = base + "[" + std::to_string(i) + "]";
          out[sc] = a.graphs[i].get();
          collectBodies(*a.graphs[i], sc + "/", out);
        }
      }
    }
}

bool isControlFlow(const fw::Node& n) { return !n.subgraphs().empty(); }

fw::Result<Runnable> runnableFor(const fw::Model& model, const FusionArgs& a) {
  // The plan fwb simulate times as "after": the fusion result at the level and switches given (at -O0
  // the compile-time passes only, one kernel per remaining node).
  Runnable r;
  FW_ASSIGN_OR_RETURN(auto fo, fusionOptionsFromArgs(a));
  FW_TRY_STATUS(checkExcludedNodes(fo, model));
  FW_ASSIGN_OR_RETURN(auto fused, fw::fusion::fuseModel(model, fo));
  const fw::Graph& rg = *fused.rewritten.graph;
  for (const auto& k : fused.kernels) {
    KernelName kn{k.name, {}, {}};
    for (fw::NodeId m : k.members) {
      kn.ops.push_back(rg.node(m).opType);
      kn.nodes.push_back(rg.node(m).name);
    }
    if (k.members.size() == 1) {
      const fw::Node& n = rg.node(k.members[0]);
      if (isControlFlow(n)) kn.name = n.name;  // the simulator times its body kernels under the node's name
      r.byNodeName[n.name] = std::move(kn);
    } else {
      r.byFusedOp[k.name] = std::move(kn);
    }
  }
  std::map<std::string, const fw::Graph*> bodies;
  collectBodies(rg, "", bodies);
  for (const auto& sg : fused.subgraphs) {
    const auto b = bodies.find(sg.scope);
    if (b == bodies.end()) continue;
    const fw::Graph& bg = *b->second;
    for (const auto& k : sg.kernels) {
      KernelName kn{sg.scope + "/" + k.name, {}, {}};
      for (fw::NodeId m : k.members) {
        kn.ops.push_back(bg.node(m).opType);
        kn.nodes.push_back(bg.node(m).name);
      }
      if (k.members.size() == 1) {
        const fw::Node& n = bg.node(k.members[0]);
        if (isControlFlow(n)) r.bodyControl.insert(sg.scope + "\n" + n.name);
        r.byBodyNode[sg.scope + "\n" + n.name] = std::move(kn);
      } else {
        r.byBodyNode[sg.scope + "\n" + k.name] = std::move(kn);
      }
    }
  }
  FW_ASSIGN_OR_RETURN(r.model, fw::fusion::exportFused(fused));
  return r;
}

std::string firstLine(const char* path, const char* key) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line))
    if (!*key || line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos || !*key ? line : line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return {};
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

void addProfileCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "profile", "Measure a model on the reference executor (this CPU), kernel by kernel, named as fwb simulate names them");
  auto args = std::make_shared<ModelArgs>();
  auto fa = std::make_shared<FusionArgs>();
  auto limits = std::make_shared<ExecLimitArgs>();
  auto threads = std::make_shared<int>(0);
  auto repeat = std::make_shared<int>(5);
  auto warmup = std::make_shared<int>(1);
  auto minTime = std::make_shared<double>(0.5);
  auto warmupTime = std::make_shared<double>(0.2);
  auto seed = std::make_shared<uint64_t>(1);
  auto jsonOut = std::make_shared<std::string>();
  auto traceOut = std::make_shared<std::string>();
  auto rows = std::make_shared<size_t>(0);
  addModelArgs(cmd, *args);
  addFusionArgs(cmd, *fa);
  addExecLimitArgs(cmd, *limits);
  cmd->add_option("--threads", *threads, "worker threads (default: all cores)");
  cmd->add_option(
         "--repeat", *repeat,
         "timed runs; each kernel's time is the median over them (at one thread, over the runs no other "
         "tenant took time from: a run whose wall time passes its CPU time by 2 % is left out, and runs go "
         "on until this many are whole or as long again has passed)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--min-time", *minTime,
                  "time runs for at least this many seconds as well as --repeat runs: a small model's median "
                  "then spans the machine's noise instead of sitting inside one burst of it")
      ->check(CLI::Range(0.0, 600.0))
      ->capture_default_str();
  cmd->add_option("--warmup", *warmup, "untimed runs first (memory plan, oneDNN primitives)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option(
         "--warmup-time", *warmupTime,
         "warm up for at least this many seconds as well as --warmup runs (a small model's first tens "
         "of runs are slower); --warmup 0 --warmup-time 0 times the first runs")
      ->check(CLI::Range(0.0, 600.0))
      ->capture_default_str();
  cmd->add_option("--seed", *seed, "seed of the random inputs")->capture_default_str();
  cmd->add_option("--json", *jsonOut, "write the measured run as JSON to FILE ('-' = stdout, no table); "
                                      "fwb simulate --measured FILE reads it");
  cmd->add_option("--trace", *traceOut, "write a Chrome trace (Perfetto) of the median run to FILE");
  cmd->add_option("--rows", *rows, "show at most N kernels in the table (0 = all)");
  setRunner(cmd, [=]() {
    auto pm = prepareModelFromArgs(*args, {}, *threads);
    if (!pm.ok()) return fail(pm.error());
    printShapeNotes(*pm);
    if (auto st = requireExecutableOps(pm->model); !st.ok()) return fail(st.error());
    auto run = runnableFor(pm->model, *fa);
    if (!run.ok()) return fail(run.error().context(pm->model.sourcePath));
    auto inputs = fw::randomInputs(pm->model, *seed);
    if (!inputs.ok()) return fail(inputs.error());

    fw::ExecOptions opts;
    opts.threads = *threads;
    if (auto st = applyExecLimits(*limits, opts); !st.ok()) return fail(st.error());
    const fw::Model& m = run->model;
    // The run plans of the graph and its bodies are made in the warm-up (timed as the timed runs are:
    // no epilogues) and reused, not rebuilt inside a fused kernel's or an If's time in every run.
    opts.plans = fw::makeRunPlans();
    // Runs go on past the counts until the times are spent. A tiny model's tenth run can still take
    // twice its hundredth (a 1x128 by 128x6 Gemm alone: 6.8 us after 2 warm-up runs, 5.2 after 8, 3.3
    // after 128), and on a shared machine a burst of other load lasts 0.1-0.3 s, longer than ten runs of
    // a 1 ms model: the median of runs spread over half a second is outside such a burst. Extra runs stop
    // when the profiles kept reach kMaxKeptBytes (a small model takes thousands of runs in half a second).
    using Clock = std::chrono::steady_clock;
    const auto secondsSince = [](Clock::time_point t) {
      return std::chrono::duration<double>(Clock::now() - t).count();
    };
    constexpr size_t kMaxExtraRuns = 100000, kMaxKeptBytes = size_t{64} << 20;
    const int usedThreads =
        *threads > 0 ? *threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // The machine's speed before and after (simulator/SpeedProbe.h): fwb simulate --measured sets it beside
    // the calibration's. Before the warm-up, so that the timed runs meet the caches the model left.
    auto probe = [&]() {
      auto p = fw::sim::measureSpeedProbe(usedThreads);
      if (!p.ok()) std::fprintf(stderr, "fwb: warning: no speed probe: %s\n", p.error().message.c_str());
      return p.ok() ? *p : fw::sim::SpeedProbe{};
    };
    const fw::sim::SpeedProbe probeBefore = probe();
    int warmed = 0;
    size_t nodesPerRun = 1;
    // A timed run starts from the last warm-up's profile with its times cleared: the rows of the body
    // nodes (names, index) exist already, so a run's bookkeeping is an index per node, not strings made
    // inside the run's total (core/exec/Executor.cpp: Silero VAD's profiled runs were 30-60 us, 25-40 %,
    // slower than plain ones; now 9-28 us).
    fw::ExecProfile start;
    for (const auto w0 = Clock::now();
         warmed < *warmup || (secondsSince(w0) < *warmupTime && warmed < static_cast<int>(kMaxExtraRuns));
         ++warmed) {
      fw::ExecProfile untimed;
      opts.profile = &untimed;
      auto r = fw::runGraph(m, *inputs, opts);
      if (!r.ok()) return fail(r.error().context(pm->model.sourcePath));
      nodesPerRun = untimed.nodes.size();
      start = std::move(untimed);
    }
    for (auto& b : start.bodyNodes) b.us = 0, b.calls = 0;
    start.nodes.clear();
    start.nodes.reserve(nodesPerRun);
    size_t bytesPerRun = sizeof(fw::ExecProfile) + nodesPerRun * sizeof(fw::ExecProfile::NodeTime);
    for (const auto& b : start.bodyNodes)
      bytesPerRun += sizeof(b) + 2 * (b.path.size() + b.node.size()) + b.opType.size() + b.domain.size() + 64;
    std::vector<fw::ExecProfile> profiles;
    std::vector<double> totals, cpus;
    // One thread: each run's wall time against its thread's CPU time. A run the hypervisor took time from
    // (another tenant's vCPU ran) is left out, and runs go on, for at most as long again as the counts and
    // --min-time took, until --repeat runs are whole (simulator/StolenTime.h). The medians are over the
    // whole runs, however few (at least 3, or --repeat if fewer); with fewer, over the least-stolen half.
    const bool checkSteal = usedThreads == 1;
    size_t whole = 0;
    const auto r0 = Clock::now();
    double countsMetAt = -1;
    auto moreRuns = [&]() {
      const double elapsed = secondsSince(r0);
      const bool room = profiles.size() < kMaxExtraRuns && profiles.size() * bytesPerRun < kMaxKeptBytes;
      if (profiles.size() < static_cast<size_t>(*repeat) || (elapsed < *minTime && room)) return true;
      if (countsMetAt < 0) countsMetAt = elapsed;
      return checkSteal && whole < static_cast<size_t>(*repeat) && room && elapsed < 2 * countsMetAt;
    };
    while (moreRuns()) {
      fw::ExecProfile& prof = profiles.emplace_back(start);
      opts.profile = &prof;
      double wallUs = 0, cpuUs = 0;
      auto r = fw::sim::timeWallAndCpu([&] { return fw::runGraph(m, *inputs, opts); }, wallUs, cpuUs);
      if (!r.ok()) return fail(r.error().context(pm->model.sourcePath));
      totals.push_back(wallUs);
      cpus.push_back(cpuUs);
      whole += fw::sim::runIsWhole(wallUs, cpuUs);
    }
    const fw::sim::SpeedProbe probeAfter = probe();
    const fw::sim::RunSelection sel = fw::sim::keepRunsNotStolen(
        totals, checkSteal ? cpus : std::vector<double>{}, std::min<size_t>(static_cast<size_t>(*repeat), 3));
    std::vector<const fw::ExecProfile*> kept;
    std::vector<double> keptTotals;
    for (size_t i : sel.kept) {
      kept.push_back(&profiles[i]);
      keptTotals.push_back(totals[i]);
    }
    // The run the trace shows: the kept one whose total is the median.
    std::vector<size_t> byTotal(keptTotals.size());
    for (size_t i = 0; i < byTotal.size(); ++i) byTotal[i] = i;
    std::sort(byTotal.begin(), byTotal.end(),
              [&](size_t a, size_t b) { return keptTotals[a] < keptTotals[b]; });
    const fw::ExecProfile& shown = *kept[byTotal[byTotal.size() / 2]];

    // Per node, its times over the kept runs (every run takes the same topological order).
    std::unordered_map<fw::NodeId, std::vector<double>> times;
    for (const auto* prof : kept)
      for (const auto& t : prof->nodes) times[t.node].push_back(t.us);

    fw::sim::MeasuredRun mr;
    std::string cpu = firstLine("/proc/cpuinfo", "model name");
    std::string load = firstLine("/proc/loadavg", "");
    if (const auto sp = load.find(' '); sp != std::string::npos) load = load.substr(0, sp);
    mr.source = "fwb profile on " + (cpu.empty() ? std::string("this CPU") : cpu) + ", " + std::to_string(usedThreads) +
                (usedThreads == 1 ? " thread" : " threads") + (load.empty() ? "" : ", load average " + load + " at start");
    // The process settings the times depend on (fw::setProcessEnvironment sets them unless the user did).
    for (const char* var : {"OMP_WAIT_POLICY", "GLIBC_TUNABLES"})
      if (const char* v = std::getenv(var)) mr.source += std::string(", ") + var + "=" + v;
    mr.model = args->model;
    mr.optLevel = fa->optLevel;
    mr.threads = usedThreads;
    mr.repeats = static_cast<int>(kept.size());
    mr.warmup = warmed;
    mr.totalUs = median(keptTotals);
    if (probeBefore.valid() && probeAfter.valid()) {
      mr.probe = fw::sim::probeMidpoint(probeBefore, probeAfter);
      mr.probeDrift = fw::sim::probeTimeRatio(probeBefore, probeAfter);
      if (fw::sim::probeRatioOff(mr.probeDrift))
        std::fprintf(
            stderr,
            "fwb: warning: the machine's speed moved during the runs: the speed probe's time changed by %s "
            "over them (call %.2f -> %.2f us, stream %.1f -> %.1f, product %.1f -> %.1f); "
            "profile again when the machine is steady\n",
            fw::sim::probeRatioText(mr.probeDrift).c_str(), probeBefore.callUs, probeAfter.callUs,
            probeBefore.streamUs, probeAfter.streamUs, probeBefore.productUs, probeAfter.productUs);
    }
    if (checkSteal) {
      mr.runsTimed = static_cast<int>(profiles.size());
      mr.runsStolen = static_cast<int>(sel.stolen);
      mr.stealShare = sel.medianLostShare;
      mr.leastStolen = sel.leastStolen;
    }
    const fw::Graph& g = *m.graph;
    std::vector<std::string> unnamed;
    // Body nodes: per run their sum over iterations; the median over the runs.
    std::unordered_map<std::string, std::vector<double>> bodyTimes;
    for (const auto* prof : kept)
      for (const auto& b : prof->bodyNodes) bodyTimes[b.path + "\n" + b.node].push_back(b.us);
    auto bodyRows = [&](const std::string& top) {
      std::vector<fw::sim::MeasuredKernel> rowsOut;
      for (const auto& b : shown.bodyNodes) {
        if (b.calls == 0) continue;  // a row of the warm-up's that did not run in this run
        if (b.path.rfind(top + "/", 0) != 0) continue;
        const std::string key = b.path + "\n" + (b.domain == fw::fusion::kFusedDomain ? b.opType : b.node);
        if (run->bodyControl.count(b.path + "\n" + b.node)) continue;  // its own bodies' rows stand for it
        fw::sim::MeasuredKernel k;
        if (auto it = run->byBodyNode.find(key); it != run->byBodyNode.end()) {
          k.name = it->second.name;
          k.ops = it->second.ops;
          k.nodes = it->second.nodes;
        } else {
          k.name = b.path + "/" + b.node;
          k.ops = {b.opType};
          unnamed.push_back(k.name);
        }
        auto ts = bodyTimes[b.path + "\n" + b.node];
        ts.resize(kept.size(), 0.0);  // a run where the body did not run this node
        k.us = median(ts);
        k.minUs = *std::min_element(ts.begin(), ts.end());
        rowsOut.push_back(std::move(k));
      }
      return rowsOut;
    };
    for (const auto& t : shown.nodes) {
      const fw::Node& n = g.node(t.node);
      if (isControlFlow(n)) {
        auto rowsIn = bodyRows(n.name);
        if (!rowsIn.empty()) {
          for (auto& k : rowsIn) mr.kernels.push_back(std::move(k));
          continue;
        }
      }
      const KernelName* kn = nullptr;
      if (n.domain == fw::fusion::kFusedDomain) {
        if (auto it = run->byFusedOp.find(n.opType); it != run->byFusedOp.end()) kn = &it->second;
      } else if (auto it = run->byNodeName.find(n.name); it != run->byNodeName.end()) {
        kn = &it->second;
      }
      fw::sim::MeasuredKernel k;
      if (kn) {
        k.name = kn->name;
        k.ops = kn->ops;
        k.nodes = kn->nodes;
      } else {
        k.name = n.name;
        k.ops = {n.opType};
        unnamed.push_back(n.name);
      }
      const auto& ts = times[t.node];
      k.us = median(ts);
      k.minUs = *std::min_element(ts.begin(), ts.end());
      k.startUs = t.startUs;
      mr.kernels.push_back(std::move(k));
    }
    if (!unnamed.empty())
      std::fprintf(stderr, "fwb: warning: %zu node(s) of the run match no kernel of the fusion result and keep their "
                           "node names (first: %s)\n", unnamed.size(), unnamed.front().c_str());

    if (!traceOut->empty())
      if (auto st = fw::sim::writeChromeTrace(*traceOut, mr); !st.ok()) return fail(st.error());
    return emitReport(*jsonOut, fw::sim::formatMeasuredTable(mr, *rows), fw::sim::toJson(mr).dump(2));
  });
}

}  // namespace fwcli
