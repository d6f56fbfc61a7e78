// Shape inference through onnx::shape_inference, plus user overrides of input shapes and symbolic dims.
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/onnx/OnnxIO.h"
#include "core/onnx/OnnxTensor.h"

namespace fw {

namespace onnxio {
void exportModel(const Model& m, onnx::ModelProto* mp);
}

namespace {

// Applies overrides to the graph inputs of the proto. Returns an error naming an unknown override.
Status applyOverrides(onnx::GraphProto* gp, const std::vector<ShapeOverride>& overrides) {
  for (const auto& o : overrides) {
    bool matched = false;
    if (o.name == "@batch") {
      // --batch on a file: bind the leading dim of inputs whose leading dim is not fixed.
      for (auto& in : *gp->mutable_input()) {
        auto* tt = in.mutable_type()->mutable_tensor_type();
        if (!tt->has_shape() || tt->shape().dim_size() == 0) continue;
        auto* d0 = tt->mutable_shape()->mutable_dim(0);
        if (d0->has_dim_value() && d0->dim_value() > 0 && d0->dim_value() != 1) continue;
        d0->set_dim_value(o.dims.at(0).value);
        matched = true;
      }
      if (!matched) return Error::badInput("--batch: no graph input has a leading dimension to bind");
      continue;
    }
    for (auto& in : *gp->mutable_input()) {
      if (in.name() != o.name) continue;
      matched = true;
      auto* sh = in.mutable_type()->mutable_tensor_type()->mutable_shape();
      sh->clear_dim();
      for (const auto& d : o.dims) {
        auto* pd = sh->add_dim();
        if (d.isStatic()) pd->set_dim_value(d.value);
        else pd->set_dim_param(d.symbol);
      }
    }
    if (matched) continue;
    // SYMBOL=N binds a symbolic dimension wherever graph inputs use it.
    for (auto& in : *gp->mutable_input()) {
      auto* tt = in.mutable_type()->mutable_tensor_type();
      if (!tt->has_shape()) continue;
      for (auto& d : *tt->mutable_shape()->mutable_dim()) {
        if (d.has_dim_param() && d.dim_param() == o.name) {
          if (o.dims.size() != 1 || !o.dims[0].isStatic())
            return Error::badInput("--input-shape " + o.name + "=...: a symbolic dim takes one integer");
          d.set_dim_value(o.dims[0].value);
          matched = true;
        }
      }
    }
    if (!matched) {
      std::string names;
      for (const auto& in : gp->input()) names += (names.empty() ? "" : ", ") + in.name();
      return Error::badInput("--input-shape: no graph input or symbolic dim named '" + o.name +
                             "' (inputs: " + names + ")");
    }
  }
  return {};
}

// libonnx's inference divides by strides, dilations, kernel sizes and group without checking them
// (a Conv with strides=[0,0] is a SIGFPE inside InferShapes). The copy that inference sees gets 1
// for such values; the validation pass (core/check/Validate) reports the real ones.
void neutralizeDivisors(onnx::GraphProto* gp) {
  for (auto& n : *gp->mutable_node()) {
    for (auto& a : *n.mutable_attribute()) {
      const std::string& name = a.name();
      if (name == "strides" || name == "dilations" || name == "kernel_shape") {
        for (int i = 0; i < a.ints_size(); ++i)
          if (a.ints(i) <= 0) a.set_ints(i, 1);
      } else if ((name == "group" || name == "blocksize") && a.has_i() && a.i() <= 0) {
        a.set_i(1);
      }
      if (a.has_g()) neutralizeDivisors(a.mutable_g());
      for (auto& g : *a.mutable_graphs()) neutralizeDivisors(&g);
    }
  }
}

// libonnx's conv/pool inference also reads past the ends of attribute lists and weight shapes that
// do not match the input's rank (a SEGV on hostile files). Such nodes are hidden from inference
// (moved to a domain it does not know); validation reports them.
void hideUnsafeWindowOps(onnx::GraphProto* gp) {
  static const std::unordered_map<std::string, bool> windowed = {
      {"Conv", true}, {"ConvTranspose", true}, {"ConvInteger", true}, {"QLinearConv", false},
      {"MaxPool", false}, {"AveragePool", false}, {"LpPool", false}};
  std::unordered_map<std::string, int> rank;
  auto note = [&](const onnx::ValueInfoProto& vi) {
    if (vi.type().has_tensor_type() && vi.type().tensor_type().has_shape())
      rank[vi.name()] = vi.type().tensor_type().shape().dim_size();
  };
  for (const auto& vi : gp->input()) note(vi);
  for (const auto& vi : gp->value_info()) note(vi);
  for (const auto& vi : gp->output()) note(vi);
  for (const auto& t : gp->initializer()) rank[t.name()] = t.dims_size();
  auto rankOf = [&](const std::string& n) { auto it = rank.find(n); return it == rank.end() ? -1 : it->second; };
  for (auto& n : *gp->mutable_node()) {
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) hideUnsafeWindowOps(a.mutable_g());
      for (auto& g : *a.mutable_graphs()) hideUnsafeWindowOps(&g);
    }
    auto it = windowed.find(n.op_type());
    if (it == windowed.end() || !(n.domain().empty() || n.domain() == "ai.onnx")) continue;
    const int xr = n.input_size() > 0 ? rankOf(n.input(0)) : -1;
    const int wr = it->second && n.input_size() > 1 ? rankOf(n.input(1)) : -1;
    bool unsafe = (xr >= 0 && xr < 3) || (wr >= 0 && wr < 3) || (xr >= 0 && wr >= 0 && xr != wr) ||
                  (it->second && n.input_size() < 2);
    for (const auto& a : n.attribute()) {
      const int spatial = xr >= 0 ? xr - 2 : wr >= 0 ? wr - 2 : -1;
      if (spatial < 0) break;
      if ((a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape" ||
           a.name() == "output_padding") && a.ints_size() != spatial)
        unsafe = true;
      if (a.name() == "pads" && a.ints_size() != 2 * spatial) unsafe = true;
      if (a.name() == "output_shape" && a.ints_size() != spatial && a.ints_size() != spatial + 2) unsafe = true;
    }
    if (!it->second && !std::any_of(n.attribute().begin(), n.attribute().end(),
                                    [](const onnx::AttributeProto& a) { return a.name() == "kernel_shape"; }))
      unsafe = true;
    if (unsafe) n.set_domain("fwb.not_inferred");
  }
}

// libonnx's data propagation for Shape dereferences its input's type without checking it: a SEGV when
// the input has no type, which happens when inference of its producer failed (error_mode 0 goes on
// past such nodes; hostile files and values computed from them get there). Every Shape/Size input
// produced in the same graph is declared up front as a tensor of undefined element type and no
// shape: inference of the producer fills it in, and when that fails Shape sees "no shape" and infers
// nothing. Outer references are left alone, so as not to shadow an enclosing graph's type.
void typeShapeInputs(onnx::GraphProto* gp) {
  std::unordered_set<std::string> produced, typed;
  for (const auto& n : gp->node())
    for (const auto& o : n.output()) produced.insert(o);
  for (const auto& vi : gp->input()) typed.insert(vi.name());
  for (const auto& vi : gp->value_info()) typed.insert(vi.name());
  for (const auto& t : gp->initializer()) typed.insert(t.name());
  for (auto& n : *gp->mutable_node()) {
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) typeShapeInputs(a.mutable_g());
      for (auto& g : *a.mutable_graphs()) typeShapeInputs(&g);
    }
    if ((n.op_type() != "Shape" && n.op_type() != "Size") || !(n.domain().empty() || n.domain() == "ai.onnx") ||
        n.input_size() < 1)
      continue;
    const std::string& in = n.input(0);
    if (in.empty() || !produced.count(in) || !typed.insert(in).second) continue;
    auto* vi = gp->add_value_info();
    vi->set_name(in);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::UNDEFINED);
  }
}

void stripInferred(onnx::GraphProto* gp) {
  gp->clear_value_info();
  for (auto& out : *gp->mutable_output()) {
    if (out.type().has_tensor_type()) out.mutable_type()->mutable_tensor_type()->clear_shape();
  }
  for (auto& n : *gp->mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) stripInferred(a.mutable_g());
      for (auto& g : *a.mutable_graphs()) stripInferred(&g);
    }
}

// `protoIndex[i]` is the index in gp.node() of the i-th live node of g (storage order); null means
// they are exported one for one.
void applyTypes(const onnx::GraphProto& gp, Graph& g, const std::vector<int>* protoIndex = nullptr) {
  std::unordered_map<std::string, const onnx::TypeProto*> types;
  for (const auto& vi : gp.input()) types[vi.name()] = &vi.type();
  for (const auto& vi : gp.value_info()) types[vi.name()] = &vi.type();
  for (const auto& vi : gp.output()) types[vi.name()] = &vi.type();
  for (const auto& v : g.values()) {
    if (v.initializer) continue;
    auto it = types.find(v.name);
    if (it == types.end() || !it->second->has_tensor_type()) continue;
    Value& mv = g.value(v.id);
    // A negative dim as declared in the file is kept, so that validation can name it.
    if (std::any_of(mv.shape.dims.begin(), mv.shape.dims.end(), [](const Dim& d) { return d.symbol.empty() && d.value < -1; }))
      continue;
    Value tmp;
    onnxio::typeFromProto(*it->second, tmp);
    if (tmp.dtype != DType::Undefined) mv.dtype = tmp.dtype;
    if (tmp.shape.rankKnown) mv.shape = tmp.shape;
  }
  // Subgraphs: exported nodes are the live nodes in storage order.
  int k = 0;
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    const int at = protoIndex ? (*protoIndex)[static_cast<size_t>(k)] : k;
    ++k;
    if (at < 0 || at >= gp.node_size()) continue;
    const auto& np = gp.node(at);
    for (const auto& ap : np.attribute()) {
      const Attribute* a = n.attrs.find(ap.name());
      if (!a) continue;
      if (a->kind == AttrKind::Graph && a->g && ap.has_g()) {
        auto copy = std::make_shared<Graph>(*a->g);
        applyTypes(ap.g(), *copy);
        Attribute na = *a;
        na.g = std::move(copy);
        g.node(n.id).attrs.set(std::move(na));
      } else if (a->kind == AttrKind::Graphs && ap.graphs_size() == static_cast<int>(a->graphs.size())) {
        Attribute na = *a;
        for (size_t i = 0; i < na.graphs.size(); ++i) {
          auto copy = std::make_shared<Graph>(*na.graphs[i]);
          applyTypes(ap.graphs(static_cast<int>(i)), *copy);
          na.graphs[i] = std::move(copy);
        }
        g.node(n.id).attrs.set(std::move(na));
      }
    }
  }
}

}  // namespace

bool isOnnxOp(const std::string& op, int64_t opset) {
  return onnx::OpSchemaRegistry::Schema(op, static_cast<int>(opset), "") != nullptr;
}

Status inferShapesWithConstants(Model& model, const std::map<std::string, Tensor>& known,
                                std::vector<std::string>* warnings) {
  onnx::ModelProto mp;
  {
    onnxio::ShapesOnlyExport shapesOnly;
    onnxio::exportModel(model, &mp);
  }
  auto* gp = mp.mutable_graph();
  stripInferred(gp);
  // Nodes all of whose outputs are known become Constant nodes (one per output) in place, so that
  // inference downstream sees their values (Reshape's shape, Resize's sizes, Expand's shape, ...).
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  std::vector<int> protoIndex;
  for (const auto& np : gp->node()) {
    bool all = np.output_size() > 0;
    for (const auto& o : np.output()) all = all && (o.empty() || known.count(o));
    for (const auto& a : np.attribute()) all = all && !a.has_g() && a.graphs_size() == 0;
    if (!all) {
      protoIndex.push_back(nodes.size());
      *nodes.Add() = np;
      continue;
    }
    protoIndex.push_back(-1);
    for (const auto& o : np.output()) {
      if (o.empty()) continue;
      auto* c = nodes.Add();
      c->set_op_type("Constant");
      c->set_name(np.name() + "/" + o);
      c->add_output(o);
      auto* a = c->add_attribute();
      a->set_name("value");
      a->set_type(onnx::AttributeProto::TENSOR);
      onnxio::tensorToProto(known.at(o), o, a->mutable_t());
    }
  }
  gp->mutable_node()->Swap(&nodes);
  neutralizeDivisors(gp);
  hideUnsafeWindowOps(gp);
  typeShapeInputs(gp);
  onnx::ShapeInferenceOptions opts(/*check_type=*/false, /*error_mode=*/0, /*data_prop=*/true);
  try {
    onnx::shape_inference::InferShapes(mp, onnx::OpSchemaRegistry::Instance(), opts);
  } catch (const std::exception& e) {
    if (warnings) warnings->push_back(std::string("shape inference with computed constants failed: ") + e.what());
    return {};
  }
  applyTypes(mp.graph(), model.mutableGraph(), &protoIndex);
  return {};
}

Status inferShapes(Model& model, const std::vector<ShapeOverride>& overrides, bool strict,
                   std::vector<std::string>* warnings) {
  // A fresh proto per attempt (the shapes-only export is cheaper than copying one: on a 60k-node
  // encoder the copy and its destruction were a tenth of loading). `dropStored`: without the file's
  // value_info.
  auto prepare = [&](onnx::ModelProto& mp, bool dropStored) -> Status {
    {
      onnxio::ShapesOnlyExport shapesOnly;
      onnxio::exportModel(model, &mp);
    }
    auto st = applyOverrides(mp.mutable_graph(), overrides);
    if (!st.ok()) return st;
    neutralizeDivisors(mp.mutable_graph());
    hideUnsafeWindowOps(mp.mutable_graph());
    if (dropStored || !overrides.empty()) stripInferred(mp.mutable_graph());
    typeShapeInputs(mp.mutable_graph());
    return {};
  };
  onnx::ShapeInferenceOptions opts(/*check_type=*/false, /*error_mode=*/strict ? 1 : 0,
                                   /*data_prop=*/true);
  onnx::ModelProto inferred;
  if (auto st = prepare(inferred, false); !st.ok()) return st;
  try {
    onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(), opts);
  } catch (const std::exception& first) {
    // Stale value_info in the file can contradict what inference derives; retry without it.
    inferred = onnx::ModelProto();
    if (auto st = prepare(inferred, true); !st.ok()) return st;
    try {
      onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(), opts);
      if (warnings) warnings->push_back(std::string("stored shapes were inconsistent and were re-inferred: ") + first.what());
    } catch (const std::exception& e) {
      if (strict) return Error::badInput(std::string("shape inference failed: ") + e.what());
      if (warnings) warnings->push_back(std::string("shape inference incomplete: ") + e.what());
      inferred = onnx::ModelProto();  // keep at least the overridden input shapes
      if (auto st = prepare(inferred, false); !st.ok()) return st;
    }
  }
  applyTypes(inferred.graph(), model.mutableGraph());
  return {};
}

}  // namespace fw
