#pragma once
// The options of one analysis as the user chose them: the GUI's one owner of the options (Qt-free).
//
// MainWindow holds one AnalysisSettings. Its widgets only show it (the level, hardware, batch and
// baseline boxes, the Rules dock) and ask for changes; every change is one of the functions below, and
// request() is the one place the value becomes an analysis request (AnalysisOptions, Analysis.h).
//
// Rule overrides are the user's explicit choices and survive level changes: a rule switched on stays
// on, one switched off stays off, whatever the level; a choice equal to the level's default is no
// override. A tuned plan's limits (min saving, UB share) and node exclusions belong to the model they
// were made for: forNewModel() drops them (the level, the rule choices, hardware, batch and mode stay).
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "fusion/FusionTypes.h"
#include "simulator/Simulator.h"
#include "ui/analysis/Analysis.h"

namespace fw {

struct AnalysisSettings {
  int optLevel = 2;                     // 0..3
  std::set<std::string> rulesOn;       // explicit choices: switched on (kept across levels)
  std::set<std::string> rulesOff;      // explicit choices: switched off (wins over rulesOn)
  std::set<std::string> excludedNodes; // original node names never rewritten or fused
  std::optional<double> minSaving;     // a tuned plan's level-2 minimum traffic saving; none = default
  double ubFraction = 1;               // share of the UB one kernel's tile may use (a tuned plan may lower it)
  std::string hw;                      // profile name or JSON path; empty = the default profile
  int64_t batch = 1;                   // samples per run
  sim::SimMode beforeMode = sim::SimMode::Graph;  // how the unfused "before" run executes

  bool operator==(const AnalysisSettings&) const = default;

  // --- changes ---
  void setLevel(int level);                          // clamped to 0..3; the rule choices stay
  void setRule(const std::string& id, bool on);      // records (or drops) an explicit choice; unknown ids are ignored
  void excludeNode(const std::string& name, bool excluded = true);
  // A tuned plan (Tune → Apply): level, rule switches, exclusions, min saving and UB share, replacing
  // the previous ones; hardware, batch and mode stay.
  void applyTuned(const fusion::FusionOptions& tuned);
  // Drops what belongs to the previous model (tuned limits, exclusions); true when something was dropped.
  bool forNewModel();

  // --- what is in effect ---
  bool ruleRuns(const std::string& id) const;        // by its level and the choices (what the Rules dock checks)
  std::set<std::string> enabledRules() const;        // choices that switch a rule on above the level
  std::set<std::string> disabledRules() const;       // choices that switch a rule off at or below it
  std::string overridesText() const;                 // "+stitch_reduce −cse" (U+2212), "" when none
  bool hasTunedLimits() const { return minSaving.has_value() || ubFraction < 1; }

  // The analysis request: fusion options (level, effective rule switches, exclusions, limits),
  // profile, batch and baseline mode. The caches (trace, hierarchy, before) are the caller's.
  AnalysisOptions request() const;
};

// The registered rule's level, clamped to 1..3 as the Rules dock groups it; 0 for an unknown id.
int ruleLevel(const std::string& id);

}  // namespace fw
