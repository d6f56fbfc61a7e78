#include "ui/analysis/Diagrams.h"

#include <unordered_map>

namespace fw {

diagram::Grouping groupingOf(const fusion::FusionResult& r, const sim::SimResult* after) {
  std::unordered_map<std::string, double> us;
  if (after)
    for (const auto& k : after->kernels) us[k.name] = k.durUs;
  diagram::Grouping g;
  g.kernels.reserve(r.kernels.size());
  for (const auto& k : r.kernels) {
    diagram::DiagramKernel dk;
    dk.name = k.name;
    dk.members = k.members;
    dk.unit = k.unit;
    if (auto it = us.find(k.name); it != us.end()) dk.heat = it->second;
    g.kernels.push_back(std::move(dk));
  }
  return g;
}

std::map<std::string, double> nodeHeatOf(const sim::SimResult& before) {
  std::map<std::string, double> heat;
  for (const auto& k : before.kernels) {
    const auto& names = k.origins.empty() ? k.nodes : k.origins;
    for (const auto& n : names) heat[n] += k.durUs / static_cast<double>(names.size());
  }
  return heat;
}

Result<std::string> analysisDot(const Analysis& a, DiagramSide side, bool heat, const diagram::DiagramOptions& opts) {
  diagram::DotStyle style;
  style.color = heat && a.simulated ? diagram::ColorMode::Heat : diagram::ColorMode::ByKind;
  diagram::DiagramOptions withGroups = opts;
  if (!withGroups.hierarchy) withGroups.hierarchy = a.hierarchy;
  diagram::DiagramOptions beforeOpts = withGroups;
  if (a.simulated) beforeOpts.nodeHeat = nodeHeatOf(a.before);
  auto grouping = groupingOf(a.fused, a.simulated ? &a.after : nullptr);
  if (side == DiagramSide::Before || side == DiagramSide::SideBySide) {
    auto before = diagram::buildDiagram(*a.original.graph, nullptr, beforeOpts);
    if (!before.ok()) return before.error();
    if (side == DiagramSide::Before) {
      style.title = "Before: " + a.original.sourcePath;
      return diagram::toDot(*before, style);
    }
    auto after = diagram::buildDiagram(*a.fused.rewritten.graph, &grouping, withGroups);
    if (!after.ok()) return after.error();
    return diagram::toSideBySideDot(*before, *after, style);
  }
  auto after = diagram::buildDiagram(*a.fused.rewritten.graph, &grouping, withGroups);
  if (!after.ok()) return after.error();
  style.title = "After -O" + std::to_string(a.fused.optLevel) + ": " + a.original.sourcePath;
  return diagram::toDot(*after, style);
}

}  // namespace fw
