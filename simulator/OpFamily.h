#pragma once
// Which unit runs an operator and how the cost model treats it. One table (OpFamily.cpp), not a rule
// per op: an op type missing from it is costed as a one-pass vector op and reported as a warning.
#include <string_view>

namespace fw::sim {

enum class OpFamily {
  Cube,          // Conv, MatMul, Gemm, recurrent cells: the 16×16×16 cube
  Elementwise,   // Add, Relu, Sigmoid, Cast, ...: vector unit, one pass over the output
  Reduction,     // ReduceMean, GlobalAveragePool, ArgMax: vector unit, one pass over the input
  Pooling,       // MaxPool, AveragePool: vector unit, one pass per window element
  Softmax,       // Softmax, LogSoftmax: vector, needs a whole row on chip
  Norm,          // BatchNorm, LayerNorm, InstanceNorm, GroupNorm
  DataMovement,  // Transpose, Concat, Slice, Gather, Pad, Resize: a copy through UB
  View,          // Reshape, Flatten, Squeeze, Unsqueeze, Identity, Shape, Constant: no kernel
  ControlFlow,   // If, Loop, Scan: not simulated
  Unknown,
};

OpFamily opFamily(std::string_view opType);
const char* opFamilyName(OpFamily f);
bool isVectorFamily(OpFamily f);

}  // namespace fw::sim
