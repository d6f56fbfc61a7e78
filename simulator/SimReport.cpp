#include "simulator/TextFormat.h"
#include "simulator/SimReport.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/util/FileUtil.h"

namespace fw::sim {
namespace {

using nlohmann::json;

std::string joinOps(const KernelTiming& k, size_t maxOps = 0) {
  std::string s;
  for (size_t i = 0; i < k.ops.size(); ++i) {
    if (maxOps && i == maxOps) return s + "+...(" + std::to_string(k.ops.size() - maxOps) + " more)";
    s += (i ? "+" : "") + k.ops[i];
  }
  return s;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

using text::fmt;
using text::fit;

std::string human(double bytes) {
  if (bytes >= 1e9) return fmt("%.2f GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt("%.2f MB", bytes / 1e6);
  if (bytes >= 1e3) return fmt("%.1f KB", bytes / 1e3);
  return fmt("%.0f B", bytes);
}

int laneOf(Unit u) {
  switch (u) {
    case Unit::Cube: return 1;
    case Unit::Vector: return 2;
    case Unit::CubeVector: return 3;
    case Unit::None: return 4;
  }
  return 4;
}

}  // namespace

json toJson(const SimResult& r) {
  json j;
  j["hw"] = {{"name", r.hwName}, {"peak_flops", r.peakFlops}, {"hbm_bandwidth", r.hbmBandwidth}};
  j["simulated"] = true;  // never a measurement
  j["mode"] = simModeName(r.mode);
  j["batch"] = r.batch;
  j["latency_us"] = r.latencyUs;
  j["latency_cycles"] = r.latencyCycles;
  j["throughput"] = r.throughput;
  j["flops"] = r.flops;
  j["hbm_bytes"] = r.hbmBytes;
  j["weight_bytes"] = r.weightBytes;
  j["peak_activation_bytes"] = r.peakActivationBytes;
  j["peak_memory_bytes"] = r.peakMemoryBytes;
  j["launch_share"] = r.launchShare;
  if (r.runOverheadUs > 0) j["run_overhead_us"] = r.runOverheadUs;
  j["warnings"] = r.warnings;
  j["control_flow"] = r.controlFlowNotes;
  json ks = json::array();
  for (const auto& k : r.kernels) {
    ks.push_back({{"name", k.name},
                  {"ops", k.ops},
                  {"nodes", k.nodes},
                  {"origins", k.origins},
                  {"unit", unitName(k.unit)},
                  {"start_us", k.startUs},
                  {"dur_us", k.durUs},
                  {"cycles", k.cycles},
                  {"flops", k.flops},
                  {"hbm_bytes", k.hbmBytes},
                  {"input_bytes", k.inputBytes},
                  {"weight_bytes", k.weightBytes},
                  {"output_bytes", k.outputBytes},
                  {"spill_bytes", k.spillBytes},
                  {"reread_bytes", k.rereadBytes},
                  {"bound", boundName(k.bound)},
                  {"cube_cycles", k.cubeCycles},
                  {"vector_cycles", k.vectorCycles},
                  {"transfer_cycles", k.transferCycles},
                  {"fill_cycles", k.fillCycles},
                  {"launch_cycles", k.launchCycles},
                  {"tiles_per_core", k.tilesPerCore},
                  {"working_set_bytes", k.workingSetBytes},
                  {"scope", k.scope},
                  {"repeats", k.repeats}});
  }
  j["kernels"] = std::move(ks);
  return j;
}

std::string toCsv(const SimResult& r, const Accuracy* measured) {
  std::string s = std::string("index,name,ops,unit,start_us,dur_us,") + (measured ? "measured_us,measured_on," : "") +
                  "cycles,flops,hbm_bytes,spill_bytes,bound,cube_cycles,"
                  "vector_cycles,transfer_cycles,fill_cycles,launch_cycles,tiles_per_core\n";
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    std::string meas;
    if (measured) {
      const double m = i < measured->measuredUs.size() ? measured->measuredUs[i] : -1;
      meas = (m >= 0 ? fmt("%.4f", m) + "," + measured->on : std::string(",")) + ",";
    }
    s += std::to_string(i) + "," + csvField(k.name) + "," + csvField(joinOps(k)) + "," + unitName(k.unit) +
         "," + fmt("%.4f", k.startUs) + "," + fmt("%.4f", k.durUs) + "," + meas + std::to_string(k.cycles) + "," +
         fmt("%.0f", k.flops) + "," + fmt("%.0f", k.hbmBytes) + "," + fmt("%.0f", k.spillBytes) + "," +
         boundName(k.bound) + "," + std::to_string(k.cubeCycles) + "," + std::to_string(k.vectorCycles) +
         "," + std::to_string(k.transferCycles) + "," + std::to_string(k.fillCycles) + "," +
         std::to_string(k.launchCycles) + "," + std::to_string(k.tilesPerCore) + "\n";
  }
  return s;
}

json toChromeTrace(const SimResult& r) {
  json ev = json::array();
  auto meta = [&](int tid, const std::string& name) {
    ev.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"args", {{"name", name}}}});
    ev.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
  };
  ev.push_back({{"name", "process_name"},
                {"ph", "M"},
                {"pid", 1},
                {"args", {{"name", "simulated " + r.hwName + " (" + simModeName(r.mode) + " mode)"}}}});
  meta(1, "cube");
  meta(2, "vector");
  meta(3, "cube+vector");
  if (r.mode == SimMode::Eager) meta(5, "host dispatch");
  double hostT = 0;
  for (const auto& k : r.kernels) {
    if (r.mode == SimMode::Eager && k.hostDispatchUs > 0) {
      ev.push_back({{"name", "dispatch " + k.name}, {"ph", "X"}, {"pid", 1}, {"tid", 5}, {"ts", hostT}, {"dur", k.hostDispatchUs}});
      hostT += k.hostDispatchUs;
    }
    if (k.unit == Unit::None || k.durUs <= 0) continue;  // views: no kernel on the device
    ev.push_back({{"name", k.name},
                  {"cat", unitName(k.unit)},
                  {"ph", "X"},
                  {"pid", 1},
                  {"tid", laneOf(k.unit)},
                  {"ts", k.startUs},
                  {"dur", k.durUs},
                  {"args",
                   {{"ops", joinOps(k)},
                    {"bound", boundName(k.bound)},
                    {"flops", k.flops},
                    {"hbm_bytes", k.hbmBytes},
                    {"cycles", k.cycles}}}});
  }
  return {{"traceEvents", std::move(ev)}, {"displayTimeUnit", "ns"}};
}

std::string formatComparisonTable(const SimResult& before, const SimResult& after, const HwProfile& hw,
                                  size_t maxRows, const Accuracy* measured, const MeasuredRun* run) {
  // Matched by original node name, so `after` may come from a rewritten graph (BN folded, ...).
  std::unordered_map<std::string, double> beforeUs;
  for (const auto& k : before.kernels)
    for (const auto& o : k.origins) beforeUs[o] += k.durUs / static_cast<double>(k.origins.size());
  std::string s;
  s += "simulated on " + hw.name + " (" + simModeName(after.mode) + " mode, batch " +
       std::to_string(after.batch) + ") — a model, not a measurement\n";
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-28s %-36s %-11s %10s   %10s  %-8s %10s", "#", "kernel",
                "original ops", "unit", "before us", "after us", "bound", "hbm");
  s += line;
  if (measured) {
    std::snprintf(line, sizeof line, "  %19s %8s", (measuredLabel(measured->on) + " us").c_str(), "error");
    s += line;
  }
  s += "\n";
  size_t shown = 0, hiddenViews = 0;
  for (size_t i = 0; i < after.kernels.size(); ++i) {
    const auto& k = after.kernels[i];
    if (k.unit == Unit::None && after.mode == SimMode::Graph) {
      ++hiddenViews;
      continue;
    }
    if (maxRows && shown >= maxRows) continue;
    ++shown;
    double b = 0;
    for (const auto& o : k.origins) {
      auto it = beforeUs.find(o);
      if (it != beforeUs.end()) b += it->second;
    }
    std::snprintf(line, sizeof line, "%4zu  %-28s %-36s %-11s %10.2f → %10.2f  %-8s %10s", i,
                  fit(k.name, 28).c_str(), fit(joinOps(k, 3), 36).c_str(), unitName(k.unit), b, k.durUs,
                  boundName(k.bound), human(k.hbmBytes).c_str());
    s += line;
    if (measured) {
      const double m = i < measured->measuredUs.size() ? measured->measuredUs[i] : -1;
      if (m < 0) std::snprintf(line, sizeof line, "  %19s %8s", "-", "");
      else if (m > 0) std::snprintf(line, sizeof line, "  %19.2f %+7.0f%%", m, 100 * (k.durUs - m) / m);
      else std::snprintf(line, sizeof line, "  %19.2f %8s", m, "");
      s += line;
    }
    s += "\n";
  }
  if (maxRows && shown >= maxRows) s += "   ... (" + std::to_string(after.kernels.size() - hiddenViews - shown) + " more kernels; --json has all)\n";
  if (hiddenViews) s += "   (" + std::to_string(hiddenViews) + " view ops (Reshape, Flatten, ...) run as no kernel)\n";
  auto row = [&](const char* what, const std::string& b, const std::string& a) {
    std::snprintf(line, sizeof line, "%-22s %16s → %-16s\n", what, b.c_str(), a.c_str());
    s += line;
  };
  s += "\n";
  const auto devKernels = [](const SimResult& r) {
    return std::count_if(r.kernels.begin(), r.kernels.end(), [](const KernelTiming& k) { return k.unit != Unit::None; });
  };
  row("kernels", std::to_string(devKernels(before)), std::to_string(devKernels(after)));
  row("latency", fmt("%.1f us", before.latencyUs), fmt("%.1f us", after.latencyUs));
  if (before.runOverheadUs > 0 || after.runOverheadUs > 0)
    row("  of it outside kernels", fmt("%.1f us", before.runOverheadUs), fmt("%.1f us", after.runOverheadUs));
  row("throughput", fmt("%.1f /s", before.throughput), fmt("%.1f /s", after.throughput));
  row("hbm traffic", human(before.hbmBytes), human(after.hbmBytes));
  row("peak device memory", human(before.peakMemoryBytes), human(after.peakMemoryBytes));
  row("launch/dispatch share", fmt("%.1f %%", 100 * before.launchShare), fmt("%.1f %%", 100 * after.launchShare));
  if (after.latencyUs > 0) s += fmt("speed-up %.2fx", before.latencyUs / after.latencyUs) + "\n";
  for (const auto& w : after.warnings) s += "warning: " + w + "\n";
  if (measured) s += "\n" + formatAccuracy(*measured, run ? *run : MeasuredRun{});
  return s;
}

Status writeJson(const std::string& path, const SimResult& r) {
  return writeFileAtomic(path, toJson(r).dump(2) + "\n");
}
Status writeCsv(const std::string& path, const SimResult& r, const Accuracy* measured) {
  return writeFileAtomic(path, toCsv(r, measured));
}
Status writeChromeTrace(const std::string& path, const SimResult& r) {
  return writeFileAtomic(path, toChromeTrace(r).dump() + "\n");
}

}  // namespace fw::sim
