// fwb simulate MODEL [-O L] [--hw H] [--batch N] [--mode graph|eager] [--control-flow P] [--json F] [--csv F]
//              [--trace F] [--measured F ...]
// Times the model on a simulated Ascend NPU (fw_sim) and prints each kernel beside the unfused run;
// with --measured (fwb profile's JSON, or a board's op summary CSV), also beside the measured times,
// with the accuracy figures (simulator/Measured.h).
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/fwb/CliCommon.h"
#include "core/io/ModelSource.h"
#include "fusion/Pipeline.h"
#include "ui/analysis/Analysis.h"
#include "simulator/HwProfile.h"
#include "simulator/Measured.h"
#include "simulator/SimReport.h"
#include "simulator/Simulator.h"

namespace fwcli {
namespace {

// What the simulator runs: a graph and its kernels. After fusion the graph is the rewritten one
// (BN folded, patterns replaced) and every kernel names the original nodes it stands for, so the
// table can set it beside the unfused run of the imported graph.
// The plan `fwb simulate` times as "after": the fused graph at the requested level and switches
// (-O0 without switches: the graph as imported, one kernel per node).
fw::Result<fw::fusion::FusionResult> planFor(const fw::Model& model, const FusionArgs& a) {
  FW_ASSIGN_OR_RETURN(auto fo, fusionOptionsFromArgs(a));
  FW_TRY_STATUS(checkExcludedNodes(fo, model));
  return fw::fusion::fuseModel(model, fo);
}

int64_t batchOf(const ModelArgs& args, const fw::Model& m) {
  if (args.batch > 0) return args.batch;
  if (fw::isZooSpec(args.model)) {
    // zoo:NAME?batch=N; zoo models put the batch in different dims (the LSTM is [seq, batch, in]).
    const auto at = args.model.find("batch=");
    if (at != std::string::npos) return std::max<int64_t>(1, std::atoll(args.model.c_str() + at + 6));
    return 1;
  }
  return fw::samplesPerRun(m, 1);
}

}  // namespace

void addSimulateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "simulate", "Time a model on a simulated Ascend NPU, kernel by kernel, beside the unfused run");
  auto args = std::make_shared<ModelArgs>();
  auto fa = std::make_shared<FusionArgs>();
  auto mode = std::make_shared<std::string>("graph");
  auto jsonOut = std::make_shared<std::string>();
  auto csvOut = std::make_shared<std::string>();
  auto traceOut = std::make_shared<std::string>();
  auto rows = std::make_shared<size_t>(0);
  auto cflow = std::make_shared<std::string>("trace");
  auto measuredFiles = std::make_shared<std::vector<std::string>>();
  addModelArgs(cmd, *args);
  addFusionArgs(cmd, *fa);
  cmd->add_option("--baseline,--mode", *mode,
                  "the before run: graph = compiled, with the compile-time passes every graph compiler runs "
                  "(constant and shape folding, identity/dead-code removal), one launch per remaining node; "
                  "eager = every original operator dispatched from the host (PyNative). The after run is the "
                  "fused plan in graph mode either way")
      ->check(CLI::IsMember({"graph", "eager"}))
      ->capture_default_str();
  cmd->add_option("--json", *jsonOut, "write the result as JSON to FILE ('-' = stdout, no table)");
  cmd->add_option("--csv", *csvOut, "write one CSV row per kernel to FILE");
  cmd->add_option("--trace", *traceOut, "write a Chrome trace (Perfetto, chrome://tracing) to FILE");
  cmd->add_option(
         "--measured", *measuredFiles,
         "measured times to set beside the simulated ones: fwb profile --json FILE (.json) or a board's "
         "op summary (.csv); adds measured columns and the accuracy (per-kernel error, whole-model "
         "error, rank correlation). Several files (repeat the option) of the same model and level, "
         "measured at different times, count as one: per kernel the median of their times")
      ->expected(1)
      ->take_all();
  cmd->add_option("--rows", *rows, "show at most N kernels in the table (0 = all)");
  cmd->add_option("--control-flow", *cflow,
                  "which If branch is timed: trace (the branch a run on the seeded sample inputs takes), "
                  "then, else, or max (the slower one); loops use the traced trip count")
      ->check(CLI::IsMember({"trace", "then", "else", "max"}))
      ->capture_default_str();
  setRunner(cmd, [=]() {
    auto hw = fw::sim::resolveHwProfile(fa->hw);
    if (!hw.ok()) return fail(hw.error());
    const bool eager = *mode == "eager";
    std::optional<fw::sim::MeasuredRun> measured;
    std::string measuredName;
    if (!measuredFiles->empty()) {
      std::vector<fw::sim::MeasuredRun> runs;
      for (const auto& f : *measuredFiles) {
        auto mr = fw::sim::loadMeasuredRun(f);
        if (!mr.ok()) return fail(mr.error());
        runs.push_back(std::move(mr).value());
      }
      auto merged = fw::sim::medianOfRuns(runs, *measuredFiles);
      if (!merged.ok()) return fail(merged.error());
      measured = std::move(merged).value();
      measuredName = measuredFiles->front();
      if (measuredFiles->size() > 1)
        measuredName += " (and " + std::to_string(measuredFiles->size() - 1) + " more)";
    }
    auto pm = prepareModelFromArgs(*args);
    if (!pm.ok()) return fail(pm.error());
    printShapeNotes(*pm);
    const fw::Model* m = &pm->model;
    auto explain = [&](const fw::Error& e) {
      fw::Error out = e.context(m->sourcePath);
      if (!pm->shapes.traceError.empty())
        out.message += " (the traced run that could have told failed: " + pm->shapes.traceError + ")";
      return fail(out);
    };

    fw::sim::SimOptions opts;
    opts.batch = batchOf(*args, *m);
    opts.trace = &pm->shapes.trace;
    opts.controlFlow = fw::sim::parseControlFlowPolicy(*cflow).value();
    auto plan = planFor(*m, *fa);
    if (!plan.ok()) return fail(plan.error());
    opts.mode = eager ? fw::sim::SimMode::Eager : fw::sim::SimMode::Graph;
    auto before = fw::simulateBaseline(*m, *hw, opts);
    if (!before.ok()) return explain(before.error());
    auto after = fw::simulatePlan(*plan, *hw, opts);
    if (!after.ok()) return explain(after.error());
    const auto& notes = after->controlFlowNotes;
    for (size_t k = 0; k < notes.size() && k < 6; ++k) std::fprintf(stderr, "fwb: control flow: %s\n", notes[k].c_str());
    if (notes.size() > 6) std::fprintf(stderr, "fwb: control flow: ... (%zu more; --json lists every kernel)\n", notes.size() - 6);

    std::optional<fw::sim::Accuracy> acc;
    nlohmann::json j = fw::sim::toJson(*after);
    if (measured) {
      if (measured->optLevel >= 0 && measured->optLevel != fa->optLevel)
        std::fprintf(
            stderr,
            "fwb: warning: %s was measured at -O%d, this simulation is at -O%d: kernels will not line up\n",
            measuredName.c_str(), measured->optLevel, fa->optLevel);
      acc = fw::sim::accuracy(*after, *measured, *hw);
      if (fw::sim::probeRatioOff(acc->machineTimeRatio))
        std::fprintf(
            stderr,
            "fwb: warning: the speed probe of %s took %s against the calibration's in %s: the machine "
            "ran in another state when it was measured, and the errors mix the two (calibrate and "
            "profile again together)\n",
            measuredName.c_str(), fw::sim::probeRatioText(acc->machineTimeRatio).c_str(), hw->name.c_str());
      if (!acc->otherPlan.empty())
        std::fprintf(stderr,
                     "fwb: warning: %zu kernel(s) of %s ran other nodes than the simulated kernel of the "
                     "same name (first: "
                     "%s): it followed another fusion plan; run fwb profile with the same --hw, level and "
                     "rule switches\n",
                     acc->otherPlan.size(), measuredName.c_str(), acc->otherPlan.front().c_str());
      if (acc->matched == 0)
        std::fprintf(stderr,
                     "fwb: warning: no kernel of %s matches a simulated kernel (measured on another model or "
                     "level?)\n",
                     measuredName.c_str());
      j["measured"] = {{"file", measuredFiles->front()},
                       {"files", *measuredFiles},
                       {"source", measured->source},
                       {"model", measured->model},
                       {"opt_level", measured->optLevel},
                       {"threads", measured->threads},
                       {"by_node", measured->byNode},
                       {"on", fw::sim::measuredOn(*measured)},
                       {"label", fw::sim::measuredLabel(fw::sim::measuredOn(*measured))}};
      j["accuracy"] = fw::sim::toJson(*acc);
    }
    const fw::sim::Accuracy* accp = acc ? &*acc : nullptr;
    const int code = emitReport(*jsonOut,
                                fw::sim::formatComparisonTable(*before, *after, *hw, *rows, accp, measured ? &*measured : nullptr),
                                j.dump(2));
    if (code != kOk) return code;
    if (!csvOut->empty()) {
      auto st = fw::sim::writeCsv(*csvOut, *after, accp);
      if (!st.ok()) return fail(st.error());
    }
    if (!traceOut->empty()) {
      auto st = fw::sim::writeChromeTrace(*traceOut, *after);
      if (!st.ok()) return fail(st.error());
    }
    return kOk;
  });
}

}  // namespace fwcli
