#include "ui/views/RulesPanel.h"

#include <QHeaderView>
#include <QSignalBlocker>
#include <algorithm>

#include "fusion/Registry.h"

namespace fwui {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
constexpr int kLevelRole = Qt::UserRole + 2;
const char* kLevelTitles[] = {"", "Level 1 — basic (exact rewrites)", "Level 2 — aggressive",
                              "Level 3 — expert"};
}  // namespace

RulesPanel::RulesPanel(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(2);
  setHeaderLabels({tr("Rule"), tr("Description")});
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  setRootIsDecorated(true);
  QTreeWidgetItem* groups[4] = {};
  for (const auto& r : fw::fusion::ruleInfos()) {
    const int lvl = std::clamp(r.level, 1, 3);
    if (!groups[lvl]) {
      groups[lvl] = new QTreeWidgetItem(this, {tr(kLevelTitles[lvl])});
      groups[lvl]->setFirstColumnSpanned(true);
      groups[lvl]->setExpanded(true);
      groups[lvl]->setFlags(Qt::ItemIsEnabled);
    }
    auto* it = new QTreeWidgetItem(groups[lvl], {QString::fromStdString(r.id), QString::fromStdString(r.description)});
    it->setData(0, kIdRole, QString::fromStdString(r.id));
    it->setData(0, kLevelRole, lvl);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    it->setToolTip(0, QString::fromStdString(r.phase + " rule, level " + std::to_string(r.level) + ": " + r.description));
    it->setToolTip(1, it->toolTip(0));
  }
  showSettings(fw::AnalysisSettings{});
  connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* it, int col) {
    if (col != 0 || !it->data(0, kIdRole).isValid()) return;
    emit ruleToggled(it->data(0, kIdRole).toString(), it->checkState(0) == Qt::Checked);
  });
}

void RulesPanel::showSettings(const fw::AnalysisSettings& s) {
  const QSignalBlocker block(this);  // showing a value is no change request
  const QColor grey = palette().color(QPalette::Disabled, QPalette::Text);
  const QColor normal = palette().color(QPalette::Text);
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    if (!(*it)->data(0, kIdRole).isValid()) continue;
    const bool on = s.ruleRuns((*it)->data(0, kIdRole).toString().toStdString());
    const bool above = (*it)->data(0, kLevelRole).toInt() > s.optLevel;
    (*it)->setCheckState(0, on ? Qt::Checked : Qt::Unchecked);
    const QColor c = (above && !on) || s.optLevel == 0 ? grey : normal;
    (*it)->setForeground(0, c);
    (*it)->setForeground(1, c);
  }
}

QTreeWidgetItem* RulesPanel::itemForRule(const QString& id) const {
  for (QTreeWidgetItemIterator it(const_cast<RulesPanel*>(this)); *it; ++it)
    if ((*it)->data(0, kIdRole).toString() == id) return *it;
  return nullptr;
}

}  // namespace fwui
