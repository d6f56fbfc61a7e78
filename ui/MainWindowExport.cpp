// Export menu actions and the graph context menu of the main window.
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include "core/onnx/OnnxIO.h"
#include "core/util/FileUtil.h"
#include "fusion/Export.h"
#include "fusion/Report.h"
#include "simulator/Comparison.h"
#include "ui/MainWindow.h"
#include "ui/analysis/Diagrams.h"
#include "ui/diagram/Graphviz.h"
#include "ui/views/GraphNodeItem.h"
#include "ui/views/GraphView.h"

namespace fwui {

namespace {
QString askPath(QWidget* parent, const QString& title, const QString& suggested, const QString& filter) {
  QSettings s;
  const QString dir = s.value("exportDir", QDir::homePath()).toString();
  QString f = QFileDialog::getSaveFileName(parent, title, dir + "/" + suggested, filter);
  if (!f.isEmpty()) s.setValue("exportDir", QFileInfo(f).absolutePath());
  return f;
}
}  // namespace

void MainWindow::exportDiagram(const QString& which) {
  if (!analysis_) return;
  const QString path = askPath(this, tr("Export diagram"), which + ".svg",
                               tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)"));
  if (path.isEmpty()) return;
  const fw::DiagramSide side = which == "before" ? fw::DiagramSide::Before
                               : which == "after" ? fw::DiagramSide::After
                                                  : fw::DiagramSide::SideBySide;
  auto dot = fw::analysisDot(*analysis_, side, beforeView_->heatMode());
  fw::Status st = dot.ok() ? fw::diagram::renderDotToFile(*dot, path.toStdString()) : fw::Status(dot.error());
  if (!st.ok()) return showError(tr("Export failed"), QString::fromStdString(st.error().message));
  statusBar()->showMessage(tr("Wrote %1").arg(path), 4000);
}

void MainWindow::exportText(const QString& what) {
  if (!analysis_) return;
  const fw::Analysis& a = *analysis_;
  QString path;
  fw::Status st;
  if (what == "onnx") {
    path = askPath(this, tr("Export fused ONNX"), "fused.onnx", tr("ONNX (*.onnx)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).canonicalFilePath() == QFileInfo(QString::fromStdString(a.original.sourcePath)).canonicalFilePath())
      return showError(tr("Export failed"), tr("Refusing to overwrite the input model %1").arg(path));
    // The model's contract is kept: symbolic input dims stay open in the file (fusion/Export.h).
    std::string note;
    auto m = fw::fusion::exportForDeployment(current_ ? current_->source.report.declaredShapes : std::map<std::string, fw::Shape>{},
                                             a.original, a.fused, a.fusionOptions, false, &note);
    st = m.ok() ? fw::saveOnnxFile(*m, path.toStdString()) : fw::Status(m.error());
    if (st.ok() && !note.empty()) {
      statusBar()->showMessage(tr("Wrote %1; %2").arg(path, QString::fromStdString(note)), 8000);
      return;
    }
  } else if (what == "report") {
    path = askPath(this, tr("Export report"), "report.json", tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    nlohmann::json j = fw::fusion::reportJson(a.fused);
    if (a.simulated) {
      j["simulation"]["before"] = fw::sim::toJson(a.before);
      j["simulation"]["after"] = fw::sim::toJson(a.after);
    }
    j["verification"] = proofJson();
    // The binding the analysis ran at, beside the shapes the file declares.
    for (fw::ValueId id : a.original.graph->inputs()) {
      const fw::Value& v = a.original.graph->value(id);
      if (v.initializer) continue;
      j["shapes"]["inputs"][v.name] = v.shape.str();
      if (current_)
        if (auto it = current_->source.report.declaredShapes.find(v.name); it != current_->source.report.declaredShapes.end())
          j["shapes"]["declared"][v.name] = it->second.str();
    }
    st = fw::writeFileAtomic(path.toStdString(), j.dump(2) + "\n");
  } else if (!a.simulated) {
    return showError(tr("Export failed"), tr("There is no simulation to export."));
  } else if (what == "csv") {
    path = askPath(this, tr("Export timing CSV"), "timing.csv", tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    st = fw::writeFileAtomic(path.toStdString(), fw::sim::comparisonCsv(fw::sim::compareRuns(a.before, a.after)));
  } else if (what == "trace") {
    path = askPath(this, tr("Export Chrome trace"), "trace.json", tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    st = fw::sim::writeChromeTrace(path.toStdString(), a.after);
  }
  if (!st.ok()) return showError(tr("Export failed"), QString::fromStdString(st.error().message));
  statusBar()->showMessage(tr("Wrote %1").arg(path), 4000);
}

void MainWindow::graphContextMenu(GraphView* view, const QPoint& pos) {
  auto* item = dynamic_cast<GraphNodeItem*>(view->itemAt(pos));
  if (!item || item->memberNames().isEmpty() || !current_) return;
  // The after view draws rewritten nodes: exclusion works on the original names they stand for.
  QStringList originals;
  if (view == afterView_ && analysis_) {
    const fw::Graph& rg = *analysis_->fused.rewritten.graph;
    for (const QString& n : item->memberNames()) {
      const fw::NodeId id = rg.findNode(n.toStdString());
      if (id == fw::kNoId) continue;
      const auto& o = rg.node(id).origins;
      if (o.empty()) originals << n;
      for (const auto& s : o) originals << QString::fromStdString(s);
    }
  } else {
    originals = item->memberNames();
  }
  originals.removeDuplicates();
  if (originals.isEmpty()) return;
  QMenu menu(this);
  const bool allExcluded = std::all_of(originals.begin(), originals.end(),
                                       [&](const QString& n) { return settings_.excludedNodes.count(n.toStdString()) > 0; });
  const QString label = originals.size() == 1 ? originals.front() : tr("%1 nodes").arg(originals.size());
  QAction* act = menu.addAction(allExcluded ? tr("Include %1 in fusion").arg(label) : tr("Exclude %1 from fusion").arg(label));
  if (menu.exec(view->mapToGlobal(pos)) != act) return;
  fw::AnalysisSettings next = settings_;
  for (const QString& n : originals) next.excludeNode(n.toStdString(), !allExcluded);
  if (storeSettings(next)) recompute();
}

}  // namespace fwui
