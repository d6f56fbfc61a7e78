#include "app/fwb/CliCommon.h"

#include <cctype>
#include <cstdio>
#include <iostream>

#include <filesystem>

#include "core/check/Validate.h"
#include "core/exec/Executor.h"
#include "core/exec/TensorPb.h"
#include "core/util/FileUtil.h"
#include "fusion/FusionConfig.h"
#include "simulator/HwProfile.h"

namespace fwcli {

namespace {

// Zoo sizes: a positive integer (zero would read as "not given"); each model's range is checked by the zoo.
const CLI::Validator& positiveInteger() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        try {
          size_t used = 0;
          const long long x = std::stoll(s, &used);
          if (used == s.size() && x > 0) return {};
        } catch (const std::exception&) {
        }
        return "expected a positive integer, got '" + s + "' (ranges per model: fwb zoo list)";
      },
      "POSITIVE");
  return v;
}

}  // namespace

void addModelArgs(CLI::App* cmd, ModelArgs& a, bool withBatch) {
  cmd->add_option("model", a.model, "ONNX file or zoo:NAME (see `fwb zoo list`)")->required();
  cmd->add_option("--input-shape", a.inputShapes,
                  "NAME=d0,d1,... for a graph input, or SYMBOL=N to bind a symbolic dim; repeatable");
  if (withBatch) cmd->add_option("--batch", a.batch, "batch size (binds the batch dim)");
  // Ranges and defaults per model: `fwb zoo list`.
  cmd->add_option("--layers", a.layers, "zoo: encoder/LSTM layers")->check(positiveInteger());
  cmd->add_option("--hidden", a.hidden, "zoo: hidden size")->check(positiveInteger());
  cmd->add_option("--heads", a.heads, "zoo: attention heads (must divide --hidden)")->check(positiveInteger());
  cmd->add_option("--seq", a.seq, "zoo: sequence length")->check(positiveInteger());
  cmd->add_option("--image", a.image, "zoo: image height = width")->check(positiveInteger());
}

fw::Result<fw::LoadOptions> loadOptionsFromArgs(const ModelArgs& a) {
  fw::LoadOptions opts;
  for (const auto& s : a.inputShapes) {
    auto o = fw::parseShapeOverride(s);
    if (!o.ok()) return o.error();
    opts.import.shapeOverrides.push_back(*o);
  }
  if (a.batch < 0) return fw::Error::badInput("--batch must be positive");
  if (a.batch > 0) {
    opts.zoo.batch = a.batch;
    if (!fw::isZooSpec(a.model)) {
      // For files, --batch binds the first dim of every input whose first dim is symbolic.
      opts.import.shapeOverrides.push_back({"@batch", {fw::Dim(a.batch)}});
    }
  }
  if (a.layers) opts.zoo.layers = a.layers;
  if (a.hidden) opts.zoo.hidden = a.hidden;
  if (a.heads) opts.zoo.heads = a.heads;
  if (a.seq) opts.zoo.seq = a.seq;
  if (a.image) opts.zoo.image = a.image;
  return opts;
}

fw::Result<fw::Model> loadModelFromArgs(const ModelArgs& a, fw::ImportReport* report) {
  FW_ASSIGN_OR_RETURN(auto opts, loadOptionsFromArgs(a));
  return fw::loadModel(a.model, opts, report);
}

fw::Result<PreparedModel> prepareModelFromArgs(const ModelArgs& a, const std::vector<fw::ShapeOverride>& extra,
                                               int threads) {
  FW_ASSIGN_OR_RETURN(auto opts, loadOptionsFromArgs(a));
  fw::ResolveOptions ro;
  ro.threads = threads;
  return fw::prepareModel(a.model, opts, extra, ro);
}

void printShapeNotes(const PreparedModel& p) {
  const auto& s = p.shapes;
  if (const auto line = s.bindingLine(); !line.empty()) std::fprintf(stderr, "fwb: %s\n", line.c_str());
  if (!s.tracedValues.empty()) {
    std::string names;
    for (size_t k = 0; k < s.tracedValues.size() && k < 4; ++k) names += (k ? ", " : "") + s.tracedValues[k];
    if (s.tracedValues.size() > 4) names += ", ... (" + std::to_string(s.tracedValues.size() - 4) + " more)";
    std::fprintf(stderr, "fwb: note: %zu value shape(s) depend on data and come from the traced run (seed 1): %s\n",
                 s.tracedValues.size(), names.c_str());
  }
  if (!s.traceError.empty())
    std::fprintf(stderr, "fwb: warning: the traced run (for data-dependent shapes and control flow) failed: %s\n",
                 s.traceError.c_str());
  for (const auto& w : p.report.warnings) std::fprintf(stderr, "fwb: warning: %s\n", w.c_str());
  for (const auto& w : s.warnings) std::fprintf(stderr, "fwb: warning: %s\n", w.c_str());
}

nlohmann::json shapesJson(const PreparedModel& p) {
  nlohmann::json j;
  j["inputs"] = nlohmann::json::object();
  for (fw::ValueId id : p.model.graph->inputs()) {
    const fw::Value& v = p.model.graph->value(id);
    if (v.initializer) continue;
    nlohmann::json dims = nlohmann::json::array();
    for (const auto& d : v.shape.dims) {
      if (d.isStatic()) dims.push_back(d.value);
      else dims.push_back(d.str());
    }
    j["inputs"][v.name] = dims;
  }
  j["bound_by_default"] = nlohmann::json::array();
  for (const auto& b : p.shapes.defaults)
    j["bound_by_default"].push_back({{"input", b.input}, {"dim", b.dim}, {"symbol", b.symbol}, {"value", b.value}, {"rule", b.rule}});
  j["traced_values"] = p.shapes.tracedValues.size();
  return j;
}

void addExecLimitArgs(CLI::App* cmd, ExecLimitArgs& a) {
  cmd->add_option("--max-memory", a.maxMemory,
                  "largest tensor the executor may allocate, e.g. 2G (default: half of physical memory; 0 = no limit)");
  cmd->add_option("--max-iterations", a.maxIterations, "iteration cap of every Loop run (default 1000000; 0 = none)");
  cmd->add_option("--time-limit", a.timeLimit, "stop a run after SECONDS (default: none)");
}

fw::Status applyExecLimits(const ExecLimitArgs& a, fw::ExecOptions& o) {
  if (a.maxIterations < 0) return fw::Error::badInput("--max-iterations must be >= 0");
  if (a.timeLimit < 0) return fw::Error::badInput("--time-limit must be >= 0");
  o.maxIterations = a.maxIterations;
  o.timeLimitSeconds = a.timeLimit;
  if (a.maxMemory.empty()) return {};
  std::string t = a.maxMemory;
  int64_t mult = 1;
  const char last = t.empty() ? '\0' : static_cast<char>(std::toupper(static_cast<unsigned char>(t.back())));
  const std::string units = "KMGT";
  if (const auto at = units.find(last); at != std::string::npos) {
    mult = int64_t{1} << (10 * (at + 1));
    t.pop_back();
  }
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 15)
    return fw::Error::badInput("--max-memory '" + a.maxMemory + "': expected a byte count such as 512M or 8G");
  o.maxMemoryBytes = std::stoll(t) * mult;
  return {};
}

bool FusionArgs::anySwitch() const {
  return !enable.empty() || !disable.empty() || !exclude.empty() || !enableClusterOps.empty() ||
         !disableClusterOps.empty() || !config.empty() || !flags.empty() || minSaving >= 0;
}

void addFusionArgs(CLI::App* cmd, FusionArgs& a, int defaultLevel) {
  a.optLevel = defaultLevel;
  a.hw = fw::sim::defaultHwProfileName();
  a.optOption = cmd->add_option("-O,--opt-level", a.optLevel, "fusion level 0-3 (MindSpore opt_level semantics)")
                    ->check(CLI::Range(0, 3))
                    ->capture_default_str();
  cmd->add_option("--enable,--enable-pass", a.enable, "rule ids to force on (comma-separated; repeatable)");
  cmd->add_option("--disable,--disable-pass", a.disable, "rule ids to switch off (comma-separated; repeatable; wins)");
  cmd->add_option("--exclude-node", a.exclude, "node names never rewritten or fused (comma-separated)");
  cmd->add_option("--enable-cluster-ops", a.enableClusterOps, "op types to treat as fusable elementwise ops");
  cmd->add_option("--disable-cluster-ops", a.disableClusterOps, "op types never put into a multi-node kernel");
  cmd->add_option("--config", a.config, "fusion config JSON (opt_level, rules, exclude_nodes, user_rules)");
  cmd->add_option("--flags", a.flags, "MindSpore graph_kernel_flags string, e.g. \"--opt_level=2 --disable_pass=cse\"");
  cmd->add_option("--hw", a.hw, "hardware profile NAME (resources/hw) or FILE.json")->capture_default_str();
  cmd->add_option("--min-saving", a.minSaving, "memory-traffic saving a level-2 merge must reach (default 0.30)");
}

fw::Result<fw::fusion::FusionOptions> fusionOptionsFromArgs(const FusionArgs& a) {
  fw::fusion::FusionOptions o;
  o.optLevel = a.optLevel;
  if (!a.config.empty()) {
    FW_ASSIGN_OR_RETURN(auto text, fw::readFileBytes(a.config));
    FW_TRY_STATUS(fw::fusion::applyFusionConfig(o, text, a.config));
  }
  if (!a.flags.empty()) FW_TRY_STATUS(fw::fusion::applyGraphKernelFlags(o, a.flags));
  if (a.levelGiven() || (a.config.empty() && a.flags.empty())) o.optLevel = a.optLevel;
  std::set<std::string> en, dis;
  for (const auto& s : a.enable)
    for (const auto& id : fw::fusion::splitList(s)) en.insert(id);
  for (const auto& s : a.disable)
    for (const auto& id : fw::fusion::splitList(s)) dis.insert(id);
  FW_TRY_STATUS(fw::fusion::checkRuleIds(en, "--enable"));
  FW_TRY_STATUS(fw::fusion::checkRuleIds(dis, "--disable"));
  o.enabled.insert(en.begin(), en.end());
  o.disabled.insert(dis.begin(), dis.end());
  for (const auto& s : a.exclude)
    for (const auto& n : fw::fusion::splitList(s)) o.excludedNodes.insert(n);
  for (const auto& s : a.enableClusterOps)
    for (const auto& n : fw::fusion::splitList(s)) o.clusterOpsEnabled.insert(n);
  for (const auto& s : a.disableClusterOps)
    for (const auto& n : fw::fusion::splitList(s)) o.clusterOpsDisabled.insert(n);
  FW_ASSIGN_OR_RETURN(auto hw, fw::sim::resolveHwProfile(a.hw.empty() ? fw::sim::defaultHwProfileName() : a.hw));
  o.hw.ubBytes = hw.ubBytes;
  o.hw.cacheBytes = hw.l2Bytes;
  o.hw.elemBytes = static_cast<int64_t>(hw.elemBytes());
  if (a.minSaving >= 0) o.hw.minTrafficSaving = a.minSaving;
  return o;
}

fw::Status checkExcludedNodes(const fw::fusion::FusionOptions& o, const fw::Model& m) {
  for (const auto& n : o.excludedNodes)
    if (m.graph->findNode(n) == fw::kNoId)
      return fw::Error::badInput("--exclude-node '" + n + "': no node of that name in " + m.sourcePath);
  return {};
}

fw::Status requireExecutableOps(const fw::Model& m) {
  const auto unsupported = fw::unsupportedOps(m);
  if (unsupported.empty()) return {};
  std::string list;
  for (const auto& op : unsupported) list += (list.empty() ? "" : ", ") + op;
  return fw::Error::badInput("the reference executor does not support: " + list);
}

fw::Result<std::vector<fw::Tensor>> readInputDir(const std::string& dir, const fw::Model& m) {
  const fw::Graph& g = *m.graph;
  std::vector<fw::Tensor> inputs;
  for (size_t k = 0; k < g.inputs().size(); ++k) {
    const auto path = (std::filesystem::path(dir) / ("input_" + std::to_string(k) + ".pb")).string();
    auto t = fw::readTensorPb(path);
    if (!t.ok()) return t.error().context("input " + std::to_string(k) + " ('" + g.value(g.inputs()[k]).name + "')");
    inputs.push_back(std::move(t).value());
  }
  return inputs;
}

int fail(const fw::Error& e) {
  std::fprintf(stderr, "fwb: error: %s\n", e.message.c_str());
  // Exit codes are 0-3; a cancel (only the GUI cancels) would be the user's doing.
  return e.isCancelled() ? kBadInput : static_cast<int>(e.code);
}

int failUsage(const std::string& message) {
  std::fprintf(stderr, "fwb: error: %s\n", message.c_str());
  return kBadInput;
}

int& exitCodeSlot() {
  static int code = 0;
  return code;
}

void setRunner(CLI::App* cmd, Runner r) {
  cmd->callback([r = std::move(r)]() { exitCodeSlot() = r(); });
}

fw::Status writeOutput(const std::string& file, const std::string& text) {
  if (file.empty() || file == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return {};
  }
  return fw::writeFileAtomic(file, text);
}

int emitReport(const std::string& jsonOut, const std::string& text, const std::string& json) {
  if (jsonOut == "-") {
    if (auto st = writeOutput("-", json + "\n"); !st.ok()) return fail(st.error());
    return kOk;
  }
  if (auto st = writeOutput("-", text); !st.ok()) return fail(st.error());
  if (!jsonOut.empty())
    if (auto st = writeOutput(jsonOut, json + "\n"); !st.ok()) return fail(st.error());
  return kOk;
}

}  // namespace fwcli
