#include "fusion/GraphUtil.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace fw::fusion {

std::vector<std::string> originsOf(const Node& n) {
  if (!n.origins.empty()) return n.origins;
  return {n.name};
}

void addOrigins(Graph& g, NodeId into, const Node& from) {
  Node& n = g.node(into);
  if (n.origins.empty()) n.origins.push_back(n.name);
  for (const auto& o : originsOf(from))
    if (std::find(n.origins.begin(), n.origins.end(), o) == n.origins.end()) n.origins.push_back(o);
}

void appendOrigins(Graph& g, NodeId into, const Node& from) {
  Node& n = g.node(into);
  for (const auto& o : originsOf(from))
    if (std::find(n.origins.begin(), n.origins.end(), o) == n.origins.end()) n.origins.push_back(o);
}

NodeId soleConsumer(const Graph& g, ValueId v) {
  if (v == kNoId) return kNoId;
  const Value& val = g.value(v);
  if (val.isGraphOutput || val.consumers.size() != 1) return kNoId;
  return val.consumers.front();
}

std::string whyNotPrivate(const Graph& g, ValueId v, NodeId expected) {
  const Value& val = g.value(v);
  if (val.isGraphOutput) return "'" + val.name + "' is a graph output";
  for (NodeId c : val.consumers)
    if (c != expected) return "second consumer '" + g.node(c).name + "' of '" + val.name + "'";
  return {};
}

bool isConstant(const Graph& g, ValueId v) {
  return v != kNoId && g.value(v).initializer && !g.value(v).isGraphInput;
}

std::optional<double> scalarConstant(const Graph& g, ValueId v) {
  if (!isConstant(g, v)) return std::nullopt;
  const Tensor& t = *g.value(v).initializer;
  if (t.numel() != 1 || t.dtype() == DType::String) return std::nullopt;
  return t.getDouble(0);
}

bool isScalarConstant(const Graph& g, ValueId v, double expect, double tol) {
  auto s = scalarConstant(g, v);
  return s && std::fabs(*s - expect) <= tol * std::max(1.0, std::fabs(expect));
}

void moveOutput(Graph& g, NodeId node, size_t idx, ValueId v) {
  Node& n = g.node(node);
  ValueId old = n.outputs[idx];
  if (old != kNoId && g.value(old).producer == node) g.value(old).producer = kNoId;
  n.outputs[idx] = v;
  g.value(v).producer = node;
}

ValueId addConstant(Graph& g, const std::string& base, Tensor t) {
  return g.addInitializer(g.uniqueValueName(base), std::move(t));
}

void setInputAt(Graph& g, NodeId n, size_t idx, ValueId v) {
  while (g.node(n).inputs.size() <= idx) g.node(n).inputs.push_back(kNoId);
  g.setNodeInput(n, idx, v);
}

ValueId otherInput(const Node& n, ValueId v) {
  if (n.inputs.size() != 2) return kNoId;
  if (n.inputs[0] == v) return n.inputs[1];
  if (n.inputs[1] == v) return n.inputs[0];
  return kNoId;
}

bool isExcluded(const FusionOptions& o, const Node& n) {
  if (o.excludedNodes.empty()) return false;
  if (o.excludedNodes.count(n.name)) return true;
  for (const auto& s : n.origins)
    if (o.excludedNodes.count(s)) return true;
  return false;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace fw::fusion
