#include "simulator/Measured.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <unordered_map>

#include "core/util/FileUtil.h"
#include "simulator/OpSummary.h"
#include "simulator/StolenTime.h"
#include "simulator/TextFormat.h"

namespace fw::sim {
namespace {

using nlohmann::json;

using text::fmt;
using text::fit;

std::string joinOps(const std::vector<std::string>& ops, size_t maxOps) {
  std::string s;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (maxOps && i == maxOps) return s + "+...(" + std::to_string(ops.size() - maxOps) + " more)";
    s += (i ? "+" : "") + ops[i];
  }
  return s;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<double> ranks(const std::vector<double>& x) {
  std::vector<size_t> idx(x.size());
  std::iota(idx.begin(), idx.end(), size_t{0});
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (size_t i = 0; i < idx.size();) {
    size_t j = i;
    while (j + 1 < idx.size() && x[idx[j + 1]] == x[idx[i]]) ++j;
    const double avg = 0.5 * static_cast<double>(i + j) + 1.0;  // ranks are 1-based
    for (size_t k = i; k <= j; ++k) r[idx[k]] = avg;
    i = j + 1;
  }
  return r;
}

// Field readers for the profile JSON: every error names the file and the field.
Error fieldError(const std::string& src, const std::string& field, const std::string& what) {
  return Error::badInput(src + ": " + field + ": " + what);
}

Result<double> number(const json& o, const std::string& key, const std::string& src, const std::string& at,
                       bool required, double dflt) {
  const auto it = o.find(key);
  if (it == o.end()) {
    if (required) return fieldError(src, at + key, "missing (a number is required)");
    return dflt;
  }
  if (!it->is_number()) return fieldError(src, at + key, "expected a number, got " + std::string(it->type_name()));
  const double v = it->get<double>();
  if (!std::isfinite(v)) return fieldError(src, at + key, "not a finite number");
  return v;
}

}  // namespace

// --- the profile JSON ------------------------------------------------------------------------------

json toJson(const MeasuredRun& r) {
  json j;
  j["measured"] = true;  // never a simulation
  j["source"] = r.source;
  j["model"] = r.model;
  j["opt_level"] = r.optLevel;
  j["threads"] = r.threads;
  j["repeats"] = r.repeats;
  j["warmup"] = r.warmup;
  j["by_node"] = r.byNode;
  j["total_us"] = r.totalUs;
  if (r.runsStolen >= 0) {
    j["runs_timed"] = r.runsTimed;
    j["runs_stolen"] = r.runsStolen;
    j["steal_share"] = r.stealShare;
    j["least_stolen"] = r.leastStolen;
  }
  if (r.probe.valid()) {
    j["speed_probe_us"] = toJson(r.probe);
    j["speed_probe_drift"] = r.probeDrift;
  }
  if (!r.mergedFrom.empty()) j["merged_from"] = r.mergedFrom;
  json ks = json::array();
  for (const auto& k : r.kernels) {
    json e = {{"name", k.name}, {"ops", k.ops}, {"measured_us", k.us}};
    if (!k.nodes.empty()) e["nodes"] = k.nodes;
    if (k.minUs >= 0) e["min_us"] = k.minUs;
    if (k.startUs >= 0) e["start_us"] = k.startUs;
    ks.push_back(std::move(e));
  }
  j["kernels"] = std::move(ks);
  return j;
}

Status writeMeasuredJson(const std::string& path, const MeasuredRun& r) {
  return writeFileAtomic(path, toJson(r).dump(2) + "\n");
}

Result<MeasuredRun> measuredRunFromJson(const std::string& text, const std::string& src) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return Error::badInput(src + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (!j.is_object()) return Error::badInput(src + ": expected a JSON object (fwb profile --json), got " + std::string(j.type_name()));
  MeasuredRun r;
  auto str = [&](const char* key, std::string& out, bool required) -> Status {
    const auto it = j.find(key);
    if (it == j.end()) {
      if (required) return fieldError(src, key, "missing (a string is required)");
      return {};
    }
    if (!it->is_string()) return fieldError(src, key, "expected a string, got " + std::string(it->type_name()));
    out = it->get<std::string>();
    return {};
  };
  auto integer = [&](const char* key, int& out, bool required, int lo, int hi) -> Status {
    const auto it = j.find(key);
    if (it == j.end()) {
      if (required) return fieldError(src, key, "missing (an integer is required)");
      return {};
    }
    if (!it->is_number_integer()) return fieldError(src, key, "expected an integer, got " + std::string(it->type_name()));
    const auto v = it->get<int64_t>();
    if (v < lo || v > hi)
      return fieldError(src, key, std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    out = static_cast<int>(v);
    return {};
  };
  FW_TRY_STATUS(str("model", r.model, true));
  FW_TRY_STATUS(str("source", r.source, false));
  FW_TRY_STATUS(integer("opt_level", r.optLevel, true, -1, 3));
  FW_TRY_STATUS(integer("threads", r.threads, true, 0, 1 << 20));
  FW_TRY_STATUS(integer("repeats", r.repeats, false, 0, 1 << 30));
  FW_TRY_STATUS(integer("warmup", r.warmup, false, 0, 1 << 30));
  auto boolean = [&](const char* key, bool& out) -> Status {
    if (const auto it = j.find(key); it != j.end()) {
      if (!it->is_boolean())
        return fieldError(src, key, "expected true or false, got " + std::string(it->type_name()));
      out = it->get<bool>();
    }
    return {};
  };
  FW_TRY_STATUS(boolean("by_node", r.byNode));
  if (j.contains("runs_stolen")) {
    FW_TRY_STATUS(integer("runs_timed", r.runsTimed, true, 0, 1 << 30));
    FW_TRY_STATUS(integer("runs_stolen", r.runsStolen, true, 0, r.runsTimed));
    FW_ASSIGN_OR_RETURN(r.stealShare, number(j, "steal_share", src, "", true, 0));
    if (r.stealShare < 0 || r.stealShare > 1) return fieldError(src, "steal_share", "must be within [0, 1]");
    FW_TRY_STATUS(boolean("least_stolen", r.leastStolen));
  }
  if (const auto it = j.find("speed_probe_us"); it != j.end()) {
    FW_ASSIGN_OR_RETURN(r.probe, speedProbeFromJson(*it, src + ": speed_probe_us"));
    FW_ASSIGN_OR_RETURN(r.probeDrift, number(j, "speed_probe_drift", src, "", true, 0));
    if (!(r.probeDrift > 0) || r.probeDrift > 1e6)
      return fieldError(src, "speed_probe_drift", "must be a positive ratio (after / before), at most 1e6");
  }
  if (const auto it = j.find("merged_from"); it != j.end()) {
    if (!it->is_array())
      return fieldError(src, "merged_from",
                        "expected an array of file names, got " + std::string(it->type_name()));
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string())
        return fieldError(src, "merged_from[" + std::to_string(i) + "]",
                          "expected a string, got " + std::string((*it)[i].type_name()));
      r.mergedFrom.push_back((*it)[i].get<std::string>());
    }
  }
  FW_ASSIGN_OR_RETURN(r.totalUs, number(j, "total_us", src, "", true, 0));
  if (r.totalUs < 0) return fieldError(src, "total_us", "must not be negative");
  const auto ks = j.find("kernels");
  if (ks == j.end()) return fieldError(src, "kernels", "missing (an array of {name, ops, measured_us} is required)");
  if (!ks->is_array()) return fieldError(src, "kernels", "expected an array, got " + std::string(ks->type_name()));
  for (size_t i = 0; i < ks->size(); ++i) {
    const json& e = (*ks)[i];
    const std::string at = "kernels[" + std::to_string(i) + "].";
    if (!e.is_object()) return fieldError(src, at.substr(0, at.size() - 1), "expected an object, got " + std::string(e.type_name()));
    MeasuredKernel k;
    const auto name = e.find("name");
    if (name == e.end() || !name->is_string() || name->get<std::string>().empty())
      return fieldError(src, at + "name", name == e.end() ? "missing" : "expected a non-empty string");
    k.name = name->get<std::string>();
    auto strings = [&](const char* key, const char* what, std::vector<std::string>& out) -> Status {
      const auto it = e.find(key);
      if (it == e.end()) return {};
      if (!it->is_array())
        return fieldError(src, at + key,
                          std::string("expected an array of ") + what + ", got " + it->type_name());
      for (size_t o = 0; o < it->size(); ++o) {
        if (!(*it)[o].is_string())
          return fieldError(src, at + key + "[" + std::to_string(o) + "]",
                            "expected a string, got " + std::string((*it)[o].type_name()));
        out.push_back((*it)[o].get<std::string>());
      }
      return {};
    };
    FW_TRY_STATUS(strings("ops", "op types", k.ops));
    FW_TRY_STATUS(strings("nodes", "node names", k.nodes));
    FW_ASSIGN_OR_RETURN(k.us, number(e, "measured_us", src, at, true, 0));
    if (k.us < 0) return fieldError(src, at + "measured_us", "must not be negative");
    FW_ASSIGN_OR_RETURN(k.minUs, number(e, "min_us", src, at, false, -1));
    FW_ASSIGN_OR_RETURN(k.startUs, number(e, "start_us", src, at, false, -1));
    r.kernels.push_back(std::move(k));
  }
  if (r.source.empty()) r.source = src;
  return r;
}

Result<MeasuredRun> loadMeasuredJson(const std::string& path) {
  auto text = readFileBytes(path);
  if (!text.ok()) return text.error();
  return measuredRunFromJson(*text, path);
}

Result<MeasuredRun> loadMeasuredRun(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".json") return loadMeasuredJson(path);
  if (ext == ".csv") return loadOpSummaryCsv(path);
  return Error::badInput(path + ": a measured run is fwb profile's .json or a board's op summary .csv, not '" + ext + "'");
}

Result<MeasuredRun> medianOfRuns(const std::vector<MeasuredRun>& runs,
                                 const std::vector<std::string>& files) {
  if (runs.empty()) return Error::badInput("no measured run to take the median of");
  if (runs.size() == 1) return runs.front();
  auto fileOf = [&](size_t i) {
    return i < files.size() ? files[i] : "measured run " + std::to_string(i + 1);
  };
  const MeasuredRun& first = runs.front();
  auto differs = [&](size_t i, const std::string& field, const std::string& a, const std::string& b) {
    return Error::badInput(fileOf(i) + ": " + field + " is " + b + ", " + fileOf(0) + "'s is " + a +
                           ": the runs to take the median of must measure the same model the same way");
  };
  for (size_t i = 1; i < runs.size(); ++i) {
    const MeasuredRun& r = runs[i];
    if (r.model != first.model) return differs(i, "model", "'" + first.model + "'", "'" + r.model + "'");
    if (r.optLevel != first.optLevel)
      return differs(i, "opt_level", std::to_string(first.optLevel), std::to_string(r.optLevel));
    if (r.threads != first.threads)
      return differs(i, "threads", std::to_string(first.threads), std::to_string(r.threads));
    if (r.byNode != first.byNode)
      return differs(i, "by_node", first.byNode ? "true" : "false", r.byNode ? "true" : "false");
    if (r.kernels.size() != first.kernels.size())
      return differs(i, "the number of kernels", std::to_string(first.kernels.size()),
                     std::to_string(r.kernels.size()));
    for (size_t k = 0; k < r.kernels.size(); ++k)
      if (r.kernels[k].name != first.kernels[k].name)
        return differs(i, "kernels[" + std::to_string(k) + "].name", "'" + first.kernels[k].name + "'",
                       "'" + r.kernels[k].name + "'");
  }
  MeasuredRun m = first;
  std::vector<double> totals;
  m.repeats = m.warmup = m.runsTimed = 0;
  m.runsStolen = 0;
  m.leastStolen = false;
  std::vector<double> shares;
  for (const auto& r : runs) {
    totals.push_back(r.totalUs);
    m.repeats += r.repeats;
    m.warmup += r.warmup;
    m.runsTimed += r.runsTimed;
    if (r.runsStolen < 0 || m.runsStolen < 0)
      m.runsStolen = -1;
    else
      m.runsStolen += r.runsStolen;
    m.leastStolen = m.leastStolen || r.leastStolen;
    shares.push_back(r.stealShare);
  }
  std::vector<double> calls, streams, products;
  m.probeDrift = 0;
  for (const auto& r : runs) {
    if (!r.probe.valid()) continue;
    calls.push_back(r.probe.callUs);
    streams.push_back(r.probe.streamUs);
    products.push_back(r.probe.productUs);
    if (r.probeDrift > 0 &&
        (m.probeDrift == 0 || std::abs(std::log(r.probeDrift)) > std::abs(std::log(m.probeDrift))))
      m.probeDrift = r.probeDrift;
  }
  m.probe = calls.empty() ? SpeedProbe{} : SpeedProbe{median(calls), median(streams), median(products)};
  m.totalUs = median(totals);
  m.stealShare = m.runsStolen >= 0 ? median(shares) : 0;
  if (m.runsStolen < 0) m.runsTimed = 0, m.leastStolen = false;
  for (size_t k = 0; k < m.kernels.size(); ++k) {
    std::vector<double> us;
    double lo = -1;
    for (const auto& r : runs) {
      us.push_back(r.kernels[k].us);
      if (r.kernels[k].minUs >= 0) lo = lo < 0 ? r.kernels[k].minUs : std::min(lo, r.kernels[k].minUs);
    }
    m.kernels[k].us = median(us);
    m.kernels[k].minUs = lo;
    m.kernels[k].startUs = -1;  // the medians come from different runs: the trace lays them end to end
  }
  m.mergedFrom.clear();
  for (size_t i = 0; i < runs.size(); ++i) m.mergedFrom.push_back(fileOf(i));
  std::vector<double> agreements;
  for (size_t i = 0; i < runs.size(); ++i)
    for (size_t j = i + 1; j < runs.size(); ++j) {
      std::vector<double> x, y;
      for (size_t k = 0; k < m.kernels.size(); ++k)
        if (runs[i].kernels[k].us > 0 && runs[j].kernels[k].us > 0) {
          x.push_back(runs[i].kernels[k].us);
          y.push_back(runs[j].kernels[k].us);
        }
      if (x.size() >= 2) agreements.push_back(spearman(x, y));
    }
  if (!agreements.empty()) m.runsSpearman = median(agreements);
  m.source = first.source + "; the median of " + std::to_string(runs.size()) + " profiles";
  return m;
}

// --- trace and table -------------------------------------------------------------------------------

json toChromeTrace(const MeasuredRun& r) {
  json ev = json::array();
  const std::string who = "measured: " + (r.source.empty() ? r.model : r.source);
  ev.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", who}}}});
  ev.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 1},
                {"args", {{"name", r.threads > 0 ? "executor (" + std::to_string(r.threads) + " threads)" : "executor"}}}});
  double t = 0;
  for (const auto& k : r.kernels) {
    const double start = k.startUs >= 0 ? k.startUs : t;
    json args = {{"ops", joinOps(k.ops, 0)}, {"median_us", k.us}};
    if (k.minUs >= 0) args["min_us"] = k.minUs;
    ev.push_back({{"name", k.name}, {"cat", "measured"}, {"ph", "X"}, {"pid", 1}, {"tid", 1}, {"ts", start},
                  {"dur", k.us}, {"args", std::move(args)}});
    t = start + k.us;
  }
  return {{"traceEvents", std::move(ev)}, {"displayTimeUnit", "ns"}};
}

Status writeChromeTrace(const std::string& path, const MeasuredRun& r) {
  return writeFileAtomic(path, toChromeTrace(r).dump() + "\n");
}

std::string formatMeasuredTable(const MeasuredRun& r, size_t maxRows) {
  std::string s = "measured: " + r.source + " — " + r.model;
  if (r.optLevel >= 0) s += ", -O" + std::to_string(r.optLevel);
  if (!r.mergedFrom.empty())
    s += ", per kernel the median of " + std::to_string(r.mergedFrom.size()) + " profiles' medians (" +
         std::to_string(r.repeats) + " timed runs in all)";
  else if (r.repeats > 0)
    s += ", median of " + std::to_string(r.repeats) + " runs after " + std::to_string(r.warmup) + " warm-up";
  s += "\n";
  if (r.runsStolen > 0)
    s += std::to_string(r.runsStolen) + " of " + std::to_string(r.runsTimed) +
         " timed runs left out: other tenants took more than " + fmt("%.0f %%", 100 * kStealTolerance) +
         " of their time (wall clock beyond the thread's CPU "
         "time; median share " +
         fmt("%.1f %%", 100 * r.stealShare) + ")" +
         (r.leastStolen ? "; too few were whole, the medians are over the least-stolen runs" : "") + "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-32s %-40s %12s %12s\n", "#", "kernel", "ops", "measured us", "min us");
  s += line;
  double sum = 0;
  for (const auto& k : r.kernels) sum += k.us;
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    if (maxRows && i >= maxRows) {
      s += "   ... (" + std::to_string(r.kernels.size() - maxRows) + " more kernels; --json has all)\n";
      break;
    }
    const auto& k = r.kernels[i];
    std::snprintf(line, sizeof line, "%4zu  %-32s %-40s %12.2f %12s\n", i, fit(k.name, 32).c_str(),
                  fit(joinOps(k.ops, 3), 40).c_str(), k.us, k.minUs >= 0 ? fmt("%.2f", k.minUs).c_str() : "-");
    s += line;
  }
  s += "\n";
  s += fmt("kernels %.0f", static_cast<double>(r.kernels.size())) + "\n";
  s += fmt("sum of kernel medians   %10.1f us", sum) + "\n";
  s += fmt("whole run (median)      %10.1f us", r.totalUs);
  if (r.totalUs > 0 && sum <= r.totalUs) s += fmt("   (%.1f %% outside the kernels: interpreter, buffers)", 100 * (r.totalUs - sum) / r.totalUs);
  s += "\n";
  return s;
}

// --- accuracy --------------------------------------------------------------------------------------

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  if (n < 2) return 0;
  const auto rx = ranks(std::vector<double>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n)));
  const auto ry = ranks(std::vector<double>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n)));
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / static_cast<double>(n);
  const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  if (sxx <= 0 || syy <= 0) return 0;
  return sxy / std::sqrt(sxx * syy);
}

const char* measuredOn(const MeasuredRun& r) { return r.byNode ? "board" : "host"; }
std::string measuredLabel(const std::string& on) { return "measured (" + on + ")"; }

Accuracy accuracy(const SimResult& sim, const MeasuredRun& measured) {
  Accuracy a;
  a.on = measuredOn(measured);
  const size_t nk = sim.kernels.size();
  a.measuredUs.assign(nk, -1.0);
  std::vector<char> used(nk, 0);
  std::unordered_map<std::string, size_t> byName;
  for (size_t i = 0; i < nk; ++i) byName.emplace(sim.kernels[i].name, i);

  struct Pair {
    size_t firstKernel;  // schedule position, for the order of `rows`
    std::string name;
    double sim = 0, meas = 0;
    bool view = true;    // every simulated kernel of the pair is a view (no device kernel)
    bool controlFlow = false;  // a control-flow node measured as one, its body kernels summed
  };
  std::vector<Pair> pairs;
  auto addKernel = [&](Pair& p, size_t i) {
    used[i] = 1;
    p.sim += sim.kernels[i].durUs;
    p.view = p.view && sim.kernels[i].unit == Unit::None;
    p.firstKernel = std::min(p.firstKernel, i);
  };

  if (measured.byNode) {
    std::unordered_map<std::string, size_t> byOrigin;
    for (size_t i = 0; i < nk; ++i)
      for (const auto& o : sim.kernels[i].origins) byOrigin.emplace(o, i);
    std::vector<double> perKernel(nk, 0.0);
    std::vector<char> hit(nk, 0);
    for (const auto& m : measured.kernels) {
      auto it = byOrigin.find(m.name);
      if (it == byOrigin.end()) {
        const auto slash = m.name.rfind('/');
        if (slash != std::string::npos) it = byOrigin.find(m.name.substr(slash + 1));
      }
      if (it == byOrigin.end()) {
        a.unmatchedMeasured.push_back(m.name);
        continue;
      }
      perKernel[it->second] += m.us;
      hit[it->second] = 1;
    }
    for (size_t i = 0; i < nk; ++i) {
      if (!hit[i]) continue;
      Pair p{i, sim.kernels[i].name};
      addKernel(p, i);
      p.meas = perKernel[i];
      a.measuredUs[i] = p.meas;
      pairs.push_back(std::move(p));
    }
  } else {
    for (const auto& m : measured.kernels) {
      Pair p{nk, m.name};
      p.meas = m.us;
      if (const auto it = byName.find(m.name); it != byName.end()) {
        const auto& sk = sim.kernels[it->second];
        if (!m.nodes.empty() && !sk.nodes.empty() && m.nodes != sk.nodes) {
          auto join = [](const std::vector<std::string>& v) {
            std::string s;
            for (const auto& x : v) s += (s.empty() ? "" : "+") + x;
            return s;
          };
          a.otherPlan.push_back(m.name + ": measured " + join(m.ops) + " (" + m.nodes.front() +
                                (m.nodes.size() > 1 ? ", ..." : "") + "), simulated " + join(sk.ops) + " (" +
                                sk.nodes.front() + (sk.nodes.size() > 1 ? ", ..." : "") + ")");
          continue;
        }
        addKernel(p, it->second);
        a.measuredUs[it->second] = m.us;
      } else {
        // A control-flow node measured as one: the simulator times its body kernels "<node>/<attr>/...".
        const std::string prefix = m.name + "/";
        p.controlFlow = true;
        for (size_t i = 0; i < nk; ++i)
          if (sim.kernels[i].name.compare(0, prefix.size(), prefix) == 0) addKernel(p, i);
        if (p.firstKernel == nk) {
          a.unmatchedMeasured.push_back(m.name);
          continue;
        }
      }
      pairs.push_back(std::move(p));
    }
    std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.firstKernel < y.firstKernel; });
  }
  for (size_t i = 0; i < nk; ++i)
    if (!used[i]) a.unmatchedSimulated.push_back(sim.kernels[i].name);

  std::vector<double> errs, xs, ys;
  std::map<std::string, std::vector<const Pair*>> groups;
  for (const auto& p : pairs) {
    Accuracy::Row row{p.name, p.sim, p.meas, 0, false};
    if (!p.view && p.meas > 0) {
      row.scored = true;
      row.relErr = (p.sim - p.meas) / p.meas;
      errs.push_back(std::fabs(row.relErr));
      xs.push_back(p.sim);
      ys.push_back(p.meas);
      std::string ops = p.controlFlow ? "control flow" : "";
      if (!p.controlFlow)
        for (const auto& o : sim.kernels[p.firstKernel].ops) ops += (ops.empty() ? "" : "+") + o;
      groups[ops.empty() ? sim.kernels[p.firstKernel].name : ops].push_back(&p);
    } else {
      ++a.excluded;
    }
    a.rows.push_back(std::move(row));
  }
  a.matched = pairs.size();
  a.scored = errs.size();
  if (!errs.empty()) {
    a.medianAbsErr = median(errs);
    a.meanAbsErr = std::accumulate(errs.begin(), errs.end(), 0.0) / static_cast<double>(errs.size());
  }
  a.spearman = spearman(xs, ys);
  auto spread = [](const std::vector<double>& v) {
    return !v.empty() && *std::max_element(v.begin(), v.end()) > *std::min_element(v.begin(), v.end());
  };
  a.ranked = xs.size() >= 2 && spread(xs) && spread(ys);
  if (!a.ranked)
    a.unranked = xs.size() < 2 ? std::to_string(xs.size()) + " kernel scored: nothing to rank"
                 : !spread(ys) ? "the measured times are all equal"
                               : "the simulated times are all equal";
  a.runsSpearman = measured.runsSpearman;
  a.simulatedTotalUs = sim.latencyUs;
  a.measuredTotalUs = measured.totalUs;
  if (a.measuredTotalUs <= 0)
    for (const auto& k : measured.kernels) a.measuredTotalUs += k.us;
  if (a.measuredTotalUs > 0) a.totalErr = (a.simulatedTotalUs - a.measuredTotalUs) / a.measuredTotalUs;
  for (const auto& [ops, members] : groups) {
    Accuracy::OpsGroup gr{ops, members.size()};
    std::vector<double> ratios;
    for (const Pair* p : members) {
      gr.simulatedUs += p->sim;
      gr.measuredUs += p->meas;
      ratios.push_back(p->sim / p->meas);
    }
    gr.medianRatio = median(ratios);
    if (a.measuredTotalUs > 0) gr.shareOfTotal = (gr.simulatedUs - gr.measuredUs) / a.measuredTotalUs;
    a.byOps.push_back(std::move(gr));
  }
  std::stable_sort(a.byOps.begin(), a.byOps.end(),
                   [](const Accuracy::OpsGroup& x, const Accuracy::OpsGroup& y) {
                     return std::fabs(x.simulatedUs - x.measuredUs) > std::fabs(y.simulatedUs - y.measuredUs);
                   });
  return a;
}

Accuracy accuracy(const SimResult& sim, const MeasuredRun& measured, const HwProfile& hw) {
  Accuracy a = accuracy(sim, measured);
  a.machineTimeRatio = probeTimeRatio(hw.cpu.probe, measured.probe);
  return a;
}

json toJson(const Accuracy& a) {
  json ks = json::array();
  for (const auto& r : a.rows)
    ks.push_back({{"name", r.name}, {"simulated_us", r.simulatedUs}, {"measured_us", r.measuredUs},
                  {"rel_err", r.relErr}, {"scored", r.scored}});
  json out = {{"measured_on", a.on},
              {"matched", a.matched},
              {"scored", a.scored},
              {"excluded", a.excluded},
              {"median_abs_err", a.medianAbsErr},
              {"mean_abs_err", a.meanAbsErr},
              {"total_err", a.totalErr},
              {"spearman", a.ranked ? json(a.spearman) : json(nullptr)},
              {"simulated_total_us", a.simulatedTotalUs},
              {"measured_total_us", a.measuredTotalUs},
              {"unmatched_measured", a.unmatchedMeasured},
              {"unmatched_simulated", a.unmatchedSimulated},
              {"other_plan", a.otherPlan},
              {"kernels", std::move(ks)}};
  json groups = json::array();
  for (const auto& gr : a.byOps)
    groups.push_back({{"ops", gr.ops},
                      {"kernels", gr.kernels},
                      {"simulated_us", gr.simulatedUs},
                      {"measured_us", gr.measuredUs},
                      {"share_of_total", gr.shareOfTotal},
                      {"median_ratio", gr.medianRatio}});
  out["by_ops"] = std::move(groups);
  if (!a.ranked) out["spearman_na"] = a.unranked;
  out["machine_time_ratio"] = a.machineTimeRatio > 0 ? json(a.machineTimeRatio) : json(nullptr);
  out["spearman_between_runs"] = std::isnan(a.runsSpearman) ? json(nullptr) : json(a.runsSpearman);
  return out;
}

std::string shortOps(const std::string& ops) {
  const size_t n = static_cast<size_t>(std::count(ops.begin(), ops.end(), '+')) + 1;
  if (n <= 6) return ops;
  size_t at = 0;
  for (int k = 0; k < 5; ++k) at = ops.find('+', at) + 1;
  return ops.substr(0, at) + "... (" + std::to_string(n) + " ops)";
}

std::string formatAccuracy(const Accuracy& a, const MeasuredRun& m) {
  std::string s;
  s += "accuracy against " + (m.source.empty() ? std::string("the measured run") : m.source) + " (" +
       measuredLabel(a.on) + "):\n";
  s += "  matched kernels        " + std::to_string(a.matched) + " (" + std::to_string(a.scored) + " scored, " +
       std::to_string(a.excluded) + " views or 0 us left out)\n";
  s += "  per-kernel |error|     median " + fmt("%.1f %%", 100 * a.medianAbsErr) + ", mean " + fmt("%.1f %%", 100 * a.meanAbsErr) + "\n";
  s += "  whole model            simulated " + fmt("%.1f us", a.simulatedTotalUs) + " vs measured " +
       fmt("%.1f us", a.measuredTotalUs) + ": " + fmt("%+.1f %%", 100 * a.totalErr) + "\n";
  s += "  rank correlation       Spearman " +
       (a.ranked ? fmt("%.3f", a.spearman) : "n/a (" + a.unranked + ")") +
       (std::isnan(a.runsSpearman) ? std::string()
                                   : "; the measured runs rank the kernels alike to " +
                                         fmt("%.3f", a.runsSpearman) + " (no ranking is finer than that)") +
       "\n";
  if (a.machineTimeRatio > 0)
    s += "  machine state          the speed probe took " + probeRatioText(a.machineTimeRatio) +
         " at the measured run against the calibration" +
         (probeRatioOff(a.machineTimeRatio)
              ? ": more than " + fmt("%.0f %%", 100 * kProbeTolerance) +
                    " either way, the errors mix two machine states (calibrate and profile again together)"
              : "") +
         "\n";
  // The groups that move the whole-model error most (Accuracy::byOps), at most 5.
  for (size_t i = 0; i < a.byOps.size() && i < 5; ++i) {
    const auto& gr = a.byOps[i];
    s += std::string(i == 0 ? "  error by ops           " : "                         ") + shortOps(gr.ops) +
         ": " + std::to_string(gr.kernels) + (gr.kernels == 1 ? " kernel, " : " kernels, ") + "simulated " +
         fmt("%.1f us", gr.simulatedUs) + " vs measured " + fmt("%.1f us", gr.measuredUs) + " (median " +
         fmt("%.2f", gr.medianRatio) + " of measured), " + fmt("%+.1f %%", 100 * gr.shareOfTotal) +
         " of the whole model\n";
  }
  auto list = [&](const char* what, const std::vector<std::string>& v) {
    if (v.empty()) return;
    std::string names;
    for (size_t i = 0; i < v.size() && i < 5; ++i) names += (i ? ", " : "") + v[i];
    if (v.size() > 5) names += ", ... (" + std::to_string(v.size() - 5) + " more)";
    s += "  " + std::string(what) + " " + std::to_string(v.size()) + ": " + names + "\n";
  };
  list("unmatched measured   ", a.unmatchedMeasured);
  list("unmatched simulated  ", a.unmatchedSimulated);
  list("ran other nodes      ", a.otherPlan);
  if (!a.otherPlan.empty())
    s += "  (the measured run followed another fusion plan: profile with the same --hw, level and rule "
         "switches)\n";
  return s;
}

}  // namespace fw::sim
