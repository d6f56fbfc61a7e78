// if_constant_inline (level 1)
// An If whose condition is a constant (typically shape arithmetic that constant_fold evaluated once
// the input shapes were bound) is replaced by the nodes of the branch it takes.
//
//   Before:  cond = <initializer>      y0, y1 = If(cond) { then_branch } { else_branch }
//   After:   the taken branch's nodes, copied into the enclosing graph; the node that produced the
//            branch's output k now produces y_k itself (the If's outputs keep their identity and
//            name, they may be graph outputs). An output the branch does not compute (an
//            initializer, an outer-scope value, a value returned twice) gets an Identity.
//
// Conditions: the condition is an initializer that is not an overridable graph input and has one
// element; the taken branch exists, has no inputs and returns one value per If output.
//
// Copying a branch into the enclosing graph `g` (which may itself be a subgraph body):
//  - branch initializers become initializers of g (same shared data);
//  - branch outer-scope references map to g's value of that name (created as an outer reference of g
//    when g is a body that does not yet name it);
//  - a branch value or node whose name is taken in g is renamed; nested subgraphs of the copied
//    nodes that read a renamed value by name are renamed with it, all names at once (a chain such as
//    t->t_1, t_1->t_2 must not rename a reference twice). New names also avoid every name defined
//    inside those nested subgraphs, so a renamed reference never collides with a local there;
//  - provenance: a copied node keeps its name when it can (then it is its own origin); a renamed
//    node records its original name in `origins`; an inserted Identity stands for the If.
#include <algorithm>
#include <map>
#include <unordered_set>

#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

// The branch attribute the constant condition selects, or nullptr when the condition is not a
// usable constant.
const char* takenBranch(const Graph& g, const Node& n) {
  const ValueId c = n.inputs[0];
  if (!isConstant(g, c)) return nullptr;
  const Tensor& t = *g.value(c).initializer;
  if (t.numel() != 1 || t.dtype() == DType::String) return nullptr;
  return t.getDouble(0) != 0 ? "then_branch" : "else_branch";
}

std::string quoteList(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string out;
  const size_t shown = std::min<size_t>(names.size(), 3);
  for (size_t i = 0; i < shown; ++i) out += (i ? ", '" : "'") + names[i] + "'";
  if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
  return out;
}

// Why the condition is not a constant, naming what it depends on.
std::string whyNotConstant(const Graph& g, ValueId c) {
  const Value& cv = g.value(c);
  const std::string head = "condition '" + cv.name + "' ";
  if (cv.isGraphInput)
    return head + (cv.initializer ? "is a graph input with a default value (it may be overridden at run time)"
                                  : "is a graph input (known only at run time)");
  if (cv.isOuterRef()) return head + "is read from an enclosing graph (not a constant of this body)";
  std::vector<std::string> inputs, outer;
  std::vector<char> seen(g.values().size(), 0);
  std::vector<ValueId> todo{c};
  while (!todo.empty()) {
    const ValueId v = todo.back();
    todo.pop_back();
    if (v == kNoId || seen[static_cast<size_t>(v)]) continue;
    seen[static_cast<size_t>(v)] = 1;
    const Value& val = g.value(v);
    if (val.isGraphInput) inputs.push_back(val.name);
    else if (val.isOuterRef()) outer.push_back(val.name);
    if (val.producer == kNoId) continue;
    const Node& p = g.node(val.producer);
    todo.insert(todo.end(), p.inputs.begin(), p.inputs.end());
    todo.insert(todo.end(), p.implicitInputs.begin(), p.implicitInputs.end());
  }
  std::string why = head + "is computed at run time";
  std::vector<std::string> parts;
  if (!inputs.empty()) parts.push_back((inputs.size() == 1 ? "input " : "inputs ") + quoteList(inputs));
  if (!outer.empty()) parts.push_back(quoteList(outer) + " of an enclosing graph");
  if (!parts.empty()) why += " (depends on " + parts[0] + (parts.size() > 1 ? " and " + parts[1] : "") + ")";
  return why;
}

// Every value name defined anywhere inside `sub` (recursively).
void collectNames(const Graph& sub, std::unordered_set<std::string>& names) {
  for (const auto& v : sub.values()) names.insert(v.name);
  for (NodeId n : sub.liveNodes())
    for (const auto& s : sub.node(n).subgraphs()) collectNames(*s, names);
}

// A copy of `sub` whose outer-scope references are renamed by `ren`, every name at once (through
// temporary names, so chains and swaps rename each reference exactly once); nested subgraphs follow.
GraphPtr renameOuterRefs(const Graph& sub, const std::map<std::string, std::string>& ren) {
  auto copy = std::make_shared<Graph>(sub);
  std::vector<std::pair<ValueId, std::string>> todo;
  for (const auto& v : copy->values())
    if (v.isOuterRef())
      if (auto it = ren.find(v.name); it != ren.end()) todo.emplace_back(v.id, it->second);
  for (size_t i = 0; i < todo.size(); ++i) copy->renameValue(todo[i].first, "\x1f" "if_inline_tmp_" + std::to_string(i));
  for (const auto& [v, name] : todo) copy->renameValue(v, name);
  for (NodeId n : copy->liveNodes()) {
    if (copy->node(n).subgraphs().empty()) continue;
    // Same values by id: implicit inputs stay valid.
    copy->node(n).attrs =
        mapSubgraphs(copy->node(n).attrs, [&](const Graph& s) { return renameOuterRefs(s, ren); });
  }
  return copy;
}

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
    const ValueId c = n.inputs[0];
    const char* attr = takenBranch(g, n);
    if (!attr) {
      if (!isConstant(g, c)) return reject(whyNotConstant(g, c));
      return reject("condition '" + g.value(c).name + "' is not a single number");
    }
    const GraphPtr body = n.attrs.getGraph(attr);
    if (!body) return reject(std::string("missing ") + attr);
    if (!body->inputs().empty()) return reject(std::string(attr) + " declares inputs");
    if (body->outputs().size() != n.outputs.size())
      return reject(std::string(attr) + " returns " + std::to_string(body->outputs().size()) + " values for " +
                    std::to_string(n.outputs.size()) + " outputs");
    auto order = body->topoOrder();
    if (!order.ok()) return reject(order.error().message);
    return Match{root, {root}, {}, {}, {}};
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    const Node ifNode = g.node(m.root);  // a copy: the node is removed below
    const GraphPtr body = ifNode.attrs.getGraph(takenBranch(g, ifNode));
    const Graph& b = *body;
    const auto order = b.topoOrder();  // checked in match()
    g.removeNode(m.root);

    // Names a new value must not take: those of the branch (so a rename never lands on a name the
    // branch still has to bring over) and those defined inside the copied nodes' subgraphs.
    std::unordered_set<std::string> avoid;
    for (const auto& v : b.values()) avoid.insert(v.name);
    for (NodeId id : *order)
      for (const auto& s : b.node(id).subgraphs()) collectNames(*s, avoid);
    std::map<std::string, std::string> ren;  // branch name -> name in g, where they differ
    std::vector<ValueId> map(b.values().size(), kNoId);
    auto bring = [&](const Value& bv) {
      std::string name = bv.name;
      for (uint64_t k = 1; g.findValue(name) != kNoId || (name != bv.name && avoid.count(name)); ++k)
        name = bv.name + "_" + std::to_string(k);
      const ValueId nv = g.addValue(name, bv.dtype, bv.shape);
      g.value(nv).opaqueType = bv.opaqueType;
      g.value(nv).docString = bv.docString;
      if (name != bv.name) ren[bv.name] = name;
      map[static_cast<size_t>(bv.id)] = nv;
    };
    auto used = [](const Value& v) { return !v.consumers.empty() || v.isGraphOutput; };

    for (const auto& v : b.values()) {
      if (!used(v)) continue;
      if (v.initializer) {
        bring(v);
        g.value(map[static_cast<size_t>(v.id)]).initializer = v.initializer;  // shared, not copied
      } else if (v.isOuterRef()) {
        const ValueId o = g.findValue(v.name);
        map[static_cast<size_t>(v.id)] = o != kNoId ? o : g.addValue(v.name, v.dtype, v.shape);  // an outer ref of g
      }
    }
    // The node computing branch output k produces the If's output k (the first time a value is
    // returned; a repeat gets an Identity below).
    std::vector<char> direct(b.outputs().size(), 0);
    for (size_t k = 0; k < b.outputs().size(); ++k) {
      const Value& bo = b.value(b.outputs()[k]);
      const ValueId io = ifNode.outputs[k];
      if (io == kNoId || bo.producer == kNoId || map[static_cast<size_t>(bo.id)] != kNoId) continue;
      map[static_cast<size_t>(bo.id)] = io;
      direct[k] = 1;
      if (g.value(io).dtype == DType::Undefined) g.value(io).dtype = bo.dtype;
      if (g.value(io).name != bo.name) ren[bo.name] = g.value(io).name;
    }

    std::unordered_set<std::string> nodeNames;
    for (NodeId id : g.liveNodes()) nodeNames.insert(g.node(id).name);
    auto freeNodeName = [&](const std::string& base) {
      std::string name = base;
      while (nodeNames.count(name)) name = g.uniqueNodeName(base);
      nodeNames.insert(name);
      return name;
    };

    for (NodeId id : *order) {
      const Node& bn = b.node(id);
      std::vector<ValueId> ins, outs;
      for (ValueId v : bn.inputs) ins.push_back(v == kNoId ? kNoId : map[static_cast<size_t>(v)]);
      for (ValueId v : bn.outputs) {
        if (v != kNoId && map[static_cast<size_t>(v)] == kNoId) bring(b.value(v));
        outs.push_back(v == kNoId ? kNoId : map[static_cast<size_t>(v)]);
      }
      Attributes attrs = bn.attrs;
      if (!bn.subgraphs().empty()) {
        std::vector<std::string> reads;
        for (const auto& s : bn.subgraphs()) Graph::collectOuterRefs(*s, reads);
        std::map<std::string, std::string> mine;
        for (const auto& r : reads)
          if (auto it = ren.find(r); it != ren.end()) mine.insert(*it);
        if (!mine.empty()) {
          attrs = mapSubgraphs(attrs, [&](const Graph& s) { return renameOuterRefs(s, mine); });
        }
      }
      const std::string name = freeNodeName(bn.name.empty() ? bn.opType : bn.name);
      // addNode hooks the nested subgraphs' outer references up to g's values by their new names.
      const NodeId nn = g.addNode(bn.opType, ins, outs, std::move(attrs), name, bn.domain);
      Node& added = g.node(nn);
      added.docString = bn.docString;
      const bool renamed = !bn.name.empty() && name != bn.name;
      added.origins = bn.origins.empty() && renamed ? std::vector<std::string>{bn.name} : bn.origins;
    }
    // Outputs the branch does not compute (an initializer, an outer-scope value, a repeat).
    for (size_t k = 0; k < b.outputs().size(); ++k) {
      const ValueId io = ifNode.outputs[k];
      if (io == kNoId || direct[k]) continue;
      const NodeId id = g.addNode("Identity", {map[static_cast<size_t>(b.outputs()[k])]}, {io}, {},
                                  freeNodeName(ifNode.name + "_output_" + std::to_string(k)));
      g.node(id).origins = originsOf(ifNode);
    }
  }
};

}  // namespace
std::unique_ptr<Rule> makeIfConstantInline() { return std::make_unique<IfConstantInline>(); }
}  // namespace fw::fusion::rules
