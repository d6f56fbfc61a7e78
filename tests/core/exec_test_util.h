#pragma once
// Helpers for the executor tests: one-node models built in code.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/Executor.h"
#include "core/ir/Model.h"

namespace fwtest {

struct In {
  std::string name;
  fw::Tensor t;
  bool constant = false;  // an initializer instead of a runtime input
};

// A model with one node `op` reading `ins` (kNoId for an empty name) and producing nOut outputs.
inline fw::Model oneNode(const std::string& op, const std::vector<In>& ins, size_t nOut, fw::Attributes attrs = {},
                         int64_t opset = 17, const std::string& domain = "") {
  auto g = std::make_shared<fw::Graph>();
  std::vector<fw::ValueId> inIds;
  for (const auto& i : ins) {
    if (i.name.empty()) {
      inIds.push_back(fw::kNoId);
      continue;
    }
    inIds.push_back(i.constant ? g->addInitializer(i.name, i.t)
                               : g->addInput(i.name, i.t.dtype(), fw::Shape::ofInts(i.t.dims())));
  }
  std::vector<fw::ValueId> outs;
  for (size_t k = 0; k < nOut; ++k) outs.push_back(g->addValue("out" + std::to_string(k)));
  g->addNode(op, inIds, outs, std::move(attrs), "n0", domain);
  for (auto o : outs) g->addOutput(o);
  fw::Model m;
  m.opsetImports[""] = opset;
  m.graph = g;
  return m;
}

// Deterministic float32 values in [-1, 1] (a 64-bit LCG; the same seed gives the same tensor).
inline fw::Tensor noise(std::vector<int64_t> dims, uint64_t seed) {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<float>(static_cast<int64_t>(s >> 40) % 2001 - 1000) / 1000.f;
  }
  return fw::Tensor::floats(std::move(dims), v);
}

inline std::vector<fw::Tensor> runtimeInputs(const std::vector<In>& ins) {
  std::vector<fw::Tensor> v;
  for (const auto& i : ins)
    if (!i.name.empty() && !i.constant) v.push_back(i.t);
  return v;
}

inline fw::Result<std::vector<fw::Tensor>> runOne(const std::string& op, const std::vector<In>& ins, size_t nOut = 1,
                                                  fw::Attributes attrs = {}, int64_t opset = 17) {
  auto m = oneNode(op, ins, nOut, std::move(attrs), opset);
  return fw::runGraph(m, runtimeInputs(ins));
}

inline void expectNear(const fw::Tensor& t, const std::vector<int64_t>& dims, const std::vector<float>& want,
                       float tol = 1e-5f) {
  ASSERT_EQ(t.dims(), dims);
  auto got = t.toFloats();
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < want.size(); ++k)
    EXPECT_NEAR(got[k], want[k], tol * std::max(1.f, std::fabs(want[k]))) << "at index " << k;
}

inline fw::Attributes attrs(std::vector<fw::Attribute> list) {
  fw::Attributes a;
  for (auto& x : list) a.set(std::move(x));
  return a;
}

inline fw::Tensor iota(std::vector<int64_t> dims, float start = 0.f, float step = 1.f) {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] = start + step * static_cast<float>(k);
  return fw::Tensor::floats(std::move(dims), v);
}

}  // namespace fwtest
