// fwb verify MODEL [-O LEVEL] [--seed S] [--tolerance T] [--input-dir D] [--json] [-o FILE]
// Runs the model as imported and the optimised model on the same inputs and compares every output.
// Exit 1 when an output is over tolerance.
#include <filesystem>

#include "app/fwb/CliCommon.h"
#include "core/exec/TensorPb.h"
#include "core/exec/Verify.h"
#include "core/onnx/OnnxIO.h"

namespace fwcli {

namespace {

// The candidate model for a level. Until the fusion pipeline is wired in here, every level compares
// against the model after an ONNX export/import round trip (which checks the exporter too).
fw::Result<fw::Model> candidateFor(const fw::Model& model, int level) {
  (void)level;
  auto bytes = fw::serializeOnnx(model);
  if (!bytes.ok()) return bytes.error().context("exporting the candidate");
  auto back = fw::parseOnnxBytes(*bytes, model.sourcePath + " (round trip)", "");
  if (!back.ok()) return back.error().context("re-importing the candidate");
  return back;
}

}  // namespace

void addVerifyCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "verify",
      "Compare outputs of the imported model and the model optimised at -O LEVEL on the same inputs "
      "(until fusion is wired in, the candidate is the ONNX export/import round trip)");
  auto args = std::make_shared<ModelArgs>();
  auto level = std::make_shared<int>(1);
  auto seed = std::make_shared<uint64_t>(1);
  auto tolerance = std::make_shared<double>(-1);
  auto json = std::make_shared<bool>(false);
  auto inDir = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto threads = std::make_shared<int>(0);
  addModelArgs(cmd, *args);
  cmd->add_option("-O,--opt-level", *level, "optimisation level 0-3 (default 1)")->check(CLI::Range(0, 3));
  cmd->add_option("--seed", *seed, "seed for the random inputs (default 1)");
  cmd->add_option("--tolerance", *tolerance,
                  "max relative error allowed (default 1e-5 for levels 0-1, 1e-4 for 2-3)");
  cmd->add_option("--input-dir", *inDir, "use input_K.pb from this folder instead of random inputs");
  cmd->add_flag("--json", *json, "print a JSON report (passed, tolerance, outputs[name, max_abs, max_rel, ...])");
  cmd->add_option("-o,--output", *out, "write the report to FILE instead of stdout");
  cmd->add_option("--threads", *threads, "worker threads (default: all cores)");
  setRunner(cmd, [=]() {
    auto m = loadModelFromArgs(*args);
    if (!m.ok()) return fail(m.error());
    const auto unsupported = fw::unsupportedOps(*m);
    if (!unsupported.empty()) {
      std::string list;
      for (const auto& op : unsupported) list += (list.empty() ? "" : ", ") + op;
      return fail(fw::Error::badInput("the reference executor does not support: " + list));
    }
    auto cand = candidateFor(*m, *level);
    if (!cand.ok()) return fail(cand.error());
    fw::VerifyOptions opts;
    opts.seed = *seed;
    opts.tolerance = *tolerance >= 0 ? *tolerance : fw::defaultVerifyTolerance(*level);
    opts.exec.threads = *threads;
    if (!inDir->empty()) {
      const fw::Graph& g = *m->graph;
      for (size_t k = 0; k < g.inputs().size(); ++k) {
        auto t = fw::readTensorPb((std::filesystem::path(*inDir) / ("input_" + std::to_string(k) + ".pb")).string());
        if (!t.ok()) return fail(t.error());
        opts.inputs.push_back(std::move(t).value());
      }
    }
    auto rep = fw::verifyModels(*m, *cand, opts);
    if (!rep.ok()) return fail(rep.error());
    auto st = writeOutput(*out, *json ? rep->toJson().dump(2) + "\n" : rep->toText());
    if (!st.ok()) return fail(st.error());
    return rep->passed ? kOk : kCheckFailed;
  });
}

}  // namespace fwcli
