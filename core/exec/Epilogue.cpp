#include "core/exec/Epilogue.h"

#include <algorithm>
#include <cstring>

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

std::optional<std::vector<int64_t>> SplitEpilogue::widthsFor(int64_t dim) const {
  std::vector<int64_t> w = widths;
  if (w.empty() && parts > 0) {
    const auto n = static_cast<int64_t>(parts);
    const int64_t chunk = (dim + n - 1) / n;
    for (int64_t k = 0; k < n; ++k) w.push_back(std::max<int64_t>(0, std::min(chunk, dim - k * chunk)));
  }
  int64_t total = 0;
  for (int64_t x : w) {
    if (x < 0) return std::nullopt;
    total += x;
  }
  if (w.size() != parts || total != dim) return std::nullopt;
  return w;
}

std::optional<SplitEpilogue> splitEpilogueOf(const Graph& g, NodeId producer,
                                             const std::function<bool(ValueId)>& kept) {
  const Node& node = g.node(producer);
  if (node.dead || !isDefaultDomain(node.domain) || node.outputs.size() != 1 || node.outputs[0] == kNoId)
    return std::nullopt;
  if (node.opType != "MatMul" && node.opType != "Gemm") return std::nullopt;
  const ValueId v = node.outputs[0];
  const Value& val = g.value(v);
  if (kept(v) || val.consumers.size() != 1) return std::nullopt;
  const Node& split = g.node(val.consumers[0]);
  if (split.dead || split.opType != "Split" || !isDefaultDomain(split.domain) || split.inputs.empty() ||
      split.inputs[0] != v || split.outputs.size() < 2)
    return std::nullopt;
  for (size_t k = 1; k < split.inputs.size(); ++k)
    if (split.inputs[k] == v) return std::nullopt;
  for (ValueId o : split.outputs)
    if (o == kNoId) return std::nullopt;
  SplitEpilogue e;
  e.split = split.id;
  e.axis = split.attrs.intOr("axis", 0);
  e.parts = split.outputs.size();
  if (split.inputs.size() > 1 && split.inputs[1] != kNoId) {
    const Value& sv = g.value(split.inputs[1]);
    if (sv.initializer) {
      const Tensor& t = *sv.initializer;
      if (t.dtype() != DType::Int64 || t.numel() != static_cast<int64_t>(e.parts) || !t.rawData())
        return std::nullopt;
      e.widths.resize(e.parts);
      std::memcpy(e.widths.data(), t.rawData(), e.parts * sizeof(int64_t));
    } else if (sv.isGraphInput) {
      e.sizes = sv.id;
    } else {
      return std::nullopt;
    }
  } else if (auto a = split.attrs.getInts("split")) {
    e.widths = *a;
  } else if (split.attrs.intOr("num_outputs", static_cast<int64_t>(e.parts)) !=
             static_cast<int64_t>(e.parts)) {
    return std::nullopt;
  }
  if (!e.widths.empty() && e.widths.size() != e.parts) return std::nullopt;
  return e;
}

bool splitWrittenInParts(const Graph& g, NodeId producer, const SplitEpilogue& e) {
  const Node& n = g.node(producer);
  if (n.outputs.empty() || n.outputs[0] == kNoId || n.inputs.size() < 2 || n.inputs[1] == kNoId) return false;
  const Value& y = g.value(n.outputs[0]);
  if (!y.shape.rankKnown || y.shape.rank() == 0 || !y.shape.dims.back().isStatic() || y.dtype == DType::Int64)
    return false;
  const auto r = static_cast<int64_t>(y.shape.rank());
  const int64_t N = y.shape.dims.back().value;
  if (normAxis(e.axis, r) != r - 1 || !e.widthsFor(N)) return false;
  const Shape& b = g.value(n.inputs[1]).shape;
  if (n.opType == "MatMul") {
    if (!b.rankKnown || b.rank() < 2) return false;
    for (size_t k = 0; k + 2 < b.rank(); ++k)
      if (!b.dims[k].isStatic() || b.dims[k].value != 1) return false;
    return true;
  }
  if (n.opType != "Gemm" || n.attrs.floatOr("alpha", 1.f) != 1.f) return false;
  const float beta = n.attrs.floatOr("beta", 1.f);
  if (n.inputs.size() < 3 || n.inputs[2] == kNoId || beta == 0.f) return true;
  const Shape& c = g.value(n.inputs[2]).shape;
  const auto cd = c.ints();
  return beta == 1.f && N > 1 && cd && (*cd == std::vector<int64_t>{N} || *cd == std::vector<int64_t>{1, N});
}

}  // namespace fw::exec
