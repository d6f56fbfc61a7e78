#include "ui/diagram/Expand.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ui/diagram/Graphviz.h"

namespace fw::diagram {

bool insideScope(const DiagramBox& b, const std::string& scope) { return scopeWithin(b.scope, scope); }

namespace {

Point plus(Point p, Point d) { return {p.x + d.x, p.y + d.y}; }

// A curve from the bottom of box a to the top of box b (or top to bottom when b lies above a), with
// vertical tangents at both ends, like the dot engine draws a top-to-bottom edge.
EdgeGeometry freshEdge(const NodeGeometry& a, const NodeGeometry& b) {
  EdgeGeometry e;
  const bool down = b.y >= a.y;
  const double sa = down ? 1 : -1;
  const Point p0{a.x, a.y + sa * a.height / 2};
  const Point tip{b.x, b.y - sa * b.height / 2};
  constexpr double kArrow = 7;
  const Point p3{tip.x, tip.y - sa * kArrow};
  const double bend = std::max(12.0, std::abs(p3.y - p0.y) / 2);
  e.points = {p0, {p0.x, p0.y + sa * bend}, {p3.x, p3.y - sa * bend}, p3};
  e.arrowTip = tip;
  return e;
}

}  // namespace

std::optional<Result<BudgetedLayout>> expandInPlace(const Diagram& prev, const Layout& prevLayout, const Diagram& next,
                                                    const std::string& scope, double budgetSeconds) {
  // The group's box and every placed box of the old picture.
  long groupBox = -1;
  for (size_t i = 0; i < prev.boxes.size(); ++i)
    if (prev.boxes[i].kind == BoxKind::Scope && prev.boxes[i].scope == scope) groupBox = static_cast<long>(i);
  if (groupBox < 0) return std::nullopt;
  std::vector<const NodeGeometry*> placed(prev.boxes.size(), nullptr);
  for (const auto& ng : prevLayout.nodes)
    if (ng.box >= 0 && static_cast<size_t>(ng.box) < prev.boxes.size()) placed[static_cast<size_t>(ng.box)] = &ng;
  const NodeGeometry* group = placed[static_cast<size_t>(groupBox)];
  if (!group) return std::nullopt;
  std::unordered_map<std::string, size_t> prevById;
  prevById.reserve(prev.boxes.size());
  for (size_t i = 0; i < prev.boxes.size(); ++i) prevById.emplace(prev.boxes[i].id, i);

  // Boxes of the new picture: old ones (outside the group) and the group's contents.
  const size_t n = next.boxes.size();
  std::vector<long> oldIndex(n, -1), subIndex(n, -1);
  Diagram sub;
  sub.graphName = next.graphName;
  sub.collapseDepth = next.collapseDepth;
  sub.grouped = next.grouped;
  std::vector<size_t> inner;
  for (size_t j = 0; j < n; ++j) {
    const DiagramBox& b = next.boxes[j];
    if (insideScope(b, scope)) {
      subIndex[j] = static_cast<long>(sub.boxes.size());
      sub.boxes.push_back(b);
      inner.push_back(j);
      continue;
    }
    auto it = prevById.find(b.id);
    if (it == prevById.end() || !placed[it->second] || prev.boxes[it->second].kind != b.kind) return std::nullopt;
    oldIndex[j] = static_cast<long>(it->second);
  }
  if (inner.empty()) return std::nullopt;
  for (const auto& e : next.edges)
    if (e.from < n && e.to < n && subIndex[e.from] >= 0 && subIndex[e.to] >= 0) {
      DiagramEdge se = e;
      se.from = static_cast<size_t>(subIndex[e.from]);
      se.to = static_cast<size_t>(subIndex[e.to]);
      sub.edges.push_back(std::move(se));
    }
  auto contents = layoutWithBudget(sub, budgetSeconds);
  if (!contents.ok()) return Result<BudgetedLayout>(contents.error());

  // Room for the contents: the right side moves right by twice dx, the group's column by dx, the left
  // side stays; everything below the group's centre moves down by dy.
  const Layout& cl = contents->layout;
  const double dx = std::max(0.0, (cl.width - group->width) / 2);
  const double dy = std::max(0.0, cl.height - group->height);
  const double gx = group->x, gy = group->y;
  auto shiftAt = [&](Point p) -> Point {
    return {p.x > gx ? 2 * dx : (p.x < gx ? 0 : dx), p.y > gy ? dy : 0};
  };
  const Point origin{gx + dx - cl.width / 2, gy - group->height / 2};  // the contents' top-left corner

  BudgetedLayout out;
  out.fallback = contents->fallback;
  out.note = contents->note;
  Layout& L = out.layout;
  std::vector<const NodeGeometry*> innerPlaced(sub.boxes.size(), nullptr);
  for (const auto& ng : cl.nodes)
    if (ng.box >= 0 && static_cast<size_t>(ng.box) < sub.boxes.size()) innerPlaced[static_cast<size_t>(ng.box)] = &ng;
  std::vector<NodeGeometry> geo(n);
  std::vector<Point> boxShift(n);
  for (size_t j = 0; j < n; ++j) {
    NodeGeometry g;
    if (oldIndex[j] >= 0) {
      g = *placed[static_cast<size_t>(oldIndex[j])];
      boxShift[j] = shiftAt({g.x, g.y});
      g.x += boxShift[j].x;
      g.y += boxShift[j].y;
    } else {
      const NodeGeometry* c = innerPlaced[static_cast<size_t>(subIndex[j])];
      if (!c) continue;  // Graphviz dropped it: not drawn, like a full layout would
      g = *c;
      g.x += origin.x;
      g.y += origin.y;
    }
    g.name = next.boxes[j].id;
    g.box = static_cast<long>(j);
    geo[j] = g;
    L.nodes.push_back(std::move(g));
  }
  std::vector<char> drawn(n, 0);
  for (const auto& g : L.nodes) drawn[static_cast<size_t>(g.box)] = 1;

  // Old routes between old boxes, by (from id, to id); the contents' routes by their sub-diagram ends.
  std::map<std::pair<long, long>, const EdgeGeometry*> oldRoute, innerRoute;
  for (const auto& eg : prevLayout.edges) oldRoute.emplace(std::make_pair(eg.fromBox, eg.toBox), &eg);
  for (const auto& eg : cl.edges) innerRoute.emplace(std::make_pair(eg.fromBox, eg.toBox), &eg);
  for (const auto& e : next.edges) {
    if (e.from >= n || e.to >= n || !drawn[e.from] || !drawn[e.to]) continue;
    EdgeGeometry eg;
    if (oldIndex[e.from] >= 0 && oldIndex[e.to] >= 0) {
      auto it = oldRoute.find({oldIndex[e.from], oldIndex[e.to]});
      if (it != oldRoute.end() && !it->second->points.empty()) {
        eg = *it->second;
        // The ends (and their tangents) follow their boxes; the route between follows the side it is on.
        const size_t m = eg.points.size();
        for (size_t k = 0; k < m; ++k) {
          const Point s = k < 2 ? boxShift[e.from] : (k + 2 >= m ? boxShift[e.to] : shiftAt(eg.points[k]));
          eg.points[k] = plus(eg.points[k], s);
        }
        if (eg.arrowTip) eg.arrowTip = plus(*eg.arrowTip, boxShift[e.to]);
      } else {
        eg = freshEdge(geo[e.from], geo[e.to]);
      }
    } else if (subIndex[e.from] >= 0 && subIndex[e.to] >= 0) {
      auto it = innerRoute.find({subIndex[e.from], subIndex[e.to]});
      if (it != innerRoute.end() && !it->second->points.empty()) {
        eg = *it->second;
        for (auto& p : eg.points) p = plus(p, origin);
        if (eg.arrowTip) eg.arrowTip = plus(*eg.arrowTip, origin);
      } else {
        eg = freshEdge(geo[e.from], geo[e.to]);
      }
    } else {
      eg = freshEdge(geo[e.from], geo[e.to]);
    }
    eg.from = next.boxes[e.from].id;
    eg.to = next.boxes[e.to].id;
    eg.fromBox = static_cast<long>(e.from);
    eg.toBox = static_cast<long>(e.to);
    L.edges.push_back(std::move(eg));
  }
  L.width = std::max(prevLayout.width + 2 * dx, origin.x + cl.width);
  L.height = std::max(prevLayout.height + dy, origin.y + cl.height);
  return Result<BudgetedLayout>(std::move(out));
}

}  // namespace fw::diagram
