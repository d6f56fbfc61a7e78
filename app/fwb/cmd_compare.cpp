// fwb compare MODEL --hw A --hw B [--hw C ...] [-O L] [fusion switches] [--tune [--budget S]] [--json FILE]
// The same model fused for several chips: the fusion decisions that differ, the kernels that differ
// and each chip's plan simulated on every chip.
#include <memory>

#include "app/fwb/CliCommon.h"
#include "ui/analysis/Compare.h"

namespace fwcli {

void addCompareCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare", "Fuse one model for several chips: the decisions and kernels that differ, and every plan "
                 "simulated on every chip");
  auto args = std::make_shared<ModelArgs>();
  auto fa = std::make_shared<FusionArgs>();
  auto hws = std::make_shared<std::vector<std::string>>();
  auto tuneIt = std::make_shared<bool>(false);
  auto budget = std::make_shared<double>(60);
  auto jsonOut = std::make_shared<std::string>();
  addModelArgs(cmd, *args);
  addFusionArgs(cmd, *fa);
  cmd->remove_option(cmd->get_option("--hw"));  // one profile per --hw here, two or more
  cmd->add_option("--hw", *hws, "hardware profile NAME (resources/hw) or FILE.json; give two or more")
      ->required()
      ->expected(1)
      ->take_all();
  cmd->add_flag("--tune", *tuneIt, "tune each chip's plan on that chip first (fwb tune) and compare the tuned plans");
  cmd->add_option("--budget", *budget, "with --tune: seconds per chip")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--json", *jsonOut, "write the comparison as JSON to FILE ('-' = stdout, no table)");
  setRunner(cmd, [=]() {
    if (hws->size() < 2) return failUsage("compare: give at least two hardware profiles (--hw A --hw B)");
    auto pm = prepareModelFromArgs(*args);
    if (!pm.ok()) return fail(pm.error());
    printShapeNotes(*pm);
    auto fo = fusionOptionsFromArgs(*fa);
    if (!fo.ok()) return fail(fo.error());
    if (auto st = checkExcludedNodes(*fo, pm->model); !st.ok()) return fail(st.error());
    fw::CompareOptions co;
    co.base.fusion = *fo;
    co.base.trace = pm->shapes.trace;
    co.hw = *hws;
    co.tune = *tuneIt;
    co.tuneBudgetSeconds = *budget;
    auto r = fw::compareChips(pm->model, std::move(co));
    if (!r.ok()) return fail(r.error().context(pm->model.sourcePath));
    return emitReport(*jsonOut, r->toText(), r->toJson().dump(2));
  });
}

}  // namespace fwcli
