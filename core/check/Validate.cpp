#include "core/check/Validate.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/onnx/OnnxIO.h"

namespace fw {
namespace {

// acc *= v, saturating at INT64_MAX (the caller treats that as "too large"); v >= 0.
void mulSat(int64_t& acc, int64_t v) {
  if (v != 0 && acc > std::numeric_limits<int64_t>::max() / v) acc = std::numeric_limits<int64_t>::max();
  else acc *= v;
}

std::string joinInts(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// No host or device has memory for a single tensor this large: a size bomb, not a model.
constexpr int64_t kMaxTensorBytes = int64_t{1} << 40;

struct Checker {
  const Graph& g;
  std::string scope;
  std::vector<Problem>& out;
  int64_t opset = 17;

  void add(const Node& n, const std::string& field, const std::string& what) {
    const std::string name = (scope.empty() ? "" : scope + "/") + n.name;
    out.push_back({name, n.opType, field, "node '" + name + "' (" + n.opType + "): " + what});
  }

  std::optional<std::vector<int64_t>> dimsOf(ValueId v) const {
    if (v == kNoId) return std::nullopt;
    const Value& val = g.value(v);
    if (val.initializer) return val.initializer->dims();
    return val.shape.ints();
  }
  std::optional<int64_t> rankOf(ValueId v) const {
    if (v == kNoId) return std::nullopt;
    const Value& val = g.value(v);
    if (val.initializer) return static_cast<int64_t>(val.initializer->dims().size());
    if (!val.shape.rankKnown) return std::nullopt;
    return static_cast<int64_t>(val.shape.rank());
  }
  const Tensor* constant(const Node& n, size_t i) const {
    return i < n.inputs.size() && n.inputs[i] != kNoId ? g.constantOf(n.inputs[i]) : nullptr;
  }
  static std::vector<int64_t> intsOf(const Tensor& t) {
    std::vector<int64_t> v;
    for (int64_t k = 0; k < t.numel(); ++k) v.push_back(t.getInt64(k));
    return v;
  }

  // Attribute kinds: a known attribute of the wrong kind is a problem.
  void attributeKinds(const Node& n) {
    static const std::map<std::string, AttrKind> kinds = {
        {"strides", AttrKind::Ints},   {"pads", AttrKind::Ints},         {"dilations", AttrKind::Ints},
        {"kernel_shape", AttrKind::Ints}, {"perm", AttrKind::Ints},      {"output_padding", AttrKind::Ints},
        {"output_shape", AttrKind::Ints}, {"group", AttrKind::Int},      {"keepdims", AttrKind::Int},
        {"transA", AttrKind::Int},     {"transB", AttrKind::Int},        {"ceil_mode", AttrKind::Int},
        {"alpha", AttrKind::Float},    {"beta", AttrKind::Float},        {"epsilon", AttrKind::Float},
        {"momentum", AttrKind::Float}, {"to", AttrKind::Int}};
    for (const auto& a : n.attrs.all()) {
      auto it = kinds.find(a.name);
      if (it == kinds.end() || !a.refAttrName.empty()) continue;
      // `axes`/`axis`/`split` change kind between opsets; they are range-checked below instead.
      if (a.kind != it->second)
        add(n, a.name, "attribute '" + a.name + "' has type " + attrKindName(a.kind) + ", the spec requires " +
                           attrKindName(it->second));
    }
    if (const Attribute* a = n.attrs.find("axis"); a && a->kind != AttrKind::Int && a->refAttrName.empty())
      add(n, "axis", std::string("attribute 'axis' has type ") + attrKindName(a->kind) + ", the spec requires int");
  }

  std::optional<std::vector<int64_t>> ints(const Node& n, const char* name) {
    const Attribute* a = n.attrs.find(name);
    if (!a || a->kind != AttrKind::Ints) return std::nullopt;
    return a->ints;
  }

  void axisInRange(const Node& n, const char* field, int64_t axis, std::optional<int64_t> rank, bool inclusiveEnd = false) {
    if (!rank) return;
    const int64_t r = *rank + (inclusiveEnd ? 1 : 0);
    if (axis < -r || axis >= r)
      add(n, field, std::string(field) + " " + std::to_string(axis) + " is out of range for rank " +
                        std::to_string(*rank) + " (allowed " + std::to_string(-r) + ".." + std::to_string(r - 1) + ")");
  }

  // Conv-like windows: strides, dilations, kernel, pads, group, channel counts.
  void window(const Node& n, bool isConv) {
    const auto xr = rankOf(n.inputs.empty() ? kNoId : n.inputs[0]);
    const int64_t spatial = xr ? *xr - 2 : -1;
    auto positive = [&](const char* f) {
      if (auto v = ints(n, f)) {
        for (int64_t x : *v)
          if (x < 1) {
            add(n, f, std::string("attribute '") + f + "' = " + joinInts(*v) + ": every value must be >= 1");
            break;
          }
        if (spatial >= 0 && static_cast<int64_t>(v->size()) != spatial)
          add(n, f, std::string("attribute '") + f + "' has " + std::to_string(v->size()) + " values for " +
                        std::to_string(spatial) + " spatial axes");
      }
    };
    positive("strides");
    positive("dilations");
    positive("kernel_shape");
    if (auto p = ints(n, "pads")) {
      for (int64_t x : *p)
        if (x < 0) {
          add(n, "pads", "attribute 'pads' = " + joinInts(*p) + ": pads must be >= 0");
          break;
        }
      if (spatial >= 0 && static_cast<int64_t>(p->size()) != 2 * spatial)
        add(n, "pads", "attribute 'pads' has " + std::to_string(p->size()) + " values for " + std::to_string(spatial) +
                           " spatial axes (needs begin and end per axis)");
    }
    if (!isConv) {
      if (n.opType != "GlobalAveragePool" && n.opType != "GlobalMaxPool" && !n.attrs.find("kernel_shape"))
        add(n, "kernel_shape", "attribute 'kernel_shape' is required");
      return;
    }
    if (n.inputs.size() < 2 || n.inputs[1] == kNoId) {
      add(n, "W", "input 'W' (the weights) is required");
      return;
    }
    const int64_t group = n.attrs.intOr("group", 1);
    if (group < 1) {
      add(n, "group", "attribute 'group' = " + std::to_string(group) + ": group must be >= 1");
      return;
    }
    const auto x = dimsOf(n.inputs[0]);
    const auto w = dimsOf(n.inputs[1]);
    if (w && xr && static_cast<int64_t>(w->size()) != *xr) {
      add(n, "W", "weights of rank " + std::to_string(w->size()) + " for an input of rank " + std::to_string(*xr));
      return;
    }
    if (x && w && x->size() >= 2 && w->size() >= 2 && n.opType == "Conv") {
      const int64_t cin = (*x)[1], cout = (*w)[0];
      if (cin % group != 0 || cout % group != 0)
        add(n, "group", "attribute 'group' = " + std::to_string(group) + " does not divide the " + std::to_string(cin) +
                            " input channels and " + std::to_string(cout) + " output channels");
      else if ((*w)[1] * group != cin)
        add(n, "W", "input channel mismatch: weights expect " + std::to_string((*w)[1] * group) + " channels (" +
                        std::to_string((*w)[1]) + " x group " + std::to_string(group) + "), the input has " +
                        std::to_string(cin));
    }
  }

  void node(const Node& n) {
    attributeKinds(n);
    const std::string& op = n.opType;
    const bool std = n.domain.empty() || n.domain == "ai.onnx";
    if (!std) return;
    if (!isOnnxOp(op, opset)) {
      add(n, "op_type", "'" + op + "' is not an operator of the ONNX standard domain (opset " + std::to_string(opset) +
                            "); a custom operator needs its own domain");
      return;
    }
    const ValueId x0 = n.inputs.empty() ? kNoId : n.inputs[0];
    if (op == "Conv" || op == "ConvTranspose" || op == "ConvInteger" || op == "QLinearConv") {
      if (op == "QLinearConv") return;  // inputs in another order; shape inference checks it
      window(n, true);
    } else if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
      window(n, false);
    } else if (op == "Gather" || op == "GatherElements") {
      const int64_t axis = n.attrs.intOr("axis", 0);
      const auto r = rankOf(x0);
      axisInRange(n, "axis", axis, r);
      const auto data = dimsOf(x0);
      if (const Tensor* idx = constant(n, 1); idx && data && r && axis >= -*r && axis < *r && op == "Gather") {
        const int64_t dim = (*data)[static_cast<size_t>(axis < 0 ? axis + *r : axis)];
        for (int64_t v : intsOf(*idx))
          if (v < -dim || v >= dim) {
            add(n, "indices", "constant index " + std::to_string(v) + " is out of range for axis " + std::to_string(axis) +
                                  " of size " + std::to_string(dim));
            break;
          }
      }
    } else if (op == "Concat" || op == "Softmax" || op == "LogSoftmax" || op == "Hardmax" || op == "ArgMax" ||
               op == "ArgMin" || op == "LayerNormalization") {
      if (op == "Concat" && !n.attrs.find("axis")) add(n, "axis", "attribute 'axis' is required");
      axisInRange(n, "axis", n.attrs.intOr("axis", op == "LayerNormalization" ? -1 : 0), rankOf(x0));
    } else if (op == "Flatten") {
      axisInRange(n, "axis", n.attrs.intOr("axis", 1), rankOf(x0), true);
    } else if (op == "Split") {
      const int64_t axis = n.attrs.intOr("axis", 0);
      const auto r = rankOf(x0);
      axisInRange(n, "axis", axis, r);
      std::optional<std::vector<int64_t>> sizes = ints(n, "split");
      if (const Tensor* t = constant(n, 1)) sizes = intsOf(*t);
      const auto d = dimsOf(x0);
      if (sizes && d && r && axis >= -*r && axis < *r) {
        int64_t sum = 0;
        for (int64_t v : *sizes) {
          if (v < 0) add(n, "split", "split size " + std::to_string(v) + " is negative");
          if (__builtin_add_overflow(sum, v, &sum)) sum = std::numeric_limits<int64_t>::max();
        }
        const int64_t dim = (*d)[static_cast<size_t>(axis < 0 ? axis + *r : axis)];
        if (sum != dim)
          add(n, "split", "split sizes " + joinInts(*sizes) + " sum to " + std::to_string(sum) + ", but axis " +
                              std::to_string(axis) + " has " + std::to_string(dim));
      }
    } else if (op == "Transpose") {
      if (auto p = ints(n, "perm")) {
        std::vector<int64_t> sorted = *p;
        std::sort(sorted.begin(), sorted.end());
        bool okPerm = true;
        for (size_t i = 0; i < sorted.size(); ++i) okPerm = okPerm && sorted[i] == static_cast<int64_t>(i);
        const auto r = rankOf(x0);
        if (!okPerm || (r && static_cast<int64_t>(p->size()) != *r))
          add(n, "perm", "attribute 'perm' = " + joinInts(*p) + " is not a permutation of the input's " +
                             (r ? std::to_string(*r) : std::string("?")) + " axes");
      }
    } else if (op.rfind("Reduce", 0) == 0 || op == "Squeeze" || op == "Unsqueeze") {
      std::optional<std::vector<int64_t>> axes = ints(n, "axes");
      if (const Tensor* t = constant(n, 1)) axes = intsOf(*t);
      auto r = rankOf(x0);
      if (axes && r) {
        const int64_t rank = op == "Unsqueeze" ? *r + static_cast<int64_t>(axes->size()) : *r;
        std::set<int64_t> seen;
        for (int64_t a : *axes) {
          if (a < -rank || a >= rank) {
            add(n, "axes", "axes " + joinInts(*axes) + ": " + std::to_string(a) + " is out of range for rank " +
                               std::to_string(rank));
            break;
          }
          if (!seen.insert(a < 0 ? a + rank : a).second) {
            add(n, "axes", "axes " + joinInts(*axes) + " repeat an axis");
            break;
          }
        }
      }
    } else if (op == "Slice") {
      if (const Tensor* t = constant(n, 4))
        for (int64_t s : intsOf(*t))
          if (s == 0) {
            add(n, "steps", "a slice step of 0 is not allowed");
            break;
          }
    } else if (op == "Reshape") {
      if (const Tensor* t = constant(n, 1)) {
        const auto shape = intsOf(*t);
        int64_t minus = 0, known = 1;
        bool bad = false;
        const auto in = dimsOf(x0);
        for (size_t i = 0; i < shape.size(); ++i) {
          const int64_t s = shape[i];
          if (s == -1) ++minus;
          else if (s < -1) bad = true;
          else if (s == 0 && !n.attrs.intOr("allowzero", 0) && in && i < in->size()) mulSat(known, (*in)[i]);
          else mulSat(known, s);
        }
        if (minus > 1) add(n, "shape", "target shape " + joinInts(shape) + " has more than one -1");
        else if (bad) add(n, "shape", "target shape " + joinInts(shape) + " has a dim below -1");
        else if (in) {
          int64_t total = 1;
          for (int64_t d : *in) mulSat(total, std::max<int64_t>(d, 0));
          if ((minus == 0 && known != total) || (minus == 1 && (known == 0 || total % known != 0)))
            add(n, "shape", "reshape of " + joinInts(*in) + " (" + std::to_string(total) + " elements) to " +
                                joinInts(shape) + " is impossible");
        }
      }
    } else if (op == "Gemm") {
      const auto a = dimsOf(x0);
      const auto b = dimsOf(n.inputs.size() > 1 ? n.inputs[1] : kNoId);
      if (a && b && a->size() == 2 && b->size() == 2) {
        const int64_t ka = n.attrs.intOr("transA", 0) ? (*a)[0] : (*a)[1];
        const int64_t kb = n.attrs.intOr("transB", 0) ? (*b)[1] : (*b)[0];
        if (ka != kb)
          add(n, "B", "gemm inner dimensions differ: A " + joinInts(*a) + " and B " + joinInts(*b) + " (K " +
                          std::to_string(ka) + " vs " + std::to_string(kb) + ")");
      }
    } else if (op == "BatchNormalization" || op == "InstanceNormalization") {
      const auto x = dimsOf(x0);
      static const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
      const size_t last = op == "BatchNormalization" ? 4 : 2;
      if (x && x->size() >= 2)
        for (size_t i = 1; i <= last && i < n.inputs.size(); ++i) {
          const auto d = dimsOf(n.inputs[i]);
          int64_t cnt = 1;
          if (d)
            for (int64_t v : *d) mulSat(cnt, std::max<int64_t>(v, 0));
          if (d && cnt != (*x)[1]) {
            add(n, names[i], std::string("'") + names[i] + "' has " + std::to_string(cnt) + " elements for " +
                                 std::to_string((*x)[1]) + " channels");
            break;
          }
        }
    } else if (op == "Tile") {
      if (const Tensor* t = constant(n, 1))
        for (int64_t v : intsOf(*t))
          if (v < 0) {
            add(n, "repeats", "repeats " + joinInts(intsOf(*t)) + " must be >= 0");
            break;
          }
    }
  }

  // Checked arithmetic: every static shape's element and byte counts fit in 64 bits; no negative dim.
  void sizes() {
    for (const auto& v : g.values()) {
      if (v.initializer || !v.shape.rankKnown) continue;
      bool negative = false;
      for (const auto& d : v.shape.dims) negative = negative || (d.symbol.empty() && d.value < -1);
      const NodeId p = v.producer;
      const Node* pn = p != kNoId ? &g.node(p) : nullptr;
      const std::string where = pn ? "node '" + (scope.empty() ? "" : scope + "/") + pn->name + "' (" + pn->opType + "): "
                                   : std::string("input ");
      if (negative) {
        out.push_back({pn ? pn->name : "", pn ? pn->opType : "", v.name,
                       where + "value '" + v.name + "' has a negative dim " + v.shape.str()});
        continue;
      }
      auto dims = v.shape.ints();
      if (!dims) continue;
      int64_t n = std::max<int64_t>(static_cast<int64_t>(dtypeSize(v.dtype)), 1);
      bool overflow = false;
      for (int64_t d : *dims) {
        if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) overflow = true;
        if (!overflow) n *= d;
      }
      if (overflow)
        out.push_back({pn ? pn->name : "", pn ? pn->opType : "", v.name,
                       where + "value '" + v.name + "' of shape " + v.shape.str() +
                           ": its element/byte count overflows 64 bits"});
      else if (n > kMaxTensorBytes)
        out.push_back({pn ? pn->name : "", pn ? pn->opType : "", v.name,
                       where + "value '" + v.name + "' of shape " + v.shape.str() + " needs " + std::to_string(n) +
                           " bytes: more than 1 TiB, no host or device memory holds it"});
    }
  }

  void graph() {
    for (const auto& n : g.nodes()) {
      if (n.dead) continue;
      node(n);
      for (const auto& a : n.attrs.all()) {
        if (a.kind == AttrKind::Graph && a.g) {
          Checker sub{*a.g, (scope.empty() ? "" : scope + "/") + n.name + "/" + a.name, out, opset};
          sub.graph();
        }
      }
    }
    sizes();
  }
};

}  // namespace

Error ValidationReport::error(const std::string& source) const {
  std::string msg = problems.empty() ? std::string("no problem") : problems.front().message;
  if (problems.size() > 1) msg += " (and " + std::to_string(problems.size() - 1) + " more problem(s); `fwb info` lists them)";
  return Error::badInput((source.empty() ? "" : source + ": ") + "the model breaks the ONNX spec: " + msg);
}

ValidationReport validateModel(const Model& m, bool strictInference) {
  ValidationReport r;
  Checker c{*m.graph, "", r.problems, m.opset("") > 0 ? m.opset("") : 17};
  c.graph();
  if (strictInference && r.problems.empty()) {
    Model copy = m;
    auto st = inferShapes(copy, {}, /*strict=*/true, nullptr);
    if (!st.ok()) r.problems.push_back({"", "", "shapes", st.error().message});
  }
  return r;
}

}  // namespace fw
