#pragma once
// Diagrams of an analysis (before, after, side by side) as DOT, shared by `fwb render`, `fwb demo` and
// the GUI's export menu. Qt-free.
#include <map>
#include <string>

#include "ui/analysis/Analysis.h"
#include "ui/diagram/Diagram.h"
#include "ui/diagram/DotWriter.h"

namespace fw {

// One diagram kernel per fusion kernel; heat = simulated time after fusion when `after` is given.
diagram::Grouping groupingOf(const fusion::FusionResult& r, const sim::SimResult* after = nullptr);
// Simulated time per original node name (the before run), for the before view's heat map.
std::map<std::string, double> nodeHeatOf(const sim::SimResult& before);

enum class DiagramSide { Before, After, SideBySide };
// DOT text of the requested view; `heat` colours boxes by simulated time (needs a simulation).
Result<std::string> analysisDot(const Analysis& a, DiagramSide side, bool heat = false,
                                const diagram::DiagramOptions& opts = {});

}  // namespace fw
