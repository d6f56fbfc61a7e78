#include "core/zoo/ZooBuilder.h"

#include <cmath>
#include <random>

#include "core/onnx/OnnxIO.h"

namespace fw::zoo {
namespace {

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::string join(const std::vector<std::string>& parts, char sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

}  // namespace

Attributes attrs(std::initializer_list<Attribute> list) {
  Attributes a;
  for (const auto& x : list) a.set(x);
  return a;
}

ZooBuilder::ZooBuilder(std::string graphName, uint64_t seed) : seed_(seed) {
  graph_ = &model_.mutableGraph();
  graph_->name = std::move(graphName);
  model_.irVersion = 8;
  model_.opsetImports = {{"", 17}};
}

ZooBuilder::Scope ZooBuilder::scope(const std::string& name) {
  scopes_.push_back(name);
  return Scope(*this);
}

std::string ZooBuilder::nodeName(const std::string& local) const {
  std::string s = join(scopes_, '/');
  if (local.empty()) return s;
  return s.empty() ? local : s + "/" + local;
}

std::string ZooBuilder::weightName(const std::string& local) const {
  std::string s = join(scopes_, '.');
  return s.empty() ? local : s + "." + local;
}

std::vector<float> ZooBuilder::draw(const std::string& name, size_t n, float lo, float hi) const {
  std::mt19937_64 rng(splitmix64(seed_ ^ fnv1a(name)));
  std::vector<float> out(n);
  const double scale = (static_cast<double>(hi) - lo) / 16777216.0;  // 24-bit uniforms
  size_t i = 0;
  while (i < n) {
    const uint64_t r = rng();
    out[i++] = static_cast<float>(lo + static_cast<double>(r >> 40) * scale);
    if (i < n) out[i++] = static_cast<float>(lo + static_cast<double>((r >> 8) & 0xFFFFFFu) * scale);
  }
  return out;
}

ValueId ZooBuilder::input(const std::string& name, DType dtype, const std::vector<int64_t>& dims) {
  return graph_->addInput(name, dtype, Shape::ofInts(dims));
}

ValueId ZooBuilder::uniform(const std::string& local, const std::vector<int64_t>& dims, float lo, float hi) {
  // Unique first, so that a repeated name still draws its own values.
  const std::string name = graph_->uniqueValueName(weightName(local));
  size_t n = 1;
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  return graph_->addInitializer(name, Tensor::floats(dims, draw(name, n, lo, hi)));
}

ValueId ZooBuilder::constant(const std::string& local, Tensor t) {
  return graph_->addInitializer(weightName(local), std::move(t));
}

ValueId ZooBuilder::sharedConstant(const std::string& name, const Tensor& t) {
  auto it = shared_.find(name);
  if (it != shared_.end()) return it->second;
  ValueId v = graph_->addInitializer(name, t);
  shared_.emplace(name, v);
  return v;
}

ValueId ZooBuilder::constI64(const std::string& local, const std::vector<int64_t>& v) {
  return constant(local, Tensor::int64s({static_cast<int64_t>(v.size())}, v));
}

ValueId ZooBuilder::scalarF(const std::string& local, float v) {
  return constant(local, Tensor::scalarFloat(v));
}

std::string ZooBuilder::claimNodeName(const std::string& local, const std::string& opType) {
  const std::string base = nodeName(local.empty() ? opType : local);
  std::string name = base;
  for (int k = 1; nodeNames_.count(name); ++k) name = base + "_" + std::to_string(k);
  nodeNames_.insert(name);
  return name;
}

std::vector<ValueId> ZooBuilder::opN(const std::string& opType, std::vector<ValueId> inputs, Attributes a,
                                     const std::string& local, size_t numOutputs) {
  const std::string name = claimNodeName(local, opType);
  std::vector<ValueId> outs;
  for (size_t i = 0; i < numOutputs; ++i)
    outs.push_back(graph_->addValue(numOutputs == 1 ? name + "_out" : name + "_out" + std::to_string(i)));
  graph_->addNode(opType, std::move(inputs), outs, std::move(a), name);
  return outs;
}

ValueId ZooBuilder::op(const std::string& opType, std::vector<ValueId> inputs, Attributes a,
                       const std::string& local, const std::string& outName) {
  if (outName.empty()) return opN(opType, std::move(inputs), std::move(a), local, 1)[0];
  const std::string name = claimNodeName(local, opType);
  ValueId out = graph_->addValue(outName);
  graph_->addNode(opType, std::move(inputs), {out}, std::move(a), name);
  return out;
}

ValueId ZooBuilder::conv(ValueId x, const ConvSpec& s, const std::string& local) {
  const int64_t cinPerGroup = s.inC / s.groups;
  const int64_t fanIn = cinPerGroup * s.kernel * s.kernel;
  std::vector<ValueId> in{x};
  {
    auto sc = scope(local);
    const float he = std::sqrt(6.0f / static_cast<float>(fanIn));
    in.push_back(uniform("weight", {s.outC, cinPerGroup, s.kernel, s.kernel}, -he, he));
    if (s.bias) {
      const float b = 1.0f / std::sqrt(static_cast<float>(fanIn));
      in.push_back(uniform("bias", {s.outC}, -b, b));
    }
  }
  const int64_t pad = s.pad >= 0 ? s.pad : s.dilation * (s.kernel - 1) / 2;
  return op(
      "Conv", std::move(in),
      attrs({Attribute::makeInts("dilations", {s.dilation, s.dilation}),
             Attribute::makeInt("group", s.groups), Attribute::makeInts("kernel_shape", {s.kernel, s.kernel}),
             Attribute::makeInts("pads", {pad, pad, pad, pad}),
             Attribute::makeInts("strides", {s.stride, s.stride})}),
      local);
}

ValueId ZooBuilder::bn(ValueId x, int64_t channels, const std::string& local, float eps, float gammaScale) {
  std::vector<ValueId> in{x};
  {
    auto sc = scope(local);
    in.push_back(uniform("weight", {channels}, 0.9f * gammaScale, 1.1f * gammaScale));
    in.push_back(uniform("bias", {channels}, -0.1f, 0.1f));
    in.push_back(uniform("running_mean", {channels}, -0.1f, 0.1f));
    in.push_back(uniform("running_var", {channels}, 0.5f, 1.5f));
  }
  return op("BatchNormalization", std::move(in), attrs({Attribute::makeFloat("epsilon", eps)}), local);
}

ValueId ZooBuilder::relu(ValueId x, const std::string& local) { return op("Relu", {x}, {}, local); }

ValueId ZooBuilder::relu6(ValueId x, const std::string& local) {
  ValueId lo = sharedConstant("clip.min", Tensor::scalarFloat(0.0f));
  ValueId hi = sharedConstant("clip.max", Tensor::scalarFloat(6.0f));
  return op("Clip", {x, lo, hi}, {}, local);
}

ValueId ZooBuilder::silu(ValueId x, const std::string& local) {
  auto sc = scope(local);
  ValueId s = op("Sigmoid", {x});
  return op("Mul", {x, s});
}

ValueId ZooBuilder::linear(ValueId x, int64_t in, int64_t out, const std::string& local, float stddev) {
  auto sc = scope(local);
  const float a = stddev * std::sqrt(3.0f);  // uniform with the requested standard deviation
  ValueId w = uniform("weight", {in, out}, -a, a);
  ValueId b = uniform("bias", {out}, -a, a);
  ValueId y = op("MatMul", {x, w});
  return op("Add", {y, b});
}

ValueId ZooBuilder::gemm(ValueId x, int64_t in, int64_t out, const std::string& local,
                         const std::string& outName) {
  std::vector<ValueId> ins{x};
  {
    auto sc = scope(local);
    const float a = 1.0f / std::sqrt(static_cast<float>(in));
    ins.push_back(uniform("weight", {out, in}, -a, a));
    ins.push_back(uniform("bias", {out}, -a, a));
  }
  return op("Gemm", std::move(ins),
            attrs({Attribute::makeFloat("alpha", 1.0f), Attribute::makeFloat("beta", 1.0f),
                   Attribute::makeInt("transB", 1)}),
            local, outName);
}

Result<Model> ZooBuilder::finish(const std::vector<ValueId>& outputs, const std::string& docString) {
  graph_->setOutputs(outputs);
  model_.docString = docString;
  model_.sourcePath = "zoo:" + graph_->name;
  auto st = inferShapes(model_, {}, /*strict=*/true);
  if (!st.ok()) return Error::internal("zoo model " + graph_->name + ": " + st.error().message);
  for (const auto& v : model_.graph->values()) {
    if (v.dtype == DType::Undefined || !v.shape.isStatic())
      return Error::internal("zoo model " + graph_->name + ": no static shape inferred for value '" + v.name +
                             "'");
  }
  Model out = std::move(model_);
  graph_ = nullptr;
  return out;
}

}  // namespace fw::zoo
