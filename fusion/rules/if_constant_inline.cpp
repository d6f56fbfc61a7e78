// if_constant_inline (level 1)
// An If whose condition is a constant (e.g. computed from input shapes, folded once they are bound)
// is replaced by the nodes of the branch it takes. The If's outputs keep their values (and names);
// branch values that clash with names of the enclosing graph are renamed, and nested subgraphs that
// read them by name follow.
#include <map>

#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class IfConstantInline final : public RuleBase {
 public:
  IfConstantInline()
      : RuleBase("if_constant_inline", 1, "replace an If whose condition is constant by the branch it takes",
                 Phase::Rewrite, {"If"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& n = g.node(root);
    if (n.opType != "If" || !(n.domain.empty() || n.domain == "ai.onnx")) return silent();
    if (n.inputs.empty() || n.inputs[0] == kNoId) return silent();
    const Tensor* c = g.constantOf(n.inputs[0]);
    if (!c) return reject("condition '" + g.value(n.inputs[0]).name + "' is computed at run time");
    if (c->numel() != 1) return reject("condition '" + g.value(n.inputs[0]).name + "' is not a scalar");
    const char* attr = c->getDouble(0) != 0 ? "then_branch" : "else_branch";
    GraphPtr body = n.attrs.getGraph(attr);
    if (!body) return reject(std::string("missing ") + attr);
    if (body->outputs().size() != n.outputs.size())
      return reject(std::string(attr) + " returns " + std::to_string(body->outputs().size()) + " values for " +
                    std::to_string(n.outputs.size()) + " outputs");
    auto order = body->topoOrder();
    if (!order.ok()) return reject(order.error().message);
    return Match{root, {root}, attr, {}, {}};
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    const Node ifNode = g.node(m.root);  // copy: the node is removed below
    const GraphPtr body = ifNode.attrs.getGraph(m.label);
    const Graph& b = *body;
    g.removeNode(m.root);

    std::map<ValueId, ValueId> map;               // body value -> enclosing value
    std::map<std::string, std::string> renamed;   // body name -> enclosing name (for nested subgraphs)
    for (const auto& v : b.values()) {
      if (v.initializer) {
        const std::string nm = g.findValue(v.name) == kNoId ? v.name : g.uniqueValueName(v.name);
        map[v.id] = g.addInitializer(nm, *v.initializer);
        if (nm != v.name) renamed[v.name] = nm;
      } else if (v.isOuterRef()) {
        const ValueId o = g.findValue(v.name);
        map[v.id] = o != kNoId ? o : g.addValue(v.name, v.dtype, v.shape);  // an outer ref of `g` itself
      }
    }
    // Branch outputs produced by branch nodes become the If's outputs (first use of a value only).
    std::map<ValueId, size_t> outputOf;
    for (size_t k = 0; k < b.outputs().size(); ++k) {
      const ValueId bo = b.outputs()[k];
      if (b.value(bo).producer != kNoId && !outputOf.count(bo) && ifNode.outputs[k] != kNoId) {
        outputOf[bo] = k;
        map[bo] = ifNode.outputs[k];
        if (g.value(ifNode.outputs[k]).name != b.value(bo).name) renamed[b.value(bo).name] = g.value(ifNode.outputs[k]).name;
      }
    }
    const auto order = b.topoOrder();  // checked in match()
    for (NodeId id : *order) {
      const Node& bn = b.node(id);
      std::vector<ValueId> ins, outs;
      for (ValueId v : bn.inputs) ins.push_back(v == kNoId ? kNoId : map.at(v));
      for (ValueId v : bn.outputs) {
        if (v == kNoId) {
          outs.push_back(kNoId);
          continue;
        }
        if (!map.count(v)) {
          const Value& bv = b.value(v);
          const std::string nm = g.findValue(bv.name) == kNoId ? bv.name : g.uniqueValueName(bv.name);
          map[v] = g.addValue(nm, bv.dtype, bv.shape);
          if (nm != bv.name) renamed[bv.name] = nm;
        }
        outs.push_back(map.at(v));
      }
      Attributes attrs = bn.attrs;
      if (!renamed.empty() && !bn.subgraphs().empty()) {
        Attributes fixed;
        for (Attribute a : attrs.all()) {
          for (const auto& [from, to] : renamed) {
            if (a.kind == AttrKind::Graph && a.g) a.g = renameOuterRef(*a.g, from, to);
            if (a.kind == AttrKind::Graphs)
              for (auto& sg : a.graphs) sg = renameOuterRef(*sg, from, to);
          }
          fixed.set(std::move(a));
        }
        attrs = std::move(fixed);
      }
      const std::string name = g.uniqueNodeName(bn.name);
      const NodeId nn = g.addNode(bn.opType, ins, outs, attrs, name, bn.domain);
      g.node(nn).origins = bn.origins.empty() && name != bn.name ? std::vector<std::string>{bn.name} : bn.origins;
    }
    // Outputs not produced by a branch node (a constant, an outer value, a value returned twice).
    for (size_t k = 0; k < b.outputs().size(); ++k) {
      const ValueId bo = b.outputs()[k];
      const ValueId io = ifNode.outputs[k];
      if (io == kNoId || (outputOf.count(bo) && outputOf.at(bo) == k)) continue;
      g.addNode("Identity", {map.at(bo)}, {io}, {}, g.uniqueNodeName(ifNode.name + "_out" + std::to_string(k)));
    }
  }
};

}  // namespace
std::unique_ptr<Rule> makeIfConstantInline() { return std::make_unique<IfConstantInline>(); }
}  // namespace fw::fusion::rules
