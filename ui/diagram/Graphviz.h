#pragma once
// Graphviz layout and rendering behind plain structs: no Graphviz type leaves ui/diagram/Graphviz.cpp.
// Graphviz is not re-entrant (its parser and layout use globals), so every call takes one process-wide
// mutex for the whole parse -> layout -> read/render -> free sequence; every handle is RAII-owned.
#include <optional>
#include <string>
#include <vector>

#include "core/util/Result.h"

namespace fw::diagram {

enum class Format { Svg, Png, Pdf, Dot };
const char* formatName(Format f);  // "svg", "png", "pdf", "dot"
// From a file name's extension (case-insensitive): .svg .png .pdf .dot/.gv. Otherwise BadInput naming it.
Result<Format> formatFromPath(const std::string& path);

struct Point {
  double x = 0, y = 0;
};

// Geometry in points (1/72 inch), origin top-left, y growing downwards (Graphviz's y is flipped).
struct NodeGeometry {
  std::string name;     // the DOT node id as Graphviz read it
  long box = -1;        // the node's fw_box attribute (Diagram box index), -1 when absent
  double x = 0, y = 0;  // centre
  double width = 0, height = 0;
};

struct EdgeGeometry {
  std::string from, to;
  long fromBox = -1, toBox = -1;
  // Piecewise cubic Bezier: p0, then (c1, c2, p) triples. Empty when Graphviz drew no spline.
  std::vector<Point> points;
  std::optional<Point> arrowTip;   // where the arrowhead at the head end points to
};

struct ClusterGeometry {
  std::string name, label;
  double x = 0, y = 0, width = 0, height = 0;  // top-left corner and size
};

struct Layout {
  double width = 0, height = 0;
  std::vector<NodeGeometry> nodes;
  std::vector<EdgeGeometry> edges;
  std::vector<ClusterGeometry> clusters;
};

// Lays out DOT text with the "dot" engine. BadInput when the DOT does not parse (with Graphviz's message).
// Results are cached by the exact DOT text (the 32 most recent), so a picture seen before is instant.
Result<Layout> layoutDot(const std::string& dot);
// The cached layout of this DOT text, if any (no Graphviz run).
std::optional<Layout> cachedLayout(const std::string& dot);
// The rendered file's bytes. Format::Dot returns the DOT text unchanged (no layout needed).
Result<std::string> renderDot(const std::string& dot, Format format);
// Renders in the format the extension names and writes atomically (temp file in the same folder, rename).
Status renderDotToFile(const std::string& dot, const std::string& path);

// Counters for tests and diagnostics: Graphviz sessions run, and the most that were ever inside the
// Graphviz critical section at once (1 when the mutex does its job).
struct GraphvizStats {
  long sessions = 0;
  int maxConcurrent = 0;
  long layoutCacheHits = 0;  // layoutDot calls answered from the cache
};
GraphvizStats graphvizStats();

}  // namespace fw::diagram
