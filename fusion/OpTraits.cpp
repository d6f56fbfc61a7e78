#include "fusion/OpTraits.h"

#include <unordered_map>

namespace fw::fusion {

namespace {
const std::unordered_map<std::string_view, OpKind>& table() {
  static const std::unordered_map<std::string_view, OpKind> t = {
      // one-input elementwise
      {"Relu", OpKind::ElemWise}, {"Sigmoid", OpKind::ElemWise}, {"Tanh", OpKind::ElemWise},
      {"LeakyRelu", OpKind::ElemWise}, {"HardSigmoid", OpKind::ElemWise}, {"HardSwish", OpKind::ElemWise},
      {"Elu", OpKind::ElemWise}, {"Selu", OpKind::ElemWise}, {"Celu", OpKind::ElemWise},
      {"Softplus", OpKind::ElemWise}, {"Softsign", OpKind::ElemWise}, {"Erf", OpKind::ElemWise},
      {"Exp", OpKind::ElemWise}, {"Log", OpKind::ElemWise}, {"Sqrt", OpKind::ElemWise},
      {"Reciprocal", OpKind::ElemWise}, {"Neg", OpKind::ElemWise}, {"Abs", OpKind::ElemWise},
      {"Ceil", OpKind::ElemWise}, {"Floor", OpKind::ElemWise}, {"Round", OpKind::ElemWise},
      {"Sign", OpKind::ElemWise}, {"Sin", OpKind::ElemWise}, {"Cos", OpKind::ElemWise},
      {"Not", OpKind::ElemWise}, {"Cast", OpKind::ElemWise}, {"Identity", OpKind::ElemWise},
      {"Clip", OpKind::ElemWise}, {"Gelu", OpKind::ElemWise},
      // binary with broadcasting
      {"Add", OpKind::Broadcast}, {"Sub", OpKind::Broadcast}, {"Mul", OpKind::Broadcast},
      {"Div", OpKind::Broadcast}, {"Pow", OpKind::Broadcast}, {"Max", OpKind::Broadcast},
      {"Min", OpKind::Broadcast}, {"Sum", OpKind::Broadcast}, {"Mean", OpKind::Broadcast},
      {"PRelu", OpKind::Broadcast}, {"Where", OpKind::Broadcast}, {"Equal", OpKind::Broadcast},
      {"Less", OpKind::Broadcast}, {"Greater", OpKind::Broadcast}, {"LessOrEqual", OpKind::Broadcast},
      {"GreaterOrEqual", OpKind::Broadcast}, {"And", OpKind::Broadcast}, {"Or", OpKind::Broadcast},
      {"Xor", OpKind::Broadcast}, {"Mod", OpKind::Broadcast}, {"CastLike", OpKind::Broadcast},
      // data movement
      {"Reshape", OpKind::Injective}, {"Transpose", OpKind::Injective}, {"Squeeze", OpKind::Injective},
      {"Unsqueeze", OpKind::Injective}, {"Slice", OpKind::Injective}, {"Concat", OpKind::Injective},
      {"Flatten", OpKind::Injective}, {"Split", OpKind::Injective}, {"Expand", OpKind::Injective},
      {"Tile", OpKind::Injective}, {"Gather", OpKind::Injective}, {"Pad", OpKind::Injective},
      // reductions (and row-wise normalisations, which reduce and broadcast back)
      {"ReduceMean", OpKind::Reduce}, {"ReduceSum", OpKind::Reduce}, {"ReduceMax", OpKind::Reduce},
      {"ReduceMin", OpKind::Reduce}, {"ReduceProd", OpKind::Reduce}, {"ReduceSumSquare", OpKind::Reduce},
      {"ReduceLogSum", OpKind::Reduce}, {"ReduceLogSumExp", OpKind::Reduce},
      {"Softmax", OpKind::Reduce}, {"LogSoftmax", OpKind::Reduce},
      {"GlobalAveragePool", OpKind::Reduce}, {"GlobalMaxPool", OpKind::Reduce},
      {"LayerNormalization", OpKind::Reduce},
      // cube
      {"Conv", OpKind::Cube}, {"ConvTranspose", OpKind::Cube}, {"MatMul", OpKind::Cube},
      {"Gemm", OpKind::Cube},
      // control flow
      {"If", OpKind::ControlFlow}, {"Loop", OpKind::ControlFlow}, {"Scan", OpKind::ControlFlow},
  };
  return t;
}
}  // namespace

OpKind opKind(std::string_view opType, std::string_view domain) {
  if (!domain.empty() && domain != "ai.onnx") return OpKind::Opaque;
  auto it = table().find(opType);
  return it == table().end() ? OpKind::Opaque : it->second;
}

const char* opKindName(OpKind k) {
  switch (k) {
    case OpKind::ElemWise: return "elemwise";
    case OpKind::Broadcast: return "broadcast";
    case OpKind::Injective: return "injective";
    case OpKind::Reduce: return "reduce";
    case OpKind::Cube: return "cube";
    case OpKind::Opaque: return "opaque";
    case OpKind::ControlFlow: return "control";
  }
  return "?";
}

bool isCubeOp(std::string_view t) { return opKind(t) == OpKind::Cube; }
bool isControlFlow(std::string_view t) { return opKind(t) == OpKind::ControlFlow; }

bool isActivation(std::string_view t) {
  return t == "Relu" || t == "Clip" || t == "LeakyRelu" || t == "Sigmoid" || t == "HardSigmoid" ||
         t == "HardSwish" || t == "Tanh" || t == "Gelu" || t == "Elu" || t == "Selu" || t == "Softplus";
}

bool isViewOp(std::string_view t) {
  return t == "Reshape" || t == "Squeeze" || t == "Unsqueeze" || t == "Flatten" || t == "Identity";
}

OpKind nodeKind(const Node& n, const std::set<std::string>& clusterOpsEnabled) {
  OpKind k = opKind(n.opType, n.domain);
  if (k == OpKind::Opaque && clusterOpsEnabled.count(n.opType)) return OpKind::ElemWise;
  return k;
}

}  // namespace fw::fusion
