// MainWindow: loading and analysis (starting the background jobs, taking their results), the summary,
// recent files, the Tune and Compare dialogs. Widgets are built in MainWindowUi.cpp, the options change
// in MainWindowSettings.cpp, the background jobs are MainWindowJobs.cpp, selection linking and details
// MainWindowDetails.cpp, the proof MainWindowVerify.cpp, exports MainWindowExport.cpp.
#include "ui/MainWindow.h"
#include "ui/MainWindowInternal.h"

#include <cstdio>
#include <utility>

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QThread>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/io/ModelSource.h"
#include "simulator/Comparison.h"
#include "ui/analysis/Diagrams.h"
#include "ui/models/NodeTableModel.h"
#include "ui/models/TimingTableModel.h"
#include "core/check/Validate.h"
#include "core/shape/ShapeResolve.h"
#include "ui/views/GraphView.h"
#include "ui/views/CompareDialog.h"
#include "ui/views/GraphScene.h"
#include "ui/views/InputShapesDialog.h"
#include "ui/views/TuneDialog.h"
#include "ui/views/RulesPanel.h"
#include "ui/views/TimelineWidget.h"

namespace fwui {

namespace {
constexpr int kMaxRecent = 10;
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Fusion Workbench"));
  setAcceptDrops(true);
  QSettings settings;
  settings_.setLevel(settings.value("fusion/optLevel", 2).toInt());
  settings_.hw = settings.value("sim/hw", QString::fromStdString(fw::sim::defaultHwProfileName())).toString().toStdString();
  settings_.batch = std::max(1, settings.value("sim/batch", 1).toInt());
  settings_.beforeMode = settings.value("sim/eagerBaseline", false).toBool() ? fw::sim::SimMode::Eager : fw::sim::SimMode::Graph;
  execThreads_ = std::max(0, settings.value("exec/threads", 0).toInt());
  autoVerify_ = settings.value("verify/auto", true).toBool();
  autoVerifySeconds_ = std::max(0.0, settings.value("verify/budgetSeconds", 4.0).toDouble());
  buildUi();
  buildMenus();
  showSettings();
  loadWatcher_ = new QFutureWatcher<LoadOutcome>(this);
  connect(loadWatcher_, &QFutureWatcherBase::finished, this, &MainWindow::onLoadFinished);
  analysisWatcher_ = new QFutureWatcher<AnalysisOutcome>(this);
  connect(analysisWatcher_, &QFutureWatcherBase::finished, this, &MainWindow::onAnalysisFinished);
  verifyWatcher_ = new QFutureWatcher<VerifyOutcome>(this);
  connect(verifyWatcher_, &QFutureWatcherBase::finished, this, &MainWindow::onProofFinished);
  updateProofBar();
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
}

MainWindow::~MainWindow() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  if (cancelFlag_) cancelFlag_->store(true);
  if (loadWatcher_->isRunning()) loadWatcher_->waitForFinished();
  if (analysisWatcher_->isRunning()) analysisWatcher_->waitForFinished();
  if (verifyCancel_) verifyCancel_->store(true);
  if (verifyWatcher_->isRunning()) verifyWatcher_->waitForFinished();
}

// --- loading and analysis ------------------------------------------------------------------------

void MainWindow::openModel(const QString& spec) { startLoad(spec); }

void MainWindow::startLoad(const QString& spec) {
  if (loadWatcher_->isRunning()) {
    statusBar()->showMessage(tr("Still loading %1…").arg(pendingSpec_), 3000);
    return;
  }
  pendingSpec_ = spec;
  progress_->show();
  statusBar()->showMessage(tr("Loading %1…").arg(spec));
  loadWatcher_->setFuture(QtConcurrent::run(loadInBackground, spec.toStdString(), static_cast<int>(settings_.batch)));
}

void MainWindow::onLoadFinished() {
  LoadOutcome result = loadWatcher_->result();
  if (!result.loaded) {
    progress_->hide();
    statusBar()->showMessage(tr("Could not open %1").arg(pendingSpec_), 5000);
    showError(tr("Could not open model"), result.error);
    emit loadFailed(result.error);
    return;
  }
  const bool newModel = pendingSpec_ != currentSpec_;
  bool droppedTuned = false;
  current_ = std::make_shared<LoadedModel>(std::move(*result.loaded));
  prepared_.reset();  // the caches belong to the previous model
  cachedBefore_.reset();
  cachedBeforeKey_.clear();
  currentSpec_ = pendingSpec_;
  if (newModel) {
    // A tuned plan's limits and node exclusions belong to the model it was tuned on.
    fw::AnalysisSettings next = settings_;
    droppedTuned = next.forNewModel();
    storeSettings(next);
    measured_.reset();  // a measured run belongs to the model it was measured on
    accuracy_.reset();
    if (!shapesGivenBeforeLoad_) inputShapeText_ = QSettings().value("inputShapes/" + currentSpec_).toStringList();
    shapesGivenBeforeLoad_ = false;
    askedForShapes_ = false;
  }
  nodeModel_->setInfo(current_->info);
  nodeTable_->resizeColumnsToContents();
  if (newModel) {
    // The first picture comes now, from the loaded graph folded by its groups; fusion and simulation
    // follow in the background and then redraw both views.
    fw::diagram::DiagramOptions o;
    o.hierarchy = current_->hierarchy;
    o.foldedBoxes = kOverviewBoxes;
    analysis_.reset();
    afterView_->clearGraph();
    sinceLoad_.start();
    firstPaintPending_ = true;
    firstPaintSeconds_ = -1;
    beforeView_->setGraph(current_->source.model.graph, std::nullopt, o);
  }
  setWindowTitle(tr("Fusion Workbench — %1").arg(currentSpec_));
  addRecent(currentSpec_);
  emit modelLoaded(currentSpec_);
  recompute();
  if (droppedTuned)  // after recompute's "Fusing…", so that it is seen
    statusBar()->showMessage(tr("The tuned limits and node exclusions of the previous model were reset"), 5000);
}

void MainWindow::recompute() {
  if (!current_) return;
  if (analysisWatcher_->isRunning()) {
    // Supersede: stop the running analysis and start again with the newest settings when it ends.
    analysisQueued_ = true;
    if (cancelFlag_) cancelFlag_->store(true);
    return;
  }
  analysisQueued_ = false;
  cancelProof();  // the proof of the old analysis means nothing for the new one
  proof_ = Proof::None;
  proofReport_.reset();
  updateProofBar();
  cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
  progress_->show();
  cancelButton_->show();
  statusBar()->showMessage(
      tr("Fusing at -O%1 and simulating on %2…").arg(settings_.optLevel).arg(QString::fromStdString(settings_.hw)));
  // A level or rule toggle reuses the bound model and the baseline run: neither depends on them.
  const fw::AnalysisOptions opts = settings_.request();
  if (prepared_ && preparedShapes_ != inputShapeText_) prepared_.reset();
  const QString beforeKey = inputShapeText_.join(';') + "|" + QString::fromStdString(opts.hw) + "|" +
                            QString::number(opts.batch) + "|" +
                            (opts.beforeMode == fw::sim::SimMode::Eager ? "eager" : "graph");
  const auto before = prepared_ && cachedBeforeKey_ == beforeKey ? cachedBefore_ : nullptr;
  analysisWatcher_->setFuture(QtConcurrent::run(
      [loaded = std::shared_ptr<const LoadedModel>(current_), prepared = prepared_, before, beforeKey, opts,
       settings = settings_, shapes = inputShapeText_, cancel = cancelFlag_, measured = measured_]() {
        AnalysisOutcome out = analyzeInBackground(loaded, prepared, before, beforeKey, opts, shapes, cancel, measured);
        out.settings = settings;
        return out;
      }));
  emit analysisStarted();
}

void MainWindow::cancelWork() {
  if (cancelFlag_) cancelFlag_->store(true);
  analysisQueued_ = false;
}

QString MainWindow::expandGroup(const QString& path) {
  QStringList errors;
  int started = 0;
  for (GraphView* v : {beforeView_, afterView_}) {
    QString e;
    if (v->expandPath(path, &e)) {
      ++started;
      ++layoutsPending_;
    } else if (!e.isEmpty()) {
      errors << (v == beforeView_ ? tr("before view: %1") : tr("after view: %1")).arg(e);
    }
  }
  return started ? QString() : errors.join("; ");
}

bool MainWindow::isBusy() const {
  return loadWatcher_->isRunning() || analysisWatcher_->isRunning() || layoutsPending_ > 0;
}

void MainWindow::onAnalysisFinished() {
  AnalysisOutcome out = analysisWatcher_->result();
  if (analysisQueued_) {
    recompute();
    return;
  }
  progress_->hide();
  cancelButton_->hide();
  if (!out.analysis) {
    const bool cancelled = out.cancelled;
    statusBar()->showMessage(cancelled ? tr("Cancelled; showing the previous result") : tr("Analysis failed"), 5000);
    if (!cancelled) showError(tr("Analysis failed"), out.error);
    emit analysisFailed(out.error);
    return;
  }
  // The before view (and its heat) changes only with the bound model or the baseline run.
  const bool sameModel = analysis_ && analysis_->original.graph == out.analysis->original.graph &&
                         !out.beforeKey.isEmpty() && out.beforeKey == cachedBeforeKey_;
  prepared_ = out.prepared;
  preparedShapes_ = inputShapeText_;
  if (out.before) {
    cachedBefore_ = out.before;
    cachedBeforeKey_ = out.beforeKey;
  }
  analysis_ = out.analysis;
  analysisWork_ = out.work;
  const fw::Analysis& a = *analysis_;
  if (a.simulated) {
    timingModel_->setRows(std::move(out.rows));
    accuracy_ = out.accuracy;
    if (accuracy_) timingModel_->setMeasured(accuracy_->measuredUs, QString::fromStdString(accuracy_->on));
    timingTable_->setColumnHidden(TimingTableModel::MeasuredUs, !accuracy_);
    timingTable_->resizeColumnsToContents();
    // Scoped kernel names (If_3/then_branch/k2_conv_relu) can be long: keep the times in view.
    if (timingTable_->columnWidth(TimingTableModel::Kernel) > 420) timingTable_->setColumnWidth(TimingTableModel::Kernel, 420);
    timeline_->setRuns({std::shared_ptr<const fw::sim::SimResult>(analysis_, &a.before),
                        std::shared_ptr<const fw::sim::SimResult>(analysis_, &a.after)},
                       {out.settings.beforeMode == fw::sim::SimMode::Eager ? tr("before (eager)") : tr("before (graph baseline)"),
                        tr("after (-O%1)").arg(a.fused.optLevel)});
  } else {
    accuracy_.reset();
    timingTable_->setColumnHidden(TimingTableModel::MeasuredUs, true);
    QString why = tr("the simulation did not run");
    for (const auto& w : a.warnings) why = QString::fromStdString(w);
    timingModel_->setMessage(why, tr("Give the input shapes under Model → Input shapes…, or choose a branch "
                                     "policy; `fwb simulate` prints the same reason"));
    timeline_->setRuns({}, {});
  }
  layoutsPending_ = 0;
  reapplyHighlight_ = true;
  // Both views fold by the model's groups (name scopes or repeated blocks); a big graph opens as a
  // small overview of collapsed groups, a small one (up to 500 boxes) fully expanded.
  fw::diagram::DiagramOptions viewOpts;
  viewOpts.hierarchy = a.hierarchy;
  viewOpts.foldedBoxes = kOverviewBoxes;
  fw::diagram::DiagramOptions beforeOpts = viewOpts;
  beforeOpts.nodeHeat = std::move(out.nodeHeat);
  if (!sameModel) {
    ++layoutsPending_;
    beforeView_->setGraph(a.original.graph, std::nullopt, beforeOpts);
  }
  ++layoutsPending_;
  afterView_->setGraph(a.fused.rewritten.graph, std::move(out.grouping), viewOpts);
  updateSummary(out.settings);
  startProofIfCheap();
  if (timingProxy_->rowCount() > 0 && !timingTable_->currentIndex().isValid()) timingTable_->selectRow(0);
  for (const auto& w : a.warnings) statusBar()->showMessage(QString::fromStdString(w), 8000);
  if (a.warnings.empty())
    statusBar()->showMessage(tr("Fused and simulated in %1 s").arg(out.seconds, 0, 'f', 2) +
                                 (out.shapeNotes.isEmpty() ? QString() : "; " + out.shapeNotes.join("; ")),
                             out.shapeNotes.isEmpty() ? 4000 : 10000);
  bindingLabel_->setText(out.binding.startsWith("shapes: ") ? out.binding.mid(8) : tr("input shapes: %1").arg(out.binding));
  bindingLabel_->setToolTip(out.inputShapes.join("\n"));
  analysedShapes_ = out.inputShapes;
  emit analysisFinished();
  // A model with open dims: offer the binding once (prefilled with what was used).
  if (!quietErrors_ && !askedForShapes_ && inputShapeText_.isEmpty() && current_ &&
      out.binding.startsWith("shapes: bound by default")) {
    askedForShapes_ = true;
    QTimer::singleShot(0, this, &MainWindow::editInputShapes);
  }
}

QString MainWindow::setInputShapes(const QStringList& shapes) {
  for (const auto& t : shapes) {
    auto o = fw::parseShapeOverride(t.toStdString());
    if (!o.ok()) return QString::fromStdString(o.error().message);
  }
  inputShapeText_ = shapes;
  if (!current_) shapesGivenBeforeLoad_ = true;  // --input-shape: for the model about to open
  else remember("inputShapes/" + currentSpec_, shapes);
  recompute();
  return {};
}

void MainWindow::editInputShapes() {
  if (!current_) return;
  const fw::Graph& g = *current_->source.model.graph;
  std::vector<InputShapesDialog::Input> inputs;
  for (fw::ValueId id : g.inputs()) {
    const auto& v = g.value(id);
    if (v.initializer) continue;
    InputShapesDialog::Input in{QString::fromStdString(v.name), QString::fromStdString(v.shape.str()), {}};
    for (const auto& t : inputShapeText_.isEmpty() ? analysedShapes_ : inputShapeText_)
      if (t.section('=', 0, 0) == in.name) in.current = t.section('=', 1);
    inputs.push_back(std::move(in));
  }
  InputShapesDialog dlg(inputs, bindingLabel_->text(), this);
  if (dlg.exec() == QDialog::Accepted) setInputShapes(dlg.shapes());
}

void MainWindow::highlightKernel(const fw::sim::ComparisonRow& row) {
  QStringList origins, members;
  for (const auto& o : row.origins) origins << QString::fromStdString(o);
  if (analysis_) {
    const fw::Graph& rg = *analysis_->fused.rewritten.graph;
    for (const auto& k : analysis_->fused.kernels)
      if (k.name == row.kernel)
        for (fw::NodeId id : k.members) members << QString::fromStdString(rg.node(id).name);
  }
  linking_ = true;
  beforeView_->highlightNodes(origins);
  afterView_->highlightNodes(members);
  linking_ = false;
}

void MainWindow::checkViewsReady() {
  if (layoutsPending_ != 0 || !analysis_ || analysisWatcher_->isRunning()) return;
  // Layouts of a new analysis finish after the tables are filled: re-apply the selected kernel's
  // highlight (which brings it into view). Not after an expansion: the views keep their highlight and
  // stay on the opened group.
  const QModelIndex cur = timingTable_->currentIndex();
  const bool reapply = std::exchange(reapplyHighlight_, false);
  if (cur.isValid() && reapply) {
    if (const auto* row = timingModel_->rowAt(timingProxy_->mapToSource(cur).row())) highlightKernel(*row);
  }
  emit viewsReady();
}

QString MainWindow::loadMeasured(const QStringList& paths) {
  if (!current_) return tr("Open a model first: a measured run is set beside the model it was measured on");
  if (paths.isEmpty()) return tr("No measured file given");
  std::vector<fw::sim::MeasuredRun> runs;
  std::vector<std::string> files;
  for (const QString& path : paths) {
    auto one = fw::sim::loadMeasuredRun(path.toStdString());  // small files: read here
    if (!one.ok()) return QString::fromStdString(one.error().message);
    runs.push_back(std::move(one).value());
    files.push_back(path.toStdString());
  }
  auto run = fw::sim::medianOfRuns(runs, files);
  if (!run.ok()) return QString::fromStdString(run.error().message);
  if (run->optLevel >= 0 && run->optLevel != settings_.optLevel)
    statusBar()->showMessage(tr("%1 was measured at -O%2, the analysis is at -O%3: kernels will not line up")
                                 .arg(QFileInfo(paths.front()).fileName())
                                 .arg(run->optLevel)
                                 .arg(settings_.optLevel),
                             8000);
  measured_ = std::make_shared<const fw::sim::MeasuredRun>(std::move(run).value());
  recompute();
  return {};
}

// The result shown and every option it was made with (`madeWith`: the settings of its request).
void MainWindow::updateSummary(const fw::AnalysisSettings& madeWith) {
  if (!analysis_) return;
  const fw::Analysis& a = *analysis_;
  size_t devBefore = a.original.graph->liveNodeCount();
  QString s = QString("<b>%1</b> &nbsp; nodes %2 → kernels %3 (-O%4)")
                  .arg(html(a.original.sourcePath))
                  .arg(devBefore)
                  .arg(a.fused.kernels.size())
                  .arg(a.fused.optLevel);
  // Every option in effect besides the level: rule overrides, excluded nodes, tuned limits (the
  // profile, batch and baseline mode follow with the simulated figures).
  QStringList opts;
  if (const std::string r = madeWith.overridesText(); !r.empty()) opts << tr("rules %1").arg(html(r));
  if (!madeWith.excludedNodes.empty()) opts << tr("%1 node(s) excluded").arg(madeWith.excludedNodes.size());
  if (madeWith.minSaving) opts << tr("min saving %1").arg(*madeWith.minSaving, 0, 'g', 3);
  if (madeWith.ubFraction < 1) opts << tr("UB share %1%").arg(madeWith.ubFraction * 100, 0, 'f', 0);
  if (!opts.isEmpty()) s += " &nbsp;[" + opts.join(", ") + "]";
  const QString baseline = madeWith.beforeMode == fw::sim::SimMode::Eager ? tr("eager baseline") : tr("graph baseline");
  if (a.simulated) {
    const double speedup = a.after.latencyUs > 0 ? a.before.latencyUs / a.after.latencyUs : 0;
    s += QString(" &nbsp;·&nbsp; latency %1 → %2 µs (<b>%3×</b>) &nbsp;·&nbsp; HBM %4 → %5 &nbsp;·&nbsp; peak memory %6 → %7"
                 " &nbsp;·&nbsp; launch share %8% → %9% &nbsp;·&nbsp; <i>simulated on %10, batch %11, %12</i>")
             .arg(a.before.latencyUs, 0, 'f', 1)
             .arg(a.after.latencyUs, 0, 'f', 1)
             .arg(speedup, 0, 'f', 2)
             .arg(humanBytes(a.before.hbmBytes), humanBytes(a.after.hbmBytes))
             .arg(humanBytes(a.before.peakMemoryBytes), humanBytes(a.after.peakMemoryBytes))
             .arg(100 * a.before.launchShare, 0, 'f', 1)
             .arg(100 * a.after.launchShare, 0, 'f', 1)
             .arg(html(a.hw.name))
             .arg(a.before.batch)
             .arg(baseline);
    if (accuracy_ && measured_) {
      const fw::sim::Accuracy& acc = *accuracy_;
      s += QString(
               " &nbsp;·&nbsp; measured (%8, %1): %2 µs, simulated off by %3%; per-kernel error median %4%, "
               "mean %5%; "
               "Spearman %6 over %7 kernel(s)")
               .arg(html(measured_->source))
               .arg(acc.measuredTotalUs, 0, 'f', 1)
               .arg(100 * acc.totalErr, 0, 'f', 1)
               .arg(100 * acc.medianAbsErr, 0, 'f', 1)
               .arg(100 * acc.meanAbsErr, 0, 'f', 1)
               .arg(acc.ranked ? QString::number(acc.spearman, 'f', 3) : QStringLiteral("n/a"))
               .arg(acc.scored)
               .arg(QString::fromStdString(acc.on));
      // What moves the whole-model error most (Accuracy::byOps).
      if (!acc.byOps.empty())
        s += tr("; most of the gap from %1 (%2 kernel(s), %3% of the whole model)")
                 .arg(html(fw::sim::shortOps(acc.byOps.front().ops)))
                 .arg(acc.byOps.front().kernels)
                 .arg(QString::asprintf("%+.1f", 100 * acc.byOps.front().shareOfTotal));
      if (fw::sim::probeRatioOff(acc.machineTimeRatio))
        s += tr(", <b>measured in another machine state</b> (the speed probe took %1 against the "
                "calibration's: "
                "calibrate and profile again together)")
                 .arg(QString::fromStdString(fw::sim::probeRatioText(acc.machineTimeRatio)));
      if (!acc.unmatchedMeasured.empty()) s += tr(", %1 measured row(s) unmatched").arg(acc.unmatchedMeasured.size());
      if (!acc.otherPlan.empty())
        s += tr(", <b>%1 measured kernel(s) ran other nodes</b> (another fusion plan: profile with this "
                "hardware "
                "profile, level and rule switches)")
                 .arg(acc.otherPlan.size());
    }
  } else {
    s += " &nbsp;·&nbsp; <i>not simulated</i> (" + html(madeWith.hw) + tr(", batch %1, %2)").arg(madeWith.batch).arg(baseline);
  }
  summary_->setText(s);
}

void MainWindow::showError(const QString& title, const QString& msg) {
  if (!quietErrors_) QMessageBox::warning(this, title, msg);
}

// --- recent files, drag and drop -----------------------------------------------------------------

void MainWindow::addRecent(const QString& spec) {
  QStringList list = QSettings().value("recentFiles").toStringList();
  list.removeAll(spec);
  list.prepend(spec);
  while (list.size() > kMaxRecent) list.removeLast();
  remember("recentFiles", list);
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList list = QSettings().value("recentFiles").toStringList();
  for (const QString& spec : list) recentMenu_->addAction(spec, this, [this, spec] { openModel(spec); });
  recentMenu_->setEnabled(!list.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const auto urls = e->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) openModel(urls.front().toLocalFile());
}

void MainWindow::openTuneDialog() {
  if (!analysis_) {
    showError(tr("Tune fusion"), tr("Open a model and wait for its analysis first."));
    return;
  }
  fw::AnalysisOptions o = settings_.request();
  o.trace = analysis_->trace;
  auto* d = new TuneDialog(analysis_->original, o, this);
  d->setAttribute(Qt::WA_DeleteOnClose);
  connect(d, &TuneDialog::applied, this, &MainWindow::applyFusionOptions);
  d->show();
  d->start();
}

void MainWindow::openCompareDialog() {
  if (!analysis_) {
    showError(tr("Compare chips"), tr("Open a model and wait for its analysis first."));
    return;
  }
  fw::AnalysisOptions o = settings_.request();
  o.trace = analysis_->trace;
  const QString hw = QString::fromStdString(settings_.hw);
  QStringList profiles;
  for (const auto& n : fw::sim::listHwProfiles()) profiles << QString::fromStdString(n);
  if (!profiles.contains(hw)) profiles << hw;
  QStringList checked{hw};
  for (const auto& p : profiles)
    if (checked.size() < 2 && p != hw && p != "toy") checked << p;
  auto* d = new CompareDialog(analysis_->original, o, profiles, checked, this);
  d->setAttribute(Qt::WA_DeleteOnClose);
  d->show();
  d->run();
}

}  // namespace fwui
