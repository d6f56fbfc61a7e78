#include "core/shape/ShapeResolve.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "core/exec/Executor.h"
#include "core/shape/DataDependence.h"

namespace fw {
namespace {

constexpr int64_t kImageMin = 224;
constexpr int64_t kMaxEvalElements = 1 << 16;  // partial evaluation keeps small tensors only

bool isImageInput(const Value& v) {
  const Shape& s = v.shape;
  return s.rankKnown && s.rank() == 4 && s.dims[1].isStatic() && s.dims[1].value == 3 &&
         (v.dtype == DType::Float32 || v.dtype == DType::Float16 || v.dtype == DType::BFloat16 ||
          v.dtype == DType::Float64 || v.dtype == DType::UInt8);
}

bool hasSubgraphs(const Node& n) { return !n.subgraphs().empty(); }

bool isRandomOp(const std::string& op) { return op.rfind("Random", 0) == 0 || op == "Multinomial" || op == "Bernoulli"; }

// One pass of partial evaluation over the main graph: Shape/Size of statically shaped values and
// nodes whose inputs are all constant (small) are computed. Returns how many values became known.
size_t evaluateShapeArithmetic(const Model& model, std::map<std::string, Tensor>& known,
                               std::map<std::string, std::vector<int64_t>>& shapesOut) {
  const Graph& g = *model.graph;
  auto order = g.topoOrder();
  if (!order.ok()) return 0;
  size_t added = 0;
  auto isKnown = [&](ValueId v) { return g.value(v).initializer || known.count(g.value(v).name); };
  for (NodeId id : *order) {
    const Node& n = g.node(id);
    if (hasSubgraphs(n) || !(n.domain.empty() || n.domain == "ai.onnx") || isRandomOp(n.opType)) continue;
    bool done = true;
    for (ValueId o : n.outputs) done = done && (o == kNoId || known.count(g.value(o).name));
    if (done || n.outputs.empty()) continue;
    if ((n.opType == "Shape" || n.opType == "Size") && !n.inputs.empty() && n.inputs[0] != kNoId) {
      const Value& in = g.value(n.inputs[0]);
      std::optional<std::vector<int64_t>> dims;
      if (in.initializer) dims = in.initializer->dims();
      else dims = in.shape.ints();
      if (!dims) continue;
      Tensor t = shapeNodeValue(n, *dims);
      known[g.value(n.outputs[0]).name] = std::move(t);
      ++added;
      continue;
    }
    bool all = true, any = false;
    int64_t inElems = 0;
    for (ValueId v : n.inputs) {
      if (v == kNoId) continue;
      any = true;
      if (!isKnown(v)) {
        all = false;
        break;
      }
      const Value& val = g.value(v);
      inElems += val.initializer ? val.initializer->numel() : known.at(val.name).numel();
    }
    if (!all || !any || inElems > kMaxEvalElements || !isOpSupported(n.opType)) continue;
    auto r = evalNode(model, g, n, [&](ValueId v) -> const Tensor* {
      const Value& val = g.value(v);
      if (val.initializer) return val.initializer.get();
      auto it = known.find(val.name);
      return it == known.end() ? nullptr : &it->second;
    });
    if (!r.ok()) continue;
    size_t k = 0;
    for (ValueId o : n.outputs) {
      if (o == kNoId) continue;
      if (k >= r->size()) break;
      Tensor& t = (*r)[k++];
      const Value& ov = g.value(o);
      shapesOut[ov.name] = t.dims();
      // Keep the data only when it is small and of the declared type (the executor computes every
      // float in float32, every integer in int64).
      if (t.numel() <= kMaxEvalElements && (ov.dtype == DType::Undefined || ov.dtype == t.dtype())) {
        known[ov.name] = std::move(t);
        ++added;
      }
    }
  }
  return added;
}

void collectMissing(const Graph& g, const std::string& scope, std::vector<std::string>& out, size_t limit) {
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    for (ValueId o : n.outputs) {
      if (o == kNoId || out.size() >= limit) continue;
      const Value& v = g.value(o);
      if (v.opaqueType.empty() && (!v.shape.isStatic() || v.dtype == DType::Undefined))
        out.push_back("node '" + (scope.empty() ? "" : scope + "/") + n.name + "' (" + n.opType + "): value '" +
                      v.name + "' " + v.shape.str());
    }
    for (const auto& a : n.attrs.all()) {
      if (a.kind == AttrKind::Graph && a.g) collectMissing(*a.g, (scope.empty() ? "" : scope + "/") + n.name + "/" + a.name, out, limit);
      if (a.kind == AttrKind::Graphs)
        for (size_t i = 0; i < a.graphs.size(); ++i)
          collectMissing(*a.graphs[i], (scope.empty() ? "" : scope + "/") + n.name + "/" + a.name + "[" + std::to_string(i) + "]", out, limit);
    }
  }
}

bool hasControlFlow(const Graph& g) {
  for (const auto& n : g.nodes())
    if (!n.dead && hasSubgraphs(n)) return true;
  return false;
}

// Stores the traced shapes (and dtypes) on values without them, in `g` and its bodies (copied on
// write). An outer-scope reference takes the shape of the enclosing value of that name. A value
// whose shape depends on the data (dataDependentShapes; every traced value inside a body) is marked
// shapeFromTrace.
void applyTracedShapes(Graph& g, const std::string& path, const ExecTrace& trace, std::vector<std::string>& named,
                       const std::vector<const Graph*>& enclosing) {
  const std::vector<char> dataDep = path.empty() ? dataDependentShapes(g) : std::vector<char>(g.values().size(), 1);
  for (const auto& v : g.values()) {
    // A sequence declared by its type (opaqueType, kept for export) takes its elements' traced dtype too: a
    // loop body's carried list of step outputs, [] as the trace records a sequence (an exported GRU decoder's
    // logits, each step's appended; session 79: the body's simulation stopped at its dtype).
    if (v.initializer || (v.shape.isStatic() && v.dtype != DType::Undefined)) continue;
    Value& mv = g.value(v.id);
    if (v.isOuterRef()) {
      for (auto it = enclosing.rbegin(); it != enclosing.rend(); ++it) {
        const ValueId o = (*it)->findValue(v.name);
        if (o == kNoId) continue;
        const Value& ov = (*it)->value(o);
        const Shape sh = ov.initializer ? Shape::ofInts(ov.initializer->dims()) : ov.shape;
        const DType dt = ov.initializer ? ov.initializer->dtype() : ov.dtype;
        if (!mv.shape.isStatic() && sh.isStatic()) mv.shape = sh;
        if (mv.dtype == DType::Undefined) mv.dtype = dt;
        break;
      }
      continue;
    }
    const std::string key = ExecTrace::key(path, v.name);
    auto it = trace.shapes.find(key);
    if (it == trace.shapes.end()) continue;
    auto dt = trace.dtypes.find(key);
    if (mv.dtype == DType::Undefined && dt != trace.dtypes.end()) mv.dtype = dt->second;
    if (mv.shape.isStatic()) continue;
    // A value whose shape varied between a loop's iterations takes its mean shape (each dim rounded, at
    // least 1 where the last was): the body's cost, counted once and times its trips, is then its
    // iterations' total for work that grows with the value (Mask R-CNN's pasted masks, one more each
    // iteration, concatenated: 7.8 ms measured over 70 iterations, 14.6 simulated at the last shape).
    std::vector<int64_t> dims = it->second;
    const bool varies = trace.varying.count(it->first) > 0;
    bool mean = false;
    if (varies)
      if (auto s = trace.dimSums.find(it->first);
          s != trace.dimSums.end() && s->second.sameRank && s->second.count > 0 && s->second.sum.size() == dims.size()) {
        for (size_t d = 0; d < dims.size(); ++d) {
          const auto m = static_cast<int64_t>(std::llround(s->second.sum[d] / static_cast<double>(s->second.count)));
          dims[d] = dims[d] > 0 ? std::max<int64_t>(m, 1) : m;
        }
        mean = true;
      }
    mv.shape = Shape::ofInts(dims);
    mv.shapeFromTrace = dataDep[static_cast<size_t>(v.id)] != 0;
    named.push_back((path.empty() ? "" : path + "/") + v.name + " " + mv.shape.str() +
                    (!varies ? "" : mean ? " (varies between iterations; mean shown)"
                                         : " (varies between iterations; last shown)"));
  }
  std::vector<const Graph*> inner = enclosing;
  inner.push_back(&g);
  for (NodeId id = 0; id < static_cast<NodeId>(g.nodeCapacity()); ++id) {
    const Node& n = g.node(id);
    if (n.dead || !hasSubgraphs(n)) continue;
    Attributes attrs = n.attrs;
    for (const auto& a : n.attrs.all()) {
      if (a.kind != AttrKind::Graph || !a.g) continue;
      auto copy = std::make_shared<Graph>(*a.g);
      applyTracedShapes(*copy, (path.empty() ? "" : path + "/") + n.name + "/" + a.name, trace, named, inner);
      Attribute na = a;
      na.g = copy;
      attrs.set(std::move(na));
    }
    g.setNodeAttributes(id, std::move(attrs));
  }
}

}  // namespace

std::string ShapeResolution::bindingLine() const {
  if (defaults.empty()) return {};
  std::string s = "shapes: bound by default ";
  std::set<std::string> seen;
  bool first = true;
  for (const auto& b : defaults) {
    const std::string label = b.symbol.empty() ? b.input + "[" + std::to_string(b.dim) + "]" : b.symbol;
    if (!seen.insert(label).second) continue;
    s += (first ? "" : ", ") + label + "=" + std::to_string(b.value) +
         (b.rule == "image" ? " (image)" : b.rule == "default 1" ? "" : " (" + b.rule + ")");
    first = false;
  }
  return s + " — override with --input-shape";
}

std::vector<int64_t> spatialReduction(const Graph& g) {
  auto order = g.topoOrder();
  if (!order.ok()) return {1, 1, 1};
  using F = std::array<double, 3>;  // per spatial axis (H, W, D of the conv's layout)
  std::vector<F> factor(g.values().size(), F{1, 1, 1});
  F best{1, 1, 1};
  auto scaleBy = [](F& f, const std::vector<double>& s, bool divide) {
    for (size_t k = 0; k < s.size() && k < 3; ++k) f[k] = divide ? f[k] / s[k] : f[k] * s[k];
  };
  for (NodeId id : *order) {
    const Node& n = g.node(id);
    F f{1, 1, 1};
    for (ValueId v : n.inputs)
      if (v != kNoId && !g.value(v).initializer)
        for (size_t k = 0; k < 3; ++k) f[k] = std::max(f[k], factor[static_cast<size_t>(v)][k]);
    const std::string& op = n.opType;
    std::vector<double> strides;
    for (int64_t st : n.attrs.getInts("strides").value_or(std::vector<int64_t>{}))
      strides.push_back(static_cast<double>(std::max<int64_t>(st, 1)));
    if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv" || op == "MaxPool" || op == "AveragePool" ||
        op == "LpPool") {
      scaleBy(f, strides, false);
    } else if (op == "ConvTranspose") {
      scaleBy(f, strides, true);
    } else if (op == "Resize" || op == "Upsample") {
      // Scales as a constant input (or attribute, Upsample-7) over N, C, spatial...
      const Tensor* sc = nullptr;
      if (op == "Resize" && n.inputs.size() > 2 && n.inputs[2] != kNoId) sc = g.constantOf(n.inputs[2]);
      if (op == "Upsample" && n.inputs.size() > 1 && n.inputs[1] != kNoId) sc = g.constantOf(n.inputs[1]);
      std::vector<double> up;
      if (sc && isFloating(sc->dtype()))
        for (int64_t k = 2; k < sc->numel(); ++k) up.push_back(std::max(1.0, sc->getDouble(k)));
      if (auto attr = n.attrs.getFloats("scales"))
        for (size_t k = 2; k < attr->size(); ++k) up.push_back(std::max(1.0, static_cast<double>((*attr)[k])));
      if (up.empty()) up = {2.0, 2.0, 2.0};  // sizes computed at run time: FPN-style upsampling by 2
      scaleBy(f, up, true);
    }
    for (size_t k = 0; k < 3; ++k) {
      f[k] = std::max(f[k], 1.0);
      best[k] = std::max(best[k], f[k]);
    }
    for (ValueId o : n.outputs)
      if (o != kNoId) factor[static_cast<size_t>(o)] = f;
  }
  std::vector<int64_t> out;
  for (double b : best) out.push_back(std::max<int64_t>(1, static_cast<int64_t>(std::llround(b))));
  return out;
}

std::vector<DimBinding> defaultBinding(const Graph& g) {
  std::vector<DimBinding> out;
  std::map<std::string, DimBinding> bySymbol;
  std::vector<int64_t> reduction;
  auto imageDefault = [&](size_t axis) {
    if (reduction.empty()) reduction = spatialReduction(g);
    const int64_t d = reduction[axis - 2];
    return (kImageMin + d - 1) / d * d;
  };
  // Image dims first, so that a symbol shared with another input takes the image value.
  for (int pass = 0; pass < 2; ++pass) {
    for (ValueId id : g.inputs()) {
      const Value& v = g.value(id);
      if (v.initializer || !v.shape.rankKnown) continue;
      const bool image = isImageInput(v);
      for (size_t k = 0; k < v.shape.rank(); ++k) {
        const Dim& d = v.shape.dims[k];
        if (d.isStatic()) continue;
        const bool imageDim = image && (k == 2 || k == 3);
        if ((pass == 0) != imageDim) continue;
        DimBinding b{v.name, k, d.symbol, imageDim ? imageDefault(k) : 1, imageDim ? "image" : "default 1"};
        if (!d.symbol.empty()) {
          auto it = bySymbol.find(d.symbol);
          if (it != bySymbol.end()) {
            b.value = it->second.value;
            b.rule = it->second.rule;
          } else {
            bySymbol.emplace(d.symbol, b);
          }
        }
        out.push_back(b);
      }
    }
  }
  // Listed in input order, dims in order (the image pass above only decides the values).
  std::map<std::string, size_t> inputPos;
  for (size_t k = 0; k < g.inputs().size(); ++k) inputPos[g.value(g.inputs()[k]).name] = k;
  std::stable_sort(out.begin(), out.end(), [&](const DimBinding& a, const DimBinding& b) {
    return std::make_pair(inputPos[a.input], a.dim) < std::make_pair(inputPos[b.input], b.dim);
  });
  return out;
}

std::vector<std::string> valuesWithoutStaticShape(const Graph& g, size_t limit) {
  std::vector<std::string> out;
  collectMissing(g, "", out, limit);
  return out;
}

namespace {

// A shape no run can have: a negative dim, or an empty convolution/pool output (input shorter
// than the kernel). Such a binding is not valid for the model.
std::string impossibleShape(const Graph& g) {
  static const std::set<std::string> windowed{"Conv", "ConvInteger", "QLinearConv", "MaxPool", "AveragePool", "LpPool"};
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    // A window longer than its padded input (shape inference rounds such outputs to 1).
    if (windowed.count(n.opType) && !n.inputs.empty() && n.inputs[0] != kNoId && n.attrs.stringOr("auto_pad", "NOTSET") == "NOTSET") {
      const auto in = g.value(n.inputs[0]).shape.ints();
      std::vector<int64_t> kernel = n.attrs.getInts("kernel_shape").value_or(std::vector<int64_t>{});
      if (kernel.empty() && n.opType == "Conv" && n.inputs.size() > 1 && n.inputs[1] != kNoId)
        if (const Tensor* w = g.constantOf(n.inputs[1]); w && w->dims().size() > 2)
          kernel.assign(w->dims().begin() + 2, w->dims().end());
      const auto pads = n.attrs.getInts("pads").value_or(std::vector<int64_t>(2 * kernel.size(), 0));
      const auto dil = n.attrs.getInts("dilations").value_or(std::vector<int64_t>(kernel.size(), 1));
      if (in && in->size() == kernel.size() + 2 && pads.size() == 2 * kernel.size() && dil.size() == kernel.size()) {
        for (size_t a = 0; a < kernel.size(); ++a) {
          const int64_t extent = (*in)[a + 2] + pads[a] + pads[a + kernel.size()];
          if (extent < (kernel[a] - 1) * dil[a] + 1)
            return "node '" + n.name + "' (" + n.opType + ") has a window of " + std::to_string(kernel[a]) +
                   " over an input of " + std::to_string(extent) + " along spatial axis " + std::to_string(a);
        }
      }
    }
    for (ValueId o : n.outputs) {
      if (o == kNoId) continue;
      const Shape& sh = g.value(o).shape;
      for (const auto& d : sh.dims)
        if ((d.isStatic() && d.value == 0 && windowed.count(n.opType)) || (!d.isStatic() && d.value < -1))
          return "node '" + n.name + "' (" + n.opType + ") would produce " + sh.str();
    }
  }
  return {};
}

struct Attempt {
  Model model;
  ShapeResolution res;
  std::string invalid;  // why this binding does not run ("" = valid)
};

Result<Attempt> attempt(const Model& original, const std::vector<DimBinding>& binding, const ResolveOptions& opts) {
  Attempt at;
  at.model = original;
  Model& model = at.model;
  ShapeResolution& res = at.res;
  res.defaults = binding;
  const Graph& g0 = *model.graph;
  if (!binding.empty()) {
    std::vector<ShapeOverride> ov;
    for (ValueId id : g0.inputs()) {
      const Value& v = g0.value(id);
      if (v.initializer || !v.shape.rankKnown || v.shape.isStatic()) continue;
      ShapeOverride o{v.name, v.shape.dims};
      for (const auto& b : binding)
        if (b.input == v.name) o.dims[b.dim] = Dim(b.value);
      ov.push_back(std::move(o));
    }
    FW_TRY_STATUS(inferShapes(model, ov, false, &res.warnings));
  }

  // Partial evaluation of the shape arithmetic, then inference again, until nothing changes.
  std::map<std::string, Tensor> known;
  for (int round = 0; round < 8 && !valuesWithoutStaticShape(*model.graph, 1).empty(); ++round) {
    if (opts.cancel && opts.cancel->load()) return Error::cancelled();
    std::map<std::string, std::vector<int64_t>> shapes;
    const size_t added = evaluateShapeArithmetic(model, known, shapes);
    if (added == 0 && shapes.empty()) break;
    res.evaluatedValues += added;
    FW_TRY_STATUS(inferShapesWithConstants(model, known, &res.warnings));
    Graph& g = model.mutableGraph();
    for (const auto& [name, dims] : shapes) {
      const ValueId v = g.findValue(name);
      if (v != kNoId && !g.value(v).shape.isStatic()) g.value(v).shape = Shape::ofInts(dims);
    }
    if (added == 0) break;
  }
  at.invalid = impossibleShape(*model.graph);
  if (!at.invalid.empty()) return at;

  // One traced run for what only data (or control flow) can tell; also when nodes call model-local
  // functions (a fused export), whose bodies the shape check above cannot see into.
  const bool missing = !valuesWithoutStaticShape(*model.graph, 1).empty();
  bool callsFunctions = false;
  for (const auto& n : model.graph->nodes()) callsFunctions |= !n.dead && model.findFunction(n.domain, n.opType) != nullptr;
  if (opts.traceIfNeeded && (missing || callsFunctions || hasControlFlow(*model.graph))) {
    auto inputs = randomInputs(model, opts.seed);
    if (!inputs.ok()) {
      res.traceError = inputs.error().message;
    } else {
      ExecOptions eo;
      eo.threads = opts.threads;
      eo.cancel = opts.cancel;
      eo.trace = &res.trace;
      res.trace.recordShapes = missing;
      auto run = runGraph(model, *inputs, eo);
      if (!run.ok()) {
        res.traceError = run.error().message;
        res.trace = {};
        at.invalid = res.traceError;
      } else {
        res.traced = true;
      }
    }
  }
  // Outer-scope references inside bodies take their enclosing value's shape (traced or not).
  if (hasControlFlow(*model.graph) || res.traced)
    applyTracedShapes(model.mutableGraph(), "", res.trace, res.tracedValues, {});
  res.trace.shapes.clear();
  res.trace.dtypes.clear();
  res.trace.varying.clear();
  res.trace.dimSums.clear();
  res.unresolved = valuesWithoutStaticShape(*model.graph, 20);
  return at;
}

}  // namespace

Result<ShapeResolution> resolveShapes(Model& model, const ResolveOptions& opts) {
  const Graph& g0 = *model.graph;
  for (ValueId id : g0.inputs()) {
    const Value& v = g0.value(id);
    if (!v.initializer && !v.shape.rankKnown && v.opaqueType.empty())
      return Error::badInput("input '" + v.name + "' has no known rank; give its shape with --input-shape " + v.name +
                             "=d0,d1,...");
  }
  const std::vector<DimBinding> defaults = opts.bindDefaults ? defaultBinding(g0) : std::vector<DimBinding>{};
  FW_ASSIGN_OR_RETURN(Attempt best, attempt(model, defaults, opts));

  // A dim at 1 that the model cannot run with (a convolution longer than the input: audio
  // samples, sequence lengths) gets the smallest power of two that runs, one dim at a time.
  if (!best.invalid.empty() && !defaults.empty()) {
    std::vector<std::string> tried;
    for (const auto& cand : defaults) {
      if (cand.rule != "default 1" || cand.dim == 0) continue;
      const std::string label = cand.symbol.empty() ? cand.input + "[" + std::to_string(cand.dim) + "]" : cand.symbol;
      if (std::find(tried.begin(), tried.end(), label) != tried.end()) continue;
      tried.push_back(label);
      for (int64_t v = 2; v <= (int64_t{1} << 16); v *= 2) {
        std::vector<DimBinding> b = defaults;
        for (auto& x : b) {
          const std::string l = x.symbol.empty() ? x.input + "[" + std::to_string(x.dim) + "]" : x.symbol;
          if (l == label) {
            x.value = v;
            x.rule = "smallest power of two that runs";
          }
        }
        FW_ASSIGN_OR_RETURN(Attempt next, attempt(model, b, opts));
        if (next.invalid.empty()) {
          best = std::move(next);
          break;
        }
      }
      if (best.invalid.empty()) break;
    }
  }
  if (!best.invalid.empty() && best.res.traceError.empty())
    best.res.warnings.push_back("the bound shapes do not fit the model: " + best.invalid);
  model = std::move(best.model);
  return std::move(best.res);
}

}  // namespace fw
