#pragma once
// Internal to core/zoo: one builder per model (one .cpp each), dispatched by Zoo.cpp.
#include <cstdint>
#include <optional>
#include <string>

#include "core/ir/Model.h"
#include "core/util/Result.h"
#include "core/zoo/Zoo.h"
#include "core/zoo/ZooBuilder.h"

namespace fw::zoo {

Result<Model> buildResNet50(const ZooParams& p);
Result<Model> buildMobileNetV2(const ZooParams& p);
Result<Model> buildBert(const ZooParams& p);
Result<Model> buildYoloV5s(const ZooParams& p);
Result<Model> buildDeepLabV3Plus(const ZooParams& p);
Result<Model> buildLstm(const ZooParams& p);

// torchvision ResNet-50 from the stem to layer4. With dilateLayer4 the last stage keeps stride 16 and
// dilates its 3x3 convs instead (replace_stride_with_dilation=[False, False, True]), as DeepLab uses it.
struct ResNetFeatures {
  ValueId layer1 = kNoId;  // 256 channels, stride 4
  ValueId layer4 = kNoId;  // 2048 channels, stride 32 (16 when dilated)
};
ResNetFeatures resnet50Backbone(ZooBuilder& b, ValueId x, bool dilateLayer4);

// Returns the optional parameter or its default, or BadInput naming the parameter when out of range.
Result<int64_t> paramIn(const std::string& model, const char* param, const std::optional<int64_t>& v,
                        int64_t def, int64_t lo, int64_t hi);

// Weights must fit one ONNX file (protobuf's 2 GB limit): BadInput naming the parameters otherwise.
Status checkWeightBudget(const std::string& model, const char* params, double weightCount);

}  // namespace fw::zoo
