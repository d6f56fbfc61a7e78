#include "ui/diagram/Diagram.h"

#include "ui/diagram/Hierarchy.h"
#include "ui/diagram/WeightForwarders.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace fw::diagram {

const char* boxKindName(BoxKind k) {
  switch (k) {
    case BoxKind::Node: return "node";
    case BoxKind::Kernel: return "kernel";
    case BoxKind::Scope: return "scope";
    case BoxKind::Input: return "input";
    case BoxKind::Output: return "output";
  }
  return "?";
}

std::string scopeOf(const std::string& nodeName) {
  const auto p = nodeName.rfind('/');
  return p == std::string::npos ? std::string() : nodeName.substr(0, p);
}

bool scopeWithin(const std::string& scope, const std::string& group) {
  if (group.empty()) return false;
  return scope == group ||
         (scope.size() > group.size() && scope.compare(0, group.size(), group) == 0 && scope[group.size()] == '/');
}

int scopeDepth(const std::string& scope) {
  if (scope.empty()) return 0;
  return 1 + static_cast<int>(std::count(scope.begin(), scope.end(), '/'));
}

std::string scopePrefix(const std::string& scope, int depth) {
  if (depth <= 0) return {};
  size_t pos = 0;
  for (int i = 0; i < depth; ++i) {
    pos = scope.find('/', pos);
    if (pos == std::string::npos) return scope;
    if (i + 1 < depth) ++pos;
  }
  return scope.substr(0, pos);
}

long Diagram::findBox(const std::string& id) const {
  for (size_t i = 0; i < boxes.size(); ++i)
    if (boxes[i].id == id) return static_cast<long>(i);
  return -1;
}

std::vector<size_t> Diagram::boxesWithMembers(const std::vector<std::string>& nodeNames) const {
  std::unordered_set<std::string> want(nodeNames.begin(), nodeNames.end());
  std::vector<size_t> out;
  for (size_t i = 0; i < boxes.size(); ++i)
    for (const auto& m : boxes[i].memberNames)
      if (want.count(m)) {
        out.push_back(i);
        break;
      }
  return out;
}

Grouping unfusedGrouping(const Graph& g) {
  Grouping out;
  auto order = g.topoOrder();
  const std::vector<NodeId> ids = order.ok() ? *order : g.liveNodes();
  out.kernels.reserve(ids.size());
  for (NodeId n : ids) {
    const Node& node = g.node(n);
    out.kernels.push_back({node.name.empty() ? node.opType + "#" + std::to_string(n) : node.name, {n}, "", {}, ""});
  }
  return out;
}

namespace {

// Pre-fold unit: one node (before view) or one kernel (after view).
struct Unit {
  std::string name;
  BoxKind kind = BoxKind::Node;
  std::vector<NodeId> members;
  std::string scope;
  const DiagramKernel* kernel = nullptr;
  std::vector<NodeId> carried;  // weight forwarders drawn in this unit's box (see weightForwarders)
};

// The group a kernel is drawn in: the scope most of its members have (ties: the earliest member's, in
// topological order). Not their common ancestor: kernels that cross groups (an LSTM's input slice fused
// into step 17's projection, a MatMul merged across 1,000 steps) would pile up, unbounded, directly in
// the ancestor, and opening it would lay out hundreds of them at once.
std::string kernelScope(const std::vector<std::string>& scopes) {
  std::unordered_map<std::string, size_t> count;
  const std::string* best = nullptr;
  size_t bestCount = 0;
  for (const auto& s : scopes) {
    const size_t c = ++count[s];
    if (c > bestCount) {
      best = &s;
      bestCount = c;
    }
  }
  return best ? *best : std::string();
}

// The scope box a unit folds into at fold depth `depth`, or "" when it stays visible.
std::string foldTarget(const std::string& scope, int depth, const std::set<std::string>& expanded) {
  if (depth <= 0) return {};
  const int d = scopeDepth(scope);
  for (int k = depth; k <= d; ++k) {
    std::string p = scopePrefix(scope, k);
    if (!expanded.count(p)) return p;
  }
  return {};
}

// Visible box count at a fold depth (scopes holding one unit are drawn as that unit).
size_t visibleCount(const std::vector<Unit>& units, int depth, const std::set<std::string>& expanded) {
  std::unordered_map<std::string, size_t> perScope;
  size_t plain = 0;
  for (const auto& u : units) {
    auto t = foldTarget(u.scope, depth, expanded);
    if (t.empty())
      ++plain;
    else
      ++perScope[t];
  }
  return plain + perScope.size();
}

std::string shapeText(const Graph& g, ValueId v) {
  if (v == kNoId) return {};
  const std::string s = g.value(v).shape.str();
  return s == "?" ? std::string() : s;
}

std::string joinOps(const std::vector<std::string>& ops) {
  std::string out;
  const size_t shown = ops.size() > 4 ? 3 : ops.size();
  for (size_t i = 0; i < shown; ++i) out += (i ? "+" : "") + ops[i];
  if (shown < ops.size()) out += "+... (" + std::to_string(ops.size()) + " ops)";
  return out;
}

class UniqueIds {
 public:
  std::string take(std::string want) {
    if (want.empty()) want = "_";
    if (used_.insert(want).second) return want;
    for (int i = 2;; ++i) {
      std::string c = want + "#" + std::to_string(i);
      if (used_.insert(c).second) return c;
    }
  }

 private:
  std::unordered_set<std::string> used_;
};

}  // namespace

Result<Diagram> buildDiagram(const Graph& g, const Grouping* grouping, const DiagramOptions& opts) {
  Diagram d;
  d.graphName = g.name;
  d.grouped = grouping != nullptr;

  // Topological rank, for picking a kernel's "last" member and for a stable order.
  std::vector<size_t> rank(g.nodeCapacity(), 0);
  {
    auto order = g.topoOrder();
    const std::vector<NodeId> ids = order.ok() ? *order : g.liveNodes();
    for (size_t i = 0; i < ids.size(); ++i) rank[static_cast<size_t>(ids[i])] = i;
  }

  auto nodeScope = [&](NodeId n) { return opts.hierarchy ? opts.hierarchy->scopeOf(g.node(n)) : scopeOf(g.node(n).name); };

  // 1. Units. Weight forwarders (alone in their unit) join the unit of the node that reads them.
  const std::vector<char> forwarder = weightForwarders(g, rank);
  auto onlyForwarders = [&](const std::vector<NodeId>& ms) {
    for (NodeId n : ms)
      if (n < 0 || static_cast<size_t>(n) >= g.nodeCapacity() || !forwarder[static_cast<size_t>(n)]) return false;
    return !ms.empty();
  };
  std::vector<Unit> units;
  std::vector<long> unitOfNode(g.nodeCapacity(), -1);
  std::vector<NodeId> pendingForwarders;
  if (grouping) {
    for (const auto& k : grouping->kernels) {
      if (onlyForwarders(k.members)) {
        pendingForwarders.insert(pendingForwarders.end(), k.members.begin(), k.members.end());
        continue;
      }
      Unit u{k.name, BoxKind::Kernel, k.members, {}, &k, {}};
      std::vector<std::string> scopes;
      for (NodeId n : k.members) {
        if (n < 0 || static_cast<size_t>(n) >= g.nodeCapacity() || g.node(n).dead)
          return Error::badInput("diagram: kernel '" + k.name + "' lists node id " + std::to_string(n) +
                                 ", which is not a live node of graph '" + g.name + "'");
        auto& slot = unitOfNode[static_cast<size_t>(n)];
        if (slot != -1)
          return Error::badInput("diagram: node '" + g.node(n).name + "' is in kernel '" +
                                 units[static_cast<size_t>(slot)].name + "' and in kernel '" + k.name + "'");
        slot = static_cast<long>(units.size());
      }
      std::sort(u.members.begin(), u.members.end(),
                [&](NodeId a, NodeId b) { return rank[static_cast<size_t>(a)] < rank[static_cast<size_t>(b)]; });
      for (NodeId n : u.members) scopes.push_back(nodeScope(n));
      u.scope = kernelScope(scopes);
      units.push_back(std::move(u));
    }
  }
  for (NodeId n : g.liveNodes()) {
    if (unitOfNode[static_cast<size_t>(n)] != -1) continue;
    if (forwarder[static_cast<size_t>(n)] &&
        std::find(pendingForwarders.begin(), pendingForwarders.end(), n) == pendingForwarders.end()) {
      pendingForwarders.push_back(n);
      continue;
    }
    if (forwarder[static_cast<size_t>(n)]) continue;
    unitOfNode[static_cast<size_t>(n)] = static_cast<long>(units.size());
    units.push_back({g.node(n).name, BoxKind::Node, {n}, nodeScope(n), nullptr, {}});
  }
  std::sort(pendingForwarders.begin(), pendingForwarders.end(),
            [&](NodeId a, NodeId b) { return rank[static_cast<size_t>(a)] < rank[static_cast<size_t>(b)]; });
  std::vector<char> carriedNode(g.nodeCapacity(), 0);
  for (NodeId n : pendingForwarders) {
    const NodeId host = forwarderHost(g, n, forwarder, rank);
    const long hu = host == kNoId ? -1 : unitOfNode[static_cast<size_t>(host)];
    if (hu >= 0) {
      unitOfNode[static_cast<size_t>(n)] = hu;
      carriedNode[static_cast<size_t>(n)] = 1;
      units[static_cast<size_t>(hu)].carried.push_back(n);
    } else {  // nothing reads it but forwarders or outputs: drawn on its own, as before
      unitOfNode[static_cast<size_t>(n)] = static_cast<long>(units.size());
      units.push_back({g.node(n).name, BoxKind::Node, {n}, nodeScope(n), nullptr, {}});
    }
  }

  // 2. Fold depth.
  int depth = opts.collapseDepth;
  if (depth < 0) {
    depth = 0;
    if (units.size() > opts.autoCollapseThreshold) {
      int maxDepth = 0;
      for (const auto& u : units) maxDepth = std::max(maxDepth, scopeDepth(u.scope));
      depth = maxDepth > 0 ? 1 : 0;
      const size_t fit = opts.foldedBoxes ? opts.foldedBoxes : opts.autoCollapseThreshold;
      for (int k = maxDepth; k >= 1; --k)
        if (visibleCount(units, k, opts.expandedScopes) <= fit) {
          depth = k;
          break;
        }
    }
  }
  d.collapseDepth = depth;

  // 3. Boxes. A scope that would hold a single unit is drawn as that unit.
  std::vector<std::string> target(units.size());
  std::unordered_map<std::string, size_t> scopeUnits;
  for (size_t i = 0; i < units.size(); ++i) {
    target[i] = foldTarget(units[i].scope, depth, opts.expandedScopes);
    if (!target[i].empty()) ++scopeUnits[target[i]];
  }
  for (size_t i = 0; i < units.size(); ++i)
    if (!target[i].empty() && scopeUnits[target[i]] < 2) target[i].clear();

  // Boxes in topological order of their first member, so DOT input order is stable and sensible.
  std::vector<size_t> unitOrder(units.size());
  for (size_t i = 0; i < units.size(); ++i) unitOrder[i] = i;
  auto firstRank = [&](const Unit& u) {
    size_t r = SIZE_MAX;
    for (NodeId n : u.members) r = std::min(r, rank[static_cast<size_t>(n)]);
    return r;
  };
  std::stable_sort(unitOrder.begin(), unitOrder.end(),
                   [&](size_t a, size_t b) { return firstRank(units[a]) < firstRank(units[b]); });

  UniqueIds ids;
  std::vector<size_t> boxOfUnit(units.size());
  std::unordered_map<std::string, size_t> scopeBox;
  auto heatOf = [&](const std::vector<NodeId>& members) -> std::optional<double> {
    if (opts.nodeHeat.empty()) return std::nullopt;
    double sum = 0;
    bool any = false;
    for (NodeId n : members) {
      auto it = opts.nodeHeat.find(g.node(n).name);
      if (it != opts.nodeHeat.end()) sum += it->second, any = true;
    }
    return any ? std::optional<double>(sum) : std::nullopt;
  };

  for (size_t ui : unitOrder) {
    const Unit& u = units[ui];
    if (!target[ui].empty()) {
      auto it = scopeBox.find(target[ui]);
      if (it == scopeBox.end()) {
        DiagramBox b;
        b.id = ids.take(target[ui]);
        b.kind = BoxKind::Scope;
        b.title = target[ui];
        b.scope = target[ui];
        it = scopeBox.emplace(target[ui], d.boxes.size()).first;
        d.boxes.push_back(std::move(b));
      }
      DiagramBox& b = d.boxes[it->second];
      std::vector<NodeId> all = u.members;
      all.insert(all.end(), u.carried.begin(), u.carried.end());
      for (NodeId n : all) {
        b.members.push_back(n);
        b.memberNames.push_back(g.node(n).name);
        b.memberOps.push_back(g.node(n).opType);
      }
      if (u.kernel && u.kernel->heat) b.heat = b.heat.value_or(0) + *u.kernel->heat;
      boxOfUnit[ui] = it->second;
      d.hiddenNodes += all.size();
      continue;
    }
    DiagramBox b;
    b.kind = u.kind;
    b.scope = u.scope;
    b.members = u.members;
    b.members.insert(b.members.end(), u.carried.begin(), u.carried.end());
    for (NodeId n : b.members) {
      b.memberNames.push_back(g.node(n).name);
      b.memberOps.push_back(g.node(n).opType);
    }
    const Node& last = g.node(u.members.back());
    b.detail = last.outputs.empty() ? std::string() : shapeText(g, last.outputs.front());
    if (u.kind == BoxKind::Node) {
      const Node& n = g.node(u.members.front());
      b.id = ids.take(n.name.empty() ? n.opType + "#" + std::to_string(n.id) : n.name);
      b.title = n.opType;
      b.opType = n.opType;
      b.tooltip = n.name;
      for (NodeId c : u.carried) b.tooltip += "\n  weight via " + g.node(c).opType + " '" + g.node(c).name + "'";
      b.heat = heatOf(b.members);
    } else {
      b.id = ids.take(u.name);
      std::vector<std::string> ops(b.memberOps.begin(), b.memberOps.begin() + static_cast<long>(u.members.size()));
      b.title = joinOps(ops);
      if (b.memberOps.size() == 1) b.opType = b.memberOps.front();
      b.unit = u.kernel->unit;
      b.color = u.kernel->color;
      b.heat = u.kernel->heat ? u.kernel->heat : heatOf(u.members);
      b.tooltip = u.name;
      for (const auto& m : b.memberNames) b.tooltip += "\n  " + m;
    }
    boxOfUnit[ui] = d.boxes.size();
    d.boxes.push_back(std::move(b));
  }
  std::unordered_map<size_t, size_t> unitsInBox;
  for (size_t ui = 0; ui < units.size(); ++ui)
    if (!target[ui].empty()) ++unitsInBox[boxOfUnit[ui]];
  for (size_t bi = 0; bi < d.boxes.size(); ++bi) {
    auto& b = d.boxes[bi];
    if (b.kind != BoxKind::Scope) continue;
    // A collapsed group says what it holds: node (and kernel) count, its most frequent ops.
    b.detail = (d.grouped ? std::to_string(unitsInBox[bi]) + " kernels, " : std::string()) +
               std::to_string(b.members.size()) + " nodes";
    std::map<std::string, size_t> hist;
    for (const auto& op : b.memberOps) ++hist[op];
    std::vector<std::pair<size_t, std::string>> top;
    for (const auto& [op, c] : hist) top.push_back({c, op});
    std::sort(top.begin(), top.end(), [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
    std::string ops;
    for (size_t i = 0; i < top.size() && i < 4; ++i) ops += (i ? " " : "") + top[i].second + "x" + std::to_string(top[i].first);
    if (top.size() > 4) ops += " ...";
    b.ops = ops;
    b.tooltip = b.scope + " (" + std::to_string(b.members.size()) + " nodes: " + ops + "; double-click to expand)";
    if (!opts.nodeHeat.empty() && !b.heat) b.heat = heatOf(b.members);
  }

  // 4. Edges (deduplicated per box pair).
  std::map<std::pair<size_t, size_t>, size_t> edgeIndex;
  auto addEdge = [&](size_t from, size_t to, const std::string& label) {
    if (from == to) return;
    auto [it, fresh] = edgeIndex.emplace(std::make_pair(from, to), d.edges.size());
    if (fresh)
      d.edges.push_back({from, to, label, 1});
    else
      ++d.edges[it->second].count;
  };
  std::unordered_map<ValueId, size_t> inputBox;
  if (opts.showGraphIO) {
    for (ValueId v : g.inputs()) {
      if (g.value(v).isInitializer()) continue;
      DiagramBox b;
      b.id = ids.take("input:" + g.value(v).name);
      b.kind = BoxKind::Input;
      b.title = g.value(v).name;
      b.detail = shapeText(g, v);
      b.tooltip = "graph input " + g.value(v).name;
      inputBox[v] = d.boxes.size();
      d.boxes.push_back(std::move(b));
    }
  }
  auto boxOfNode = [&](NodeId n) { return boxOfUnit[static_cast<size_t>(unitOfNode[static_cast<size_t>(n)])]; };
  std::vector<NodeId> live = g.liveNodes();
  std::sort(live.begin(), live.end(), [&](NodeId a, NodeId b) { return rank[static_cast<size_t>(a)] < rank[static_cast<size_t>(b)]; });
  for (NodeId n : live) {
    const Node& node = g.node(n);
    const size_t to = boxOfNode(n);
    auto use = [&](ValueId v) {
      if (v == kNoId) return;
      const NodeId p = g.value(v).producer;
      if (p != kNoId && carriedNode[static_cast<size_t>(p)]) {
        return;  // a weight: no edge
      }
      if (p != kNoId && !g.node(p).dead) {
        addEdge(boxOfNode(p), to, g.value(v).name);
      } else if (auto it = inputBox.find(v); it != inputBox.end()) {
        addEdge(it->second, to, g.value(v).name);
      }
    };
    for (ValueId v : node.inputs) use(v);
    for (ValueId v : node.implicitInputs) use(v);
  }
  if (opts.showGraphIO) {
    for (ValueId v : g.outputs()) {
      const NodeId p = g.value(v).producer;
      DiagramBox b;
      b.id = ids.take("output:" + g.value(v).name);
      b.kind = BoxKind::Output;
      b.title = g.value(v).name;
      b.detail = shapeText(g, v);
      b.tooltip = "graph output " + g.value(v).name;
      const size_t idx = d.boxes.size();
      d.boxes.push_back(std::move(b));
      if (p != kNoId && !g.node(p).dead)
        addEdge(boxOfNode(p), idx, g.value(v).name);
      else if (auto it = inputBox.find(v); it != inputBox.end())
        addEdge(it->second, idx, g.value(v).name);
    }
  }
  // 5. High-degree boxes (an attention mask read by every layer): their edges would cross the whole
  // drawing and slow dot down by orders of magnitude, so, as TensorBoard does, the box stays but its
  // fan-out is drawn as a note instead of edges.
  const size_t fanLimit = std::max(opts.highDegreeEdges, d.boxes.size() / 10);
  if (opts.highDegreeEdges > 0) {
    std::vector<size_t> outDeg(d.boxes.size(), 0);
    for (const auto& e : d.edges) ++outDeg[e.from];
    std::vector<DiagramEdge> kept;
    for (const auto& e : d.edges)
      if (outDeg[e.from] <= fanLimit) kept.push_back(e);
    for (size_t b = 0; b < d.boxes.size(); ++b)
      if (outDeg[b] > fanLimit) {
        d.boxes[b].extractedEdges = outDeg[b];
        d.boxes[b].tooltip += "\nread by " + std::to_string(outDeg[b]) + " boxes (edges not drawn)";
      }
    d.edges = std::move(kept);
  }
  return d;
}

}  // namespace fw::diagram
