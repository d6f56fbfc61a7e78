#include "fusion/Report.h"

#include <algorithm>
#include <map>

namespace fw::fusion {

nlohmann::json reportJson(const FusionResult& r) {
  nlohmann::json j;
  j["opt_level"] = r.optLevel;
  j["nodes_before"] = r.nodesBefore;
  j["kernels_after"] = r.kernels.size();
  size_t subKernels = 0;
  j["subgraphs"] = nlohmann::json::array();
  for (const auto& s : r.subgraphs) {
    subKernels += s.kernels.size();
    j["subgraphs"].push_back({{"scope", s.scope}, {"nodes_before", s.nodesBefore}, {"kernels_after", s.kernels.size()}});
  }
  j["subgraph_kernels_after"] = subKernels;
  j["applied"] = nlohmann::json::object();
  for (const auto& [k, v] : r.applied) j["applied"][k] = v;
  j["rejected"] = nlohmann::json::array();
  for (const auto& d : r.decisions)
    if (!d.applied) j["rejected"].push_back({{"rule", d.rule}, {"node", d.node}, {"reason", d.reason}});
  j["kernels"] = nlohmann::json::array();
  const Graph& g = *r.rewritten.graph;
  for (const auto& k : r.kernels) {
    nlohmann::json members = nlohmann::json::array();
    for (NodeId m : k.members) members.push_back(g.node(m).name);
    j["kernels"].push_back({{"name", k.name}, {"pattern", k.pattern}, {"unit", k.unit}, {"members", members}, {"origins", k.origins}});
  }
  return j;
}

std::string summaryText(const FusionResult& r, size_t topReasons) {
  std::string s = "fusion -O" + std::to_string(r.optLevel) + ": " + std::to_string(r.nodesBefore) + " nodes -> " +
                  std::to_string(r.kernels.size()) + " kernels";
  if (r.nodesBefore > 0)
    s += " (" + std::to_string(static_cast<int>(100.0 * static_cast<double>(r.kernels.size()) / static_cast<double>(r.nodesBefore) + 0.5)) + "%)";
  s += "\n";
  if (!r.subgraphs.empty()) {
    size_t before = 0, after = 0;
    for (const auto& sg : r.subgraphs) {
      before += sg.nodesBefore;
      after += sg.kernels.size();
    }
    s += "inside " + std::to_string(r.subgraphs.size()) + " If/Loop/Scan bodies: " + std::to_string(before) +
         " nodes -> " + std::to_string(after) + " kernels (fused separately; nothing crosses a body)\n";
  }
  if (!r.applied.empty()) {
    s += "applied:\n";
    for (const auto& [k, v] : r.applied) s += "  " + k + std::string(k.size() < 22 ? 22 - k.size() : 1, ' ') + std::to_string(v) + "\n";
  }
  std::map<std::string, int> reasons;
  for (const auto& d : r.decisions) {
    if (d.applied) continue;
    // Group by rule and the reason's wording without the quoted names.
    std::string key;
    bool quoted = false;
    for (char c : d.reason) {
      if (c == '\'') {
        quoted = !quoted;
        key += quoted ? "'…" : "'";
      } else if (!quoted) {
        key += c;
      }
    }
    ++reasons[d.rule + ": " + key];
  }
  std::vector<std::pair<int, std::string>> top;
  for (const auto& [k, v] : reasons) top.push_back({v, k});
  std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
  if (!top.empty()) {
    s += "top rejections:\n";
    for (size_t i = 0; i < top.size() && i < topReasons; ++i) s += "  " + std::to_string(top[i].first) + "x " + top[i].second + "\n";
  }
  return s;
}

}  // namespace fw::fusion
