// MainWindow: the options. `settings_` (fw::AnalysisSettings) is their one owner; every change below
// makes the next value, stores it (storeSettings), and starts what it needs: an analysis, or a reload
// for the batch. The toolbar boxes and the Rules dock only show the value (showSettings).
#include <QComboBox>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>
#include <algorithm>
#include <cstdio>
#include <utility>

#include "ui/MainWindow.h"
#include "ui/MainWindowInternal.h"
#include "ui/views/RulesPanel.h"

namespace fwui {

bool MainWindow::storeSettings(const fw::AnalysisSettings& next) {
  if (next == settings_) {
    showSettings();  // a widget may show a click the settings did not take (e.g. an unknown rule)
    return false;
  }
  const fw::AnalysisSettings old = std::exchange(settings_, next);
  showSettings();
  if (old.optLevel != next.optLevel) remember("fusion/optLevel", next.optLevel);
  if (old.hw != next.hw) remember("sim/hw", QString::fromStdString(next.hw));
  if (old.batch != next.batch) remember("sim/batch", static_cast<int>(next.batch));
  if (old.beforeMode != next.beforeMode) remember("sim/eagerBaseline", next.beforeMode == fw::sim::SimMode::Eager);
  return true;
}

void MainWindow::showSettings() {
  // The widgets show the value; showing it starts nothing.
  const QString hw = QString::fromStdString(settings_.hw);
  {
    const QSignalBlocker b1(levelBox_), b2(hwBox_), b3(batchBox_), b4(modeBox_);
    levelBox_->setCurrentIndex(settings_.optLevel);
    if (hwBox_->findText(hw) < 0) hwBox_->addItem(hw);
    hwBox_->setCurrentText(hw);
    batchBox_->setValue(static_cast<int>(settings_.batch));
    modeBox_->setCurrentIndex(settings_.beforeMode == fw::sim::SimMode::Eager ? 1 : 0);
  }
  rules_->showSettings(settings_);  // blocks its own signals
}

void MainWindow::setOptLevel(int level) {
  fw::AnalysisSettings next = settings_;
  next.setLevel(level);  // the user's rule choices stay
  if (!storeSettings(next) && analysis_ && analysis_->fused.optLevel == next.optLevel) return;
  recompute();
}

void MainWindow::setRule(const QString& ruleId, bool on) {
  fw::AnalysisSettings next = settings_;
  next.setRule(ruleId.toStdString(), on);
  if (storeSettings(next)) recompute();
}

void MainWindow::setHardware(const QString& nameOrPath) {
  fw::AnalysisSettings next = settings_;
  next.hw = nameOrPath.toStdString();
  if (storeSettings(next)) recompute();
}

void MainWindow::setBatch(int batch) {
  fw::AnalysisSettings next = settings_;
  next.batch = std::max(1, batch);
  if (!storeSettings(next)) return;
  if (!currentSpec_.isEmpty()) startLoad(currentSpec_);  // the batch is part of the shapes: reload
}

void MainWindow::setEagerBaseline(bool eager) {
  fw::AnalysisSettings next = settings_;
  next.beforeMode = eager ? fw::sim::SimMode::Eager : fw::sim::SimMode::Graph;
  if (storeSettings(next)) recompute();
}

void MainWindow::excludeNode(const QString& nodeName, bool excluded) {
  fw::AnalysisSettings next = settings_;
  next.excludeNode(nodeName.toStdString(), excluded);
  if (storeSettings(next)) recompute();
}

void MainWindow::remember(const QString& key, const QVariant& value) {
  QSettings s;
  s.setValue(key, value);
  s.sync();
  if (s.status() == QSettings::NoError || settingsWarned_) return;
  settingsWarned_ = true;
  statusBar()->showMessage(tr("Settings are not remembered: cannot write %1").arg(s.fileName()), 15000);
  std::fprintf(stderr, "fusion-workbench: settings: cannot write %s (%s and later changes are not remembered)\n",
               qPrintable(s.fileName()), qPrintable(key));
}

void MainWindow::applyFusionOptions(const fw::fusion::FusionOptions& o) {
  fw::AnalysisSettings next = settings_;
  next.applyTuned(o);
  storeSettings(next);
  statusBar()->showMessage(tr("Applied the tuned fusion options"), 5000);
  recompute();
}

}  // namespace fwui
