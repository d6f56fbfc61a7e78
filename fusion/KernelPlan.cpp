#include "fusion/KernelPlan.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "fusion/GraphUtil.h"
#include "fusion/OpTraits.h"

namespace fw::fusion {

std::string kib(double bytes) { return std::to_string(static_cast<int64_t>(std::ceil(bytes / 1024.0))) + " KiB"; }

KernelPlan::KernelPlan(const Graph& g, const FusionOptions& opts) : g_(g), opts_(opts) {
  groupOfNode_.assign(g.nodeCapacity(), -1);
  for (NodeId n : g.liveNodes()) {
    groupOfNode_[static_cast<size_t>(n)] = static_cast<int>(members_.size());
    members_.push_back({n});
    labels_.push_back({});
  }
}

int KernelPlan::groupOf(NodeId n) const { return groupOfNode_[static_cast<size_t>(n)]; }

bool KernelPlan::groupHas(int group, bool (*pred)(const Node&)) const {
  for (NodeId m : members(group))
    if (pred(g_.node(m))) return true;
  return false;
}

std::vector<NodeId> KernelPlan::unionOf(const std::vector<NodeId>& nodes) const {
  std::set<int> groups;
  for (NodeId n : nodes) groups.insert(groupOf(n));
  std::vector<NodeId> out;
  for (int gr : groups) out.insert(out.end(), members(gr).begin(), members(gr).end());
  std::sort(out.begin(), out.end());
  return out;
}

double KernelPlan::valueBytes(ValueId v) const {
  const Value& val = g_.value(v);
  auto n = val.shape.numel();
  if (!n) return 0;
  size_t eb = opts_.hw.elemBytes > 0 && isFloating(val.dtype) ? static_cast<size_t>(opts_.hw.elemBytes)
                                                               : dtypeSize(val.dtype);
  return static_cast<double>(*n) * static_cast<double>(eb ? eb : 4);
}

double KernelPlan::trafficBytes(const std::vector<NodeId>& set) const {
  std::set<ValueId> seen;
  double bytes = 0;
  auto inSet = [&](NodeId n) { return std::binary_search(set.begin(), set.end(), n); };
  for (NodeId m : set) {
    const Node& nd = g_.node(m);
    for (ValueId v : nd.inputs) {
      if (v == kNoId || g_.value(v).initializer || inSet(g_.producerOf(v))) continue;
      if (seen.insert(v).second) bytes += valueBytes(v);
    }
    for (ValueId v : nd.outputs) {
      if (v == kNoId) continue;
      const Value& val = g_.value(v);
      bool leaves = val.isGraphOutput;
      for (NodeId c : val.consumers) leaves = leaves || !inSet(c);
      if (leaves && seen.insert(v).second) bytes += valueBytes(v);
    }
  }
  return bytes;
}

double KernelPlan::workingSetBytes(const std::vector<NodeId>& set) const {
  // A tile is one row of the innermost axis; a reduction needs its whole reduced extent in the tile;
  // a MatMul whose right operand is an activation (attention's K and V) keeps that operand resident.
  double tile = 1, resident = 0;
  std::set<ValueId> touched;
  for (NodeId m : set) {
    const Node& nd = g_.node(m);
    for (ValueId v : nd.inputs)
      if (v != kNoId) touched.insert(v);
    for (ValueId v : nd.outputs)
      if (v != kNoId) touched.insert(v);
    if (nd.inputs.empty() || nd.inputs[0] == kNoId) continue;
    const Shape& in = g_.value(nd.inputs[0]).shape;
    if (!in.isStatic() || in.rank() == 0) continue;
    tile = std::max(tile, static_cast<double>(in.dims.back().value));
    if (opKind(nd.opType) == OpKind::Reduce) {
      double extent = 1;
      auto axes = nd.attrs.getInts("axes");
      if (nd.opType == "Softmax" || nd.opType == "LogSoftmax" || nd.opType == "LayerNormalization") {
        int64_t ax = nd.attrs.intOr("axis", -1);
        if (ax < 0) ax += static_cast<int64_t>(in.rank());
        for (size_t d = static_cast<size_t>(std::max<int64_t>(ax, 0)); d < in.rank(); ++d)
          extent *= static_cast<double>(in.dims[d].value);
      } else if (nd.opType.rfind("Global", 0) == 0) {
        for (size_t d = 2; d < in.rank(); ++d) extent *= static_cast<double>(in.dims[d].value);
      } else {
        std::vector<int64_t> ax = axes.value_or(std::vector<int64_t>{});
        if (ax.empty() && nd.inputs.size() > 1 && isConstant(g_, nd.inputs[1]))
          ax = g_.constantOf(nd.inputs[1])->toInt64s();
        if (ax.empty())
          for (size_t d = 0; d < in.rank(); ++d) ax.push_back(static_cast<int64_t>(d));
        for (int64_t a : ax) {
          if (a < 0) a += static_cast<int64_t>(in.rank());
          if (a >= 0 && static_cast<size_t>(a) < in.rank()) extent *= static_cast<double>(in.dims[static_cast<size_t>(a)].value);
        }
      }
      tile = std::max(tile, extent);
    }
    if ((nd.opType == "MatMul") && nd.inputs.size() == 2 && !g_.value(nd.inputs[1]).initializer) {
      const Shape& b = g_.value(nd.inputs[1]).shape;
      if (b.isStatic() && b.rank() >= 2)
        resident += static_cast<double>(b.dims[b.rank() - 1].value * b.dims[b.rank() - 2].value) *
                    valueBytes(nd.inputs[1]) / std::max<double>(1, static_cast<double>(b.numel().value_or(1)));
    }
  }
  double bytes = resident;
  for (ValueId v : touched) {
    auto n = g_.value(v).shape.numel();
    double elems = n ? std::min(static_cast<double>(*n), tile) : tile;
    double per = n && *n > 0 ? valueBytes(v) / static_cast<double>(*n) : 4;
    if (g_.value(v).initializer && n && *n > tile) continue;  // weights stream through L1, not UB
    bytes += elems * per;
  }
  return bytes;
}

std::string KernelPlan::cycleThrough(const std::vector<NodeId>& set) const {
  // Walk forward from the set's outside consumers; reaching the set again means a cycle. Node ids
  // are topological, so nodes after the set's last member cannot lead back into it.
  const NodeId last = set.back();
  auto inSet = [&](NodeId n) { return std::binary_search(set.begin(), set.end(), n); };
  std::vector<char> seen(g_.nodeCapacity(), 0);
  std::vector<std::pair<NodeId, NodeId>> stack;  // (node, first outside node on the path)
  for (NodeId m : set)
    for (ValueId v : g_.node(m).outputs)
      if (v != kNoId)
        for (NodeId c : g_.value(v).consumers)
          if (!inSet(c) && c < last && !seen[static_cast<size_t>(c)]) {
            seen[static_cast<size_t>(c)] = 1;
            stack.push_back({c, c});
          }
  while (!stack.empty()) {
    auto [n, via] = stack.back();
    stack.pop_back();
    for (ValueId v : g_.node(n).outputs) {
      if (v == kNoId) continue;
      for (NodeId c : g_.value(v).consumers) {
        if (inSet(c)) return g_.node(via).name;
        if (c < last && !seen[static_cast<size_t>(c)]) {
          seen[static_cast<size_t>(c)] = 1;
          stack.push_back({c, via});
        }
      }
    }
  }
  return {};
}

double KernelPlan::heldBytes(const std::vector<NodeId>& set, NodeId* until) const {
  auto inSet = [&](NodeId n) { return std::binary_search(set.begin(), set.end(), n); };
  // The kernel runs after the last producer of its inputs (node ids are topological).
  NodeId ready = kNoId;
  for (NodeId m : set)
    for (ValueId v : g_.node(m).inputs) {
      if (v == kNoId) continue;
      const NodeId p = g_.value(v).producer;
      if (p != kNoId && !inSet(p) && (ready == kNoId || p > ready)) ready = p;
    }
  if (until) *until = ready;
  if (ready == kNoId) return 0;
  std::set<ValueId> held, left;
  for (NodeId m : set) {
    if (m > ready) break;  // runs where it would have run
    for (ValueId v : g_.node(m).inputs) {
      if (v == kNoId) continue;
      const Value& val = g_.value(v);
      if (val.producer == kNoId || inSet(val.producer) || val.isGraphOutput) continue;  // stays anyway
      // Read after the kernel's start anyway (by a later member or another kernel): alive either way.
      const bool readLater = std::any_of(val.consumers.begin(), val.consumers.end(),
                                         [&](NodeId c) { return c > ready && !g_.node(c).dead; });
      if (!readLater) held.insert(v);
    }
    for (ValueId v : g_.node(m).outputs)
      if (v != kNoId && std::any_of(g_.value(v).consumers.begin(), g_.value(v).consumers.end(),
                                    [&](NodeId c) { return c > ready && inSet(c); }))
        left.insert(v);
  }
  double bytes = 0;
  for (ValueId v : held) bytes += valueBytes(v);
  for (ValueId v : left) bytes -= valueBytes(v);
  return std::max(0.0, bytes);
}

std::string KernelPlan::checkMerge(const std::vector<NodeId>& nodes, const std::string& label,
                                   int ruleLevel) const {
  std::set<int> groups;
  for (NodeId n : nodes) groups.insert(groupOf(n));
  if (groups.size() < 2) return "already one kernel";
  std::vector<NodeId> set = unionOf(nodes);
  auto inSet = [&](NodeId n) { return std::binary_search(set.begin(), set.end(), n); };
  if (static_cast<int>(set.size()) > opts_.maxKernelNodes)
    return "kernel size limit " + std::to_string(opts_.maxKernelNodes) + " nodes exceeded";
  int cubes = 0;
  std::string cubeNames;
  for (NodeId m : set) {
    const Node& nd = g_.node(m);
    if (isExcluded(opts_, nd)) return "node '" + nd.name + "' is excluded by the user";
    if (isControlFlow(nd.opType)) return "control flow (" + nd.opType + " '" + nd.name + "') is never fused";
    if (opts_.clusterOpsDisabled.count(nd.opType)) return "op type " + nd.opType + " is disabled for clusters";
    if (isCubeOp(nd.opType)) {
      ++cubes;
      cubeNames += (cubeNames.empty() ? "" : ", ") + nd.opType + " '" + nd.name + "'";
    }
    for (ValueId v : nd.outputs) {
      if (v == kNoId) continue;
      const Value& val = g_.value(v);
      bool usedInside = false, usedOutside = false;
      NodeId outsider = kNoId;
      for (NodeId c : val.consumers) {
        if (inSet(c)) usedInside = true;
        else { usedOutside = true; outsider = c; }
      }
      if (!usedInside) continue;
      if (val.isGraphOutput) return "'" + val.name + "' is a graph output";
      if (usedOutside) return "second consumer '" + g_.node(outsider).name + "' of '" + val.name + "'";
    }
  }
  const int maxCubes = label == "attention" ? 2 : 1;
  if (cubes > maxCubes) return std::to_string(cubes) + " cube ops in one kernel (" + cubeNames + ")";
  if (auto via = cycleThrough(set); !via.empty()) return "would create a cycle through " + via;
  if (opts_.optLevel >= 2 && opts_.hw.ubBytes > 0) {
    const double ws = workingSetBytes(set), ub = static_cast<double>(opts_.hw.ubBytes) * opts_.hw.ubFraction;
    if (ws > ub)
      return "UB " + kib(ub) + (opts_.hw.ubFraction < 1 ? " (" + std::to_string(static_cast<int>(std::round(opts_.hw.ubFraction * 100))) + "% of it)" : std::string()) +
             " exceeded: " + kib(ws);
  }
  if (opts_.optLevel >= 2 && opts_.hw.cacheBytes > 0) {
    // A member that waits for the kernel's last input keeps its own inputs alive until then: a WaveNet's
    // skip sums as one chain of Adds held all 18 layers' skip outputs (17 x 8 MiB) to the end, where apart
    // each Add ran as its layer's output came: the network 207-212 ms against 185-188 without that kernel
    // (the reference executor, 1 thread; set 110, session 77).
    NodeId until = kNoId;
    const double held = heldBytes(set, &until);
    if (held > static_cast<double>(opts_.hw.cacheBytes))
      return "would keep " + kib(held) + " more alive until '" + g_.node(until).name + "' has run (cache " +
             kib(static_cast<double>(opts_.hw.cacheBytes)) + ")";
  }
  if (opts_.optLevel >= 2 && ruleLevel >= 2 && opts_.hw.minTrafficSaving > 0) {
    double before = 0, largest = 0;
    for (int gr : groups) {
      std::vector<NodeId> part = members(gr);
      std::sort(part.begin(), part.end());
      double t = trafficBytes(part);
      before += t;
      largest = std::max(largest, t);
    }
    double after = trafficBytes(set), base = before - largest;
    if (base > 0) {
      double saving = (before - after) / base;
      if (saving + 1e-9 < opts_.hw.minTrafficSaving)
        return "traffic saving " + std::to_string(static_cast<int>(std::round(saving * 100))) +
               "% below threshold " + std::to_string(static_cast<int>(std::round(opts_.hw.minTrafficSaving * 100))) + "%";
    }
  }
  return {};
}

int KernelPlan::merge(const std::vector<NodeId>& nodes, const std::string& label) {
  std::vector<NodeId> set = unionOf(nodes);
  int target = groupOf(set.front());
  std::string keep = label;
  if (keep.empty()) {  // an absorbing rule keeps the pattern of the largest kernel it joins
    size_t best = 0;
    for (NodeId n : nodes) {
      int gr = groupOf(n);
      if (!labels_[static_cast<size_t>(gr)].empty() && members(gr).size() > best) {
        best = members(gr).size();
        keep = labels_[static_cast<size_t>(gr)];
      }
    }
  }
  for (NodeId n : set) {
    int gr = groupOf(n);
    if (gr != target) members_[static_cast<size_t>(gr)].clear();
    groupOfNode_[static_cast<size_t>(n)] = target;
  }
  members_[static_cast<size_t>(target)] = set;
  labels_[static_cast<size_t>(target)] = keep;
  return target;
}

std::vector<Kernel> KernelPlan::kernels() const {
  std::vector<Kernel> out;
  std::vector<std::pair<NodeId, int>> order;  // kernels in the order of their first member
  for (size_t gr = 0; gr < members_.size(); ++gr)
    if (!members_[gr].empty()) order.push_back({members_[gr].front(), static_cast<int>(gr)});
  std::sort(order.begin(), order.end());
  std::set<std::string> used;
  for (auto [first, gr] : order) {
    (void)first;
    Kernel k;
    k.members = members_[static_cast<size_t>(gr)];
    bool cube = false, vec = false, control = false;
    for (NodeId m : k.members) {
      const Node& nd = g_.node(m);
      for (const auto& o : originsOf(nd)) k.origins.push_back(o);
      OpKind kind = opKind(nd.opType, nd.domain);
      if (kind == OpKind::Cube) cube = true;
      else if (kind == OpKind::ControlFlow) control = true;
      else if (!isViewOp(nd.opType)) vec = true;
    }
    k.unit = control ? "control" : cube && vec ? "cube+vector" : cube ? "cube" : vec ? "vector" : "none";
    k.pattern = k.members.size() == 1 ? "single" : labels_[static_cast<size_t>(gr)];
    if (k.pattern.empty()) k.pattern = "fused";
    std::string base = k.members.size() == 1 ? lower(g_.node(k.members[0]).opType) : k.pattern;
    for (auto& c : base)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    k.name = "k" + std::to_string(out.size()) + "_" + base;
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace fw::fusion
