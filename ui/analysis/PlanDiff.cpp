#include "ui/analysis/PlanDiff.h"

#include "ui/analysis/Text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace fw {

std::string joinStrings(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// Groups of kernels that changed: each is a connected set of start kernels and tuned kernels that
// share original nodes, with their simulated times.
std::vector<std::string> kernelChanges(const fusion::FusionResult& fa, const sim::SimResult& sa,
                                       const fusion::FusionResult& fb, const sim::SimResult& sb) {
  auto timeOf = [](const sim::SimResult& s) {
    std::map<std::string, double> t;
    for (const auto& k : s.kernels)
      if (k.scope.empty()) t[k.name] += k.durUs;
    return t;
  };
  const auto ta = timeOf(sa), tb = timeOf(sb);
  std::map<std::string, int> ka, kb;  // origin -> kernel index
  for (size_t i = 0; i < fa.kernels.size(); ++i)
    for (const auto& o : fa.kernels[i].origins) ka[o] = static_cast<int>(i);
  for (size_t i = 0; i < fb.kernels.size(); ++i)
    for (const auto& o : fb.kernels[i].origins) kb[o] = static_cast<int>(i);
  auto originsKey = [](const fusion::Kernel& k) {
    auto v = k.origins;
    std::sort(v.begin(), v.end());
    return joinStrings(v, "\x1f");
  };
  std::set<std::string> sameA;
  for (const auto& k : fa.kernels) sameA.insert(originsKey(k));
  std::vector<char> seenA(fa.kernels.size(), 0), seenB(fb.kernels.size(), 0);
  std::vector<std::string> out;
  for (size_t i = 0; i < fb.kernels.size(); ++i) {
    if (seenB[i] || sameA.count(originsKey(fb.kernels[i]))) continue;
    // grow the component
    std::set<int> ca, cb{static_cast<int>(i)};
    std::vector<std::pair<char, int>> stack{{'b', static_cast<int>(i)}};
    seenB[i] = 1;
    while (!stack.empty()) {
      auto [side, idx] = stack.back();
      stack.pop_back();
      const auto& k = side == 'b' ? fb.kernels[static_cast<size_t>(idx)] : fa.kernels[static_cast<size_t>(idx)];
      for (const auto& o : k.origins) {
        auto& other = side == 'b' ? ka : kb;
        auto it = other.find(o);
        if (it == other.end()) continue;
        auto& seen = side == 'b' ? seenA : seenB;
        if (seen[static_cast<size_t>(it->second)]) continue;
        seen[static_cast<size_t>(it->second)] = 1;
        (side == 'b' ? ca : cb).insert(it->second);
        stack.push_back({side == 'b' ? 'a' : 'b', it->second});
      }
    }
    double usA = 0, usB = 0;
    std::vector<std::string> na, nb;
    for (int x : ca) {
      const auto& k = fa.kernels[static_cast<size_t>(x)];
      na.push_back(k.name);
      auto it = ta.find(k.name);
      usA += it == ta.end() ? 0 : it->second;
    }
    for (int x : cb) {
      const auto& k = fb.kernels[static_cast<size_t>(x)];
      nb.push_back(k.name);
      auto it = tb.find(k.name);
      usB += it == tb.end() ? 0 : it->second;
    }
    out.push_back(joinStrings(na, " + ") + " (" + fixedText(usA, 2) + " us) -> " + joinStrings(nb, " + ") + " (" + fixedText(usB, 2) + " us)");
  }
  return out;
}


std::vector<DecisionDiff> decisionDiffs(const std::vector<const fusion::FusionResult*>& plans) {
  // (rule, node) -> per plan: applied?, text
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<int, std::string>>> seen;
  for (size_t i = 0; i < plans.size(); ++i)
    for (const auto& d : plans[i]->decisions) {
      auto& v = seen[{d.rule, d.node}];
      v.resize(plans.size(), {-1, "-"});
      // a rule may look at a node more than once; an application wins
      if (v[i].first != 1) v[i] = {d.applied ? 1 : 0, d.applied ? (d.reason.empty() ? "applied" : d.reason) : d.reason};
    }
  std::vector<DecisionDiff> out;
  for (auto& [key, v] : seen) {
    v.resize(plans.size(), {-1, "-"});
    bool differs = false;
    for (const auto& x : v) differs = differs || (x.first == 1) != (v[0].first == 1);
    if (!differs) continue;
    DecisionDiff d{key.first, key.second, {}};
    for (const auto& x : v) d.outcome.push_back(x.second);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace fw
