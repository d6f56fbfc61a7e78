#pragma once
// Shared plumbing for fwb verbs: model arguments, error reporting, exit codes. No logic that the GUI
// lacks lives here; verbs call library functions and print.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "core/io/ModelSource.h"
#include "core/io/Prepare.h"
#include "core/exec/Executor.h"
#include "core/shape/ShapeResolve.h"
#include "core/util/Result.h"
#include "fusion/FusionTypes.h"

namespace fwcli {

inline constexpr int kOk = 0, kCheckFailed = 1, kBadInput = 2, kInternal = 3;

// Model argument plus the options every model-taking verb accepts.
struct ModelArgs {
  std::string model;  // path or zoo:NAME
  std::vector<std::string> inputShapes;
  int64_t batch = 0;  // 0 = model's own
  int64_t layers = 0, hidden = 0, heads = 0, seq = 0, image = 0;  // zoo parameters; 0 = model's default
};
void addModelArgs(CLI::App* cmd, ModelArgs& a, bool withBatch = true);
fw::Result<fw::Model> loadModelFromArgs(const ModelArgs& a, fw::ImportReport* report = nullptr);

// A model ready for fusing and simulating: loaded, its open dims bound by the documented default,
// every value's shape resolved (core/shape/ShapeResolve.h). The verbs fuse, verify, simulate, render
// and demo use this; `fwb info` shows the model as stored (symbolic dims by name).
using PreparedModel = fw::PreparedModel;  // core/io/Prepare.h: the one preparation path
// The load options the model switches give (--input-shape, --batch, zoo parameters).
fw::Result<fw::LoadOptions> loadOptionsFromArgs(const ModelArgs& a);
// `extra` binds inputs after the user's switches (verify --input-dir: the given tensors' shapes).
fw::Result<PreparedModel> prepareModelFromArgs(const ModelArgs& a, const std::vector<fw::ShapeOverride>& extra = {},
                                               int threads = 0);
// Writes the binding line, the values shaped by the traced run and import warnings to stderr.
void printShapeNotes(const PreparedModel& p);
// How the inputs were shaped, for JSON reports: {"inputs": {name: [dims]}, "bound_by_default": [
// {"input", "dim", "symbol", "value", "rule"}], "traced_values": N}.
nlohmann::json shapesJson(const PreparedModel& p);

// Fusion switches every fusing verb takes (fuse, verify, simulate, render): -O, --enable/--disable
// (alias --enable-pass/--disable-pass), --exclude-node, --enable/--disable-cluster-ops, --config,
// --flags (MindSpore graph_kernel_flags), --hw (Unified Buffer size), --min-saving.
struct FusionArgs {
  int optLevel = 2;
  CLI::Option* optOption = nullptr;
  std::vector<std::string> enable, disable, exclude, enableClusterOps, disableClusterOps;
  std::string config, flags, hw;
  double minSaving = -1;
  bool levelGiven() const { return optOption && optOption->count() > 0; }
  bool anySwitch() const;  // anything but -O and --hw
};
void addFusionArgs(CLI::App* cmd, FusionArgs& a, int defaultLevel = 2);
// Config file, then flags, then explicit switches; an explicit -O wins. Fills hw limits from --hw.
fw::Result<fw::fusion::FusionOptions> fusionOptionsFromArgs(const FusionArgs& a);
// --exclude-node names that are not nodes of the model's main graph are an error naming them.
fw::Status checkExcludedNodes(const fw::fusion::FusionOptions& o, const fw::Model& m);

// Resource limits of the reference executor (run, verify): --max-memory SIZE (largest tensor; K/M/G/T
// suffixes; default half of physical memory), --max-iterations N (per Loop; default 1e6),
// --time-limit SECONDS (whole run; default none).
struct ExecLimitArgs {
  std::string maxMemory;
  int64_t maxIterations = 1000000;
  double timeLimit = 0;
};
void addExecLimitArgs(CLI::App* cmd, ExecLimitArgs& a);
fw::Status applyExecLimits(const ExecLimitArgs& a, fw::ExecOptions& o);

// BadInput listing the ops the reference executor cannot run (run, verify).
fw::Status requireExecutableOps(const fw::Model& m);
// input_K.pb (ONNX TensorProto) for every runtime input of the model, in graph input order.
fw::Result<std::vector<fw::Tensor>> readInputDir(const std::string& dir, const fw::Model& m);

// Prints "fwb: error: ..." to stderr and returns the exit code for the error class.
int fail(const fw::Error& e);
int failUsage(const std::string& message);

// Verbs register themselves with a callback that sets the process exit code.
using Runner = std::function<int()>;
void setRunner(CLI::App* cmd, Runner r);
int& exitCodeSlot();

// Writes text to FILE atomically, or to stdout when FILE is "-" or empty.
fw::Status writeOutput(const std::string& file, const std::string& text);
// A verb's result: `text` on stdout, and `json` (indented) to `jsonOut` when given; jsonOut "-" prints
// the JSON instead of the text. Returns the exit code.
int emitReport(const std::string& jsonOut, const std::string& text, const std::string& json);

// --- verbs (one file each; main.cpp lists them) ---
void addInfoCommand(CLI::App& app);
void addZooCommand(CLI::App& app);
void addDemoCommand(CLI::App& app);
void addSimulateCommand(CLI::App& app);
void addRulesCommand(CLI::App& app);
void addFuseCommand(CLI::App& app);
void addRenderCommand(CLI::App& app);
void addRunCommand(CLI::App& app);
void addVerifyCommand(CLI::App& app);
void addTuneCommand(CLI::App& app);
void addCompareCommand(CLI::App& app);
void addProfileCommand(CLI::App& app);
void addCalibrateCommand(CLI::App& app);

}  // namespace fwcli
