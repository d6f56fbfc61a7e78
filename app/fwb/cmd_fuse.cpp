// fwb fuse MODEL [-O L] [-o OUT.onnx] [--report R.json] [--enable ..] [--disable ..]
//               [--exclude-node ..] [--config fusion.json] [--flags "<graph_kernel_flags>"] [--hw H]
// Runs the fusion pipeline, prints a summary, writes the fused model (fwb.fused functions) and the
// JSON report. The hardware profile supplies the Unified Buffer size for the level-2 checks.
#include <filesystem>

#include "app/fwb/CliCommon.h"
#include "core/onnx/OnnxIO.h"
#include "core/util/FileUtil.h"
#include "fusion/Export.h"
#include "fusion/FusionConfig.h"
#include "fusion/Pipeline.h"
#include "fusion/Report.h"
#include "simulator/HwProfile.h"

namespace fwcli {
namespace {

struct FuseArgs {
  int optLevel = 2;
  std::string out, report, config, flags, hw = fw::sim::defaultHwProfileName();
  std::vector<std::string> enable, disable, exclude;
  double minSaving = -1;
};

bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) return std::filesystem::equivalent(a, b, ec);
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

fw::Result<fw::fusion::FusionOptions> optionsFrom(const FuseArgs& a, bool optGiven) {
  fw::fusion::FusionOptions o;
  o.optLevel = a.optLevel;
  if (!a.config.empty()) {
    FW_ASSIGN_OR_RETURN(auto text, fw::readFileBytes(a.config));
    FW_TRY_STATUS(fw::fusion::applyFusionConfig(o, text, a.config));
  }
  if (!a.flags.empty()) FW_TRY_STATUS(fw::fusion::applyGraphKernelFlags(o, a.flags));
  if (optGiven) o.optLevel = a.optLevel;  // an explicit -O wins over the config and the flags
  std::set<std::string> en, dis;
  for (const auto& s : a.enable) for (const auto& id : fw::fusion::splitList(s)) en.insert(id);
  for (const auto& s : a.disable) for (const auto& id : fw::fusion::splitList(s)) dis.insert(id);
  FW_TRY_STATUS(fw::fusion::checkRuleIds(en, "--enable"));
  FW_TRY_STATUS(fw::fusion::checkRuleIds(dis, "--disable"));
  o.enabled.insert(en.begin(), en.end());
  o.disabled.insert(dis.begin(), dis.end());
  for (const auto& s : a.exclude) for (const auto& n : fw::fusion::splitList(s)) o.excludedNodes.insert(n);
  FW_ASSIGN_OR_RETURN(auto hw, fw::sim::resolveHwProfile(a.hw));
  o.hw.ubBytes = hw.ubBytes;
  o.hw.elemBytes = static_cast<int64_t>(hw.elemBytes());
  if (a.minSaving >= 0) o.hw.minTrafficSaving = a.minSaving;
  return o;
}

}  // namespace

void addFuseCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("fuse", "Fuse a model for the NPU: rewrites, kernels, fused ONNX and a decision report");
  auto args = std::make_shared<ModelArgs>();
  auto a = std::make_shared<FuseArgs>();
  addModelArgs(cmd, *args);
  auto* optOpt = cmd->add_option("-O,--opt-level", a->optLevel, "fusion level 0-3 (default 2)")->check(CLI::Range(0, 3));
  cmd->add_option("-o,--output", a->out, "write the fused model (fwb.fused functions) to OUT.onnx");
  cmd->add_option("--report", a->report, "write the JSON report (applied, rejected, kernels) to FILE");
  cmd->add_option("--enable", a->enable, "rule ids to force on (comma-separated; repeatable)");
  cmd->add_option("--disable", a->disable, "rule ids to switch off (comma-separated; repeatable; wins)");
  cmd->add_option("--exclude-node", a->exclude, "node names never rewritten or fused (comma-separated)");
  cmd->add_option("--config", a->config, "fusion config JSON (level, rules, exclude_nodes, user_rules)");
  cmd->add_option("--flags", a->flags, "MindSpore graph_kernel_flags string (--opt_level=2 --disable_pass=...)");
  cmd->add_option("--hw", a->hw, "hardware profile NAME or FILE.json (Unified Buffer size)")->capture_default_str();
  cmd->add_option("--min-saving", a->minSaving, "traffic saving a level-2 merge must reach (default 0.30)");
  setRunner(cmd, [=]() {
    if (!a->out.empty() && !fw::isZooSpec(args->model) && sameFile(a->out, args->model))
      return failUsage("-o " + a->out + " is the input model; refusing to overwrite it");
    auto opts = optionsFrom(*a, optOpt->count() > 0);
    if (!opts.ok()) return fail(opts.error());
    auto m = loadModelFromArgs(*args);
    if (!m.ok()) return fail(m.error());
    auto r = fw::fusion::fuseModel(*m, *opts);
    if (!r.ok()) return fail(r.error());
    if (!a->out.empty()) {
      auto fused = fw::fusion::exportFused(*r);
      if (!fused.ok()) return fail(fused.error());
      if (auto st = fw::saveOnnxFile(*fused, a->out); !st.ok()) return fail(st.error());
    }
    if (!a->report.empty()) {
      auto st = fw::writeFileAtomic(a->report, fw::fusion::reportJson(*r).dump(2) + "\n");
      if (!st.ok()) return fail(st.error());
    }
    auto st = writeOutput("", fw::fusion::summaryText(*r));
    if (!st.ok()) return fail(st.error());
    return kOk;
  });
}

}  // namespace fwcli
