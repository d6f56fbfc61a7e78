#pragma once
// The one explicit list of rules and passes (Registry.cpp), and the gating every run uses:
// disabled wins, then enabled, then level <= opt_level (as TVM's PassEnabled).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/Rule.h"

namespace fw::fusion {

struct RuleInfo {
  std::string id;
  int level = 1;
  std::string description;
  std::string phase;  // "rewrite" or "group"
};

// In pipeline order: rewrites first (to a fixpoint), then grouping rules in list order.
const std::vector<std::unique_ptr<Rule>>& registeredRules();
std::vector<RuleInfo> ruleInfos();
const Rule* findRule(std::string_view id);
bool isRuleActive(const Rule& r, const FusionOptions& o);

}  // namespace fw::fusion
