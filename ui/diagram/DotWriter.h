#pragma once
// Diagram -> DOT text, and the colours every renderer (Graphviz, the Qt view) uses. Ids in the DOT are the
// box ids (node names); each node also carries `fw_box=<index>` so a layout maps back to the Diagram even
// when a name needs escaping.
#include <string>

#include "ui/diagram/Diagram.h"

namespace fw::diagram {

// ByKind: nodes by op family, kernels by unit (or op family when the unit is unknown), scopes grey.
// Heat: by the box's heat value relative to the diagram's largest one.
enum class ColorMode { ByKind, Heat };

struct DotStyle {
  ColorMode color = ColorMode::ByKind;
  std::string rankdir = "TB";
  std::string title;     // graph label; empty: none
  std::string idPrefix;  // prepended to every node id (side-by-side uses "before:" / "after:")
};

// "#rrggbb" fill colours.
std::string opFamilyColor(const std::string& opType);
std::string unitColor(const std::string& unit);  // "" when the unit is unknown
std::string heatColor(double t);                  // t in [0, 1]
double maxHeat(const Diagram& d);
std::string fillColor(const DiagramBox& b, ColorMode mode, double maxHeat);
// Text colour readable on `fill` ("#000000" or "#ffffff").
std::string textColorOn(const std::string& fill);

// A quoted DOT string: quotes, backslashes and newlines escaped.
std::string dotQuote(const std::string& s);
// The label text of a box, lines separated by '\n' (unescaped).
std::string boxLabel(const DiagramBox& b);

std::string toDot(const Diagram& d, const DotStyle& style = {});
// One DOT with two clusters, "Before" on the left and "After" on the right; node ids are prefixed
// "before:" and "after:" so both halves can hold the same names.
std::string toSideBySideDot(const Diagram& before, const Diagram& after, const DotStyle& style = {});

}  // namespace fw::diagram
