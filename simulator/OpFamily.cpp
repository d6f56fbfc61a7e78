#include "simulator/OpFamily.h"


namespace fw::sim {

OpFamily opFamily(std::string_view op) {
  const OpInfo* info = findOpInfo(op);
  return info ? info->family : OpFamily::Unknown;
}

namespace {

// A Transpose's input dims and perm when both are known.
bool transposeOf(const Graph& g, const Node& n, std::vector<int64_t>& dims, std::vector<int64_t>& perm) {
  if (n.opType != "Transpose" || n.inputs.empty() || n.inputs[0] == kNoId) return false;
  const Shape& s = g.value(n.inputs[0]).shape;
  if (!s.rankKnown) return false;
  dims.clear();
  for (const Dim& d : s.dims) {
    if (!d.isStatic()) return false;
    dims.push_back(d.value);
  }
  perm = n.attrs.getInts("perm").value_or(std::vector<int64_t>{});
  if (perm.empty())
    for (size_t k = dims.size(); k-- > 0;) perm.push_back(static_cast<int64_t>(k));
  return perm.size() == dims.size();
}

}  // namespace

OpFamily nodeFamily(const Graph& g, const Node& n) {
  const OpFamily fam = opFamily(n.opType);
  std::vector<int64_t> dims, perm;
  return transposeOf(g, n, dims, perm) && permKeepsOrder(dims, perm) ? OpFamily::View : fam;
}

std::string efficiencyKey(const Graph& g, const Node& n) {
  std::vector<int64_t> dims, perm;
  if (!transposeOf(g, n, dims, perm)) return n.opType;
  int64_t innerIn = -1, innerOut = -1;
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k] != 1) innerIn = static_cast<int64_t>(k);
  for (int64_t p : perm)
    if (p >= 0 && p < static_cast<int64_t>(dims.size()) && dims[static_cast<size_t>(p)] != 1) innerOut = p;
  return innerIn >= 0 && innerIn == innerOut ? "Transpose/rows" : n.opType;
}

bool isEfficiencyVariant(std::string_view key) { return key == "Transpose/rows"; }

const char* opFamilyName(OpFamily f) { return costFamilyName(f); }

bool isVectorFamily(OpFamily f) {
  return f == OpFamily::Elementwise || f == OpFamily::Reduction || f == OpFamily::Pooling ||
         f == OpFamily::Softmax || f == OpFamily::Norm || f == OpFamily::DataMovement ||
         f == OpFamily::Unknown;
}

}  // namespace fw::sim
