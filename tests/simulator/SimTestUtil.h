#pragma once
// Small graphs built in code for the simulator tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "simulator/HwProfile.h"
#include "simulator/Simulator.h"

namespace fw::sim::test {

inline HwProfile toy() {
  auto p = resolveHwProfile("toy");
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  return p.ok() ? *p : HwProfile{};
}

// x[shape] -> op1 -> op2 -> ... -> graph output (unary ops, float32 in the graph, fp16 on device).
inline Graph unaryChain(const std::vector<std::string>& ops, const std::vector<int64_t>& shape) {
  Graph g;
  g.name = "chain";
  ValueId cur = g.addInput("x", DType::Float32, Shape::ofInts(shape));
  for (size_t i = 0; i < ops.size(); ++i) {
    ValueId out = g.addValue("t" + std::to_string(i), DType::Float32, Shape::ofInts(shape));
    g.addNode(ops[i], {cur}, {out}, {}, ops[i] + "_" + std::to_string(i));
    cur = out;
  }
  g.addOutput(cur);
  return g;
}

// y[m,n] = MatMul(x[m,k], W[k,n]) with W an initializer.
inline Graph matmul(int64_t m, int64_t k, int64_t n) {
  Graph g;
  g.name = "gemm";
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({m, k}));
  ValueId w = g.addInitializer("W", Tensor::floats({k, n}, std::vector<float>(static_cast<size_t>(k * n), 0.5f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({m, n}));
  g.addNode("MatMul", {x, w}, {y}, {}, "mm");
  g.addOutput(y);
  return g;
}

// The same product with W a graph input (read as stored, as a product of two activations is).
inline Graph matmulOfInputs(int64_t m, int64_t k, int64_t n) {
  Graph g;
  g.name = "gemm_of_inputs";
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({m, k}));
  ValueId w = g.addInput("W", DType::Float32, Shape::ofInts({k, n}));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({m, n}));
  g.addNode("MatMul", {x, w}, {y}, {}, "mm");
  g.addOutput(y);
  return g;
}

inline KernelGroup allInOne(const Graph& g, const std::string& name = "fused") {
  KernelGroup k{name, {}};
  const auto order = g.topoOrder();
  EXPECT_TRUE(order.ok());
  if (order.ok()) k.members = *order;
  return k;
}

inline SimResult run(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& hw,
                     SimMode mode = SimMode::Graph) {
  SimOptions o;
  o.mode = mode;
  auto r = simulate(g, groups, hw, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : SimResult{};
}

inline SimResult runUnfused(const Graph& g, const HwProfile& hw, SimMode mode = SimMode::Graph) {
  auto groups = unfusedGroups(g);
  EXPECT_TRUE(groups.ok());
  return run(g, *groups, hw, mode);
}

// No kernel is faster than flops/peak or hbm_bytes/bandwidth; kernels never overlap on the stream.
inline void expectPhysical(const SimResult& r, const HwProfile& hw, const std::string& what) {
  ASSERT_FALSE(r.kernels.empty()) << what;
  for (const auto& k : r.kernels) {
    const double slack = 1e-9 * std::max(1.0, k.durUs);
    EXPECT_GE(k.durUs + slack, k.flops / hw.peakFlops() * 1e6) << what << " kernel " << k.name;
    EXPECT_GE(k.durUs + slack, k.hbmBytes / hw.hbmBandwidth * 1e6) << what << " kernel " << k.name;
    EXPECT_GE(k.startUs, 0.0);
    EXPECT_LE(k.startUs + k.durUs, r.latencyUs + slack) << what << " kernel " << k.name;
  }
  // One stream: kernels never overlap.
  double end = 0;
  for (const auto& k : r.kernels) {
    if (k.unit == Unit::None) continue;
    EXPECT_GE(k.startUs + 1e-9, end) << what << " kernel " << k.name;
    end = k.startUs + k.durUs;
  }
  EXPECT_GT(r.latencyUs, 0.0);
  EXPECT_GT(r.peakMemoryBytes, r.weightBytes) << what;
  EXPECT_GE(r.launchShare, 0.0);
  EXPECT_LE(r.launchShare, 1.0);
}

// A profile parseHwProfile must refuse as bad input, its message naming `where` (a field's path or words).
inline void expectProfileRefused(const nlohmann::json& bad, const std::string& where) {
  auto r = parseHwProfile(bad, "t.json");
  ASSERT_FALSE(r.ok()) << where;
  EXPECT_EQ(r.error().code, ErrorCode::BadInput);
  EXPECT_NE(r.error().message.find(where), std::string::npos) << r.error().message;
}

}  // namespace fw::sim::test
