#pragma once
// Fitting a hardware profile's uncertain fields to a board's measured per-op times (issue 22, item 4):
// `fwb calibrate --from op_summary.csv --hw ascend910b2 MODEL -o my910b2.json`.
//
// The fit re-simulates the model with trial values and minimises, by damped Gauss-Newton
// (Levenberg-Marquardt) over the logarithms of the fields, the sum over matched kernels of
// (ln simulated − ln measured)²: relative errors, so a 5 µs kernel weighs as much as a 5 ms one. A field
// no matched kernel's time depends on (e.g. a family's vector efficiency when every op of that family is
// memory-bound) is "not determined": it keeps its value and the report says so.
//
// Without a board, synthesizeOpSummaryCsv writes what msprof would for a simulated run (one row per
// timed kernel, named by its first original node, with seeded ±noise), so the fit can be tested
// against a profile whose fields are known.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/Measured.h"
#include "simulator/OpSummary.h"
#include "simulator/Simulator.h"

namespace fw::sim {

// The fields a fit may change, by JSON path: "launch_us", "hbm_bandwidth_bytes_per_s",
// "efficiency.cube", "efficiency.elementwise", ..., "efficiency.data_movement".
const std::vector<std::string>& fittableFields();
Result<double> profileField(const HwProfile& hw, const std::string& field);
Status setProfileField(HwProfile& hw, const std::string& field, double value);

struct FitOptions {
  std::vector<std::string> fields;  // empty: every fittable field
  int maxIterations = 50;
  // A field takes part in a step when the RMS over matched kernels of d ln(time) / d ln(field) is at
  // least `minSensitivity`; it is reported as determined when, in addition, its standard error (from
  // the residual variance and the inverse of JᵀJ, relative: it is an error of ln(field)) is at most
  // `maxStdErr`. Otherwise it keeps its start value.
  double minSensitivity = 0.01;
  double maxStdErr = 0.05;
};

struct FittedField {
  std::string field;
  double before = 0, after = 0;
  double sensitivity = 0;   // RMS d ln(time) / d ln(field) over matched kernels, at the fitted values
  double stdErr = 0;        // relative standard error of the fitted value (inf when not estimable)
  bool determined = false;  // false: kept at `before`
};

struct FitResult {
  HwProfile fitted;
  std::vector<FittedField> fields;
  OpSummaryMatch match;     // how the measured rows lined up with the simulated kernels
  size_t kernelsUsed = 0;   // matched kernels with a positive measured time
  int iterations = 0;
  // Residual over the kernels used: RMS of ln(simulated / measured), and median |sim − meas| / meas.
  double rmsLogBefore = 0, rmsLogAfter = 0;
  double medianAbsErrBefore = 0, medianAbsErrAfter = 0;
};

// `groups` is the plan the board ran (unfusedGroups for a per-op run). BadInput when no measured row
// matches a timed kernel, or fewer kernels match than there are fields to fit.
Result<FitResult> fitProfile(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& start,
                             const MeasuredRun& measured, const SimOptions& opts = {}, const FitOptions& fo = {});

struct SynthOptions {
  double noise = 0.05;  // each duration times a factor uniform in [1 − noise, 1 + noise]
  uint64_t seed = 1;
};
// An op_summary CSV in msprof's layout (the documented columns, see OpSummary.cpp) for a simulated run.
std::string synthesizeOpSummaryCsv(const Graph& g, const SimResult& sim, const HwProfile& hw,
                                   const SynthOptions& so = {});

}  // namespace fw::sim
