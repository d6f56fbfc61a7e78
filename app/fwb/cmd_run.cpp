// fwb run MODEL [--input-dir D] [--output-dir D] [--seed S] [--threads N]
// Runs the model on the reference executor. Inputs and outputs use the ONNX backend-test layout:
// input_K.pb / output_K.pb (TensorProto), K in graph input / output order.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "app/fwb/CliCommon.h"
#include "core/check/Validate.h"
#include "core/exec/Executor.h"
#include "core/exec/TensorPb.h"
#include "core/shape/ShapeResolve.h"
#include "core/util/FileUtil.h"
#include <nlohmann/json.hpp>

namespace fwcli {

namespace {

// Resident memory now (VmRSS), or -1 where /proc is not readable.
int64_t residentBytes() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  int64_t kb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
  std::fclose(f);
  return kb < 0 ? -1 : kb * 1024;
}

std::string tensorSummary(const std::string& name, const fw::Tensor& t) {
  std::ostringstream os;
  os << name << "  " << fw::dtypeName(t.dtype()) << " [";
  for (size_t k = 0; k < t.dims().size(); ++k) os << (k ? "," : "") << t.dims()[k];
  os << "]";
  if (t.dtype() == fw::DType::String || t.numel() == 0) return os.str() + "\n";
  double mn = INFINITY, mx = -INFINITY, sum = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = t.getDouble(i);
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    sum += v;
  }
  os << "  min " << mn << "  max " << mx << "  mean " << sum / static_cast<double>(t.numel()) << "  first [";
  for (int64_t i = 0; i < std::min<int64_t>(t.numel(), 6); ++i) os << (i ? ", " : "") << t.getDouble(i);
  os << (t.numel() > 6 ? ", ...]" : "]") << "\n";
  return os.str();
}

}  // namespace

void addRunCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run a model on the reference executor (input_K.pb in, output_K.pb out)");
  auto args = std::make_shared<ModelArgs>();
  auto inDir = std::make_shared<std::string>();
  auto outDir = std::make_shared<std::string>();
  auto seed = std::make_shared<uint64_t>(1);
  auto threads = std::make_shared<int>(0);
  auto limits = std::make_shared<ExecLimitArgs>();
  auto repeat = std::make_shared<int>(1);
  auto stats = std::make_shared<bool>(false);
  auto statsJson = std::make_shared<std::string>();
  auto noReuse = std::make_shared<bool>(false);
  addModelArgs(cmd, *args);
  addExecLimitArgs(cmd, *limits);
  cmd->add_option("--repeat", *repeat, "timed runs after one warm-up run (with --stats; default 1)")->check(CLI::Range(1, 100000));
  cmd->add_flag("--stats", *stats, "print median_ms, min_ms and the process's peak memory (peak_bytes, max RSS)");
  cmd->add_option("--stats-json", *statsJson, "write the same figures as JSON to FILE (keys median_ms, min_ms, peak_bytes)");
  cmd->add_flag("--no-memory-plan", *noReuse,
                "allocate every tensor from the heap (freed at last use) instead of a planned arena (for comparison)");
  cmd->add_option("--input-dir", *inDir, "read input_K.pb (ONNX TensorProto, graph input order)");
  cmd->add_option("--output-dir", *outDir,
                  "write output_K.pb (graph output order); with random inputs also writes input_K.pb");
  cmd->add_option("--seed", *seed, "seed for random inputs when --input-dir is not given (default 1)");
  cmd->add_option("--threads", *threads, "worker threads (default: all cores)");
  setRunner(cmd, [=]() {
    fw::ImportReport report;
    auto m = loadModelFromArgs(*args, &report);
    if (!m.ok()) return fail(m.error());
    if (auto v = fw::validateModel(*m, !report.strictShapesOk); !v.ok()) return fail(v.error(m->sourcePath));
    if (auto st = requireExecutableOps(*m); !st.ok()) return fail(st.error());
    const fw::Graph& g = *m->graph;
    std::vector<fw::Tensor> inputs;
    if (!inDir->empty()) {
      auto r = readInputDir(*inDir, *m);
      if (!r.ok()) return fail(r.error());
      inputs = std::move(r).value();
    } else {
      // Random inputs need static input shapes: symbolic dims are bound by the default rule every
      // verb uses (core/shape/ShapeResolve.h), with the same stderr line; the model itself runs as given.
      bool symbolic = false;
      for (fw::ValueId id : g.inputs()) {
        const fw::Value& v = g.value(id);
        if (!v.initializer && v.shape.rankKnown && !v.shape.isStatic()) symbolic = true;
      }
      fw::Model bound = *m;
      if (symbolic) {
        fw::ResolveOptions ro;  // as every verb: a dim the model cannot run at 1 is found by the traced run
        ro.threads = *threads;
        auto res = fw::resolveShapes(bound, ro);
        if (!res.ok()) return fail(res.error().context(m->sourcePath));
        if (const auto line = res->bindingLine(); !line.empty()) std::fprintf(stderr, "fwb: %s\n", line.c_str());
      }
      auto r = fw::randomInputs(bound, *seed);
      if (!r.ok()) return fail(r.error());
      inputs = std::move(r).value();
    }
    fw::ExecOptions opts;
    opts.threads = *threads;
    opts.reuseBuffers = !*noReuse;
    fw::ExecStats memStats;
    opts.stats = &memStats;
    if (auto st = applyExecLimits(*limits, opts); !st.ok()) return fail(st.error());
    const bool timing = *stats || !statsJson->empty();
    if (timing) {  // warm-up: primitive caches, page faults, the run plans the timed runs then keep
      opts.plans = fw::makeRunPlans();  // as fwb profile's runs do (node order, function bodies' plans)
      auto w = fw::runGraph(*m, inputs, opts);
      if (!w.ok()) return fail(w.error());
    }
    std::vector<double> times;
    fw::Result<std::vector<fw::Tensor>> outs = fw::Error::internal("not run");
    for (int k = 0; k < (timing ? *repeat : 1); ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      outs = fw::runGraph(*m, inputs, opts);
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (!outs.ok()) return fail(outs.error());
    }
    const double ms = times.back();
    if (timing) {
      std::vector<double> sorted = times;
      std::sort(sorted.begin(), sorted.end());
      const double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                              : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
      struct rusage ru {};
      getrusage(RUSAGE_SELF, &ru);
      const auto peak = static_cast<int64_t>(ru.ru_maxrss) * 1024;
      const int64_t rss = residentBytes();
      std::fprintf(stderr,
                   "median_ms %.3f  min_ms %.3f  peak_bytes %lld  rss_bytes %lld  (runs %zu after 1 warm-up, threads %d; "
                   "peak_bytes = the process's max RSS, rss_bytes = RSS after the runs)\n",
                   median, sorted.front(), static_cast<long long>(peak), static_cast<long long>(rss), times.size(), *threads);
      if (opts.reuseBuffers) {
        const double live = static_cast<double>(memStats.livePeakBytes), held = static_cast<double>(memStats.reservedPeakBytes);
        std::fprintf(stderr, "tensors: live peak %.1f MB (the graph's true peak in this node order); %s %.1f MB (%.2fx)\n",
                     live / 1e6, memStats.planned ? "planned arena" : "heap, freed at last use", held / 1e6,
                     live > 0 ? held / live : 1.0);
      }
      if (!statsJson->empty()) {
        nlohmann::json j{{"median_ms", median}, {"min_ms", sorted.front()}, {"peak_bytes", peak}, {"rss_bytes", rss},
                         {"runs", times.size()}, {"threads", *threads}, {"model", m->sourcePath},
                         {"memory_plan", opts.reuseBuffers}};
        if (opts.reuseBuffers) {
          j["tensor_live_peak_bytes"] = memStats.livePeakBytes;
          j["tensor_held_bytes"] = memStats.reservedPeakBytes;
          j["arena_planned"] = memStats.planned;
          j["allocations"] = memStats.allocations;
        }
        if (auto st = fw::writeFileAtomic(*statsJson, j.dump(2) + "\n"); !st.ok()) return fail(st.error());
      }
    }
    if (!outDir->empty()) {
      std::error_code ec;
      std::filesystem::create_directories(*outDir, ec);
      if (ec) return fail(fw::Error::badInput("cannot create " + *outDir + ": " + ec.message()));
      auto write = [&](const std::string& prefix, size_t k, const fw::Tensor& t, const std::string& name) {
        return fw::writeTensorPb((std::filesystem::path(*outDir) / (prefix + std::to_string(k) + ".pb")).string(), t, name);
      };
      if (inDir->empty())
        for (size_t k = 0; k < inputs.size(); ++k) {
          auto st = write("input_", k, inputs[k], g.value(g.inputs()[k]).name);
          if (!st.ok()) return fail(st.error());
        }
      for (size_t k = 0; k < outs->size(); ++k) {
        auto st = write("output_", k, (*outs)[k], g.value(g.outputs()[k]).name);
        if (!st.ok()) return fail(st.error());
      }
    }
    std::string text;
    for (size_t k = 0; k < outs->size(); ++k) text += tensorSummary(g.value(g.outputs()[k]).name, (*outs)[k]);
    std::fprintf(stderr, "ran %s in %.1f ms\n", m->sourcePath.c_str(), ms);
    auto st = writeOutput("", text);
    if (!st.ok()) return fail(st.error());
    return kOk;
  });
}

}  // namespace fwcli
