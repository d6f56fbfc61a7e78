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
    const std::string id = it->data(0, kIdRole).toString().toStdString();
    const bool byLevel = it->data(0, kLevelRole).toInt() <= level_;
    const bool on = it->checkState(0) == Qt::Checked;
    userOn_.erase(id);  // a choice equal to the level's default is no override
    userOff_.erase(id);
    if (on && !byLevel) userOn_.insert(id);
    if (!on && byLevel) userOff_.insert(id);
    refreshStates();
    emit rulesChanged();
  });
}

void RulesPanel::setOptLevel(int level) {
  // The checkboxes show what the new level runs, with the user's explicit choices kept.
  level_ = level;
  applyLevelAndOverrides();
}

void RulesPanel::applyLevelAndOverrides() {
  updating_ = true;
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    if (!(*it)->data(0, kIdRole).isValid()) continue;
    const std::string id = (*it)->data(0, kIdRole).toString().toStdString();
    bool on = (*it)->data(0, kLevelRole).toInt() <= level_;
    if (userOn_.count(id)) on = true;
    if (userOff_.count(id)) on = false;
    (*it)->setCheckState(0, on ? Qt::Checked : Qt::Unchecked);
  }
  updating_ = false;
  refreshStates();
}

void RulesPanel::clearOverrides() {
  userOn_.clear();
  userOff_.clear();
  applyLevelAndOverrides();
}

QString RulesPanel::overridesText() const {
  QStringList parts;
  for (const auto& id : enabledRules()) parts << "+" + QString::fromStdString(id);
  for (const auto& id : disabledRules()) parts << QString::fromUtf8("\u2212") + QString::fromStdString(id);
  return parts.join(' ');
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
  userOn_ = enabled;
  userOff_ = disabled;
  for (const auto& id : disabled) userOn_.erase(id);
  applyLevelAndOverrides();
}

QTreeWidgetItem* RulesPanel::itemForRule(const QString& id) const {
  for (QTreeWidgetItemIterator it(const_cast<RulesPanel*>(this)); *it; ++it)
    if ((*it)->data(0, kIdRole).toString() == id) return *it;
  return nullptr;
}

}  // namespace fwui
