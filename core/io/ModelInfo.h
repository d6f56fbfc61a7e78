#pragma once
// What `fwb info` and the GUI's model summary show: counts, op histogram, parameters, FLOPs, bytes.
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "core/ir/Model.h"
#include "core/ir/OpCost.h"

namespace fw {

struct NodeInfo {
  NodeId id = kNoId;
  std::string name, opType, domain;
  std::vector<std::string> inputs, outputs;  // "name: dtype[shape]"
  NodeCost cost;
};

struct SubgraphInfo {
  std::string node;       // owning node name
  std::string attribute;  // then_branch, body, ...
  size_t nodes = 0;       // including nested
};

struct ModelInfo {
  std::string source;
  int64_t irVersion = 0;
  std::string producer;
  std::map<std::string, int64_t> opsets;
  int64_t storedNodes = 0;  // main graph nodes as stored in the file
  size_t liveNodes = 0;     // main graph nodes after import (Constant nodes became initializers)
  std::map<std::string, size_t> ops;  // op histogram of the main graph
  size_t initializers = 0;
  int64_t params = 0;        // elements in initializers
  int64_t paramBytes = 0;
  double flops = 0;
  double bytes = 0;          // activation + weight bytes read and written, summed over nodes
  size_t unknownCostNodes = 0;
  std::vector<std::string> inputs, outputs;
  std::vector<SubgraphInfo> subgraphs;
  std::vector<std::string> functions;
  std::vector<NodeInfo> nodeList;
  std::vector<std::string> warnings;
};

std::string describeValue(const Graph& g, ValueId v);  // "name: float32[1,3,224,224]"
ModelInfo summarizeModel(const Model& m);
nlohmann::json toJson(const ModelInfo& info, bool withNodes = true);
std::string toText(const ModelInfo& info, bool withNodes = false);

}  // namespace fw
