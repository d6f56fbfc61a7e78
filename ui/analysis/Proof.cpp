#include "ui/analysis/Proof.h"

#include <algorithm>
#include <cstdio>

#include "core/ir/OpCost.h"
#include "fusion/Export.h"
#include "ui/analysis/Text.h"

namespace fw {

RunEstimate estimateRun(const Model& m, double flopsPerSecond) {
  RunEstimate e;
  if (!m.graph) return e;
  for (NodeId id : m.graph->liveNodes()) {
    const NodeCost c = nodeCost(*m.graph, id);
    e.flops += c.flops;
    e.bytes += c.bytesIn + c.bytesOut;
    ++e.nodes;
  }
  for (const auto& v : m.graph->values())
    if (v.initializer) e.weightBytes += static_cast<double>(v.initializer->byteSize());
  return atRate(e, flopsPerSecond);
}

RunEstimate atRate(RunEstimate e, double flopsPerSecond) {
  constexpr double kBytesPerSecond = 4e9, kSecondsPerNode = 15e-6, kRoundTripBytesPerSecond = 2e8;
  e.seconds = e.flops / std::max(flopsPerSecond, 1e6) + e.bytes / kBytesPerSecond +
              static_cast<double>(e.nodes) * kSecondsPerNode;
  e.proofSeconds = 2 * e.seconds + e.weightBytes / kRoundTripBytesPerSecond;
  return e;
}

Result<VerifyReport> proveAnalysis(const Analysis& a, const ProofOptions& opts) {
  const auto cancelled = [&] { return opts.exec.cancel && opts.exec.cancel->load(); };
  FW_ASSIGN_OR_RETURN(Model candidate,
                      fusion::exportedAndReimported(a.fused, a.original.sourcePath + " (fused -O" +
                                                                 std::to_string(a.fused.optLevel) + ")"));
  if (cancelled()) return Error::cancelled();
  VerifyOptions v;
  v.seed = opts.seed;
  v.tolerance = opts.tolerance >= 0 ? opts.tolerance : defaultVerifyTolerance(a.fused.optLevel);
  v.exec = opts.exec;
  auto r = verifyModels(a.original, candidate, v);
  if (!r.ok() && cancelled()) return Error::cancelled();
  return r;
}

std::string proofSummary(const VerifyReport& r) {
  double worst = 0;
  for (const auto& o : r.outputs) worst = std::max(worst, o.maxRel);
  if (r.passed)
    return "equal \u2714 max rel " + sciText(worst) + " (seed " + std::to_string(r.seed) + ")";
  for (const auto& o : r.outputs) {
    if (o.passed) continue;
    std::string s = "differs \u2718 at '" + o.name + "': ";
    s += o.note.empty() ? "max rel " + sciText(o.maxRel) + " > " + sciText(r.tolerance) : o.note;
    return s + " (seed " + std::to_string(r.seed) + ")";
  }
  return "differs \u2718 (seed " + std::to_string(r.seed) + ")";
}

}  // namespace fw
