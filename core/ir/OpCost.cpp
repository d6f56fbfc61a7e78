#include "core/ir/OpCost.h"

#include <algorithm>
#include <cmath>

#include "core/ir/Einsum.h"
#include "core/ir/OpInfo.h"

namespace fw {
namespace {

double prodFrom(const Shape& s, size_t first);  // in double: no overflow on absurd shapes

struct Ctx {
  const Graph& g;
  const Node& n;
  NodeCost& c;

  void flag(ValueId v, const char* what) {
    if (!c.known) return;  // keep the first problem: it is the one to fix first
    c.known = false;
    c.problem = "node '" + n.name + "' (" + n.opType + "): value '" + g.value(v).name + "' " + what +
                " " + g.value(v).shape.str();
  }
  // Static dims of input/output i, or nullptr (and a problem noted) when unknown.
  const Shape* in(size_t i) {
    if (i >= n.inputs.size() || n.inputs[i] == kNoId) return nullptr;
    const Shape& s = g.value(n.inputs[i]).shape;
    if (!s.isStatic()) {
      flag(n.inputs[i], "has no static shape");
      return nullptr;
    }
    return &s;
  }
  const Shape* out(size_t i) {
    if (i >= n.outputs.size() || n.outputs[i] == kNoId) return nullptr;
    const Shape& s = g.value(n.outputs[i]).shape;
    if (!s.isStatic()) {
      flag(n.outputs[i], "has no static shape");
      return nullptr;
    }
    return &s;
  }
  double numelOut(size_t i = 0) {
    const Shape* s = out(i);
    return s ? prodFrom(*s, 0) : 0.0;
  }
  double numelIn(size_t i = 0) {
    const Shape* s = in(i);
    return s ? prodFrom(*s, 0) : 0.0;
  }
};

double dimAt(const Shape& s, int64_t i) {
  if (i < 0) i += static_cast<int64_t>(s.rank());
  if (i < 0 || i >= static_cast<int64_t>(s.rank())) return 1.0;
  return static_cast<double>(s.dims[static_cast<size_t>(i)].value);
}

double prodFrom(const Shape& s, size_t first) {
  double p = 1;
  for (size_t i = first; i < s.rank(); ++i) p *= static_cast<double>(s.dims[i].value);
  return p;
}

}  // namespace

double elementwiseOpsPerElement(std::string_view opType) {
  const OpInfo* info = findOpInfo(opType);
  return info && info->family == CostFamily::Elementwise && info->flops == FlopRule::PerOut ? info->perElem : 0.0;
}

NodeCost nodeCost(const Graph& g, NodeId id) {
  NodeCost c;
  const Node& n = g.node(id);
  Ctx x{g, n, c};

  // Bytes at the graph's own dtypes.
  auto bytesOf = [&](ValueId v) -> double {
    const Value& val = g.value(v);
    if (val.initializer) return static_cast<double>(val.initializer->byteSize());
    const auto ne = val.shape.numel();
    const size_t es = dtypeSize(val.dtype);
    if (!ne) {
      x.flag(v, "has no static shape");
      return 0;
    }
    if (es == 0) {
      x.flag(v, ("has dtype " + std::string(dtypeName(val.dtype)) + " and shape").c_str());
      return 0;
    }
    return static_cast<double>(*ne) * static_cast<double>(es);
  };
  for (ValueId v : n.inputs) {
    if (v == kNoId) continue;
    if (g.value(v).isInitializer())
      c.weightBytes += bytesOf(v);
    else
      c.bytesIn += bytesOf(v);
  }
  for (ValueId v : n.outputs)
    if (v != kNoId) c.bytesOut += bytesOf(v);

  const std::string& op = n.opType;
  const OpInfo* info = findOpInfo(op);
  if (!info) return c;
  switch (info->flops) {
    case FlopRule::None:
      break;
    case FlopRule::PerOut:
      c.flops = info->perElem * x.numelOut();
      break;
    case FlopRule::PerIn:
      c.flops = info->perElem * x.numelIn();
      break;
    case FlopRule::SortIn: {
      const double ne = x.numelIn();
      c.flops = info->perElem * ne * std::log2(std::max(2.0, ne));
      break;
    }
    case FlopRule::Det: {
      const Shape* as = x.in(0);
      if (as) c.flops = info->perElem * prodFrom(*as, 0) * dimAt(*as, -1);
      break;
    }
    case FlopRule::Conv: {
      const size_t w = op == "QLinearConv" ? 3 : 1;
      const Shape* ws = x.in(w);
      const Shape* os = x.out(0);
      // W: [Cout, Cin/g, k...]; every output element needs Cin/g * prod(k) MACs.
      if (ws && os && ws->rank() >= 2 && os->rank() >= 2) c.flops = 2.0 * prodFrom(*os, 0) * prodFrom(*ws, 1);
      break;
    }
    case FlopRule::ConvTranspose: {
      const Shape* xs = x.in(0);
      const Shape* ws = x.in(1);
      // W: [Cin, Cout/g, k...]; every input element scatters into Cout/g * prod(k) outputs.
      if (xs && ws && ws->rank() >= 2) c.flops = 2.0 * prodFrom(*xs, 0) * prodFrom(*ws, 1);
      break;
    }
    case FlopRule::MatMul: {
      const Shape* as = x.in(0);
      const Shape* os = x.out(0);
      if (as && os) c.flops = 2.0 * prodFrom(*os, 0) * dimAt(*as, -1);
      break;
    }
    case FlopRule::Gemm: {
      const Shape* as = x.in(0);
      const Shape* os = x.out(0);
      if (as && os && as->rank() == 2) {
        const double k = n.attrs.intOr("transA", 0) ? dimAt(*as, 0) : dimAt(*as, 1);
        c.flops = 2.0 * prodFrom(*os, 0) * k;
      }
      break;
    }
    case FlopRule::Recurrent: {
      const Shape* xs = x.in(0);  // [seq, batch, I]
      const Shape* ws = x.in(1);  // [dirs, gates*H, I]
      const Shape* rs = x.in(2);  // [dirs, gates*H, H]
      if (xs && ws && rs && xs->rank() == 3 && ws->rank() == 3 && rs->rank() == 3) {
        const bool batchFirst = n.attrs.intOr("layout", 0) != 0;
        const double seq = dimAt(*xs, batchFirst ? 1 : 0), batch = dimAt(*xs, batchFirst ? 0 : 1);
        const double dirs = dimAt(*ws, 0), gh = dimAt(*ws, 1), in = dimAt(*ws, 2), h = dimAt(*rs, 2);
        const double perStepElems = batch * dirs * h;
        const double gateMath = op == "LSTM" ? 20.0 : op == "GRU" ? 16.0 : 2.0;
        c.flops = 2.0 * seq * dirs * batch * gh * (in + h) + seq * perStepElems * gateMath;
      }
      break;
    }
    case FlopRule::Pool: {
      double k = 1;
      if (auto ks = n.attrs.getInts("kernel_shape"))
        for (int64_t d : *ks) k *= static_cast<double>(d);
      c.flops = x.numelOut() * k;
      break;
    }
    case FlopRule::Einsum: {
      // One multiply per operand (one add for a single operand) for every combination of the labels'
      // values: 2 M N K a product of two operands, numel(input) a sum over one.
      std::vector<std::vector<int64_t>> dims;
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        const Shape* s = x.in(i);
        if (!s) break;
        std::vector<int64_t> d;
        for (const auto& dim : s->dims) d.push_back(dim.value);
        dims.push_back(std::move(d));
      }
      if (dims.size() != n.inputs.size()) break;
      const auto form = resolveEinsum(n.attrs.stringOr("equation", ""), dims);
      if (!form.ok()) {
        if (c.known) {
          c.known = false;
          c.problem = "node '" + n.name + "' (Einsum): " + form.error().message;
        }
        break;
      }
      double combos = 1;
      for (int64_t sz : form->size)
        if (sz >= 0) combos *= static_cast<double>(sz);
      c.flops = static_cast<double>(dims.size()) * combos;
      break;
    }
  }
  // Data movement (Transpose, Concat, Gather, Slice, ...) and views (Reshape, ...) do no arithmetic.
  return c;
}

}  // namespace fw
