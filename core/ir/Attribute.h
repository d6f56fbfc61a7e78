#pragma once
// Node attributes: every ONNX attribute kind. Sparse tensors and type protos are kept as their
// serialized protobuf bytes so that they round-trip without the IR having to model them.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/Tensor.h"

namespace fw {

class Graph;
using GraphPtr = std::shared_ptr<const Graph>;

enum class AttrKind {
  Float,
  Int,
  String,
  Tensor,
  Graph,
  SparseTensor,
  TypeProto,
  Floats,
  Ints,
  Strings,
  Tensors,
  Graphs,
  SparseTensors,
  TypeProtos,
};

const char* attrKindName(AttrKind k);

struct Attribute {
  std::string name;
  AttrKind kind = AttrKind::Int;
  std::string refAttrName;  // set inside function bodies: value comes from the caller's attribute
  std::string docString;

  float f = 0;
  int64_t i = 0;
  std::string s;  // String; also serialized bytes for SparseTensor / TypeProto
  Tensor t;
  GraphPtr g;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;  // Strings; serialized bytes for SparseTensors / TypeProtos
  std::vector<Tensor> tensors;
  std::vector<GraphPtr> graphs;

  static Attribute makeFloat(std::string n, float v);
  static Attribute makeInt(std::string n, int64_t v);
  static Attribute makeString(std::string n, std::string v);
  static Attribute makeTensor(std::string n, Tensor v);
  static Attribute makeGraph(std::string n, GraphPtr v);
  static Attribute makeFloats(std::string n, std::vector<float> v);
  static Attribute makeInts(std::string n, std::vector<int64_t> v);
  static Attribute makeStrings(std::string n, std::vector<std::string> v);

  std::string summary() const;  // short human text, e.g. "[1,1,1,1]" or "<graph then_branch: 4 nodes>"
};

// A small ordered attribute list; nodes have few attributes, so a vector beats a map.
class Attributes {
 public:
  void set(Attribute a);
  const Attribute* find(std::string_view name) const;
  bool has(std::string_view name) const { return find(name) != nullptr; }
  bool erase(std::string_view name);

  std::optional<int64_t> getInt(std::string_view name) const;
  std::optional<float> getFloat(std::string_view name) const;
  std::optional<std::string> getString(std::string_view name) const;
  std::optional<std::vector<int64_t>> getInts(std::string_view name) const;
  std::optional<std::vector<float>> getFloats(std::string_view name) const;
  const Tensor* getTensor(std::string_view name) const;
  GraphPtr getGraph(std::string_view name) const;

  int64_t intOr(std::string_view name, int64_t def) const { return getInt(name).value_or(def); }
  float floatOr(std::string_view name, float def) const { return getFloat(name).value_or(def); }
  std::string stringOr(std::string_view name, std::string def) const {
    return getString(name).value_or(std::move(def));
  }

  const std::vector<Attribute>& all() const { return attrs_; }
  size_t size() const { return attrs_.size(); }
  bool empty() const { return attrs_.empty(); }

 private:
  std::vector<Attribute> attrs_;
};

// `attrs` with each subgraph (a Graph attribute's, and each of a Graphs attribute's) replaced by `f` of it;
// every other attribute as it was, in its place.
Attributes mapSubgraphs(const Attributes& attrs, const std::function<GraphPtr(const Graph&)>& f);

}  // namespace fw
