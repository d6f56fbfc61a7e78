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

// Ranges that ZooEntry::specs (Zoo.cpp) and the builders share.
inline constexpr int64_t kBertMaxLayers = 2000;
inline constexpr int64_t kBertMaxSeq = 512;  // position embeddings
inline constexpr int64_t kLstmMaxSeq = 2000;

// Returns the optional parameter or its default, or BadInput naming the parameter when out of range.
Result<int64_t> paramIn(const std::string& model, const char* param, const std::optional<int64_t>& v,
                        int64_t def, int64_t lo, int64_t hi);
// The same with the default and range of the model's ZooParamSpec (what `fwb zoo list` shows).
Result<int64_t> param(const std::string& model, const char* name, const std::optional<int64_t>& v);

// 1.6 GB of float32, below protobuf's 2 GB message limit.
inline constexpr double kMaxWeights = 400e6;
// Weights must fit one ONNX file: BadInput giving the count and `lowerHint` (which parameter to lower, to
// what) otherwise.
Status checkWeightBudget(const std::string& model, double weightCount, const std::string& lowerHint);

// The largest x in [lo, hi] with fits(x), or lo - 1 when none (fits is monotone: true, then false).
template <typename F>
int64_t largestFitting(int64_t lo, int64_t hi, F fits) {
  if (lo > hi || !fits(lo)) return lo - 1;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// One line on the weight limit across parameters, computed from the builders' own weight counts.
std::string bertSizeLimits();
std::string lstmSizeLimits();

}  // namespace fw::zoo
