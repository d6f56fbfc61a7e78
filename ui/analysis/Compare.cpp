#include "ui/analysis/Compare.h"

#include <cstdio>
#include <sstream>

#include "fusion/Pipeline.h"

namespace fw {

Result<CompareResult> compareChips(const Model& model, CompareOptions opts) {
  if (opts.hw.size() < 2) return Error::badInput("compare: give at least two hardware profiles (--hw A --hw B)");
  struct Work {
    sim::HwProfile profile;
    fusion::FusionResult fused;
    sim::SimResult after;
  };
  std::vector<Work> work;
  CompareResult res;
  sim::SimOptions so;
  so.batch = opts.base.batch;
  so.controlFlow = opts.base.controlFlow;
  so.trace = &opts.base.trace;
  for (size_t i = 0; i < opts.hw.size(); ++i) {
    if (opts.cancel && opts.cancel->load()) return Error::cancelled();
    AnalysisOptions a = opts.base;
    a.hw = opts.hw[i];
    FW_ASSIGN_OR_RETURN(auto profile, prepareHw(a));
    ChipPlan cp;
    cp.hw = profile.name;
    fusion::FusionOptions fo = a.fusion;
    if (opts.tune) {
      TuneOptions to;
      to.start = a;
      to.objective = opts.objective;
      to.budgetSeconds = opts.tuneBudgetSeconds;
      to.cancel = opts.cancel;
      if (opts.progress)
        to.progress = [&, i](double f, const std::string& line) {
          opts.progress((static_cast<double>(i) + f) / static_cast<double>(opts.hw.size()), profile.name + ": " + line);
        };
      FW_ASSIGN_OR_RETURN(auto t, tune(model, std::move(to)));
      fo = t.best.options;
      cp.tunedMoves = t.best.description;
    }
    FW_ASSIGN_OR_RETURN(auto fused, fusion::fuseModel(model, fo));
    sim::SimOptions s = so;
    s.mode = sim::SimMode::Graph;
    auto before = simulateBaseline(model, profile, s);
    if (!before.ok()) return before.error().context("compare: simulating the unfused model on " + profile.name);
    auto after = simulatePlan(fused, profile, s);
    if (!after.ok()) return after.error().context("compare: simulating the " + profile.name + " plan");
    cp.kernels = fused.kernels.size();
    cp.beforeUs = before->latencyUs;
    cp.afterUs = after->latencyUs;
    cp.hbmBytes = after->hbmBytes;
    res.chips.push_back(std::move(cp));
    work.push_back({std::move(profile), std::move(fused), std::move(after).value()});
    if (opts.progress && !opts.tune) opts.progress(static_cast<double>(i + 1) / static_cast<double>(opts.hw.size() + 1), work.back().profile.name);
  }
  // Every plan on every chip.
  for (size_t i = 0; i < work.size(); ++i) {
    for (size_t j = 0; j < work.size(); ++j) {
      if (i == j) {
        res.chips[i].onChip.push_back(res.chips[i].afterUs);
        continue;
      }
      auto r = simulatePlan(work[i].fused, work[j].profile, so);
      if (!r.ok()) return r.error().context("compare: the " + res.chips[i].hw + " plan on " + res.chips[j].hw);
      res.chips[i].onChip.push_back(r->latencyUs);
    }
  }
  std::vector<const fusion::FusionResult*> plans;
  for (const auto& w : work) plans.push_back(&w.fused);
  res.decisions = decisionDiffs(plans);
  res.kernelChanges.resize(work.size());
  for (size_t i = 1; i < work.size(); ++i)
    res.kernelChanges[i] = kernelChanges(work[0].fused, work[0].after, work[i].fused, work[i].after);
  return res;
}

nlohmann::json CompareResult::toJson() const {
  nlohmann::json j;
  j["simulated"] = true;
  j["chips"] = nlohmann::json::array();
  for (const auto& c : chips)
    j["chips"].push_back({{"hw", c.hw},
                          {"tuned_moves", c.tunedMoves},
                          {"kernels", c.kernels},
                          {"unfused_latency_us", c.beforeUs},
                          {"latency_us", c.afterUs},
                          {"hbm_bytes", c.hbmBytes},
                          {"plan_on_each_chip_us", c.onChip}});
  j["decisions"] = nlohmann::json::array();
  for (const auto& d : decisions) j["decisions"].push_back({{"rule", d.rule}, {"node", d.node}, {"outcome", d.outcome}});
  j["kernel_changes"] = nlohmann::json::array();
  for (size_t i = 1; i < kernelChanges.size(); ++i)
    j["kernel_changes"].push_back({{"from", chips[0].hw}, {"to", chips[i].hw}, {"changes", kernelChanges[i]}});
  return j;
}

std::string CompareResult::toText() const {
  std::ostringstream os;
  os << "simulated latency (us) per chip, each chip's own plan" << (chips.empty() || chips[0].tunedMoves.empty() ? "" : " (tuned)")
     << ":\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-16s %8s %12s %12s %8s  %s\n", "chip", "kernels", "unfused us", "fused us", "speedup",
                "tuned moves");
  os << line;
  for (const auto& c : chips) {
    std::snprintf(line, sizeof line, "%-16s %8zu %12.2f %12.2f %7.2fx  ", c.hw.c_str(), c.kernels, c.beforeUs, c.afterUs,
                  c.afterUs > 0 ? c.beforeUs / c.afterUs : 0.0);
    os << line << (c.tunedMoves.empty() ? "-" : c.tunedMoves) << "\n";
  }
  os << "\neach plan (row) simulated on each chip (column), us:\n";
  std::snprintf(line, sizeof line, "%-16s", "plan \\ chip");
  os << line;
  for (const auto& c : chips) {
    std::snprintf(line, sizeof line, " %14s", c.hw.c_str());
    os << line;
  }
  os << "\n";
  for (const auto& c : chips) {
    std::snprintf(line, sizeof line, "%-16s", c.hw.c_str());
    os << line;
    for (double v : c.onChip) {
      std::snprintf(line, sizeof line, " %14.2f", v);
      os << line;
    }
    os << "\n";
  }
  os << "\n";
  if (decisions.empty()) {
    os << "no fusion decision differs between these chips";
    bool anyKernel = false;
    for (const auto& k : kernelChanges) anyKernel = anyKernel || !k.empty();
    os << (anyKernel ? "" : ": the plans are the same kernels") << "\n";
  } else {
    os << decisions.size() << " fusion decision" << (decisions.size() == 1 ? "" : "s") << " differ:\n";
    for (const auto& d : decisions) {
      os << "  " << d.rule << " at '" << d.node << "'\n";
      for (size_t i = 0; i < d.outcome.size() && i < chips.size(); ++i) os << "    " << chips[i].hw << ": " << d.outcome[i] << "\n";
    }
  }
  for (size_t i = 1; i < kernelChanges.size(); ++i) {
    if (kernelChanges[i].empty()) continue;
    os << "\nkernels that differ, " << chips[0].hw << " -> " << chips[i].hw << " (simulated each on its own chip):\n";
    for (const auto& k : kernelChanges[i]) os << "  " << k << "\n";
  }
  return os.str();
}

}  // namespace fw
