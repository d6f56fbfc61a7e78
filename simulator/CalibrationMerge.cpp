#include "simulator/CalibrationMerge.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "simulator/HostBench.h"
#include "simulator/HostCalibration.h"

namespace fw::sim {

namespace {

using nlohmann::json;

// A curve of fwb calibrate's: a list of points each with its size in "bytes" (bandwidth_curve,
// stream_curve, weight_stream_curve, far_curve, cold_call_curve).
bool isCurve(const json& v) {
  if (!v.is_array() || v.empty()) return false;
  for (const json& e : v)
    if (!e.is_object() || !e.contains("bytes") || !e["bytes"].is_number()) return false;
  return true;
}

struct Merger {
  size_t files = 0;
  std::vector<std::string> spread;  // what was merged by size
  std::string error;                // the first place that cannot be merged

  // The lower median of the values at one place of the files' trees (structure from the first).
  json medianOf(const std::vector<const json*>& vs, const std::string& path) {
    const json& first = *vs.front();
    if (first.is_number()) {
      std::vector<const json*> nums;
      for (const json* v : vs)
        if (v->is_number()) nums.push_back(v);
      std::sort(nums.begin(), nums.end(),
                [](const json* a, const json* b) { return a->get<double>() < b->get<double>(); });
      return *nums[(nums.size() - 1) / 2];
    }
    if (first.is_object()) {
      // Every key any calibration has: a later fwb calibrate writes figures an earlier one did not (as
      // cpu.far_curve_vector), and a merge whose first file is the older one keeps them.
      std::vector<std::string> keys;
      for (const json* v : vs)
        if (v->is_object())
          for (auto it = v->begin(); it != v->end(); ++it)
            if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
      json out = json::object();
      for (const std::string& key : keys) {
        const std::string at = path.empty() ? key : path + "." + key;
        std::vector<const json*> children;
        for (const json* v : vs)
          if (v->is_object() && v->contains(key)) children.push_back(&(*v)[key]);
        if (children.size() < vs.size() && path.rfind("notes", 0) != 0)
          spread.push_back(at + ": in " + std::to_string(children.size()) + " of " +
                           std::to_string(vs.size()) +
                           " calibrations (written by a later fwb calibrate), the median of those");
        out[key] = medianOf(children, at);
      }
      return out;
    }
    if (first.is_array()) {
      bool allCurves = true, sameSizes = true;
      for (const json* v : vs) {
        allCurves = allCurves && isCurve(*v);
        if (!v->is_array() || v->size() != first.size())
          sameSizes = false;
        else if (allCurves)
          for (size_t i = 0; i < first.size(); ++i)
            if ((*v)[i]["bytes"] != first[i]["bytes"]) sameSizes = false;
      }
      if (allCurves && !sameSizes) return bySize(vs, path);
      if (!sameSizes) {
        // The notes are the first file's; the drops are found again on the merged copy curve.
        if (error.empty() && path != "notes" && path != "cpu.cache_drops_bytes")
          error = path + ": lists of different lengths in the calibrations (" + lengths(vs) +
                  "), which no median can merge";
        return first;
      }
      json out = json::array();
      for (size_t i = 0; i < first.size(); ++i) {
        std::vector<const json*> elems;
        for (const json* v : vs) elems.push_back(&(*v)[i]);
        out.push_back(medianOf(elems, path + "[" + std::to_string(i) + "]"));
      }
      return out;
    }
    return first;
  }

  static std::string lengths(const std::vector<const json*>& vs) {
    std::string s;
    for (const json* v : vs) s += (s.empty() ? "" : " / ") + std::to_string(v->is_array() ? v->size() : 0);
    return s;
  }

  // A curve whose sizes differ between the calibrations (one measured a size another could not, as
  // weight_stream_curve's 256 MiB on a machine with 2 GiB free of 16): each size any calibration measured,
  // by ascending size, its figures the median over the calibrations that measured it.
  json bySize(const std::vector<const json*>& vs, const std::string& path) {
    std::map<double, std::vector<const json*>> points;
    for (const json* v : vs)
      for (const json& e : *v) points[e["bytes"].get<double>()].push_back(&e);
    json out = json::array();
    std::string partial;
    for (const auto& [bytes, at] : points) {
      out.push_back(medianOf(at, path + "[bytes " + hostbench::fmt("%.0f", bytes) + "]"));
      if (at.size() < files)
        partial += (partial.empty() ? "" : ", ") + hostbench::fmt("%.0f", bytes) + " bytes in " +
                   std::to_string(at.size());
    }
    spread.push_back(path + ": sizes differ between the calibrations (" + lengths(vs) +
                     " points), merged size by size" +
                     (partial.empty() ? std::string() : "; measured by fewer: " + partial) + " of " +
                     std::to_string(files));
    return out;
  }
};

// "Intel(R) Xeon(R) Processor, 1 thread" of fwb calibrate's description, or "" when it did not write it.
std::string machineOf(const std::string& description) {
  const std::string head = "This machine as the reference executor sees it (",
                    tail = "), measured by fwb calibrate on ";
  const size_t b = description.find(head), e = description.find(tail);
  if (b != 0 || e == std::string::npos) return "";
  return description.substr(head.size(), e - head.size());
}

std::string sci(double v) { return hostbench::fmt("%.3g", v); }

}  // namespace

Result<MergedCalibration> mergeCalibrations(const std::vector<CalibrationFile>& files) {
  if (files.size() < 2)
    return Error::badInput("calibrate --merge: give at least two profiles (" + std::to_string(files.size()) +
                           " given)");
  std::vector<HwProfile> parsed;
  std::string machine;
  for (const auto& f : files) {
    FW_ASSIGN_OR_RETURN(HwProfile p, parseHwProfile(*f.json, f.name));
    if (p.kind != DeviceKind::Cpu)
      return Error::badInput(f.name + ": kind: '" + deviceKindName(p.kind) +
                             "': only cpu profiles that fwb calibrate measured can be merged");
    const std::string m = machineOf(p.description);
    if (m.empty())
      return Error::badInput(f.name + ": description: not a profile fwb calibrate measured ('" +
                             p.description + "')");
    if (machine.empty()) machine = m;
    if (m != machine)
      return Error::badInput(f.name + ": description: another machine ('" + m + "') than " +
                             files.front().name + "'s ('" + machine + "')");
    if (p.cpu.cubeModels.empty())
      return Error::badInput(
          f.name + ": cpu.cube_time_models: missing (fwb calibrate writes one per kind of matrix op)");
    for (const auto& [kind, model] : p.cpu.cubeModels)
      if (model.measuredUs.empty())
        return Error::badInput(
            f.name + ": cpu.cube_time_models." + kind +
            ".measured_us: missing (written by an fwb calibrate before it kept its shapes' times: "
            "calibrate again)");
    parsed.push_back(std::move(p));
  }

  std::vector<const json*> trees;
  for (const auto& f : files) trees.push_back(f.json);
  Merger merger;
  merger.files = files.size();
  json merged = merger.medianOf(trees, "");
  // The cache's drops are where the merged copy curve drops, when the calibrations found different
  // numbers of them.
  bool dropsDiffer = false;
  for (const auto& q : parsed)
    dropsDiffer = dropsDiffer || q.cpu.cacheDropsBytes.size() != parsed.front().cpu.cacheDropsBytes.size();
  if (dropsDiffer) {
    std::string counts;
    for (const auto& q : parsed)
      counts += (counts.empty() ? "" : " / ") + std::to_string(q.cpu.cacheDropsBytes.size());
    const json* curve = merged.contains("cpu") && merged["cpu"].contains("bandwidth_curve")
                            ? &merged["cpu"]["bandwidth_curve"]
                            : nullptr;
    if (!curve)
      return Error::badInput(
          "cpu.cache_drops_bytes: the calibrations found different numbers of cache drops (" + counts +
          ") and have no bandwidth_curve to find them again in");
    std::vector<std::pair<size_t, double>> copy;
    for (const json& pt : *curve)
      copy.push_back({static_cast<size_t>(pt["bytes"].get<double>() / 2), pt["bytes_per_s"].get<double>()});
    merged["cpu"]["cache_drops_bytes"] = cacheDrops(copy);
    merger.spread.push_back(
        "cpu.cache_drops_bytes: the calibrations found " + counts +
        " drops; found again on the merged bandwidth_curve: " + merged["cpu"]["cache_drops_bytes"].dump());
  }
  if (!merger.error.empty()) return Error::badInput(merger.error);
  // The first file's notes, and a later file's for each field the first has none of.
  merged["notes"] = json::array();
  for (const auto& f : files)
    if (f.json->contains("notes") && (*f.json)["notes"].is_array())
      for (const json& n : (*f.json)["notes"]) {
        const bool known = std::any_of(merged["notes"].begin(), merged["notes"].end(), [&](const json& m) {
          return m.value("field", std::string()) == n.value("field", std::string());
        });
        if (!known) merged["notes"].push_back(n);
      }
  FW_ASSIGN_OR_RETURN(HwProfile p, parseHwProfile(merged, "the merged profile"));

  std::string names;
  for (const auto& f : files) names += (names.empty() ? "" : ", ") + f.name;
  const std::string count = std::to_string(files.size());
  p.description = "This machine as the reference executor sees it (" + machine + "), the median of " + count +
                  " calibrations measured by fwb calibrate on it (" + names + ")";

  MergedCalibration out;
  out.spread = merger.spread;
  std::map<std::string, std::string> kindNotes;
  // In the map's order, gemm before rnn: the rnn kind's refit prices its cells' input projections on the
  // gemm model refitted just before (refitCubeModel).
  for (auto& [kind, model] : p.cpu.cubeModels) {
    std::map<std::string, double> us(model.measuredUs.begin(), model.measuredUs.end());
    auto fit = refitCubeModel(kind, us, p.launchUs, p.cpu.pointwisePositionBlock, p.cpu.convChannelBlock,
                              p.cpu, p.cpu.cubeModels);
    if (!fit.ok()) return Error::badInput("cpu.cube_time_models." + kind + ": " + fit.error().message);
    model = fit->model;
    // Per calibration, the median over the shapes of its time against the shapes' median time: how fast
    // the machine ran this kind then.
    std::string line = kind + ": shapes' times against their median";
    for (const auto& q : parsed) {
      const auto it = q.cpu.cubeModels.find(kind);
      std::vector<double> ratios;
      if (it != q.cpu.cubeModels.end())
        for (const auto& [shape, t] : it->second.measuredUs)
          if (const auto m = us.find(shape); m != us.end() && m->second > 0) ratios.push_back(t / m->second);
      std::sort(ratios.begin(), ratios.end());
      line += (&q == &parsed.front() ? " x" : " / x") +
              (ratios.empty() ? std::string("-") : sci(ratios[ratios.size() / 2]));
    }
    line += "; fitted again: " + std::to_string(model.cases) + " shapes, RMS ln(model/measured) " +
            sci(model.rmsLogError) + ", s per GFLOP " + sci(model.coef[0] * 1e9);
    out.spread.push_back(line);
    kindNotes["cpu.cube_time_models." + kind] =
        "fitted (non-negative least squares on relative error, as fwb calibrate fits it) to the median "
        "over " +
        count + " calibrations (" + names + ") of each of its " + std::to_string(model.cases) +
        " shapes' measured time, RMS ln(model/measured) " + sci(model.rmsLogError) +
        "; us per shape without the per-kernel overhead, median (model): " + fit->cases;
  }
  // The product stream's shares again on the merged GEMM model and stream, from each rows' median time.
  for (const bool far : {false, true}) {
    CpuFigures::ProductStreamSet& set = far ? p.cpu.productStreamFar : p.cpu.productStream;
    if (set.empty()) continue;
    const char* field = far ? "cpu.product_stream_share_far" : "cpu.product_stream_share";
    std::string how;
    const size_t timed = set.us.size();
    set = productStreamShares(p, set.us, far, how);
    if (set.share.size() != timed)
      return Error::badInput(std::string(field) +
                             ": the merged GEMM model or weight stream cannot price the "
                             "timed products again (" +
                             how + ")");
    kindNotes[field] =
        "worked out again, as fwb calibrate does, on the merged "
        "cpu.cube_time_models.gemm and cpu.weight_stream_curve from the "
        "median over " +
        count + " calibrations (" + names + ") of each rows' measured time: " + how;
  }
  for (auto& n : p.notes) {
    const auto it = kindNotes.find(n.field);
    n.source = it != kindNotes.end()
                   ? it->second
                   : "the median over " + count + " calibrations (" + names +
                         ") of each figure (of an even count the lower middle one); the first one's note: " +
                         n.source;
  }
  for (const auto& kv : kindNotes)  // (a lambda cannot capture a structured binding in C++17)
    if (std::none_of(p.notes.begin(), p.notes.end(), [&](const HwNote& n) { return n.field == kv.first; }))
      p.notes.push_back(HwNote{kv.first, kv.second, false});
  out.profile = std::move(p);
  return out;
}

}  // namespace fw::sim
