#pragma once
// The Rules dock: one checkbox per fusion rule, grouped by level. Rules above the current opt_level
// are greyed (they run only when checked explicitly, as --enable would do); unchecking a rule at or
// below the level disables it (as --disable). "Why" tooltips show each rule's description. The user's
// explicit choices are kept across level changes (a rule switched on stays on, one switched off
// stays off) until clearOverrides().
#include <QTreeWidget>
#include <set>
#include <string>

namespace fwui {

class RulesPanel : public QTreeWidget {
  Q_OBJECT
 public:
  explicit RulesPanel(QWidget* parent = nullptr);
  void setOptLevel(int level);
  std::set<std::string> enabledRules() const;   // checked rules above the level
  std::set<std::string> disabledRules() const;  // unchecked rules at or below the level
  void setOverrides(const std::set<std::string>& enabled, const std::set<std::string>& disabled);
  void clearOverrides();
  // The user's explicit choices, whatever the level: "+cse -gelu_fusion" ("" when none).
  QString overridesText() const;
  QTreeWidgetItem* itemForRule(const QString& id) const;

 signals:
  void rulesChanged();

 private:
  void refreshStates();
  void applyLevelAndOverrides();
  int level_ = 2;
  std::set<std::string> userOn_, userOff_;  // explicit choices (clicks, a tuned plan)
  bool updating_ = false;
};

}  // namespace fwui
