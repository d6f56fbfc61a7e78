#include "core/ir/OpCost.h"

#include <algorithm>
#include <unordered_map>

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

const std::unordered_map<std::string_view, double>& elementwiseTable() {
  // Vector operations per element. Transcendentals are one instruction each on a vector unit with
  // exp/ln/rec/sqrt (Da Vinci has them); composites count their steps.
  static const std::unordered_map<std::string_view, double> t = {
      {"Add", 1},         {"Sub", 1},        {"Mul", 1},         {"Div", 1},
      {"Neg", 1},         {"Abs", 1},        {"Relu", 1},        {"Max", 1},
      {"Min", 1},         {"Sum", 1},        {"Mean", 2},        {"Equal", 1},
      {"Less", 1},        {"Greater", 1},    {"LessOrEqual", 1}, {"GreaterOrEqual", 1},
      {"Not", 1},         {"And", 1},        {"Or", 1},          {"Xor", 1},
      {"Where", 1},       {"Cast", 1},       {"Floor", 1},       {"Ceil", 1},
      {"Round", 1},       {"Sign", 1},       {"Exp", 1},         {"Log", 1},
      {"Sqrt", 1},        {"Reciprocal", 1}, {"Pow", 2},         {"Erf", 1},
      {"Sin", 1},         {"Cos", 1},        {"Clip", 2},        {"LeakyRelu", 2},
      {"PRelu", 2},       {"Elu", 3},        {"Selu", 4},        {"Celu", 4},
      {"Tanh", 1},        {"Sigmoid", 4},    {"HardSigmoid", 3}, {"HardSwish", 4},
      {"Softplus", 3},    {"Softsign", 3},   {"Mish", 6},        {"Gelu", 8},
      {"FastGelu", 6},    {"BiasGelu", 9},   {"QuickGelu", 5},   {"ThresholdedRelu", 2},
      {"IsNaN", 1},       {"IsInf", 1},      {"Mod", 2},         {"BitShift", 1},
      {"Shrink", 3},      {"Swish", 5},      {"SiLU", 5},
  };
  return t;
}

}  // namespace

double elementwiseOpsPerElement(std::string_view opType) {
  const auto& t = elementwiseTable();
  auto it = t.find(opType);
  return it == t.end() ? 0.0 : it->second;
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
  if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv") {
    const size_t w = op == "QLinearConv" ? 3 : 1;
    const Shape* ws = x.in(w);
    const Shape* os = x.out(0);
    if (ws && os && ws->rank() >= 2 && os->rank() >= 2) {
      // W: [Cout, Cin/g, k...]; every output element needs Cin/g * prod(k) MACs.
      c.flops = 2.0 * prodFrom(*os, 0) * prodFrom(*ws, 1);
    }
  } else if (op == "ConvTranspose") {
    const Shape* xs = x.in(0);
    const Shape* ws = x.in(1);
    if (xs && ws && ws->rank() >= 2) {
      // W: [Cin, Cout/g, k...]; every input element scatters into Cout/g * prod(k) outputs.
      c.flops = 2.0 * prodFrom(*xs, 0) * prodFrom(*ws, 1);
    }
  } else if (op == "MatMul" || op == "MatMulInteger" || op == "FusedMatMul") {
    const Shape* as = x.in(0);
    const Shape* os = x.out(0);
    if (as && os) c.flops = 2.0 * prodFrom(*os, 0) * dimAt(*as, -1);
  } else if (op == "Gemm") {
    const Shape* as = x.in(0);
    const Shape* os = x.out(0);
    if (as && os && as->rank() == 2) {
      const double k = n.attrs.intOr("transA", 0) ? dimAt(*as, 0) : dimAt(*as, 1);
      c.flops = 2.0 * prodFrom(*os, 0) * k;
    }
  } else if (op == "LSTM" || op == "GRU" || op == "RNN") {
    const Shape* xs = x.in(0);  // [seq, batch, I]
    const Shape* ws = x.in(1);  // [dirs, gates*H, I]
    const Shape* rs = x.in(2);  // [dirs, gates*H, H]
    if (xs && ws && rs && xs->rank() == 3 && ws->rank() == 3 && rs->rank() == 3) {
      const double seq = dimAt(*xs, 0), batch = dimAt(*xs, 1);
      const double dirs = dimAt(*ws, 0), gh = dimAt(*ws, 1), in = dimAt(*ws, 2), h = dimAt(*rs, 2);
      const double perStepElems = batch * dirs * h;
      const double gateMath = op == "LSTM" ? 20.0 : op == "GRU" ? 16.0 : 2.0;
      c.flops = 2.0 * seq * dirs * batch * gh * (in + h) + seq * perStepElems * gateMath;
    }
  } else if (double k = elementwiseOpsPerElement(op); k > 0) {
    c.flops = k * x.numelOut();
  } else if (op == "ReduceMean" || op == "ReduceSum" || op == "ReduceMax" || op == "ReduceMin" ||
             op == "ReduceProd" || op == "ReduceSumSquare" || op == "ReduceL1" || op == "ReduceL2" ||
             op == "ReduceLogSumExp" || op == "ArgMax" || op == "ArgMin" ||
             op == "GlobalAveragePool" || op == "GlobalMaxPool") {
    c.flops = x.numelIn();
  } else if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
    double k = 1;
    if (auto ks = n.attrs.getInts("kernel_shape"))
      for (int64_t d : *ks) k *= static_cast<double>(d);
    c.flops = x.numelOut() * k;
  } else if (op == "Softmax" || op == "LogSoftmax") {
    c.flops = 5.0 * x.numelOut();
  } else if (op == "BatchNormalization") {
    c.flops = 2.0 * x.numelOut();
  } else if (op == "LayerNormalization" || op == "InstanceNormalization" ||
             op == "GroupNormalization" || op == "SimplifiedLayerNormalization" ||
             op == "SkipLayerNormalization" || op == "LpNormalization" ||
             op == "MeanVarianceNormalization") {
    c.flops = 7.0 * x.numelOut();
  } else if (op == "Einsum") {
    // Unknown contraction size from shapes alone: count one MAC per output element per input
    // element of the first operand's last dim (exact for matrix products written as einsum).
    const Shape* as = x.in(0);
    if (as) c.flops = 2.0 * x.numelOut() * dimAt(*as, -1);
  }
  // Data movement (Transpose, Concat, Gather, Slice, ...) and views (Reshape, ...) do no arithmetic.
  return c;
}

}  // namespace fw
