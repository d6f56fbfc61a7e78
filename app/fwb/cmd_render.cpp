// fwb render MODEL [-O L] [--before F] [--after F] [--side-by-side F] [--collapse DEPTH]
// Draws the model before and/or after fusion with Graphviz. The format follows each file's extension
// (.svg .png .pdf .dot); files are written atomically.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "app/fwb/CliCommon.h"

#ifdef FW_HAVE_DIAGRAM
#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"
#include "ui/diagram/Graphviz.h"
#include "fusion/Pipeline.h"
#include "simulator/HwProfile.h"
#endif

namespace fwcli {

#ifdef FW_HAVE_DIAGRAM

// What the "after" view draws: a graph and its kernels (members are node ids of `graph`).
struct AfterView {
  std::shared_ptr<const fw::Graph> graph;
  fw::diagram::Grouping grouping;
};

// SEAM to the fusion engine: the kernels the "after" view draws at opt level `level`. Level 0 is one
// kernel per node of the original graph; above it, fusion::fuseModel's kernels over its rewritten graph
// (kernel members index FusionResult::rewritten, not the original). Default options and hardware profile;
// pass the fuse verb's options (--config, --flags, --hw, ...) here when render grows them.
fw::Result<AfterView> groupingFor(const fw::Model& m, int level, const std::string& hwName) {
  if (level < 0 || level > 3) return fw::Error::badInput("-O must be 0..3, got " + std::to_string(level));
  if (level == 0) return AfterView{m.graph, fw::diagram::unfusedGrouping(*m.graph)};
  fw::fusion::FusionOptions o;
  o.optLevel = level;
  FW_ASSIGN_OR_RETURN(auto hw, fw::sim::resolveHwProfile(hwName));
  o.hw.ubBytes = hw.ubBytes;
  o.hw.elemBytes = static_cast<int64_t>(hw.elemBytes());
  FW_ASSIGN_OR_RETURN(fw::fusion::FusionResult r, fw::fusion::fuseModel(m, o));
  AfterView v;
  v.graph = r.rewritten.graph;
  for (const auto& k : r.kernels) v.grouping.kernels.push_back({k.name, k.members, k.unit, std::nullopt, ""});
  return v;
}

namespace {

struct RenderArgs {
  ModelArgs model;
  int level = 2;
  std::string before, after, sideBySide;
  int collapse = -1;
  std::string hw = fw::sim::defaultHwProfileName();
};

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

fw::Status writeDiagram(const std::string& dot, const std::string& path, const std::string& what,
                        const fw::diagram::Diagram& d) {
  const auto t0 = std::chrono::steady_clock::now();
  FW_TRY_STATUS(fw::diagram::renderDotToFile(dot, path));
  std::fprintf(stderr, "fwb: wrote %s (%s: %zu boxes, %zu edges, collapse depth %d, %.2f s)\n", path.c_str(),
               what.c_str(), d.boxes.size(), d.edges.size(), d.collapseDepth, secondsSince(t0));
  return {};
}

int runRender(const RenderArgs& a) {
  if (a.before.empty() && a.after.empty() && a.sideBySide.empty())
    return failUsage("render: nothing to do; give --before FILE, --after FILE and/or --side-by-side FILE");
  if (a.collapse < -1) return failUsage("--collapse must be -1 (auto), 0 (never) or a scope depth");
  for (const auto* f : {&a.before, &a.after, &a.sideBySide}) {
    if (f->empty()) continue;
    auto fmt = fw::diagram::formatFromPath(*f);
    if (!fmt.ok()) return fail(fmt.error());
  }
  auto m = loadModelFromArgs(a.model);
  if (!m.ok()) return fail(m.error());
  const fw::Graph& g = *m->graph;

  fw::diagram::DiagramOptions opts;
  opts.collapseDepth = a.collapse;
  const std::string name = m->sourcePath.empty() ? a.model.model : m->sourcePath;

  std::optional<fw::diagram::Diagram> before, after;
  if (!a.before.empty() || !a.sideBySide.empty()) {
    auto d = fw::diagram::buildDiagram(g, nullptr, opts);
    if (!d.ok()) return fail(d.error());
    before = std::move(*d);
  }
  if (!a.after.empty() || !a.sideBySide.empty()) {
    auto view = groupingFor(*m, a.level, a.hw);
    if (!view.ok()) return fail(view.error());
    auto d = fw::diagram::buildDiagram(*view->graph, &view->grouping, opts);
    if (!d.ok()) return fail(d.error());
    after = std::move(*d);
  }
  if (!a.before.empty()) {
    fw::diagram::DotStyle s;
    s.title = name + " (before fusion)";
    auto st = writeDiagram(fw::diagram::toDot(*before, s), a.before, "before", *before);
    if (!st.ok()) return fail(st.error());
  }
  if (!a.after.empty()) {
    fw::diagram::DotStyle s;
    s.title = name + " (after fusion, -O " + std::to_string(a.level) + ")";
    auto st = writeDiagram(fw::diagram::toDot(*after, s), a.after, "after", *after);
    if (!st.ok()) return fail(st.error());
  }
  if (!a.sideBySide.empty()) {
    fw::diagram::DotStyle s;
    s.title = name + " (-O " + std::to_string(a.level) + ")";
    auto st = writeDiagram(fw::diagram::toSideBySideDot(*before, *after, s), a.sideBySide, "side by side", *after);
    if (!st.ok()) return fail(st.error());
  }
  return kOk;
}

}  // namespace

#endif  // FW_HAVE_DIAGRAM

void addRenderCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("render", "Draw the model before/after fusion with Graphviz (.svg .png .pdf .dot)");
  auto a = std::make_shared<
#ifdef FW_HAVE_DIAGRAM
      RenderArgs
#else
      ModelArgs
#endif
      >();
#ifdef FW_HAVE_DIAGRAM
  addModelArgs(cmd, a->model);
  cmd->add_option("-O,--opt-level", a->level, "fusion level 0-3 of the after view (0 = one kernel per node)")
      ->capture_default_str();
  cmd->add_option("--hw", a->hw, "hardware profile NAME or FILE.json for fusion (Unified Buffer size)")
      ->capture_default_str();
  cmd->add_option("--before", a->before, "draw the original graph to FILE");
  cmd->add_option("--after", a->after, "draw the fused kernels to FILE (one box per kernel, coloured by unit)");
  cmd->add_option("--side-by-side", a->sideBySide, "draw before | after in one FILE");
  cmd->add_option("--collapse", a->collapse,
                  "fold name scopes deeper than DEPTH into one box (0 = never; default -1 = only when over ~1500 "
                  "boxes)");
  setRunner(cmd, [a]() { return runRender(*a); });
#else
  addModelArgs(cmd, *a);
  cmd->allow_extras();
  setRunner(cmd, []() {
    return fail(fw::Error::internal("render: this fwb was built without Graphviz (libgvc); rebuild with it"));
  });
#endif
}

}  // namespace fwcli
