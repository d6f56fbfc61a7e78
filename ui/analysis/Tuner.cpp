#include "ui/analysis/Tuner.h"

#include "ui/analysis/PlanDiff.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "core/exec/Executor.h"
#include "core/exec/Verify.h"
#include "ui/analysis/Text.h"
#include "fusion/Export.h"
#include "fusion/OpTraits.h"
#include "fusion/Pipeline.h"
#include "fusion/Registry.h"

namespace fw {

const char* objectiveName(TuneObjective o) { return o == TuneObjective::Latency ? "latency" : "hbm"; }

namespace {

using Clock = std::chrono::steady_clock;

const double kSavings[] = {0.0, 0.1, 0.2, 0.3, 0.5};
const double kUbFractions[] = {0.5, 0.75, 1.0};
constexpr size_t kExclusionMoves = 6;
// A move must beat the current best by this share: smaller simulated differences are within the
// cost model's rounding and do not justify a less standard configuration.
constexpr double kMinGain = 0.005;

std::string fmt(double v, int prec = 1) { return fixedText(v, prec); }

struct Evaluated {
  TuneCandidate cand;
  fusion::FusionResult fused;
  sim::SimResult sim;
};

struct Move {
  std::string text;
  fusion::FusionOptions options;
};

class Search {
 public:
  Search(const Model& m, TuneOptions& o, sim::HwProfile hw) : model_(m), opts_(o), hw_(std::move(hw)) {
    so_.batch = o.start.batch;
    so_.mode = sim::SimMode::Graph;
    so_.controlFlow = o.start.controlFlow;
    so_.trace = &o.start.trace;
  }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
  bool cancelled() const { return opts_.cancel && opts_.cancel->load(); }

  Result<Evaluated> evaluate(const std::string& text, const fusion::FusionOptions& fo) {
    auto fused = fusion::fuseModel(model_, fo);
    if (!fused.ok()) return fused.error();
    auto s = simulatePlan(*fused, hw_, so_);
    if (!s.ok()) return s.error().context("simulating the candidate '" + text + "'");
    Evaluated e;
    e.cand.description = text;
    e.cand.options = fo;
    e.cand.latencyUs = s->latencyUs;
    e.cand.hbmBytes = s->hbmBytes;
    e.cand.kernels = fused->kernels.size();
    e.fused = std::move(fused).value();
    e.sim = std::move(s).value();
    ++evaluations_;
    return e;
  }

  // 1 equal, 0 differs; an error of the run itself is an error.
  Result<int> verify(TuneCandidate& c) {
    if (!reference_) {
      FW_ASSIGN_OR_RETURN(inputs_, randomInputs(model_, opts_.seed));
      FW_ASSIGN_OR_RETURN(auto ref, runGraph(model_, inputs_));
      reference_ = std::move(ref);
    }
    FW_ASSIGN_OR_RETURN(auto fused, fusion::fuseModel(model_, c.options));
    FW_ASSIGN_OR_RETURN(auto exported, fusion::exportFused(fused));
    auto out = runGraph(exported, inputs_);
    if (!out.ok()) return out.error().context("running the tuned candidate '" + c.description + "'");
    c.maxRel = 0;
    bool ok = out->size() == reference_->size();
    for (size_t i = 0; ok && i < out->size(); ++i) {
      OutputDiff d = compareTensors("out" + std::to_string(i), (*reference_)[i], (*out)[i], opts_.tolerance);
      c.maxRel = std::max(c.maxRel, d.maxRel);
      ok = d.passed;
    }
    c.verified = ok ? 1 : 0;
    return c.verified;
  }

  std::vector<Move> moves(const Evaluated& cur, const std::map<std::string, double>& unfusedUs) const {
    std::vector<Move> out;
    const fusion::FusionOptions& o = cur.cand.options;
    if (o.optLevel < 3) {
      Move m{"opt level " + std::to_string(o.optLevel + 1), o};
      m.options.optLevel = o.optLevel + 1;
      out.push_back(std::move(m));
    }
    for (const auto& r : fusion::registeredRules()) {
      const std::string id(r->id());
      if (id == "dead_code_elim" || id == "identity_elim" || (id == "user_rules" && o.userRules.empty())) continue;
      Move m{"", o};
      if (fusion::isRuleActive(*r, o)) {
        m.text = "disable " + id;
        m.options.enabled.erase(id);
        m.options.disabled.insert(id);
      } else {
        m.text = "enable " + id;
        m.options.disabled.erase(id);
        m.options.enabled.insert(id);
      }
      out.push_back(std::move(m));
    }
    for (double s : kSavings)
      if (std::fabs(s - o.hw.minTrafficSaving) > 1e-9) {
        Move m{"min saving " + fmt(s), o};
        m.options.hw.minTrafficSaving = s;
        out.push_back(std::move(m));
      }
    for (double f : kUbFractions)
      if (std::fabs(f - o.hw.ubFraction) > 1e-9) {
        Move m{"UB share " + fmt(f, 2), o};
        m.options.hw.ubFraction = f;
        out.push_back(std::move(m));
      }
    // Kernels slower than their parts unfused: keep their vector members apart.
    std::vector<std::pair<double, const sim::KernelTiming*>> bad;
    for (const auto& k : cur.sim.kernels) {
      if (k.origins.size() < 2 || !k.scope.empty()) continue;
      double parts = 0;
      for (const auto& on : k.origins) {
        auto it = unfusedUs.find(on);
        parts += it == unfusedUs.end() ? 0 : it->second;
      }
      if (k.durUs > parts + 1e-9) bad.push_back({k.durUs - parts, &k});
    }
    std::stable_sort(bad.begin(), bad.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < bad.size() && i < kExclusionMoves; ++i) {
      const sim::KernelTiming& k = *bad[i].second;
      Move m{"exclude", o};
      for (size_t j = 0; j < k.nodes.size() && j < k.ops.size(); ++j)
        if (!fusion::isCubeOp(k.ops[j])) {
          m.options.excludedNodes.insert(k.nodes[j]);
          m.text += (m.text == "exclude" ? " " : ", ") + k.nodes[j];
        }
      if (m.text != "exclude") out.push_back(std::move(m));
    }
    return out;
  }

  int evaluations() const { return evaluations_; }

 private:
  const Model& model_;
  TuneOptions& opts_;
  sim::HwProfile hw_;
  sim::SimOptions so_;
  Clock::time_point t0_ = Clock::now();
  int evaluations_ = 0;
  std::vector<Tensor> inputs_;
  std::optional<std::vector<Tensor>> reference_;
};


std::vector<std::string> optionChanges(const fusion::FusionOptions& a, const fusion::FusionOptions& b) {
  std::vector<std::string> out;
  if (a.optLevel != b.optLevel) out.push_back("opt level " + std::to_string(a.optLevel) + " -> " + std::to_string(b.optLevel));
  fusion::FusionOptions atLevel = a;  // rules switched by the level change are implied by it
  atLevel.optLevel = b.optLevel;
  for (const auto& r : fusion::registeredRules()) {
    bool x = fusion::isRuleActive(*r, atLevel), y = fusion::isRuleActive(*r, b);
    if (x != y) out.push_back(std::string(y ? "enabled " : "disabled ") + std::string(r->id()));
  }
  if (std::fabs(a.hw.minTrafficSaving - b.hw.minTrafficSaving) > 1e-9)
    out.push_back("min traffic saving " + fmt(a.hw.minTrafficSaving) + " -> " + fmt(b.hw.minTrafficSaving));
  if (std::fabs(a.hw.ubFraction - b.hw.ubFraction) > 1e-9)
    out.push_back("UB share " + fmt(a.hw.ubFraction, 2) + " -> " + fmt(b.hw.ubFraction, 2));
  for (const auto& n : b.excludedNodes)
    if (!a.excludedNodes.count(n)) out.push_back("excluded node " + n);
  return out;
}

}  // namespace

Result<TuneResult> tune(const Model& model, TuneOptions opts) {
  AnalysisOptions& start = opts.start;
  FW_ASSIGN_OR_RETURN(auto hw, prepareHw(start));
  TuneResult res;
  res.hw = hw.name;
  res.objective = opts.objective;

  // Unfused times per original node, for the exclusion moves.
  sim::SimOptions so;
  so.batch = start.batch;
  so.mode = sim::SimMode::Graph;
  so.controlFlow = start.controlFlow;
  so.trace = &start.trace;
  auto unfused = simulateBaseline(model, hw, so);
  if (!unfused.ok()) return unfused.error().context("tune: the model cannot be simulated");
  std::map<std::string, double> unfusedUs;
  for (const auto& k : unfused->kernels)
    for (const auto& n : k.nodes) unfusedUs[n] += k.durUs / static_cast<double>(std::max<size_t>(1, k.nodes.size()));

  Search s(model, opts, hw);
  auto score = [&](const TuneCandidate& c) { return res.score(c); };
  FW_ASSIGN_OR_RETURN(Evaluated startEval, s.evaluate("start (-O" + std::to_string(start.fusion.optLevel) + ")", start.fusion));
  if (opts.verify) FW_TRY_STATUS(s.verify(startEval.cand));
  Evaluated best = startEval;
  std::vector<TuneCandidate> all{startEval.cand};
  auto report = [&](const std::string& line) {
    if (opts.progress) opts.progress(std::min(1.0, s.elapsed() / std::max(opts.budgetSeconds, 1e-9)), line);
  };
  const double searchBudget = opts.budgetSeconds * 0.85;  // the rest: verifying the table
  res.stopReason = "converged";
  for (bool improved = true; improved;) {
    improved = false;
    std::vector<Evaluated> round;
    for (const Move& m : s.moves(best, unfusedUs)) {
      if (s.cancelled()) { res.stopReason = "cancelled"; break; }
      if (s.elapsed() > searchBudget) { res.stopReason = "budget"; break; }
      if (opts.maxEvaluations > 0 && s.evaluations() >= opts.maxEvaluations) { res.stopReason = "evaluation cap"; break; }
      const std::string text = best.cand.description.rfind("start", 0) == 0 ? m.text : best.cand.description + "; " + m.text;
      auto e = s.evaluate(text, m.options);
      if (!e.ok()) {
        report("skipped '" + text + "': " + e.error().message);
        continue;
      }
      report(text + ": " + fmt(e->cand.latencyUs, 2) + " us, " + std::to_string(e->cand.kernels) + " kernels");
      all.push_back(e->cand);
      round.push_back(std::move(e).value());
    }
    std::stable_sort(round.begin(), round.end(),
                     [&](const Evaluated& a, const Evaluated& b) { return score(a.cand) < score(b.cand); });
    for (Evaluated& e : round) {
      if (score(e.cand) > score(best.cand) * (1 - kMinGain)) break;
      if (opts.verify) {
        FW_ASSIGN_OR_RETURN(int ok, s.verify(e.cand));
        for (auto& c : all)
          if (c.description == e.cand.description) c = e.cand;
        if (!ok) {
          ++res.rejectedByVerify;
          continue;
        }
      }
      best = std::move(e);
      improved = true;
      break;
    }
    if (res.stopReason != "converged") break;
  }

  // The table: distinct candidates, best first, each proven equal while the budget lasts.
  std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) { return score(a) < score(b); });
  // Candidates with the same outcome as a better-ranked one (same latency, traffic and kernel count)
  // add nothing to the table.
  std::set<std::string> seen;
  std::set<std::tuple<double, double, size_t>> outcomes;
  for (auto& c : all) {
    if (res.table.size() >= opts.tableRows) break;
    if (!seen.insert(c.description).second) continue;
    if (!outcomes.insert({std::round(c.latencyUs * 1000), std::round(c.hbmBytes), c.kernels}).second) continue;
    if (opts.verify && c.verified < 0 && s.elapsed() < opts.budgetSeconds && !s.cancelled()) {
      FW_TRY_STATUS(s.verify(c));
    }
    if (c.verified == 0) {
      ++res.rejectedByVerify;
      continue;
    }
    res.table.push_back(c);
  }
  res.start = startEval.cand;
  res.best = best.cand;
  res.changes = optionChanges(startEval.cand.options, best.cand.options);
  for (auto& line : kernelChanges(startEval.fused, startEval.sim, best.fused, best.sim)) res.changes.push_back(line);
  res.evaluations = s.evaluations();
  res.seconds = s.elapsed();
  return res;
}

nlohmann::json TuneResult::configJson() const {
  const auto& o = best.options;
  nlohmann::json j;
  j["opt_level"] = o.optLevel;
  j["enable"] = std::vector<std::string>(o.enabled.begin(), o.enabled.end());
  j["disable"] = std::vector<std::string>(o.disabled.begin(), o.disabled.end());
  j["exclude_nodes"] = std::vector<std::string>(o.excludedNodes.begin(), o.excludedNodes.end());
  j["min_traffic_saving"] = o.hw.minTrafficSaving;
  j["ub_fraction"] = o.hw.ubFraction;
  if (!o.clusterOpsEnabled.empty()) j["enable_cluster_ops"] = std::vector<std::string>(o.clusterOpsEnabled.begin(), o.clusterOpsEnabled.end());
  if (!o.clusterOpsDisabled.empty()) j["disable_cluster_ops"] = std::vector<std::string>(o.clusterOpsDisabled.begin(), o.clusterOpsDisabled.end());
  j["tuned"] = {{"hw", hw},
                {"objective", objectiveName(objective)},
                {"simulated_latency_us", best.latencyUs},
                {"simulated_hbm_bytes", best.hbmBytes},
                {"start_latency_us", start.latencyUs},
                {"moves", best.description}};
  return j;
}

nlohmann::json TuneResult::toJson() const {
  auto cand = [](const TuneCandidate& c) {
    return nlohmann::json{{"moves", c.description},
                          {"latency_us", c.latencyUs},
                          {"hbm_bytes", c.hbmBytes},
                          {"kernels", c.kernels},
                          {"verified", c.verified == 1 ? nlohmann::json(true) : c.verified == 0 ? nlohmann::json(false) : nlohmann::json()},
                          {"max_rel", c.maxRel}};
  };
  nlohmann::json j;
  j["hw"] = hw;
  j["objective"] = objectiveName(objective);
  j["simulated"] = true;
  j["start"] = cand(start);
  j["best"] = cand(best);
  j["table"] = nlohmann::json::array();
  for (const auto& c : table) j["table"].push_back(cand(c));
  j["changes"] = changes;
  j["evaluations"] = evaluations;
  j["rejected_by_verify"] = rejectedByVerify;
  j["seconds"] = seconds;
  j["stop"] = stopReason;
  j["config"] = configJson();
  return j;
}

std::string TuneResult::toText() const {
  std::ostringstream os;
  os << "tuned on " << hw << " (simulated), objective " << objectiveName(objective) << ": " << evaluations
     << " candidates in " << fmt(seconds, 1) << " s, stopped: " << stopReason;
  if (rejectedByVerify) os << ", " << rejectedByVerify << " rejected by verify";
  os << "\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-4s %12s %14s %8s %9s  %s\n", "rank", "latency us", "hbm MiB", "kernels", "verified", "moves");
  os << line;
  int rank = 1;
  for (const auto& c : table) {
    std::snprintf(line, sizeof line, "%-4d %12.2f %14.3f %8zu %9s  ", rank++, c.latencyUs, c.hbmBytes / 1048576.0, c.kernels,
                  c.verified == 1 ? "equal" : c.verified == 0 ? "DIFFERS" : "-");
    os << line << c.description << "\n";
  }
  const double a = start.latencyUs, b = best.latencyUs;
  os << "\n";
  if (best.description == start.description) {
    os << "the starting options are the best found: no move improved the " << objectiveName(objective) << "\n";
  } else {
    os << "tuned vs start: latency " << fmt(a, 2) << " -> " << fmt(b, 2) << " us (" << fmt(a > 0 ? (a - b) / a * 100 : 0, 1)
       << "% less), hbm " << fmt(start.hbmBytes / 1048576.0, 3) << " -> " << fmt(best.hbmBytes / 1048576.0, 3) << " MiB, kernels "
       << start.kernels << " -> " << best.kernels << "\nwhat changed:\n";
    for (const auto& c : changes) os << "  " << c << "\n";
  }
  return os.str();
}

}  // namespace fw
