// fwb render MODEL [-O L] [fusion switches] [--before F] [--after F] [--side-by-side F] [--collapse DEPTH] [--heat]
//            [--expand all|GROUP ...] [--max-nodes N]
// Draws the model before and/or after fusion with Graphviz, folded by the model's groups (name scopes
// or repeated blocks, ui/diagram/Hierarchy.h) when it has more than --max-nodes boxes. The format follows each file's extension
// (.svg .png .pdf .dot); files are written atomically.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>

#include "app/fwb/CliCommon.h"
#include "ui/analysis/Analysis.h"
#include "ui/analysis/Diagrams.h"
#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"
#include "ui/diagram/Graphviz.h"

namespace fwcli {

namespace {

struct RenderArgs {
  ModelArgs model;
  FusionArgs fusion;
  std::string before, after, sideBySide;
  int collapse = -1;
  bool heat = false;
  std::vector<std::string> expand;  // "all" or group paths
  size_t maxNodes = 500;
};

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

fw::Status writeDiagram(const std::string& dot, const std::string& path, const std::string& what,
                        const fw::diagram::Diagram& d) {
  const auto t0 = std::chrono::steady_clock::now();
  FW_TRY_STATUS(fw::diagram::renderDotToFile(dot, path));
  std::fprintf(stderr, "fwb: wrote %s (%s: %zu boxes, %zu edges, collapse depth %d, %zu nodes folded, %.2f s)\n",
               path.c_str(), what.c_str(), d.boxes.size(), d.edges.size(), d.collapseDepth, d.hiddenNodes, secondsSince(t0));
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
  auto fo = fusionOptionsFromArgs(a.fusion);
  if (!fo.ok()) return fail(fo.error());
  auto pm = prepareModelFromArgs(a.model);
  if (!pm.ok()) return fail(pm.error());
  printShapeNotes(*pm);
  const fw::Model* m = &pm->model;
  if (auto st = checkExcludedNodes(*fo, *m); !st.ok()) return fail(st.error());
  const fw::Graph& g = *m->graph;
  // Fuse (and, for --heat, simulate) exactly as the GUI does.
  fw::AnalysisOptions ao;
  ao.fusion = *fo;
  ao.hw = a.fusion.hw;
  ao.simulate = a.heat;
  ao.trace = pm->shapes.trace;
  auto an = fw::analyze(*m, ao);
  if (!an.ok()) return fail(an.error());
  for (const auto& w : an->warnings) std::fprintf(stderr, "fwb: warning: %s\n", w.c_str());

  {
    const auto& h = *an->hierarchy;
    if (h.source == "structure")
      std::fprintf(stderr, "fwb: groups: %zu by repeated structure (%zu blocks in %zu series), found in %.2f s\n", h.groups,
                   h.blocks, h.series, h.seconds);
    else if (!h.source.empty())
      std::fprintf(stderr, "fwb: groups: %zu from the node names' scopes, found in %.2f s\n", h.groups, h.seconds);
  }
  fw::diagram::DiagramOptions opts;
  opts.collapseDepth = a.collapse;
  opts.hierarchy = an->hierarchy;
  opts.autoCollapseThreshold = a.maxNodes;
  bool expandAll = false;
  for (const auto& e : a.expand) {
    if (e == "all") {
      expandAll = true;
      continue;
    }
    bool known = false;
    std::set<std::string> tops;
    for (const auto& [node, scope] : an->hierarchy->scopeByName) {
      (void)node;
      if (fw::diagram::scopeWithin(scope, e)) known = true;
      if (!scope.empty()) tops.insert(scope.substr(0, scope.find('/')));
    }
    std::string examples;
    for (const auto& t : tops) {
      if (examples.size() > 120) {
        examples += ", ...";
        break;
      }
      examples += (examples.empty() ? "'" : ", '") + t + "'";
    }
    if (!known)
      return failUsage("--expand: '" + e + "' is not a group of this model" +
                       (examples.empty() ? std::string(" (it has no groups)") : "; top-level groups: " + examples));
    // every level down to the group opens
    for (size_t p = e.find('/'); p != std::string::npos; p = e.find('/', p + 1)) opts.expandedScopes.insert(e.substr(0, p));
    opts.expandedScopes.insert(e);
  }
  if (expandAll) {
    opts.collapseDepth = 0;
  } else if (!opts.expandedScopes.empty() && opts.collapseDepth < 0) {
    // Expanding keeps the depth the overview would use, as the GUI does on a double-click.
    fw::diagram::DiagramOptions probe = opts;
    probe.expandedScopes.clear();
    auto d = fw::diagram::buildDiagram(g, nullptr, probe);
    if (!d.ok()) return fail(d.error());
    opts.collapseDepth = d->collapseDepth;
  }
  fw::diagram::DiagramOptions beforeOpts = opts;
  if (an->simulated) beforeOpts.nodeHeat = fw::nodeHeatOf(an->before);
  const std::string name = m->sourcePath.empty() ? a.model.model : m->sourcePath;

  std::optional<fw::diagram::Diagram> before, after;
  if (!a.before.empty() || !a.sideBySide.empty()) {
    auto d = fw::diagram::buildDiagram(g, nullptr, beforeOpts);
    if (!d.ok()) return fail(d.error());
    before = std::move(*d);
  }
  if (!a.after.empty() || !a.sideBySide.empty()) {
    const auto grouping = fw::groupingOf(an->fused, an->simulated ? &an->after : nullptr);
    auto d = fw::diagram::buildDiagram(*an->fused.rewritten.graph, &grouping, opts);
    if (!d.ok()) return fail(d.error());
    after = std::move(*d);
  }
  for (const auto* d : {before ? &*before : nullptr, after ? &*after : nullptr})
    if (d && d->boxes.size() > a.maxNodes && (expandAll || a.collapse >= 0))
      return failUsage("render: " + std::to_string(d->boxes.size()) + " boxes exceed --max-nodes " +
                       std::to_string(a.maxNodes) + "; expand fewer groups (--expand GROUP) or raise --max-nodes");
  if (!a.before.empty()) {
    fw::diagram::DotStyle s;
    if (an->simulated) s.color = fw::diagram::ColorMode::Heat;
    s.title = name + " (before fusion)";
    auto st = writeDiagram(fw::diagram::toDot(*before, s), a.before, "before", *before);
    if (!st.ok()) return fail(st.error());
  }
  if (!a.after.empty()) {
    fw::diagram::DotStyle s;
    if (an->simulated) s.color = fw::diagram::ColorMode::Heat;
    s.title = name + " (after fusion, -O " + std::to_string(fo->optLevel) + ")";
    auto st = writeDiagram(fw::diagram::toDot(*after, s), a.after, "after", *after);
    if (!st.ok()) return fail(st.error());
  }
  if (!a.sideBySide.empty()) {
    fw::diagram::DotStyle s;
    if (an->simulated) s.color = fw::diagram::ColorMode::Heat;
    s.title = name + " (-O " + std::to_string(fo->optLevel) + ")";
    auto st = writeDiagram(fw::diagram::toSideBySideDot(*before, *after, s), a.sideBySide, "side by side", *after);
    if (!st.ok()) return fail(st.error());
  }
  return kOk;
}

}  // namespace

void addRenderCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("render", "Draw the model before/after fusion with Graphviz (.svg .png .pdf .dot)");
  auto a = std::make_shared<RenderArgs>();
  addModelArgs(cmd, a->model);
  addFusionArgs(cmd, a->fusion);
  cmd->add_option("--before", a->before, "draw the original graph to FILE");
  cmd->add_option("--after", a->after, "draw the fused kernels to FILE (one box per kernel, coloured by unit)");
  cmd->add_option("--side-by-side", a->sideBySide, "draw before | after in one FILE");
  cmd->add_option("--collapse", a->collapse,
                  "fold groups deeper than DEPTH into one box (0 = never; default -1 = only when over --max-nodes "
                  "boxes, at the deepest depth that fits)");
  cmd->add_option("--expand", a->expand, "show the inside of these groups (paths as drawn, e.g. 'blocks 0-39/block 3'), "
                                         "or 'all' for no folding; repeatable");
  cmd->add_option("--max-nodes", a->maxNodes, "most boxes one picture shows (folding picks the depth that fits)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--heat", a->heat, "colour boxes by simulated time (simulates on --hw)");
  setRunner(cmd, [a]() { return runRender(*a); });
}

}  // namespace fwcli
