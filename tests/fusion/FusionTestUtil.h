#pragma once
// Helpers for the fusion tests: build tiny graphs in code, fuse, export, and compare the executor's
// results on the original and on the exported (fwb.fused) model.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "tests/common/ErrorBound.h"
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

// How far two models that compute the same math (original vs rewritten/fused) are apart on seeded
// random inputs, in units of the error bound of the computation (tests/common/ErrorBound.h): <= 1 is
// what any legal float32 evaluation order allows; a wrong result is far above 1. `boundModel` stands
// for b's rounding when b has fwb.fused function nodes (pass the rewritten model).
inline double boundRatio(const Model& a, const Model& b, uint64_t seed = 3, const Model* boundModel = nullptr) {
  BoundCheck c = compareWithinBound(a, b, seed, boundModel);
  EXPECT_LT(c.ratio, 1e300) << c.detail;
  if (c.ratio > 1) ADD_FAILURE() << "outside the error bound (ratio " << c.ratio << "): " << c.detail;
  return c.ratio;
}

inline fusion::FusionOptions onlyRules(std::initializer_list<const char*> ids, int level = 0) {
  fusion::FusionOptions o;
  o.optLevel = level;
  for (auto id : ids) o.enabled.insert(id);
  return o;
}

// Fuses, checks the kernels cover the graph, exports, and checks the rewritten model and the export
// compute the same within the error bound of the computation (boundRatio <= 1).
inline fusion::FusionResult fuseAndVerify(const Model& m, const fusion::FusionOptions& o) {
  auto r = fusion::fuseModel(m, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return {};
  size_t covered = 0;
  for (const auto& k : r->kernels) covered += k.members.size();
  EXPECT_EQ(covered, r->rewritten.graph->liveNodeCount());
  auto e = fusion::exportFused(*r);
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().message);
  if (!e.ok()) return std::move(r).value();
  EXPECT_LE(boundRatio(m, r->rewritten), 1.0);
  EXPECT_LE(boundRatio(m, *e, 3, &r->rewritten), 1.0);
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
