// fwb render MODEL [-O L] [--before F] [--after F] [--side-by-side F] [--collapse DEPTH]
// Draws the model before and/or after fusion with Graphviz. The format follows each file's extension
// (.svg .png .pdf .dot); files are written atomically.
#include <chrono>
#include <cstdio>
#include <optional>

#include "app/fwb/CliCommon.h"

#ifdef FW_HAVE_DIAGRAM
#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"
#include "ui/diagram/Graphviz.h"
#endif

namespace fwcli {

#ifdef FW_HAVE_DIAGRAM

// SEAM for the fusion engine: the kernels the "after" view draws at opt level `level`, as groups of
// node ids of m.graph (the ORIGINAL graph, like the simulator's KernelGroup). Level 0 is one kernel per
// node. Wire -O > 0 to fusion::Pipeline here (kernel name, members, unit "cube"/"vector"/..., optional
// heat = simulated time); until then it is a BadInput error.
fw::Result<fw::diagram::Grouping> groupingFor(const fw::Model& m, int level) {
  if (level < 0) return fw::Error::badInput("-O must be 0 or more, got " + std::to_string(level));
  if (level == 0) return fw::diagram::unfusedGrouping(*m.graph);
  return fw::Error::badInput("-O " + std::to_string(level) +
                             ": fusion engine not available in this build; use -O 0 for the unfused kernels");
}

namespace {

struct RenderArgs {
  ModelArgs model;
  int level = 0;
  std::string before, after, sideBySide;
  int collapse = -1;
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
    auto grouping = groupingFor(*m, a.level);
    if (!grouping.ok()) return fail(grouping.error());
    auto d = fw::diagram::buildDiagram(g, &*grouping, opts);
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
  cmd->add_option("-O,--opt-level", a->level, "fusion level of the after view (0 = one kernel per node)");
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
