#pragma once
// Small graph queries and edits shared by the rules.
#include <optional>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

// Names of the imported model's nodes that `n` stands for.
std::vector<std::string> originsOf(const Node& n);
// Adds the origins of `from` to `into` (after into's own).
void addOrigins(Graph& g, NodeId into, const Node& from);
// For a node the rewrite created: its origins are exactly those of the nodes it replaces.
void appendOrigins(Graph& g, NodeId into, const Node& from);

// The only consumer of `v` (one use, not a graph output), else kNoId.
NodeId soleConsumer(const Graph& g, ValueId v);
// Why `v` cannot be fused through, or empty: "second consumer 'x' of 'v'", "'v' is a graph output".
std::string whyNotPrivate(const Graph& g, ValueId v, NodeId expectedConsumer);

bool isConstant(const Graph& g, ValueId v);  // initializer that is not an overridable input
std::optional<double> scalarConstant(const Graph& g, ValueId v);  // constant with one element
bool isScalarConstant(const Graph& g, ValueId v, double expect, double tol = 1e-6);

// Makes `node` produce `v` as its output `idx` instead of its current one (which must be unused).
void moveOutput(Graph& g, NodeId node, size_t idx, ValueId v);
// Adds an initializer named after `base`.
ValueId addConstant(Graph& g, const std::string& base, Tensor t);
// Appends or sets input `idx`, growing the input list with omitted inputs as needed.
void setInputAt(Graph& g, NodeId n, size_t idx, ValueId v);

// The input of a binary node that is not `v` (kNoId if the node is not binary).
ValueId otherInput(const Node& n, ValueId v);

bool isExcluded(const FusionOptions& o, const Node& n);
std::string lower(std::string s);

}  // namespace fw::fusion
