#include "simulator/CostModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/ir/OpCost.h"
#include "simulator/CpuCost.h"
#include "simulator/OpFamily.h"

namespace fw::sim {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t m) { return ceilDiv(a, m) * m; }
// Cycles at a family's efficiency (HwProfile::efficiency; 1 leaves them exactly as they are).
int64_t scaled(int64_t cycles, double efficiency) {
  if (efficiency == 1.0) return cycles;
  return static_cast<int64_t>(std::ceil(static_cast<double>(cycles) / efficiency - 1e-9));
}

std::string where(const Graph& g, NodeId n) {
  const Node& nd = g.node(n);
  return "node '" + nd.name + "' (" + nd.opType + ")";
}

Result<std::vector<int64_t>> dimsOf(const Graph& g, ValueId v, NodeId n) {
  if (v == kNoId) return Error::badInput(where(g, n) + ": a required input is missing");
  const Value& val = g.value(v);
  if (val.initializer) return val.initializer->dims();
  auto d = val.shape.ints();
  if (!d)
    return Error::badInput(where(g, n) + ": value '" + val.name + "' has no static shape (" +
                           val.shape.str() + "); bind symbolic dims with --batch or --input-shape");
  return *d;
}

int64_t prod(const std::vector<int64_t>& d, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t p = 1;
  for (size_t i = from; i < std::min(to, d.size()); ++i) p *= d[i];
  return p;
}

size_t normAxis(int64_t axis, size_t rank) {
  if (axis < 0) axis += static_cast<int64_t>(rank);
  return static_cast<size_t>(std::clamp<int64_t>(axis, 0, rank == 0 ? 0 : static_cast<int64_t>(rank) - 1));
}

// A matrix product as the cube sees it: `batch` independent (m×k)·(k×n) products, `steps` of them
// one after another (recurrent cells). Dims already include layout padding (C0 for convolutions).
struct Gemm {
  int64_t batch = 1, m = 1, n = 1, k = 1, steps = 1;
  ValueId a = kNoId, b = kNoId;  // operands read from HBM (for re-read traffic)
};

// One pass of the vector unit: `elems` elements, `ops` instructions per element, work split by rows
// of `row` elements that must be on one core (reductions, softmax, norms), repeated `steps` times.
struct VecItem {
  int64_t elems = 0, ops = 1, row = 1, steps = 1;
};

Result<Gemm> gemmOf(const Graph& g, NodeId id, const HwProfile& hw) {
  const Node& n = g.node(id);
  Gemm gm;
  const std::string& op = n.opType;
  if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv") {
    const size_t xi = 0, wi = op == "QLinearConv" ? 3 : 1;
    FW_ASSIGN_OR_RETURN(auto w, dimsOf(g, n.inputs.size() > wi ? n.inputs[wi] : kNoId, id));
    FW_ASSIGN_OR_RETURN(auto o, dimsOf(g, n.outputs[0], id));
    if (w.size() < 2 || o.size() < 2) return Error::badInput(where(g, id) + ": weight or output rank < 2");
    const int64_t groups = std::max<int64_t>(1, n.attrs.intOr("group", 1));
    const int64_t cinG = w[1], coutG = w[0] / groups, kprod = prod(w, 2);
    gm.m = o[0] * prod(o, 2);
    if (groups == 1) {
      gm.n = w[0];
      gm.k = roundUp(cinG, hw.fractalC0) * kprod;
    } else {
      // Grouped/depthwise: pack as many groups as fit one n-fractal into a block-diagonal product.
      const int64_t pack = std::clamp<int64_t>(hw.cubeN / std::max<int64_t>(1, coutG), 1, groups);
      gm.batch = ceilDiv(groups, pack);
      gm.n = pack * coutG;
      gm.k = roundUp(pack * cinG, hw.fractalC0) * kprod;
    }
    gm.a = n.inputs[xi];
    gm.b = n.inputs[wi];
  } else if (op == "ConvTranspose") {
    FW_ASSIGN_OR_RETURN(auto x, dimsOf(g, n.inputs[0], id));
    FW_ASSIGN_OR_RETURN(auto w, dimsOf(g, n.inputs.size() > 1 ? n.inputs[1] : kNoId, id));
    if (w.size() < 2 || x.size() < 2) return Error::badInput(where(g, id) + ": input or weight rank < 2");
    const int64_t groups = std::max<int64_t>(1, n.attrs.intOr("group", 1));
    gm.batch = groups;
    gm.m = x[0] * prod(x, 2);
    gm.n = w[1] * prod(w, 2);
    gm.k = roundUp(w[0] / groups, hw.fractalC0);
    gm.a = n.inputs[0];
    gm.b = n.inputs[1];
  } else if (op == "MatMul" || op == "MatMulInteger" || op == "FusedMatMul" || op == "QLinearMatMul") {
    const size_t bi = op == "QLinearMatMul" ? 3 : 1;  // QLinearMatMul: a, a_scale, a_zp, b, ...
    FW_ASSIGN_OR_RETURN(auto a, dimsOf(g, n.inputs[0], id));
    FW_ASSIGN_OR_RETURN(auto b, dimsOf(g, n.inputs.size() > bi ? n.inputs[bi] : kNoId, id));
    FW_ASSIGN_OR_RETURN(auto o, dimsOf(g, n.outputs[0], id));
    if (a.empty() || b.empty()) return Error::badInput(where(g, id) + ": scalar operand");
    gm.k = a.back();
    gm.m = a.size() >= 2 ? a[a.size() - 2] : 1;
    gm.n = b.size() >= 2 ? b.back() : 1;
    gm.batch = std::max<int64_t>(1, prod(o) / std::max<int64_t>(1, gm.m * gm.n));
    gm.a = n.inputs[0];
    gm.b = n.inputs[bi];
  } else if (op == "Gemm") {
    FW_ASSIGN_OR_RETURN(auto a, dimsOf(g, n.inputs[0], id));
    FW_ASSIGN_OR_RETURN(auto o, dimsOf(g, n.outputs[0], id));
    if (a.size() != 2 || o.size() != 2) return Error::badInput(where(g, id) + ": Gemm operands must be 2-D");
    gm.m = o[0];
    gm.n = o[1];
    gm.k = n.attrs.intOr("transA", 0) ? a[0] : a[1];
    gm.a = n.inputs[0];
    gm.b = n.inputs.size() > 1 ? n.inputs[1] : kNoId;
  } else if (op == "LSTM" || op == "GRU" || op == "RNN") {
    FW_ASSIGN_OR_RETURN(auto x, dimsOf(g, n.inputs[0], id));
    FW_ASSIGN_OR_RETURN(auto w, dimsOf(g, n.inputs.size() > 1 ? n.inputs[1] : kNoId, id));
    FW_ASSIGN_OR_RETURN(auto r, dimsOf(g, n.inputs.size() > 2 ? n.inputs[2] : kNoId, id));
    if (x.size() != 3 || w.size() != 3 || r.size() != 3)
      return Error::badInput(where(g, id) + ": X, W, R must be 3-D");
    // Time steps are sequential: each step is one (batch × (I+H))·((I+H) × gates*H) product.
    const bool batchFirst = n.attrs.intOr("layout", 0) != 0;  // opset 14: X is [batch, seq, I]
    gm.steps = x[batchFirst ? 1 : 0] * w[0];
    gm.m = x[batchFirst ? 0 : 1];
    gm.n = w[1];
    gm.k = w[2] + r[2];
  } else {
    return Error::internal(where(g, id) + ": not a cube op");
  }
  gm.m = std::max<int64_t>(1, gm.m);
  gm.n = std::max<int64_t>(1, gm.n);
  gm.k = std::max<int64_t>(1, gm.k);
  return gm;
}

Result<VecItem> vecItemOf(const Graph& g, NodeId id, OpFamily fam, double flops) {
  const Node& n = g.node(id);
  VecItem it;
  const std::string& op = n.opType;
  FW_ASSIGN_OR_RETURN(auto out, dimsOf(g, n.outputs.empty() ? kNoId : n.outputs[0], id));
  std::vector<int64_t> in;
  if (!n.inputs.empty() && n.inputs[0] != kNoId) {
    FW_ASSIGN_OR_RETURN(in, dimsOf(g, n.inputs[0], id));
  }
  it.elems = prod(out);
  switch (fam) {
    case OpFamily::Reduction: {
      it.elems = prod(in);
      if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
        it.row = prod(in, 2);
      } else if (op == "ArgMax" || op == "ArgMin") {
        it.row = in.empty() ? 1 : in[normAxis(n.attrs.intOr("axis", 0), in.size())];
      } else {
        std::vector<int64_t> axes;
        if (auto a = n.attrs.getInts("axes")) axes = *a;
        else if (n.inputs.size() > 1 && n.inputs[1] != kNoId)
          if (const Tensor* t = g.constantOf(n.inputs[1])) axes = t->toInt64s();
        if (axes.empty()) {
          it.row = it.elems;
        } else {
          it.row = 1;
          for (int64_t a : axes) it.row *= in[normAxis(a, in.size())];
        }
      }
      break;
    }
    case OpFamily::Pooling: {
      int64_t k = 1;
      if (auto ks = n.attrs.getInts("kernel_shape"))
        for (int64_t d : *ks) k *= d;
      it.elems = prod(out) * k;
      break;
    }
    case OpFamily::Softmax:
      it.row = prod(out, normAxis(n.attrs.intOr("axis", -1), out.size()));
      break;
    case OpFamily::Norm:
      if (op == "BatchNormalization") {
        it.row = 1;
      } else if (op == "InstanceNormalization") {
        it.row = prod(out, 2);
      } else if (op == "GroupNormalization") {
        const int64_t groups = std::max<int64_t>(1, n.attrs.intOr("num_groups", 1));
        it.row = out.size() > 1 ? out[1] / groups * prod(out, 2) : prod(out);
      } else if (op == "MeanVarianceNormalization") {
        it.row = prod(out, 2);
      } else {
        it.row = prod(out, normAxis(n.attrs.intOr("axis", -1), out.size()));
      }
      break;
    case OpFamily::DataMovement:
      it.elems = 0;
      for (ValueId v : n.outputs) {
        if (v == kNoId) continue;
        FW_ASSIGN_OR_RETURN(auto d, dimsOf(g, v, id));
        it.elems += prod(d);
      }
      break;
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

// Vector cycles on one core of the busiest core, work split evenly by rows across vector cores.
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

// Output tile (tm × tn) of the L1 → L0 tiling that minimises HBM re-reads: the accumulator tile
// must fit L0C, a double-buffered k-slice of A and B must fit L0A/L0B and L1.
struct Tiling {
  int64_t tm = 0, tn = 0, rereadA = 1, rereadB = 1;
};

Tiling chooseTiling(const Gemm& gm, double bytesA, double bytesB, const HwProfile& hw) {
  const auto eb = static_cast<int64_t>(hw.elemBytes());
  const int64_t mpad = roundUp(gm.m, hw.cubeM), npad = roundUp(gm.n, hw.cubeN);
  const int64_t maxTnL0b = hw.l0bBytes / (2 * hw.cubeK * eb) / hw.cubeN * hw.cubeN;
  Tiling best;
  double bestScore = std::numeric_limits<double>::infinity();
  for (int64_t tm = hw.cubeM; tm <= mpad; tm += hw.cubeM) {
    if (2 * tm * hw.cubeK * eb > hw.l0aBytes) break;
    int64_t tn = hw.l0cBytes / (hw.accBytes * tm) / hw.cubeN * hw.cubeN;
    tn = std::min({tn, npad, maxTnL0b});
    if (tn < hw.cubeN) break;
    if (2 * (tm + tn) * hw.cubeK * eb > hw.l1Bytes) continue;
    const int64_t ra = ceilDiv(npad, tn), rb = ceilDiv(mpad, tm);
    const double score = bytesA * static_cast<double>(ra) + bytesB * static_cast<double>(rb);
    // Ties go to the bigger tile (fewer, longer pipeline steps), then to the taller one.
    const bool better = score < bestScore ||
                        (score == bestScore && tm * tn > best.tm * best.tn) ||
                        (score == bestScore && tm * tn == best.tm * best.tn && tm > best.tm);
    if (better) {
      bestScore = score;
      best = {tm, tn, ra, rb};
    }
  }
  if (best.tm == 0) best = {hw.cubeM, hw.cubeN, ceilDiv(npad, hw.cubeN), ceilDiv(mpad, hw.cubeM)};
  return best;
}

}  // namespace

const char* unitName(Unit u) {
  switch (u) {
    case Unit::None: return "none";
    case Unit::Cube: return "cube";
    case Unit::Vector: return "vector";
    case Unit::CubeVector: return "cube+vector";
  }
  return "none";
}

const char* boundName(Bound b) {
  switch (b) {
    case Bound::None: return "none";
    case Bound::Compute: return "compute";
    case Bound::Memory: return "memory";
    case Bound::Launch: return "launch";
    case Bound::Host: return "host";
  }
  return "none";
}

const char* simModeName(SimMode m) { return m == SimMode::Eager ? "eager" : "graph"; }

GroupBoundary groupBoundary(const Graph& g, const std::vector<NodeId>& members,
                            const std::vector<char>& inGroup) {
  GroupBoundary b;
  std::vector<char> seen(g.values().size(), 0);
  auto member = [&](NodeId n) { return n != kNoId && inGroup[static_cast<size_t>(n)]; };
  for (NodeId m : members) {
    for (ValueId v : g.node(m).inputs) {
      if (v == kNoId || seen[static_cast<size_t>(v)]) continue;
      const Value& val = g.value(v);
      if (member(val.producer)) continue;  // classified with its producer's outputs
      seen[static_cast<size_t>(v)] = 1;
      (val.isInitializer() ? b.weights : b.inputs).push_back(v);
    }
  }
  for (NodeId m : members) {
    for (ValueId v : g.node(m).outputs) {
      if (v == kNoId || seen[static_cast<size_t>(v)]) continue;
      seen[static_cast<size_t>(v)] = 1;
      const Value& val = g.value(v);
      bool external = val.isGraphOutput || val.consumers.empty();
      for (NodeId c : val.consumers) external = external || !member(c);
      (external ? b.outputs : b.internals).push_back(v);
    }
  }
  return b;
}

Result<double> deviceBytes(const Graph& g, ValueId v, const HwProfile& hw, NodeId node) {
  const Value& val = g.value(v);
  DType dt = val.initializer ? val.initializer->dtype() : val.dtype;
  if (dt == DType::Undefined || dt == DType::String)
    return Error::badInput(where(g, node) + ": value '" + val.name + "' has dtype " +
                           std::string(dtypeName(dt)) + "; the simulator needs a numeric dtype");
  FW_ASSIGN_OR_RETURN(auto dims, dimsOf(g, v, node));
  const size_t es = isFloating(dt) ? hw.elemBytes() : dtypeSize(dt);
  return static_cast<double>(prod(dims)) * static_cast<double>(es);
}

Result<KernelCost> costKernel(const Graph& g, const KernelGroup& group, const HwProfile& hw,
                              std::vector<std::string>* warnings) {
  if (hw.isCpu()) return costCpuKernel(g, group, hw, warnings);  // a measured CPU profile: CpuCost.h
  KernelCost kc;
  KernelTiming& t = kc.timing;
  t.name = group.name;
  t.members = group.members;
  std::vector<char> inGroup(g.nodeCapacity(), 0);
  for (NodeId m : group.members) inGroup[static_cast<size_t>(m)] = 1;
  kc.boundary = groupBoundary(g, group.members, inGroup);
  const GroupBoundary& bd = kc.boundary;

  auto producerIn = [&](ValueId v) {
    NodeId p = g.value(v).producer;
    return p != kNoId ? p : group.members.front();
  };
  auto bytesOf = [&](const std::vector<ValueId>& vs, double& sum) -> Status {
    for (ValueId v : vs) {
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, producerIn(v)));
      sum += b;
    }
    return {};
  };

  bool anyCube = false, anyVector = false;
  std::vector<char> vecMember(g.nodeCapacity(), 0);
  int64_t rowMax = 1, vecElemsMax = 0;
  for (NodeId m : group.members) {
    const Node& n = g.node(m);
    t.ops.push_back(n.opType);
    t.nodes.push_back(n.name);
    const OpFamily fam = opFamily(n.opType);
    if (fam == OpFamily::ControlFlow)
      return Error::badInput(where(g, m) + ": control flow is not simulated; inline or unroll it first");
    const NodeCost nc = nodeCost(g, m);
    if (fam != OpFamily::View && !nc.known) return Error::badInput(nc.problem);
    t.flops += nc.flops;
    if (fam == OpFamily::View) continue;
    if (fam == OpFamily::Cube) {
      anyCube = true;
      FW_ASSIGN_OR_RETURN(Gemm gm, gemmOf(g, m, hw));
      const int64_t mt = ceilDiv(gm.m, hw.cubeM), nt = ceilDiv(gm.n, hw.cubeN), kt = ceilDiv(gm.k, hw.cubeK);
      const int64_t tiles = gm.batch * mt * nt;
      const int64_t used = std::min(hw.cubeCores, tiles);
      t.cubeCycles += scaled(gm.steps * ceilDiv(tiles, used) * kt, hw.efficiency.cube);
      if (gm.steps > 1) {
        // Recurrent cell: gate math on the vector unit after every step.
        FW_ASSIGN_OR_RETURN(auto out, dimsOf(g, n.outputs.empty() ? kNoId : n.inputs[2], m));
        VecItem it;
        it.steps = gm.steps;
        it.elems = gm.m * out.back();
        it.ops = n.opType == "LSTM" ? 20 : n.opType == "GRU" ? 16 : 2;
        t.vectorCycles += scaled(vectorCycles(it, hw), hw.efficiency.elementwise);
        anyVector = true;
        continue;
      }
      // HBM re-reads of operands that do not fit L2, from the L1 tiling.
      auto extBytes = [&](ValueId v) -> Result<double> {
        if (v == kNoId) return 0.0;
        const NodeId p = g.value(v).producer;
        if (p != kNoId && inGroup[static_cast<size_t>(p)]) return 0.0;  // produced inside: on chip
        return deviceBytes(g, v, hw, m);
      };
      FW_ASSIGN_OR_RETURN(double ba, extBytes(gm.a));
      FW_ASSIGN_OR_RETURN(double bb, extBytes(gm.b));
      const Tiling tl = chooseTiling(gm, ba, bb, hw);
      const auto l2 = static_cast<double>(hw.l2Bytes);
      if (ba > l2) t.rereadBytes += ba * static_cast<double>(tl.rereadA - 1);
      if (bb > l2) t.rereadBytes += bb * static_cast<double>(tl.rereadB - 1);
      const int64_t l1Tiles = gm.batch * tl.rereadA * tl.rereadB;
      t.tilesPerCore = std::max(t.tilesPerCore, ceilDiv(l1Tiles, std::min(hw.cubeCores, l1Tiles)));
      continue;
    }
    if (fam == OpFamily::Unknown && warnings) {
      const std::string w = "op type '" + n.opType + "' is not in the cost table: costed as one vector pass over its output";
      if (std::find(warnings->begin(), warnings->end(), w) == warnings->end()) warnings->push_back(w);
    }
    anyVector = true;
    vecMember[static_cast<size_t>(m)] = 1;
    FW_ASSIGN_OR_RETURN(VecItem it, vecItemOf(g, m, fam, nc.flops));
    t.vectorCycles += scaled(vectorCycles(it, hw), hw.efficiency.of(fam));
    rowMax = std::max(rowMax, it.row);
    vecElemsMax = std::max(vecElemsMax, it.elems);
  }
  t.origins = group.origins.empty() ? t.nodes : group.origins;
  t.unit = anyCube && anyVector ? Unit::CubeVector : anyCube ? Unit::Cube : anyVector ? Unit::Vector : Unit::None;
  if (t.unit == Unit::None) return kc;  // only views: no kernel, no traffic

  FW_TRY_STATUS(bytesOf(bd.inputs, t.inputBytes));
  FW_TRY_STATUS(bytesOf(bd.weights, t.weightBytes));
  FW_TRY_STATUS(bytesOf(bd.outputs, t.outputBytes));

  // Vector tiling through UB: every external input/output of a vector member is double-buffered,
  // every intermediate occupies one buffer. The smallest tile is one row (rounded to lanes).
  if (vecElemsMax > 0) {
    auto usedByVec = [&](ValueId v) {
      for (NodeId c : g.value(v).consumers)
        if (vecMember[static_cast<size_t>(c)]) return true;
      return false;
    };
    auto producedByVec = [&](ValueId v) {
      NodeId p = g.value(v).producer;
      return p != kNoId && vecMember[static_cast<size_t>(p)];
    };
    int64_t nIo = 0, nInternal = 0;
    double internalBytes = 0, vecInputBytes = 0;
    for (ValueId v : bd.inputs)
      if (usedByVec(v)) {
        ++nIo;
        FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, producerIn(v)));
        vecInputBytes += b;
      }
    for (ValueId v : bd.outputs)
      if (producedByVec(v)) ++nIo;
    for (ValueId v : bd.internals) {
      const NodeId p = g.value(v).producer;
      if (opFamily(g.node(p).opType) == OpFamily::View) continue;  // an alias, not a buffer
      ++nInternal;
      FW_ASSIGN_OR_RETURN(double b, deviceBytes(g, v, hw, p));
      internalBytes += b;
    }
    const auto eb = static_cast<int64_t>(hw.elemBytes());
    const int64_t perElem = eb * std::max<int64_t>(1, 2 * nIo + nInternal);
    const int64_t minTile = roundUp(rowMax, hw.vectorLanes);
    t.workingSetBytes = minTile * perElem;
    int64_t tile = hw.ubBytes / perElem / hw.vectorLanes * hw.vectorLanes;
    if (t.workingSetBytes > hw.ubBytes) {
      // One row does not fit UB: intermediates go out to HBM and back; a lone op re-reads its input.
      t.spilled = true;
      t.spillBytes = nInternal > 0 ? 2.0 * internalBytes : vecInputBytes;
      tile = minTile;
    }
    tile = std::max(tile, hw.vectorLanes);
    const int64_t used = std::min(hw.vectorCores, ceilDiv(vecElemsMax, hw.vectorLanes));
    t.tilesPerCore = std::max(t.tilesPerCore, ceilDiv(ceilDiv(vecElemsMax, used), tile));
  }

  t.hbmBytes = t.inputBytes + t.weightBytes + t.outputBytes + t.rereadBytes + t.spillBytes;
  t.transferCycles = static_cast<int64_t>(std::ceil(t.hbmBytes * hw.clockHz / hw.hbmBandwidth - 1e-9));
  t.launchCycles = hw.usToCycles(hw.launchUs);

  // Double-buffered pipeline of load/store, cube and vector stages over `tilesPerCore` tiles: the
  // slowest stage sets the pace; the others show only while the pipeline fills and drains.
  const int64_t stages[] = {t.transferCycles, t.cubeCycles, t.vectorCycles};
  const int64_t mx = std::max({stages[0], stages[1], stages[2]});
  const int64_t sum = stages[0] + stages[1] + stages[2];
  int64_t body = mx + ceilDiv(sum - mx, std::max<int64_t>(1, t.tilesPerCore));
  // Floor: no schedule beats the chip's peak (binds only when cube and vector are both saturated).
  const auto floorCycles = static_cast<int64_t>(std::ceil(t.flops / (hw.peakFlops() / hw.clockHz) - 1e-9));
  body = std::max(body, floorCycles);
  t.fillCycles = body - mx;
  t.cycles = body + t.launchCycles;
  if (t.launchCycles > mx)
    t.bound = Bound::Launch;
  else if (t.transferCycles >= std::max(t.cubeCycles, t.vectorCycles))
    t.bound = Bound::Memory;
  else
    t.bound = Bound::Compute;
  return kc;
}

}  // namespace fw::sim
