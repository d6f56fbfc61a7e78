// DeepLabV3+ with a ResNet-50 backbone at output stride 16 (layer4 dilated), laid out like the common
// PyTorch implementation (backbone.*, classifier.aspp.*, classifier.project.*, classifier.classifier.*):
// ASPP = 1x1 branch, three 3x3 branches dilated 6/12/18, and image pooling (GlobalAveragePool, 1x1 conv,
// bilinear Resize back); the decoder concatenates the upsampled ASPP output with projected layer1 features
// (48 channels), applies a 3x3 Conv-BN-ReLU and a 1x1 classifier, and resizes to the input size.
// Resize takes explicit `sizes`, as a static-shape export writes F.interpolate(size=...).
#include "core/zoo/ZooModels.h"

namespace fw::zoo {
namespace {

constexpr int64_t kClasses = 21;  // PASCAL VOC
constexpr int64_t kAsppC = 256;
constexpr int64_t kLowC = 48;

ValueId convBnRelu(ZooBuilder& b, ValueId x, const ConvSpec& s, const std::string& name) {
  auto sc = b.scope(name);
  x = b.conv(x, s, "0");
  x = b.bn(x, s.outC, "1");
  return b.relu(x, "2");
}

ValueId resizeBilinear(ZooBuilder& b, ValueId x, const std::vector<int64_t>& sizes, const std::string& name) {
  auto sc = b.scope(name);
  return b.op("Resize", {x, kNoId, kNoId, b.constI64("sizes", sizes)},
              attrs({Attribute::makeString("coordinate_transformation_mode", "pytorch_half_pixel"),
                     Attribute::makeFloat("cubic_coeff_a", -0.75f), Attribute::makeString("mode", "linear"),
                     Attribute::makeString("nearest_mode", "floor")}),
              "Resize");
}

ValueId aspp(ZooBuilder& b, ValueId x, int64_t inC, int64_t batch, int64_t feat) {
  auto sc = b.scope("aspp");
  std::vector<ValueId> branches;
  {
    auto cs = b.scope("convs");
    branches.push_back(convBnRelu(b, x, {.inC = inC, .outC = kAsppC, .kernel = 1}, "0"));
    const int64_t rates[3] = {6, 12, 18};
    for (int k = 0; k < 3; ++k)
      branches.push_back(convBnRelu(b, x, {.inC = inC, .outC = kAsppC, .kernel = 3, .dilation = rates[k]},
                                    std::to_string(k + 1)));
    auto ps = b.scope("4");
    ValueId pooled = b.op("GlobalAveragePool", {x}, {}, "0");
    pooled = b.conv(pooled, {.inC = inC, .outC = kAsppC, .kernel = 1}, "1");
    pooled = b.relu(b.bn(pooled, kAsppC, "2"), "3");
    branches.push_back(resizeBilinear(b, pooled, {batch, kAsppC, feat, feat}, "interpolate"));
  }
  ValueId cat = b.op("Concat", branches, attrs({Attribute::makeInt("axis", 1)}), "concat");
  return convBnRelu(b, cat, {.inC = 5 * kAsppC, .outC = kAsppC, .kernel = 1}, "project");
}

}  // namespace

Result<Model> buildDeepLabV3Plus(const ZooParams& p) {
  FW_ASSIGN_OR_RETURN(int64_t image, param("deeplabv3plus", "image", p.image));
  if (image % 16 != 0)
    return Error::badInput(
        "zoo model deeplabv3plus: --image must be a multiple of 16 (the output stride), got " +
        std::to_string(image));
  const int64_t batch = p.batch;
  ZooBuilder b("deeplabv3plus", p.seed);
  ValueId x = b.input("input", DType::Float32, {batch, 3, image, image});
  ResNetFeatures f;
  {
    auto sc = b.scope("backbone");
    f = resnet50Backbone(b, x, /*dilateLayer4=*/true);
  }
  ValueId y;
  {
    auto sc = b.scope("classifier");
    ValueId low = convBnRelu(b, f.layer1, {.inC = 256, .outC = kLowC, .kernel = 1}, "project");
    ValueId high = aspp(b, f.layer4, 2048, batch, image / 16);
    high = resizeBilinear(b, high, {batch, kAsppC, image / 4, image / 4}, "upsample_aspp");
    ValueId cat = b.op("Concat", {low, high}, attrs({Attribute::makeInt("axis", 1)}), "concat");
    auto cs = b.scope("classifier");
    y = convBnRelu(b, cat, {.inC = kLowC + kAsppC, .outC = kAsppC, .kernel = 3}, "0");
    y = b.conv(y, {.inC = kAsppC, .outC = kClasses, .kernel = 1, .bias = true}, "3");
  }
  y = b.op("Resize", {y, kNoId, kNoId, b.constI64("output_sizes", {batch, kClasses, image, image})},
           attrs({Attribute::makeString("coordinate_transformation_mode", "pytorch_half_pixel"),
                  Attribute::makeFloat("cubic_coeff_a", -0.75f), Attribute::makeString("mode", "linear"),
                  Attribute::makeString("nearest_mode", "floor")}),
           "upsample", "output");
  return b.finish(
      {y}, "DeepLabV3+ (ResNet-50 OS16, ASPP 6/12/18, decoder; unfused Conv/BatchNormalization/Relu), " +
               std::to_string(image) + "x" + std::to_string(image) + " input, 21 classes");
}

}  // namespace fw::zoo
