// The vector unit's share of a kernel: vector passes, their cycles, the UB tiling (VectorCost.h).
#include "simulator/VectorCost.h"

#include <algorithm>
#include <cmath>

#include "simulator/CostUtil.h"

namespace fw::sim {
using namespace detail;

namespace {

// The elements a reduction combines into one output (they must sit on one core).
int64_t reductionRow(const Graph& g, const Node& n, const std::vector<int64_t>& in) {
  const std::string& op = n.opType;
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool") return prod(in, 2);
  if (op == "ArgMax" || op == "ArgMin") return in.empty() ? 1 : in[normAxis(n.attrs.intOr("axis", 0), in.size())];
  std::vector<int64_t> axes;
  if (auto a = n.attrs.getInts("axes")) axes = *a;
  else if (n.inputs.size() > 1 && n.inputs[1] != kNoId)
    if (const Tensor* t = g.constantOf(n.inputs[1])) axes = t->toInt64s();
  if (axes.empty()) return prod(in);  // no axes: everything is one row
  int64_t row = 1;
  for (int64_t a : axes) row *= in[normAxis(a, in.size())];
  return row;
}

// The elements a normalization takes its statistics over.
int64_t normRow(const Node& n, const std::vector<int64_t>& out) {
  const std::string& op = n.opType;
  if (op == "BatchNormalization") return 1;
  if (op == "InstanceNormalization") return prod(out, 2);
  if (op == "GroupNormalization") {
    const int64_t groups = std::max<int64_t>(1, n.attrs.intOr("num_groups", 1));
    return out.size() > 1 ? out[1] / groups * prod(out, 2) : prod(out);
  }
  if (op == "MeanVarianceNormalization") return prod(out, 2);
  return prod(out, normAxis(n.attrs.intOr("axis", -1), out.size()));
}

// Elements of a pooling window (1 without kernel_shape).
int64_t windowElems(const Node& n) {
  int64_t k = 1;
  if (auto ks = n.attrs.getInts("kernel_shape"))
    for (int64_t d : *ks) k *= d;
  return k;
}

// Elements a data-movement op writes: all its outputs.
Result<int64_t> outputElems(const Graph& g, NodeId id) {
  int64_t elems = 0;
  for (ValueId v : g.node(id).outputs) {
    if (v == kNoId) continue;
    FW_ASSIGN_OR_RETURN(auto d, dimsOf(g, v, id));
    elems += prod(d);
  }
  return elems;
}

// The UB buffers of a kernel's vector members.
struct UbBuffers {
  int64_t nIo = 0;            // external inputs read and outputs written by vector members
  int64_t nInternal = 0;      // intermediates that are real buffers (not view aliases)
  double internalBytes = 0;   // their device bytes
  double vecInputBytes = 0;   // device bytes of the external inputs vector members read
};

Result<UbBuffers> countUbBuffers(const Graph& g, const GroupBoundary& bd, const std::vector<char>& vecMember,
                                 NodeId fallback, const HwProfile& hw) {
  auto usedByVec = [&](ValueId v) {
    for (NodeId c : g.value(v).consumers)
      if (vecMember[static_cast<size_t>(c)]) return true;
    return false;
  };
  auto producedByVec = [&](ValueId v) {
    NodeId p = g.value(v).producer;
    return p != kNoId && vecMember[static_cast<size_t>(p)];
  };
  UbBuffers u;
  for (ValueId v : bd.inputs)
    if (usedByVec(v)) {
      ++u.nIo;
      const NodeId p = g.value(v).producer;
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, p != kNoId ? p : fallback));
      u.vecInputBytes += b;
    }
  for (ValueId v : bd.outputs)
    if (producedByVec(v)) ++u.nIo;
  for (ValueId v : bd.internals) {
    const NodeId p = g.value(v).producer;
    if (nodeFamily(g, g.node(p)) == OpFamily::View) continue;  // an alias, not a buffer
    ++u.nInternal;
    FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, p));
    u.internalBytes += b;
  }
  return u;
}

}  // namespace

Result<VecItem> vecItemOf(const Graph& g, NodeId id, OpFamily fam, double flops) {
  const Node& n = g.node(id);
  VecItem it;
  FW_ASSIGN_OR_RETURN(auto out, dimsOf(g, n.outputs.empty() ? kNoId : n.outputs[0], id));
  std::vector<int64_t> in;
  if (!n.inputs.empty() && n.inputs[0] != kNoId) {
    FW_ASSIGN_OR_RETURN(in, dimsOf(g, n.inputs[0], id));
  }
  it.elems = prod(out);
  switch (fam) {
    case OpFamily::Reduction:
      it.elems = prod(in);
      it.row = reductionRow(g, n, in);
      break;
    case OpFamily::Pooling:
      it.elems = prod(out) * windowElems(n);
      break;
    case OpFamily::Softmax:
      it.row = prod(out, normAxis(n.attrs.intOr("axis", -1), out.size()));
      break;
    case OpFamily::Norm:
      it.row = normRow(n, out);
      break;
    case OpFamily::DataMovement: {
      FW_ASSIGN_OR_RETURN(it.elems, outputElems(g, id));
      break;
    }
    default:
      break;
  }
  it.row = std::max<int64_t>(1, it.row);
  it.elems = std::max<int64_t>(0, it.elems);
  // Instructions per element from the FLOP count (a copy is one instruction per element).
  it.ops = it.elems > 0 ? std::max<int64_t>(1, static_cast<int64_t>(std::ceil(flops / static_cast<double>(it.elems) - 1e-9)))
                        : 0;
  return it;
}

int64_t vectorCycles(const VecItem& it, const HwProfile& hw) {
  if (it.elems == 0 || it.ops == 0) return 0;
  if (it.row > 1) {
    const int64_t rows = ceilDiv(it.elems, it.row);
    const int64_t used = std::min(hw.vectorCores, rows);
    return it.steps * it.ops * ceilDiv(rows, used) * ceilDiv(it.row, hw.vectorLanes);
  }
  const int64_t used = std::min(hw.vectorCores, ceilDiv(it.elems, hw.vectorLanes));
  return it.steps * it.ops * ceilDiv(ceilDiv(it.elems, used), hw.vectorLanes);
}

Status tileThroughUb(const Graph& g, const GroupBoundary& bd, const VectorWork& work, NodeId fallback,
                     const HwProfile& hw, KernelTiming& t) {
  FW_ASSIGN_OR_RETURN(UbBuffers u, countUbBuffers(g, bd, work.members, fallback, hw));
  const auto eb = static_cast<int64_t>(hw.elemBytes());
  const int64_t perElem = eb * std::max<int64_t>(1, 2 * u.nIo + u.nInternal);
  const int64_t minTile = roundUp(work.rowMax, hw.vectorLanes);
  t.workingSetBytes = minTile * perElem;
  int64_t tile = hw.ubBytes / perElem / hw.vectorLanes * hw.vectorLanes;
  if (t.workingSetBytes > hw.ubBytes) {
    // One row does not fit UB: intermediates go out to HBM and back; a lone op re-reads its input.
    t.spilled = true;
    t.spillBytes = u.nInternal > 0 ? 2.0 * u.internalBytes : u.vecInputBytes;
    tile = minTile;
  }
  tile = std::max(tile, hw.vectorLanes);
  const int64_t used = std::min(hw.vectorCores, ceilDiv(work.elemsMax, hw.vectorLanes));
  t.tilesPerCore = std::max(t.tilesPerCore, ceilDiv(ceilDiv(work.elemsMax, used), tile));
  return {};
}

}  // namespace fw::sim
