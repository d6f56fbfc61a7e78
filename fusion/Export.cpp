#include "fusion/Export.h"

#include "core/onnx/OnnxIO.h"
#include "fusion/Pipeline.h"

#include <algorithm>
#include <unordered_map>

namespace fw::fusion {

namespace {

// Replaces every multi-node kernel of `g` by a call of a new model-local function (added to `out`).
Status exportKernels(Graph& g, const std::vector<Kernel>& kernels, const std::map<std::string, int64_t>& fnOpsets,
                     Model& out) {
  const auto& r = kernels;
  std::vector<char> covered(g.nodeCapacity(), 0);
  for (const auto& k : r) {
    for (NodeId m : k.members) {
      if (m < 0 || static_cast<size_t>(m) >= g.nodeCapacity() || g.node(m).dead)
        return Error::internal("export: kernel '" + k.name + "' names node " + std::to_string(m) + " which is not live");
      if (covered[static_cast<size_t>(m)]++) return Error::internal("export: node '" + g.node(m).name + "' is in two kernels");
    }
  }
  for (NodeId n : g.liveNodes())
    if (!covered[static_cast<size_t>(n)]) return Error::internal("export: node '" + g.node(n).name + "' is in no kernel");

  for (const auto& k : r) {
    if (k.members.size() < 2) continue;
    std::vector<NodeId> set = k.members;
    std::sort(set.begin(), set.end());
    auto inSet = [&](NodeId n) { return std::binary_search(set.begin(), set.end(), n); };
    std::vector<ValueId> ins, outs;
    for (NodeId m : set) {
      const Node& nd = g.node(m);
      if (!nd.implicitInputs.empty() || !nd.subgraphs().empty())
        return Error::internal("export: kernel '" + k.name + "' holds control flow '" + nd.name + "'");
      for (ValueId v : nd.inputs)
        if (v != kNoId && !inSet(g.producerOf(v)) && std::find(ins.begin(), ins.end(), v) == ins.end()) ins.push_back(v);
      for (ValueId v : nd.outputs) {
        if (v == kNoId) continue;
        bool leaves = g.value(v).isGraphOutput;
        for (NodeId c : g.value(v).consumers) leaves = leaves || !inSet(c);
        if (leaves) outs.push_back(v);
      }
    }
    auto body = std::make_shared<Graph>();
    body->name = k.name;
    std::unordered_map<ValueId, ValueId> map;
    for (ValueId v : ins) map[v] = body->addInput(g.value(v).name, g.value(v).dtype, g.value(v).shape);
    auto mapped = [&](ValueId v) -> ValueId {
      if (v == kNoId) return kNoId;
      auto it = map.find(v);
      if (it != map.end()) return it->second;
      return map[v] = body->addValue(g.value(v).name, g.value(v).dtype, g.value(v).shape);
    };
    for (NodeId m : set) {
      const Node& nd = g.node(m);
      std::vector<ValueId> bi, bo;
      for (ValueId v : nd.inputs) bi.push_back(mapped(v));
      for (ValueId v : nd.outputs) bo.push_back(mapped(v));
      NodeId bn = body->addNode(nd.opType, bi, bo, nd.attrs, nd.name, nd.domain);
      body->node(bn).origins = nd.origins;
    }
    std::vector<ValueId> bouts;
    for (ValueId v : outs) bouts.push_back(map.at(v));
    body->setOutputs(bouts);
    Function f;
    f.name = k.name;
    f.domain = kFusedDomain;
    f.opsetImports = fnOpsets;
    std::string doc = "fused kernel (" + k.pattern + ") of:";
    for (const auto& o : k.origins) doc += " " + o;
    f.docString = doc;
    f.body = body;
    if (out.findFunction(kFusedDomain, k.name)) return Error::internal("export: duplicate kernel name '" + k.name + "'");
    out.functions.push_back(std::move(f));
    for (NodeId m : set) g.removeNode(m);
    NodeId fn = g.addNode(k.name, ins, outs, {}, g.uniqueNodeName(k.name), kFusedDomain);
    g.node(fn).docString = doc;
    g.node(fn).origins = k.origins;
  }
  g.compact();
  if (auto bad = g.checkConsistency(); !bad.empty()) return Error::internal("export: " + g.name + ": " + bad);
  return Status::okStatus();
}

// Exports the bodies of g's control-flow nodes (deepest first), then g's own kernels. `scope` ends
// with "/" or is empty for the main graph (same naming as the pipeline).
Status exportScope(Graph& g, const std::string& scope, const std::vector<Kernel>* kernels, const FusionResult& r,
                   const std::map<std::string, int64_t>& fnOpsets, Model& out) {
  for (NodeId n : g.liveNodes()) {
    if (g.node(n).subgraphs().empty()) continue;
    Attributes attrs;
    for (Attribute a : g.node(n).attrs.all()) {
      const std::string base = scope + g.node(n).name + "/" + a.name;
      auto one = [&](GraphPtr& body, const std::string& sc) -> Status {
        const SubgraphKernels* sk = r.findSubgraph(sc);
        auto copy = std::make_shared<Graph>(*body);
        if (auto st = exportScope(*copy, sc + "/", sk ? &sk->kernels : nullptr, r, fnOpsets, out); !st.ok()) return st;
        body = copy;
        return Status::okStatus();
      };
      if (a.kind == AttrKind::Graph && a.g) {
        if (auto st = one(a.g, base); !st.ok()) return st;
      } else if (a.kind == AttrKind::Graphs) {
        for (size_t i = 0; i < a.graphs.size(); ++i)
          if (auto st = one(a.graphs[i], base + "[" + std::to_string(i) + "]"); !st.ok()) return st;
      }
      attrs.set(std::move(a));
    }
    g.setNodeAttributes(n, std::move(attrs));  // a rewritten body may read other outer values
  }
  if (!kernels) return Status::okStatus();  // a body the pipeline did not fuse stays as it is
  return exportKernels(g, *kernels, fnOpsets, out);
}

}  // namespace

Result<Model> exportFused(const FusionResult& r) {
  Model out = r.rewritten;
  Graph& g = out.mutableGraph();
  std::map<std::string, int64_t> fnOpsets;
  for (const auto& [d, v] : out.opsetImports)
    if (d != kFusedDomain) fnOpsets[d] = v;
  if (auto st = exportScope(g, "", &r.kernels, r, fnOpsets, out); !st.ok()) return st.error();
  out.opsetImports[kFusedDomain] = 1;
  out.irVersion = std::max<int64_t>(out.irVersion, 8);
  if (auto bad = g.checkConsistency(); !bad.empty()) return Error::internal("export: " + bad);
  return out;
}

Result<Model> exportedAndReimported(const FusionResult& r, const std::string& label) {
  FW_ASSIGN_OR_RETURN(auto exported, exportFused(r));
  return reimported(exported, label);
}

Result<Model> reimported(const Model& exported, const std::string& label) {
  auto bytes = serializeOnnx(exported);
  if (!bytes.ok()) return bytes.error().context("exporting the fused model");
  auto back = parseOnnxBytes(*bytes, label, "");
  if (!back.ok()) return back.error().context("re-importing the fused model");
  return back;
}

std::vector<std::string> openInputDims(const std::map<std::string, Shape>& declared, const Model& bound) {
  std::vector<std::string> out;
  if (!bound.graph) return out;
  for (ValueId id : bound.graph->inputs()) {
    const Value& v = bound.graph->value(id);
    const auto it = declared.find(v.name);
    if (v.initializer || it == declared.end() || !it->second.rankKnown) continue;
    for (size_t k = 0; k < it->second.dims.size(); ++k) {
      const Dim& d = it->second.dims[k];
      if (d.isStatic()) continue;
      out.push_back(v.name + "[" + std::to_string(k) + "]" + (d.symbol.empty() ? "" : " " + d.symbol) + "=" +
                    (k < v.shape.dims.size() ? v.shape.dims[k].str() : "?"));
    }
  }
  return out;
}

namespace {

// Every value of `g` (and of the bodies nested in it) loses its shape, initializers aside: a body
// carries no dim bound for the analysis into the file.
void clearShapes(Graph& g, const std::vector<char>* keep) {
  for (size_t k = 0; k < g.values().size(); ++k) {
    Value& v = g.value(static_cast<ValueId>(k));
    if ((!keep || !(*keep)[k]) && !v.initializer) v.shape = Shape();
  }
  for (const auto& n : g.nodes()) {
    if (n.dead || n.subgraphs().empty()) continue;
    g.setNodeAttributes(n.id, mapSubgraphs(n.attrs, [](const Graph& sub) {
                          auto copy = std::make_shared<Graph>(sub);
                          clearShapes(*copy, nullptr);
                          return GraphPtr(copy);
                        }));
  }
}

// The declared shapes on `exported`'s graph inputs and outputs (matched by name); every other value
// loses its shape, in nested bodies too.
Status restoreSignature(Model& exported, const std::map<std::string, Shape>& declared) {
  Graph& g = exported.mutableGraph();
  std::vector<char> io(g.values().size(), 0);
  for (const auto* list : {&g.inputs(), &g.outputs()}) {
    for (ValueId id : *list) {
      Value& v = g.value(id);
      io[static_cast<size_t>(id)] = 1;
      if (v.initializer) continue;
      const auto it = declared.find(v.name);
      if (it == declared.end())
        return Error::internal("export: graph " + std::string(list == &g.inputs() ? "input" : "output") + " '" + v.name +
                               "' is not in the original model");
      v.shape = it->second;
      v.shapeFromTrace = false;
    }
  }
  clearShapes(g, &io);
  return Status::okStatus();
}

}  // namespace

Result<Model> exportForDeployment(const std::map<std::string, Shape>& declared, const Model& bound,
                                  const FusionResult& r, const FusionOptions& opts, bool staticShapes,
                                  std::string* note) {
  const auto open = openInputDims(declared, bound);
  std::string dims;
  for (const auto& d : open) dims += (dims.empty() ? "" : ", ") + d;
  auto say = [&](const std::string& s) {
    if (note) *note = s;
  };
  if (open.empty()) {
    say("");
    FW_ASSIGN_OR_RETURN(auto out, exportFused(r));
    // Outputs whose shape depends on the data (detections after NMS) keep the declared dims.
    Graph& g = out.mutableGraph();
    for (ValueId id : g.outputs()) {
      Value& v = g.value(id);
      if (auto it = declared.find(v.name); it != declared.end() && !v.initializer) {
        v.shape = it->second;
        v.shapeFromTrace = false;
      }
    }
    return out;
  }
  if (staticShapes) {
    say("static export: input dims fixed at " + dims + " (the file runs only at these shapes)");
    return exportFused(r);
  }
  FusionOptions generic = opts;
  generic.genericShapes = true;
  FW_ASSIGN_OR_RETURN(auto rg, fuseModel(bound, generic));
  FW_ASSIGN_OR_RETURN(auto out, exportFused(rg));
  FW_TRY_STATUS(restoreSignature(out, declared));
  say("the export keeps the model's signature: symbolic dims " + dims +
      " stay open (shape arithmetic is left in the graph; --static-shapes fixes them)");
  return out;
}

}  // namespace fw::fusion
