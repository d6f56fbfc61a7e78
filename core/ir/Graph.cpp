#include "core/ir/Graph.h"

#include <algorithm>
#include <queue>
#include <unordered_set>

namespace fw {

std::vector<GraphPtr> Node::subgraphs() const {
  std::vector<GraphPtr> out;
  for (const auto& a : attrs.all()) {
    if (a.kind == AttrKind::Graph && a.g) out.push_back(a.g);
    if (a.kind == AttrKind::Graphs)
      for (const auto& g : a.graphs)
        if (g) out.push_back(g);
  }
  return out;
}

std::string Graph::uniqueValueName(const std::string& base) const {
  if (!valueByName_.count(base)) return base;
  for (uint64_t k = 1;; ++k) {
    std::string cand = base + "_" + std::to_string(k);
    if (!valueByName_.count(cand)) return cand;
  }
}

std::string Graph::uniqueNodeName(const std::string& base) {
  return base + "_" + std::to_string(++nameCounter_);
}

ValueId Graph::addValue(const std::string& name, DType dtype, Shape shape) {
  Value v;
  v.id = static_cast<ValueId>(values_.size());
  v.name = uniqueValueName(name.empty() ? std::string("v") : name);
  v.dtype = dtype;
  v.shape = std::move(shape);
  valueByName_.emplace(v.name, v.id);
  values_.push_back(std::move(v));
  return values_.back().id;
}

ValueId Graph::addInput(const std::string& name, DType dtype, Shape shape) {
  ValueId v = addValue(name, dtype, std::move(shape));
  values_[static_cast<size_t>(v)].isGraphInput = true;
  inputs_.push_back(v);
  return v;
}

ValueId Graph::addInitializer(const std::string& name, Tensor t) {
  const DType dt = t.dtype();
  Shape s = Shape::ofInts(t.dims());
  ValueId v = addValue(name, dt, std::move(s));
  values_[static_cast<size_t>(v)].initializer = std::make_shared<const Tensor>(std::move(t));
  return v;
}

NodeId Graph::addNode(const std::string& opType, std::vector<ValueId> inputs,
                      std::vector<ValueId> outputs, Attributes attrs, const std::string& name,
                      const std::string& domain) {
  Node n;
  n.id = static_cast<NodeId>(nodes_.size());
  n.opType = opType;
  n.domain = domain;
  n.name = name.empty() ? uniqueNodeName(opType) : name;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.attrs = std::move(attrs);
  for (ValueId v : n.inputs)
    if (v != kNoId) values_[static_cast<size_t>(v)].consumers.push_back(n.id);
  for (ValueId v : n.outputs)
    if (v != kNoId) values_[static_cast<size_t>(v)].producer = n.id;
  nodes_.push_back(std::move(n));
  hookImplicitInputs(nodes_.back().id);
  return nodes_.back().id;
}

void Graph::collectOuterRefs(const Graph& sub, std::vector<std::string>& names) {
  for (const auto& v : sub.values_)
    if (v.isOuterRef() && (!v.consumers.empty() || v.isGraphOutput)) names.push_back(v.name);
}

void Graph::hookImplicitInputs(NodeId id) {
  std::vector<GraphPtr> subs = nodes_[static_cast<size_t>(id)].subgraphs();
  if (subs.empty()) return;
  std::vector<std::string> names;
  for (const auto& sg : subs) collectOuterRefs(*sg, names);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const auto& name : names) {
    ValueId v = findValue(name);
    // Not defined here: this graph is itself a subgraph and the name comes from further out.
    if (v == kNoId) v = addValue(name);
    nodes_[static_cast<size_t>(id)].implicitInputs.push_back(v);
    values_[static_cast<size_t>(v)].consumers.push_back(id);
  }
}

void Graph::addOutput(ValueId v) {
  outputs_.push_back(v);
  values_[static_cast<size_t>(v)].isGraphOutput = true;
}

void Graph::setOutputs(std::vector<ValueId> outs) {
  for (ValueId v : outputs_) values_[static_cast<size_t>(v)].isGraphOutput = false;
  outputs_ = std::move(outs);
  for (ValueId v : outputs_) values_[static_cast<size_t>(v)].isGraphOutput = true;
}

std::vector<NodeId> Graph::liveNodes() const {
  std::vector<NodeId> out;
  out.reserve(liveNodeCount());
  for (const auto& n : nodes_)
    if (!n.dead) out.push_back(n.id);
  return out;
}

std::vector<ValueId> Graph::initializers() const {
  std::vector<ValueId> out;
  for (const auto& v : values_)
    if (v.initializer) out.push_back(v.id);
  return out;
}

ValueId Graph::findValue(const std::string& name) const {
  auto it = valueByName_.find(name);
  return it == valueByName_.end() ? kNoId : it->second;
}

NodeId Graph::findNode(const std::string& name) const {
  for (const auto& n : nodes_)
    if (!n.dead && n.name == name) return n.id;
  return kNoId;
}

const Tensor* Graph::constantOf(ValueId v) const {
  if (v == kNoId) return nullptr;
  const auto& val = value(v);
  return val.initializer ? val.initializer.get() : nullptr;
}

Result<std::vector<NodeId>> Graph::topoOrder() const {
  std::vector<int32_t> indeg(nodes_.size(), 0);
  for (const auto& n : nodes_) {
    if (n.dead) continue;
    for (const auto* list : {&n.inputs, &n.implicitInputs}) {
      for (ValueId v : *list) {
        if (v == kNoId) continue;
        NodeId p = value(v).producer;
        if (p != kNoId && !node(p).dead) ++indeg[static_cast<size_t>(n.id)];
      }
    }
  }
  // Min-heap on id keeps the order stable (storage order among ready nodes).
  std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
  for (const auto& n : nodes_)
    if (!n.dead && indeg[static_cast<size_t>(n.id)] == 0) ready.push(n.id);
  std::vector<NodeId> order;
  order.reserve(liveNodeCount());
  while (!ready.empty()) {
    NodeId id = ready.top();
    ready.pop();
    order.push_back(id);
    for (ValueId v : node(id).outputs) {
      if (v == kNoId) continue;
      for (NodeId c : value(v).consumers) {
        if (node(c).dead) continue;
        if (--indeg[static_cast<size_t>(c)] == 0) ready.push(c);
      }
    }
  }
  if (order.size() != liveNodeCount()) {
    std::string names;
    int shown = 0;
    for (const auto& n : nodes_) {
      if (n.dead || indeg[static_cast<size_t>(n.id)] == 0) continue;
      if (shown++ < 5) names += (names.empty() ? "" : ", ") + ("'" + n.name + "'");
    }
    const size_t stuck = liveNodeCount() - order.size();
    return Error::badInput("graph '" + name + "' has a cycle: " + std::to_string(stuck) +
                           " nodes never become ready, e.g. " + names);
  }
  return order;
}

void Graph::setNodeInput(NodeId n, size_t index, ValueId v) {
  Node& nd = node(n);
  ValueId old = nd.inputs[index];
  if (old != kNoId) {
    auto& cons = value(old).consumers;
    auto it = std::find(cons.begin(), cons.end(), n);
    if (it != cons.end()) cons.erase(it);
  }
  nd.inputs[index] = v;
  if (v != kNoId) value(v).consumers.push_back(n);
}

GraphPtr renameOuterRef(const Graph& sub, const std::string& oldName, const std::string& newName) {
  auto copy = std::make_shared<Graph>(sub);
  ValueId v = copy->findValue(oldName);
  const ValueId existing = copy->findValue(newName);
  if (v != kNoId && copy->value(v).isOuterRef()) {
    if (existing != kNoId && existing != v && copy->value(existing).isOuterRef()) {
      // The body reads both names already (a scripted export's LayerNorms whose equal weights it shares
      // through an Identity): its readers of the old one read the other, and the old one is left unread.
      copy->replaceAllUses(v, existing);
    } else {
      if (existing != kNoId && existing != v) {
        // A body value of that name (ONNX names are single-assignment across scopes, so a rewrite made the
        // clash): it takes another name, as renameClashes would give it, its own readers' bodies too.
        const std::string moved = copy->uniqueValueName(newName + "_sub");
        copy->renameValue(existing, moved);
        for (NodeId c : copy->value(existing).consumers)
          copy->node(c).attrs = renameOuterRefIn(copy->node(c).attrs, newName, moved);
      }
      copy->renameValue(v, newName);
    }
  }
  // Nested subgraphs may read the same outer name.
  for (const auto& n : copy->nodes()) {
    if (n.dead || n.subgraphs().empty()) continue;
    copy->node(n.id).attrs = renameOuterRefIn(n.attrs, oldName, newName);
  }
  return copy;
}

Attributes renameOuterRefIn(const Attributes& attrs, const std::string& oldName, const std::string& newName) {
  return mapSubgraphs(attrs, [&](const Graph& sub) { return renameOuterRef(sub, oldName, newName); });
}

void Graph::renameValue(ValueId v, const std::string& newName) {
  Value& val = value(v);
  valueByName_.erase(val.name);
  val.name = newName;
  valueByName_[newName] = v;
}

void Graph::setNodeAttributes(NodeId n, Attributes attrs) {
  Node& nd = node(n);
  for (ValueId v : nd.implicitInputs) {
    auto& cons = value(v).consumers;
    auto it = std::find(cons.begin(), cons.end(), n);
    if (it != cons.end()) cons.erase(it);
  }
  nd.implicitInputs.clear();
  nd.attrs = std::move(attrs);
  hookImplicitInputs(n);
}

void Graph::replaceAllUses(ValueId from, ValueId to) {
  if (from == to) return;
  std::vector<NodeId> cons = value(from).consumers;
  std::sort(cons.begin(), cons.end());
  cons.erase(std::unique(cons.begin(), cons.end()), cons.end());
  for (NodeId c : cons) {
    Node& nd = node(c);
    for (size_t i = 0; i < nd.inputs.size(); ++i)
      if (nd.inputs[i] == from) setNodeInput(c, i, to);
    auto it = std::find(nd.implicitInputs.begin(), nd.implicitInputs.end(), from);
    if (it != nd.implicitInputs.end()) {
      // The subgraphs name the value: rename the outer reference inside them.
      nd.attrs = renameOuterRefIn(nd.attrs, value(from).name, value(to).name);
      *it = to;
      auto& fc = value(from).consumers;
      fc.erase(std::find(fc.begin(), fc.end(), c));
      value(to).consumers.push_back(c);
    }
  }
  bool wasOutput = false;
  for (auto& o : outputs_) {
    if (o == from) {
      o = to;
      wasOutput = true;
    }
  }
  if (wasOutput) {
    value(from).isGraphOutput = false;
    value(to).isGraphOutput = true;
  }
}

void Graph::removeNode(NodeId n) {
  Node& nd = node(n);
  if (nd.dead) return;
  for (size_t i = 0; i < nd.inputs.size(); ++i)
    if (nd.inputs[i] != kNoId) setNodeInput(n, i, kNoId);
  for (ValueId v : nd.implicitInputs) {
    auto& cons = value(v).consumers;
    auto it = std::find(cons.begin(), cons.end(), n);
    if (it != cons.end()) cons.erase(it);
  }
  nd.implicitInputs.clear();
  for (ValueId v : nd.outputs)
    if (v != kNoId && value(v).producer == n) value(v).producer = kNoId;
  nd.dead = true;
  ++deadCount_;
}

void Graph::setInitializer(ValueId v, Tensor t) {
  Value& val = value(v);
  val.dtype = t.dtype();
  val.shape = Shape::ofInts(t.dims());
  val.initializer = std::make_shared<const Tensor>(std::move(t));
}

void Graph::removeInitializer(ValueId v) { value(v).initializer.reset(); }

void Graph::compact() {
  auto order = topoOrder();
  std::vector<NodeId> keep = order.ok() ? order.value() : liveNodes();
  // Values referenced by live nodes, graph inputs/outputs and initializers survive (an unused
  // initializer is removed on purpose with removeInitializer(), e.g. by dead-code elimination).
  std::vector<char> used(values_.size(), 0);
  for (NodeId id : keep) {
    for (ValueId v : node(id).inputs)
      if (v != kNoId) used[static_cast<size_t>(v)] = 1;
    for (ValueId v : node(id).outputs)
      if (v != kNoId) used[static_cast<size_t>(v)] = 1;
    for (ValueId v : node(id).implicitInputs) used[static_cast<size_t>(v)] = 1;
  }
  for (ValueId v : inputs_) used[static_cast<size_t>(v)] = 1;
  for (const auto& v : values_)
    if (v.initializer) used[static_cast<size_t>(v.id)] = 1;
  for (ValueId v : outputs_) used[static_cast<size_t>(v)] = 1;

  std::vector<ValueId> vmap(values_.size(), kNoId);
  std::vector<Value> newValues;
  newValues.reserve(values_.size());
  for (auto& v : values_) {
    if (!used[static_cast<size_t>(v.id)]) continue;
    vmap[static_cast<size_t>(v.id)] = static_cast<ValueId>(newValues.size());
    newValues.push_back(std::move(v));
    newValues.back().id = static_cast<ValueId>(newValues.size() - 1);
    newValues.back().producer = kNoId;
    newValues.back().consumers.clear();
  }
  std::vector<Node> newNodes;
  newNodes.reserve(keep.size());
  for (NodeId id : keep) {
    Node n = std::move(nodes_[static_cast<size_t>(id)]);
    n.id = static_cast<NodeId>(newNodes.size());
    for (auto& v : n.inputs)
      if (v != kNoId) v = vmap[static_cast<size_t>(v)];
    for (auto& v : n.outputs)
      if (v != kNoId) v = vmap[static_cast<size_t>(v)];
    for (auto& v : n.implicitInputs) v = vmap[static_cast<size_t>(v)];
    for (ValueId v : n.inputs)
      if (v != kNoId) newValues[static_cast<size_t>(v)].consumers.push_back(n.id);
    for (ValueId v : n.implicitInputs) newValues[static_cast<size_t>(v)].consumers.push_back(n.id);
    for (ValueId v : n.outputs)
      if (v != kNoId) newValues[static_cast<size_t>(v)].producer = n.id;
    newNodes.push_back(std::move(n));
  }
  for (auto& v : inputs_) v = vmap[static_cast<size_t>(v)];
  for (auto& v : outputs_) v = vmap[static_cast<size_t>(v)];
  nodes_ = std::move(newNodes);
  values_ = std::move(newValues);
  deadCount_ = 0;
  valueByName_.clear();
  valueByName_.reserve(values_.size());
  for (const auto& v : values_) valueByName_.emplace(v.name, v.id);
}

std::string Graph::checkConsistency() const {
  for (const auto& n : nodes_) {
    if (n.dead) continue;
    for (ValueId v : n.inputs) {
      if (v == kNoId) continue;
      if (v < 0 || static_cast<size_t>(v) >= values_.size())
        return "node '" + n.name + "' has an input id out of range";
      const auto& cons = value(v).consumers;
      if (std::find(cons.begin(), cons.end(), n.id) == cons.end())
        return "value '" + value(v).name + "' does not list consumer '" + n.name + "'";
    }
    for (ValueId v : n.implicitInputs) {
      const auto& cons = value(v).consumers;
      if (std::find(cons.begin(), cons.end(), n.id) == cons.end())
        return "value '" + value(v).name + "' does not list implicit consumer '" + n.name + "'";
    }
    for (ValueId v : n.outputs) {
      if (v == kNoId) continue;
      if (value(v).producer != n.id)
        return "value '" + value(v).name + "' does not name producer '" + n.name + "'";
    }
  }
  for (const auto& v : values_) {
    for (NodeId c : v.consumers)
      if (node(c).dead) return "value '" + v.name + "' lists dead consumer '" + node(c).name + "'";
    auto it = valueByName_.find(v.name);
    if (it == valueByName_.end() || it->second != v.id) return "value '" + v.name + "' not indexed";
  }
  return {};
}

}  // namespace fw
