// cse (level 2, whole-graph pass)
// Common subexpression elimination: two nodes with the same op, domain, attributes and inputs compute
// the same values; the later one is removed and its readers read the first. Small constants with the
// same content are shared first, so that nodes reading equal constants also match.
#include <map>

#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

std::string attrKey(const Attributes& attrs) {
  std::string k;
  for (const auto& a : attrs.all()) {
    k += a.name + "=" + std::to_string(static_cast<int>(a.kind)) + ":";
    switch (a.kind) {
      case AttrKind::Float: k += std::to_string(a.f); break;
      case AttrKind::Int: k += std::to_string(a.i); break;
      case AttrKind::String: k += a.s; break;
      case AttrKind::Floats: for (float f : a.floats) k += std::to_string(f) + ","; break;
      case AttrKind::Ints: for (int64_t i : a.ints) k += std::to_string(i) + ","; break;
      case AttrKind::Strings: for (const auto& s : a.strings) k += s + ","; break;
      case AttrKind::Tensor:
        k += std::string(reinterpret_cast<const char*>(a.t.rawData() ? a.t.rawData() : reinterpret_cast<const uint8_t*>("")), a.t.byteSize());
        for (int64_t d : a.t.dims()) k += "x" + std::to_string(d);
        break;
      default: return {};  // graphs and exotic kinds: never merged
    }
    k += ";";
  }
  return k;
}

class Cse final : public RuleBase {
 public:
  Cse() : RuleBase("cse", 2, "common subexpression elimination (identical nodes and small constants)", Phase::Rewrite) {}
  bool wholeGraph() const override { return true; }

  int runPass(Context& ctx) const override {
    Graph& g = ctx.graph;
    // Equal small constants first.
    std::map<std::string, ValueId> consts;
    for (ValueId v : g.initializers()) {
      const Value& val = g.value(v);
      if (val.isGraphInput || val.isGraphOutput || val.consumers.empty()) continue;
      const Tensor& t = *val.initializer;
      if (t.numel() > 64 || t.dtype() == DType::String) continue;
      std::string key(reinterpret_cast<const char*>(t.rawData() ? t.rawData() : reinterpret_cast<const uint8_t*>("")), t.byteSize());
      key += "|" + std::to_string(static_cast<int>(t.dtype()));
      for (int64_t d : t.dims()) key += "x" + std::to_string(d);
      auto [it, fresh] = consts.emplace(key, v);
      if (!fresh) g.replaceAllUses(v, it->second);
    }
    auto order = g.topoOrder();
    if (!order.ok()) return 0;
    std::map<std::string, NodeId> seen;
    int removed = 0;
    for (NodeId n : *order) {
      const Node& nd = g.node(n);
      if (nd.inputs.empty() || !nd.subgraphs().empty() || nd.opType.rfind("Random", 0) == 0) continue;
      if (isExcluded(ctx.opts, nd)) continue;
      std::string ak = attrKey(nd.attrs);
      if (ak.empty() && !nd.attrs.empty()) continue;
      std::string key = nd.domain + "|" + nd.opType + "|" + ak + "|";
      for (ValueId v : nd.inputs) key += std::to_string(v) + ",";
      key += "|" + std::to_string(nd.outputs.size());
      auto [it, fresh] = seen.emplace(key, n);
      if (fresh) continue;
      const Node first = g.node(it->second);
      bool outputIsGraphOutput = false;
      for (ValueId v : nd.outputs)
        if (v != kNoId && g.value(v).isGraphOutput) outputIsGraphOutput = true;
      if (outputIsGraphOutput) {
        ctx.log.record(std::string(id()), nd.name, false, "its output is a graph output");
        continue;
      }
      bool shapeOk = true;
      for (size_t i = 0; i < nd.outputs.size(); ++i)
        if ((nd.outputs[i] == kNoId) != (first.outputs[i] == kNoId)) shapeOk = false;
      if (!shapeOk) continue;
      const Node dup = nd;
      ctx.log.record(std::string(id()), dup.name, true, "same as '" + first.name + "'");
      g.removeNode(n);
      for (size_t i = 0; i < dup.outputs.size(); ++i)
        if (dup.outputs[i] != kNoId) g.replaceAllUses(dup.outputs[i], first.outputs[i]);
      addOrigins(g, it->second, dup);
      ++removed;
    }
    return removed;
  }
};

}  // namespace
std::unique_ptr<Rule> makeCse() { return std::make_unique<Cse>(); }
}  // namespace fw::fusion::rules
