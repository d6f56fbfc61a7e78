#include "core/zoo/Zoo.h"

#include "core/zoo/ZooModels.h"

namespace fw {
namespace {

using Builder = Result<Model> (*)(const ZooParams&);

struct Registered {
  ZooEntry entry;
  Builder build;
};

constexpr int64_t kMaxBatch = 1024;

ZooParamSpec batchSpec() { return {"batch", 1, 1, kMaxBatch, ""}; }

ZooEntry entry(std::string name, std::string description, std::vector<ZooParamSpec> specs,
               std::string limits = {}) {
  ZooEntry e;
  e.name = std::move(name);
  e.description = std::move(description);
  specs.insert(specs.begin(), batchSpec());
  for (const auto& s : specs) e.params.push_back(s.name);
  e.specs = std::move(specs);
  e.limits = std::move(limits);
  return e;
}

const std::vector<Registered>& registry() {
  static const std::vector<Registered> r = {
      {entry("resnet50", "ResNet-50 image classifier (torchvision), default 224x224",
             {{"image", 224, 32, 4096, ""}}),
       zoo::buildResNet50},
      {entry("mobilenetv2", "MobileNetV2 classifier (torchvision, ReLU6 as Clip), default 224x224",
             {{"image", 224, 32, 4096, ""}}),
       zoo::buildMobileNetV2},
      {entry("bert",
             "BERT-base encoder (HF export: decomposed LayerNorm and erf GELU), default 12 layers, hidden 768, "
             "12 heads, seq 128, vocab 1024",
             {{"layers", 12, 1, zoo::kBertMaxLayers, ""},
              {"hidden", 768, 8, 4096, ""},
              {"heads", 12, 1, 128, "divides --hidden"},
              {"seq", 128, 1, zoo::kBertMaxSeq, ""}},
             zoo::bertSizeLimits()),
       zoo::buildBert},
      {entry("yolov5s", "YOLOv5s detector (Focus, C3, SPPF, Detect decode), default 320x320 (640 upstream)",
             {{"image", 320, 32, 4096, "multiple of 32"}}),
       zoo::buildYoloV5s},
      {entry("deeplabv3plus",
             "DeepLabV3+ segmentation (ResNet-50 output stride 16, ASPP, decoder), default 256x256, 21 classes",
             {{"image", 256, 64, 4096, "multiple of 16"}}),
       zoo::buildDeepLabV3Plus},
      {entry("lstm",
             "Unrolled 2-layer LSTM (MatMul/Add/Sigmoid/Tanh gates), default hidden 256, seq 16, input 128",
             {{"layers", 2, 1, 16, ""}, {"hidden", 256, 1, 4096, ""}, {"seq", 16, 1, zoo::kLstmMaxSeq, ""}},
             zoo::lstmSizeLimits()),
       zoo::buildLstm},
  };
  return r;
}

const Registered* findRegistered(const std::string& name) {
  for (const auto& r : registry())
    if (r.entry.name == name) return &r;
  return nullptr;
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

Result<int64_t> param(const std::string& model, const char* name, const std::optional<int64_t>& v) {
  const Registered* r = findRegistered(model);
  if (r)
    for (const auto& s : r->entry.specs)
      if (s.name == name) return paramIn(model, name, v, s.def, s.lo, s.hi);
  return Error::internal("zoo model " + model + ": no parameter spec for --" + name);
}

Status checkWeightBudget(const std::string& model, double weightCount, const std::string& lowerHint) {
  if (weightCount > kMaxWeights)
    return Error::badInput("zoo model " + model + ": about " +
                           std::to_string(static_cast<int64_t>(weightCount / 1e6)) +
                           "M weights, at most 400M fit one .onnx file; " + lowerHint);
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
  const Registered* found = findRegistered(name);
  if (!found) {
    std::string known;
    for (const auto& r : registry()) known += (known.empty() ? "" : ", ") + r.entry.name;
    return Error::badInput("unknown zoo model '" + name + "'; known models: " + known);
  }
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
  FW_TRY_STATUS(zoo::param(name, "batch", params.batch));
  return found->build(params);
}

}  // namespace fw
