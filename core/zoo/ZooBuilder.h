#pragma once
// Internal to core/zoo: a small graph-building helper shared by every zoo model.
//
// Names follow the PyTorch module path. Scopes nest with '/', so a node is "layer1/0/conv1" and the GUI can
// collapse "layer1" or "layer1/0"; weights use the state_dict spelling "layer1.0.conv1.weight". Weights are
// drawn from a generator seeded by (model seed, weight name), so a weight does not change when another
// parameter (batch, layer count) changes the rest of the graph, and two builds are bit-identical. The
// uniform draw is done by hand from the raw 64-bit stream: std:: distributions differ between standard
// libraries, which would break determinism across platforms.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/ir/Model.h"
#include "core/util/Result.h"

namespace fw::zoo {

struct ConvSpec {
  int64_t inC = 0;
  int64_t outC = 0;
  int64_t kernel = 1;
  int64_t stride = 1;
  int64_t pad = -1;  // -1: "same" for odd kernels, i.e. dilation * (kernel - 1) / 2
  int64_t dilation = 1;
  int64_t groups = 1;
  bool bias = false;
};

class ZooBuilder {
 public:
  ZooBuilder(std::string graphName, uint64_t seed);
  ZooBuilder(const ZooBuilder&) = delete;
  ZooBuilder& operator=(const ZooBuilder&) = delete;

  // RAII name scope: { auto s = b.scope("layer1"); ... }
  class Scope {
   public:
    explicit Scope(ZooBuilder& b) : b_(&b) {}
    Scope(Scope&& o) noexcept : b_(o.b_) { o.b_ = nullptr; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope& operator=(Scope&&) = delete;
    ~Scope() {
      if (b_) b_->scopes_.pop_back();
    }

   private:
    ZooBuilder* b_;
  };
  [[nodiscard]] Scope scope(const std::string& name);

  Graph& graph() { return *graph_; }

  // --- values -------------------------------------------------------------------------------
  ValueId input(const std::string& name, DType dtype, const std::vector<int64_t>& dims);
  // A float weight drawn uniformly from [lo, hi), named "<scope.dotted>.<local>".
  ValueId uniform(const std::string& local, const std::vector<int64_t>& dims, float lo, float hi);
  // A constant in the current scope ("<scope.dotted>.<local>").
  ValueId constant(const std::string& local, Tensor t);
  // A model-wide constant shared by every user, created once (e.g. Clip bounds, Resize scales).
  ValueId sharedConstant(const std::string& name, const Tensor& t);
  ValueId constI64(const std::string& local, const std::vector<int64_t>& v);  // 1-D int64
  ValueId scalarF(const std::string& local, float v);                         // 0-D float

  // --- nodes --------------------------------------------------------------------------------
  // Adds a node named "<scope>/<local>" (made unique with _1, _2 ...). Output values are named after the
  // node; `outName` names a single output explicitly (graph outputs: "output", "logits" ...).
  std::vector<ValueId> opN(const std::string& opType, std::vector<ValueId> inputs, Attributes attrs,
                           const std::string& local, size_t numOutputs);
  ValueId op(const std::string& opType, std::vector<ValueId> inputs, Attributes attrs = {},
             const std::string& local = {}, const std::string& outName = {});

  // --- layers as PyTorch exports them ---------------------------------------------------------
  // Conv with He-uniform weights (bias, if any, uniform in +-1/sqrt(fan_in) like torch.nn.Conv2d).
  ValueId conv(ValueId x, const ConvSpec& s, const std::string& local = "conv");
  // Inference-mode BatchNormalization: gamma ~1 (times gammaScale), beta and mean small, variance in
  // [0.5, 1.5].
  ValueId bn(ValueId x, int64_t channels, const std::string& local = "bn", float eps = 1e-5f,
             float gammaScale = 1.0f);
  ValueId relu(ValueId x, const std::string& local = "relu");
  ValueId relu6(ValueId x, const std::string& local = "relu6");  // Clip(x, 0, 6), bounds as inputs
  ValueId silu(ValueId x, const std::string& local = "act");     // Sigmoid + Mul, scoped under local
  // x[..., in] @ W[in, out] + b: MatMul then Add, named "<local>/MatMul" and "<local>/Add".
  ValueId linear(ValueId x, int64_t in, int64_t out, const std::string& local, float stddev);
  // Gemm(transB=1) classifier head, weight [out, in] as torch.nn.Linear stores it.
  ValueId gemm(ValueId x, int64_t in, int64_t out, const std::string& local, const std::string& outName = {});

  // Marks outputs, runs strict ONNX shape inference and returns the model.
  Result<Model> finish(const std::vector<ValueId>& outputs, const std::string& docString);

  std::string nodeName(const std::string& local) const;
  std::string weightName(const std::string& local) const;

 private:
  std::vector<float> draw(const std::string& name, size_t n, float lo, float hi) const;
  std::string claimNodeName(const std::string& local, const std::string& opType);

  Model model_;
  Graph* graph_;
  uint64_t seed_;
  std::vector<std::string> scopes_;
  std::unordered_set<std::string> nodeNames_;
  std::map<std::string, ValueId> shared_;
};

Attributes attrs(std::initializer_list<Attribute> list);

}  // namespace fw::zoo
