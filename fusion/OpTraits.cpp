#include "fusion/OpTraits.h"


namespace fw::fusion {

OpKind opKind(std::string_view opType, std::string_view domain) {
  if (!domain.empty() && domain != "ai.onnx") return OpKind::Opaque;
  const OpInfo* info = findOpInfo(opType);
  return info ? info->pattern : OpKind::Opaque;
}

const char* opKindName(OpKind k) { return opPatternName(k); }

bool isCubeOp(std::string_view t) { return opKind(t) == OpKind::Cube; }
bool isControlFlow(std::string_view t) { return opKind(t) == OpKind::ControlFlow; }

bool isActivation(std::string_view t) {
  return t == "Relu" || t == "Clip" || t == "LeakyRelu" || t == "Sigmoid" || t == "HardSigmoid" ||
         t == "HardSwish" || t == "Tanh" || t == "Gelu" || t == "Elu" || t == "Selu" || t == "Softplus";
}

bool isViewOp(std::string_view t) {
  return t == "Reshape" || t == "Squeeze" || t == "Unsqueeze" || t == "Flatten" || t == "Identity";
}

OpKind nodeKind(const Node& n, const std::set<std::string>& clusterOpsEnabled) {
  OpKind k = opKind(n.opType, n.domain);
  if (k == OpKind::Opaque && clusterOpsEnabled.count(n.opType)) return OpKind::ElemWise;
  return k;
}

}  // namespace fw::fusion
