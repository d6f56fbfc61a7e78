#include "core/exec/Epilogue.h"

#include "core/exec/OpContext.h"

namespace fw::exec {

NodeId reluEpilogueOf(const Graph& g, NodeId producer, const std::function<bool(ValueId)>& kept) {
  const Node& node = g.node(producer);
  if (node.dead || !isDefaultDomain(node.domain) || node.outputs.size() != 1 || node.outputs[0] == kNoId)
    return kNoId;
  if (node.opType != "Conv" && node.opType != "BatchNormalization" && node.opType != "Add") return kNoId;
  const ValueId v = node.outputs[0];
  const Value& val = g.value(v);
  if (kept(v) || val.consumers.size() != 1) return kNoId;
  const NodeId r = val.consumers[0];
  const Node& relu = g.node(r);
  if (relu.dead || relu.opType != "Relu" || !isDefaultDomain(relu.domain) || relu.inputs.size() != 1 ||
      relu.inputs[0] != v || relu.outputs.size() != 1 || relu.outputs[0] == kNoId)
    return kNoId;
  return r;
}

}  // namespace fw::exec
