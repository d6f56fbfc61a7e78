#pragma once
// The fusion auto-tuner (`fwb tune`, the GUI's Tune...): searches fusion strategies for one model on
// one chip and keeps the one with the lowest simulated latency (or HBM traffic).
//
// Search: hill climbing from the starting options (default -O2). Each round evaluates every move
// from the current best, in a fixed order, and takes the best improvement of at least 0.5%:
//   - the opt level one up (to 3);
//   - each rule switched off if active, or on if its level is above the current one;
//   - the level-2 minimum traffic saving (0, 0.1, 0.2, 0.3, 0.5);
//   - the share of the Unified Buffer one tile may use (0.5, 0.75, 1.0);
//   - per-node exclusions: for each of the worst multi-node kernels whose simulated time exceeds the
//     sum of its parts unfused, its vector members are excluded from fusion.
// A move is evaluated by fusing and simulating (deterministic). Before a move is accepted the
// fused export is run by the reference executor against the original on the same seeded inputs;
// a candidate that differs beyond the tolerance is discarded. The search stops when no move
// improves, when the time budget is spent, after maxEvaluations, or on cancel.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ui/analysis/Analysis.h"

namespace fw {

enum class TuneObjective { Latency, HbmTraffic };

struct TuneOptions {
  AnalysisOptions start;          // starting fusion options, hw profile, batch, control flow
  TuneObjective objective = TuneObjective::Latency;
  double budgetSeconds = 60;      // wall-clock budget of the whole search
  int maxEvaluations = 0;         // 0 = no cap (the budget decides); tests set it for determinism
  bool verify = true;             // prove each accepted candidate equal with the executor
  double tolerance = 1e-4;        // normwise relative, as fwb verify -O2
  uint64_t seed = 1;              // inputs of the verification runs
  size_t tableRows = 10;
  // Called after each evaluation: fraction of the budget used (0..1) and a line of text.
  std::function<void(double, const std::string&)> progress;
  const std::atomic<bool>* cancel = nullptr;
};

struct TuneCandidate {
  std::string description;        // the moves from the start, "disable dag_epilogue; min saving 0.1"
  fusion::FusionOptions options;
  double latencyUs = 0;
  double hbmBytes = 0;
  size_t kernels = 0;
  int verified = -1;              // 1 equal, 0 differs, -1 not run
  double maxRel = 0;              // worst output's normwise relative error when verified
};

struct TuneResult {
  std::string hw;
  TuneObjective objective = TuneObjective::Latency;
  TuneCandidate start, best;
  std::vector<TuneCandidate> table;  // the best distinct candidates, best first (start included)
  std::vector<std::string> changes;  // option differences and kernels that changed, best vs start
  int evaluations = 0;
  int rejectedByVerify = 0;
  double seconds = 0;
  std::string stopReason;            // "converged", "budget", "evaluation cap", "cancelled"

  double score(const TuneCandidate& c) const { return objective == TuneObjective::Latency ? c.latencyUs : c.hbmBytes; }
  // A fusion config (`--config`) that reproduces `best`, with a "tuned" note of what it was tuned for.
  nlohmann::json configJson() const;
  nlohmann::json toJson() const;
  std::string toText() const;  // the table and the changes
};

Result<TuneResult> tune(const Model& model, TuneOptions opts);

const char* objectiveName(TuneObjective o);

}  // namespace fw
