#include "core/ir/Attribute.h"

#include <sstream>

#include "core/ir/Graph.h"

namespace fw {

const char* attrKindName(AttrKind k) {
  switch (k) {
    case AttrKind::Float: return "float";
    case AttrKind::Int: return "int";
    case AttrKind::String: return "string";
    case AttrKind::Tensor: return "tensor";
    case AttrKind::Graph: return "graph";
    case AttrKind::SparseTensor: return "sparse_tensor";
    case AttrKind::TypeProto: return "type_proto";
    case AttrKind::Floats: return "floats";
    case AttrKind::Ints: return "ints";
    case AttrKind::Strings: return "strings";
    case AttrKind::Tensors: return "tensors";
    case AttrKind::Graphs: return "graphs";
    case AttrKind::SparseTensors: return "sparse_tensors";
    case AttrKind::TypeProtos: return "type_protos";
  }
  return "?";
}

Attribute Attribute::makeFloat(std::string n, float v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::Float;
  a.f = v;
  return a;
}
Attribute Attribute::makeInt(std::string n, int64_t v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::Int;
  a.i = v;
  return a;
}
Attribute Attribute::makeString(std::string n, std::string v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::String;
  a.s = std::move(v);
  return a;
}
Attribute Attribute::makeTensor(std::string n, Tensor v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::Tensor;
  a.t = std::move(v);
  return a;
}
Attribute Attribute::makeGraph(std::string n, GraphPtr v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::Graph;
  a.g = std::move(v);
  return a;
}
Attribute Attribute::makeFloats(std::string n, std::vector<float> v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::Floats;
  a.floats = std::move(v);
  return a;
}
Attribute Attribute::makeInts(std::string n, std::vector<int64_t> v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::Ints;
  a.ints = std::move(v);
  return a;
}
Attribute Attribute::makeStrings(std::string n, std::vector<std::string> v) {
  Attribute a;
  a.name = std::move(n);
  a.kind = AttrKind::Strings;
  a.strings = std::move(v);
  return a;
}

namespace {
template <class T>
std::string joinList(const std::vector<T>& v, size_t maxItems = 8) {
  std::ostringstream os;
  os << "[";
  for (size_t k = 0; k < v.size() && k < maxItems; ++k) os << (k ? "," : "") << v[k];
  if (v.size() > maxItems) os << ",… (" << v.size() << ")";
  os << "]";
  return os.str();
}
std::string tensorSummary(const Tensor& t) {
  std::ostringstream os;
  os << "<" << dtypeName(t.dtype()) << " " << joinList(t.dims()) << ">";
  return os.str();
}
}  // namespace

std::string Attribute::summary() const {
  if (!refAttrName.empty()) return "@" + refAttrName;
  switch (kind) {
    case AttrKind::Float: {
      std::ostringstream os;
      os << f;
      return os.str();
    }
    case AttrKind::Int: return std::to_string(i);
    case AttrKind::String: return "\"" + s + "\"";
    case AttrKind::Tensor: return tensorSummary(t);
    case AttrKind::Graph:
      return "<graph " + (g ? g->name : std::string()) + ": " +
             std::to_string(g ? g->liveNodeCount() : 0) + " nodes>";
    case AttrKind::SparseTensor: return "<sparse tensor>";
    case AttrKind::TypeProto: return "<type>";
    case AttrKind::Floats: return joinList(floats);
    case AttrKind::Ints: return joinList(ints);
    case AttrKind::Strings: return joinList(strings);
    case AttrKind::Tensors: return "<" + std::to_string(tensors.size()) + " tensors>";
    case AttrKind::Graphs: return "<" + std::to_string(graphs.size()) + " graphs>";
    case AttrKind::SparseTensors: return "<" + std::to_string(strings.size()) + " sparse tensors>";
    case AttrKind::TypeProtos: return "<" + std::to_string(strings.size()) + " types>";
  }
  return "?";
}

void Attributes::set(Attribute a) {
  for (auto& x : attrs_) {
    if (x.name == a.name) {
      x = std::move(a);
      return;
    }
  }
  attrs_.push_back(std::move(a));
}

const Attribute* Attributes::find(std::string_view name) const {
  for (const auto& x : attrs_)
    if (x.name == name) return &x;
  return nullptr;
}

bool Attributes::erase(std::string_view name) {
  for (auto it = attrs_.begin(); it != attrs_.end(); ++it) {
    if (it->name == name) {
      attrs_.erase(it);
      return true;
    }
  }
  return false;
}

std::optional<int64_t> Attributes::getInt(std::string_view name) const {
  const Attribute* a = find(name);
  if (!a || a->kind != AttrKind::Int) return std::nullopt;
  return a->i;
}
std::optional<float> Attributes::getFloat(std::string_view name) const {
  const Attribute* a = find(name);
  if (!a || a->kind != AttrKind::Float) return std::nullopt;
  return a->f;
}
std::optional<std::string> Attributes::getString(std::string_view name) const {
  const Attribute* a = find(name);
  if (!a || a->kind != AttrKind::String) return std::nullopt;
  return a->s;
}
std::optional<std::vector<int64_t>> Attributes::getInts(std::string_view name) const {
  const Attribute* a = find(name);
  if (!a || a->kind != AttrKind::Ints) return std::nullopt;
  return a->ints;
}
std::optional<std::vector<float>> Attributes::getFloats(std::string_view name) const {
  const Attribute* a = find(name);
  if (!a || a->kind != AttrKind::Floats) return std::nullopt;
  return a->floats;
}
const Tensor* Attributes::getTensor(std::string_view name) const {
  const Attribute* a = find(name);
  if (!a || a->kind != AttrKind::Tensor) return nullptr;
  return &a->t;
}
GraphPtr Attributes::getGraph(std::string_view name) const {
  const Attribute* a = find(name);
  if (!a || a->kind != AttrKind::Graph) return nullptr;
  return a->g;
}

Attributes mapSubgraphs(const Attributes& attrs, const std::function<GraphPtr(const Graph&)>& f) {
  Attributes out;
  for (Attribute a : attrs.all()) {
    if (a.kind == AttrKind::Graph && a.g) a.g = f(*a.g);
    if (a.kind == AttrKind::Graphs)
      for (auto& sg : a.graphs) sg = f(*sg);
    out.set(std::move(a));
  }
  return out;
}

}  // namespace fw
