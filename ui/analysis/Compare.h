#pragma once
// Per-chip comparison (`fwb compare`, the GUI's Compare chips...): the same model fused for several
// hardware profiles. Fusion sees a chip through its limits (Unified Buffer size, device element
// size), so plans can differ; this lists the decisions that went differently, the kernels that
// differ from the first chip's plan, and a matrix of simulated latencies: each chip's plan timed on
// every chip (the diagonal is each chip's own plan; off the diagonal, what a plan made for another
// chip would cost). With `tune`, each chip's plan is first tuned on that chip (fw::tune).
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ui/analysis/Analysis.h"
#include "ui/analysis/PlanDiff.h"
#include "ui/analysis/Tuner.h"

namespace fw {

struct CompareOptions {
  AnalysisOptions base;            // fusion options, batch, control flow (the hw field is ignored)
  std::vector<std::string> hw;     // two or more profile names or JSON paths
  bool tune = false;
  double tuneBudgetSeconds = 60;   // per chip
  TuneObjective objective = TuneObjective::Latency;
  std::function<void(double, const std::string&)> progress;
  const std::atomic<bool>* cancel = nullptr;
};

struct ChipPlan {
  std::string hw;                  // profile name
  std::string tunedMoves;          // with tune: the tuner's moves ("" = not tuned)
  size_t kernels = 0;
  double beforeUs = 0;             // unfused on this chip
  double afterUs = 0;              // this plan on this chip
  double hbmBytes = 0;
  std::vector<double> onChip;      // this plan simulated on each chip, in CompareResult::chips order
};

struct CompareResult {
  std::vector<ChipPlan> chips;
  std::vector<DecisionDiff> decisions;                 // outcome per chip
  std::vector<std::vector<std::string>> kernelChanges;  // [i]: chip 0's plan -> chip i's (i >= 1)
  nlohmann::json toJson() const;
  std::string toText() const;
};

Result<CompareResult> compareChips(const Model& model, CompareOptions opts);

}  // namespace fw
