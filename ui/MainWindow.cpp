#include "ui/MainWindow.h"

#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/io/ModelSource.h"
#include "ui/models/NodeTableModel.h"

namespace fwui {

namespace {
constexpr int kMaxRecent = 10;

LoadOutcome loadInBackground(const std::string& spec) {
  LoadOutcome out;
  auto m = fw::loadModel(spec);
  if (!m.ok()) {
    out.error = QString::fromStdString(m.error().message);
    return out;
  }
  out.loaded = std::make_shared<LoadedModel>();
  out.loaded->info = fw::summarizeModel(*m);
  out.loaded->model = std::move(m).value();
  return out;
}

QString html(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Fusion Workbench"));
  setAcceptDrops(true);
  buildUi();
  watcher_ = new QFutureWatcher<LoadOutcome>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &MainWindow::onLoadFinished);
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
}

MainWindow::~MainWindow() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  if (watcher_->isRunning()) watcher_->waitForFinished();
}

void MainWindow::buildUi() {
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
  fileMenu->addAction(tr("&Quit"), qApp, &QApplication::quit)->setShortcut(QKeySequence::Quit);
  updateRecentMenu();

  auto* tb = addToolBar(tr("Main"));
  tb->setObjectName("mainToolbar");
  tb->addAction(openAct);
  filter_ = new QLineEdit;
  filter_->setPlaceholderText(tr("Filter nodes by name or op…"));
  filter_->setClearButtonEnabled(true);
  filter_->setMaximumWidth(320);
  tb->addWidget(filter_);

  nodeModel_ = new NodeTableModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(nodeModel_);
  proxy_->setSortRole(NodeTableModel::SortRole);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterKeyColumn(-1);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

  table_ = new QTableView;
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->setDefaultSectionSize(20);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) {
            if (cur.isValid()) showNode(proxy_->mapToSource(cur).row());
          });

  summary_ = new QLabel;
  summary_->setTextFormat(Qt::RichText);
  summary_->setWordWrap(true);
  summary_->setMargin(6);
  auto* central = new QWidget;
  auto* lay = new QVBoxLayout(central);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->addWidget(summary_);
  lay->addWidget(table_, 1);
  setCentralWidget(central);

  details_ = new QTextBrowser;
  auto* dock = new QDockWidget(tr("Node properties"), this);
  dock->setObjectName("propertiesDock");
  dock->setWidget(details_);
  addDockWidget(Qt::RightDockWidgetArea, dock);

  progress_ = new QProgressBar;
  progress_->setRange(0, 0);
  progress_->setMaximumWidth(160);
  progress_->hide();
  statusBar()->addPermanentWidget(progress_);
  resize(1280, 800);
}

void MainWindow::openModel(const QString& spec) {
  if (watcher_->isRunning()) {
    statusBar()->showMessage(tr("Still loading %1…").arg(pendingSpec_), 3000);
    return;
  }
  pendingSpec_ = spec;
  progress_->show();
  statusBar()->showMessage(tr("Loading %1…").arg(spec));
  watcher_->setFuture(QtConcurrent::run(loadInBackground, spec.toStdString()));
}

void MainWindow::onLoadFinished() {
  progress_->hide();
  LoadOutcome result = watcher_->result();
  if (!result.loaded) {
    const QString msg = result.error;
    statusBar()->showMessage(tr("Could not open %1").arg(pendingSpec_), 5000);
    if (!quietErrors_) QMessageBox::warning(this, tr("Could not open model"), msg);
    emit loadFailed(msg);
    return;
  }
  current_ = std::make_unique<LoadedModel>(std::move(*result.loaded));
  currentSpec_ = pendingSpec_;
  const auto& info = current_->info;
  nodeModel_->setInfo(info);
  table_->resizeColumnsToContents();
  summary_->setText(tr("<b>%1</b> &nbsp; %2 nodes &nbsp;·&nbsp; %3 parameters &nbsp;·&nbsp; %4 GFLOPs "
                       "&nbsp;·&nbsp; inputs: %5")
                        .arg(html(info.source))
                        .arg(info.storedNodes)
                        .arg(QLocale().toString(static_cast<qlonglong>(info.params)))
                        .arg(info.flops / 1e9, 0, 'f', 2)
                        .arg(html(info.inputs.empty() ? "" : info.inputs.front())));
  setWindowTitle(tr("Fusion Workbench — %1").arg(currentSpec_));
  details_->clear();
  if (nodeModel_->rowCount() > 0) table_->selectRow(0);
  addRecent(currentSpec_);
  statusBar()->showMessage(tr("Loaded %1").arg(currentSpec_), 3000);
  emit modelLoaded(currentSpec_);
}

void MainWindow::showNode(int row) {
  const fw::NodeInfo* n = nodeModel_->nodeAt(row);
  if (!n || !current_) return;
  const fw::Node& node = current_->model.graph->node(n->id);
  QString h = QString("<h3>%1</h3><p><b>%2</b>%3</p>")
                  .arg(html(n->name), html(n->opType), n->domain.empty() ? QString() : " (" + html(n->domain) + ")");
  h += "<p><b>Inputs</b><br>";
  for (const auto& s : n->inputs) h += html(s) + "<br>";
  h += "</p><p><b>Outputs</b><br>";
  for (const auto& s : n->outputs) h += html(s) + "<br>";
  h += "</p>";
  if (!node.attrs.empty()) {
    h += "<p><b>Attributes</b><br>";
    for (const auto& a : node.attrs.all()) h += html(a.name) + " = " + html(a.summary()) + "<br>";
    h += "</p>";
  }
  h += QString("<p><b>FLOPs</b> %1<br><b>Bytes</b> in %2, weights %3, out %4</p>")
           .arg(QLocale().toString(n->cost.flops, 'f', 0))
           .arg(QLocale().toString(n->cost.bytesIn, 'f', 0))
           .arg(QLocale().toString(n->cost.weightBytes, 'f', 0))
           .arg(QLocale().toString(n->cost.bytesOut, 'f', 0));
  if (!n->cost.known) h += "<p><i>" + html(n->cost.problem) + "</i></p>";
  details_->setHtml(h);
}

void MainWindow::addRecent(const QString& spec) {
  QSettings s;
  QStringList list = s.value("recentFiles").toStringList();
  list.removeAll(spec);
  list.prepend(spec);
  while (list.size() > kMaxRecent) list.removeLast();
  s.setValue("recentFiles", list);
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

}  // namespace fwui
