// fwb simulate MODEL [-O L] [--hw H] [--batch N] [--mode graph|eager] [--control-flow P] [--json F] [--csv F]
//              [--trace F]
// Times the model on a simulated Ascend NPU (fw_sim) and prints each kernel beside the unfused run.
#include <cstdlib>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/fwb/CliCommon.h"
#include "core/io/ModelSource.h"
#include "fusion/Pipeline.h"
#include "ui/analysis/Analysis.h"
#include "simulator/HwProfile.h"
#include "simulator/SimReport.h"
#include "simulator/Simulator.h"

namespace fwcli {
namespace {

// What the simulator runs: a graph and its kernels. After fusion the graph is the rewritten one
// (BN folded, patterns replaced) and every kernel names the original nodes it stands for, so the
// table can set it beside the unfused run of the imported graph.
struct Plan {
  fw::Model model;
  std::vector<fw::sim::KernelGroup> groups;
  std::map<std::string, std::vector<fw::sim::KernelGroup>> bodies;  // fused subgraph bodies by scope
};

// The seam between fw_fusion and fw_sim: fusion kernels become simulator kernel groups.
fw::Result<Plan> planFor(const fw::Model& model, const FusionArgs& a, bool eager) {
  if (eager || (a.optLevel == 0 && !a.anySwitch())) {
    FW_ASSIGN_OR_RETURN(auto groups, fw::sim::unfusedGroups(*model.graph));
    return Plan{model, std::move(groups), {}};
  }
  FW_ASSIGN_OR_RETURN(auto fo, fusionOptionsFromArgs(a));
  FW_TRY_STATUS(checkExcludedNodes(fo, model));
  FW_ASSIGN_OR_RETURN(auto fused, fw::fusion::fuseModel(model, fo));
  Plan p{fused.rewritten, fw::kernelGroups(fused), fw::bodyKernelGroups(fused)};
  return p;
}

int64_t batchOf(const ModelArgs& args, const fw::Model& m) {
  if (args.batch > 0) return args.batch;
  if (fw::isZooSpec(args.model)) {
    // zoo:NAME?batch=N; zoo models put the batch in different dims (the LSTM is [seq, batch, in]).
    const auto at = args.model.find("batch=");
    if (at != std::string::npos) return std::max<int64_t>(1, std::atoll(args.model.c_str() + at + 6));
    return 1;
  }
  const fw::Graph& g = *m.graph;
  if (!g.inputs().empty()) {
    const fw::Shape& s = g.value(g.inputs().front()).shape;
    if (s.rank() > 0 && s.dims[0].isStatic() && s.dims[0].value > 0) return s.dims[0].value;
  }
  return 1;
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
  addModelArgs(cmd, *args);
  addFusionArgs(cmd, *fa);
  cmd->add_option("--mode", *mode, "graph: whole graph compiled, one launch per kernel; "
                                   "eager: every operator dispatched from the host, no fusion")
      ->check(CLI::IsMember({"graph", "eager"}))
      ->capture_default_str();
  cmd->add_option("--json", *jsonOut, "write the result as JSON to FILE ('-' = stdout, no table)");
  cmd->add_option("--csv", *csvOut, "write one CSV row per kernel to FILE");
  cmd->add_option("--trace", *traceOut, "write a Chrome trace (Perfetto, chrome://tracing) to FILE");
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
    if (eager && ((fa->levelGiven() && fa->optLevel > 0) || fa->anySwitch()))
      return failUsage("--mode eager dispatches every original operator without fusion; drop -O/fusion switches");
    auto pm = prepareModelFromArgs(*args);
    if (!pm.ok()) return fail(pm.error());
    printShapeNotes(*pm);
    const fw::Model* m = &pm->model;
    const fw::Graph& g = *m->graph;
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
    auto plan = planFor(*m, *fa, eager);
    if (!plan.ok()) return fail(plan.error());
    auto unfused = fw::sim::unfusedGroups(g);
    if (!unfused.ok()) return fail(unfused.error());
    auto before = fw::sim::simulate(g, *unfused, *hw, opts);
    if (!before.ok()) return explain(before.error());
    opts.mode = eager ? fw::sim::SimMode::Eager : fw::sim::SimMode::Graph;
    opts.bodyGroups = &plan->bodies;
    auto after = fw::sim::simulate(*plan->model.graph, plan->groups, *hw, opts);
    if (!after.ok()) return explain(after.error());
    const auto& notes = after->controlFlowNotes;
    for (size_t k = 0; k < notes.size() && k < 6; ++k) std::fprintf(stderr, "fwb: control flow: %s\n", notes[k].c_str());
    if (notes.size() > 6) std::fprintf(stderr, "fwb: control flow: ... (%zu more; --json lists every kernel)\n", notes.size() - 6);

    if (*jsonOut == "-") {
      auto st = writeOutput("-", fw::sim::toJson(*after).dump(2) + "\n");
      if (!st.ok()) return fail(st.error());
    } else {
      auto st = writeOutput("-", fw::sim::formatComparisonTable(*before, *after, *hw, *rows));
      if (!st.ok()) return fail(st.error());
      if (!jsonOut->empty()) {
        st = fw::sim::writeJson(*jsonOut, *after);
        if (!st.ok()) return fail(st.error());
      }
    }
    if (!csvOut->empty()) {
      auto st = fw::sim::writeCsv(*csvOut, *after);
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
