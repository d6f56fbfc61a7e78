#pragma once
// The graph IR. Nodes and values live in flat vectors addressed by integer ids; removing a node marks
// it dead (ids stay valid) until compact(). Initializer data is shared (TensorPtr), so copying a Graph
// copies only the topology: a 100k-node graph copies in milliseconds. Model wraps a Graph in a
// shared_ptr<const Graph> for copy-on-write between pipeline stages.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/Attribute.h"
#include "core/ir/DType.h"
#include "core/ir/Shape.h"
#include "core/ir/Tensor.h"
#include "core/util/Result.h"

namespace fw {

using NodeId = int32_t;
using ValueId = int32_t;
inline constexpr int32_t kNoId = -1;

struct Value {
  ValueId id = kNoId;
  std::string name;
  DType dtype = DType::Undefined;
  Shape shape;
  NodeId producer = kNoId;          // kNoId: graph input, initializer or outer-scope reference
  std::vector<NodeId> consumers;    // one entry per use (a node using a value twice appears twice)
  TensorPtr initializer;            // set for weights/constants
  bool isGraphInput = false;        // a runtime input of this graph
  bool isGraphOutput = false;
  std::string docString;
  std::string opaqueType;           // serialized onnx TypeProto for non-tensor types (sequence, map…)
  // The static shape came from the traced run (core/shape/ShapeResolve.h): it depends on the data,
  // so it is never folded into a constant and never written into an exported file.
  bool shapeFromTrace = false;

  bool isInitializer() const { return initializer != nullptr; }
  // A subgraph may read values of its enclosing graph by name.
  bool isOuterRef() const { return producer == kNoId && !isGraphInput && !initializer; }
};

struct Node {
  NodeId id = kNoId;
  std::string name;
  std::string opType;
  std::string domain;              // "" = ai.onnx
  std::vector<ValueId> inputs;     // kNoId marks an omitted optional input
  std::vector<ValueId> outputs;    // kNoId marks an omitted optional output
  // Values of this graph that the node's subgraphs read by name (outer-scope references). They are
  // uses like any input: they order the node after their producers and keep them alive.
  std::vector<ValueId> implicitInputs;
  Attributes attrs;
  std::string docString;
  // Provenance: names of the nodes of the imported model this node stands for (set by rewrites that
  // merge or replace nodes; empty means the node is itself an original node).
  std::vector<std::string> origins;
  bool dead = false;

  // Subgraphs held by attributes (If/Loop/Scan bodies).
  std::vector<GraphPtr> subgraphs() const;
};

class Graph {
 public:
  std::string name;
  std::string docString;

  // --- construction -------------------------------------------------------------------------
  // Adds a value with a unique name (the name is made unique with a suffix if taken).
  ValueId addValue(const std::string& name, DType dtype = DType::Undefined, Shape shape = {});
  ValueId addInput(const std::string& name, DType dtype, Shape shape);
  ValueId addInitializer(const std::string& name, Tensor t);
  NodeId addNode(const std::string& opType, std::vector<ValueId> inputs, std::vector<ValueId> outputs,
                 Attributes attrs = {}, const std::string& name = {}, const std::string& domain = {});
  void addOutput(ValueId v);
  void setOutputs(std::vector<ValueId> outs);

  // --- queries ------------------------------------------------------------------------------
  const Node& node(NodeId id) const { return nodes_[static_cast<size_t>(id)]; }
  Node& node(NodeId id) { return nodes_[static_cast<size_t>(id)]; }
  const Value& value(ValueId id) const { return values_[static_cast<size_t>(id)]; }
  Value& value(ValueId id) { return values_[static_cast<size_t>(id)]; }
  const std::vector<Node>& nodes() const { return nodes_; }   // includes dead nodes
  const std::vector<Value>& values() const { return values_; }
  size_t nodeCapacity() const { return nodes_.size(); }
  size_t liveNodeCount() const { return nodes_.size() - deadCount_; }
  std::vector<NodeId> liveNodes() const;  // in storage order

  const std::vector<ValueId>& inputs() const { return inputs_; }    // runtime inputs only
  const std::vector<ValueId>& outputs() const { return outputs_; }
  std::vector<ValueId> initializers() const;                         // in id order

  ValueId findValue(const std::string& name) const;  // kNoId if absent
  NodeId findNode(const std::string& name) const;    // kNoId if absent (linear)
  NodeId producerOf(ValueId v) const { return v == kNoId ? kNoId : value(v).producer; }
  const Tensor* constantOf(ValueId v) const;  // initializer data or nullptr

  // Topological order of live nodes (Kahn, stable by storage order). Error names nodes in a cycle.
  Result<std::vector<NodeId>> topoOrder() const;

  // --- mutation -----------------------------------------------------------------------------
  void setNodeInput(NodeId n, size_t index, ValueId v);
  // Replaces a node's attributes; when they hold subgraphs, the outer-scope uses are recomputed.
  void setNodeAttributes(NodeId n, Attributes attrs);
  // Also graph outputs and subgraph references (renamed inside the subgraphs).
  void replaceAllUses(ValueId from, ValueId to);
  void removeNode(NodeId n);                      // marks dead, unhooks uses; outputs lose producer
  void setInitializer(ValueId v, Tensor t);
  void removeInitializer(ValueId v);
  // Drops dead nodes and values nobody references (initializers are kept); renumbers ids; stores nodes in topological order
  // when the graph is acyclic. Invalidates every NodeId/ValueId held outside.
  void compact();

  void renameValue(ValueId v, const std::string& newName);  // caller ensures newName is free
  std::string uniqueValueName(const std::string& base) const;
  std::string uniqueNodeName(const std::string& base);

  // Checks internal consistency (use lists, producers, ids). Empty string when consistent.
  std::string checkConsistency() const;

  // Names a subgraph reads from enclosing scopes (recursively through nested subgraphs).
  static void collectOuterRefs(const Graph& sub, std::vector<std::string>& names);

 private:
  void hookImplicitInputs(NodeId n);
  std::vector<Node> nodes_;
  std::vector<Value> values_;
  std::vector<ValueId> inputs_;
  std::vector<ValueId> outputs_;
  std::unordered_map<std::string, ValueId> valueByName_;
  size_t deadCount_ = 0;
  uint64_t nameCounter_ = 0;
};

// A copy of `sub` in which the outer-scope reference `oldName` is called `newName` (recursively).
GraphPtr renameOuterRef(const Graph& sub, const std::string& oldName, const std::string& newName);
// `attrs` with that renaming applied to each of its subgraphs (a node that reads `oldName` implicitly).
Attributes renameOuterRefIn(const Attributes& attrs, const std::string& oldName, const std::string& newName);

}  // namespace fw
