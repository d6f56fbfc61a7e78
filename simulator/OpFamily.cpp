#include "simulator/OpFamily.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/exec/ColumnBlocks.h"
#include "core/exec/ConvGeometry.h"
#include "core/ir/DType.h"
#include "core/ir/SliceSpan.h"

namespace fw::sim {

OpFamily opFamily(std::string_view op) {
  const OpInfo* info = findOpInfo(op);
  return info ? info->family : OpFamily::Unknown;
}

const Tensor* constantValue(const Graph& g, ValueId v) {
  if (v == kNoId) return nullptr;
  const Value& val = g.value(v);
  if (val.initializer) return val.initializer.get();
  if (val.producer == kNoId) return nullptr;
  const Node& p = g.node(val.producer);
  if (p.opType != "Constant" || !(p.domain.empty() || p.domain == "ai.onnx")) return nullptr;
  return p.attrs.getTensor("value");
}

namespace {

// A value's dims when all are known (an initializer's own, else its inferred shape's).
std::optional<std::vector<int64_t>> staticDims(const Graph& g, ValueId v) {
  if (v == kNoId) return std::nullopt;
  const Value& val = g.value(v);
  if (val.initializer) return val.initializer->dims();
  return val.shape.ints();
}

// A node input's values when they are constant (constantValue).
std::optional<std::vector<int64_t>> constInts(const Graph& g, const Node& n, size_t k) {
  const Tensor* t = n.inputs.size() > k ? constantValue(g, n.inputs[k]) : nullptr;
  if (!t) return std::nullopt;
  return t->toInt64s();
}

// A Gather's picks of one or two floats (its rows of 4 or 8 bytes: a column's element from each row): the
// executor copies each with one move of a size it knows (core/exec/OpContext.h: copyRows).
bool gathersElements(const Graph& g, const Node& n) {
  if (n.opType != "Gather" || !n.domain.empty() || n.inputs.empty()) return false;
  const auto d = staticDims(g, n.inputs[0]);
  if (!d || d->empty()) return false;
  int64_t axis = n.attrs.intOr("axis", 0);
  if (axis < 0) axis += static_cast<int64_t>(d->size());
  if (axis < 0 || axis >= static_cast<int64_t>(d->size())) return false;
  int64_t inner = 1;
  for (size_t k = static_cast<size_t>(axis) + 1; k < d->size(); ++k) inner *= (*d)[k];
  const int64_t bytes = inner * static_cast<int64_t>(dtypeSize(g.value(n.inputs[0]).dtype));
  return bytes == 4 || bytes == 8;
}

// A Transpose's input dims and perm when both are known.
bool transposeOf(const Graph& g, const Node& n, std::vector<int64_t>& dims, std::vector<int64_t>& perm) {
  if (n.opType != "Transpose" || n.inputs.empty()) return false;
  auto d = staticDims(g, n.inputs[0]);
  if (!d) return false;
  dims = std::move(*d);
  perm = n.attrs.getInts("perm").value_or(std::vector<int64_t>{});
  if (perm.empty())
    for (size_t k = dims.size(); k-- > 0;) perm.push_back(static_cast<int64_t>(k));
  return perm.size() == dims.size();
}

}  // namespace

std::optional<EinsumProduct> einsumProductOf(const Graph& g, const Node& n) {
  if (n.opType != "Einsum" || n.inputs.size() != 2) return std::nullopt;
  std::vector<std::vector<int64_t>> dims;
  for (ValueId v : n.inputs) {
    auto d = staticDims(g, v);
    if (!d) return std::nullopt;
    dims.push_back(std::move(*d));
  }
  const auto form = resolveEinsum(n.attrs.stringOr("equation", ""), dims);
  if (!form.ok()) return std::nullopt;
  return einsumProduct(*form, dims);
}

OpFamily nodeFamily(const Graph& g, const Node& n) {
  const OpFamily fam = opFamily(n.opType);
  if (n.opType == "Einsum") return einsumProductOf(g, n) ? OpFamily::Cube : fam;
  if (const auto rows = padRows(g, n); rows && rows->none) return OpFamily::View;
  if (n.opType == "Cast" && !n.inputs.empty() && n.inputs[0] != kNoId && !n.outputs.empty() &&
      n.outputs[0] != kNoId) {
    const Value& in = g.value(n.inputs[0]);
    const DType from = in.initializer ? in.initializer->dtype() : in.dtype;
    const auto to = n.attrs.getInt("to");
    if (from != DType::Undefined && to && dtypeFromInt(static_cast<int32_t>(*to)) == from)
      return OpFamily::View;
  }
  std::vector<int64_t> dims, perm;
  return transposeOf(g, n, dims, perm) && permKeepsOrder(dims, perm) ? OpFamily::View : fam;
}

bool isComparison(const Node& n) {
  return n.domain.empty() && (n.opType == "Equal" || n.opType == "Less" || n.opType == "Greater" ||
                              n.opType == "LessOrEqual" || n.opType == "GreaterOrEqual");
}

namespace {
// Which of the executor's loops an Add, Sub, Mul or Div runs (core/exec/Broadcast.h: binaryLoop), and through
// the general one its rows: the output's elements over its innermost run of axes both operands walk as one.
// Tile: short rows of one operand repeated down a dense other, run as planes against a tile of the row.
struct BinaryLoop {
  enum Kind { None, Whole, Scalar, Row, Tile, General } kind = None;
  int64_t rows = 0;
};
bool arithmetic(const Node& n) {
  return n.opType == "Add" || n.opType == "Sub" || n.opType == "Mul" || n.opType == "Div";
}
BinaryLoop binaryLoopOf(const Graph& g, const Node& n) {
  if ((!arithmetic(n) && !isComparison(n)) || !n.domain.empty() || n.inputs.size() != 2 || n.outputs.empty())
    return {};
  const auto a = staticDims(g, n.inputs[0]), b = staticDims(g, n.inputs[1]);
  if (!a || !b) return {};
  const size_t r = std::max(a->size(), b->size());
  std::vector<int64_t> od(r, 1);
  for (size_t k = 0; k < r; ++k) {
    const int64_t x = k + a->size() >= r ? (*a)[k + a->size() - r] : 1;
    const int64_t y = k + b->size() >= r ? (*b)[k + b->size() - r] : 1;
    if (x != y && x != 1 && y != 1) return {};
    od[k] = x == 1 ? y : x;
  }
  auto numel = [](const std::vector<int64_t>& d) {
    int64_t e = 1;
    for (int64_t x : d) e *= x;
    return e;
  };
  const int64_t total = numel(od), na = numel(*a), nb = numel(*b);
  if (total == 0 || od.empty()) return {};
  auto trailing = [&](const std::vector<int64_t>& d) {
    size_t lead = 0;
    while (lead < d.size() && d[lead] == 1) ++lead;
    return d.size() - lead <= od.size() &&
           std::equal(d.begin() + static_cast<std::ptrdiff_t>(lead), d.end(),
                      od.end() - static_cast<std::ptrdiff_t>(d.size() - lead));
  };
  auto rowScalar = [&](const std::vector<int64_t>& d) {
    return d.size() == od.size() && d.back() == 1 && std::equal(d.begin(), d.end() - 1, od.begin());
  };
  const bool aWhole = *a == od, bWhole = *b == od;
  if (aWhole && bWhole) return {BinaryLoop::Whole, 0};
  if ((aWhole && nb == 1) || (bWhole && na == 1))
    return {total > 1 ? BinaryLoop::Scalar : BinaryLoop::Whole, 0};
  if ((aWhole && nb > 1 && nb < total && trailing(*b)) || (bWhole && na > 1 && na < total && trailing(*a)))
    return {BinaryLoop::Row, 0};
  if (od.back() > 1 && ((aWhole && rowScalar(*b)) || (bWhole && rowScalar(*a)))) return {BinaryLoop::Row, 0};
  // Each operand's strides over the output's axes (0 where it broadcasts), then runs of axes both walk
  // as one merged, as broadcastRows does.
  std::array<std::vector<int64_t>, 2> full;
  for (size_t i = 0; i < 2; ++i) {
    const std::vector<int64_t>& d = i == 0 ? *a : *b;
    full[i].assign(r, 0);
    int64_t st = 1;
    for (size_t k = r; k-- > 0;) {
      const int64_t x = k + d.size() >= r ? d[k + d.size() - r] : 1;
      full[i][k] = x == 1 ? 0 : st;
      st *= x;
    }
  }
  std::vector<int64_t> out;
  std::array<std::vector<int64_t>, 2> st;
  for (size_t k = 0; k < r; ++k) {
    const bool merge =
        !out.empty() && st[0].back() == full[0][k] * od[k] && st[1].back() == full[1][k] * od[k];
    if (merge)
      out.back() *= od[k];
    else
      out.push_back(od[k]);
    for (size_t i = 0; i < 2; ++i) {
      if (merge)
        st[i].back() = full[i][k];
      else
        st[i].push_back(full[i][k]);
    }
  }
  const size_t m = out.size();
  const int64_t len = out.back();
  // Short rows of one operand repeated down the last two merged axes, the other's dense there: planes
  // against a tile of the row, each plane's tile made apart (its "rows").
  if (m >= 2 && len < 16 && out[m - 2] > 1)
    for (size_t i = 0; i < 2; ++i)
      if (st[i][m - 1] == 1 && st[i][m - 2] == 0 && st[1 - i][m - 1] == 1 && st[1 - i][m - 2] == len)
        return {BinaryLoop::Tile, total / (len * out[m - 2])};
  return {BinaryLoop::General, len > 0 ? total / len : 0};
}
}  // namespace

// The rows an Add, Sub, Mul or Div broadcasts through the executor's general loop (core/exec/Broadcast.h:
// binaryLoop, broadcastRows), each row set up apart (its offsets carried from the row before), or the planes
// of its tile loop, each plane's tile made apart. 0 for the loops without rows of their own. (Rows of 8,
// [64, 64, 8] * [64, 1, 8]: 12.3 us where [32, 1024] * [32, 1024] took 3.4, 1 thread, session 38.)
int64_t broadcastRows(const Graph& g, const Node& n) {
  const BinaryLoop l = binaryLoopOf(g, n);
  return l.kind == BinaryLoop::General || l.kind == BinaryLoop::Tile ? l.rows : 0;
}

namespace {
// A float MaxPool without indices of a 2x2 window at stride 2 over [N, C, H, W], no padding, no ceil-mode
// row or column of its own: the executor's own loop for it (core/exec/ops_pool.cpp: maxPool2x2).
bool maxPool2x2(const Graph& g, const Node& n) {
  if (n.opType != "MaxPool" || !n.domain.empty() || n.inputs.empty() || n.inputs[0] == kNoId ||
      (n.outputs.size() > 1 && n.outputs[1] != kNoId) || g.value(n.inputs[0]).dtype != DType::Float32)
    return false;
  const auto d = staticDims(g, n.inputs[0]);
  if (!d || d->size() != 4) return false;
  auto all = [&](const char* attr, int64_t want, size_t count, bool required) {
    const auto v = n.attrs.getInts(attr);
    if (!v) return !required;
    return v->size() == count && std::all_of(v->begin(), v->end(), [&](int64_t x) { return x == want; });
  };
  const std::string autoPad = n.attrs.stringOr("auto_pad", "NOTSET");
  const bool ceil = n.attrs.intOr("ceil_mode", 0) != 0;
  return all("kernel_shape", 2, 2, true) && all("strides", 2, 2, true) && all("pads", 0, 4, false) &&
         all("dilations", 1, 2, false) && (autoPad == "NOTSET" || autoPad == "VALID") &&
         (!ceil || ((*d)[2] % 2 == 0 && (*d)[3] % 2 == 0));
}
// A float ReduceMax, ReduceMin, ReduceSum, ReduceMean or ReduceLogSumExp with static dims and axes: its
// output elements (`rows`) and whether a kept axis of more than one element follows a reduced one (a middle
// axis, e.g. a mean over the tokens of [batch, tokens, dim]).
struct FloatReduction {
  int64_t rows = 1;
  int64_t rowLen = 1;  // the reduced axes' elements
  bool middle = false;
};
std::optional<FloatReduction> floatReduction(const Graph& g, const Node& n) {
  if ((n.opType != "ReduceMax" && n.opType != "ReduceMin" && n.opType != "ReduceSum" &&
       n.opType != "ReduceMean" && n.opType != "ReduceLogSumExp") ||
      !n.domain.empty() || n.inputs.empty() || n.inputs[0] == kNoId ||
      g.value(n.inputs[0]).dtype != DType::Float32)
    return std::nullopt;
  const auto d = staticDims(g, n.inputs[0]);
  if (!d) return std::nullopt;
  const auto rank = static_cast<int64_t>(d->size());
  std::optional<std::vector<int64_t>> axes =
      n.inputs.size() > 1 && n.inputs[1] != kNoId ? constInts(g, n, 1) : n.attrs.getInts("axes");
  if (!axes && n.inputs.size() > 1 && n.inputs[1] != kNoId)
    return std::nullopt;  // axes computed in the graph
  std::vector<char> red(d->size(), axes && !axes->empty() ? 0 : 1);
  if (axes)
    for (int64_t a : *axes) {
      if (a < 0) a += rank;
      if (a < 0 || a >= rank) return std::nullopt;
      red[static_cast<size_t>(a)] = 1;
    }
  FloatReduction r;
  bool seen = false;
  for (size_t k = 0; k < d->size(); ++k) {
    if (seen && !red[k] && (*d)[k] != 1) r.middle = true;
    seen = seen || red[k];
    if (!red[k]) r.rows *= (*d)[k];
    if (red[k]) r.rowLen *= (*d)[k];
  }
  return r;
}

}  // namespace

std::optional<PoolLoops> poolLoops(const Graph& g, const Node& n) {
  const bool pool =
      n.domain.empty() && ((n.opType == "MaxPool" && (n.outputs.size() < 2 || n.outputs[1] == kNoId)) ||
                           n.opType == "AveragePool");
  if (!pool || maxPool2x2(g, n) || n.inputs.empty() || n.inputs[0] == kNoId || n.outputs.empty() ||
      n.outputs[0] == kNoId)
    return std::nullopt;
  const auto in = staticDims(g, n.inputs[0]);
  if (!in || in->size() < 3) return std::nullopt;
  // The executor's geometry (core/exec/ConvGeometry.h): the bench graphs of fwb calibrate carry no output
  // shapes.
  const auto geo = exec::poolGeometry(n, n.attrs, std::vector<int64_t>(in->begin() + 2, in->end()));
  if (!geo.ok()) return std::nullopt;
  const size_t r = geo->in.size();
  PoolLoops l;
  l.planes = (*in)[0] * (*in)[1];
  std::vector<int64_t> cur = *in;
  for (size_t d = 0; d < r; ++d) {
    const int64_t k = geo->kernel[d], n0 = geo->in[d], stride = geo->strides[d], dil = geo->dilations[d];
    const int64_t padBegin = geo->padsBegin[d], outLen = geo->out[d];
    // A 1-tap window at stride 1 with no padding leaves the dim as it is: no pass.
    if (k == 1 && stride == 1 && padBegin == 0 && outLen == n0) continue;
    int64_t outer = 1, inner = 1;
    for (size_t a = 0; a < 2 + d; ++a) outer *= cur[a];
    for (size_t a = 3 + d; a < cur.size(); ++a) inner *= cur[a];
    cur[2 + d] = outLen;
    const double taps = static_cast<double>(outer) * static_cast<double>(outLen) *
                        static_cast<double>(inner) * static_cast<double>(k);
    (inner == 1 && stride > 1 ? l.stridedTaps : l.contiguousTaps) += taps;
    // The outputs whose window lies wholly inside the input, [lo, hi), run as one loop a row (or a block of
    // rows); the others take the bounded loop, a tap at a time (poolAlong), and so do all of a dim before the
    // last at a stride.
    const int64_t lo = padBegin <= 0 ? 0 : std::min(outLen, (padBegin + stride - 1) / stride);
    const int64_t last = n0 - 1 + padBegin - (k - 1) * dil;
    const int64_t hi = std::max(lo, last < 0 ? int64_t{0} : std::min(outLen, last / stride + 1));
    const bool rowsDone = hi > lo && (inner == 1 || stride == 1);
    l.rows += outer * (rowsDone ? outLen - (hi - lo) : outLen) * k;
  }
  return l;
}

std::string efficiencyKey(const Graph& g, const Node& n) {
  // A 2x2 stride-2 MaxPool takes a loop of its own, 2.4-2.8x the separable passes' speed ([16, 32, 32, 32]:
  // 75 us, 180 on the passes, session 52).
  if (maxPool2x2(g, n)) return "MaxPool/2x2";
  // A pool whose taps are mostly one value a stride apart (a 1-D pool at a stride; poolLoops) is timed on
  // such a pool: "MaxPool/strided", "AveragePool/strided" (its strided taps cost at that rate whatever the
  // key, CpuCost.cpp).
  if (const auto p = poolLoops(g, n); p && p->stridedTaps > p->contiguousTaps) return n.opType + "/strided";
  // An Add, Sub, Mul or Div of the whole output and a single element runs a loop of its own, whose speed is
  // not the two-tensor loop's; one of the whole output and a row of its trailing axes (a bias) or one value a
  // row of it (x - mean) streams the one and keeps the other at hand, a third less traffic than two whole
  // operands (sets 45-47's bias Adds were simulated 1.42x their time on the two-operand rate, session 38).
  // A comparison of int64 operands (ids, positions) takes figures of its own, "<Op>/int64": the plain
  // build has no vector compare of 64-bit integers, and its loop ran 0.33 ns an element where the float one
  // ran 0.10 (ids [4096, 1] == [1, 64]: 88 us alone, a float pair 34; 1 thread, session 82). A comparison
  // without figures of its own pays Equal's (CpuCost.cpp). Otherwise a comparison's loops are keyed by its
  // op type alone: its figures are timed against a single element.
  auto int64In = [&](size_t k) {
    if (n.inputs.size() <= k || n.inputs[k] == kNoId) return false;
    const Value& v = g.value(n.inputs[k]);
    return (v.initializer ? v.initializer->dtype() : v.dtype) == DType::Int64;
  };
  if (isComparison(n) && n.inputs.size() == 2 && int64In(0) && int64In(1)) return n.opType + "/int64";
  const BinaryLoop::Kind loop = arithmetic(n) ? binaryLoopOf(g, n).kind : BinaryLoop::None;
  if (loop == BinaryLoop::Scalar) return n.opType + "/scalar";
  if (loop == BinaryLoop::Row || loop == BinaryLoop::Tile) return n.opType + "/row";
  // A Pad copies row by row along the last axis: rows of 128 or more padded elements took 4.6-6.2 us
  // over 32K elements, as long kept rows do ("Pad/rows"), where the "Pad" case's rows of 34 take 16
  // (docs/calibration_cpu.md, session 18; a dilated TCN's causal pads of [8,64,256] rows: 12.9 us
  // measured, 57 charged at the short rows' rate).
  if (const auto rows = padRows(g, n)) return rows->longRows() ? "Pad/rows" : n.opType;
  // A Gather of elements, each one move, spends less a pick than one of longer rows (a RedNet's unfold by
  // Gathers of 6.4M single floats: 2.5 ms measured, 10.4 simulated at the rows of 8 floats' time a row,
  // session 38).
  if (gathersElements(g, n)) return "Gather/elements";
  // A Resize's modes are loops of their own: a linear one weighs 4 taps a value in 2-D, a cubic one 16,
  // where a nearest one copies one ("Resize/linear", "Resize/cubic"; the nearest mode is the op type's).
  // Until session 71 the nearest and linear cases shared one key, whose figure was their median: a narrow
  // U-Net's nearest 2x upsampling over [4, 16, 64, 64], 270 us measured, was simulated at 484.
  if (n.opType == "Resize" && n.domain.empty()) {
    const std::string mode = n.attrs.stringOr("mode", "nearest");
    if (mode != "nearest") return "Resize/" + mode;
  }
  // A float reduction over a middle axis runs the executor's column loop, not a row's (core/exec/
  // ops_reduce.cpp): "<Op>/middle" (a two-tower model's mean over 8 items of [32, 8, 64]: 4.4 us measured,
  // 2.5 simulated at the last-axis rate; session 59).
  // (A LogSumExp's column blocks are its own: its op type's figures.)
  if (const auto r = floatReduction(g, n)) {
    if (r->middle && n.opType != "ReduceLogSumExp") return n.opType + "/middle";
    // A sum or mean over last axes in rows of 2 to 7 runs the executor's loop that sums four rows at a time,
    // a row's length a constant of its own ("<Op>/short"), whose time a row is not a row of 8's: over 32K
    // floats 11.5 us in rows of 2, 10.7 in rows of 3, 9.8 in rows of 4, 8.7 in rows of 7, 6.1 in rows of 8,
    // 4.9 in rows of 1024 (session 81; a point-cloud net's squared distances summed over xyz, 2.7-2.9 us a
    // trip measured over [2, 1024, 3], 1.2 simulated at the rows of 8's figure).
    if (!r->middle && (n.opType == "ReduceSum" || n.opType == "ReduceMean") && r->rowLen >= 2 &&
        r->rowLen <= 7)
      return n.opType + "/short";
  }
  std::vector<int64_t> dims, perm;
  if (!transposeOf(g, n, dims, perm)) return n.opType;
  int64_t innerIn = -1, innerOut = -1;
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k] != 1) innerIn = static_cast<int64_t>(k);
  for (int64_t p : perm)
    if (p >= 0 && p < static_cast<int64_t>(dims.size()) && dims[static_cast<size_t>(p)] != 1) innerOut = p;
  return innerIn >= 0 && innerIn == innerOut ? "Transpose/rows" : n.opType;
}

namespace {
// Node n's "axis" attribute (default `dflt`) as an index into `dims`; nullopt when dims is empty or the
// axis is out of range.
std::optional<int64_t> axisOf(const Node& n, const std::vector<int64_t>& dims, int64_t dflt) {
  const auto rank = static_cast<int64_t>(dims.size());
  int64_t axis = n.attrs.intOr("axis", dflt);
  if (axis < 0) axis += rank;
  if (rank == 0 || axis < 0 || axis >= rank) return std::nullopt;
  return axis;
}
}  // namespace

double gatherDistinctRows(const Graph& g, const Node& n) {
  if (n.opType != "Gather" || !n.domain.empty() || n.inputs.size() < 2) return 0;
  const auto d = staticDims(g, n.inputs[0]), idx = staticDims(g, n.inputs[1]);
  const auto axis = d ? axisOf(n, *d, 0) : std::nullopt;
  if (!idx || !axis) return 0;
  double blocks = 1, picks = 1;
  for (int64_t k = 0; k < *axis; ++k) blocks *= static_cast<double>((*d)[static_cast<size_t>(k)]);
  for (int64_t e : *idx) picks *= static_cast<double>(e);
  const int64_t rows = (*d)[static_cast<size_t>(*axis)];
  if (rows <= 0 || picks <= 0 || blocks <= 0) return 0;
  if (auto at = constInts(g, n, 1)) {
    for (int64_t& v : *at) v = v < 0 ? v + rows : v;
    std::sort(at->begin(), at->end());
    const auto distinct = std::unique(at->begin(), at->end()) - at->begin();
    return blocks * static_cast<double>(distinct);
  }
  const double r = static_cast<double>(rows);
  return blocks * r * -std::expm1(-picks / r);
}

int64_t rowWiseRows(const Graph& g, const Node& n) {
  std::vector<int64_t> dims, perm;
  if (transposeOf(g, n, dims, perm)) {
    // Transpose/rows: the output's innermost run of axes that follow each other in the input, ending
    // with the input's innermost (axes of 1 left out), is a row copied whole (core/exec/Transpose.cpp).
    std::vector<int64_t> inAxes, outAxes;  // axes of more than one element, input order and output order
    for (size_t k = 0; k < dims.size(); ++k)
      if (dims[k] != 1) inAxes.push_back(static_cast<int64_t>(k));
    for (int64_t p : perm)
      if (p >= 0 && p < static_cast<int64_t>(dims.size()) && dims[static_cast<size_t>(p)] != 1)
        outAxes.push_back(p);
    if (inAxes.empty() || outAxes.size() != inAxes.size() || outAxes.back() != inAxes.back()) return 0;
    int64_t len = 1, numel = 1;
    for (int64_t d : dims) numel *= d;
    for (size_t i = outAxes.size(), j = inAxes.size(); i-- > 0 && j-- > 0 && outAxes[i] == inAxes[j];)
      len *= dims[static_cast<size_t>(outAxes[i])];
    return len > 0 ? numel / len : 0;
  }
  if (n.opType == "Gather" && n.domain.empty() && n.inputs.size() > 1) {
    // A pick is a row copied (core/exec/ops_tensor.cpp): the indices' elements, each once per block of
    // the axes before the gathered one.
    const auto d = staticDims(g, n.inputs[0]), idx = staticDims(g, n.inputs[1]);
    const auto axis = d ? axisOf(n, *d, 0) : std::nullopt;
    if (!idx || !axis) return 0;
    int64_t rows = 1;
    for (int64_t k = 0; k < *axis; ++k) rows *= (*d)[static_cast<size_t>(k)];
    for (int64_t e : *idx) rows *= e;
    return rows;
  }
  if (n.opType == "GatherND" && n.domain.empty() && n.inputs.size() > 1) {
    // A tuple's address worked out, then its slice copied (core/exec/ops_gather_scatter.cpp): the indices'
    // tuples, all but their last axis.
    const auto idx = staticDims(g, n.inputs[1]);
    if (!idx || idx->empty() || idx->back() <= 0) return 0;
    int64_t tuples = 1;
    for (size_t k = 0; k + 1 < idx->size(); ++k) tuples *= (*idx)[k];
    return tuples;
  }
  if (n.opType == "ScatterElements" && n.domain.empty() && n.inputs.size() > 2) {
    // The indices' rows along their last axis, each walked apart (core/exec/ops_gather_scatter.cpp:
    // scatterRow): a detector's RoI-pool level merge scatters [k, 256, 7, 7] in rows of 7.
    const auto idx = staticDims(g, n.inputs[1]);
    if (!idx || idx->empty() || idx->back() <= 0) return 0;
    int64_t rows = 1;
    for (size_t k = 0; k + 1 < idx->size(); ++k) rows *= (*idx)[k];
    return rows;
  }
  if (n.opType == "GridSample" && n.domain.empty() && n.inputs.size() > 1) {
    // Each output position's coordinates, taps and weights, once for all its channels
    // (core/exec/ops_region.cpp): the grid's positions, [N, H_out, W_out, 2].
    const auto grid = staticDims(g, n.inputs[1]);
    if (!grid || grid->size() != 4) return 0;
    return (*grid)[0] * (*grid)[1] * (*grid)[2];
  }
  if (n.opType == "Slice" && n.domain.empty() && !n.inputs.empty() && !n.outputs.empty() &&
      n.outputs[0] != kNoId) {
    // The output's rows copied from the input (core/exec/Transpose.cpp: copyStrided): the output's innermost
    // run of elements the input's walk takes in one stride, the axes it keeps whole and the first one it
    // cuts. Pyramid flow's cost volume slices
    // [2, 32, 16, 24] to 16 columns, 1024 rows of 64 B: 3.8 us measured, 1.85 simulated by its bytes alone.
    // Its output's extents from its constant starts, ends, axes and steps as the executor takes them (the
    // output's inferred shape where they are computed in the graph).
    const auto in = staticDims(g, n.inputs[0]);
    if (!in) return 0;
    const auto rank = static_cast<int64_t>(in->size());
    std::vector<int64_t> step(in->size(), 1);
    std::optional<std::vector<int64_t>> out;
    const bool byAttrs = n.inputs.size() == 1;  // opset 1-9: starts, ends and axes are attributes
    const auto starts = byAttrs               ? n.attrs.getInts("starts")
                        : n.inputs.size() > 2 ? constInts(g, n, 1)
                                              : std::nullopt;
    const auto ends = byAttrs               ? n.attrs.getInts("ends")
                      : n.inputs.size() > 2 ? constInts(g, n, 2)
                                            : std::nullopt;
    const bool axesGiven =
        byAttrs ? n.attrs.getInts("axes").has_value() : n.inputs.size() > 3 && n.inputs[3] != kNoId;
    const bool stepsGiven = n.inputs.size() > 4 && n.inputs[4] != kNoId;
    const auto axes = byAttrs ? n.attrs.getInts("axes") : axesGiven ? constInts(g, n, 3) : std::nullopt;
    const auto steps = stepsGiven ? constInts(g, n, 4) : std::nullopt;
    if (starts && ends && starts->size() == ends->size() &&
        (!axesGiven || (axes && axes->size() == starts->size())) &&
        (!stepsGiven || (steps && steps->size() == starts->size()))) {
      out = *in;
      for (size_t k = 0; k < starts->size(); ++k) {
        int64_t a = axes ? (*axes)[k] : static_cast<int64_t>(k);
        if (a < 0) a += rank;
        if (a < 0 || a >= rank) return 0;
        const int64_t dim = (*in)[static_cast<size_t>(a)], st = steps ? (*steps)[k] : 1;
        if (st == 0) return 0;
        (*out)[static_cast<size_t>(a)] = sliceSpan(dim, (*starts)[k], (*ends)[k], st).length;
        step[static_cast<size_t>(a)] = st;
      }
    } else {
      out = staticDims(g, n.outputs[0]);
      if (!out || out->size() != in->size() || stepsGiven) return 0;
    }
    // The executor's rows: its output axes merged where the input's walk runs on from one to the next (a
    // step on the last axis too: x[..., ::2] of an even length is one row walked two by two), the last
    // merged axis a row (core/exec/Transpose.cpp: coalesce).
    std::vector<int64_t> walk(in->size());
    for (int64_t k = rank - 1, stride = 1; k >= 0; --k) {
      walk[static_cast<size_t>(k)] = step[static_cast<size_t>(k)] * stride;
      stride *= (*in)[static_cast<size_t>(k)];
    }
    int64_t run = 0, runWalk = 0, numel = 1;
    for (size_t k = 0; k < out->size(); ++k) {
      numel *= (*out)[k];
      if ((*out)[k] == 1) continue;
      if (run > 0 && runWalk == walk[k] * (*out)[k]) {
        run *= (*out)[k];
      } else {
        run = (*out)[k];
      }
      runWalk = walk[k];
    }
    return run > 0 ? numel / run : 0;
  }
  if (n.opType == "Split" && n.domain.empty() && !n.inputs.empty()) {
    // Each part is copied a block of the axes before the split one at a time (core/exec/ops_tensor.cpp):
    // those blocks times the parts.
    const auto d = staticDims(g, n.inputs[0]);
    const auto axis = d ? axisOf(n, *d, 0) : std::nullopt;
    if (!axis) return 0;
    int64_t rows = static_cast<int64_t>(n.outputs.size());
    for (int64_t k = 0; k < *axis; ++k) rows *= (*d)[static_cast<size_t>(k)];
    return rows;
  }
  if (const auto p = padRows(g, n)) {
    // A Pad of the [N,C,H,W] kind (efficiencyKey "Pad"): the executor's row steps (PadRows::rows), each with
    // its source row looked up and its parts copied apart. Inception-v3's count-including pads of [2, 2048,
    // 3, 3] to 5x5, 20480 rows of 5: 90 us alone, 24 simulated at the elements' rate (session 77). The
    // "Pad/rows" kind moves long rows, timed with its rows in its elements' rate: none.
    return p->none || p->longRows() ? 0 : p->rows;
  }
  if (const auto p = poolLoops(g, n)) {
    // The taps of its bounded loop (poolLoops: each a loop of its own, its bounds checked). GoogLeNet's
    // branch MaxPools over [4, 512, 6, 6], 2048 planes of 36: 288 us measured, 88 simulated at the elements'
    // rate alone (session 59). Until session 65 a plane a row: [2, 832, 7, 7] took 354 us, 163 simulated so;
    // its bounded taps are 48 a plane (two border rows and each row's two border outputs, 3 taps each).
    return p->rows;
  }
  if (n.opType == "BatchNormalization" && n.domain.empty() && !n.inputs.empty()) {
    // A plane of each image and channel at a time, its scale and shift looked up for it; [N, C] (a
    // BatchNorm1d) a row of C at a time (core/exec/ops_nn.cpp).
    const auto d = staticDims(g, n.inputs[0]);
    if (!d || d->size() < 2) return 0;
    int64_t planes = (*d)[0], inner = 1;
    for (size_t k = 2; k < d->size(); ++k) inner *= (*d)[k];
    if (inner != 1) planes *= (*d)[1];
    return planes;
  }
  if ((n.opType == "GlobalAveragePool" || n.opType == "GlobalMaxPool") && n.domain.empty() &&
      !n.inputs.empty()) {
    // Each plane of each image and channel reduced on its own (core/exec/ops_pool.cpp: globalPool). An SE
    // block's pools over planes of 4x4 to 8x8 took 0.23-0.34 ns an element, where the family case's planes
    // of 1024 take 0.17: 164 held-out pools of sets 85-89 were simulated at a median 0.74 of their time,
    // 0.45-0.7 over planes of 9-16 (session 71).
    const auto d = staticDims(g, n.inputs[0]);
    if (!d || d->size() < 3) return 0;
    return (*d)[0] * (*d)[1];
  }
  if (const auto r = floatReduction(g, n)) {
    // A float reduction over its last axes (axes of 1 after the first reduced one aside) reduces each
    // output's row on its own (core/exec/ops_reduce.cpp): a row each output element. Over a middle axis
    // it walks rows of the inner axes, not costed a row.
    return r->middle ? 0 : r->rows;
  }
  if ((n.opType == "ArgMax" || n.opType == "ArgMin") && n.domain.empty() && !n.inputs.empty()) {
    // Along the last axis each output's row on its own (core/exec/ops_math.cpp: argLoop): its extreme,
    // then a scan for the extreme's index whose stop the branch predictor misses, a row an output element
    // (over 256K floats: 13.9 ns a row of 8, 126 us in rows of 64, 104 in rows of 1024; session 81). Along
    // a middle axis, blocks of columns: not costed a row.
    const auto d = staticDims(g, n.inputs[0]);
    const auto axis = d ? axisOf(n, *d, 0) : std::nullopt;
    if (!axis) return 0;
    int64_t rows = 1;
    for (size_t k = 0; k < d->size(); ++k) {
      if (static_cast<int64_t>(k) > *axis && (*d)[k] != 1) return 0;
      if (static_cast<int64_t>(k) < *axis) rows *= (*d)[k];
    }
    return rows;
  }
  if ((arithmetic(n) || isComparison(n)) && n.domain.empty() && n.inputs.size() == 2 && !n.outputs.empty())
    return broadcastRows(g, n);
  if (n.opType == "TopK" && n.domain.empty() && !n.inputs.empty() && !n.outputs.empty()) {
    // Each line keeps its best k in order as its values come in (core/exec/ops_sort.cpp): most values are
    // held against the k-th best alone, and some k (1 + ln(n / k)) of a line's n, in random order, go in
    // among them: its rows are those insertions (the top 16 of 1024 lines of 256: 60 a line).
    const auto d = staticDims(g, n.inputs[0]);
    const auto axis = d ? axisOf(n, *d, -1) : std::nullopt;
    if (!axis) return 0;
    // k: the K input's value (opset 10 on), the attribute (before), or the output's length along the axis.
    std::optional<int64_t> kk;
    if (const auto kin = constInts(g, n, 1); kin && kin->size() == 1)
      kk = kin->front();
    else if (n.inputs.size() < 2)
      kk = n.attrs.getInt("k");
    if (!kk)
      if (const auto o = staticDims(g, n.outputs[0]); o && o->size() == d->size())
        kk = (*o)[static_cast<size_t>(*axis)];
    if (!kk) return 0;
    const double len = static_cast<double>((*d)[static_cast<size_t>(*axis)]);
    const double k = static_cast<double>(*kk);
    if (len <= 0 || k <= 0) return 0;
    double lines = 1;
    for (size_t j = 0; j < d->size(); ++j)
      if (j != static_cast<size_t>(*axis)) lines *= static_cast<double>((*d)[j]);
    return static_cast<int64_t>(std::llround(lines * std::min(len, k * (1.0 + std::log(len / k)))));
  }
  if (n.opType == "NonMaxSuppression" && n.domain.empty() && n.inputs.size() > 1 && !n.outputs.empty()) {
    // Its rows are box pairs: each candidate of a (batch, class) is tested against the boxes the list has
    // kept so far (core/exec/ops_sort.cpp). With K kept of N candidates a list, a kept box meets those kept
    // before it and a dropped one on average half of them: about N K / 2, summed over the lists N x (all
    // kept) / 2. The kept count is the output's rows when the shape is known (a traced run), else every
    // list's bound, min(N, max_output_boxes_per_class) (set 66's anchor-free detector: 1600 boxes of one
    // class, all kept, 1.28M pairs, 1417 us measured, 23 simulated as a sort of its boxes).
    const auto boxes = staticDims(g, n.inputs[0]), scores = staticDims(g, n.inputs[1]);
    if (!boxes || !scores || boxes->size() != 3 || scores->size() != 3) return 0;
    const double lists = static_cast<double>((*scores)[0] * (*scores)[1]);
    const double boxesPerList = static_cast<double>((*boxes)[1]);
    double kept = -1;
    if (const auto o = staticDims(g, n.outputs[0]); o && o->size() == 2) kept = static_cast<double>((*o)[0]);
    if (kept < 0) {
      double bound = 0;  // no max_output_boxes_per_class: none selected (the operator's default)
      if (n.inputs.size() > 2 && n.inputs[2] != kNoId) {
        const auto m = constInts(g, n, 2);
        if (!m || m->size() != 1) return 0;
        bound = static_cast<double>(std::max<int64_t>(0, m->front()));
      }
      kept = lists * std::min(boxesPerList, bound);
    }
    return static_cast<int64_t>(std::llround(boxesPerList * kept / 2));
  }
  const bool softmax = n.opType == "Softmax" || n.opType == "LogSoftmax";
  if ((!softmax && n.opType != "LayerNormalization") || n.inputs.empty()) return 0;
  const auto d = staticDims(g, n.inputs[0]);
  const auto axis = d ? axisOf(n, *d, -1) : std::nullopt;
  if (!axis) return 0;
  int64_t rows = 1, inner = 1;
  for (int64_t k = 0; k < static_cast<int64_t>(d->size()); ++k) {
    if (softmax ? k != *axis : k < *axis) rows *= (*d)[static_cast<size_t>(k)];
    if (k > *axis) inner *= (*d)[static_cast<size_t>(k)];
  }
  // A softmax along a middle axis runs blocks of columns, a row of a block's width at a time along the axis
  // (core/exec/ColumnBlocks.h): BiSeNet's over 12 classes of [2, 12, 128, 128] took 622 us, costed
  // 2119 as 32768 rows.
  if (softmax && inner > 1 && rows > 0)
    rows = rows / inner * (*d)[static_cast<size_t>(*axis)] * exec::columnBlocks(inner);
  return rows;
}

const std::vector<std::string>& efficiencyVariants() {
  static const std::vector<std::string> v = {"Transpose/rows",    "Pad/rows",
                                             "Gather/elements",   "Add/row",
                                             "Sub/row",           "Mul/row",
                                             "Div/row",           "Add/scalar",
                                             "Sub/scalar",        "Mul/scalar",
                                             "Div/scalar",        "MaxPool/2x2",
                                             "MaxPool/strided",   "AveragePool/strided",
                                             "ReduceMean/middle", "ReduceSum/middle",
                                             "ReduceMax/middle",  "ReduceMin/middle",
                                             "Resize/linear",     "Resize/cubic",
                                             "ReduceSum/short",   "ReduceMean/short",
                                             "Equal/int64"};
  return v;
}

bool isEfficiencyVariant(std::string_view key) {
  const auto& v = efficiencyVariants();
  return std::find(v.begin(), v.end(), key) != v.end();
}

std::optional<PadRows> padRows(const Graph& g, const Node& n) {
  if (n.opType != "Pad" || n.inputs.empty()) return std::nullopt;
  const auto in = staticDims(g, n.inputs[0]);
  if (!in || in->empty()) return std::nullopt;
  const auto rank = static_cast<int64_t>(in->size());
  auto constInts = [&](size_t k) { return fw::sim::constInts(g, n, k); };
  const bool padsInput = n.inputs.size() > 1 && n.inputs[1] != kNoId;
  const auto pads = padsInput ? constInts(1) : n.attrs.getInts("pads");
  if (!pads) {  // pads computed in the graph: the inferred output shape says
    const auto out = n.outputs.empty() ? std::nullopt : staticDims(g, n.outputs[0]);
    if (!out || out->size() != in->size()) return std::nullopt;
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < out->size(); ++d) rows *= (*out)[d];
    // The output the input's shape: pads of 0 (a TensorFlow-style "same" pad worked out from the shape,
    // whose total is 0 before a 1x1 Conv or a stride that divides the input), which the executor hands out
    // as the input; a pad and a crop of one axis by as many is taken for that too. Set 110's TF-style net
    // had 10 such Pads, 0.6-0.9 us measured each, 4-85 us simulated as copies (session 77).
    return PadRows{out->back(), out->back() == in->back(), *out == *in, rows};
  }
  std::vector<int64_t> axes;
  if (const auto a = constInts(3))
    axes = *a;
  else if (n.inputs.size() > 3 && n.inputs[3] != kNoId)
    return std::nullopt;
  else
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  if (pads->size() != 2 * axes.size()) return std::nullopt;
  std::vector<int64_t> begins(in->size(), 0), ends(in->size(), 0);
  for (size_t k = 0; k < axes.size(); ++k) {
    const int64_t a = axes[k] < 0 ? axes[k] + rank : axes[k];
    if (a < 0 || a >= rank) return std::nullopt;
    begins[static_cast<size_t>(a)] = (*pads)[k];
    ends[static_cast<size_t>(a)] = (*pads)[k + axes.size()];
  }
  const int64_t begin = begins.back(), end = ends.back();
  const bool none = std::all_of(pads->begin(), pads->end(), [](int64_t p) { return p == 0; });
  // The executor's steps (core/exec/ops_tensor.cpp: opPad): a block of the axes before the last two a time,
  // filled in one step where its index falls in a constant pad, else its rows along the second-to-last
  // axis one by one, except that with the last axis kept a run of whole rows from consecutive source
  // rows is one copy (a constant pad's rows before and after it a fill each; an edge or reflect pad's
  // rows break the runs as often).
  int64_t rows = 1;
  if (rank >= 2) {
    const auto mid = static_cast<size_t>(rank - 2);
    int64_t blocks = 1, inside = 1;
    for (size_t d = 0; d < mid; ++d) {
      blocks *= (*in)[d] + begins[d] + ends[d];
      inside *= (*in)[d] + std::min<int64_t>(0, begins[d]) + std::min<int64_t>(0, ends[d]);
    }
    const std::string mode = n.attrs.stringOr("mode", "constant");
    if (mode != "constant") inside = blocks;  // edge and reflect take every index's source row
    const int64_t h = std::max<int64_t>(0, (*in)[mid] + begins[mid] + ends[mid]);
    const int64_t perBlock =
        begin == 0 && end == 0
            ? std::min(h, std::max<int64_t>(0, begins[mid]) + std::max<int64_t>(0, ends[mid]) + 1)
            : h;
    rows = std::max<int64_t>(0, blocks - inside) + std::max<int64_t>(0, inside) * perBlock;
  }
  return PadRows{in->back() + begin + end, begin == 0 && end == 0, none, rows};
}

const char* opFamilyName(OpFamily f) { return costFamilyName(f); }

bool isVectorFamily(OpFamily f) {
  return f == OpFamily::Elementwise || f == OpFamily::Reduction || f == OpFamily::Pooling ||
         f == OpFamily::Softmax || f == OpFamily::Norm || f == OpFamily::DataMovement ||
         f == OpFamily::Unknown;
}

ValueId storageBehindViews(const Graph& g, ValueId v) {
  for (int depth = 0; v != kNoId && depth < 64; ++depth) {
    const Value& val = g.value(v);
    if (val.isInitializer() || val.isGraphInput || val.producer == kNoId) return v;
    const Node& p = g.node(val.producer);
    if (nodeFamily(g, p) != OpFamily::View || p.inputs.empty() || p.inputs[0] == kNoId) return v;
    v = p.inputs[0];
  }
  return v;
}

ValueId weightBehindViews(const Graph& g, ValueId v) {
  const ValueId s = storageBehindViews(g, v);
  return s != kNoId && g.value(s).isInitializer() ? s : kNoId;
}

int64_t weightReaders(const Graph& g, ValueId w) {
  std::vector<NodeId> readers;
  std::vector<ValueId> todo{w};
  for (size_t i = 0; i < todo.size() && i < 4096; ++i)
    for (NodeId c : g.value(todo[i]).consumers) {
      const Node& n = g.node(c);
      if (n.dead) continue;
      if (!n.inputs.empty() && n.inputs[0] == todo[i] && nodeFamily(g, n) == OpFamily::View) {
        for (ValueId o : n.outputs)
          if (o != kNoId) todo.push_back(o);
      } else {
        readers.push_back(c);
      }
    }
  std::sort(readers.begin(), readers.end());
  return std::max<int64_t>(1, std::unique(readers.begin(), readers.end()) - readers.begin());
}

}  // namespace fw::sim
