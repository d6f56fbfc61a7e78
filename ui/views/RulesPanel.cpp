#include "ui/views/RulesPanel.h"

#include <QHeaderView>

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
  updating_ = true;
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
    it->setCheckState(0, lvl <= level_ ? Qt::Checked : Qt::Unchecked);
  }
  updating_ = false;
  refreshStates();
  connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* it, int col) {
    if (updating_ || col != 0 || !it->data(0, kIdRole).isValid()) return;
    refreshStates();
    emit rulesChanged();
  });
}

void RulesPanel::setOptLevel(int level) {
  // A level change resets overrides: the checkboxes show what the level runs.
  updating_ = true;
  level_ = level;
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    if (!(*it)->data(0, kIdRole).isValid()) continue;
    (*it)->setCheckState(0, (*it)->data(0, kLevelRole).toInt() <= level_ ? Qt::Checked : Qt::Unchecked);
  }
  updating_ = false;
  refreshStates();
}

void RulesPanel::refreshStates() {
  updating_ = true;
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    if (!(*it)->data(0, kIdRole).isValid()) continue;
    const bool above = (*it)->data(0, kLevelRole).toInt() > level_;
    const bool checked = (*it)->checkState(0) == Qt::Checked;
    const QColor grey = palette().color(QPalette::Disabled, QPalette::Text);
    const QColor normal = palette().color(QPalette::Text);
    const QColor c = (above && !checked) || level_ == 0 ? grey : normal;
    (*it)->setForeground(0, c);
    (*it)->setForeground(1, c);
  }
  updating_ = false;
}

std::set<std::string> RulesPanel::enabledRules() const {
  std::set<std::string> out;
  for (QTreeWidgetItemIterator it(const_cast<RulesPanel*>(this)); *it; ++it) {
    if (!(*it)->data(0, kIdRole).isValid()) continue;
    if ((*it)->data(0, kLevelRole).toInt() > level_ && (*it)->checkState(0) == Qt::Checked)
      out.insert((*it)->data(0, kIdRole).toString().toStdString());
  }
  return out;
}

std::set<std::string> RulesPanel::disabledRules() const {
  std::set<std::string> out;
  for (QTreeWidgetItemIterator it(const_cast<RulesPanel*>(this)); *it; ++it) {
    if (!(*it)->data(0, kIdRole).isValid()) continue;
    if ((*it)->data(0, kLevelRole).toInt() <= level_ && (*it)->checkState(0) != Qt::Checked)
      out.insert((*it)->data(0, kIdRole).toString().toStdString());
  }
  return out;
}

void RulesPanel::setOverrides(const std::set<std::string>& enabled, const std::set<std::string>& disabled) {
  updating_ = true;
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    if (!(*it)->data(0, kIdRole).isValid()) continue;
    const std::string id = (*it)->data(0, kIdRole).toString().toStdString();
    bool on = (*it)->data(0, kLevelRole).toInt() <= level_;
    if (enabled.count(id)) on = true;
    if (disabled.count(id)) on = false;
    (*it)->setCheckState(0, on ? Qt::Checked : Qt::Unchecked);
  }
  updating_ = false;
  refreshStates();
}

QTreeWidgetItem* RulesPanel::itemForRule(const QString& id) const {
  for (QTreeWidgetItemIterator it(const_cast<RulesPanel*>(this)); *it; ++it)
    if ((*it)->data(0, kIdRole).toString() == id) return *it;
  return nullptr;
}

}  // namespace fwui
