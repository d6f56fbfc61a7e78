// ModelProto -> Model. Nodes may come in any order (they are sorted; a cycle is an error), Constant
// nodes become initializers, subgraphs are imported recursively with the enclosing scope visible.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <unordered_set>

#include "core/onnx/OnnxIO.h"
#include "core/onnx/OnnxTensor.h"
#include "core/util/FileUtil.h"

namespace fw {

using onnxio::tensorFromProto;

namespace {

struct Scope {
  const Scope* parent = nullptr;
  std::unordered_set<std::string> names;
  bool visible(const std::string& n) const {
    for (const Scope* s = this; s; s = s->parent)
      if (s->names.count(n)) return true;
    return false;
  }
};

struct Ctx {
  std::string source;
  std::string baseDir;
  ImportReport* report;
};

Result<GraphPtr> importGraph(const onnx::GraphProto& gp, Ctx& ctx, const Scope* outer);

std::string nodeLabel(const onnx::NodeProto& np, int index) {
  std::string n = np.name().empty() ? ("#" + std::to_string(index)) : ("'" + np.name() + "'");
  return "node " + n + " (" + np.op_type() + ")";
}

Result<Attribute> importAttribute(const onnx::AttributeProto& ap, Ctx& ctx, const Scope* scope,
                                  const std::string& where) {
  Attribute a;
  a.name = ap.name();
  a.refAttrName = ap.ref_attr_name();
  a.docString = ap.doc_string();
  const std::string at = where + " attribute '" + ap.name() + "'";
  using AP = onnx::AttributeProto;
  AP::AttributeType type = ap.type();
  if (type == AP::UNDEFINED) {
    // Old exporters omit the type; derive it from which field is set.
    if (ap.has_f()) type = AP::FLOAT;
    else if (ap.has_i()) type = AP::INT;
    else if (ap.has_s()) type = AP::STRING;
    else if (ap.has_t()) type = AP::TENSOR;
    else if (ap.has_g()) type = AP::GRAPH;
    else if (ap.floats_size()) type = AP::FLOATS;
    else if (ap.ints_size()) type = AP::INTS;
    else if (ap.strings_size()) type = AP::STRINGS;
    else if (ap.tensors_size()) type = AP::TENSORS;
    else if (ap.graphs_size()) type = AP::GRAPHS;
    else if (!ap.ref_attr_name().empty()) type = AP::INT;
    else return Error::badInput(at + ": has no type and no value");
  }
  switch (type) {
    case AP::FLOAT: a.kind = AttrKind::Float; a.f = ap.f(); break;
    case AP::INT: a.kind = AttrKind::Int; a.i = ap.i(); break;
    case AP::STRING: a.kind = AttrKind::String; a.s = ap.s(); break;
    case AP::TENSOR: {
      a.kind = AttrKind::Tensor;
      auto t = tensorFromProto(ap.t(), ctx.baseDir, at);
      if (!t.ok()) return t.error();
      a.t = std::move(t).value();
      break;
    }
    case AP::GRAPH: {
      a.kind = AttrKind::Graph;
      auto g = importGraph(ap.g(), ctx, scope);
      if (!g.ok()) return g.error().context(at);
      a.g = std::move(g).value();
      break;
    }
    case AP::SPARSE_TENSOR: a.kind = AttrKind::SparseTensor; a.s = ap.sparse_tensor().SerializeAsString(); break;
    case AP::TYPE_PROTO: a.kind = AttrKind::TypeProto; a.s = ap.tp().SerializeAsString(); break;
    case AP::FLOATS: a.kind = AttrKind::Floats; a.floats.assign(ap.floats().begin(), ap.floats().end()); break;
    case AP::INTS: a.kind = AttrKind::Ints; a.ints.assign(ap.ints().begin(), ap.ints().end()); break;
    case AP::STRINGS: a.kind = AttrKind::Strings; a.strings.assign(ap.strings().begin(), ap.strings().end()); break;
    case AP::TENSORS:
      a.kind = AttrKind::Tensors;
      for (const auto& tp : ap.tensors()) {
        auto t = tensorFromProto(tp, ctx.baseDir, at);
        if (!t.ok()) return t.error();
        a.tensors.push_back(std::move(t).value());
      }
      break;
    case AP::GRAPHS:
      a.kind = AttrKind::Graphs;
      for (const auto& sg : ap.graphs()) {
        auto g = importGraph(sg, ctx, scope);
        if (!g.ok()) return g.error().context(at);
        a.graphs.push_back(std::move(g).value());
      }
      break;
    case AP::SPARSE_TENSORS:
      a.kind = AttrKind::SparseTensors;
      for (const auto& sp : ap.sparse_tensors()) a.strings.push_back(sp.SerializeAsString());
      break;
    case AP::TYPE_PROTOS:
      a.kind = AttrKind::TypeProtos;
      for (const auto& tp : ap.type_protos()) a.strings.push_back(tp.SerializeAsString());
      break;
    default: return Error::badInput(at + ": unknown attribute type " + std::to_string(type));
  }
  return a;
}

// A Constant node's value as a tensor, or nullopt when it is not convertible (sparse_value).
Result<std::optional<Tensor>> constantValue(const onnx::NodeProto& np, Ctx& ctx, const std::string& where) {
  for (const auto& ap : np.attribute()) {
    const std::string& n = ap.name();
    if (n == "value") {
      auto t = tensorFromProto(ap.t(), ctx.baseDir, where + " attribute 'value'");
      if (!t.ok()) return t.error();
      return std::optional<Tensor>(std::move(t).value());
    }
    if (n == "value_float") return std::optional<Tensor>(Tensor::scalarFloat(ap.f()));
    if (n == "value_floats")
      return std::optional<Tensor>(Tensor::floats({static_cast<int64_t>(ap.floats_size())},
                                                  std::vector<float>(ap.floats().begin(), ap.floats().end())));
    if (n == "value_int") return std::optional<Tensor>(Tensor::scalarInt64(ap.i()));
    if (n == "value_ints")
      return std::optional<Tensor>(Tensor::int64s({static_cast<int64_t>(ap.ints_size())},
                                                  std::vector<int64_t>(ap.ints().begin(), ap.ints().end())));
    if (n == "value_string") return std::optional<Tensor>(Tensor(std::vector<int64_t>{}, {ap.s()}));
    if (n == "value_strings")
      return std::optional<Tensor>(Tensor({static_cast<int64_t>(ap.strings_size())},
                                          std::vector<std::string>(ap.strings().begin(), ap.strings().end())));
  }
  return std::optional<Tensor>();
}

Result<GraphPtr> importGraph(const onnx::GraphProto& gp, Ctx& ctx, const Scope* outer) {
  auto g = std::make_shared<Graph>();
  g->name = gp.name();
  g->docString = gp.doc_string();
  const std::string gname = "graph '" + gp.name() + "'";
  Scope scope;
  scope.parent = outer;

  auto duplicate = [&](const std::string& name, const std::string& what) -> Error {
    return Error::badInput(gname + ": name '" + name + "' is defined twice (" + what + ")");
  };

  for (const auto& tp : gp.initializer()) {
    if (tp.name().empty()) return Error::badInput(gname + ": an initializer has no name");
    if (g->findValue(tp.name()) != kNoId) return duplicate(tp.name(), "initializer");
    auto t = tensorFromProto(tp, ctx.baseDir, gname + " initializer '" + tp.name() + "'");
    if (!t.ok()) return t.error();
    g->addInitializer(tp.name(), std::move(t).value());
    scope.names.insert(tp.name());
  }
  for (const auto& sp : gp.sparse_initializer()) {
    const std::string& name = sp.values().name();
    if (g->findValue(name) != kNoId) return duplicate(name, "sparse initializer");
    auto t = onnxio::sparseToDense(sp, ctx.baseDir, gname + " sparse initializer '" + name + "'");
    if (!t.ok()) return t.error();
    g->addInitializer(name, std::move(t).value());
    scope.names.insert(name);
  }
  for (const auto& vi : gp.input()) {
    ValueId existing = g->findValue(vi.name());
    if (existing != kNoId) {
      // IR < 4: initializers are also listed as inputs. They stay weights; the type is checked.
      const Tensor* t = g->constantOf(existing);
      if (!t) return Error::badInput(gname + ": graph input '" + vi.name() + "' is declared twice");
      onnxio::typeFromProto(vi.type(), g->value(existing));
      g->value(existing).dtype = t->dtype();
      g->value(existing).shape = Shape::ofInts(t->dims());
      continue;
    }
    if (vi.name().empty()) return Error::badInput(gname + ": a graph input has no name");
    ValueId v = g->addInput(vi.name(), DType::Undefined, Shape());
    onnxio::typeFromProto(vi.type(), g->value(v));
    g->value(v).docString = vi.doc_string();
    scope.names.insert(vi.name());
  }

  // Pass 1: create every node output so that node order does not matter.
  const int nn = gp.node_size();
  std::vector<std::vector<ValueId>> outs(static_cast<size_t>(nn));
  std::unordered_map<std::string, int> producerIndex;
  for (int k = 0; k < nn; ++k) {
    const auto& np = gp.node(k);
    for (const auto& o : np.output()) {
      if (o.empty()) {
        outs[static_cast<size_t>(k)].push_back(kNoId);
        continue;
      }
      if (g->findValue(o) != kNoId) {
        auto it = producerIndex.find(o);
        std::string other = it != producerIndex.end() ? nodeLabel(gp.node(it->second), it->second)
                                                      : std::string("a graph input or initializer");
        return Error::badInput(gname + ": " + nodeLabel(np, k) + " output '" + o +
                               "' is already produced by " + other);
      }
      outs[static_cast<size_t>(k)].push_back(g->addValue(o));
      producerIndex[o] = k;
      scope.names.insert(o);
    }
  }
  // Pass 2: nodes with their inputs, attributes and subgraphs.
  for (int k = 0; k < nn; ++k) {
    const auto& np = gp.node(k);
    const std::string label = gname + ": " + nodeLabel(np, k);
    if (np.op_type().empty()) return Error::badInput(label + " has no op_type");
    std::vector<ValueId> ins;
    for (int i = 0; i < np.input_size(); ++i) {
      const std::string& in = np.input(i);
      if (in.empty()) {
        ins.push_back(kNoId);
        continue;
      }
      ValueId v = g->findValue(in);
      if (v == kNoId) {
        if (!outer || !outer->visible(in))
          return Error::badInput(label + " input " + std::to_string(i) + " '" + in +
                                 "' is not produced by any node, graph input or initializer");
        v = g->addValue(in);  // reference to the enclosing graph
        scope.names.insert(in);
      }
      ins.push_back(v);
    }
    Attributes attrs;
    for (const auto& ap : np.attribute()) {
      auto a = importAttribute(ap, ctx, &scope, label);
      if (!a.ok()) return a.error();
      attrs.set(std::move(a).value());
    }
    NodeId id = g->addNode(np.op_type(), std::move(ins), outs[static_cast<size_t>(k)], std::move(attrs),
                           np.name(), np.domain() == "ai.onnx" ? std::string() : np.domain());
    g->node(id).docString = np.doc_string();
    if (np.name().empty()) g->node(id).name = g->uniqueNodeName(np.op_type());
  }
  for (const auto& vi : gp.output()) {
    ValueId v = g->findValue(vi.name());
    if (v == kNoId) {
      if (outer && outer->visible(vi.name())) {
        v = g->addValue(vi.name());
      } else {
        return Error::badInput(gname + ": graph output '" + vi.name() + "' is not produced by any node");
      }
    }
    onnxio::typeFromProto(vi.type(), g->value(v));
    g->addOutput(v);
  }
  for (const auto& vi : gp.value_info()) {
    ValueId v = g->findValue(vi.name());
    if (v != kNoId && !g->value(v).isInitializer()) onnxio::typeFromProto(vi.type(), g->value(v));
  }

  // Constant nodes become initializers (not when the constant is itself a graph output).
  for (NodeId id : g->liveNodes()) {
    const Node& n = g->node(id);
    if (n.opType != "Constant" || !n.domain.empty() || n.outputs.size() != 1 || n.outputs[0] == kNoId)
      continue;
    if (g->value(n.outputs[0]).isGraphOutput) continue;
    const int k = id;  // storage order equals proto order before compact()
    auto val = constantValue(gp.node(k), ctx, gname + ": " + nodeLabel(gp.node(k), k));
    if (!val.ok()) return val.error();
    if (!val->has_value()) continue;
    ValueId out = n.outputs[0];
    g->removeNode(id);
    g->setInitializer(out, std::move(**val));
    if (ctx.report) ++ctx.report->constantsFolded;
  }

  auto order = g->topoOrder();
  if (!order.ok()) return order.error();
  for (size_t i = 0; i < order->size(); ++i) {
    if (i > 0 && (*order)[i] < (*order)[i - 1]) {
      if (ctx.report) ctx.report->wasUnsorted = true;
      break;
    }
  }
  g->compact();
  return GraphPtr(std::move(g));
}

Result<Function> importFunction(const onnx::FunctionProto& fp, Ctx& ctx) {
  // A function body is a graph whose inputs are the formal parameters.
  onnx::GraphProto gp;
  gp.set_name(fp.name());
  for (const auto& in : fp.input()) gp.add_input()->set_name(in);
  for (const auto& out : fp.output()) gp.add_output()->set_name(out);
  *gp.mutable_node() = fp.node();
  auto body = importGraph(gp, ctx, nullptr);
  if (!body.ok()) return body.error().context("function '" + fp.domain() + "." + fp.name() + "'");
  Function f;
  f.name = fp.name();
  f.domain = fp.domain();
  f.docString = fp.doc_string();
  f.attributeNames.assign(fp.attribute().begin(), fp.attribute().end());
  for (const auto& op : fp.opset_import()) f.opsetImports[op.domain() == "ai.onnx" ? "" : op.domain()] = op.version();
  f.body = std::move(body).value();
  return f;
}

Result<Model> importModel(const onnx::ModelProto& mp, Ctx& ctx) {
  if (!mp.has_graph())
    return Error::badInput(ctx.source + ": not an ONNX model (no graph)");
  if (mp.ir_version() <= 0)
    return Error::badInput(ctx.source + ": not an ONNX model (ir_version is missing)");
  Model m;
  m.sourcePath = ctx.source;
  m.irVersion = mp.ir_version();
  m.producerName = mp.producer_name();
  m.producerVersion = mp.producer_version();
  m.domain = mp.domain();
  m.modelVersion = mp.model_version();
  m.docString = mp.doc_string();
  m.opsetImports.clear();
  for (const auto& op : mp.opset_import()) m.opsetImports[op.domain() == "ai.onnx" ? "" : op.domain()] = op.version();
  if (!m.opsetImports.count("")) {
    if (ctx.report) ctx.report->warnings.push_back("no ai.onnx opset import; assuming 1");
    m.opsetImports[""] = 1;
  }
  const int64_t opset = m.opsetImports[""];
  if (ctx.report && (opset < 7 || opset > 17))
    ctx.report->warnings.push_back("ai.onnx opset " + std::to_string(opset) +
                                   " is outside the supported range 7-17");
  for (const auto& kv : mp.metadata_props()) m.metadata.emplace_back(kv.key(), kv.value());
  for (const auto& fp : mp.functions()) {
    auto f = importFunction(fp, ctx);
    if (!f.ok()) return f.error().context(ctx.source);
    m.functions.push_back(std::move(f).value());
  }
  auto g = importGraph(mp.graph(), ctx, nullptr);
  if (!g.ok()) return g.error().context(ctx.source);
  m.graph = std::move(g).value();
  m.storedNodeCount = mp.graph().node_size();
  return m;
}

}  // namespace

Result<ShapeOverride> parseShapeOverride(const std::string& text) {
  auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    return Error::badInput("--input-shape '" + text + "': expected NAME=d0,d1,... or SYMBOL=N");
  ShapeOverride o;
  o.name = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  size_t pos = 0;
  while (pos <= rest.size()) {
    size_t comma = rest.find(',', pos);
    std::string tok = rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (tok.empty()) return Error::badInput("--input-shape '" + text + "': empty dimension");
    bool digits = tok.find_first_not_of("0123456789") == std::string::npos;
    if (digits) {
      try {
        o.dims.emplace_back(std::stoll(tok));
      } catch (const std::exception&) {
        return Error::badInput("--input-shape '" + text + "': dimension '" + tok + "' is too large");
      }
    } else {
      o.dims.push_back(Dim::sym(tok));
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return o;
}

Result<Model> parseOnnxBytes(const std::string& bytes, const std::string& sourceName,
                             const std::string& baseDir, const ImportOptions& opts, ImportReport* report) {
  if (bytes.empty()) return Error::badInput(sourceName + ": file is empty");
  onnx::ModelProto mp;
  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream coded(&raw);
  coded.SetTotalBytesLimit(std::numeric_limits<int>::max());
  if (!mp.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    return Error::badInput(sourceName + ": not a valid ONNX model (protobuf parse failed; file truncated or not ONNX)");
  ImportReport local;
  Ctx ctx{sourceName, baseDir, report ? report : &local};
  Model m;
  try {
    auto r = importModel(mp, ctx);
    if (!r.ok()) return r.error();
    m = std::move(r).value();
    for (const auto* list : {&m.graph->inputs(), &m.graph->outputs()})
      for (ValueId id : *list)
        if (!m.graph->value(id).initializer) ctx.report->declaredShapes[m.graph->value(id).name] = m.graph->value(id).shape;
  } catch (const std::exception& e) {
    return Error::badInput(sourceName + ": cannot import: " + e.what());
  }
  if (opts.inferShapes || !opts.shapeOverrides.empty()) {
    // Strict first: when it passes, validation (which insists on it) need not infer again — on a
    // 60k-node graph that is a second of the load. A model it refuses gets the lenient pass, so
    // `fwb info` can still summarise it, and validation then reports the failure.
    bool strictOk = false;
    if (!opts.strictShapeInference) {
      Model strictCopy = m;  // the graph is copied on write, so a refusal leaves m as imported
      std::vector<std::string> strictWarnings;
      if (inferShapes(strictCopy, opts.shapeOverrides, /*strict=*/true, &strictWarnings).ok()) {
        m = std::move(strictCopy);
        ctx.report->warnings.insert(ctx.report->warnings.end(), strictWarnings.begin(), strictWarnings.end());
        strictOk = true;
      }
    }
    if (!strictOk) {
      auto st = inferShapes(m, opts.shapeOverrides, opts.strictShapeInference, &ctx.report->warnings);
      if (!st.ok()) return st.error().context(sourceName);
      strictOk = opts.strictShapeInference;
    }
    ctx.report->strictShapesOk = strictOk;
  }
  for (const auto& w : ctx.report->warnings) spdlog::debug("{}: {}", sourceName, w);
  return m;
}

Result<Model> loadOnnxFile(const std::string& path, const ImportOptions& opts, ImportReport* report) {
  auto bytes = readFileBytes(path);
  if (!bytes.ok()) return bytes.error();
  std::filesystem::path p(path);
  std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
  return parseOnnxBytes(*bytes, path, dir, opts, report);
}

}  // namespace fw
