#pragma once
// Helpers for the fusion tests: build tiny graphs in code, fuse, export, and compare the executor's
// results on the original and on the exported (fwb.fused) model.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "core/ir/Model.h"
#include "fusion/Export.h"
#include "fusion/Pipeline.h"

namespace fwtest {

using namespace fw;

class GraphBuilder {
 public:
  GraphBuilder() : g_(std::make_shared<Graph>()) {}
  ValueId input(const std::string& name, std::vector<int64_t> dims) {
    return g_->addInput(name, DType::Float32, Shape::ofInts(dims));
  }
  ValueId constant(const std::string& name, std::vector<int64_t> dims, float lo = -1, float hi = 1) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (auto& x : v) x = dist(rng_);
    return g_->addInitializer(name, Tensor::floats(dims, v));
  }
  ValueId scalar(const std::string& name, float v) { return g_->addInitializer(g_->uniqueValueName(name), Tensor::floats({}, {v})); }
  ValueId ints(const std::string& name, std::vector<int64_t> v) {
    return g_->addInitializer(g_->uniqueValueName(name), Tensor::int64s({static_cast<int64_t>(v.size())}, v));
  }
  ValueId op(const std::string& type, std::vector<ValueId> ins, std::vector<int64_t> outDims, Attributes attrs = {},
             const std::string& name = {}) {
    std::string nm = name.empty() ? g_->uniqueNodeName(type) : name;
    ValueId out = g_->addValue(nm + "_out", DType::Float32, Shape::ofInts(outDims));
    g_->addNode(type, std::move(ins), {out}, std::move(attrs), nm);
    return out;
  }
  void output(ValueId v) { g_->addOutput(v); }
  Graph& graph() { return *g_; }
  Model model() {
    Model m;
    m.graph = g_;
    return m;
  }

 private:
  std::shared_ptr<Graph> g_;
  std::mt19937 rng_{7};
};

inline Attributes attrs(std::vector<Attribute> a) {
  Attributes out;
  for (auto& x : a) out.set(std::move(x));
  return out;
}

inline int countOp(const Graph& g, const std::string& op) {
  int n = 0;
  for (NodeId id : g.liveNodes()) n += g.node(id).opType == op;
  return n;
}

// Max relative error (against the output's own magnitude) between the two models on random inputs.
inline double maxRelDiff(const Model& a, const Model& b, uint64_t seed = 3) {
  auto in = randomInputs(a, seed);
  EXPECT_TRUE(in.ok()) << (in.ok() ? "" : in.error().message);
  if (!in.ok()) return 1e9;
  auto ra = runGraph(a, *in), rb = runGraph(b, *in);
  EXPECT_TRUE(ra.ok()) << (ra.ok() ? "" : ra.error().message);
  EXPECT_TRUE(rb.ok()) << (rb.ok() ? "" : rb.error().message);
  if (!ra.ok() || !rb.ok()) return 1e9;
  EXPECT_EQ(ra->size(), rb->size());
  double worst = 0;
  for (size_t i = 0; i < ra->size() && i < rb->size(); ++i) {
    auto x = (*ra)[i].toFloats(), y = (*rb)[i].toFloats();
    EXPECT_EQ(x.size(), y.size());
    double mag = 1e-6;
    for (float v : x) mag = std::max(mag, static_cast<double>(std::fabs(v)));
    for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
      double d = std::fabs(static_cast<double>(x[k]) - y[k]) / std::max(std::fabs(static_cast<double>(x[k])), 1e-3 * mag);
      if (std::isnan(y[k]) != std::isnan(x[k])) d = 1e9;
      worst = std::max(worst, d);
    }
  }
  return worst;
}

inline fusion::FusionOptions onlyRules(std::initializer_list<const char*> ids, int level = 0) {
  fusion::FusionOptions o;
  o.optLevel = level;
  for (auto id : ids) o.enabled.insert(id);
  return o;
}

// Fuses, checks the kernels cover the graph, exports, and checks the export computes the same.
inline fusion::FusionResult fuseAndVerify(const Model& m, const fusion::FusionOptions& o, double tol = 1e-4) {
  auto r = fusion::fuseModel(m, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return {};
  size_t covered = 0;
  for (const auto& k : r->kernels) covered += k.members.size();
  EXPECT_EQ(covered, r->rewritten.graph->liveNodeCount());
  auto e = fusion::exportFused(*r);
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().message);
  if (!e.ok()) return std::move(r).value();
  EXPECT_LE(maxRelDiff(m, r->rewritten), tol);
  EXPECT_LE(maxRelDiff(m, *e), tol);
  return std::move(r).value();
}

inline bool hasDecision(const fusion::FusionResult& r, const std::string& rule, bool applied, const std::string& reasonPart = {}) {
  for (const auto& d : r.decisions)
    if (d.rule == rule && d.applied == applied && d.reason.find(reasonPart) != std::string::npos) return true;
  return false;
}

inline size_t multiKernels(const fusion::FusionResult& r) {
  size_t n = 0;
  for (const auto& k : r.kernels) n += k.members.size() > 1;
  return n;
}

}  // namespace fwtest
