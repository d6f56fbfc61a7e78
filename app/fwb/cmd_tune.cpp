// fwb tune MODEL [--hw H] [--budget S] [--objective latency|hbm] [-o CONFIG.json] [--json FILE]
//          [--max-evaluations N] [--no-verify] [--tolerance T] [--seed S] [--rows N] [fusion switches]
// Searches fusion strategies (rule subsets, minimum saving, UB share, node exclusions) for the lowest
// simulated latency or HBM traffic on one chip; writes the winner as a fusion config (`--config`).
#include <memory>

#include "app/fwb/CliCommon.h"
#include "ui/analysis/Tuner.h"

namespace fwcli {

void addTuneCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tune", "Search fusion strategies for the lowest simulated latency (or HBM traffic) on one chip; "
              "write the winner as a fusion config");
  auto args = std::make_shared<ModelArgs>();
  auto fa = std::make_shared<FusionArgs>();
  auto budget = std::make_shared<double>(60);
  auto objective = std::make_shared<std::string>("latency");
  auto out = std::make_shared<std::string>();
  auto jsonOut = std::make_shared<std::string>();
  auto maxEval = std::make_shared<int>(0);
  auto noVerify = std::make_shared<bool>(false);
  auto tolerance = std::make_shared<double>(1e-4);
  auto seed = std::make_shared<uint64_t>(1);
  auto rows = std::make_shared<size_t>(10);
  addModelArgs(cmd, *args);
  addFusionArgs(cmd, *fa);
  cmd->add_option("--budget", *budget, "wall-clock seconds for the whole search")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--objective", *objective, "what to minimise: latency (simulated us) or hbm (simulated HBM bytes)")
      ->check(CLI::IsMember({"latency", "hbm"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", *out, "write the best options as a fusion config JSON (load it with --config)");
  cmd->add_option("--json", *jsonOut, "write the search result as JSON to FILE ('-' = stdout, no table)");
  cmd->add_option("--max-evaluations", *maxEval, "stop after N candidates (0 = the budget decides)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--no-verify", *noVerify, "do not prove candidates equal with the reference executor");
  cmd->add_option("--tolerance", *tolerance, "verify: max normwise relative error")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--seed", *seed, "verify: seed of the random inputs")->capture_default_str();
  cmd->add_option("--rows", *rows, "candidates in the table")->check(CLI::PositiveNumber)->capture_default_str();
  setRunner(cmd, [=]() {
    auto pm = prepareModelFromArgs(*args);
    if (!pm.ok()) return fail(pm.error());
    printShapeNotes(*pm);
    auto fo = fusionOptionsFromArgs(*fa);
    if (!fo.ok()) return fail(fo.error());
    if (auto st = checkExcludedNodes(*fo, pm->model); !st.ok()) return fail(st.error());
    fw::TuneOptions to;
    to.start.fusion = *fo;
    to.start.hw = fa->hw;
    to.start.trace = pm->shapes.trace;
    to.objective = *objective == "hbm" ? fw::TuneObjective::HbmTraffic : fw::TuneObjective::Latency;
    to.budgetSeconds = *budget;
    to.maxEvaluations = *maxEval;
    to.verify = !*noVerify;
    to.tolerance = *tolerance;
    to.seed = *seed;
    to.tableRows = *rows;
    auto r = fw::tune(pm->model, std::move(to));
    if (!r.ok()) return fail(r.error().context(pm->model.sourcePath));
    if (!out->empty())
      if (auto st = writeOutput(*out, r->configJson().dump(2) + "\n"); !st.ok()) return fail(st.error());
    return emitReport(*jsonOut, r->toText(), r->toJson().dump(2));
  });
}

}  // namespace fwcli
