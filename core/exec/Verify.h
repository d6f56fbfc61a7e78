#pragma once
// Numerical comparison of two models on the same inputs: the seam between the reference executor and
// the fusion engine (`fwb verify` compares the imported model with the fused one).
//
// Error measures, per output:
//   max abs  = max |cand - ref|
//   max rel  = max |cand - ref| / max |ref|   (normwise, infinity norm: the error relative to the
//              output's own scale; this is the pass criterion)
//   max elem rel = max |cand - ref| / max(|ref|, 1e-3 * max|ref|)   (elementwise, informative: it
//              grows on elements near zero, where fp32 rounding of a reordered sum shows most)
// An output passes when max rel <= tolerance; NaN where the other side has a number, or a shape or
// type difference, fails. An all-zero reference is compared absolutely (max abs <= tolerance).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/Executor.h"

namespace fw {

struct VerifyOptions {
  uint64_t seed = 1;                 // for randomInputs when `inputs` is empty
  std::vector<Tensor> inputs;        // graph-input order; empty = seeded random inputs
  double tolerance = 1e-5;           // max relative error allowed
  ExecOptions exec;
};

struct OutputDiff {
  std::string name;
  std::vector<int64_t> dims;
  std::string dtype;
  double maxAbs = 0;
  double maxRel = 0;         // normwise (the criterion)
  double maxElemRel = 0;     // elementwise with a floor (informative)
  int64_t worstIndex = -1;  // flat index of the largest absolute error
  bool passed = true;
  std::string note;         // why it failed when not numeric (shape, type, NaN)
};

struct VerifyReport {
  std::vector<OutputDiff> outputs;
  bool passed = true;
  double tolerance = 0;
  uint64_t seed = 0;
  double referenceMs = 0, candidateMs = 0;

  nlohmann::json toJson() const;
  std::string toText() const;  // a table, one line per output
};

// Default tolerance for an optimisation level: 1e-5 for levels 0-1, 1e-4 for 2-3.
double defaultVerifyTolerance(int optLevel);

// Compares one pair of tensors (also used by the conformance runner's reporting).
OutputDiff compareTensors(const std::string& name, const Tensor& reference, const Tensor& candidate, double tolerance);

// Runs both models on the same inputs. The models must have the same graph inputs (by position)
// and the same number of outputs; errors of either run are returned with "reference"/"candidate".
Result<VerifyReport> verifyModels(const Model& reference, const Model& candidate, const VerifyOptions& opts);

}  // namespace fw
