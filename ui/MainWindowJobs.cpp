// MainWindow: the background jobs — loading a model, and one analysis (bind, fuse, simulate, derive
// the rows, heat and grouping the widgets show). They run on QtConcurrent's pool and never touch a
// widget.
#include <QElapsedTimer>
#include <QObject>

#include "core/io/ModelSource.h"
#include "core/io/Prepare.h"
#include "simulator/Comparison.h"
#include "ui/MainWindowInternal.h"
#include "ui/analysis/Diagrams.h"

namespace fwui {

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
                                    std::shared_ptr<std::atomic<bool>> cancel,
                                    std::shared_ptr<const fw::sim::MeasuredRun> measured) {
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
    if (measured)
      out.accuracy = std::make_shared<const fw::sim::Accuracy>(fw::sim::accuracy(an.after, *measured, an.hw));
  }
  out.grouping = fw::groupingOf(an.fused, an.simulated ? &an.after : nullptr);
  out.work = fw::estimateRun(an.original, fw::kDefaultExecutorFlops);
  return out;
}

}  // namespace fwui
