#pragma once
// Per-node work counts from shapes: FLOPs and the bytes a node reads and writes. Shared by `fwb info`
// and the NPU simulator. Pure IR arithmetic: no ONNX headers, no hardware figures.
//
// FLOPs convention (one multiply-add = 2 FLOPs on the matrix ops; elsewhere one FLOP = one vector
// operation per element):
//   Conv            2 * N * Cout * prod(out spatial) * Cin/group * prod(kernel)
//   ConvTranspose   2 * N * Cin * prod(in spatial) * Cout/group * prod(kernel)
//   MatMul          2 * batch * M * N * K      (batch = broadcast batch dims of the output)
//   Gemm            2 * M * N * K
//   LSTM/GRU/RNN    2 * seq * dirs * batch * gates*H * (I + H)  +  elementwise gate math
//   elementwise     numel(out) * ops-per-element (1 for Add/Relu…, more for Sigmoid, Gelu…)
//   reductions      numel(in);  MaxPool/AveragePool numel(out) * prod(kernel)
//   Softmax         5 * numel;  LayerNorm/InstanceNorm/GroupNorm 7 * numel; BatchNorm 2 * numel
//   TopK/Unique/NMS, DFT/STFT   k * numel(in) * log2(numel(in));  Det  numel(in) * n
//   data movement and views: 0
// Which formula an op takes, and its per-element factor k, is its row in the one op table
// (core/ir/OpInfo.h).
#include <string>
#include <string_view>

#include "core/ir/Graph.h"

namespace fw {

struct NodeCost {
  double flops = 0;
  double bytesIn = 0;      // non-initializer inputs, at the graph's dtypes
  double bytesOut = 0;     // all outputs
  double weightBytes = 0;  // initializer inputs
  // False when a shape or dtype needed for the count is unknown; `problem` then names the node and
  // value ("node 'conv1' (Conv): value 'x' has unknown shape ?"), and the figures are lower bounds.
  bool known = true;
  std::string problem;
};

NodeCost nodeCost(const Graph& g, NodeId id);

// Vector operations per output element for an elementwise op type (1 for Add, 4 for Sigmoid, ...);
// 0 when the op type is not an elementwise op of the op table.
double elementwiseOpsPerElement(std::string_view opType);

}  // namespace fw
