// fwb verify MODEL [-O LEVEL] [--seed S] [--tolerance T] [--input-dir D] [--json] [-o FILE]
// Runs the model as imported and the optimised model on the same inputs and compares every output.
// Exit 1 when an output is over tolerance.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "app/fwb/CliCommon.h"
#include "fusion/Export.h"
#include "fusion/Pipeline.h"
#include "core/exec/TensorPb.h"
#include "core/exec/Verify.h"
#include "core/onnx/OnnxIO.h"

namespace fwcli {

namespace {

// A second value for every open input dim of the model as declared: an image H/W bound by the
// image rule grows by the model's spatial reduction (so strides still line up), every other dim
// doubles. One symbol gets one value everywhere. `desc` lists them ("batch=2, height=256").
std::vector<fw::ShapeOverride> secondBinding(const PreparedModel& pm, std::string& desc) {
  const fw::Graph& g = *pm.model.graph;
  int64_t reduction = 1;
  for (int64_t r : fw::spatialReduction(g)) reduction = std::max(reduction, r);
  std::map<std::string, int64_t> chosen;
  std::vector<fw::ShapeOverride> out;
  for (fw::ValueId id : g.inputs()) {
    const fw::Value& v = g.value(id);
    const auto it = pm.report.declaredShapes.find(v.name);
    if (v.initializer || it == pm.report.declaredShapes.end() || !v.shape.isStatic()) continue;
    fw::ShapeOverride o{v.name, v.shape.dims};
    bool open = false;
    for (size_t k = 0; k < it->second.dims.size() && k < o.dims.size(); ++k) {
      const fw::Dim& d = it->second.dims[k];
      if (d.isStatic()) continue;
      open = true;
      const std::string key = d.symbol.empty() ? v.name + "[" + std::to_string(k) + "]" : d.symbol;
      auto [c, fresh] = chosen.try_emplace(key, 0);
      if (fresh) {
        const int64_t now = o.dims[k].value;
        bool image = false;
        for (const auto& b : pm.shapes.defaults) image |= b.input == v.name && b.dim == k && b.rule == "image";
        c->second = image && reduction > 1 ? now + reduction : std::max<int64_t>(2, now * 2);
        desc += (desc.empty() ? "" : ", ") + key + "=" + std::to_string(c->second);
      }
      o.dims[k] = fw::Dim(c->second);
    }
    if (open) out.push_back(std::move(o));
  }
  return out;
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
    // The candidate is what `fwb fuse -o` writes: the model's signature kept (symbolic input dims open).
    auto fused = fw::fusion::fuseModel(*m, *fo);
    if (!fused.ok()) return fail(fused.error());
    std::string exportNote;
    auto exported = fw::fusion::exportForDeployment(pm->report.declaredShapes, *m, *fused, *fo, false, &exportNote);
    if (!exported.ok()) return fail(exported.error());
    auto cand = fw::fusion::reimported(*exported, m->sourcePath + " (fused -O" + std::to_string(fo->optLevel) + ")");
    if (!cand.ok()) return fail(cand.error());
    fw::VerifyOptions opts;
    opts.seed = *seed;
    opts.tolerance = *tolerance >= 0 ? *tolerance : fw::defaultVerifyTolerance(fo->optLevel);
    opts.exec.threads = *threads;
    if (auto st = applyExecLimits(*limits, opts.exec); !st.ok()) return fail(st.error());
    opts.inputs = std::move(given);
    auto rep = fw::verifyModels(*m, *cand, opts);
    if (!rep.ok()) return fail(rep.error());
    auto j = rep->toJson();
    std::string text = rep->toText();
    bool passed = rep->passed;
    // A model with open input dims: the export must also hold at a second binding of every one.
    std::string desc;
    const auto second = inDir->empty() ? secondBinding(*pm, desc) : std::vector<fw::ShapeOverride>{};
    if (!second.empty()) {
      fw::Model m2 = *m;
      auto again = [&]() -> fw::Result<fw::VerifyReport> {
        FW_TRY_STATUS(fw::inferShapes(m2, second, false, nullptr));
        fw::VerifyOptions o2 = opts;
        FW_ASSIGN_OR_RETURN(o2.inputs, fw::randomInputs(m2, *seed));
        // The original must run at this binding for the comparison to mean anything.
        if (auto ref = fw::runGraph(m2, o2.inputs, o2.exec); !ref.ok())
          return fw::Error::badInput("the original model does not run at " + desc + ": " + ref.error().message);
        return fw::verifyModels(m2, *cand, o2);
      };
      auto r2 = again();
      if (!r2.ok() && r2.error().message.rfind("the original model does not run", 0) == 0) {
        text += "second binding " + desc + ": not checked (" + r2.error().message + ")\n";
        j["second_binding"] = {{"dims", desc}, {"checked", false}, {"reason", r2.error().message}};
      } else if (!r2.ok()) {
        text += "second binding " + desc + ": FAILED, the fused export does not run: " + r2.error().message + "\n";
        j["second_binding"] = {{"dims", desc}, {"checked", true}, {"passed", false}, {"error", r2.error().message}};
        passed = false;
      } else {
        text += "second binding " + desc + ":\n" + r2->toText();
        j["second_binding"] = r2->toJson();
        j["second_binding"]["dims"] = desc;
        j["second_binding"]["checked"] = true;
        passed = passed && r2->passed;
      }
      j["passed"] = passed;
    }
    if (!exportNote.empty()) std::fprintf(stderr, "fwb: %s\n", exportNote.c_str());
    auto st = writeOutput(*out, *json ? j.dump(2) + "\n" : text);
    if (!st.ok()) return fail(st.error());
    return passed ? kOk : kCheckFailed;
  });
}

}  // namespace fwcli
