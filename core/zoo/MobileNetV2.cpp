// MobileNetV2 (torchvision, width 1.0) as torch.onnx.export writes it without Conv+BN folding:
// Conv -> BatchNormalization -> Clip(0, 6) (ReLU6; opset 11+ takes min/max as inputs), inverted residual
// blocks (expand 1x1, depthwise 3x3, linear projection), GlobalAveragePool, Flatten, Gemm.
#include "core/zoo/ZooModels.h"

namespace fw::zoo {
namespace {

// torchvision Conv2dNormActivation: ".0" conv, ".1" bn, ".2" ReLU6.
ValueId convBnRelu6(ZooBuilder& b, ValueId x, const ConvSpec& s, const std::string& name) {
  auto sc = b.scope(name);
  x = b.conv(x, s, "0");
  x = b.bn(x, s.outC, "1");
  return b.relu6(x, "2");
}

ValueId invertedResidual(ZooBuilder& b, ValueId x, int64_t inC, int64_t outC, int64_t stride,
                         int64_t expand) {
  auto sc = b.scope("conv");
  const int64_t hidden = inC * expand;
  ValueId y = x;
  int layer = 0;
  if (expand != 1) y = convBnRelu6(b, y, {.inC = inC, .outC = hidden, .kernel = 1}, std::to_string(layer++));
  y = convBnRelu6(b, y, {.inC = hidden, .outC = hidden, .kernel = 3, .stride = stride, .groups = hidden},
                  std::to_string(layer++));
  y = b.conv(y, {.inC = hidden, .outC = outC, .kernel = 1}, std::to_string(layer++));
  y = b.bn(y, outC, std::to_string(layer++));
  if (stride == 1 && inC == outC) y = b.op("Add", {x, y}, {}, "add");
  return y;
}

}  // namespace

Result<Model> buildMobileNetV2(const ZooParams& p) {
  FW_ASSIGN_OR_RETURN(int64_t image, param("mobilenetv2", "image", p.image));
  ZooBuilder b("mobilenetv2", p.seed);
  ValueId x = b.input("input", DType::Float32, {p.batch, 3, image, image});
  {
    auto features = b.scope("features");
    x = convBnRelu6(b, x, {.inC = 3, .outC = 32, .kernel = 3, .stride = 2}, "0");
    // (expansion t, output channels c, repeats n, first stride s), as in the paper's Table 2.
    const int64_t cfg[][4] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                              {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int64_t inC = 32;
    int index = 1;
    for (const auto& c : cfg) {
      for (int64_t i = 0; i < c[2]; ++i) {
        auto sc = b.scope(std::to_string(index++));
        x = invertedResidual(b, x, inC, c[1], i == 0 ? c[3] : 1, c[0]);
        inC = c[1];
      }
    }
    x = convBnRelu6(b, x, {.inC = 320, .outC = 1280, .kernel = 1}, std::to_string(index));
  }
  x = b.op("GlobalAveragePool", {x}, {}, "avgpool");
  x = b.op("Flatten", {x}, attrs({Attribute::makeInt("axis", 1)}), "flatten");
  {
    auto sc = b.scope("classifier");  // classifier.0 is Dropout, gone in an inference export
    x = b.gemm(x, 1280, 1000, "1", "output");
  }
  return b.finish({x}, "MobileNetV2 (torchvision layout, unfused Conv/BatchNormalization/Clip), " +
                           std::to_string(image) + "x" + std::to_string(image) + " input, 1000 classes");
}

}  // namespace fw::zoo
