#pragma once
// One analysis of a model, as the GUI shows it and `fwb demo` prints it: fuse at a level, simulate the
// original (before) and the fused graph (after) on a hardware profile. Qt-free, so the CLI and the GUI
// call the same function.
//
// Before = the honest baseline (simulateBaseline) in the chosen mode. After = the fused graph at the
// chosen level, in graph mode (fusion only exists for compiled graphs).
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/Model.h"
#include "core/util/Result.h"
#include "fusion/FusionTypes.h"
#include "simulator/HwProfile.h"
#include "simulator/SimReport.h"
#include "simulator/Simulator.h"
#include "ui/diagram/Hierarchy.h"

namespace fw {

struct AnalysisOptions {
  fusion::FusionOptions fusion;  // hw limits are filled from the profile
  std::string hw;                // profile name or JSON path; empty = default profile
  sim::SimMode beforeMode = sim::SimMode::Graph;
  int64_t batch = 1;             // samples per run, for throughput
  bool simulate = true;          // false: fuse only
  // Control flow: which path is timed, and the traced run that tells (ShapeResolution::trace).
  sim::ControlFlowPolicy controlFlow = sim::ControlFlowPolicy::Trace;
  ExecTrace trace;
  // Reused when given (the GUI caches them: neither depends on the fusion level or the rules):
  std::shared_ptr<const diagram::Hierarchy> hierarchy;  // of this model's graph
  std::shared_ptr<const sim::SimResult> before;         // this model's baseline, same profile/batch/mode
};

struct Analysis {
  Model original;
  fusion::FusionResult fused;
  fusion::FusionOptions fusionOptions;  // what `fused` was made with (the hardware limits included)
  sim::HwProfile hw;
  sim::SimResult before;
  sim::SimResult after;
  bool simulated = false;
  std::vector<std::string> warnings;  // e.g. why the simulation could not run
  ExecTrace trace;                    // the traced run the control flow was timed by (tuning reuses it)
  // Groups of the original graph (name scopes or repeated blocks) that both views fold by.
  std::shared_ptr<const diagram::Hierarchy> hierarchy;
};

// The honest baselines: what a real stack runs when nothing is fused.
//  - graph mode (GE, MindSpore graph mode): the compile-time passes every graph compiler runs whatever
//    the fusion level — constant folding with the shape arithmetic (constant_fold), identity and
//    inference-Dropout removal, dead code, constant-If inlining — then one kernel per remaining node;
//    integer shape work left by data-dependent shapes runs on the host (simulator: host time, no launch);
//  - eager mode (PyNative): every original operator dispatched from the host, no compile-time pass.
// Speed-ups are quoted against these, never against a graph that launches its shape arithmetic.
inline const std::vector<std::string>& baselinePasses() {
  static const std::vector<std::string> p{"dead_code_elim", "identity_elim", "constant_fold", "if_constant_inline"};
  return p;
}
Result<fusion::FusionResult> baselinePlan(const Model& model);
// The "before" run of `model` in `opts.mode` (graph: baselinePlan; eager: the model as imported).
Result<sim::SimResult> simulateBaseline(const Model& model, const sim::HwProfile& hw, sim::SimOptions opts);
size_t simulateBaselineCalls();  // in this process (tests check that a level toggle simulates no baseline)
// A fusion result as a simulated plan in graph mode: its kernels and, per subgraph body, the body's.
Result<sim::SimResult> simulatePlan(const fusion::FusionResult& r, const sim::HwProfile& hw, sim::SimOptions opts);

// Loads the hardware profile and copies the fusion-relevant limits into `opts.fusion.hw`.
Result<sim::HwProfile> prepareHw(AnalysisOptions& opts);
// Kernel groups for the simulator from a fusion result (members and origins).
std::vector<sim::KernelGroup> kernelGroups(const fusion::FusionResult& r);
// The same for every subgraph body, by scope ("If_3/then_branch").
std::map<std::string, std::vector<sim::KernelGroup>> bodyKernelGroups(const fusion::FusionResult& r);
// `cancel` is checked between stages; a cancel returns an ErrorCode::Cancelled error.
// Samples a run of `model` computes, what throughput counts: `batch` for a zoo model (built at it), an
// imported model's static leading input dim (the batch setting binds a symbolic one), else `batch`.
// `fwb simulate` and the GUI report the same figure.
int64_t samplesPerRun(const Model& model, int64_t batch);

Result<Analysis> analyze(const Model& model, AnalysisOptions opts, const std::atomic<bool>* cancel = nullptr);

}  // namespace fw
