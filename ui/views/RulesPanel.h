#pragma once
// The Rules dock: one checkbox per fusion rule, grouped by level. Rules above the current opt_level
// are greyed (they run only when checked explicitly, as --enable would do); unchecking a rule at or
// below the level disables it (as --disable). "Why" tooltips show each rule's description.
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
  QTreeWidgetItem* itemForRule(const QString& id) const;

 signals:
  void rulesChanged();

 private:
  void refreshStates();
  int level_ = 2;
  bool updating_ = false;
};

}  // namespace fwui
