// fwb info MODEL [--json] [--nodes]
#include "app/fwb/CliCommon.h"
#include "core/check/Validate.h"
#include "core/io/ModelInfo.h"

namespace fwcli {

void addInfoCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Summarise a model: nodes, ops, parameters, FLOPs, bytes, I/O, subgraphs");
  auto args = std::make_shared<ModelArgs>();
  auto json = std::make_shared<bool>(false);
  auto nodes = std::make_shared<bool>(false);
  auto out = std::make_shared<std::string>();
  addModelArgs(cmd, *args);
  cmd->add_flag("--json", *json, "print JSON (keys: nodes, ops, params, flops, ...; node_list per node)");
  cmd->add_flag("--nodes", *nodes, "also list every node with its FLOPs and bytes");
  cmd->add_option("-o,--output", *out, "write to FILE instead of stdout");
  setRunner(cmd, [=]() {
    fw::ImportReport report;
    auto m = loadModelFromArgs(*args, &report);
    if (!m.ok()) return fail(m.error());
    fw::ModelInfo info = fw::summarizeModel(*m);
    for (const auto& w : report.warnings) info.warnings.insert(info.warnings.begin(), w);
    // A model that breaks the spec is still summarised; its problems come first.
    const auto problems = fw::validateModel(*m, !report.strictShapesOk).problems;  // inferred strictly at import
    for (auto it = problems.rbegin(); it != problems.rend(); ++it)
      info.warnings.insert(info.warnings.begin(), "problem: " + it->message);
    std::string text = *json ? fw::toJson(info, true).dump(2) + "\n" : fw::toText(info, *nodes);
    auto st = writeOutput(*out, text);
    if (!st.ok()) return fail(st.error());
    return kOk;
  });
}

}  // namespace fwcli
