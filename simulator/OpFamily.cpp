#include "simulator/OpFamily.h"


namespace fw::sim {

OpFamily opFamily(std::string_view op) {
  const OpInfo* info = findOpInfo(op);
  return info ? info->family : OpFamily::Unknown;
}

const char* opFamilyName(OpFamily f) { return costFamilyName(f); }

bool isVectorFamily(OpFamily f) {
  return f == OpFamily::Elementwise || f == OpFamily::Reduction || f == OpFamily::Pooling ||
         f == OpFamily::Softmax || f == OpFamily::Norm || f == OpFamily::DataMovement ||
         f == OpFamily::Unknown;
}

}  // namespace fw::sim
