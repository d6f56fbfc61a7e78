// MainWindow: selection linking between the views and tables, and the properties dock's details.
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
  if (settings_.excludedNodes.count(node.name)) h += tr("<p><i>Excluded from fusion by you.</i></p>");
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

}  // namespace fwui
