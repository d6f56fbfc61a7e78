// ResNet-50 (torchvision v1.5: the stride sits on the 3x3 conv) as torch.onnx.export writes it without
// Conv+BN folding: Conv -> BatchNormalization -> Relu, residual Add, GlobalAveragePool, Flatten, Gemm.
#include "core/zoo/ZooModels.h"

namespace fw::zoo {
namespace {

ValueId bottleneck(ZooBuilder& b, ValueId x, int64_t inC, int64_t width, int64_t stride, int64_t dilation,
                   bool downsample) {
  const int64_t outC = width * 4;
  ValueId y = b.conv(x, {.inC = inC, .outC = width, .kernel = 1}, "conv1");
  y = b.relu(b.bn(y, width, "bn1"));
  y = b.conv(y, {.inC = width, .outC = width, .kernel = 3, .stride = stride, .dilation = dilation}, "conv2");
  y = b.relu(b.bn(y, width, "bn2"));
  y = b.conv(y, {.inC = width, .outC = outC, .kernel = 1}, "conv3");
  // Small gammas on the last BN of the residual branch, as training leaves them: with gamma ~1 the
  // residual sums double the activation variance per block (x65536 over 16 blocks).
  y = b.bn(y, outC, "bn3", 1e-5f, 0.25f);
  ValueId identity = x;
  if (downsample) {
    auto s = b.scope("downsample");
    identity = b.conv(x, {.inC = inC, .outC = outC, .kernel = 1, .stride = stride}, "0");
    identity = b.bn(identity, outC, "1");
  }
  return b.relu(b.op("Add", {y, identity}, {}, "add"));
}

}  // namespace

ResNetFeatures resnet50Backbone(ZooBuilder& b, ValueId x, bool dilateLayer4) {
  ResNetFeatures f;
  x = b.conv(x, {.inC = 3, .outC = 64, .kernel = 7, .stride = 2, .pad = 3}, "conv1");
  x = b.relu(b.bn(x, 64, "bn1"));
  x = b.op("MaxPool", {x},
           attrs({Attribute::makeInt("ceil_mode", 0), Attribute::makeInts("dilations", {1, 1}),
                  Attribute::makeInts("kernel_shape", {3, 3}), Attribute::makeInts("pads", {1, 1, 1, 1}),
                  Attribute::makeInts("strides", {2, 2})}),
           "maxpool");
  struct Stage {
    const char* name;
    int64_t blocks, width, stride;
  };
  const Stage stages[] = {
      {"layer1", 3, 64, 1}, {"layer2", 4, 128, 2}, {"layer3", 6, 256, 2}, {"layer4", 3, 512, 2}};
  int64_t inC = 64;
  for (const auto& st : stages) {
    auto s = b.scope(st.name);
    const bool dilate = dilateLayer4 && std::string(st.name) == "layer4";
    for (int64_t i = 0; i < st.blocks; ++i) {
      auto bs = b.scope(std::to_string(i));
      // torchvision: the first dilated block keeps the previous dilation (1), the others use 2.
      const int64_t stride = (i == 0 && !dilate) ? st.stride : 1;
      const int64_t dilation = (dilate && i > 0) ? 2 : 1;
      x = bottleneck(b, x, inC, st.width, stride, dilation, i == 0);
      inC = st.width * 4;
    }
    if (std::string(st.name) == "layer1") f.layer1 = x;
  }
  f.layer4 = x;
  return f;
}

Result<Model> buildResNet50(const ZooParams& p) {
  FW_ASSIGN_OR_RETURN(int64_t image, param("resnet50", "image", p.image));
  ZooBuilder b("resnet50", p.seed);
  ValueId x = b.input("input", DType::Float32, {p.batch, 3, image, image});
  ResNetFeatures f = resnet50Backbone(b, x, /*dilateLayer4=*/false);
  ValueId y = b.op("GlobalAveragePool", {f.layer4}, {}, "avgpool");
  y = b.op("Flatten", {y}, attrs({Attribute::makeInt("axis", 1)}), "flatten");
  y = b.gemm(y, 2048, 1000, "fc", "output");
  return b.finish({y}, "ResNet-50 (torchvision layout, unfused Conv/BatchNormalization/Relu), " +
                           std::to_string(image) + "x" + std::to_string(image) + " input, 1000 classes");
}

}  // namespace fw::zoo
