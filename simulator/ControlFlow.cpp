// If/Loop/Scan: which body runs and how often, its kernels folded by trips (ControlFlow.h).
#include "simulator/ControlFlow.h"

#include <algorithm>

#include "simulator/OpFamily.h"

namespace fw::sim {
namespace {

// What the traced run recorded for the node at `path`, or nullptr.
const ExecTrace::ControlFlow* tracedRun(const SimOptions& opts, const std::string& path) {
  if (!opts.trace) return nullptr;
  auto it = opts.trace->controlFlow.find(path);
  return it != opts.trace->controlFlow.end() ? &it->second : nullptr;
}

// Simulates body `attr` of node `n` (at `path`) under its scope "<path>/<attr>".
Result<SimResult> runBody(const Node& n, const std::string& path, const std::string& attr,
                          const SimulateBody& simulateBody) {
  GraphPtr body = n.attrs.getGraph(attr);
  if (!body) return Error::badInput("node '" + path + "' (" + n.opType + "): missing attribute '" + attr + "'");
  return simulateBody(*body, path + "/" + attr);
}

// One row for `repeats` loop iterations: every count and time is the total over them.
void foldRepeats(KernelTiming& t, int64_t repeats) {
  t.repeats *= repeats;
  t.cycles *= repeats;
  t.cubeCycles *= repeats;
  t.vectorCycles *= repeats;
  t.transferCycles *= repeats;
  t.fillCycles *= repeats;
  t.launchCycles *= repeats;
  const auto times = static_cast<double>(repeats);
  t.hostDispatchUs *= times;
  t.durUs *= times;
  t.flops *= times;
  t.hbmBytes *= times;
  t.weightBytes *= times;
  t.inputBytes *= times;
  t.outputBytes *= times;
  t.rereadBytes *= times;
  t.spillBytes *= times;
}

// The cost of the body run `r`, run `repeats` times, noted as "<path>: <note>".
ControlCost takeBody(SimResult&& r, int64_t repeats, const std::string& path, const std::string& note) {
  ControlCost cc;
  cc.notes.push_back(path + ": " + note);
  for (auto& w : r.warnings) cc.warnings.push_back(std::move(w));
  for (auto& nn : r.controlFlowNotes) cc.notes.push_back(std::move(nn));
  cc.peakActivationBytes = r.peakActivationBytes;
  cc.weightBytes = r.weightBytes;
  for (auto& t : r.kernels) {
    if (repeats != 1) foldRepeats(t, repeats);
    cc.kernels.push_back(std::move(t));
  }
  return cc;
}

// If: the branch the policy picks (Trace: the one the traced run took more often).
Result<ControlCost> costIf(const Node& n, const std::string& path, const ExecTrace::ControlFlow* cf,
                           const SimOptions& opts, const SimulateBody& simulateBody) {
  ControlFlowPolicy pol = opts.controlFlow;
  std::string why = controlFlowPolicyName(pol);
  if (pol == ControlFlowPolicy::Trace) {
    if (!cf || cf->runs == 0)
      return Error::badInput("node '" + path + "' (If): the traced run did not reach it, so the branch it takes is "
                             "unknown; choose one with --control-flow then|else|max");
    pol = cf->thenRuns >= cf->elseRuns ? ControlFlowPolicy::Then : ControlFlowPolicy::Else;
    if (cf->thenRuns > 0 && cf->elseRuns > 0)
      why = "trace: " + std::to_string(cf->thenRuns) + " then / " + std::to_string(cf->elseRuns) + " else runs";
  }
  if (pol == ControlFlowPolicy::Max) {
    FW_ASSIGN_OR_RETURN(SimResult a, runBody(n, path, "then_branch", simulateBody));
    FW_ASSIGN_OR_RETURN(SimResult b, runBody(n, path, "else_branch", simulateBody));
    const bool thenSlower = a.latencyCycles >= b.latencyCycles;
    return takeBody(thenSlower ? std::move(a) : std::move(b), 1, path,
                    std::string(thenSlower ? "then_branch" : "else_branch") + " (max: the slower branch)");
  }
  const std::string attr = pol == ControlFlowPolicy::Then ? "then_branch" : "else_branch";
  FW_ASSIGN_OR_RETURN(SimResult r, runBody(n, path, attr, simulateBody));
  return takeBody(std::move(r), 1, path, attr + " (" + why + ")");
}

// A loop's trip count and where it comes from; trips < 0: not known.
struct TripCount {
  int64_t trips = -1;
  std::string source;
};

// Loop without a condition input and with a constant trip count M.
TripCount constantTrips(const Graph& g, const Node& n) {
  const Tensor* m = n.inputs.empty() || n.inputs[0] == kNoId ? nullptr : g.constantOf(n.inputs[0]);
  const bool noCond = n.inputs.size() < 2 || n.inputs[1] == kNoId;
  if (m && m->numel() == 1 && noCond) return {m->getInt64(0), "constant trip count"};
  return {};
}

// Scan: the static length of the first scanned input along its scan axis.
TripCount scannedLength(const Graph& g, const Node& n) {
  const int64_t nScan = n.attrs.intOr("num_scan_inputs", 0);
  const size_t first = n.inputs.size() - static_cast<size_t>(std::max<int64_t>(nScan, 0));
  if (nScan <= 0 || first >= n.inputs.size() || n.inputs[first] == kNoId) return {};
  const auto axes = n.attrs.getInts("scan_input_axes").value_or(std::vector<int64_t>{});
  const Value& x = g.value(n.inputs[first]);
  auto dims = x.initializer ? std::optional<std::vector<int64_t>>(x.initializer->dims()) : x.shape.ints();
  int64_t ax = axes.empty() ? 0 : axes[0];
  if (dims && ax < 0) ax += static_cast<int64_t>(dims->size());
  if (dims && ax >= 0 && ax < static_cast<int64_t>(dims->size()))
    return {(*dims)[static_cast<size_t>(ax)], "scanned length"};
  return {};
}

// Trips per run: from the trace (rounded mean over its runs), else from the graph.
TripCount tripCount(const Graph& g, const Node& n, const ExecTrace::ControlFlow* cf) {
  if (cf && cf->runs > 0) return {(cf->trips + cf->runs / 2) / cf->runs, "trace"};
  if (n.opType == "Loop") return constantTrips(g, n);
  if (n.opType == "Scan") return scannedLength(g, n);
  return {};
}

// Loop / Scan: the body once, times the trip count.
Result<ControlCost> costLoop(const Graph& g, const Node& n, const std::string& path,
                             const ExecTrace::ControlFlow* cf, const SimulateBody& simulateBody) {
  const TripCount tc = tripCount(g, n, cf);
  if (tc.trips < 0)
    return Error::badInput("node '" + path + "' (" + n.opType + "): the trip count is not known without a traced run; "
                           "the traced run failed or was not made (see the warnings)");
  FW_ASSIGN_OR_RETURN(SimResult r, runBody(n, path, "body", simulateBody));
  return takeBody(std::move(r), tc.trips, path, std::to_string(tc.trips) + " trips (" + tc.source + ")");
}

}  // namespace

bool isControlGroup(const Graph& g, const KernelGroup& kg) {
  return kg.members.size() == 1 && opFamily(g.node(kg.members[0]).opType) == OpFamily::ControlFlow;
}

Result<ControlCost> costControl(const Graph& g, NodeId id, const SimOptions& opts, const std::string& prefix,
                                const SimulateBody& simulateBody) {
  const Node& n = g.node(id);
  const std::string path = prefix.empty() ? n.name : prefix + "/" + n.name;
  const ExecTrace::ControlFlow* cf = tracedRun(opts, path);
  if (n.opType == "If") return costIf(n, path, cf, opts, simulateBody);
  return costLoop(g, n, path, cf, simulateBody);
}

}  // namespace fw::sim
