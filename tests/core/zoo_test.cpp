// The model zoo: structure (op histograms derived from the architectures), shapes, determinism, params.
#include "core/zoo/Zoo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "core/exec/Executor.h"
#include "core/onnx/OnnxIO.h"

namespace fw {
namespace {

using Histogram = std::map<std::string, int>;

Histogram histogram(const Model& m) {
  Histogram h;
  for (NodeId n : m.graph->liveNodes()) ++h[m.graph->node(n).opType];
  return h;
}

int total(const Histogram& h) {
  int t = 0;
  for (const auto& [op, c] : h) t += c;
  return t;
}

Model build(const std::string& name, const ZooParams& p = {}) {
  auto r = buildZooModel(name, p);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return Model{};
  return std::move(r).value();
}

Shape outputShape(const Model& m, size_t i = 0) { return m.graph->value(m.graph->outputs().at(i)).shape; }
Shape inputShape(const Model& m, size_t i = 0) { return m.graph->value(m.graph->inputs().at(i)).shape; }

// Every value (inputs, weights, activations, outputs) has a dtype and a fully static shape; the graph is
// consistent, acyclic, passes the onnx checker, and node names are unique and scoped.
void expectWellFormed(const Model& m) {
  const Graph& g = *m.graph;
  for (const auto& v : g.values()) {
    EXPECT_NE(v.dtype, DType::Undefined) << v.name;
    EXPECT_TRUE(v.shape.isStatic()) << v.name << " " << v.shape.str();
  }
  EXPECT_EQ(g.checkConsistency(), "");
  EXPECT_TRUE(g.topoOrder().ok());
  std::set<std::string> names;
  for (NodeId n : g.liveNodes()) {
    const std::string& name = g.node(n).name;
    EXPECT_TRUE(names.insert(name).second) << "duplicate node name " << name;
  }
  auto st = checkOnnx(m);
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message);
  EXPECT_EQ(m.opset(), 17);
  EXPECT_EQ(m.irVersion, 8);
}

// Error code BadInput and a message containing every `words`.
void expectBadInput(const std::string& name, const ZooParams& p, std::initializer_list<const char*> words) {
  auto r = buildZooModel(name, p);
  ASSERT_FALSE(r.ok()) << name;
  EXPECT_EQ(r.error().code, ErrorCode::BadInput);
  for (const char* w : words) EXPECT_NE(r.error().message.find(w), std::string::npos) << r.error().message;
}

// Inference-mode BN: positive variances in [0.5, 1.5], gammas near 1 (0.25x on ResNet's bn3).
void expectPlausibleBatchNorm(const Model& m, int expected) {
  const Graph& g = *m.graph;
  int checked = 0;
  for (NodeId n : g.liveNodes()) {
    const Node& node = g.node(n);
    if (node.opType != "BatchNormalization") continue;
    const Tensor* gamma = g.constantOf(node.inputs[1]);
    const Tensor* var = g.constantOf(node.inputs[4]);
    ASSERT_TRUE(gamma && var) << node.name;
    for (float x : var->toFloats()) ASSERT_TRUE(x >= 0.5f && x <= 1.5f) << node.name << " var " << x;
    for (float x : gamma->toFloats()) ASSERT_TRUE(x >= 0.2f && x <= 1.1f) << node.name << " gamma " << x;
    ++checked;
  }
  EXPECT_EQ(checked, expected);
}

TEST(ZooTest, WeightsAreDeterministicAndSeeded) {
  ZooParams p;
  p.image = 32;
  Model a = build("mobilenetv2", p);
  p.batch = 2;  // other params do not change the weights
  Model b = build("mobilenetv2", p);
  p.seed += 1;
  Model c = build("mobilenetv2", p);
  const auto inits = a.graph->initializers();
  ASSERT_GT(inits.size(), 200u);
  size_t differ = 0;
  for (ValueId v : inits) {
    const auto& va = a.graph->value(v);
    ValueId vb = b.graph->findValue(va.name);
    ValueId vc = c.graph->findValue(va.name);
    ASSERT_NE(vb, kNoId) << va.name;
    ASSERT_NE(vc, kNoId) << va.name;
    EXPECT_TRUE(va.initializer->sameContent(*b.graph->value(vb).initializer)) << va.name;
    if (!va.initializer->sameContent(*c.graph->value(vc).initializer)) ++differ;
  }
  // Every random tensor changes with the seed; only the two Clip bounds are fixed.
  EXPECT_EQ(differ, inits.size() - 2);
}

// Random inputs through the reference executor: weights are scaled so that activations stay finite and
// moderate through every layer (no exploding residual sums, no saturated outputs).
TEST(ZooTest, SmallConfigurationsRunWithModerateOutputs) {
  ZooParams resnet;
  resnet.image = 32;
  ZooParams bert;
  bert.layers = 2;
  bert.hidden = 96;
  bert.seq = 16;
  ZooParams lstm;
  lstm.seq = 4;
  const std::pair<const char*, ZooParams> cases[] = {{"resnet50", resnet}, {"bert", bert}, {"lstm", lstm}};
  for (const auto& [name, p] : cases) {
    Model m = build(name, p);
    auto inputs = randomInputs(m, 7);
    ASSERT_TRUE(inputs.ok()) << name << ": " << inputs.error().message;
    ExecOptions one;
    one.threads = 1;  // small graphs: one thread is enough and keeps the test cheap under ctest -j2
    auto out = runGraph(m, *inputs, one);
    ASSERT_TRUE(out.ok()) << name << ": " << out.error().message;
    for (const Tensor& t : *out) {
      float maxAbs = 0;
      for (float x : t.toFloats()) {
        ASSERT_TRUE(std::isfinite(x)) << name;
        maxAbs = std::max(maxAbs, std::fabs(x));
      }
      EXPECT_GT(maxAbs, 1e-3f) << name;
      EXPECT_LT(maxAbs, 100.0f) << name;
    }
  }
}

TEST(ZooTest, ListsSixModels) {
  std::vector<std::string> names;
  for (const auto& e : zooEntries()) {
    names.push_back(e.name);
    EXPECT_FALSE(e.description.empty());
    EXPECT_EQ(e.params.front(), "batch");
  }
  EXPECT_EQ(names, (std::vector<std::string>{"resnet50", "mobilenetv2", "bert", "yolov5s", "deeplabv3plus",
                                             "lstm"}));
}

TEST(ZooTest, UnknownNameListsKnownNames) {
  expectBadInput("resnet18", {},
                 {"resnet18", "resnet50", "mobilenetv2", "bert", "yolov5s", "deeplabv3plus", "lstm"});
}

TEST(ZooTest, BadParametersNameTheParameter) {
  ZooParams p;
  p.batch = 0;
  expectBadInput("resnet50", p, {"batch"});
  p = {};
  p.image = 16;
  expectBadInput("resnet50", p, {"image"});
  p = {};
  p.image = 100;
  expectBadInput("yolov5s", p, {"image", "32"});
  p = {};
  p.image = 200;
  expectBadInput("deeplabv3plus", p, {"image", "16"});
  p = {};
  p.hidden = 100;
  expectBadInput("bert", p, {"hidden", "heads"});
  p = {};
  p.seq = 513;
  expectBadInput("bert", p, {"seq"});
  p = {};
  p.layers = 0;
  expectBadInput("lstm", p, {"layers"});
  p = {};
  p.layers = 3;
  expectBadInput("resnet50", p, {"layers"});  // a parameter the model does not take
  p = {};
  p.image = 224;
  expectBadInput("bert", p, {"image"});
  p = {};
  p.layers = 48;
  p.hidden = 3072;  // ~5.4G weights: more than one .onnx file can hold
  expectBadInput("bert", p, {"weights", "--layers to at most", "--hidden to at most"});
}

TEST(ZooResNet50, DefaultStructureAndShapes) {
  Model m = build("resnet50");
  Histogram h = histogram(m);
  // 1 stem + 16 bottlenecks x 3 + 4 downsample convs; Relu: stem + 3 per block (2 inside, 1 after Add).
  EXPECT_EQ(h["Conv"], 53);
  EXPECT_EQ(h["BatchNormalization"], 53);
  EXPECT_EQ(h["Relu"], 49);
  EXPECT_EQ(h["Add"], 16);
  EXPECT_EQ(h["MaxPool"], 1);
  EXPECT_EQ(h["GlobalAveragePool"], 1);
  EXPECT_EQ(h["Flatten"], 1);
  EXPECT_EQ(h["Gemm"], 1);
  EXPECT_EQ(total(h), 175);
  EXPECT_EQ(inputShape(m), Shape::ofInts({1, 3, 224, 224}));
  EXPECT_EQ(m.graph->value(m.graph->inputs()[0]).name, "input");
  EXPECT_EQ(outputShape(m), Shape::ofInts({1, 1000}));
  EXPECT_EQ(m.graph->value(m.graph->outputs()[0]).name, "output");
  expectWellFormed(m);

  // PyTorch-like names: scoped nodes, state_dict weights.
  const Graph& g = *m.graph;
  NodeId conv = g.findNode("layer1/0/conv1");
  ASSERT_NE(conv, kNoId);
  EXPECT_EQ(g.node(conv).opType, "Conv");
  ValueId w = g.findValue("layer1.0.conv1.weight");
  ASSERT_NE(w, kNoId);
  EXPECT_EQ(g.value(w).shape, Shape::ofInts({64, 64, 1, 1}));
  EXPECT_NE(g.findNode("layer4/2/bn3"), kNoId);
  EXPECT_NE(g.findNode("layer2/0/downsample/0"), kNoId);
  // Stage outputs at stride 4/8/16/32: the last Add of layer3 is [1,1024,14,14].
  NodeId add = g.findNode("layer3/5/add");
  ASSERT_NE(add, kNoId);
  EXPECT_EQ(g.value(g.node(add).outputs[0]).shape, Shape::ofInts({1, 1024, 14, 14}));
  // Conv -> BN -> Relu stays unfused.
  NodeId bn = g.findNode("bn1");
  ASSERT_NE(bn, kNoId);
  EXPECT_EQ(g.node(g.producerOf(g.node(bn).inputs[0])).opType, "Conv");
  expectPlausibleBatchNorm(m, 53);
}

TEST(ZooResNet50, BatchAndImageChangeShapes) {
  ZooParams p;
  p.batch = 3;
  p.image = 64;
  Model m = build("resnet50", p);
  EXPECT_EQ(inputShape(m), Shape::ofInts({3, 3, 64, 64}));
  EXPECT_EQ(outputShape(m), Shape::ofInts({3, 1000}));
  EXPECT_EQ(total(histogram(m)), 175);
}

TEST(ZooMobileNetV2, DefaultStructureAndShapes) {
  Model m = build("mobilenetv2");
  Histogram h = histogram(m);
  // Stem + 17 inverted residual blocks (the first without expansion: 2 convs, others 3) + final 1x1.
  EXPECT_EQ(h["Conv"], 52);
  EXPECT_EQ(h["BatchNormalization"], 52);
  EXPECT_EQ(h["Clip"], 35);  // ReLU6: not after the linear projections
  EXPECT_EQ(h["Add"], 10);   // stride-1 blocks with equal in/out channels
  EXPECT_EQ(h["GlobalAveragePool"], 1);
  EXPECT_EQ(h["Flatten"], 1);
  EXPECT_EQ(h["Gemm"], 1);
  EXPECT_EQ(total(h), 152);
  int depthwise = 0;
  for (NodeId n : m.graph->liveNodes()) {
    const Node& node = m.graph->node(n);
    if (node.opType == "Conv" && node.attrs.intOr("group", 1) > 1) ++depthwise;
    if (node.opType == "Clip") {
      ASSERT_EQ(node.inputs.size(), 3u);  // opset 11+: min/max are inputs
      EXPECT_FLOAT_EQ(m.graph->constantOf(node.inputs[2])->toFloats()[0], 6.0f);
    }
  }
  EXPECT_EQ(depthwise, 17);
  EXPECT_EQ(outputShape(m), Shape::ofInts({1, 1000}));
  expectWellFormed(m);
}

TEST(ZooBert, DefaultIsBertBase) {
  Model m = build("bert");
  Histogram h = histogram(m);
  // Per layer 50 nodes; embeddings 14 (3 Gather, 2 Add, LayerNorm 9), mask 4, pooler 3.
  EXPECT_EQ(total(h), 12 * 50 + 21);
  EXPECT_EQ(h["ReduceMean"], 2 * 25);  // 25 LayerNorms
  EXPECT_EQ(h["Sqrt"], 25);
  EXPECT_EQ(h["Pow"], 25);
  EXPECT_EQ(h["Erf"], 12);
  EXPECT_EQ(h["Softmax"], 12);
  EXPECT_EQ(h["MatMul"], 12 * 8);  // q, k, v, scores, context, attention out, intermediate, output
  EXPECT_EQ(h["Reshape"], 12 * 4);
  EXPECT_EQ(h["Transpose"], 12 * 4);
  EXPECT_EQ(h["Gather"], 4);
  EXPECT_EQ(h["Gemm"], 1);
  EXPECT_EQ(h["Tanh"], 1);
  EXPECT_EQ(h["LayerNormalization"], 0);
  const Graph& g = *m.graph;
  ASSERT_EQ(g.inputs().size(), 2u);
  EXPECT_EQ(g.value(g.inputs()[0]).name, "input_ids");
  EXPECT_EQ(g.value(g.inputs()[0]).dtype, DType::Int64);
  EXPECT_EQ(g.value(g.inputs()[1]).name, "attention_mask");
  EXPECT_EQ(outputShape(m, 0), Shape::ofInts({1, 128, 768}));
  EXPECT_EQ(outputShape(m, 1), Shape::ofInts({1, 768}));
  // Attention scores are [batch, heads, seq, seq].
  NodeId sm = g.findNode("encoder/layer/0/attention/self/Softmax");
  ASSERT_NE(sm, kNoId);
  EXPECT_EQ(g.value(g.node(sm).outputs[0]).shape, Shape::ofInts({1, 12, 128, 128}));
  ValueId q = g.findValue("encoder.layer.11.attention.self.query.weight");
  ASSERT_NE(q, kNoId);
  EXPECT_EQ(g.value(q).shape, Shape::ofInts({768, 768}));
  expectWellFormed(m);
}

TEST(ZooBert, LayerNormAndGeluAreDecomposedInExportOrder) {
  ZooParams p;
  p.layers = 1;
  p.hidden = 64;
  p.heads = 4;
  p.seq = 8;
  Model m = build("bert", p);
  const Graph& g = *m.graph;
  auto chain = [&](const std::string& scope, size_t n) {
    std::vector<std::string> ops;
    for (NodeId id : g.liveNodes())
      if (g.node(id).name.rfind(scope, 0) == 0 && ops.size() < n) ops.push_back(g.node(id).opType);
    return ops;
  };
  EXPECT_EQ(chain("encoder/layer/0/output/LayerNorm/", 9),
            (std::vector<std::string>{"ReduceMean", "Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul",
                                      "Add"}));
  EXPECT_EQ(chain("encoder/layer/0/intermediate/intermediate_act_fn/", 5),
            (std::vector<std::string>{"Div", "Erf", "Add", "Mul", "Mul"}));
  EXPECT_EQ(chain("encoder/layer/0/attention/self/", 19),
            (std::vector<std::string>{"MatMul", "Add", "Reshape", "Transpose", "MatMul", "Add", "Reshape",
                                      "Transpose", "MatMul", "Add", "Reshape", "Transpose", "MatMul", "Div",
                                      "Add", "Softmax", "MatMul", "Transpose", "Reshape"}));
  EXPECT_EQ(chain("extended_attention_mask/", 4),
            (std::vector<std::string>{"Unsqueeze", "Cast", "Sub", "Mul"}));
  EXPECT_EQ(total(histogram(m)), 50 + 21);
  expectWellFormed(m);
}

TEST(ZooBert, ParamsChangeShapes) {
  ZooParams p;
  p.batch = 2;
  p.layers = 2;
  p.hidden = 96;
  p.seq = 16;  // heads default 12: head dim 8
  Model m = build("bert", p);
  EXPECT_EQ(total(histogram(m)), 2 * 50 + 21);
  EXPECT_EQ(inputShape(m, 0), Shape::ofInts({2, 16}));
  EXPECT_EQ(inputShape(m, 1), Shape::ofInts({2, 16}));
  EXPECT_EQ(outputShape(m, 0), Shape::ofInts({2, 16, 96}));
  EXPECT_EQ(outputShape(m, 1), Shape::ofInts({2, 96}));
}

TEST(ZooYoloV5s, DefaultStructureAndShapes) {
  Model m = build("yolov5s");
  Histogram h = histogram(m);
  // 57 Conv modules (Conv, BN, Sigmoid, Mul each) + 3 Detect convs with bias.
  EXPECT_EQ(h["Conv"], 60);
  EXPECT_EQ(h["BatchNormalization"], 57);
  EXPECT_EQ(h["Sigmoid"], 57 + 3);
  EXPECT_EQ(h["Mul"], 57 + 3 * 4);
  EXPECT_EQ(h["Slice"], 4);    // Focus
  EXPECT_EQ(h["MaxPool"], 3);  // SPPF
  EXPECT_EQ(h["Resize"], 2);   // neck upsampling
  EXPECT_EQ(h["Add"], 7 + 3);  // backbone C3 shortcuts + Detect grid offsets
  EXPECT_EQ(h["Split"], 3);
  EXPECT_EQ(h["Pow"], 3);
  EXPECT_EQ(h["Concat"], 1 + 8 + 1 + 4 + 3 + 1);  // Focus, C3s, SPPF, neck, Detect levels, final
  EXPECT_EQ(total(h), 298);
  // Boxes: 3 anchors x (40^2 + 20^2 + 10^2) at 320.
  EXPECT_EQ(outputShape(m), Shape::ofInts({1, 6300, 85}));
  // Focus turns [1,3,320,320] into [1,12,160,160].
  NodeId cat = m.graph->findNode("model/0/concat");
  ASSERT_NE(cat, kNoId);
  EXPECT_EQ(m.graph->value(m.graph->node(cat).outputs[0]).shape, Shape::ofInts({1, 12, 160, 160}));
  expectWellFormed(m);
}

TEST(ZooYoloV5s, BatchAndImageChangeShapes) {
  ZooParams p;
  p.batch = 2;
  p.image = 256;
  Model m = build("yolov5s", p);
  EXPECT_EQ(inputShape(m), Shape::ofInts({2, 3, 256, 256}));
  EXPECT_EQ(outputShape(m), Shape::ofInts({2, 3 * (32 * 32 + 16 * 16 + 8 * 8), 85}));
}

TEST(ZooDeepLabV3Plus, DefaultStructureAndShapes) {
  Model m = build("deeplabv3plus");
  Histogram h = histogram(m);
  // ResNet-50 backbone (53 Conv) + ASPP (4 branches, pooling conv, projection) + decoder (3).
  EXPECT_EQ(h["Conv"], 53 + 6 + 3);
  EXPECT_EQ(h["BatchNormalization"], 53 + 6 + 2);
  EXPECT_EQ(h["Relu"], 49 + 6 + 2);
  EXPECT_EQ(h["Add"], 16);
  EXPECT_EQ(h["Resize"], 3);
  EXPECT_EQ(h["Concat"], 2);
  EXPECT_EQ(h["GlobalAveragePool"], 1);
  EXPECT_EQ(h["Gemm"], 0);
  EXPECT_EQ(total(h), 203);
  std::multiset<int64_t> dilations;
  for (NodeId n : m.graph->liveNodes()) {
    const Node& node = m.graph->node(n);
    if (node.opType == "Conv") {
      auto d = node.attrs.getInts("dilations");
      if (d && (*d)[0] > 1) dilations.insert((*d)[0]);
    }
  }
  EXPECT_EQ(dilations, (std::multiset<int64_t>{2, 2, 6, 12, 18}));
  EXPECT_EQ(outputShape(m), Shape::ofInts({1, 21, 256, 256}));
  // Output stride 16: layer4 stays at 16x16 for a 256 input.
  NodeId add = m.graph->findNode("backbone/layer4/2/add");
  ASSERT_NE(add, kNoId);
  EXPECT_EQ(m.graph->value(m.graph->node(add).outputs[0]).shape, Shape::ofInts({1, 2048, 16, 16}));
  expectWellFormed(m);
}

TEST(ZooDeepLabV3Plus, BatchAndImageChangeShapes) {
  ZooParams p;
  p.batch = 2;
  p.image = 128;
  Model m = build("deeplabv3plus", p);
  EXPECT_EQ(inputShape(m), Shape::ofInts({2, 3, 128, 128}));
  EXPECT_EQ(outputShape(m), Shape::ofInts({2, 21, 128, 128}));
}

TEST(ZooLstm, DefaultStructureAndShapes) {
  Model m = build("lstm");
  Histogram h = histogram(m);
  // 2 layers x 16 steps x 15 nodes (2 MatMul, 4 Add, Split, 3 Sigmoid, 2 Tanh, 3 Mul), 16 input Gathers,
  // output/h_n/c_n stacking (Unsqueeze per step or layer + Concat).
  const int cells = 2 * 16;
  EXPECT_EQ(h["MatMul"], 2 * cells);
  EXPECT_EQ(h["Sigmoid"], 3 * cells);
  EXPECT_EQ(h["Tanh"], 2 * cells);
  EXPECT_EQ(h["Split"], cells);
  EXPECT_EQ(h["Mul"], 3 * cells);
  EXPECT_EQ(h["Add"], 4 * cells);
  EXPECT_EQ(h["Gather"], 16);
  EXPECT_EQ(h["Unsqueeze"], 16 + 2 + 2);
  EXPECT_EQ(h["Concat"], 3);
  EXPECT_EQ(total(h), 15 * cells + 16 + 17 + 6);
  EXPECT_EQ(inputShape(m), Shape::ofInts({16, 1, 128}));
  EXPECT_EQ(outputShape(m, 0), Shape::ofInts({16, 1, 256}));
  EXPECT_EQ(outputShape(m, 1), Shape::ofInts({2, 1, 256}));
  EXPECT_EQ(outputShape(m, 2), Shape::ofInts({2, 1, 256}));
  expectWellFormed(m);
}

TEST(ZooLstm, ParamsChangeShapes) {
  ZooParams p;
  p.batch = 4;
  p.layers = 3;
  p.hidden = 32;
  p.seq = 5;
  Model m = build("lstm", p);
  EXPECT_EQ(total(histogram(m)), 15 * 15 + 5 + 6 + 8);
  EXPECT_EQ(inputShape(m), Shape::ofInts({5, 4, 128}));
  EXPECT_EQ(outputShape(m, 0), Shape::ofInts({5, 4, 32}));
  EXPECT_EQ(outputShape(m, 1), Shape::ofInts({3, 4, 32}));
}

}  // namespace
}  // namespace fw
