#include "ui/diagram/Layered.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

#include "ui/diagram/DotWriter.h"

namespace fw::diagram {

namespace {

constexpr double kCharWidth = 5.6, kLineHeight = 12.5, kPadX = 14.4, kPadY = 6, kGapX = 18, kGapY = 30;

void boxSize(const DiagramBox& b, double& w, double& h) {
  const std::string label = boxLabel(b);
  size_t lines = 1, longest = 0, cur = 0;
  for (char c : label) {
    if (c == '\n') {
      ++lines;
      longest = std::max(longest, cur);
      cur = 0;
    } else {
      ++cur;
    }
  }
  longest = std::max(longest, cur);
  w = std::max(54.0, kCharWidth * static_cast<double>(longest) + kPadX);
  h = std::max(21.6, kLineHeight * static_cast<double>(lines) + kPadY);
}

}  // namespace

Layout layeredLayout(const Diagram& d) {
  const size_t n = d.boxes.size();
  std::vector<std::vector<size_t>> succ(n), pred(n);
  for (const auto& e : d.edges)
    if (e.from < n && e.to < n && e.from != e.to) {
      succ[e.from].push_back(e.to);
      pred[e.to].push_back(e.from);
    }
  // Topological order (Kahn); boxes left in a cycle follow in index order with their in-cycle edges ignored.
  std::vector<size_t> indeg(n), order;
  for (size_t i = 0; i < n; ++i) indeg[i] = pred[i].size();
  std::vector<size_t> ready;
  for (size_t i = n; i-- > 0;)
    if (indeg[i] == 0) ready.push_back(i);
  std::vector<char> placed(n, 0);
  size_t next = 0;
  while (order.size() < n) {
    if (ready.empty()) {  // a cycle: take the lowest unplaced box
      while (placed[next]) ++next;
      ready.push_back(next);
    }
    const size_t b = ready.back();
    ready.pop_back();
    if (placed[b]) continue;
    placed[b] = 1;
    order.push_back(b);
    for (size_t s : succ[b])
      if (!placed[s] && --indeg[s] == 0) ready.push_back(s);
  }
  std::vector<size_t> pos(n);
  for (size_t k = 0; k < n; ++k) pos[order[k]] = k;
  std::vector<size_t> layer(n, 0);
  size_t layers = 0;
  for (size_t b : order) {
    for (size_t p : pred[b])
      if (pos[p] < pos[b]) layer[b] = std::max(layer[b], layer[p] + 1);
    layers = std::max(layers, layer[b] + 1);
  }
  std::vector<std::vector<size_t>> rows(layers);
  for (size_t b : order) rows[layer[b]].push_back(b);

  Layout out;
  std::vector<double> w(n), h(n), x(n, 0), y(n, 0);
  for (size_t i = 0; i < n; ++i) boxSize(d.boxes[i], w[i], h[i]);
  double top = 0, widest = 0;
  std::vector<double> rowWidth(layers, 0);
  for (size_t r = 0; r < layers; ++r) {
    auto& row = rows[r];
    // Order by the mean x of the predecessors already placed (barycenter, one downward sweep).
    std::vector<double> key(row.size());
    for (size_t k = 0; k < row.size(); ++k) {
      double sum = 0;
      int cnt = 0;
      for (size_t p : pred[row[k]])
        if (layer[p] < r) sum += x[p], ++cnt;
      key[k] = cnt ? sum / cnt : static_cast<double>(k) * 1e-3;
    }
    std::vector<size_t> idx(row.size());
    std::iota(idx.begin(), idx.end(), size_t{0});
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
    std::vector<size_t> sorted;
    for (size_t k : idx) sorted.push_back(row[k]);
    row = sorted;
    double rowH = 0, cx = 0;
    for (size_t b : row) {
      x[b] = cx + w[b] / 2;
      cx += w[b] + kGapX;
      rowH = std::max(rowH, h[b]);
    }
    rowWidth[r] = row.empty() ? 0 : cx - kGapX;
    widest = std::max(widest, rowWidth[r]);
    for (size_t b : row) y[b] = top + rowH / 2;
    top += rowH + kGapY;
  }
  for (size_t r = 0; r < layers; ++r)  // centre each layer
    for (size_t b : rows[r]) x[b] += (widest - rowWidth[r]) / 2;
  out.width = widest;
  out.height = std::max(0.0, top - kGapY);
  for (size_t i = 0; i < n; ++i) {
    NodeGeometry g;
    g.name = d.boxes[i].id;
    g.box = static_cast<long>(i);
    g.x = x[i];
    g.y = y[i];
    g.width = w[i];
    g.height = h[i];
    out.nodes.push_back(std::move(g));
  }
  for (const auto& e : d.edges) {
    if (e.from >= n || e.to >= n) continue;
    EdgeGeometry g;
    g.from = d.boxes[e.from].id;
    g.to = d.boxes[e.to].id;
    g.fromBox = static_cast<long>(e.from);
    g.toBox = static_cast<long>(e.to);
    const bool down = y[e.to] > y[e.from];
    const Point a{x[e.from], y[e.from] + (down ? h[e.from] / 2 : -h[e.from] / 2)};
    const Point b{x[e.to], y[e.to] + (down ? -h[e.to] / 2 : h[e.to] / 2)};
    // A straight cubic Bezier: control points on the segment.
    g.points = {a, {a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3}, {a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3}, b};
    g.arrowTip = b;
    out.edges.push_back(std::move(g));
  }
  return out;
}

Result<BudgetedLayout> layoutWithBudget(const Diagram& d, double budgetSeconds) {
  BudgetedLayout out;
  const std::string dot = toDot(d);
  if (auto hit = cachedLayout(dot)) {  // seen before: Graphviz's picture at once
    out.layout = std::move(*hit);
    return out;
  }
  if (budgetSeconds <= 0) {
    FW_ASSIGN_OR_RETURN(out.layout, layoutDot(dot));
    return out;
  }
  struct Shared {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::optional<Result<Layout>> result;
  };
  auto shared = std::make_shared<Shared>();
  std::thread([shared, dot] {
    auto r = layoutDot(dot);  // also fills the layout cache for the next request
    std::lock_guard<std::mutex> lock(shared->m);
    shared->result.emplace(std::move(r));
    shared->done = true;
    shared->cv.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(shared->m);
  if (shared->cv.wait_for(lock, std::chrono::duration<double>(budgetSeconds), [&] { return shared->done; })) {
    if (!shared->result->ok()) return shared->result->error();
    out.layout = std::move(*shared->result).value();
    return out;
  }
  lock.unlock();
  out.layout = layeredLayout(d);
  out.fallback = true;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", budgetSeconds);
  out.note = "Graphviz needed more than " + std::string(secs) + " s for " + std::to_string(d.boxes.size()) +
             " boxes: a simple layered layout is shown (no group frames); Graphviz finishes in the background "
             "and its layout is used when this view is drawn again";
  return out;
}

}  // namespace fw::diagram
