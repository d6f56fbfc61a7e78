#pragma once
// Float tolerances that follow from the computation (issue 21), shared by every test that compares
// float results. A fixed tolerance (1e-4) fails when a CPU's kernels sum in another order (oneDNN on
// AVX2 vs AVX-512) and passes wrong results where the output is large; these bounds do neither.
//
// Model: float32 with unit roundoff u = 2^-24 and gamma(n) = n*u / (1 - n*u) (Higham). A dot product of
// length K computed in ANY order satisfies |fl(sum a*b) - sum a*b| <= gamma(K) * sum |a*b|, so two legal
// evaluations differ by at most 2 * gamma(K) * sum |a*b|.
//
// For whole graphs (original vs fused) `graphBound` runs a first-order running error analysis through
// the executor: it adds to the graph a companion value S(v) >= |v| for every float value and a count
// n(v), such that any float32 evaluation of v is within gamma(n(v)) * S(v) of the exact value:
//   Conv/MatMul/Gemm  S = op(S_x, S_w [, S_b])            n = K + n_x + n_w + 2   (K: reduction length)
//   Add/Sub           S = S_a + S_b                       n = 1 + max(n_a, n_b)
//   Mul               S = S_a * S_b                       n = 1 + n_a + n_b
//   Div               S = S_a/|b| + |y| * S_b/|b|         n = 1 + n_a + n_b
//   f Lipschitz L     S = L * S_x + |y|                   n = max(n_x, c_f)        (c_f: ulps of f)
//   Relu, MaxPool, reshapes, slices …: the same op on S   n = n_x
// A rewrite (BN folding, fusion) computes the same math with other roundings, so original and fused
// may differ by gamma(n_a) S_a + gamma(n_b) S_b elementwise. A legal summation order never exceeds it;
// a wrong result (a dropped term, a wrong weight) exceeds it by orders of magnitude: S is the size of
// the terms, the bound a few hundred ulps of it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "core/ir/Model.h"

namespace fwtest {

using namespace fw;

inline constexpr double kUnitRoundoff = 1.0 / (1 << 24);  // float32, round to nearest

inline double gammaN(double n) {
  const double nu = n * kUnitRoundoff;
  return nu < 0.5 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
}

// Bound on |fl(sum_i a_i b_i) - exact| for a float32 dot product of length K in any summation order,
// given sumAbs = sum_i |a_i * b_i|. Add 1 to K for a bias add or an output rounding.
inline double dotBound(int64_t K, double sumAbs) { return gammaN(static_cast<double>(K)) * sumAbs; }

// "" when |got - want| <= bound[k] for every k, else the first offending elements (want may be a
// float64 reference: pass its own bound; or a float32 evaluation: pass the sum of both bounds).
// No gtest in this header (bench/bench_differential includes it): check with EXPECT_EQ(..., "").
inline std::string withinBound(const std::vector<float>& got, const std::vector<double>& want, const std::vector<double>& bound) {
  if (got.size() != want.size() || got.size() != bound.size()) return "sizes differ";
  std::ostringstream os;
  int reported = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    const double d = std::fabs(static_cast<double>(got[k]) - want[k]);
    if (!(d <= bound[k] + std::numeric_limits<float>::denorm_min()) && reported++ < 5)
      os << "at " << k << ": got " << got[k] << ", want " << want[k] << ", |diff| " << d << " > bound " << bound[k] << "; ";
  }
  return os.str();
}

// ---------------------------------------------------------------------------------------------
// Running error bound of a whole graph (see the header comment).
struct GraphErrorBound {
  std::vector<Tensor> outputs;             // the model's outputs (float32 evaluation)
  std::vector<std::vector<double>> bound;  // per output element: gamma(n) * S
  std::vector<double> n;                   // per output
  std::string unsupported;                 // non-empty: an op without a rule (no bound derived)
};

namespace detail {

class BoundBuilder {
 public:
  explicit BoundBuilder(Graph& g) : g_(g) {}

  bool isFloat(ValueId v) const {
    DType t = g_.value(v).dtype;
    return t == DType::Float32 || t == DType::Float16 || t == DType::BFloat16 || t == DType::Float64;
  }
  ValueId add(const std::string& op, std::vector<ValueId> ins, Attributes a = {}, Shape shape = {}) {  // by value: addValue may move values_
    ValueId out = g_.addValue(g_.uniqueValueName("eb_" + op), DType::Float32, std::move(shape));
    g_.addNode(op, std::move(ins), {out}, std::move(a), g_.uniqueNodeName("eb_" + op));
    return out;
  }
  ValueId scalar(float v) { return g_.addInitializer(g_.uniqueValueName("eb_c"), Tensor::floats({}, {v})); }
  ValueId abs(ValueId v) { return add("Abs", {v}, {}, g_.value(v).shape); }
  ValueId lip(ValueId sx, double L, ValueId y) {  // L * S_x + |y|
    return add("Add", {add("Mul", {sx, scalar(static_cast<float>(L))}), abs(y)}, {}, g_.value(y).shape);
  }
  std::optional<int64_t> numel(ValueId v) const { return g_.value(v).shape.numel(); }
  int64_t dim(ValueId v, int i) const {
    const auto& d = g_.value(v).shape.dims;
    int idx = i < 0 ? static_cast<int>(d.size()) + i : i;
    if (idx < 0 || idx >= static_cast<int>(d.size()) || !d[static_cast<size_t>(idx)].isStatic()) return 4096;
    return d[static_cast<size_t>(idx)].value;
  }
  // Reduction length when out has fewer elements than in (pools, reduces): numel(in) / numel(out).
  int64_t ratio(ValueId in, ValueId out) const {
    auto a = numel(in), b = numel(out);
    if (!a || !b || *b == 0) return 4096;
    return std::max<int64_t>(1, *a / *b);
  }

  // Adds the companion of node `id`; false (and `unsupported` set) when no rule applies.
  bool node(NodeId id) {
    const Node nd = g_.node(id);  // copy: g_ grows
    const std::string& op = nd.opType;
    auto in = [&](size_t i) { return i < nd.inputs.size() ? nd.inputs[i] : kNoId; };
    auto S = [&](ValueId v) { return S_.at(v); };
    auto N = [&](ValueId v) { return n_.at(v); };
    auto has = [&](ValueId v) { return v != kNoId && S_.count(v); };
    const ValueId y = nd.outputs.empty() ? kNoId : nd.outputs[0];
    // Float inputs the op does arithmetic on (others: shapes, indices, conditions).
    double nmax = 0;
    for (ValueId v : nd.inputs)
      if (has(v)) nmax = std::max(nmax, N(v));
    auto same = [&](std::vector<ValueId> ins, double n) {  // the same op on the companions
      for (auto& v : ins)
        if (has(v)) v = S(v);
      Node copy = nd;
      std::vector<ValueId> outs;
      for (ValueId o : nd.outputs) {
        if (o == kNoId) { outs.push_back(kNoId); continue; }
        outs.push_back(g_.addValue(g_.uniqueValueName("eb_" + g_.value(o).name), DType::Float32, g_.value(o).shape));
      }
      g_.addNode(op, ins, outs, nd.attrs, g_.uniqueNodeName("eb_" + op));
      for (size_t i = 0; i < outs.size(); ++i)
        if (outs[i] != kNoId && isFloat(nd.outputs[i])) set(nd.outputs[i], outs[i], n);
    };
    bool anyFloatOut = false;
    for (ValueId o : nd.outputs) anyFloatOut |= o != kNoId && isFloat(o);
    if (!anyFloatOut) return true;  // shapes, comparisons, indices: exact, no companion
    bool anyCompanion = false;
    for (ValueId v : nd.inputs) anyCompanion |= has(v);
    if (!anyCompanion) {  // floats made from exact data (Cast of ints, ConstantOfShape, Range): |y|
      for (ValueId o : nd.outputs)
        if (o != kNoId && isFloat(o)) set(o, abs(o), 1);
      return true;
    }

    static const std::set<std::string> structural = {"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze",
                                                     "Transpose", "Expand", "Tile", "Slice", "Gather", "Concat",
                                                     "Split", "MaxPool", "ReduceMax", "Max", "DepthToSpace",
                                                     "SpaceToDepth", "Dropout", "GlobalMaxPool", "Where", "Cast"};
    static const std::set<std::string> lipschitz1 = {"Relu", "Abs", "Neg", "Clip", "LeakyRelu"};
    if (structural.count(op)) {
      same(nd.inputs, nmax);
    } else if (op == "Min") {
      std::vector<ValueId> ins = nd.inputs;
      for (auto& v : ins) v = S(v);
      set(y, add("Max", ins, {}, g_.value(y).shape), nmax);
    } else if (lipschitz1.count(op)) {
      set(y, add("Identity", {S(in(0))}, {}, g_.value(y).shape), N(in(0)) + (op == "LeakyRelu"));
    } else if (op == "Resize") {  // nearest: a copy; linear/cubic: a (bounded) weighted sum of neighbours
      const bool nearest = nd.attrs.getString("mode").value_or("nearest") == "nearest";
      std::vector<ValueId> ins = nd.inputs;
      ins[0] = S(ins[0]);
      ValueId s = add("Resize", ins, nd.attrs, g_.value(y).shape);
      if (!nearest) s = add("Mul", {s, scalar(2.f)});  // cubic weights sum |w| <= 2
      set(y, s, N(in(0)) + (nearest ? 0 : 8));
    } else if (op == "Add" || op == "Sub" || op == "Sum") {
      std::vector<ValueId> ins;
      for (ValueId v : nd.inputs) ins.push_back(S(v));
      ValueId s = ins[0];
      for (size_t i = 1; i < ins.size(); ++i) s = add("Add", {s, ins[i]}, {}, g_.value(y).shape);
      set(y, s, nmax + static_cast<double>(ins.size() - 1));
    } else if (op == "Mul") {
      set(y, add("Mul", {S(in(0)), S(in(1))}, {}, g_.value(y).shape), 1 + N(in(0)) + N(in(1)));
    } else if (op == "Div") {
      ValueId ab = abs(in(1));
      ValueId s = add("Add", {add("Div", {S(in(0)), ab}), add("Mul", {abs(y), add("Div", {S(in(1)), ab})})}, {},
                      g_.value(y).shape);
      set(y, s, 1 + N(in(0)) + N(in(1)));
    } else if (op == "MatMul") {
      set(y, add("MatMul", {S(in(0)), S(in(1))}, {}, g_.value(y).shape), dim(in(0), -1) + N(in(0)) + N(in(1)) + 1);
    } else if (op == "Gemm") {
      Attributes a = nd.attrs;
      a.set(Attribute::makeFloat("alpha", std::fabs(nd.attrs.floatOr("alpha", 1.f))));
      a.set(Attribute::makeFloat("beta", std::fabs(nd.attrs.floatOr("beta", 1.f))));
      std::vector<ValueId> ins = {S(in(0)), S(in(1))};
      if (has(in(2))) ins.push_back(S(in(2)));
      const int64_t K = dim(in(0), nd.attrs.intOr("transA", 0) ? 0 : 1);
      set(y, add("Gemm", ins, a, g_.value(y).shape), K + 3 + N(in(0)) + N(in(1)) + (has(in(2)) ? N(in(2)) : 0));
    } else if (op == "Conv") {
      std::vector<ValueId> ins = {S(in(0)), S(in(1))};
      if (has(in(2))) ins.push_back(S(in(2)));
      auto wn = numel(in(1));
      const int64_t K = wn ? *wn / std::max<int64_t>(1, dim(in(1), 0)) : 4096;
      set(y, add("Conv", ins, nd.attrs, g_.value(y).shape), K + 2 + N(in(0)) + N(in(1)) + (has(in(2)) ? N(in(2)) : 0));
    } else if (op == "BatchNormalization") {
      // y = (x - mean) * g / sqrt(var + eps) + b: S = S_x*|a| + |a*mean| + |b|, a = g / sqrt(var + eps)
      const Tensor *gt = g_.constantOf(in(1)), *bt = g_.constantOf(in(2)), *mt = g_.constantOf(in(3)),
                   *vt = g_.constantOf(in(4));
      if (!gt || !bt || !mt || !vt) return fail(op + " with non-constant parameters");
      const float eps = nd.attrs.floatOr("epsilon", 1e-5f);
      std::vector<float> A, B;
      for (int64_t c = 0; c < gt->numel(); ++c) {
        double a = gt->getDouble(c) / std::sqrt(vt->getDouble(c) + eps);
        A.push_back(static_cast<float>(std::fabs(a)));
        B.push_back(static_cast<float>(std::fabs(a * mt->getDouble(c)) + std::fabs(bt->getDouble(c))));
      }
      std::vector<int64_t> dims(g_.value(in(0)).shape.dims.size() > 1 ? g_.value(in(0)).shape.dims.size() - 1 : 1, 1);
      dims[0] = gt->numel();
      ValueId av = g_.addInitializer(g_.uniqueValueName("eb_bnA"), Tensor::floats(dims, A));
      ValueId bv = g_.addInitializer(g_.uniqueValueName("eb_bnB"), Tensor::floats(dims, B));
      set(y, add("Add", {add("Mul", {S(in(0)), av}), bv}, {}, g_.value(y).shape), N(in(0)) + 6);
    } else if (op == "AveragePool" || op == "GlobalAveragePool" || op == "ReduceMean" || op == "ReduceSum") {
      same(nd.inputs, N(in(0)) + static_cast<double>(ratio(in(0), y)) + 1);
    } else if (op == "Sigmoid") {
      set(y, lip(S(in(0)), 0.25, y), std::max(N(in(0)), 8.0));
    } else if (op == "Tanh") {
      set(y, lip(S(in(0)), 1.0, y), std::max(N(in(0)), 8.0));
    } else if (op == "Erf") {
      set(y, lip(S(in(0)), 1.1284, y), std::max(N(in(0)), 8.0));
    } else if (op == "HardSigmoid") {
      set(y, lip(S(in(0)), nd.attrs.floatOr("alpha", 0.2f), y), N(in(0)) + 2);
    } else if (op == "HardSwish") {
      set(y, lip(S(in(0)), 1.5, y), N(in(0)) + 3);
    } else if (op == "Exp") {  // first order: |exp(x) (d)| = |y| * S_x
      set(y, add("Mul", {abs(y), add("Add", {S(in(0)), scalar(1.f)})}, {}, g_.value(y).shape), std::max(N(in(0)), 8.0));
    } else if (op == "Sqrt") {  // |d sqrt| = S_x / (2 |y|)
      ValueId s = add("Add", {add("Div", {S(in(0)), add("Mul", {abs(y), scalar(2.f)})}), abs(y)}, {}, g_.value(y).shape);
      set(y, s, std::max(N(in(0)), 2.0));
    } else if (op == "Pow") {
      const Tensor* pt = g_.constantOf(in(1));
      if (!pt || pt->numel() != 1) return fail("Pow with a non-constant exponent");
      const double p = pt->getDouble(0);
      // |d x^p| = |p| |x|^(p-1) S_x = |p| |y| S_x / |x|; for p = 2 written as 2 |x| S_x (x may be 0)
      ValueId g = p == 2.0 ? add("Mul", {abs(in(0)), scalar(2.f)})
                           : add("Mul", {add("Div", {abs(y), abs(in(0))}), scalar(static_cast<float>(std::fabs(p)))});
      ValueId s = add("Add", {add("Mul", {g, S(in(0))}), abs(y)}, {}, g_.value(y).shape);
      set(y, s, N(in(0)) * std::max(1.0, std::ceil(std::fabs(p))) + 8);
    } else if (op == "Softmax") {
      // y_i = e^{x_i} / sum_j e^{x_j}: |dy_i| <= y_i * 2 max_j |dx_j| (along the axis) + rounding of
      // exp, the K-term sum and the division.
      const int64_t axis = nd.attrs.intOr("axis", -1);
      Attributes ra;
      ra.set(Attribute::makeInts("axes", {axis}));
      ra.set(Attribute::makeInt("keepdims", 1));
      ValueId mx = add("ReduceMax", {S(in(0))}, ra);
      ValueId s = add("Mul", {abs(y), add("Add", {add("Mul", {mx, scalar(2.f)}), scalar(1.f)})}, {}, g_.value(y).shape);
      set(y, s, std::max(N(in(0)), static_cast<double>(dim(in(0), static_cast<int>(axis))) + 10));
    } else {
      return fail(op);
    }
    return true;
  }

  void seed(ValueId v) {  // a graph input or float initializer: exact, S = |v|
    set(v, abs(v), 0);
  }
  void set(ValueId v, ValueId s, double n) {
    S_[v] = s;
    n_[v] = n;
  }
  bool fail(const std::string& why) {
    unsupported = why;
    return false;
  }
  ValueId companion(ValueId v) const { return S_.at(v); }
  double count(ValueId v) const { return n_.at(v); }
  bool hasCompanion(ValueId v) const { return S_.count(v) > 0; }
  std::string unsupported;

 private:
  Graph& g_;
  std::map<ValueId, ValueId> S_;
  std::map<ValueId, double> n_;
};

}  // namespace detail

// Runs `m` on `inputs` together with its error-bound companion. Outputs that are not float get an
// empty bound. `unsupported` names the first op without a rule (then only `outputs` is filled).
inline GraphErrorBound graphBound(const Model& m, const std::vector<Tensor>& inputs) {
  GraphErrorBound r;
  auto g = std::make_shared<Graph>(*m.graph);
  detail::BoundBuilder b(*g);
  for (ValueId v : g->inputs())
    if (b.isFloat(v)) b.seed(v);
  for (ValueId v : g->initializers())
    if (b.isFloat(v)) b.seed(v);
  auto order = g->topoOrder();
  if (!order.ok()) {
    r.unsupported = order.error().message;
  } else {
    for (NodeId id : *order)
      if (!b.node(id)) {
        r.unsupported = b.unsupported;
        break;
      }
  }
  const std::vector<ValueId> outs = g->outputs();
  std::vector<size_t> companionIndex(outs.size(), SIZE_MAX);
  if (r.unsupported.empty()) {
    std::vector<ValueId> all = outs;
    for (size_t i = 0; i < outs.size(); ++i)
      if (b.hasCompanion(outs[i])) {
        companionIndex[i] = all.size();
        all.push_back(b.companion(outs[i]));
      }
    g->setOutputs(all);
  } else {
    g = std::const_pointer_cast<Graph>(m.graph);
  }
  Model mm = m;
  mm.graph = g;
  auto run = runGraph(mm, inputs);
  if (!run.ok()) {
    r.unsupported = "run failed: " + run.error().message;
    return r;
  }
  r.outputs.assign(run->begin(), run->begin() + static_cast<std::ptrdiff_t>(outs.size()));
  r.bound.resize(outs.size());
  r.n.resize(outs.size(), 0);
  if (!r.unsupported.empty()) return r;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (companionIndex[i] == SIZE_MAX) continue;
    r.n[i] = b.count(outs[i]);
    const double gm = gammaN(r.n[i]);
    const Tensor& s = (*run)[companionIndex[i]];
    r.bound[i].resize(static_cast<size_t>(s.numel()));
    for (int64_t k = 0; k < s.numel(); ++k)
      r.bound[i][static_cast<size_t>(k)] = gm * s.getDouble(k) + std::numeric_limits<float>::min();
  }
  return r;
}

// Compares two models that compute the same math (original vs rewritten/fused) on seeded random
// inputs. Returns the worst |a - b| / (bound_a + bound_b) over all float output elements: <= 1 is what
// any legal float32 evaluation order allows. `boundModel` (default: b) is the model whose running
// bound stands for b's rounding (pass the rewritten standard-op model when b is the fwb.fused export,
// whose function nodes the bound has no rule for). When no bound is derivable for a model (an op
// without a rule), the outputs must be bit-identical: the ratio is 0 if they are and +inf if not.
struct BoundCheck {
  double ratio = 0;      // worst |a-b| / bound
  std::string detail;    // where the worst element is
  std::string unsupported;
};
inline BoundCheck compareWithinBound(const Model& a, const Model& b, uint64_t seed = 3, const Model* boundModel = nullptr) {
  BoundCheck c;
  auto in = randomInputs(a, seed);
  if (!in.ok()) return {1e300, "no inputs: " + in.error().message, {}};
  GraphErrorBound ba = graphBound(a, *in);
  GraphErrorBound bb = graphBound(boundModel ? *boundModel : b, *in);
  auto rb = runGraph(b, *in);
  if (!rb.ok()) return {1e300, "run failed: " + rb.error().message, {}};
  if (ba.outputs.size() != rb->size()) return {1e300, "output count differs (" + ba.unsupported + ")", {}};
  c.unsupported = !ba.unsupported.empty() ? ba.unsupported : bb.unsupported;
  if (!c.unsupported.empty() && std::getenv("FW_ERROR_BOUND_VERBOSE"))
    std::fprintf(stderr, "[error bound] no rule for %s: bit-identical outputs required\n", c.unsupported.c_str());
  const bool exact = !c.unsupported.empty() || bb.bound.size() != ba.bound.size();
  for (size_t i = 0; i < rb->size(); ++i) {
    const Tensor &x = ba.outputs[i], &y = (*rb)[i];
    if (x.dims() != y.dims()) return {1e300, "output " + std::to_string(i) + " changes shape", c.unsupported};
    const bool floatOut = !ba.bound[i].empty() && !exact && bb.bound[i].size() == ba.bound[i].size();
    for (int64_t k = 0; k < x.numel(); ++k) {
      const double xv = x.getDouble(k), yv = y.getDouble(k);
      double r;
      if (std::isnan(xv) || std::isnan(yv)) r = std::isnan(xv) == std::isnan(yv) ? 0 : 1e300;
      else if (xv == yv) r = 0;
      else if (!floatOut) r = std::numeric_limits<double>::infinity();
      else r = std::fabs(xv - yv) / (ba.bound[i][static_cast<size_t>(k)] + bb.bound[i][static_cast<size_t>(k)]);
      if (r > c.ratio) {
        c.ratio = r;
        std::ostringstream os;
        os << "output " << i << "[" << k << "]: " << xv << " vs " << yv;
        if (floatOut)
          os << ", bound " << ba.bound[i][static_cast<size_t>(k)] + bb.bound[i][static_cast<size_t>(k)] << " (n " << ba.n[i]
             << " + " << bb.n[i] << ")";
        else
          os << " (no bound: " << (c.unsupported.empty() ? "not a float output" : "no rule for " + c.unsupported)
             << ", so bit-identical is required)";
        c.detail = os.str();
      }
    }
  }
  return c;
}

}  // namespace fwtest
