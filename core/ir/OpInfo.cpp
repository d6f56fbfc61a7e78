#include "core/ir/OpInfo.h"

#include <unordered_map>

namespace fw {

const std::vector<OpInfo>& opInfoTable() {
  using P = OpPattern;
  using F = CostFamily;
  using R = FlopRule;
  // op, pattern kind, cost family, FLOP rule, per-element factor, ai.onnx op. Sorted by name.
  static const std::vector<OpInfo> t = {
      {"Abs", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Acos", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Acosh", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Add", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"And", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"ArgMax", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ArgMin", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"Asin", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Asinh", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Atan", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Atanh", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"AveragePool", P::Opaque, F::Pooling, R::Pool, 0, true},
      {"BatchNormalization", P::Opaque, F::Norm, R::PerOut, 2, true},
      {"Bernoulli", P::Opaque, F::Elementwise, R::PerOut, 2, true},
      {"BiasGelu", P::ElemWise, F::Elementwise, R::PerOut, 9, false},
      {"BitShift", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"BlackmanWindow", P::Opaque, F::Elementwise, R::PerOut, 6, true},
      {"Cast", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"CastLike", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Ceil", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Celu", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Clip", P::ElemWise, F::Elementwise, R::PerOut, 2, true},
      {"Compress", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Concat", P::Injective, F::DataMovement, R::None, 0, true},
      {"ConcatFromSequence", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Constant", P::Opaque, F::View, R::None, 0, true},
      {"ConstantOfShape", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Conv", P::Cube, F::Cube, R::Conv, 0, true},
      {"ConvInteger", P::Cube, F::Cube, R::Conv, 0, true},
      {"ConvTranspose", P::Cube, F::Cube, R::ConvTranspose, 0, true},
      {"Cos", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Cosh", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"CumSum", P::Opaque, F::Reduction, R::PerIn, 1, true},
      {"DFT", P::Opaque, F::Elementwise, R::SortIn, 5, true},
      {"DepthToSpace", P::Injective, F::DataMovement, R::None, 0, true},
      {"DequantizeLinear", P::Opaque, F::Elementwise, R::PerOut, 2, true},
      {"Det", P::Opaque, F::Reduction, R::Det, 1, true},
      {"Div", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Dropout", P::ElemWise, F::View, R::None, 0, true},
      {"DynamicQuantizeLinear", P::Opaque, F::Reduction, R::PerIn, 5, true},
      {"Einsum", P::Opaque, F::Elementwise, R::Einsum, 0, true},
      {"Elu", P::ElemWise, F::Elementwise, R::PerOut, 3, true},
      {"Equal", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Erf", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Exp", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Expand", P::Injective, F::DataMovement, R::None, 0, true},
      {"EyeLike", P::Opaque, F::DataMovement, R::None, 0, true},
      {"FastGelu", P::ElemWise, F::Elementwise, R::PerOut, 6, false},
      {"Flatten", P::Injective, F::View, R::None, 0, true},
      {"Floor", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"FusedMatMul", P::Cube, F::Cube, R::MatMul, 0, false},
      {"GRU", P::Opaque, F::Cube, R::Recurrent, 0, true},
      {"Gather", P::Injective, F::DataMovement, R::None, 0, true},
      {"GatherElements", P::Injective, F::DataMovement, R::None, 0, true},
      {"GatherND", P::Injective, F::DataMovement, R::None, 0, true},
      {"Gelu", P::ElemWise, F::Elementwise, R::PerOut, 8, true},
      {"Gemm", P::Cube, F::Cube, R::Gemm, 0, true},
      {"GlobalAveragePool", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"GlobalLpPool", P::Reduce, F::Reduction, R::PerIn, 2, true},
      {"GlobalMaxPool", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"Greater", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"GreaterOrEqual", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"GridSample", P::Opaque, F::DataMovement, R::PerOut, 8, true},
      {"GroupNormalization", P::Opaque, F::Norm, R::PerOut, 7, true},
      {"HammingWindow", P::Opaque, F::Elementwise, R::PerOut, 4, true},
      {"HannWindow", P::Opaque, F::Elementwise, R::PerOut, 4, true},
      {"HardSigmoid", P::ElemWise, F::Elementwise, R::PerOut, 3, true},
      {"HardSwish", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Hardmax", P::Reduce, F::Softmax, R::PerOut, 2, true},
      {"Identity", P::ElemWise, F::View, R::None, 0, true},
      {"If", P::ControlFlow, F::ControlFlow, R::None, 0, true},
      {"InstanceNormalization", P::Reduce, F::Norm, R::PerOut, 7, true},
      {"IsInf", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"IsNaN", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"LRN", P::Opaque, F::Norm, R::PerOut, 8, true},
      {"LSTM", P::Opaque, F::Cube, R::Recurrent, 0, true},
      {"LayerNormalization", P::Reduce, F::Norm, R::PerOut, 7, true},
      {"LeakyRelu", P::ElemWise, F::Elementwise, R::PerOut, 2, true},
      {"Less", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"LessOrEqual", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Log", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"LogSoftmax", P::Reduce, F::Softmax, R::PerOut, 5, true},
      {"Loop", P::ControlFlow, F::ControlFlow, R::None, 0, true},
      {"LpNormalization", P::Reduce, F::Norm, R::PerOut, 7, true},
      {"LpPool", P::Opaque, F::Pooling, R::Pool, 0, true},
      {"MatMul", P::Cube, F::Cube, R::MatMul, 0, true},
      {"MatMulInteger", P::Cube, F::Cube, R::MatMul, 0, true},
      {"Max", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"MaxPool", P::Opaque, F::Pooling, R::Pool, 0, true},
      {"MaxRoiPool", P::Opaque, F::DataMovement, R::PerOut, 4, true},
      {"MaxUnpool", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Mean", P::Broadcast, F::Elementwise, R::PerOut, 2, true},
      {"MeanVarianceNormalization", P::Reduce, F::Norm, R::PerOut, 7, true},
      {"MelWeightMatrix", P::Opaque, F::Elementwise, R::PerOut, 4, true},
      {"Min", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Mish", P::ElemWise, F::Elementwise, R::PerOut, 6, false},
      {"Mod", P::Broadcast, F::Elementwise, R::PerOut, 2, true},
      {"Mul", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Multinomial", P::Opaque, F::Reduction, R::PerIn, 2, true},
      {"Neg", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"NegativeLogLikelihoodLoss", P::Opaque, F::Reduction, R::PerIn, 2, true},
      {"NonMaxSuppression", P::Opaque, F::Reduction, R::SortIn, 2, true},
      {"NonZero", P::Opaque, F::Reduction, R::PerIn, 1, true},
      {"Not", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"OneHot", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Optional", P::Opaque, F::View, R::None, 0, true},
      {"OptionalGetElement", P::Opaque, F::View, R::None, 0, true},
      {"OptionalHasElement", P::Opaque, F::View, R::None, 0, true},
      {"Or", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"PRelu", P::Broadcast, F::Elementwise, R::PerOut, 2, true},
      {"Pad", P::Injective, F::DataMovement, R::None, 0, true},
      {"Pow", P::Broadcast, F::Elementwise, R::PerOut, 2, true},
      {"QLinearConv", P::Cube, F::Cube, R::Conv, 0, true},
      {"QLinearMatMul", P::Cube, F::Cube, R::MatMul, 0, true},
      {"QuantizeLinear", P::Opaque, F::Elementwise, R::PerOut, 3, true},
      {"QuickGelu", P::ElemWise, F::Elementwise, R::PerOut, 5, false},
      {"RNN", P::Opaque, F::Cube, R::Recurrent, 0, true},
      {"RandomNormal", P::Opaque, F::Elementwise, R::PerOut, 4, true},
      {"RandomNormalLike", P::Opaque, F::Elementwise, R::PerOut, 4, true},
      {"RandomUniform", P::Opaque, F::Elementwise, R::PerOut, 2, true},
      {"RandomUniformLike", P::Opaque, F::Elementwise, R::PerOut, 2, true},
      {"Range", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Reciprocal", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"ReduceL1", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceL2", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceLogSum", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceLogSumExp", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceMax", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceMean", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceMin", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceProd", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceSum", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"ReduceSumSquare", P::Reduce, F::Reduction, R::PerIn, 1, true},
      {"Relu", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Reshape", P::Injective, F::View, R::None, 0, true},
      {"Resize", P::Opaque, F::DataMovement, R::None, 0, true},
      {"ReverseSequence", P::Injective, F::DataMovement, R::None, 0, true},
      {"RoiAlign", P::Opaque, F::DataMovement, R::PerOut, 16, true},
      {"Round", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"STFT", P::Opaque, F::Elementwise, R::SortIn, 5, true},
      {"Scan", P::ControlFlow, F::ControlFlow, R::None, 0, true},
      {"Scatter", P::Opaque, F::DataMovement, R::None, 0, true},
      {"ScatterElements", P::Opaque, F::DataMovement, R::None, 0, true},
      {"ScatterND", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Selu", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"SequenceAt", P::Opaque, F::View, R::None, 0, true},
      {"SequenceConstruct", P::Opaque, F::View, R::None, 0, true},
      {"SequenceEmpty", P::Opaque, F::View, R::None, 0, true},
      {"SequenceErase", P::Opaque, F::View, R::None, 0, true},
      {"SequenceInsert", P::Opaque, F::View, R::None, 0, true},
      {"SequenceLength", P::Opaque, F::View, R::None, 0, true},
      {"SequenceMap", P::ControlFlow, F::ControlFlow, R::None, 0, true},
      {"Shape", P::Opaque, F::View, R::None, 0, true},
      {"Shrink", P::ElemWise, F::Elementwise, R::PerOut, 3, true},
      {"SiLU", P::ElemWise, F::Elementwise, R::PerOut, 5, false},
      {"Sigmoid", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Sign", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"SimplifiedLayerNormalization", P::Opaque, F::Norm, R::PerOut, 7, false},
      {"Sin", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Sinh", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Size", P::Opaque, F::View, R::None, 0, true},
      {"SkipLayerNormalization", P::Opaque, F::Norm, R::PerOut, 7, false},
      {"Slice", P::Injective, F::DataMovement, R::None, 0, true},
      {"Softmax", P::Reduce, F::Softmax, R::PerOut, 5, true},
      {"SoftmaxCrossEntropyLoss", P::Opaque, F::Reduction, R::PerIn, 7, true},
      {"Softplus", P::ElemWise, F::Elementwise, R::PerOut, 3, true},
      {"Softsign", P::ElemWise, F::Elementwise, R::PerOut, 3, true},
      {"SpaceToDepth", P::Injective, F::DataMovement, R::None, 0, true},
      {"Split", P::Injective, F::DataMovement, R::None, 0, true},
      {"SplitToSequence", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Sqrt", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"Squeeze", P::Injective, F::View, R::None, 0, true},
      {"StringNormalizer", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Sub", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Sum", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Swish", P::ElemWise, F::Elementwise, R::PerOut, 5, false},
      {"Tan", P::ElemWise, F::Elementwise, R::PerOut, 4, true},
      {"Tanh", P::ElemWise, F::Elementwise, R::PerOut, 1, true},
      {"TfIdfVectorizer", P::Opaque, F::Reduction, R::PerIn, 2, true},
      {"ThresholdedRelu", P::ElemWise, F::Elementwise, R::PerOut, 2, true},
      {"Tile", P::Injective, F::DataMovement, R::None, 0, true},
      {"TopK", P::Opaque, F::Reduction, R::SortIn, 1, true},
      {"Transpose", P::Injective, F::DataMovement, R::None, 0, true},
      {"Trilu", P::Injective, F::DataMovement, R::None, 0, true},
      {"Unique", P::Opaque, F::Reduction, R::SortIn, 1, true},
      {"Unsqueeze", P::Injective, F::View, R::None, 0, true},
      {"Upsample", P::Opaque, F::DataMovement, R::None, 0, true},
      {"Where", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
      {"Xor", P::Broadcast, F::Elementwise, R::PerOut, 1, true},
  };
  return t;
}

const OpInfo* findOpInfo(std::string_view opType) {
  static const std::unordered_map<std::string_view, const OpInfo*> index = [] {
    std::unordered_map<std::string_view, const OpInfo*> m;
    for (const auto& r : opInfoTable()) m.emplace(r.op, &r);
    return m;
  }();
  auto it = index.find(opType);
  return it == index.end() ? nullptr : it->second;
}

const char* opPatternName(OpPattern p) {
  switch (p) {
    case OpPattern::ElemWise: return "elemwise";
    case OpPattern::Broadcast: return "broadcast";
    case OpPattern::Injective: return "injective";
    case OpPattern::Reduce: return "reduce";
    case OpPattern::Cube: return "cube";
    case OpPattern::Opaque: return "opaque";
    case OpPattern::ControlFlow: return "control";
  }
  return "?";
}

const char* costFamilyName(CostFamily f) {
  switch (f) {
    case CostFamily::Cube: return "cube";
    case CostFamily::Elementwise: return "elementwise";
    case CostFamily::Reduction: return "reduction";
    case CostFamily::Pooling: return "pooling";
    case CostFamily::Softmax: return "softmax";
    case CostFamily::Norm: return "norm";
    case CostFamily::DataMovement: return "data-movement";
    case CostFamily::View: return "view";
    case CostFamily::ControlFlow: return "control-flow";
    case CostFamily::Unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace fw
