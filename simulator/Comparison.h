#pragma once
// Before/after rows: for each kernel of the `after` run, the time the same original operators took
// in the `before` run. Matched by original node name, so `after` may come from a rewritten graph
// (BN folded, identities removed). Used by the GUI's timing table and the CLI's side-by-side table.
#include <string>
#include <vector>

#include "simulator/Simulator.h"

namespace fw::sim {

struct ComparisonRow {
  size_t afterIndex = 0;   // index into after.kernels
  std::string kernel;
  std::vector<std::string> ops;      // op types of the fused kernel's members
  std::vector<std::string> origins;  // original node names
  Unit unit = Unit::None;
  Bound bound = Bound::None;
  double beforeUs = 0, afterUs = 0;
  double beforeHbmBytes = 0, afterHbmBytes = 0;
  int beforeKernels = 0;  // how many kernels of the before run these origins were spread over
};

// Rows in the after run's schedule order. View kernels (Unit::None) are included; callers may hide them.
std::vector<ComparisonRow> compareRuns(const SimResult& before, const SimResult& after);

}  // namespace fw::sim

namespace fw::sim {
// The rows as CSV (kernel, ops, origins, unit, bound, before_us, after_us, speedup, hbm_before, hbm_after).
std::string comparisonCsv(const std::vector<ComparisonRow>& rows);
}  // namespace fw::sim
