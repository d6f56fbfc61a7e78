#include "ui/diagram/Hierarchy.h"

#include <atomic>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace fw::diagram {

namespace {

constexpr size_t kBroadcastReaders = 8;  // a value read by more nodes does not hold a stream live
constexpr size_t kSmallSegment = 3;      // segments below this many nodes merge into their neighbours
constexpr double kMinCoverage = 0.6;     // names: share of nodes that must carry a scope
constexpr double kMinInternal = 0.6;     // names: share of edges that must stay inside a scope

using Comps = std::vector<std::string>;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t p = s.find(sep, start);
    if (p == std::string::npos) p = s.size();
    out.push_back(s.substr(start, p - start));
    start = p + 1;
  }
  return out;
}

// Scope components a node name carries (without the node's own last component).
Comps nameComps(const std::string& name) {
  std::string s = name;
  while (!s.empty() && s.front() == '/') s.erase(s.begin());
  Comps c;
  if (s.find('/') != std::string::npos) {
    c = split(s, '/');
  } else if (s.find('.') != std::string::npos) {
    c = split(s, '.');
  } else {
    // "l17_q_mm", "block3_conv": letters, digits, then '_'
    size_t i = 0;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    const size_t letters = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (letters >= 1 && letters <= 8 && i > letters && i < s.size() && s[i] == '_') return {s.substr(0, i)};
    return {};
  }
  c.pop_back();
  c.erase(std::remove(c.begin(), c.end(), std::string()), c.end());
  return c;
}

std::string prefixKey(const Comps& c, size_t d) {
  std::string k;
  for (size_t i = 0; i < d; ++i) k += c[i] + '\x1f';
  return k;
}

// Are the names' scopes worth showing? Most nodes must carry one, and at the first depth that splits
// the graph, most edges must stay inside a scope (op-type "scopes" scatter every edge).
bool namesUseful(const Graph& g, const std::vector<NodeId>& nodes, const std::vector<Comps>& comps) {
  size_t covered = 0, maxDepth = 0;
  for (NodeId n : nodes) {
    const auto& c = comps[static_cast<size_t>(n)];
    covered += !c.empty();
    maxDepth = std::max(maxDepth, c.size());
  }
  if (nodes.empty() || static_cast<double>(covered) < kMinCoverage * static_cast<double>(nodes.size())) return false;
  for (size_t d = 1; d <= maxDepth; ++d) {
    std::set<std::string> keys;
    for (NodeId n : nodes) {
      const auto& c = comps[static_cast<size_t>(n)];
      if (c.size() >= d) keys.insert(prefixKey(c, d));
      if (keys.size() >= 2) break;
    }
    if (keys.size() < 2) continue;
    size_t inside = 0, total = 0;
    for (NodeId n : nodes) {
      const auto& cv = comps[static_cast<size_t>(n)];
      if (cv.size() < d) continue;
      for (ValueId v : g.node(n).inputs) {
        if (v == kNoId) continue;
        NodeId p = g.producerOf(v);
        if (p == kNoId) continue;
        const auto& cp = comps[static_cast<size_t>(p)];
        if (cp.size() < d) continue;
        ++total;
        inside += std::equal(cv.begin(), cv.begin() + static_cast<long>(d), cp.begin());
      }
    }
    return total > 0 && static_cast<double>(inside) >= kMinInternal * static_cast<double>(total);
  }
  return false;
}

struct Structure {
  size_t series = 0, blocks = 0;
};

// Groups by repeated structure along the topological order `order`; fills comps.
Structure structureComps(const Graph& g, const std::vector<NodeId>& order, const HierarchyOptions& opts,
                         std::vector<Comps>& comps) {
  Structure st;
  const size_t n = order.size();
  if (n < 2) return st;
  std::vector<size_t> pos(g.nodeCapacity(), 0);
  for (size_t i = 0; i < n; ++i) pos[static_cast<size_t>(order[i])] = i;
  // Values live across the gap after position i (streams; broadcast values and constants excluded).
  std::vector<long> diff(n + 1, 0);
  for (size_t vi = 0; vi < g.values().size(); ++vi) {
    const Value& val = g.value(static_cast<ValueId>(vi));
    if (val.initializer) continue;
    std::set<NodeId> readers;
    for (NodeId c : val.consumers)
      if (!g.node(c).dead) readers.insert(c);
    if (readers.size() > kBroadcastReaders || (readers.empty() && !val.isGraphOutput)) continue;
    const NodeId p = g.producerOf(static_cast<ValueId>(vi));
    if (p != kNoId && g.node(p).dead) continue;
    size_t first = p == kNoId ? 0 : pos[static_cast<size_t>(p)];
    size_t last = val.isGraphOutput ? n : first;
    for (NodeId c : readers) last = std::max(last, pos[static_cast<size_t>(c)]);
    if (last <= first) continue;
    ++diff[first];
    --diff[last];
  }
  std::vector<long> live(n - 1);
  long run = 0;
  for (size_t i = 0; i + 1 < n; ++i) live[i] = run += diff[i];
  const size_t lo = n >= 20 ? n / 10 : 0, hi = n >= 20 ? n - n / 10 : n - 1;
  long m = live[lo];
  for (size_t i = lo; i < hi && i < live.size(); ++i) m = std::min(m, live[i]);
  std::vector<std::pair<size_t, size_t>> segs;  // [start, end) in positions
  size_t start = 0;
  for (size_t i = 0; i + 1 < n; ++i)
    if (live[i] <= m) {
      segs.push_back({start, i + 1});
      start = i + 1;
    }
  segs.push_back({start, n});

  // Structural signature of each segment: op types and where each input comes from.
  std::vector<size_t> sig(segs.size());
  for (size_t s = 0; s < segs.size(); ++s) {
    std::string key;
    for (size_t i = segs[s].first; i < segs[s].second; ++i) {
      const Node& nd = g.node(order[i]);
      key += nd.opType + '(';
      for (ValueId v : nd.inputs) {
        NodeId p = v == kNoId ? kNoId : g.producerOf(v);
        if (v == kNoId) key += '-';
        else if (g.value(v).initializer) key += 'c';
        else if (p != kNoId && pos[static_cast<size_t>(p)] >= segs[s].first && pos[static_cast<size_t>(p)] < i)
          key += std::to_string(i - pos[static_cast<size_t>(p)]);
        else key += 'x';
        key += ',';
      }
      key += ')';
    }
    sig[s] = std::hash<std::string>{}(key);
  }
  auto segNodes = [&](size_t a, size_t b) {  // nodes in segments [a, b)
    return segs[b - 1].second - segs[a].first;
  };
  auto assign = [&](size_t a, size_t b, const Comps& c) {
    for (size_t i = segs[a].first; i < segs[b - 1].second; ++i) comps[static_cast<size_t>(order[i])] = c;
  };

  size_t part = 0, block = 0;
  size_t smallStart = SIZE_MAX;  // run of small unrepeated segments
  auto flushSmall = [&](size_t end) {
    if (smallStart == SIZE_MAX) return;
    assign(smallStart, end, {"part " + std::to_string(++part)});
    smallStart = SIZE_MAX;
  };
  for (size_t j = 0; j < segs.size();) {
    size_t bestP = 0, bestR = 1;
    for (size_t p = 1; p <= opts.maxPeriod && j + 2 * p <= segs.size(); ++p) {
      size_t r = 1;
      while (j + (r + 1) * p <= segs.size() && std::equal(sig.begin() + static_cast<long>(j), sig.begin() + static_cast<long>(j + p),
                                                          sig.begin() + static_cast<long>(j + r * p)))
        ++r;
      if (r >= 2 && r * p > bestR * std::max<size_t>(bestP, 1) && segNodes(j, j + p) >= 2) {
        bestP = p;
        bestR = r;
      }
    }
    if (bestP) {
      flushSmall(j);
      ++st.series;
      const std::string name = "blocks " + std::to_string(block) + "-" + std::to_string(block + bestR - 1);
      for (size_t r = 0; r < bestR; ++r, ++block) assign(j + r * bestP, j + (r + 1) * bestP, {name, "block " + std::to_string(block)});
      st.blocks += bestR;
      j += bestP * bestR;
      continue;
    }
    if (segNodes(j, j + 1) >= kSmallSegment) {
      flushSmall(j);
      assign(j, j + 1, {"part " + std::to_string(++part)});
    } else if (smallStart == SIZE_MAX) {
      smallStart = j;
    }
    ++j;
  }
  flushSmall(segs.size());
  return st;
}

// "block 0" .. "block 39" -> "block 0-39"; otherwise "first .. last".
std::string chunkName(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    size_t i = s.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
    return std::make_pair(s.substr(0, i), s.substr(i));
  };
  auto [pa, na] = split(a);
  auto [pb, nb] = split(b);
  if (!na.empty() && !nb.empty() && pa == pb) return pa + na + "-" + nb;
  return a + " .. " + b;
}

// Inserts chunk levels wherever a group has more than maxChildren child groups, and puts the nodes
// directly in a group into numbered runs ("nodes 0-149", topological order) when there are more than
// maxLeaves of them. `members` are in topological order.
void chunk(std::vector<Comps>& comps, const std::vector<NodeId>& members, size_t level, size_t maxChildren,
           size_t maxLeaves) {
  size_t leaves = 0;
  for (NodeId n : members) leaves += comps[static_cast<size_t>(n)].size() == level;
  if (leaves > maxLeaves) {
    size_t k = 0;
    for (NodeId n : members) {
      auto& c = comps[static_cast<size_t>(n)];
      if (c.size() != level) continue;
      const size_t first = k / maxLeaves * maxLeaves;
      c.push_back("nodes " + std::to_string(first) + "-" + std::to_string(std::min(leaves, first + maxLeaves) - 1));
      ++k;
    }
  }
  std::vector<std::string> children;  // in order of first appearance
  std::map<std::string, std::vector<NodeId>> byChild;
  for (NodeId n : members) {
    const auto& c = comps[static_cast<size_t>(n)];
    if (c.size() <= level) continue;
    auto [it, fresh] = byChild.try_emplace(c[level]);
    if (fresh) children.push_back(c[level]);
    it->second.push_back(n);
  }
  if (children.size() > maxChildren) {
    std::map<std::string, std::string> chunkOf;
    for (size_t i = 0; i < children.size(); i += maxChildren) {
      const size_t last = std::min(children.size(), i + maxChildren) - 1;
      const std::string name = chunkName(children[i], children[last]);
      for (size_t k = i; k <= last; ++k) chunkOf[children[k]] = name;
    }
    for (NodeId n : members) {
      auto& c = comps[static_cast<size_t>(n)];
      if (c.size() > level) c.insert(c.begin() + static_cast<long>(level), chunkOf[c[level]]);
    }
    chunk(comps, members, level, maxChildren, maxLeaves);  // the chunks themselves may be too many
    return;
  }
  for (const auto& ch : children) chunk(comps, byChild[ch], level + 1, maxChildren, maxLeaves);
}

}  // namespace

std::string Hierarchy::scopeOf(const Node& n) const {
  if (auto it = scopeByName.find(n.name); it != scopeByName.end()) return it->second;
  for (const auto& o : n.origins)
    if (auto it = scopeByName.find(o); it != scopeByName.end() && !it->second.empty()) return it->second;
  return {};
}

namespace {
std::atomic<size_t> gHierarchyCalls{0};
}  // namespace

size_t buildHierarchyCalls() { return gHierarchyCalls.load(); }

Hierarchy buildHierarchy(const Graph& g, const HierarchyOptions& opts) {
  ++gHierarchyCalls;
  Hierarchy h;
  const auto start = std::chrono::steady_clock::now();
  auto ordered = g.topoOrder();
  const std::vector<NodeId> order = ordered.ok() ? *ordered : g.liveNodes();
  if (order.size() < 2) return h;
  std::vector<Comps> comps(g.nodeCapacity());
  for (NodeId n : order) comps[static_cast<size_t>(n)] = nameComps(g.node(n).name);
  if (namesUseful(g, order, comps)) {
    h.source = "names";
  } else {
    for (auto& c : comps) c.clear();
    Structure st = structureComps(g, order, opts, comps);
    h.source = "structure";
    h.series = st.series;
    h.blocks = st.blocks;
  }
  chunk(comps, order, 0, std::max<size_t>(opts.maxChildren, 2), std::max<size_t>(opts.maxLeaves, 2));
  std::set<std::string> distinct;
  for (NodeId n : order) {
    const auto& c = comps[static_cast<size_t>(n)];
    std::string path;
    for (const auto& x : c) path += (path.empty() ? "" : "/") + x;
    if (!path.empty()) distinct.insert(path);
    if (!g.node(n).name.empty()) h.scopeByName[g.node(n).name] = path;
  }
  h.groups = distinct.size();
  if (h.groups == 0) h.source.clear();
  h.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return h;
}

}  // namespace fw::diagram
