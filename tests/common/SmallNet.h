#pragma once
// The small scoped network the diagram and graph-view tests draw:
// x -> stem_conv -> layer1/0/conv1 -> layer1/0/relu -> layer1/1/add (+ stem output) -> head/fc -> y
#include <memory>
#include <string>
#include <vector>

#include "core/ir/Graph.h"

namespace fwtest {

struct SmallNet {
  std::shared_ptr<fw::Graph> graph = std::make_shared<fw::Graph>();
  fw::NodeId stem = 0, conv1 = 0, relu = 0, add = 0, fc = 0;
};

inline SmallNet smallScopedNet() {
  using fw::DType;
  using fw::Shape;
  SmallNet n;
  fw::Graph& g = *n.graph;
  g.name = "small";
  const Shape s({1, 8, 8, 8});
  auto x = g.addInput("x", DType::Float32, Shape({1, 3, 8, 8}));
  auto a = g.addValue("a", DType::Float32, s);
  auto b = g.addValue("b", DType::Float32, s);
  auto c = g.addValue("c", DType::Float32, s);
  auto d = g.addValue("d", DType::Float32, s);
  auto y = g.addValue("y", DType::Float32, Shape({1, 10}));
  n.stem = g.addNode("Conv", {x}, {a}, {}, "stem_conv");
  n.conv1 = g.addNode("Conv", {a}, {b}, {}, "layer1/0/conv1");
  n.relu = g.addNode("Relu", {b}, {c}, {}, "layer1/0/relu");
  n.add = g.addNode("Add", {c, a}, {d}, {}, "layer1/1/add");
  n.fc = g.addNode("MatMul", {d}, {y}, {}, "head/fc");
  g.addOutput(y);
  return n;
}

// A residual chain without name scopes (nodes "n0", "n1", ...): `layers` x [MatMul, Relu|Sigmoid,
// MatMul, Tanh, Add], so the views group it by repeated structure. 130 layers: 650 nodes, more than
// the 500 a view opens unfolded.
inline std::shared_ptr<fw::Graph> unscopedChain(int layers) {
  auto g = std::make_shared<fw::Graph>();
  const fw::Shape s({4, 16});
  auto v = g->addInput("x", fw::DType::Float32, s);
  auto w = g->addInitializer("w", fw::Tensor::floats({16, 16}, std::vector<float>(256, 0.01f)));
  int k = 0;
  auto op = [&](const std::string& type, std::vector<fw::ValueId> in) {
    auto out = g->addValue("v" + std::to_string(k), fw::DType::Float32, s);
    g->addNode(type, std::move(in), {out}, {}, "n" + std::to_string(k++));
    return out;
  };
  for (int layer = 0; layer < layers; ++layer) {
    auto a = op("MatMul", {v, w});
    auto b = op(layer % 2 ? "Sigmoid" : "Relu", {a});
    auto c = op("MatMul", {b, w});
    auto d = op("Tanh", {c});
    v = op("Add", {d, v});
  }
  g->addOutput(v);
  return g;
}

}  // namespace fwtest
