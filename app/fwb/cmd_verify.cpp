// fwb verify MODEL [-O LEVEL] [--seed S] [--tolerance T] [--input-dir D] [--json] [-o FILE]
// Runs the model as imported and the optimised model on the same inputs and compares every output.
// Exit 1 when an output is over tolerance.
#include <filesystem>

#include "app/fwb/CliCommon.h"
#include "fusion/Export.h"
#include "fusion/Pipeline.h"
#include "core/exec/TensorPb.h"
#include "core/exec/Verify.h"
#include "core/onnx/OnnxIO.h"

namespace fwcli {

namespace {

// The candidate for a level: the model fused with these options as a runtime would load its export
// (fused kernels are fwb.fused nodes backed by model-local functions).
fw::Result<fw::Model> candidateFor(const fw::Model& model, const fw::fusion::FusionOptions& opts) {
  FW_ASSIGN_OR_RETURN(auto fused, fw::fusion::fuseModel(model, opts));
  return fw::fusion::exportedAndReimported(fused, model.sourcePath + " (fused -O" + std::to_string(opts.optLevel) + ")");
}

}  // namespace

void addVerifyCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "verify",
      "Compare outputs of the imported model and its fused ONNX export at -O LEVEL on the same inputs");
  auto args = std::make_shared<ModelArgs>();
  auto fa = std::make_shared<FusionArgs>();
  auto seed = std::make_shared<uint64_t>(1);
  auto tolerance = std::make_shared<double>(-1);
  auto json = std::make_shared<bool>(false);
  auto inDir = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto threads = std::make_shared<int>(0);
  auto limits = std::make_shared<ExecLimitArgs>();
  addModelArgs(cmd, *args);
  addExecLimitArgs(cmd, *limits);
  addFusionArgs(cmd, *fa);
  cmd->add_option("--seed", *seed, "seed for the random inputs (default 1)");
  cmd->add_option("--tolerance", *tolerance,
                  "max relative error allowed (default 1e-5 for levels 0-1, 1e-4 for 2-3)");
  cmd->add_option("--input-dir", *inDir, "use input_K.pb from this folder instead of random inputs");
  cmd->add_flag("--json", *json, "print a JSON report (passed, tolerance, outputs[name, max_abs, max_rel, ...])");
  cmd->add_option("-o,--output", *out, "write the report to FILE instead of stdout");
  cmd->add_option("--threads", *threads, "worker threads (default: all cores)");
  setRunner(cmd, [=]() {
    // With --input-dir the given tensors bind the input shapes; otherwise the default binding does.
    std::vector<fw::Tensor> given;
    std::vector<fw::ShapeOverride> bind;
    if (!inDir->empty()) {
      auto raw = loadModelFromArgs(*args);
      if (!raw.ok()) return fail(raw.error());
      auto r = readInputDir(*inDir, *raw);
      if (!r.ok()) return fail(r.error());
      given = std::move(r).value();
      const auto& gin = raw->graph->inputs();
      for (size_t k = 0; k < given.size() && k < gin.size(); ++k) {
        fw::ShapeOverride o{raw->graph->value(gin[k]).name, {}};
        for (int64_t d : given[k].dims()) o.dims.emplace_back(d);
        bind.push_back(std::move(o));
      }
    }
    auto pm = prepareModelFromArgs(*args, bind, *threads);
    if (!pm.ok()) return fail(pm.error());
    printShapeNotes(*pm);
    const fw::Model* m = &pm->model;
    if (auto st = requireExecutableOps(*m); !st.ok()) return fail(st.error());
    auto fo = fusionOptionsFromArgs(*fa);
    if (!fo.ok()) return fail(fo.error());
    if (auto st = checkExcludedNodes(*fo, *m); !st.ok()) return fail(st.error());
    auto cand = candidateFor(*m, *fo);
    if (!cand.ok()) return fail(cand.error());
    fw::VerifyOptions opts;
    opts.seed = *seed;
    opts.tolerance = *tolerance >= 0 ? *tolerance : fw::defaultVerifyTolerance(fo->optLevel);
    opts.exec.threads = *threads;
    if (auto st = applyExecLimits(*limits, opts.exec); !st.ok()) return fail(st.error());
    opts.inputs = std::move(given);
    auto rep = fw::verifyModels(*m, *cand, opts);
    if (!rep.ok()) return fail(rep.error());
    auto st = writeOutput(*out, *json ? rep->toJson().dump(2) + "\n" : rep->toText());
    if (!st.ok()) return fail(st.error());
    return rep->passed ? kOk : kCheckFailed;
  });
}

}  // namespace fwcli
