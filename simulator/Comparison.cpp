#include "simulator/Comparison.h"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace fw::sim {

std::vector<ComparisonRow> compareRuns(const SimResult& before, const SimResult& after) {
  // A before-kernel standing for several originals (rare: a pre-fused input) is split evenly.
  struct Share {
    double us = 0, bytes = 0;
    size_t kernel = 0;
  };
  std::unordered_map<std::string, Share> share;
  for (size_t i = 0; i < before.kernels.size(); ++i) {
    const auto& k = before.kernels[i];
    const std::vector<std::string>& names = k.origins.empty() ? k.nodes : k.origins;
    if (names.empty()) continue;
    const double n = static_cast<double>(names.size());
    for (const auto& o : names) share[o] = {k.durUs / n, k.hbmBytes / n, i};
  }
  std::vector<ComparisonRow> rows;
  rows.reserve(after.kernels.size());
  for (size_t i = 0; i < after.kernels.size(); ++i) {
    const auto& k = after.kernels[i];
    ComparisonRow r;
    r.afterIndex = i;
    r.kernel = k.name;
    r.ops = k.ops;
    r.origins = k.origins.empty() ? k.nodes : k.origins;
    r.unit = k.unit;
    r.bound = k.bound;
    r.afterUs = k.durUs;
    r.afterHbmBytes = k.hbmBytes;
    std::unordered_set<size_t> seen;
    for (const auto& o : r.origins) {
      auto it = share.find(o);
      if (it == share.end()) continue;
      r.beforeUs += it->second.us;
      r.beforeHbmBytes += it->second.bytes;
      seen.insert(it->second.kernel);
    }
    r.beforeKernels = static_cast<int>(seen.size());
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace fw::sim

namespace fw::sim {

namespace {
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string joined(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}
}  // namespace

std::string comparisonCsv(const std::vector<ComparisonRow>& rows) {
  std::string out = "kernel,ops,origins,unit,bound,before_us,after_us,speedup,hbm_before_bytes,hbm_after_bytes\n";
  char num[256];
  for (const auto& r : rows) {
    out += csvField(r.kernel) + "," + csvField(joined(r.ops, "+")) + "," + csvField(joined(r.origins, " ")) + "," +
           unitName(r.unit) + "," + boundName(r.bound);
    std::snprintf(num, sizeof num, ",%.6f,%.6f,%.6f,%.0f,%.0f\n", r.beforeUs, r.afterUs,
                  r.afterUs > 0 ? r.beforeUs / r.afterUs : 0.0, r.beforeHbmBytes, r.afterHbmBytes);
    out += num;
  }
  return out;
}

}  // namespace fw::sim
