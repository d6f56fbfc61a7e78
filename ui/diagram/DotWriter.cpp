#include "ui/diagram/DotWriter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <unordered_set>

namespace fw::diagram {

namespace {

bool in(const std::string& op, std::initializer_list<const char*> list) {
  for (const char* s : list)
    if (op == s) return true;
  return false;
}

struct Rgb {
  int r, g, b;
};

Rgb parseHex(const std::string& c) {
  if (c.size() != 7 || c[0] != '#') return {255, 255, 255};
  auto h = [&](size_t i) { return std::stoi(c.substr(i, 2), nullptr, 16); };
  return {h(1), h(3), h(5)};
}

std::string hex(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::string escapeBody(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      continue;
    else
      out += c;
  }
  return out;
}

void writeBoxes(std::ostringstream& os, const Diagram& d, const DotStyle& style, const char* indent) {
  const double mh = maxHeat(d);
  for (size_t i = 0; i < d.boxes.size(); ++i) {
    const DiagramBox& b = d.boxes[i];
    const std::string fill = fillColor(b, style.color, mh);
    os << indent << dotQuote(style.idPrefix + b.id) << " [label=" << dotQuote(boxLabel(b)) << ", fw_box=" << i
       << ", fillcolor=\"" << fill << "\"";
    const std::string text = textColorOn(fill);
    if (text != "#000000") os << ", fontcolor=\"" << text << "\"";
    if (!b.tooltip.empty()) os << ", tooltip=" << dotQuote(b.tooltip);
    switch (b.kind) {
      case BoxKind::Node: break;
      case BoxKind::Kernel: os << ", style=\"filled\", penwidth=1.4"; break;
      case BoxKind::Scope: os << ", shape=box3d, style=\"filled\""; break;
      case BoxKind::Input:
      case BoxKind::Output: os << ", shape=ellipse, style=\"filled\""; break;
    }
    os << "];\n";
  }
  for (const auto& e : d.edges) {
    os << indent << dotQuote(style.idPrefix + d.boxes[e.from].id) << " -> "
       << dotQuote(style.idPrefix + d.boxes[e.to].id);
    if (!e.label.empty()) {
      os << " [tooltip=" << dotQuote(e.label + (e.count > 1 ? " (+" + std::to_string(e.count - 1) + ")" : ""));
      if (e.count > 1) os << ", penwidth=1.6";
      os << "]";
    }
    os << ";\n";
  }
}

// Above this many boxes, cap dot's x-coordinate network simplex: bert-base (625 boxes) lays out in ~4 s
// instead of ~15 s, with the same ranks and a drawing that is hard to tell apart. Long edges make it
// far worse: a 48-layer encoder with unscoped names (249 kernels, the attention mask read by every
// layer) took over 120 s uncapped and 0.34 s capped (measured 2026-11-23), so the cap starts early.
constexpr size_t kFastLayoutBoxes = 100;

void writeHeader(std::ostringstream& os, const std::string& name, const DotStyle& style, size_t boxes) {
  os << "digraph " << dotQuote(name.empty() ? "graph" : name) << " {\n";
  os << "  graph [rankdir=" << style.rankdir
     << ", nodesep=0.25, ranksep=0.35, fontname=\"Helvetica\", fontsize=12, bgcolor=\"white\"";
  if (boxes > kFastLayoutBoxes) os << ", nslimit=2";
  if (!style.title.empty()) os << ", label=" << dotQuote(style.title) << ", labelloc=t";
  os << "];\n";
  os << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, height=0.3, "
        "margin=\"0.10,0.04\", color=\"#444444\"];\n";
  os << "  edge [arrowsize=0.6, color=\"#555555\"];\n";
}

}  // namespace

std::string opFamilyColor(const std::string& op) {
  if (in(op, {"Conv", "ConvTranspose", "MatMul", "Gemm", "Einsum", "MatMulInteger", "QLinearConv", "QLinearMatMul",
              "LSTM", "GRU", "RNN", "Attention"}))
    return "#aecbfa";
  if (in(op, {"Relu", "Sigmoid", "Tanh", "Gelu", "Erf", "Softmax", "LogSoftmax", "Clip", "LeakyRelu", "HardSwish",
              "HardSigmoid", "Silu", "Elu", "Selu", "PRelu", "Mish", "Softplus"}))
    return "#f6c1b5";
  if (in(op, {"BatchNormalization", "LayerNormalization", "InstanceNormalization", "GroupNormalization",
              "LpNormalization", "SkipLayerNormalization"}))
    return "#b7e1cd";
  if (in(op, {"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "ReduceMean", "ReduceSum", "ReduceMax",
              "ReduceMin", "ReduceProd", "ArgMax", "ArgMin"}))
    return "#cfe8c0";
  if (in(op, {"Reshape", "Transpose", "Concat", "Split", "Slice", "Gather", "GatherElements", "Squeeze", "Unsqueeze",
              "Flatten", "Shape", "Expand", "Resize", "Pad", "Cast", "Identity", "Tile", "ConstantOfShape", "Range",
              "Where", "ScatterND", "DepthToSpace", "SpaceToDepth"}))
    return "#e4e4e4";
  if (in(op, {"Add", "Sub", "Mul", "Div", "Pow", "Sqrt", "Exp", "Log", "Neg", "Abs", "Reciprocal", "Max", "Min",
              "Sum", "Mean", "Equal", "Less", "Greater", "Not", "And", "Or", "Floor", "Ceil"}))
    return "#fbe7a1";
  return "#ffffff";
}

std::string unitColor(const std::string& unit) {
  if (unit == "cube") return "#7fa7f0";
  if (unit == "vector") return "#8fd694";
  if (unit == "cube+vector") return "#b895ea";
  if (unit == "none") return "#dddddd";
  return {};
}

std::string heatColor(double t) {
  if (!(t >= 0)) t = 0;  // also NaN
  t = std::min(1.0, t);
  static const std::array<Rgb, 4> stops{{{255, 255, 204}, {254, 204, 92}, {240, 59, 32}, {150, 0, 38}}};
  const double x = t * (stops.size() - 1);
  const size_t i = std::min(stops.size() - 2, static_cast<size_t>(x));
  const double f = x - static_cast<double>(i);
  auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
  return hex({mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)});
}

double maxHeat(const Diagram& d) {
  double m = 0;
  for (const auto& b : d.boxes)
    if (b.heat) m = std::max(m, *b.heat);
  return m;
}

std::string fillColor(const DiagramBox& b, ColorMode mode, double mh) {
  if (b.kind == BoxKind::Input || b.kind == BoxKind::Output) return "#f2f2f2";
  if (mode == ColorMode::Heat) {
    if (!b.heat) return "#f7f7f7";
    return heatColor(mh > 0 ? *b.heat / mh : 0);
  }
  if (!b.color.empty()) return b.color;
  if (b.kind == BoxKind::Scope) return "#d9d9d9";
  if (b.kind == BoxKind::Kernel) {
    auto u = unitColor(b.unit);
    if (!u.empty()) return u;
  }
  return opFamilyColor(b.opType);
}

std::string textColorOn(const std::string& fill) {
  const Rgb c = parseHex(fill);
  const double lum = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
  return lum < 110 ? "#ffffff" : "#000000";
}

std::string dotQuote(const std::string& s) { return "\"" + escapeBody(s) + "\""; }

std::string boxLabelCore(const DiagramBox& b);

std::string boxLabel(const DiagramBox& b) {
  const std::string core = boxLabelCore(b);
  return b.extractedEdges ? core + "\n-> read by " + std::to_string(b.extractedEdges) + " boxes" : core;
}

std::string boxLabelCore(const DiagramBox& b) {
  switch (b.kind) {
    case BoxKind::Scope: return "[+] " + b.title + "\n" + b.detail + (b.ops.empty() ? "" : "\n" + b.ops);
    case BoxKind::Kernel: {
      std::string second = b.unit.empty() ? b.detail : (b.detail.empty() ? b.unit : b.unit + "  " + b.detail);
      return second.empty() ? b.title : b.title + "\n" + second;
    }
    default: return b.detail.empty() ? b.title : b.title + "\n" + b.detail;
  }
}

std::string toDot(const Diagram& d, const DotStyle& style) {
  std::ostringstream os;
  writeHeader(os, d.graphName, style, d.boxes.size());
  writeBoxes(os, d, style, "  ");
  os << "}\n";
  return os.str();
}

std::string toSideBySideDot(const Diagram& before, const Diagram& after, const DotStyle& style) {
  std::ostringstream os;
  writeHeader(os, before.graphName.empty() ? "before_after" : before.graphName, style,
              before.boxes.size() + after.boxes.size());
  auto half = [&](const Diagram& d, const char* cluster, const char* prefix, const std::string& label) {
    os << "  subgraph " << cluster << " {\n";
    os << "    graph [label=" << dotQuote(label) << ", style=\"rounded\", color=\"#999999\", fontsize=14];\n";
    DotStyle s = style;
    s.idPrefix = prefix;
    writeBoxes(os, d, s, "    ");
    os << "  }\n";
  };
  auto count = [](const Diagram& d, BoxKind k) {
    return std::count_if(d.boxes.begin(), d.boxes.end(), [&](const DiagramBox& b) { return b.kind == k; });
  };
  half(before, "cluster_before", "before:",
       "Before (" + std::to_string(count(before, BoxKind::Node) + count(before, BoxKind::Scope)) + " boxes)");
  half(after, "cluster_after", "after:",
       "After (" + std::to_string(count(after, BoxKind::Kernel) + count(after, BoxKind::Node) +
                                  count(after, BoxKind::Scope)) +
           " boxes)");
  os << "}\n";
  return os.str();
}

}  // namespace fw::diagram
