#pragma once
// Measured times beside simulated ones (issue 22): a run measured per kernel (`fwb profile` on the
// reference executor) or per operator (a board's profiler op summary), and how far the simulation is
// from it, reported the way simulator papers do (per-kernel error, whole-model error, rank correlation).
#include <string>
#include <vector>

#include "core/util/Result.h"
#include "simulator/Simulator.h"

namespace fw::sim {

struct MeasuredKernel {
  std::string name;               // kernel name (fwb profile) or the op's name (a board's op summary)
  std::vector<std::string> ops;   // op types, when the source says
  double us = 0;                  // measured time, microseconds (median of the repeats where there are several)
};

struct MeasuredRun {
  std::string source;   // what measured it, e.g. "fwb profile, 1 thread, AMD EPYC (AVX-512)" or "msprof op_summary: x.csv"
  std::string model;
  int optLevel = -1;    // -1: not known (a board's op summary)
  int threads = 0;
  double totalUs = 0;   // whole run as measured (sum of the rows when the source gives no total)
  bool byNode = false;  // rows name the model's original nodes (a board), not fwb's kernels
  std::vector<MeasuredKernel> kernels;
};

// Measured vs simulated over the rows both have. Errors are relative to the measurement:
// |sim - measured| / measured. `spearman` is the rank correlation of the matched kernel times.
struct Accuracy {
  size_t matched = 0;
  std::vector<std::string> unmatchedMeasured;   // measured rows no simulated kernel matches
  std::vector<std::string> unmatchedSimulated;  // simulated kernels with no measured row
  double medianAbsErr = 0, meanAbsErr = 0;      // per kernel
  double totalErr = 0;                           // whole model: (sim total - measured total) / measured total
  double spearman = 0;
};

}  // namespace fw::sim
