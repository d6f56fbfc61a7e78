#include "ui/MainWindow.h"

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

// Boxes a big graph's first picture shows (collapsed groups); its layout takes well under a second.
constexpr size_t kOverviewBoxes = 60;
constexpr int kResizeSampleRows = 100;  // rows measured when fitting table columns to their contents

namespace {
constexpr int kMaxRecent = 10;

QString html(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

LoadOutcome loadInBackground(const std::string& spec, int batch) {
  LoadOutcome out;
  fw::LoadOptions lo;
  if (batch > 1) {
    lo.zoo.batch = batch;
    if (!fw::isZooSpec(spec)) lo.import.shapeOverrides.push_back({"@batch", {fw::Dim(batch)}});
  }
  // Load and validate as the command line does (core/io/Prepare.h); a model that breaks the spec is
  // refused here (`fwb info` lists all problems).
  auto src = fw::loadChecked(spec, lo);
  if (!src.ok()) {
    out.error = QString::fromStdString(src.error().message);
    return out;
  }
  out.loaded = std::make_shared<LoadedModel>();
  out.loaded->info = std::make_shared<const fw::ModelInfo>(fw::summarizeModel(src->model));
  out.loaded->hierarchy = std::make_shared<const fw::diagram::Hierarchy>(fw::diagram::buildHierarchy(*src->model.graph));
  out.loaded->source = std::move(src).value();
  return out;
}

// `prepared`: the model already bound at these input shapes (null: bind now); `before`: the baseline
// already simulated for `beforeKey` (null: simulate now).
AnalysisOutcome analyzeInBackground(std::shared_ptr<const LoadedModel> loaded, std::shared_ptr<const fw::PreparedModel> prepared,
                                    std::shared_ptr<const fw::sim::SimResult> before, QString beforeKey,
                                    fw::AnalysisOptions opts, QStringList shapeText,
                                    std::shared_ptr<std::atomic<bool>> cancel) {
  QElapsedTimer t;
  t.start();
  AnalysisOutcome out;
  if (!prepared) {
    // The user's input shapes, then the default binding and shape resolution (as the CLI does).
    std::vector<fw::ShapeOverride> overrides;
    for (const auto& s : shapeText) {
      auto o = fw::parseShapeOverride(s.toStdString());
      if (o.ok()) overrides.push_back(*o);
    }
    fw::ResolveOptions ro;
    ro.cancel = cancel.get();
    auto p = fw::bindShapes(loaded->source, overrides, ro);
    if (!p.ok()) {
      out.error = QString::fromStdString(p.error().message);
      out.cancelled = p.error().isCancelled();
      return out;
    }
    prepared = std::make_shared<const fw::PreparedModel>(std::move(p).value());
  }
  out.prepared = prepared;
  const fw::ShapeResolution& res = prepared->shapes;
  const fw::Model& model = prepared->model;
  opts.trace = res.trace;
  opts.hierarchy = loaded->hierarchy;  // node names and scopes do not change with the binding
  opts.before = before;
  const fw::Graph& g = *model.graph;
  for (fw::ValueId id : g.inputs()) {
    const auto& v = g.value(id);
    if (v.initializer) continue;
    QStringList dims;
    for (const auto& d : v.shape.dims) dims << QString::fromStdString(d.str());
    out.inputShapes << QString::fromStdString(v.name) + "=" + dims.join(',');
  }
  const auto line = res.bindingLine();
  out.binding = line.empty() ? out.inputShapes.join("  ") : QString::fromStdString(line).replace(
                                                                 "override with --input-shape", "Model → Input shapes…");
  if (!res.tracedValues.empty())
    out.shapeNotes << QObject::tr("%1 shape(s) come from the traced run").arg(res.tracedValues.size());
  if (!res.traceError.empty())
    out.shapeNotes << QObject::tr("traced run failed: %1").arg(QString::fromStdString(res.traceError));
  auto a = fw::analyze(model, std::move(opts), cancel.get());
  out.seconds = t.elapsed() / 1000.0;
  if (!a.ok()) {
    out.error = QString::fromStdString(a.error().message);
    out.cancelled = a.error().isCancelled();
    return out;
  }
  out.analysis = std::make_shared<fw::Analysis>(std::move(a).value());
  const fw::Analysis& an = *out.analysis;
  if (an.simulated) {
    out.before = before ? before : std::make_shared<const fw::sim::SimResult>(an.before);
    out.beforeKey = beforeKey;
    out.rows = fw::sim::compareRuns(an.before, an.after);
    out.nodeHeat = fw::nodeHeatOf(an.before);
  }
  out.grouping = fw::groupingOf(an.fused, an.simulated ? &an.after : nullptr);
  out.work = fw::estimateRun(an.original, fw::kDefaultExecutorFlops);
  return out;
}

QString humanBytes(double b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1000 && u < 4) {
    b /= 1000;
    ++u;
  }
  return QString::number(b, 'f', u ? 1 : 0) + " " + units[u];
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Fusion Workbench"));
  setAcceptDrops(true);
  QSettings settings;
  optLevel_ = std::clamp(settings.value("fusion/optLevel", 2).toInt(), 0, 3);
  hw_ = settings.value("sim/hw", QString::fromStdString(fw::sim::defaultHwProfileName())).toString();
  batch_ = std::max(1, settings.value("sim/batch", 1).toInt());
  eagerBaseline_ = settings.value("sim/eagerBaseline", false).toBool();
  execThreads_ = std::max(0, settings.value("exec/threads", 0).toInt());
  autoVerify_ = settings.value("verify/auto", true).toBool();
  autoVerifySeconds_ = std::max(0.0, settings.value("verify/budgetSeconds", 4.0).toDouble());
  buildUi();
  buildMenus();
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

void MainWindow::buildUi() {
  auto* tb = addToolBar(tr("Main"));
  tb->setObjectName("mainToolbar");
  tb->addWidget(new QLabel(tr(" opt_level ")));
  levelBox_ = new QComboBox;
  for (int l = 0; l <= 3; ++l) levelBox_->addItem(QString("O%1").arg(l), l);
  levelBox_->setCurrentIndex(optLevel_);
  levelBox_->setToolTip(tr("0 none · 1 basic (exact) · 2 aggressive · 3 expert"));
  tb->addWidget(levelBox_);
  tb->addWidget(new QLabel(tr("  hardware ")));
  hwBox_ = new QComboBox;
  for (const auto& n : fw::sim::listHwProfiles()) hwBox_->addItem(QString::fromStdString(n));
  if (hwBox_->findText(hw_) < 0) hwBox_->addItem(hw_);
  hwBox_->setCurrentText(hw_);
  tb->addWidget(hwBox_);
  tb->addWidget(new QLabel(tr("  batch ")));
  batchBox_ = new QSpinBox;
  batchBox_->setRange(1, 4096);
  batchBox_->setValue(batch_);
  batchBox_->setKeyboardTracking(false);
  tb->addWidget(batchBox_);
  tb->addWidget(new QLabel(tr("  baseline ")));
  modeBox_ = new QComboBox;
  modeBox_->addItem(tr("graph mode"));
  modeBox_->addItem(tr("eager mode"));
  modeBox_->setCurrentIndex(eagerBaseline_ ? 1 : 0);
  modeBox_->setToolTip(tr("How the unfused 'before' run executes: compiled graph, or every operator "
                          "dispatched from the host (PyNative)"));
  tb->addWidget(modeBox_);
  tb->addSeparator();
  heatAction_ = tb->addAction(tr("Heat map"));
  heatAction_->setCheckable(true);
  heatAction_->setToolTip(tr("Colour nodes by simulated time"));
  search_ = new QLineEdit;
  search_->setPlaceholderText(tr("Find node or op…"));
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(220);
  tb->addWidget(search_);
  connect(levelBox_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) { setOptLevel(i); });
  connect(hwBox_, &QComboBox::currentTextChanged, this, [this](const QString& s) { setHardware(s); });
  connect(batchBox_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int b) { setBatch(b); });
  connect(modeBox_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) { setEagerBaseline(i == 1); });
  connect(heatAction_, &QAction::toggled, this, [this](bool on) {
    beforeView_->setHeatMode(on);
    afterView_->setHeatMode(on);
  });
  connect(search_, &QLineEdit::returnPressed, this, [this] {
    const bool a = beforeView_->search(search_->text());
    const bool b = afterView_->search(search_->text());
    if (!a && !b) statusBar()->showMessage(tr("No node matches '%1'").arg(search_->text()), 3000);
  });

  summary_ = new QLabel(tr("Open a model to start."));
  summary_->setTextFormat(Qt::RichText);
  summary_->setWordWrap(true);
  summary_->setMargin(6);
  summary_->setObjectName("summaryBar");
  proofLabel_ = new QLabel;
  proofLabel_->setTextFormat(Qt::RichText);
  proofLabel_->setObjectName("proofLabel");
  proofLabel_->setMargin(6);
  verifyButton_ = new QToolButton;
  verifyButton_->setObjectName("verifyButton");
  verifyButton_->setText(tr("Verify"));
  verifyButton_->setToolTip(tr("Run the original and the fused export on the reference executor with the same "
                               "seeded inputs and compare every output (fwb verify)"));
  connect(verifyButton_, &QToolButton::clicked, this, &MainWindow::verifyNow);

  beforeView_ = new GraphView;
  afterView_ = new GraphView;
  for (GraphView* v : {beforeView_, afterView_}) {
    v->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(v, &QWidget::customContextMenuRequested, this, [this, v](const QPoint& p) { graphContextMenu(v, p); });
    connect(v, &GraphView::layoutFinished, this, [this, v] {
      if (v == beforeView_ && firstPaintPending_) {
        firstPaintPending_ = false;
        firstPaintSeconds_ = sinceLoad_.nsecsElapsed() / 1e9;
        std::fprintf(stderr, "fusion-workbench: %s: first graph visible %.2f s after load (%zu nodes, %d boxes)\n",
                     qPrintable(currentSpec_), firstPaintSeconds_, current_ ? current_->source.model.graph->liveNodeCount() : 0,
                     static_cast<int>(v->graphScene()->nodeItems().size()));
      }
      if (!v->layoutNote().isEmpty()) statusBar()->showMessage(v->layoutNote(), 15000);
      layoutsPending_ = std::max(0, layoutsPending_ - 1);
      checkViewsReady();
    });
    connect(v, &GraphView::scopeExpanded, this, [this, v](const QString& scope, int added, double seconds, bool inPlace) {
      const QString msg = tr("Expanded '%1' in the %2 view: %3 boxes in its place in %4 s (%5)")
                              .arg(scope, v == beforeView_ ? tr("before") : tr("after"))
                              .arg(added)
                              .arg(seconds, 0, 'f', 2)
                              .arg(inPlace ? tr("in place") : tr("whole view laid out"));
      std::fprintf(stderr, "fusion-workbench: %s\n", qPrintable(msg));
      statusBar()->showMessage(msg, 8000);
    });
    connect(v, &GraphView::layoutFailed, this, [this](const QString& msg) {
      layoutsPending_ = std::max(0, layoutsPending_ - 1);
      statusBar()->showMessage(tr("Layout failed: %1").arg(msg), 8000);
      checkViewsReady();
    });
  }
  connect(beforeView_, &GraphView::selectionChanged, this, &MainWindow::onBeforeSelection);
  connect(afterView_, &GraphView::selectionChanged, this, &MainWindow::onAfterSelection);
  auto titled = [](const QString& title, QWidget* w) {
    auto* box = new QWidget;
    auto* l = new QVBoxLayout(box);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    auto* lab = new QLabel("<b>" + title + "</b>");
    lab->setMargin(2);
    l->addWidget(lab);
    l->addWidget(w, 1);
    return box;
  };
  auto* graphs = new QSplitter(Qt::Horizontal);
  graphs->addWidget(titled(tr("Before (as imported)"), beforeView_));
  graphs->addWidget(titled(tr("After (fused kernels)"), afterView_));

  timingModel_ = new TimingTableModel(this);
  timingProxy_ = new QSortFilterProxyModel(this);
  timingProxy_->setSourceModel(timingModel_);
  timingProxy_->setSortRole(TimingTableModel::SortRole);
  timingProxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  timingProxy_->setFilterKeyColumn(-1);
  timingTable_ = new QTableView;
  timingTable_->setModel(timingProxy_);
  timingTable_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // schedule order first
  timingTable_->setSortingEnabled(true);
  timingTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
  timingTable_->setSelectionMode(QAbstractItemView::SingleSelection);
  timingTable_->verticalHeader()->hide();
  // Column widths from the first rows only: measuring 1,000 rows of 2,000 kernels held the GUI 0.1 s.
  timingTable_->horizontalHeader()->setResizeContentsPrecision(kResizeSampleRows);
  timingTable_->verticalHeader()->setDefaultSectionSize(20);
  timingTable_->horizontalHeader()->setStretchLastSection(true);
  timingFilter_ = new QLineEdit;
  timingFilter_->setPlaceholderText(tr("Filter kernels by name, op, unit or bound…"));
  timingFilter_->setClearButtonEnabled(true);
  connect(timingFilter_, &QLineEdit::textChanged, timingProxy_, &QSortFilterProxyModel::setFilterFixedString);
  connect(timingTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
    if (!cur.isValid()) return;
    const auto* row = timingModel_->rowAt(timingProxy_->mapToSource(cur).row());
    if (!row) return;
    showKernelDetails(QString::fromStdString(row->kernel));
    highlightKernel(*row);
  });
  auto* timingPage = new QWidget;
  auto* tl = new QVBoxLayout(timingPage);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->addWidget(timingFilter_);
  tl->addWidget(timingTable_, 1);

  timeline_ = new TimelineWidget;

  nodeModel_ = new NodeTableModel(this);
  nodeProxy_ = new QSortFilterProxyModel(this);
  nodeProxy_->setSourceModel(nodeModel_);
  nodeProxy_->setSortRole(NodeTableModel::SortRole);
  nodeProxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  nodeProxy_->setFilterKeyColumn(-1);
  nodeTable_ = new QTableView;
  nodeTable_->setModel(nodeProxy_);
  nodeTable_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // graph order first
  nodeTable_->setSortingEnabled(true);
  nodeTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
  nodeTable_->verticalHeader()->hide();
  nodeTable_->horizontalHeader()->setResizeContentsPrecision(kResizeSampleRows);
  nodeTable_->verticalHeader()->setDefaultSectionSize(20);
  nodeTable_->horizontalHeader()->setStretchLastSection(true);
  connect(nodeTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
    if (!cur.isValid()) return;
    const auto* n = nodeModel_->nodeAt(nodeProxy_->mapToSource(cur).row());
    if (n) showNodeDetails(QString::fromStdString(n->name));
  });

  tabs_ = new QTabWidget;
  tabs_->addTab(timingPage, tr("Timing (simulated)"));
  tabs_->addTab(timeline_, tr("Timeline"));
  tabs_->addTab(nodeTable_, tr("Nodes"));

  auto* vsplit = new QSplitter(Qt::Vertical);
  vsplit->addWidget(graphs);
  vsplit->addWidget(tabs_);
  vsplit->setStretchFactor(0, 3);
  vsplit->setStretchFactor(1, 2);
  vsplit->setSizes({560, 380});
  auto* central = new QWidget;
  auto* lay = new QVBoxLayout(central);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->setSpacing(0);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(0, 0, 6, 0);
  bar->addWidget(summary_, 1);
  bar->addWidget(proofLabel_);
  bar->addWidget(verifyButton_);
  lay->addLayout(bar);
  lay->addWidget(vsplit, 1);
  setCentralWidget(central);

  rules_ = new RulesPanel;
  rules_->setOptLevel(optLevel_);
  connect(rules_, &RulesPanel::rulesChanged, this, &MainWindow::recompute);
  auto* rulesDock = new QDockWidget(tr("Rules"), this);
  rulesDock->setObjectName("rulesDock");
  rulesDock->setWidget(rules_);
  addDockWidget(Qt::LeftDockWidgetArea, rulesDock);

  details_ = new QTextBrowser;
  auto* dock = new QDockWidget(tr("Properties"), this);
  dock->setObjectName("propertiesDock");
  dock->setWidget(details_);
  addDockWidget(Qt::RightDockWidgetArea, dock);

  progress_ = new QProgressBar;
  progress_->setRange(0, 0);
  progress_->setMaximumWidth(140);
  progress_->hide();
  cancelButton_ = new QToolButton;
  cancelButton_->setText(tr("Cancel"));
  cancelButton_->hide();
  connect(cancelButton_, &QToolButton::clicked, this, &MainWindow::cancelWork);
  bindingLabel_ = new QLabel;
  bindingLabel_->setObjectName("bindingLabel");
  statusBar()->addPermanentWidget(bindingLabel_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancelButton_);
  resize(1600, 1000);
}

void MainWindow::buildMenus() {
  auto* fileMenu = menuBar()->addMenu(tr("&File"));
  auto* openAct = fileMenu->addAction(tr("&Open…"), this, [this] {
    QSettings s;
    QString f = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), s.value("lastDir").toString(),
                                             tr("ONNX models (*.onnx);;All files (*)"));
    if (f.isEmpty()) return;
    s.setValue("lastDir", QFileInfo(f).absolutePath());
    openModel(f);
  });
  openAct->setShortcut(QKeySequence::Open);
  recentMenu_ = fileMenu->addMenu(tr("Open &Recent"));
  auto* zooMenu = fileMenu->addMenu(tr("Open from &Zoo"));
  for (const auto& e : fw::zooEntries()) {
    QString spec = "zoo:" + QString::fromStdString(e.name);
    zooMenu->addAction(QString::fromStdString(e.name), this, [this, spec] { openModel(spec); })
        ->setToolTip(QString::fromStdString(e.description));
  }
  fileMenu->addSeparator();
  auto* exp = fileMenu->addMenu(tr("&Export"));
  for (const auto& [label, which] : {std::pair{tr("Before diagram…"), QString("before")},
                                     std::pair{tr("After diagram…"), QString("after")},
                                     std::pair{tr("Side-by-side diagram…"), QString("side")}})
    exp->addAction(label, this, [this, w = which] { exportDiagram(w); });
  exp->addSeparator();
  exp->addAction(tr("Timing CSV…"), this, [this] { exportText("csv"); });
  exp->addAction(tr("Chrome trace…"), this, [this] { exportText("trace"); });
  exp->addAction(tr("Report JSON…"), this, [this] { exportText("report"); });
  exp->addAction(tr("Fused ONNX…"), this, [this] { exportText("onnx"); });
  fileMenu->addSeparator();
  fileMenu->addAction(tr("&Quit"), qApp, &QApplication::quit)->setShortcut(QKeySequence::Quit);
  updateRecentMenu();

  auto* modelMenu = menuBar()->addMenu(tr("&Model"));
  modelMenu->addAction(tr("&Input shapes…"), this, &MainWindow::editInputShapes);
  modelMenu->addSeparator();
  modelMenu->addAction(tr("&Tune fusion…"), this, &MainWindow::openTuneDialog);
  modelMenu->addAction(tr("&Compare chips…"), this, &MainWindow::openCompareDialog);
  modelMenu->addSeparator();
  verifyAction_ = modelMenu->addAction(tr("&Verify fused model"), this, &MainWindow::verifyNow);
  verifyAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+V")));
  verifyAction_->setToolTip(verifyButton_->toolTip());
  auto* settingsMenu = menuBar()->addMenu(tr("&Settings"));
  settingsMenu->addAction(tr("Executor &threads…"), this, [this] {
    bool ok = false;
    const int n = QInputDialog::getInt(this, tr("Executor threads"),
                                       tr("Threads for verification runs (0 = all %1 cores):").arg(QThread::idealThreadCount()),
                                       execThreads_, 0, 1024, 1, &ok);
    if (ok) setExecutorThreads(n);
  });
  autoVerifyAction_ = settingsMenu->addAction(tr("Verify &automatically after each change"));
  autoVerifyAction_->setCheckable(true);
  autoVerifyAction_->setChecked(autoVerify_);
  connect(autoVerifyAction_, &QAction::toggled, this, [this](bool on) { setAutoVerify(on); });
  settingsMenu->addAction(tr("Auto-verify &budget…"), this, [this] {
    bool ok = false;
    const double b = QInputDialog::getDouble(this, tr("Auto-verify budget"),
                                             tr("Verify automatically when the two runs are estimated to take at most (s):"),
                                             autoVerifySeconds_, 0, 3600, 1, &ok);
    if (ok) setAutoVerify(autoVerify_, b);
  });
  auto* viewMenu = menuBar()->addMenu(tr("&View"));
  viewMenu->addAction(tr("Fit graphs"), this, [this] {
    beforeView_->fitToView();
    afterView_->fitToView();
  });
  viewMenu->addAction(heatAction_);
  viewMenu->addAction(tr("Collapse all scopes"), this, [this] {
    beforeView_->collapseAllScopes();
    afterView_->collapseAllScopes();
  });
  auto* tb = findChild<QToolBar*>("mainToolbar");
  tb->insertAction(tb->actions().value(0), openAct);
  auto* zooButton = new QToolButton;
  zooButton->setText(tr("Zoo"));
  zooButton->setMenu(zooMenu);
  zooButton->setPopupMode(QToolButton::InstantPopup);
  zooButton->setToolTip(tr("Open a built-in model"));
  tb->insertWidget(tb->actions().value(1), zooButton);
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
  loadWatcher_->setFuture(QtConcurrent::run(loadInBackground, spec.toStdString(), batch_));
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
  current_ = std::make_shared<LoadedModel>(std::move(*result.loaded));
  prepared_.reset();  // the caches belong to the previous model
  cachedBefore_.reset();
  cachedBeforeKey_.clear();
  currentSpec_ = pendingSpec_;
  if (newModel) {
    // A tuned plan's limits and node exclusions belong to the model it was tuned on.
    if (minSaving_ >= 0 || ubFraction_ < 1 || !excluded_.empty())
      statusBar()->showMessage(tr("The tuned limits and node exclusions of the previous model were reset"), 5000);
    minSaving_ = -1;
    ubFraction_ = 1;
    excluded_.clear();
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
}

fw::AnalysisOptions MainWindow::currentOptions() const {
  fw::AnalysisOptions o;
  o.fusion.optLevel = optLevel_;
  o.fusion.enabled = rules_->enabledRules();
  o.fusion.disabled = rules_->disabledRules();
  o.fusion.excludedNodes = excluded_;
  if (minSaving_ >= 0) o.fusion.hw.minTrafficSaving = minSaving_;
  o.fusion.hw.ubFraction = ubFraction_;
  o.hw = hw_.toStdString();
  o.batch = batch_;
  o.beforeMode = eagerBaseline_ ? fw::sim::SimMode::Eager : fw::sim::SimMode::Graph;
  return o;
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
  statusBar()->showMessage(tr("Fusing at -O%1 and simulating on %2…").arg(optLevel_).arg(hw_));
  // A level or rule toggle reuses the bound model and the baseline run: neither depends on them.
  const fw::AnalysisOptions opts = currentOptions();
  if (prepared_ && preparedShapes_ != inputShapeText_) prepared_.reset();
  const QString beforeKey = inputShapeText_.join(';') + "|" + QString::fromStdString(opts.hw) + "|" +
                            QString::number(opts.batch) + "|" + (eagerBaseline_ ? "eager" : "graph");
  const auto before = prepared_ && cachedBeforeKey_ == beforeKey ? cachedBefore_ : nullptr;
  analysisWatcher_->setFuture(QtConcurrent::run(
      [loaded = std::shared_ptr<const LoadedModel>(current_), prepared = prepared_, before, beforeKey, opts,
       shapes = inputShapeText_, cancel = cancelFlag_]() {
        return analyzeInBackground(loaded, prepared, before, beforeKey, opts, shapes, cancel);
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
    timingTable_->resizeColumnsToContents();
    // Scoped kernel names (If_3/then_branch/k2_conv_relu) can be long: keep the times in view.
    if (timingTable_->columnWidth(TimingTableModel::Kernel) > 420) timingTable_->setColumnWidth(TimingTableModel::Kernel, 420);
    timeline_->setRuns({std::shared_ptr<const fw::sim::SimResult>(analysis_, &a.before),
                        std::shared_ptr<const fw::sim::SimResult>(analysis_, &a.after)},
                       {eagerBaseline_ ? tr("before (eager)") : tr("before (graph baseline)"), tr("after (-O%1)").arg(a.fused.optLevel)});
  } else {
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
  updateSummary();
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

void MainWindow::updateSummary() {
  if (!analysis_) return;
  const fw::Analysis& a = *analysis_;
  size_t devBefore = a.original.graph->liveNodeCount();
  QString s = QString("<b>%1</b> &nbsp; nodes %2 → kernels %3 (-O%4)")
                  .arg(html(a.original.sourcePath))
                  .arg(devBefore)
                  .arg(a.fused.kernels.size())
                  .arg(a.fused.optLevel);
  // Every option in effect besides the level: rule overrides, excluded nodes, tuned limits.
  const fw::fusion::FusionOptions& fo = a.fusionOptions;
  QStringList opts;
  if (const QString r = rules_->overridesText(); !r.isEmpty()) opts << tr("rules %1").arg(html(r.toStdString()));
  if (!fo.excludedNodes.empty()) opts << tr("%1 node(s) excluded").arg(fo.excludedNodes.size());
  if (minSaving_ >= 0) opts << tr("min saving %1").arg(minSaving_, 0, 'g', 3);
  if (ubFraction_ < 1) opts << tr("UB share %1%").arg(ubFraction_ * 100, 0, 'f', 0);
  if (!opts.isEmpty()) s += " &nbsp;[" + opts.join(", ") + "]";
  if (a.simulated) {
    const double speedup = a.after.latencyUs > 0 ? a.before.latencyUs / a.after.latencyUs : 0;
    s += QString(" &nbsp;·&nbsp; latency %1 → %2 µs (<b>%3×</b>) &nbsp;·&nbsp; HBM %4 → %5 &nbsp;·&nbsp; peak memory %6 → %7"
                 " &nbsp;·&nbsp; launch share %8% → %9% &nbsp;·&nbsp; <i>simulated on %10, batch %11</i>")
             .arg(a.before.latencyUs, 0, 'f', 1)
             .arg(a.after.latencyUs, 0, 'f', 1)
             .arg(speedup, 0, 'f', 2)
             .arg(humanBytes(a.before.hbmBytes), humanBytes(a.after.hbmBytes))
             .arg(humanBytes(a.before.peakMemoryBytes), humanBytes(a.after.peakMemoryBytes))
             .arg(100 * a.before.launchShare, 0, 'f', 1)
             .arg(100 * a.after.launchShare, 0, 'f', 1)
             .arg(html(a.hw.name))
             .arg(a.before.batch);
  } else {
    s += " &nbsp;·&nbsp; <i>not simulated</i>";
  }
  summary_->setText(s);
}

// --- selection linking and details ---------------------------------------------------------------

QString MainWindow::afterKernelOf(const std::string& originalName) const {
  if (!analysis_) return {};
  for (const auto& k : analysis_->fused.kernels)
    for (const auto& o : k.origins)
      if (o == originalName) return QString::fromStdString(k.name);
  return {};
}

void MainWindow::onBeforeSelection(const QStringList& names) {
  if (linking_ || !analysis_) return;
  // Original nodes -> the after view's boxes drawing their kernels (members are rewritten nodes).
  const fw::Graph& rg = *analysis_->fused.rewritten.graph;
  QStringList afterMembers;
  for (const QString& n : names) {
    const QString k = afterKernelOf(n.toStdString());
    for (const auto& kern : analysis_->fused.kernels) {
      if (QString::fromStdString(kern.name) != k) continue;
      for (fw::NodeId id : kern.members) afterMembers << QString::fromStdString(rg.node(id).name);
    }
  }
  linking_ = true;
  afterView_->highlightNodes(afterMembers);
  linking_ = false;
  if (!names.isEmpty()) showNodeDetails(names.front());
}

void MainWindow::onAfterSelection(const QStringList& names) {
  if (linking_ || !analysis_) return;
  const fw::Graph& rg = *analysis_->fused.rewritten.graph;
  QStringList origins;
  QString kernel;
  for (const QString& n : names) {
    const fw::NodeId id = rg.findNode(n.toStdString());
    if (id == fw::kNoId) continue;
    for (const auto& k : analysis_->fused.kernels) {
      if (std::find(k.members.begin(), k.members.end(), id) == k.members.end()) continue;
      kernel = QString::fromStdString(k.name);
      for (const auto& o : k.origins) origins << QString::fromStdString(o);
    }
  }
  origins.removeDuplicates();
  linking_ = true;
  beforeView_->highlightNodes(origins);
  linking_ = false;
  if (!kernel.isEmpty()) {
    showKernelDetails(kernel);
    const int row = timingModel_->rowOfKernel(kernel);
    if (row >= 0) timingTable_->selectRow(timingProxy_->mapFromSource(timingModel_->index(row, 0)).row());
  }
}

void MainWindow::showNodeDetails(const QString& originalName) {
  if (!current_) return;
  detailsKernel_.clear();
  const fw::Graph& g = *current_->source.model.graph;
  const fw::NodeId id = g.findNode(originalName.toStdString());
  if (id == fw::kNoId) return;
  const fw::Node& node = g.node(id);
  const fw::NodeCost c = fw::nodeCost(g, id);
  QString h = QString("<h3>%1</h3><p><b>%2</b>%3</p>")
                  .arg(html(node.name), html(node.opType), node.domain.empty() ? QString() : " (" + html(node.domain) + ")");
  h += "<p><b>Inputs</b><br>";
  for (fw::ValueId v : node.inputs) h += html(fw::describeValue(g, v)) + "<br>";
  h += "</p><p><b>Outputs</b><br>";
  for (fw::ValueId v : node.outputs) h += html(fw::describeValue(g, v)) + "<br>";
  h += "</p>";
  if (!node.attrs.empty()) {
    h += "<p><b>Attributes</b><br>";
    for (const auto& a : node.attrs.all()) h += html(a.name) + " = " + html(a.summary()) + "<br>";
    h += "</p>";
  }
  h += QString("<p><b>FLOPs</b> %1<br><b>Bytes</b> in %2, weights %3, out %4</p>")
           .arg(QLocale().toString(c.flops, 'f', 0))
           .arg(QLocale().toString(c.bytesIn, 'f', 0))
           .arg(QLocale().toString(c.weightBytes, 'f', 0))
           .arg(QLocale().toString(c.bytesOut, 'f', 0));
  if (analysis_) {
    const QString k = afterKernelOf(node.name);
    h += k.isEmpty() ? tr("<p><b>After fusion</b>: removed (folded or eliminated)</p>")
                     : tr("<p><b>After fusion</b>: in kernel <i>%1</i></p>").arg(k.toHtmlEscaped());
    if (analysis_->simulated) {
      const auto heat = fw::nodeHeatOf(analysis_->before);
      if (auto it = heat.find(node.name); it != heat.end())
        h += tr("<p><b>Simulated time before</b>: %1 µs on %2</p>").arg(it->second, 0, 'f', 2).arg(html(analysis_->hw.name));
    }
    QString why;
    for (const auto& d : analysis_->fused.decisions)
      if (!d.applied && d.node == node.name) why += "<li><b>" + html(d.rule) + "</b>: " + html(d.reason) + "</li>";
    if (!why.isEmpty()) h += tr("<p><b>Why not fused</b></p><ul>") + why + "</ul>";
  }
  if (excluded_.count(node.name)) h += tr("<p><i>Excluded from fusion by you.</i></p>");
  details_->setHtml(h);
}

void MainWindow::showKernelDetails(const QString& kernelName) {
  if (!analysis_) return;
  detailsKernel_ = kernelName;
  const auto& a = *analysis_;
  for (const auto& k : a.fused.kernels) {
    if (QString::fromStdString(k.name) != kernelName) continue;
    const fw::Graph& rg = *a.fused.rewritten.graph;
    QString h = QString("<h3>%1</h3><p>pattern <b>%2</b>, unit <b>%3</b></p><p><b>Members</b><br>")
                    .arg(html(k.name), html(k.pattern), html(k.unit));
    for (fw::NodeId id : k.members) h += html(rg.node(id).name + " (" + rg.node(id).opType + ")") + "<br>";
    h += "</p><p><b>Original nodes</b><br>";
    for (const auto& o : k.origins) h += html(o) + "<br>";
    h += "</p>";
    if (a.simulated) {
      for (const auto& kt : a.after.kernels) {
        if (kt.name != k.name) continue;
        h += tr("<p><b>Simulated</b> on %1: %2 µs, %3 bound, %4 FLOPs, HBM %5</p>")
                 .arg(html(a.hw.name))
                 .arg(kt.durUs, 0, 'f', 2)
                 .arg(fw::sim::boundName(kt.bound))
                 .arg(QLocale().toString(kt.flops, 'f', 0))
                 .arg(humanBytes(kt.hbmBytes));
      }
    }
    QString why;
    for (const auto& d : a.fused.decisions) {
      if (d.applied) continue;
      for (const auto& o : k.origins)
        if (d.node == o) why += "<li><b>" + html(d.rule) + "</b> at " + html(d.node) + ": " + html(d.reason) + "</li>";
    }
    if (!why.isEmpty()) h += tr("<p><b>Why not fused further</b></p><ul>") + why + "</ul>";
    h += proofHtml();
    details_->setHtml(h);
    return;
  }
}

// --- settings changes ----------------------------------------------------------------------------

void MainWindow::setOptLevel(int level) {
  level = std::clamp(level, 0, 3);
  if (levelBox_->currentIndex() != level) {
    const QSignalBlocker block(levelBox_);  // the widget shows the value; it does not start a second run
    levelBox_->setCurrentIndex(level);
  }
  if (optLevel_ == level && analysis_ && analysis_->fused.optLevel == level) return;
  optLevel_ = level;
  remember("fusion/optLevel", level);
  rules_->setOptLevel(level);
  recompute();
}

void MainWindow::setHardware(const QString& nameOrPath) {
  if (hw_ == nameOrPath) return;
  hw_ = nameOrPath;
  if (hwBox_->currentText() != nameOrPath) {
    const QSignalBlocker block(hwBox_);
    hwBox_->setCurrentText(nameOrPath);
  }
  remember("sim/hw", hw_);
  recompute();
}

void MainWindow::setBatch(int batch) {
  if (batch_ == batch) return;
  batch_ = std::max(1, batch);
  if (batchBox_->value() != batch_) {
    const QSignalBlocker block(batchBox_);
    batchBox_->setValue(batch_);
  }
  remember("sim/batch", batch_);
  if (!currentSpec_.isEmpty()) startLoad(currentSpec_);  // the batch is part of the shapes: reload
}

void MainWindow::setEagerBaseline(bool eager) {
  if (eagerBaseline_ == eager) return;
  eagerBaseline_ = eager;
  if (modeBox_->currentIndex() != (eager ? 1 : 0)) {
    const QSignalBlocker block(modeBox_);
    modeBox_->setCurrentIndex(eager ? 1 : 0);
  }
  remember("sim/eagerBaseline", eager);
  recompute();
}

void MainWindow::excludeNode(const QString& nodeName, bool excluded) {
  if (excluded) excluded_.insert(nodeName.toStdString());
  else excluded_.erase(nodeName.toStdString());
  recompute();
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
  fw::AnalysisOptions o = currentOptions();
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
  fw::AnalysisOptions o = currentOptions();
  o.trace = analysis_->trace;
  QStringList profiles;
  for (const auto& n : fw::sim::listHwProfiles()) profiles << QString::fromStdString(n);
  if (!profiles.contains(hw_)) profiles << hw_;
  QStringList checked{hw_};
  for (const auto& p : profiles)
    if (checked.size() < 2 && p != hw_ && p != "toy") checked << p;
  auto* d = new CompareDialog(analysis_->original, o, profiles, checked, this);
  d->setAttribute(Qt::WA_DeleteOnClose);
  d->show();
  d->run();
}

void MainWindow::applyFusionOptions(const fw::fusion::FusionOptions& o) {
  optLevel_ = o.optLevel;
  {
    const QSignalBlocker block(levelBox_);
    levelBox_->setCurrentIndex(o.optLevel);
  }
  rules_->setOptLevel(o.optLevel);
  rules_->setOverrides(o.enabled, o.disabled);
  excluded_ = o.excludedNodes;
  minSaving_ = o.hw.minTrafficSaving;
  ubFraction_ = o.hw.ubFraction;
  statusBar()->showMessage(tr("Applied the tuned fusion options"), 5000);
  recompute();
}

}  // namespace fwui
