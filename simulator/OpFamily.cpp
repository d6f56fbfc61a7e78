#include "simulator/OpFamily.h"

#include <unordered_map>

#include "core/ir/OpCost.h"

namespace fw::sim {

OpFamily opFamily(std::string_view op) {
  static const std::unordered_map<std::string_view, OpFamily> table = {
      {"Conv", OpFamily::Cube},
      {"ConvInteger", OpFamily::Cube},
      {"QLinearConv", OpFamily::Cube},
      {"ConvTranspose", OpFamily::Cube},
      {"MatMul", OpFamily::Cube},
      {"MatMulInteger", OpFamily::Cube},
      {"FusedMatMul", OpFamily::Cube},
      {"Gemm", OpFamily::Cube},
      {"LSTM", OpFamily::Cube},
      {"GRU", OpFamily::Cube},
      {"RNN", OpFamily::Cube},

      {"ReduceMean", OpFamily::Reduction},
      {"ReduceSum", OpFamily::Reduction},
      {"ReduceMax", OpFamily::Reduction},
      {"ReduceMin", OpFamily::Reduction},
      {"ReduceProd", OpFamily::Reduction},
      {"ReduceSumSquare", OpFamily::Reduction},
      {"ReduceL1", OpFamily::Reduction},
      {"ReduceL2", OpFamily::Reduction},
      {"ReduceLogSumExp", OpFamily::Reduction},
      {"ArgMax", OpFamily::Reduction},
      {"ArgMin", OpFamily::Reduction},
      {"GlobalAveragePool", OpFamily::Reduction},
      {"GlobalMaxPool", OpFamily::Reduction},

      {"MaxPool", OpFamily::Pooling},
      {"AveragePool", OpFamily::Pooling},
      {"LpPool", OpFamily::Pooling},

      {"Softmax", OpFamily::Softmax},
      {"LogSoftmax", OpFamily::Softmax},

      {"BatchNormalization", OpFamily::Norm},
      {"LayerNormalization", OpFamily::Norm},
      {"SimplifiedLayerNormalization", OpFamily::Norm},
      {"SkipLayerNormalization", OpFamily::Norm},
      {"InstanceNormalization", OpFamily::Norm},
      {"GroupNormalization", OpFamily::Norm},
      {"LpNormalization", OpFamily::Norm},
      {"MeanVarianceNormalization", OpFamily::Norm},

      {"Transpose", OpFamily::DataMovement},
      {"Concat", OpFamily::DataMovement},
      {"Split", OpFamily::DataMovement},
      {"Slice", OpFamily::DataMovement},
      {"Gather", OpFamily::DataMovement},
      {"GatherElements", OpFamily::DataMovement},
      {"GatherND", OpFamily::DataMovement},
      {"ScatterND", OpFamily::DataMovement},
      {"ScatterElements", OpFamily::DataMovement},
      {"Expand", OpFamily::DataMovement},
      {"Tile", OpFamily::DataMovement},
      {"Pad", OpFamily::DataMovement},
      {"Resize", OpFamily::DataMovement},
      {"Upsample", OpFamily::DataMovement},
      {"DepthToSpace", OpFamily::DataMovement},
      {"SpaceToDepth", OpFamily::DataMovement},
      {"OneHot", OpFamily::DataMovement},
      {"ConstantOfShape", OpFamily::DataMovement},
      {"Range", OpFamily::DataMovement},
      {"Trilu", OpFamily::DataMovement},
      {"CumSum", OpFamily::DataMovement},
      {"TopK", OpFamily::DataMovement},

      // Views: in a contiguous layout these only relabel the shape, and Shape/Size/Constant are
      // compile-time values once shapes are static. Dropout at inference is Identity.
      {"Reshape", OpFamily::View},
      {"Flatten", OpFamily::View},
      {"Squeeze", OpFamily::View},
      {"Unsqueeze", OpFamily::View},
      {"Identity", OpFamily::View},
      {"Dropout", OpFamily::View},
      {"Shape", OpFamily::View},
      {"Size", OpFamily::View},
      {"Constant", OpFamily::View},

      {"If", OpFamily::ControlFlow},
      {"Loop", OpFamily::ControlFlow},
      {"Scan", OpFamily::ControlFlow},
  };
  auto it = table.find(op);
  if (it != table.end()) return it->second;
  if (elementwiseOpsPerElement(op) > 0) return OpFamily::Elementwise;
  return OpFamily::Unknown;
}

const char* opFamilyName(OpFamily f) {
  switch (f) {
    case OpFamily::Cube: return "cube";
    case OpFamily::Elementwise: return "elementwise";
    case OpFamily::Reduction: return "reduction";
    case OpFamily::Pooling: return "pooling";
    case OpFamily::Softmax: return "softmax";
    case OpFamily::Norm: return "norm";
    case OpFamily::DataMovement: return "data-movement";
    case OpFamily::View: return "view";
    case OpFamily::ControlFlow: return "control-flow";
    case OpFamily::Unknown: return "unknown";
  }
  return "unknown";
}

bool isVectorFamily(OpFamily f) {
  return f == OpFamily::Elementwise || f == OpFamily::Reduction || f == OpFamily::Pooling ||
         f == OpFamily::Softmax || f == OpFamily::Norm || f == OpFamily::DataMovement ||
         f == OpFamily::Unknown;
}

}  // namespace fw::sim
