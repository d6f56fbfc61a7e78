#pragma once
// The Rules dock: one checkbox per fusion rule, grouped by level. It shows the window's options
// (fw::AnalysisSettings, the one owner) and owns none: a box is checked when the rule runs, rules above
// the level are greyed unless switched on, everything is greyed at -O0; "Why" tooltips show each rule's
// description. A click does not change anything by itself: the panel asks (ruleToggled) and the
// window records the choice in its settings and shows them again (showSettings, signals blocked).
#include <QTreeWidget>

#include "ui/analysis/AnalysisSettings.h"

namespace fwui {

class RulesPanel : public QTreeWidget {
  Q_OBJECT
 public:
  explicit RulesPanel(QWidget* parent = nullptr);
  // Shows `s`: which rules run, and which are greyed. Emits nothing.
  void showSettings(const fw::AnalysisSettings& s);
  QTreeWidgetItem* itemForRule(const QString& id) const;

 signals:
  // The user checked or unchecked a rule: a change request for the window's settings.
  void ruleToggled(const QString& id, bool on);
};

}  // namespace fwui
