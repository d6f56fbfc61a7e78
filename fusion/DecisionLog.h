#pragma once
// The decision log: for every (rule, node) the latest verdict - applied, or rejected with a reason.
// Rewrite rules run to a fixpoint, so a node may be looked at several times; only the last verdict
// is kept, in the order the pair was first seen.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fusion/FusionTypes.h"

namespace fw::fusion {

class DecisionLog {
 public:
  void record(const std::string& rule, const std::string& node, bool applied, const std::string& reason) {
    auto key = std::make_pair(rule, node);
    auto it = index_.find(key);
    if (it != index_.end()) {
      Decision& d = items_[it->second];
      if (d.applied && !applied) return;  // an application is never overwritten by a later look
      d.applied = applied;
      d.reason = reason;
      return;
    }
    index_[key] = items_.size();
    items_.push_back({rule, node, applied, reason});
  }
  const std::vector<Decision>& items() const { return items_; }
  std::vector<Decision> take() { return std::move(items_); }

 private:
  std::vector<Decision> items_;
  std::map<std::pair<std::string, std::string>, size_t> index_;
};

}  // namespace fw::fusion
