// Model -> ModelProto. Live nodes are written in storage order (topological after compact()), every
// typed intermediate gets a value_info entry, initializers are written as raw_data.
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <filesystem>

#include "core/onnx/OnnxIO.h"
#include "core/onnx/OnnxTensor.h"
#include "core/util/FileUtil.h"

namespace fw {

namespace onnxio {
void exportGraph(const Graph& g, onnx::GraphProto* gp);
void exportModel(const Model& m, onnx::ModelProto* mp);
}  // namespace onnxio

namespace {

std::string nameOf(const Graph& g, ValueId v) { return v == kNoId ? std::string() : g.value(v).name; }

void exportAttribute(const Attribute& a, onnx::AttributeProto* ap) {
  using AP = onnx::AttributeProto;
  ap->set_name(a.name);
  if (!a.refAttrName.empty()) ap->set_ref_attr_name(a.refAttrName);
  if (!a.docString.empty()) ap->set_doc_string(a.docString);
  switch (a.kind) {
    case AttrKind::Float: ap->set_type(AP::FLOAT); ap->set_f(a.f); break;
    case AttrKind::Int: ap->set_type(AP::INT); ap->set_i(a.i); break;
    case AttrKind::String: ap->set_type(AP::STRING); ap->set_s(a.s); break;
    case AttrKind::Tensor: ap->set_type(AP::TENSOR); onnxio::tensorToProto(a.t, "", ap->mutable_t()); break;
    case AttrKind::Graph: ap->set_type(AP::GRAPH); onnxio::exportGraph(*a.g, ap->mutable_g()); break;
    case AttrKind::SparseTensor: ap->set_type(AP::SPARSE_TENSOR); ap->mutable_sparse_tensor()->ParseFromString(a.s); break;
    case AttrKind::TypeProto: ap->set_type(AP::TYPE_PROTO); ap->mutable_tp()->ParseFromString(a.s); break;
    case AttrKind::Floats: ap->set_type(AP::FLOATS); for (float f : a.floats) ap->add_floats(f); break;
    case AttrKind::Ints: ap->set_type(AP::INTS); for (int64_t i : a.ints) ap->add_ints(i); break;
    case AttrKind::Strings: ap->set_type(AP::STRINGS); for (const auto& s : a.strings) ap->add_strings(s); break;
    case AttrKind::Tensors:
      ap->set_type(AP::TENSORS);
      for (const auto& t : a.tensors) onnxio::tensorToProto(t, "", ap->add_tensors());
      break;
    case AttrKind::Graphs:
      ap->set_type(AP::GRAPHS);
      for (const auto& sg : a.graphs) onnxio::exportGraph(*sg, ap->add_graphs());
      break;
    case AttrKind::SparseTensors:
      ap->set_type(AP::SPARSE_TENSORS);
      for (const auto& s : a.strings) ap->add_sparse_tensors()->ParseFromString(s);
      break;
    case AttrKind::TypeProtos:
      ap->set_type(AP::TYPE_PROTOS);
      for (const auto& s : a.strings) ap->add_type_protos()->ParseFromString(s);
      break;
  }
}

bool hasType(const Value& v) { return v.dtype != DType::Undefined || !v.opaqueType.empty(); }

void valueInfo(const Value& v, onnx::ValueInfoProto* vi) {
  vi->set_name(v.name);
  if (!v.docString.empty()) vi->set_doc_string(v.docString);
  if (hasType(v)) onnxio::typeToProto(v, vi->mutable_type());
}

}  // namespace

namespace onnxio {

namespace {
thread_local bool tlsShapesOnly = false;
}
ShapesOnlyExport::ShapesOnlyExport() : saved_(tlsShapesOnly) { tlsShapesOnly = true; }
ShapesOnlyExport::~ShapesOnlyExport() { tlsShapesOnly = saved_; }

void exportGraph(const Graph& g, onnx::GraphProto* gp) {
  gp->set_name(g.name);
  if (!g.docString.empty()) gp->set_doc_string(g.docString);
  for (ValueId v : g.inputs()) valueInfo(g.value(v), gp->add_input());
  for (const auto& v : g.values()) {
    if (!v.initializer) continue;
    if (tlsShapesOnly && v.initializer->numel() > 4096) {
      // Shape inference needs a weight's type and dims, not its data (only small constants are read).
      auto* tp = gp->add_initializer();
      tp->set_name(v.name);
      tp->set_data_type(static_cast<int32_t>(v.initializer->dtype()));
      for (int64_t d : v.initializer->dims()) tp->add_dims(d);
      continue;
    }
    tensorToProto(*v.initializer, v.name, gp->add_initializer());
  }
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    auto* np = gp->add_node();
    np->set_op_type(n.opType);
    np->set_name(n.name);
    if (!n.domain.empty()) np->set_domain(n.domain);
    if (!n.docString.empty()) np->set_doc_string(n.docString);
    // Trailing omitted optional inputs/outputs are dropped; inner ones stay as "".
    size_t ni = n.inputs.size();
    while (ni > 0 && n.inputs[ni - 1] == kNoId) --ni;
    for (size_t i = 0; i < ni; ++i) np->add_input(nameOf(g, n.inputs[i]));
    size_t no = n.outputs.size();
    while (no > 0 && n.outputs[no - 1] == kNoId) --no;
    for (size_t i = 0; i < no; ++i) np->add_output(nameOf(g, n.outputs[i]));
    for (const auto& a : n.attrs.all()) exportAttribute(a, np->add_attribute());
  }
  for (ValueId v : g.outputs()) valueInfo(g.value(v), gp->add_output());
  // value_info in node order (not value-id order), so that export is a function of the graph's
  // structure and import → export → import → export gives identical bytes.
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    for (ValueId id : n.outputs) {
      if (id == kNoId) continue;
      const Value& v = g.value(id);
      if (v.isGraphOutput || v.initializer || !hasType(v)) continue;
      valueInfo(v, gp->add_value_info());
    }
  }
}

void exportModel(const Model& m, onnx::ModelProto* mp) {
  mp->set_ir_version(m.irVersion);
  if (!m.producerName.empty()) mp->set_producer_name(m.producerName);
  if (!m.producerVersion.empty()) mp->set_producer_version(m.producerVersion);
  if (!m.domain.empty()) mp->set_domain(m.domain);
  if (m.modelVersion) mp->set_model_version(m.modelVersion);
  if (!m.docString.empty()) mp->set_doc_string(m.docString);
  for (const auto& [domain, version] : m.opsetImports) {
    auto* op = mp->add_opset_import();
    op->set_domain(domain);
    op->set_version(version);
  }
  for (const auto& [k, v] : m.metadata) {
    auto* kv = mp->add_metadata_props();
    kv->set_key(k);
    kv->set_value(v);
  }
  for (const auto& f : m.functions) {
    auto* fp = mp->add_functions();
    fp->set_name(f.name);
    fp->set_domain(f.domain);
    if (!f.docString.empty()) fp->set_doc_string(f.docString);
    for (const auto& a : f.attributeNames) fp->add_attribute(a);
    for (const auto& [domain, version] : f.opsetImports) {
      auto* op = fp->add_opset_import();
      op->set_domain(domain);
      op->set_version(version);
    }
    onnx::GraphProto body;
    exportGraph(*f.body, &body);
    for (const auto& in : body.input()) fp->add_input(in.name());
    for (const auto& out : body.output()) fp->add_output(out.name());
    *fp->mutable_node() = body.node();
  }
  exportGraph(*m.graph, mp->mutable_graph());
}

}  // namespace onnxio

Result<std::string> serializeOnnx(const Model& model) {
  onnx::ModelProto mp;
  try {
    onnxio::exportModel(model, &mp);
  } catch (const std::exception& e) {
    return Error::internal("export of '" + model.sourcePath + "' failed: " + e.what());
  }
  std::string out;
  if (mp.ByteSizeLong() > static_cast<size_t>(std::numeric_limits<int>::max()))
    return Error::badInput("model '" + model.sourcePath +
                           "' is larger than 2 GiB; protobuf cannot serialize it in one file");
  if (!mp.SerializeToString(&out)) return Error::internal("protobuf serialization failed");
  return out;
}

Status saveOnnxFile(const Model& model, const std::string& path, const SaveOptions& opts) {
  if (!opts.externalData) {
    auto bytes = serializeOnnx(model);
    if (!bytes.ok()) return bytes.error();
    return writeFileAtomic(path, *bytes);
  }
  onnx::ModelProto mp;
  onnxio::exportModel(model, &mp);
  const std::string dataName =
      opts.dataFileName.empty() ? std::filesystem::path(path).filename().string() + ".data" : opts.dataFileName;
  std::string data;
  for (auto& tp : *mp.mutable_graph()->mutable_initializer()) {
    if (!tp.has_raw_data() || tp.raw_data().size() < opts.minExternalBytes) continue;
    while (data.size() % 64) data.push_back('\0');  // aligned, as onnx's own writer does
    const size_t offset = data.size();
    data += tp.raw_data();
    auto addKv = [&](const std::string& k, const std::string& v) {
      auto* kv = tp.add_external_data();
      kv->set_key(k);
      kv->set_value(v);
    };
    addKv("location", dataName);
    addKv("offset", std::to_string(offset));
    addKv("length", std::to_string(tp.raw_data().size()));
    tp.clear_raw_data();
    tp.set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
  }
  std::string bytes;
  if (!mp.SerializeToString(&bytes)) return Error::internal("protobuf serialization failed");
  std::filesystem::path dataPath = std::filesystem::path(path).parent_path() / dataName;
  auto st = writeFileAtomic(dataPath.string(), data);
  if (!st.ok()) return st;
  return writeFileAtomic(path, bytes);
}

Status checkOnnx(const Model& model) {
  onnx::ModelProto mp;
  onnxio::exportModel(model, &mp);
  try {
    onnx::checker::check_model(mp);
  } catch (const std::exception& e) {
    return Error::checkFailed(std::string("onnx checker: ") + e.what());
  }
  return {};
}

}  // namespace fw
