#pragma once
// Differential testing: random valid graphs over the supported ops — random shapes and attributes
// (conv strides/pads/groups, pools), fan-out and diamonds (any earlier value of the same shape can be
// an operand) — fused with random levels, rule subsets and node exclusions, and checked by the
// reference executor against the unfused graph. Used by the ctest (thousands per run) and by
// bench/bench_differential (long runs, and ONNX Runtime where present).
#include <random>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "core/ir/Model.h"
#include "tests/common/ErrorBound.h"
#include "fusion/Export.h"
#include "fusion/Pipeline.h"
#include "fusion/Registry.h"

namespace fwdiff {

using namespace fw;

struct Case {
  Model model;
  fusion::FusionOptions options;
  std::string description;  // level, switched-off rules, exclusions: enough to reproduce by seed
};

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed), g_(std::make_shared<Graph>()) {}

  Case make() {
    const bool image = pick(3) != 0;
    const int64_t n = 1 + pick(2);
    Shape s = image ? Shape::ofInts({n, 2 + pick(6), 4 + pick(9), 4 + pick(9)}) : Shape::ofInts({n, 2 + pick(8), 3 + pick(14)});
    add(g_->addInput("x", DType::Float32, s), s);
    const int steps = 4 + pick(14);
    for (int i = 0; i < steps; ++i) step(image);
    // Outputs: the last value, sometimes an earlier one too (a value used inside and outside a kernel).
    g_->addOutput(vals_.back().v);
    if (vals_.size() > 3 && pick(3) == 0) {
      const auto& e = vals_[static_cast<size_t>(pick(static_cast<int>(vals_.size()) - 1))];
      if (!g_->value(e.v).isGraphOutput && !g_->value(e.v).isGraphInput) g_->addOutput(e.v);
    }
    Case c;
    c.model.opsetImports[""] = 13;
    c.model.graph = g_;
    c.options.optLevel = pick(4);
    std::string desc = "-O" + std::to_string(c.options.optLevel);
    for (const auto& r : fusion::registeredRules()) {
      if (pick(6) == 0) {
        c.options.disabled.insert(std::string(r->id()));
        desc += " -" + std::string(r->id());
      }
    }
    for (const auto& nd : g_->nodes())
      if (pick(12) == 0) {
        c.options.excludedNodes.insert(nd.name);
        desc += " !" + nd.name;
      }
    c.options.hw.ubBytes = pick(2) ? 192 * 1024 : 4096 + 1024 * pick(64);
    c.options.hw.elemBytes = 2;
    c.description = desc;
    return c;
  }

 private:
  struct V {
    ValueId v;
    Shape s;
  };
  int64_t pick(int n) { return static_cast<int64_t>(rng_() % static_cast<uint32_t>(n)); }
  float uni(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  void add(ValueId v, const Shape& s) { vals_.push_back({v, s}); }
  ValueId constant(std::vector<int64_t> dims, float lo = -1, float hi = 1) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (auto& x : v) x = uni(lo, hi);
    return g_->addInitializer(g_->uniqueValueName("c"), Tensor::floats(dims, v));
  }
  ValueId node(const std::string& op, std::vector<ValueId> ins, const Shape& out, Attributes a = {}) {
    const std::string name = g_->uniqueNodeName(op);
    ValueId o = g_->addValue(name + "_out", DType::Float32, out);
    g_->addNode(op, std::move(ins), {o}, std::move(a), name);
    add(o, out);
    return o;
  }
  // An earlier value with the same shape as `s` (fan-out, diamonds), else `fallback`.
  ValueId partner(const Shape& s, ValueId fallback) {
    std::vector<ValueId> same;
    for (const auto& e : vals_)
      if (e.s == s) same.push_back(e.v);
    return same.empty() ? fallback : same[static_cast<size_t>(pick(static_cast<int>(same.size())))];
  }
  static Attributes attrs(std::vector<Attribute> v) {
    Attributes a;
    for (auto& x : v) a.set(std::move(x));
    return a;
  }

  void step(bool image) {
    // Usually continue from the newest value; sometimes branch from an older one (fan-out).
    const V cur = pick(4) ? vals_.back() : vals_[static_cast<size_t>(pick(static_cast<int>(vals_.size())))];
    const auto d = *cur.s.ints();
    const int64_t c = d[1];
    switch (pick(image ? 14 : 11)) {
      case 0: node("Relu", {cur.v}, cur.s); break;
      case 1: node("Sigmoid", {cur.v}, cur.s); break;
      case 2: node("Tanh", {cur.v}, cur.s); break;
      case 3: node("Add", {cur.v, partner(cur.s, cur.v)}, cur.s); break;
      case 4: node("Mul", {cur.v, partner(cur.s, cur.v)}, cur.s); break;
      case 5: {  // per-channel (image) or per-column constant operand
        std::vector<int64_t> cd = image ? std::vector<int64_t>{c, 1, 1} : std::vector<int64_t>{d.back()};
        node(pick(2) ? "Add" : "Mul", {cur.v, constant(cd)}, cur.s);
        break;
      }
      case 6: {  // decomposed HardSwish: x * Clip(x + 3, 0, 6) / 6 (a diamond)
        ValueId a3 = node("Add", {cur.v, g_->addInitializer(g_->uniqueValueName("three"), Tensor::floats({}, {3.f}))}, cur.s);
        ValueId cl = node("Clip", {a3, g_->addInitializer(g_->uniqueValueName("lo"), Tensor::floats({}, {0.f})),
                                   g_->addInitializer(g_->uniqueValueName("hi"), Tensor::floats({}, {6.f}))}, cur.s);
        ValueId m = node("Mul", {cur.v, cl}, cur.s);
        node("Div", {m, g_->addInitializer(g_->uniqueValueName("six"), Tensor::floats({}, {6.f}))}, cur.s);
        break;
      }
      case 7: node("Softmax", {cur.v}, cur.s, attrs({Attribute::makeInt("axis", -1)})); break;
      case 8: {  // ReduceMean over the last axis, kept, then broadcast back (LayerNorm-like diamond)
        std::vector<int64_t> rd = d;
        rd.back() = 1;
        ValueId mean = node("ReduceMean", {cur.v}, Shape::ofInts(rd), attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 1)}));
        node("Sub", {cur.v, mean}, cur.s);
        break;
      }
      case 9: {
        if (image) {
          node("HardSigmoid", {cur.v}, cur.s, attrs({Attribute::makeFloat("alpha", 1.f / 6), Attribute::makeFloat("beta", 0.5f)}));
        } else {  // MatMul with a weight, maybe a bias (Gemm-like)
          const int64_t k = d.back(), n2 = 2 + pick(12);
          std::vector<int64_t> od = d;
          od.back() = n2;
          ValueId mm = node("MatMul", {cur.v, constant({k, n2}, -0.5f, 0.5f)}, Shape::ofInts(od));
          if (pick(2)) node("Add", {mm, constant({n2})}, Shape::ofInts(od));
        }
        break;
      }
      case 10: {
        if (!image) {
          std::vector<int64_t> perm(d.size());
          for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
          std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
          std::vector<int64_t> od = d;
          std::swap(od[od.size() - 1], od[od.size() - 2]);
          node("Transpose", {cur.v}, Shape::ofInts(od), attrs({Attribute::makeInts("perm", perm)}));
        } else {
          node("LeakyRelu", {cur.v}, cur.s, attrs({Attribute::makeFloat("alpha", 0.1f)}));
        }
        break;
      }
      case 11:
      case 12: {  // Conv: kernel 1 or 3, stride 1 or 2, pads, group 1 or depthwise, optional bias
        const int64_t k = pick(2) ? 3 : 1, st = (d[2] >= 6 && pick(3) == 0) ? 2 : 1, p = k == 3 ? pick(2) : 0;
        const bool dw = pick(3) == 0;
        const int64_t co = dw ? c : 1 + pick(8), grp = dw ? c : 1;
        if (d[2] + 2 * p < k || d[3] + 2 * p < k) break;  // the window must fit the padded input
        const int64_t oh = (d[2] + 2 * p - k) / st + 1, ow = (d[3] + 2 * p - k) / st + 1;
        std::vector<ValueId> ins{cur.v, constant({co, c / grp, k, k}, -0.4f, 0.4f)};
        if (pick(2)) ins.push_back(constant({co}));
        node("Conv", ins, Shape::ofInts({d[0], co, oh, ow}),
             attrs({Attribute::makeInts("kernel_shape", {k, k}), Attribute::makeInts("strides", {st, st}),
                    Attribute::makeInts("pads", {p, p, p, p}), Attribute::makeInt("group", grp)}));
        break;
      }
      case 13: {  // BatchNormalization or a pool
        if (pick(2)) {
          node("BatchNormalization", {cur.v, constant({c}, 0.5f, 1.5f), constant({c}), constant({c}), constant({c}, 0.5f, 2.f)}, cur.s);
        } else if (d[2] >= 2 && d[3] >= 2) {
          node(pick(2) ? "MaxPool" : "AveragePool", {cur.v}, Shape::ofInts({d[0], c, d[2] / 2, d[3] / 2}),
               attrs({Attribute::makeInts("kernel_shape", {2, 2}), Attribute::makeInts("strides", {2, 2})}));
        }
        break;
      }
    }
  }

  std::mt19937 rng_;
  std::shared_ptr<Graph> g_;
  std::vector<V> vals_;
};

// How far the export is from the original, in units of the error bound of the computation
// (tests/common/ErrorBound.h; `rewritten` stands for the export's rounding); -1 with `why` on an error.
inline double compare(const Model& a, const Model& b, const Model& rewritten, std::string* why) {
  fwtest::BoundCheck c = fwtest::compareWithinBound(a, b, 11, &rewritten);
  if (c.ratio >= 1e300) {
    *why = c.detail;
    return -1;
  }
  if (c.ratio > 1) *why = c.detail;
  return c.ratio;
}

// One differential check: fuse, export, compare the export with the original. "" when equal.
inline std::string check(uint32_t seed) {
  Generator gen(seed);
  Case c = gen.make();
  auto r = fusion::fuseModel(c.model, c.options);
  if (!r.ok()) return "seed " + std::to_string(seed) + " (" + c.description + "): fuse failed: " + r.error().message;
  auto e = fusion::exportFused(*r);
  if (!e.ok()) return "seed " + std::to_string(seed) + " (" + c.description + "): export failed: " + e.error().message;
  std::string why;
  const double d = compare(c.model, *e, r->rewritten, &why);
  if (d < 0) return "seed " + std::to_string(seed) + " (" + c.description + "): " + why;
  if (d > 1)
    return "seed " + std::to_string(seed) + " (" + c.description + "): outputs differ by " + std::to_string(d) +
           " times the error bound: " + why;
  return {};
}

}  // namespace fwdiff
