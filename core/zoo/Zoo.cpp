#include "core/zoo/Zoo.h"

#include "core/zoo/ZooModels.h"

namespace fw {
namespace {

using Builder = Result<Model> (*)(const ZooParams&);

struct Registered {
  ZooEntry entry;
  Builder build;
};

const std::vector<Registered>& registry() {
  static const std::vector<Registered> r = {
      {{"resnet50", "ResNet-50 image classifier (torchvision), default 224x224", {"batch", "image"}},
       zoo::buildResNet50},
      {{"mobilenetv2",
        "MobileNetV2 classifier (torchvision, ReLU6 as Clip), default 224x224",
        {"batch", "image"}},
       zoo::buildMobileNetV2},
      {{"bert",
        "BERT-base encoder (HF export: decomposed LayerNorm and erf GELU), default 12 layers, hidden 768, "
        "12 heads, seq 128, vocab 1024",
        {"batch", "layers", "hidden", "seq", "heads"}},
       zoo::buildBert},
      {{"yolov5s",
        "YOLOv5s detector (Focus, C3, SPPF, Detect decode), default 320x320 (640 upstream)",
        {"batch", "image"}},
       zoo::buildYoloV5s},
      {{"deeplabv3plus",
        "DeepLabV3+ segmentation (ResNet-50 output stride 16, ASPP, decoder), default 256x256, 21 classes",
        {"batch", "image"}},
       zoo::buildDeepLabV3Plus},
      {{"lstm",
        "Unrolled 2-layer LSTM (MatMul/Add/Sigmoid/Tanh gates), default hidden 256, seq 16, input 128",
        {"batch", "layers", "hidden", "seq"}},
       zoo::buildLstm},
  };
  return r;
}

}  // namespace

namespace zoo {

Result<int64_t> paramIn(const std::string& model, const char* param, const std::optional<int64_t>& v,
                        int64_t def, int64_t lo, int64_t hi) {
  const int64_t x = v.value_or(def);
  if (x < lo || x > hi)
    return Error::badInput("zoo model " + model + ": --" + param + " must be in [" + std::to_string(lo) +
                           ", " + std::to_string(hi) + "], got " + std::to_string(x));
  return x;
}

Status checkWeightBudget(const std::string& model, const char* params, double weightCount) {
  constexpr double kMaxWeights = 400e6;  // 1.6 GB of float32, below protobuf's 2 GB message limit
  if (weightCount > kMaxWeights)
    return Error::badInput("zoo model " + model + ": " + params + " too large: about " +
                           std::to_string(static_cast<int64_t>(weightCount / 1e6)) +
                           "M weights, at most 400M fit one .onnx file");
  return {};
}

}  // namespace zoo

const std::vector<ZooEntry>& zooEntries() {
  static const std::vector<ZooEntry> entries = [] {
    std::vector<ZooEntry> e;
    for (const auto& r : registry()) e.push_back(r.entry);
    return e;
  }();
  return entries;
}

Result<Model> buildZooModel(const std::string& name, const ZooParams& params) {
  const Registered* found = nullptr;
  std::string known;
  for (const auto& r : registry()) {
    if (r.entry.name == name) found = &r;
    known += (known.empty() ? "" : ", ") + r.entry.name;
  }
  if (!found) return Error::badInput("unknown zoo model '" + name + "'; known models: " + known);
  // A parameter the model does not take is a usage error, not something to ignore silently.
  const auto takes = [&](const char* p) {
    for (const auto& q : found->entry.params)
      if (q == p) return true;
    return false;
  };
  const std::pair<const char*, bool> given[] = {{"layers", params.layers.has_value()},
                                                {"hidden", params.hidden.has_value()},
                                                {"seq", params.seq.has_value()},
                                                {"image", params.image.has_value()},
                                                {"heads", params.heads.has_value()}};
  for (const auto& [p, set] : given)
    if (set && !takes(p)) return Error::badInput("zoo model " + name + " does not take --" + p);
  FW_TRY_STATUS(zoo::paramIn(name, "batch", params.batch, 1, 1, 1024));
  return found->build(params);
}

}  // namespace fw
