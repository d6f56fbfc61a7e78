// constant_fold (level 1)
// A node whose inputs are all constants (or a Shape/Size of a statically shaped value: shape
// arithmetic) is evaluated once by the reference executor and replaced by initializers.
#include <algorithm>

#include "core/exec/Executor.h"
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

constexpr int64_t kMaxFoldElements = 1 << 22;

class ConstantFold final : public RuleBase {
 public:
  ConstantFold() : RuleBase("constant_fold", 1, "evaluate nodes with constant inputs (shape arithmetic included)", Phase::Rewrite) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& n = g.node(root);
    if (!n.domain.empty() && n.domain != "ai.onnx") return silent();
    if (!n.subgraphs().empty()) return silent();
    if ((n.opType == "Shape" || n.opType == "Size") && !n.inputs.empty() && n.inputs[0] != kNoId &&
        !isConstant(g, n.inputs[0])) {
      if (g.value(n.inputs[0]).shapeFromTrace)
        return reject("the shape of '" + g.value(n.inputs[0]).name + "' depends on the data (it came from the traced run)");
      if (ctx.opts.genericShapes)
        return reject("the shape of '" + g.value(n.inputs[0]).name + "' depends on the input binding (generic export)");
      const Shape& s = g.value(n.inputs[0]).shape;
      if (!s.isStatic()) return reject("input shape " + s.str() + " is not static");
      Tensor t = shapeNodeValue(n, *s.ints());
      if (g.value(n.outputs[0]).isGraphOutput) return reject("'" + g.value(n.outputs[0]).name + "' is a graph output");
      return Match{root, {root}, {}, {}, {t}};
    }
    bool any = false;
    for (ValueId v : n.inputs) {
      if (v == kNoId) continue;
      if (!isConstant(g, v)) return silent();
      any = true;
    }
    if (!any) return silent();
    if (n.opType == "Bernoulli" || n.opType == "Multinomial" || n.opType == "RandomUniformLike" ||
        n.opType == "RandomNormalLike")
      return reject("a random generator draws anew on every run");
    if (!isOpSupported(n.opType)) return reject("op " + n.opType + " not supported by the reference executor");
    for (ValueId v : n.outputs) {
      if (v == kNoId) continue;
      if (g.value(v).isGraphOutput) return reject("'" + g.value(v).name + "' is a graph output");
      auto ne = g.value(v).shape.numel();
      if (ne && *ne > kMaxFoldElements) return reject("output too large to fold (" + std::to_string(*ne) + " elements)");
    }
    auto r = evalNode(ctx.model, g, n, [&](ValueId v) { return g.constantOf(v); });
    if (!r.ok()) return reject("executor: " + r.error().message);
    size_t k = 0;
    std::vector<Tensor> tensors;
    for (ValueId v : n.outputs) {
      if (v == kNoId) continue;
      Tensor t = (*r)[k++];
      DType want = g.value(v).dtype;
      if (want != DType::Undefined && want != t.dtype()) {
        if (want == DType::Bool || want == DType::Float32 || want == DType::Int64 || t.dtype() == DType::String)
          return reject("executor result dtype " + std::string(dtypeName(t.dtype())) + " differs from " + std::string(dtypeName(want)));
        return reject("result dtype " + std::string(dtypeName(want)) + " is computed in " + std::string(dtypeName(t.dtype())));
      }
      tensors.push_back(std::move(t));
    }
    return Match{root, {root}, {}, {}, tensors};
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    std::vector<ValueId> outs;
    for (ValueId v : g.node(m.root).outputs)
      if (v != kNoId) outs.push_back(v);
    g.removeNode(m.root);
    for (size_t i = 0; i < outs.size(); ++i) g.setInitializer(outs[i], m.tensors[i]);
  }
};

}  // namespace
std::unique_ptr<Rule> makeConstantFold() { return std::make_unique<ConstantFold>(); }
}  // namespace fw::fusion::rules
