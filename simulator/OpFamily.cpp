#include "simulator/OpFamily.h"


namespace fw::sim {

OpFamily opFamily(std::string_view op) {
  const OpInfo* info = findOpInfo(op);
  return info ? info->family : OpFamily::Unknown;
}

bool permKeepsOrder(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm) {
  if (perm.size() != dims.size()) return false;
  int64_t last = -1;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(dims.size())) return false;
    if (dims[static_cast<size_t>(p)] == 1) continue;
    if (p < last) return false;
    last = p;
  }
  return true;
}

OpFamily nodeFamily(const Graph& g, const Node& n) {
  const OpFamily fam = opFamily(n.opType);
  if (n.opType != "Transpose" || n.inputs.empty() || n.inputs[0] == kNoId) return fam;
  const Shape& s = g.value(n.inputs[0]).shape;
  if (!s.rankKnown) return fam;
  std::vector<int64_t> dims;
  for (const Dim& d : s.dims) {
    if (!d.isStatic()) return fam;
    dims.push_back(d.value);
  }
  std::vector<int64_t> perm = n.attrs.getInts("perm").value_or(std::vector<int64_t>{});
  if (perm.empty())
    for (size_t k = dims.size(); k-- > 0;) perm.push_back(static_cast<int64_t>(k));
  return permKeepsOrder(dims, perm) ? OpFamily::View : fam;
}

const char* opFamilyName(OpFamily f) { return costFamilyName(f); }

bool isVectorFamily(OpFamily f) {
  return f == OpFamily::Elementwise || f == OpFamily::Reduction || f == OpFamily::Pooling ||
         f == OpFamily::Softmax || f == OpFamily::Norm || f == OpFamily::DataMovement ||
         f == OpFamily::Unknown;
}

}  // namespace fw::sim
