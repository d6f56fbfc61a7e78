#include "ui/analysis/AnalysisSettings.h"

#include <algorithm>

#include "fusion/Registry.h"
#include "fusion/Rule.h"

namespace fw {

int ruleLevel(const std::string& id) {
  const fusion::Rule* r = fusion::findRule(id);
  return r ? std::clamp(r->level(), 1, 3) : 0;
}

void AnalysisSettings::setLevel(int level) { optLevel = std::clamp(level, 0, 3); }

void AnalysisSettings::setRule(const std::string& id, bool on) {
  const int level = ruleLevel(id);
  if (level == 0) return;
  rulesOn.erase(id);  // a choice equal to the level's default is no override
  rulesOff.erase(id);
  const bool byLevel = level <= optLevel;
  if (on && !byLevel) rulesOn.insert(id);
  if (!on && byLevel) rulesOff.insert(id);
}

void AnalysisSettings::excludeNode(const std::string& name, bool excluded) {
  if (excluded) excludedNodes.insert(name);
  else excludedNodes.erase(name);
}

void AnalysisSettings::applyTuned(const fusion::FusionOptions& tuned) {
  setLevel(tuned.optLevel);
  rulesOff = tuned.disabled;
  rulesOn.clear();
  for (const auto& id : tuned.enabled)
    if (!rulesOff.count(id)) rulesOn.insert(id);
  excludedNodes = tuned.excludedNodes;
  minSaving = tuned.hw.minTrafficSaving;
  ubFraction = tuned.hw.ubFraction;
}

bool AnalysisSettings::forNewModel() {
  const bool dropped = hasTunedLimits() || !excludedNodes.empty();
  minSaving.reset();
  ubFraction = 1;
  excludedNodes.clear();
  return dropped;
}

bool AnalysisSettings::ruleRuns(const std::string& id) const {
  const int level = ruleLevel(id);
  if (level == 0 || rulesOff.count(id)) return false;
  return rulesOn.count(id) || level <= optLevel;
}

std::set<std::string> AnalysisSettings::enabledRules() const {
  std::set<std::string> out;
  for (const auto& id : rulesOn)
    if (!rulesOff.count(id) && ruleLevel(id) > optLevel) out.insert(id);
  return out;
}

std::set<std::string> AnalysisSettings::disabledRules() const {
  std::set<std::string> out;
  for (const auto& id : rulesOff)
    if (const int level = ruleLevel(id); level != 0 && level <= optLevel) out.insert(id);
  return out;
}

std::string AnalysisSettings::overridesText() const {
  std::string s;
  for (const auto& id : enabledRules()) s += (s.empty() ? "+" : " +") + id;
  for (const auto& id : disabledRules()) s += (s.empty() ? "\u2212" : " \u2212") + id;
  return s;
}

AnalysisOptions AnalysisSettings::request() const {
  AnalysisOptions o;
  o.fusion.optLevel = optLevel;
  o.fusion.enabled = enabledRules();
  o.fusion.disabled = disabledRules();
  o.fusion.excludedNodes = excludedNodes;
  if (minSaving) o.fusion.hw.minTrafficSaving = *minSaving;
  o.fusion.hw.ubFraction = ubFraction;
  o.hw = hw;
  o.batch = batch;
  o.beforeMode = beforeMode;
  return o;
}

}  // namespace fw
