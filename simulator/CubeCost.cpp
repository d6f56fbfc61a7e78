// The cube unit's share of a kernel: matrix products, fractal cycles, L1 tiling, re-reads (CubeCost.h).
#include "simulator/CubeCost.h"

#include <algorithm>
#include <limits>

#include "simulator/CostUtil.h"
#include "simulator/KernelBoundary.h"
#include "simulator/OpFamily.h"
#include "simulator/VectorCost.h"

namespace fw::sim {
using namespace detail;

namespace {

// A matrix product as the cube sees it: `batch` independent (m×k)·(k×n) products, `steps` of them
// one after another (recurrent cells). Dims already include layout padding (C0 for convolutions).
struct Gemm {
  int64_t batch = 1, m = 1, n = 1, k = 1, steps = 1;
  ValueId a = kNoId, b = kNoId;  // operands read from HBM (for re-read traffic)
};

Result<Gemm> convGemm(const Graph& g, NodeId id, const HwProfile& hw) {
  const Node& n = g.node(id);
  Gemm gm;
  const size_t xi = 0, wi = n.opType == "QLinearConv" ? 3 : 1;
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
  return gm;
}

Result<Gemm> convTransposeGemm(const Graph& g, NodeId id, const HwProfile& hw) {
  const Node& n = g.node(id);
  Gemm gm;
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
  return gm;
}

Result<Gemm> matMulGemm(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  Gemm gm;
  const size_t bi = n.opType == "QLinearMatMul" ? 3 : 1;  // QLinearMatMul: a, a_scale, a_zp, b, ...
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
  return gm;
}

// An Einsum that is one batched product (einsumProductOf).
Result<Gemm> einsumGemm(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  const auto p = einsumProductOf(g, n);
  if (!p) return Error::badInput(where(g, id) + ": the Einsum is not one batched matrix product");
  Gemm gm;
  gm.batch = p->batches;
  gm.m = p->M;
  gm.n = p->N;
  gm.k = p->K;
  gm.a = n.inputs[0];
  gm.b = n.inputs[1];
  return gm;
}

Result<Gemm> gemmOpGemm(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  Gemm gm;
  FW_ASSIGN_OR_RETURN(auto a, dimsOf(g, n.inputs[0], id));
  FW_ASSIGN_OR_RETURN(auto o, dimsOf(g, n.outputs[0], id));
  if (a.size() != 2 || o.size() != 2) return Error::badInput(where(g, id) + ": Gemm operands must be 2-D");
  gm.m = o[0];
  gm.n = o[1];
  gm.k = n.attrs.intOr("transA", 0) ? a[0] : a[1];
  gm.a = n.inputs[0];
  gm.b = n.inputs.size() > 1 ? n.inputs[1] : kNoId;
  return gm;
}

Result<Gemm> recurrentGemm(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  Gemm gm;
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
  return gm;
}

// The matrix product cube op `id` amounts to, before clamping.
Result<Gemm> cubeProblem(const Graph& g, NodeId id, const HwProfile& hw) {
  const std::string& op = g.node(id).opType;
  if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv") return convGemm(g, id, hw);
  if (op == "ConvTranspose") return convTransposeGemm(g, id, hw);
  if (op == "MatMul" || op == "MatMulInteger" || op == "FusedMatMul" || op == "QLinearMatMul") return matMulGemm(g, id);
  if (op == "Gemm") return gemmOpGemm(g, id);
  if (op == "Einsum") return einsumGemm(g, id);
  if (op == "LSTM" || op == "GRU" || op == "RNN") return recurrentGemm(g, id);
  return Error::internal(where(g, id) + ": not a cube op");
}

Result<Gemm> gemmOf(const Graph& g, NodeId id, const HwProfile& hw) {
  FW_ASSIGN_OR_RETURN(Gemm gm, cubeProblem(g, id, hw));
  gm.m = std::max<int64_t>(1, gm.m);
  gm.n = std::max<int64_t>(1, gm.n);
  gm.k = std::max<int64_t>(1, gm.k);
  return gm;
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

// Recurrent cell: gate math on the vector unit after every step.
Status addGateMath(const Graph& g, NodeId m, const Gemm& gm, const HwProfile& hw, KernelTiming& t) {
  const Node& n = g.node(m);
  FW_ASSIGN_OR_RETURN(auto out, dimsOf(g, n.outputs.empty() ? kNoId : n.inputs[2], m));
  VecItem it;
  it.steps = gm.steps;
  it.elems = gm.m * out.back();
  it.ops = n.opType == "LSTM" ? 20 : n.opType == "GRU" ? 16 : 2;
  t.vectorCycles += scaled(vectorCycles(it, hw), hw.efficiency.elementwise);
  return {};
}

// HBM re-reads of operands that do not fit L2, from the L1 tiling; the L1 tiles set the pipeline depth.
Status addRereads(const Graph& g, NodeId m, const Gemm& gm, const std::vector<char>& inGroup, const HwProfile& hw,
                  KernelTiming& t) {
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
  return {};
}

}  // namespace

Result<bool> costCubeOp(const Graph& g, NodeId m, const std::vector<char>& inGroup, const HwProfile& hw,
                        KernelTiming& t) {
  FW_ASSIGN_OR_RETURN(Gemm gm, gemmOf(g, m, hw));
  const int64_t mt = ceilDiv(gm.m, hw.cubeM), nt = ceilDiv(gm.n, hw.cubeN), kt = ceilDiv(gm.k, hw.cubeK);
  const int64_t tiles = gm.batch * mt * nt;
  const int64_t used = std::min(hw.cubeCores, tiles);
  t.cubeCycles += scaled(gm.steps * ceilDiv(tiles, used) * kt, hw.efficiency.cube);
  if (gm.steps > 1) {
    FW_TRY_STATUS(addGateMath(g, m, gm, hw, t));
    return true;
  }
  FW_TRY_STATUS(addRereads(g, m, gm, inGroup, hw, t));
  return false;
}

}  // namespace fw::sim
