// MainWindow: building the widgets, docks, toolbar and menus.
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

void MainWindow::buildUi() {
  auto* tb = addToolBar(tr("Main"));
  tb->setObjectName("mainToolbar");
  tb->addWidget(new QLabel(tr(" opt_level ")));
  levelBox_ = new QComboBox;
  levelBox_->setObjectName("levelBox");
  for (int l = 0; l <= 3; ++l) levelBox_->addItem(QString("O%1").arg(l), l);
  levelBox_->setToolTip(tr("0 none · 1 basic (exact) · 2 aggressive · 3 expert"));
  tb->addWidget(levelBox_);
  tb->addWidget(new QLabel(tr("  hardware ")));
  hwBox_ = new QComboBox;
  hwBox_->setObjectName("hwBox");
  for (const auto& n : fw::sim::listHwProfiles()) hwBox_->addItem(QString::fromStdString(n));
  tb->addWidget(hwBox_);
  tb->addWidget(new QLabel(tr("  batch ")));
  batchBox_ = new QSpinBox;
  batchBox_->setObjectName("batchBox");
  batchBox_->setRange(1, 4096);
  batchBox_->setKeyboardTracking(false);
  tb->addWidget(batchBox_);
  tb->addWidget(new QLabel(tr("  baseline ")));
  modeBox_ = new QComboBox;
  modeBox_->setObjectName("modeBox");
  modeBox_->addItem(tr("graph mode"));
  modeBox_->addItem(tr("eager mode"));
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
  timingTable_->setColumnHidden(TimingTableModel::MeasuredUs, true);  // until a measured run is loaded
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
  connect(rules_, &RulesPanel::ruleToggled, this, &MainWindow::setRule);  // the panel asks; settings_ decides
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
  fileMenu->addAction(tr("Load &measured times…"), this, [this] {
    QSettings s;
    // Several profiles of the model at this level (measured at different times) count as one.
    const QStringList f =
        QFileDialog::getOpenFileNames(this, tr("Load measured times"), s.value("lastDir").toString(),
                                      tr("fwb profile JSON or op summary CSV (*.json *.csv);;All files (*)"));
    if (f.isEmpty()) return;
    if (const QString err = loadMeasured(f); !err.isEmpty()) showError(tr("Could not load measured times"), err);
  });
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

}  // namespace fwui
