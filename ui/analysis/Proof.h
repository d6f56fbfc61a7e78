#pragma once
// The proof behind every fusion the GUI shows: the analysed model and its fused export (as a runtime
// loads it) run on the reference executor with the same seeded inputs, every output compared — what
// `fwb verify` does on the command line. Qt-free; the GUI runs it in the background after each change.
#include <atomic>
#include <string>

#include "core/exec/Verify.h"
#include "core/util/Result.h"
#include "ui/analysis/Analysis.h"

namespace fw {

// Work of one run of the model on the executor, and the time it should take on this machine.
struct RunEstimate {
  double flops = 0;        // from the shapes (OpCost): one multiply-add = 2
  double bytes = 0;        // read and written by the nodes
  double weightBytes = 0;  // initializers (what exporting and re-importing the fused model copies)
  size_t nodes = 0;
  double seconds = 0;      // one run
  double proofSeconds = 0; // a proof: export + re-import, then two runs
};
// `flopsPerSecond` is the executor's speed (measured by an earlier proof, or a conservative default
// when there is none); bytes move at a few GB/s, each node costs ~15 us of dispatch, and the export
// round trip copies the weights a few times. Unknown shapes count as zero work. (A 60k-node encoder:
// 3.5 s of runs and 9 s of loading, fusing and round trip in `fwb verify`.)
RunEstimate estimateRun(const Model& m, double flopsPerSecond);
// The same work at another speed (no pass over the graph): what a new measured speed changes.
RunEstimate atRate(RunEstimate work, double flopsPerSecond);
inline constexpr double kDefaultExecutorFlops = 10e9;  // conservative: ResNet-50 reaches ~80e9 on 1 AVX-512 core

struct ProofOptions {
  uint64_t seed = 1;
  double tolerance = -1;  // < 0: defaultVerifyTolerance(level)
  ExecOptions exec;       // threads, cancel flag
};
// Verifies `a` (its original against its fused result). A cancel is an ErrorCode::Cancelled error.
Result<VerifyReport> proveAnalysis(const Analysis& a, const ProofOptions& opts);

// One line for a summary bar: "equal ✔ max rel 3.1e-07 (seed 1)" or "differs ✘ at 'y': max rel ...".
std::string proofSummary(const VerifyReport& r);

}  // namespace fw
