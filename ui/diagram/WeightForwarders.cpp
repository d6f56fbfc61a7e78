// Finding weight forwarders and the node each one is drawn with (WeightForwarders.h).
#include "ui/diagram/WeightForwarders.h"

#include <algorithm>
#include <set>
#include <string>

namespace fw::diagram {

std::vector<char> weightForwarders(const Graph& g, const std::vector<size_t>& rank) {
  static const std::set<std::string> ops{"Identity", "Cast", "CastLike", "Reshape", "Transpose", "Squeeze", "Unsqueeze", "Flatten"};
  std::vector<char> fw(g.nodeCapacity(), 0);
  std::vector<NodeId> live = g.liveNodes();
  std::sort(live.begin(), live.end(), [&](NodeId a, NodeId b) { return rank[static_cast<size_t>(a)] < rank[static_cast<size_t>(b)]; });
  for (NodeId n : live) {
    const Node& node = g.node(n);
    if (!node.domain.empty() && node.domain != "ai.onnx") continue;
    if (!ops.count(node.opType) || node.outputs.size() != 1 || node.outputs[0] == kNoId) continue;
    const Value& out = g.value(node.outputs[0]);
    if (out.isGraphOutput || out.consumers.empty()) continue;
    bool weights = !node.inputs.empty() && node.inputs[0] != kNoId;
    for (ValueId v : node.inputs) {
      if (v == kNoId) continue;
      const NodeId p = g.value(v).producer;
      weights = weights && (g.value(v).isInitializer() || (p != kNoId && fw[static_cast<size_t>(p)]));
    }
    if (weights) fw[static_cast<size_t>(n)] = 1;
  }
  return fw;
}


NodeId forwarderHost(const Graph& g, NodeId n, const std::vector<char>& fw, const std::vector<size_t>& rank) {
  NodeId best = kNoId;
  std::vector<NodeId> todo{n};
  std::set<NodeId> seen;
  while (!todo.empty()) {
    const NodeId cur = todo.back();
    todo.pop_back();
    if (!seen.insert(cur).second) continue;
    for (NodeId c : g.value(g.node(cur).outputs[0]).consumers) {
      if (g.node(c).dead) continue;
      if (fw[static_cast<size_t>(c)]) {
        todo.push_back(c);
      } else if (best == kNoId || rank[static_cast<size_t>(c)] < rank[static_cast<size_t>(best)]) {
        best = c;
      }
    }
  }
  return best;
}

}  // namespace fw::diagram
