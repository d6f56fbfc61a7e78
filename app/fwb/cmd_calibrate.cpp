// fwb calibrate -o host.json [--threads N] [--name NAME]
//     Measures this machine with microbenchmarks on the reference executor and writes a hardware profile
//     of kind "cpu" (simulator/CpuCost.h says how the simulator uses it).
// fwb calibrate --merge A.json B.json [C.json ...] -o host.json [--name NAME]
//     One profile from several calibrations of this machine taken at different times: each figure their
//     median, each matrix-op time model fitted again to its shapes' median times
//     (simulator/CalibrationMerge.h).
// fwb calibrate --from op_summary.csv --hw PROFILE MODEL [-O L ...] [-o FITTED.json] [--fit FIELDS]
//     Fits the profile's uncertain fields to a board's per-op times (msprof op_summary CSV) by least squares
//     against the simulated kernels of MODEL (simulator/ProfileFit.h).
// fwb calibrate --synthesize OUT.csv --hw PROFILE MODEL [-O L ...] [--set FIELD=VALUE ...] [--noise 0.05]
// [--seed N]
//     Writes the op summary a board with PROFILE (changed by --set) would give for MODEL, with seeded noise:
//     the test input of --from when there is no board.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "app/fwb/CliCommon.h"
#include "core/util/FileUtil.h"
#include "fusion/Pipeline.h"
#include "simulator/CalibrationMerge.h"
#include "simulator/HostBench.h"
#include "simulator/HostCalibration.h"
#include "simulator/HwProfile.h"
#include "simulator/OpSummary.h"
#include "simulator/ProfileFit.h"
#include "simulator/Simulator.h"
#include "ui/analysis/Analysis.h"

namespace fwcli {
namespace {

using fw::sim::hostbench::bytesStr;
using fw::sim::hostbench::fmt;
using fw::sim::hostbench::procField;
using fw::sim::hostbench::today;

// A profile to stdout (no -o) or written atomically to `out`.
int emitProfile(const std::string& out, const nlohmann::json& j) {
  if (out.empty()) {
    std::printf("%s\n", j.dump(2).c_str());
    return kOk;
  }
  if (auto st = fw::writeFileAtomic(out, j.dump(2) + "\n"); !st.ok()) return fail(st.error());
  std::printf("wrote %s\n", out.c_str());
  return kOk;
}

int runMerge(const std::vector<std::string>& paths, const std::string& out, const std::string& name) {
  std::vector<nlohmann::json> trees;
  for (const auto& path : paths) {
    auto bytes = fw::readFileBytes(path);
    if (!bytes.ok()) return fail(bytes.error().context("--merge"));
    trees.push_back(
        nlohmann::json::parse(*bytes, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true));
    if (trees.back().is_discarded()) return fail(fw::Error::badInput(path + ": not valid JSON"));
  }
  std::vector<fw::sim::CalibrationFile> files;
  for (size_t i = 0; i < paths.size(); ++i) files.push_back({paths[i], &trees[i]});
  auto merged = fw::sim::mergeCalibrations(files);
  if (!merged.ok()) return fail(merged.error().context("fwb calibrate --merge"));
  fw::sim::HwProfile p = merged->profile;
  p.name = name;
  const nlohmann::json j = fw::sim::hwProfileToJson(p);
  if (auto back = fw::sim::parseHwProfile(j, out.empty() ? "merged" : out); !back.ok())
    return fail(fw::Error::internal("the merged profile does not validate: " + back.error().message));
  if (!out.empty()) {
    std::printf(
        "merged %zu calibrations of %s; each matrix-op kind fitted again to its shapes' median times:\n",
        paths.size(), p.description.c_str());
    for (const auto& line : merged->spread) std::printf("  %s\n", line.c_str());
  }
  return emitProfile(out, j);
}

int runMeasure(const std::string& out, int threads, int repeat, const std::string& name) {
  const std::string load = procField("/proc/loadavg", "");
  auto m = fw::sim::measureHost(threads, repeat);
  if (!m.ok()) return fail(m.error().context("fwb calibrate"));
  fw::sim::HwProfile p = fw::sim::hostProfile(*m, name);
  const nlohmann::json j = fw::sim::hwProfileToJson(p);
  // The profile must read back as written (validation of every field).
  auto back = fw::sim::parseHwProfile(j, out);
  if (!back.ok()) return fail(fw::Error::internal("the measured profile does not validate: " + back.error().message));
  std::printf("measured on %s, %d thread(s), %s\n", m->cpu.c_str(), threads, today().c_str());
  std::printf("  per-kernel overhead     %10.2f us\n", m->overheadUs);
  std::printf("  a view (Reshape)        %10.2f us\n", m->viewCallUs);
  std::printf("  a fused body's call     %10.2f us\n", m->fusedCallUs);
  std::printf("  GEMM peak               %10.1f GFLOP/s (%s)\n", m->gemmFlops / 1e9, m->gemmShape.c_str());
  std::printf("  Conv peak               %10.1f GFLOP/s (%s)\n", m->convFlops / 1e9, m->convShape.c_str());
  std::printf("  grouped Conv peak       %10.1f GFLOP/s (%s)\n", m->groupedFlops / 1e9, m->groupedShape.c_str());
  std::printf("  copy bandwidth, cache   %10.1f GB/s\n", m->cacheBw / 1e9);
  std::printf("  copy bandwidth, DRAM    %10.1f GB/s\n", m->dramBw / 1e9);
  if (m->coldBw > 0)
    std::printf("  matrix ops in a network %10.1f GB/s (extra time per cold byte, against alone)\n", m->coldBw / 1e9);
  if (!m->farCurve.empty()) {
    std::string curve;
    for (const auto& [bytes, share] : m->farCurve)
      curve += (curve.empty() ? "" : ", ") + bytesStr(bytes) + " " + fmt("%.2f", share);
    std::printf("  beyond the last level   %10.3f ns a byte more (a product %.3f); share by distance: %s\n",
                m->farVectorSPerByte * 1e9, m->farProductSPerByte * 1e9, curve.c_str());
    if (!m->farCurveVector.empty()) {
      std::string vector;
      for (const auto& [bytes, share] : m->farCurveVector)
        vector += (vector.empty() ? "" : ", ") + bytesStr(bytes) + " " + fmt("%.2f", share);
      std::printf("  a vector op's share     by distance (the Relu's alone): %s\n", vector.c_str());
    }
    if (!m->farPointwiseHow.empty())
      std::printf("  a pointwise Conv's     %10.3f ns a byte beyond the last level (%s)\n",
                  m->farPointwiseSPerByte * 1e9, m->farPointwiseHow.c_str());
  }
  if (!m->weightStream.empty()) {
    std::string curve;
    for (const auto& [bytes, bw] : m->weightStream)
      curve += (curve.empty() ? "" : ", ") + bytesStr(bytes) + " " + fmt("%.1f", bw / 1e9);
    std::printf("  a weight's stream       GB/s by distance since its last read: %s\n", curve.c_str());
  }
  for (const auto* set : {&p.cpu.productStream, &p.cpu.productStreamFar}) {
    if (set->empty()) continue;
    std::string curve;
    for (const auto& [rows, share] : set->share)
      curve += (curve.empty() ? "" : ", ") + fmt("%.0f", rows) + " rows " + fmt("%.2f", share);
    std::printf("  a product's stream      share it does not hide, by rows, %s apart: %s\n",
                bytesStr(set->distance).c_str(), curve.c_str());
  }
  if (m->weightReorder.callS > 0 || m->weightReorder.bytesPerS > 0)
    std::printf("  a Conv's computed weight %9.1f us + 1 s per %.1f GB (reordered on every call)\n",
                m->weightReorder.callS * 1e6, m->weightReorder.bytesPerS / 1e9);
  std::printf("  last-level cache        %10s (%s)\n", bytesStr(m->llcBytes).c_str(),
              m->drops.empty() ? "sysfs" : "where the copy bandwidth drops");
  std::string drops;
  for (int64_t d : m->drops) drops += (drops.empty() ? "" : ", ") + bytesStr(static_cast<double>(d));
  if (!drops.empty()) std::printf("  bandwidth drops at      %s\n", drops.c_str());
  std::string stream;
  for (const auto& [bytes, bw] : m->stream)
    stream += (stream.empty() ? "" : ", ") + bytesStr(2.0 * static_cast<double>(bytes)) + " " +
              fmt("%.0f", bw / 1e9);
  if (!stream.empty())
    std::printf("  elementwise stream      %s GB/s (a Relu chain, by footprint)\n", stream.c_str());
  std::printf("  cube efficiency         %10.3f (median share of peak over the GEMM/Conv cases)\n", m->cubeEff);
  for (const auto& [kind, fit] : m->cubeModels) {
    const auto& c = fit.model.coef;
    std::printf(
        "  %-14s time model: ns per GFLOP %.3g, per element: input %.3g, output %.3g, patch %.3g, weight "
        "%.3g ns; "
        "per call %.2f us; %d shapes, RMS ln(model/measured) %.3f",
        kind.c_str(), c[0] * 1e18, c[1] * 1e9, c[2] * 1e9, c[3] * 1e9, c[4] * 1e9, c[5] * 1e6,
        fit.model.cases, fit.model.rmsLogError);
    if (c[6] > 0) std::printf("; aliased weight %.3g ns an element", c[6] * 1e9);
    if (c[7] > 0) std::printf("; input and output past the own cache %.3g ns an element", c[7] * 1e9);
    if (fit.model.weightStreamEfficiency > 0)
      std::printf(kind == "depthwise_conv" ? "; passes over its activations at %.2f of the copy bandwidth"
                                           : "; weight stream at %.2f of the copy bandwidth",
                  fit.model.weightStreamEfficiency);
    std::printf("\n");
  }
  for (const auto& f : m->families)
    std::printf("  %-14s efficiency %.4f  (%s)\n", f.key.c_str(), f.eff, f.op.c_str());
  if (!load.empty()) std::printf("  load average at start: %s\n", load.c_str());
  return emitProfile(out, j);
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
  return emitProfile(out, j);
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
  auto merge = std::make_shared<std::vector<std::string>>();
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
  auto* mergeOpt =
      cmd->add_option("--merge", *merge,
                      "one profile from these profiles fwb calibrate measured (two or more, at "
                      "different times): each figure their median, each matrix-op model fitted again");
  fromOpt->excludes(synthOpt);
  mergeOpt->excludes(fromOpt)->excludes(synthOpt);
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
    if (!merge->empty()) {
      if (!sets->empty() || !fitFields->empty())
        return failUsage("--set and --fit belong to --synthesize and --from");
      return runMerge(*merge, *out, *name);
    }
    if (!sets->empty() || !fitFields->empty()) return failUsage("--set and --fit belong to --synthesize and --from");
    return runMeasure(*out, *threads, *repeat, *name);
  });
}

}  // namespace fwcli
