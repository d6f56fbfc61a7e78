// fwb fuse MODEL [-O L] [-o OUT.onnx] [--report R.json] [--enable ..] [--disable ..]
//               [--exclude-node ..] [--config fusion.json] [--flags "<graph_kernel_flags>"] [--hw H]
// Runs the fusion pipeline, prints a summary, writes the fused model (fwb.fused functions) and the
// JSON report. The hardware profile supplies the Unified Buffer size for the level-2 checks.
#include <cstdio>
#include <filesystem>

#include "app/fwb/CliCommon.h"
#include "core/onnx/OnnxIO.h"
#include "core/util/FileUtil.h"
#include "fusion/Export.h"
#include "fusion/Pipeline.h"
#include "fusion/Report.h"

namespace fwcli {
namespace {

bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) return std::filesystem::equivalent(a, b, ec);
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

}  // namespace

void addFuseCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("fuse", "Fuse a model for the NPU: rewrites, kernels, fused ONNX and a decision report");
  auto args = std::make_shared<ModelArgs>();
  auto a = std::make_shared<FusionArgs>();
  auto out = std::make_shared<std::string>();
  auto report = std::make_shared<std::string>();
  auto staticShapes = std::make_shared<bool>(false);
  addModelArgs(cmd, *args);
  addFusionArgs(cmd, *a);
  cmd->add_option("-o,--output", *out, "write the fused model (fwb.fused functions) to OUT.onnx");
  cmd->add_option("--report", *report, "write the JSON report (applied, rejected, kernels) to FILE");
  cmd->add_flag("--static-shapes", *staticShapes,
                "write the fused model at the bound input dims (default: symbolic input dims stay open)");
  setRunner(cmd, [=]() {
    if (!out->empty() && !fw::isZooSpec(args->model) && sameFile(*out, args->model))
      return failUsage("-o " + *out + " is the input model; refusing to overwrite it");
    auto opts = fusionOptionsFromArgs(*a);
    if (!opts.ok()) return fail(opts.error());
    auto pm = prepareModelFromArgs(*args);
    if (!pm.ok()) return fail(pm.error());
    printShapeNotes(*pm);
    const fw::Model* m = &pm->model;
    if (auto st = checkExcludedNodes(*opts, *m); !st.ok()) return fail(st.error());
    auto r = fw::fusion::fuseModel(*m, *opts);
    if (!r.ok()) return fail(r.error());
    std::string exportNote;
    if (!out->empty()) {
      auto fused = fw::fusion::exportForDeployment(pm->report.declaredShapes, *m, *r, *opts, *staticShapes, &exportNote);
      if (!fused.ok()) return fail(fused.error());
      if (auto st = fw::saveOnnxFile(*fused, *out); !st.ok()) return fail(st.error());
      if (!exportNote.empty()) std::fprintf(stderr, "fwb: %s\n", exportNote.c_str());
    }
    if (!report->empty()) {
      auto j = fw::fusion::reportJson(*r);
      j["shapes"] = shapesJson(*pm);
      if (!out->empty())
        j["export"] = {{"file", *out},
                       {"signature", fw::fusion::openInputDims(pm->report.declaredShapes, *m).empty() ? "static model"
                                     : *staticShapes ? "fixed at the bound dims" : "kept (symbolic dims open)"},
                       {"note", exportNote}};
      auto st = fw::writeFileAtomic(*report, j.dump(2) + "\n");
      if (!st.ok()) return fail(st.error());
    }
    auto st = writeOutput("", fw::fusion::summaryText(*r));
    if (!st.ok()) return fail(st.error());
    return kOk;
  });
}

}  // namespace fwcli
