// horizontal_matmul (level 2)
// Before: X -> MatMul(X, W1) [-> Add(b1)],  X -> MatMul(X, W2) [-> Add(b2)], ...
// After:  X -> MatMul(X, [W1|W2|...]) [-> Add([b1|b2|...])] -> Split(last axis) -> Y1, Y2, ...
// Parallel MatMuls with constant 2-D weights sharing their left operand become one cube launch
// (e.g. the Q/K/V projections of attention). Each column is the same dot product as before. A merged
// weight equal to an earlier merge's is shared, not copied.
#include <cstring>
#include <numeric>

#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

struct Branch {
  NodeId mm = kNoId, add = kNoId;
  ValueId biasV = kNoId;
};

// A merged weight equal to one an earlier merge made (the same weights merged again, e.g. at every
// step of an unrolled recurrent network) reuses it: one copy in memory and in the file, and the kernels
// of every step read the same weight, as the unmerged graph did. The merge is named after its sources
// ("w_q+w_k+w_v.hweight"), so an earlier one is found by name in constant time and confirmed by content.
ValueId sharedConstant(Graph& g, const std::vector<ValueId>& sources, const std::string& suffix, Tensor t) {
  std::string name;
  for (ValueId v : sources) name += (name.empty() ? "" : "+") + g.value(v).name;
  name += suffix;
  if (const ValueId v = g.findValue(name); v != kNoId) {
    const Value& val = g.value(v);
    if (val.initializer && !val.isGraphInput && !val.consumers.empty()) {
      const Tensor& o = *val.initializer;
      if (o.dtype() == t.dtype() && o.dims() == t.dims() && o.byteSize() == t.byteSize() && o.rawData() && t.rawData() &&
          std::memcmp(o.rawData(), t.rawData(), t.byteSize()) == 0)
        return v;
    }
  }
  return addConstant(g, name, std::move(t));
}

class HorizontalMatMul final : public RuleBase {
 public:
  HorizontalMatMul()
      : RuleBase("horizontal_matmul", 2, "merge parallel MatMuls that share an input into one MatMul + Split", Phase::Rewrite,
                 {"MatMul"}) {}

  static bool weightOk(const Graph& g, const Node& n, int64_t k) {
    if (n.inputs.size() != 2 || !isConstant(g, n.inputs[1])) return false;
    const Tensor& w = *g.constantOf(n.inputs[1]);
    return w.dtype() == DType::Float32 && w.dims().size() == 2 && w.dims()[0] == k;
  }

  std::vector<Branch> branches(const Graph& g, NodeId root, const FusionOptions& o) const {
    const Node& r = g.node(root);
    std::vector<Branch> out;
    // A malformed MatMul (not two inputs, an input left out) is no root (a fuzzed model's one-input MatMul).
    if (r.inputs.size() != 2 || r.inputs[0] == kNoId || r.inputs[1] == kNoId) return out;
    const Shape& xs = g.value(r.inputs[0]).shape;
    if (!isConstant(g, r.inputs[1]) || !xs.rankKnown || xs.rank() < 2 || !xs.dims.back().isStatic()) return out;
    const int64_t k = xs.dims.back().value;
    std::vector<NodeId> cons = g.value(r.inputs[0]).consumers;
    std::sort(cons.begin(), cons.end());
    cons.erase(std::unique(cons.begin(), cons.end()), cons.end());
    for (NodeId c : cons) {
      const Node& cn = g.node(c);
      if (cn.opType != "MatMul" || cn.inputs.size() != 2 || cn.inputs[0] != r.inputs[0] ||
          !weightOk(g, cn, k) || isExcluded(o, cn))
        continue;
      if (g.value(cn.outputs[0]).isGraphOutput) continue;
      Branch b{c, kNoId, kNoId};
      NodeId a = soleConsumer(g, cn.outputs[0]);
      if (a != kNoId && g.node(a).opType == "Add") {
        ValueId other = otherInput(g.node(a), cn.outputs[0]);
        const int64_t n = g.constantOf(cn.inputs[1])->dims()[1];
        if (isConstant(g, other) && g.constantOf(other)->numel() == n && g.constantOf(other)->dims().size() == 1 &&
            g.constantOf(other)->dtype() == DType::Float32 && !isExcluded(o, g.node(a))) {
          b.add = a;
          b.biasV = other;
        }
      }
      out.push_back(b);
    }
    return out;
  }

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    auto bs = branches(g, root, ctx.opts);
    if (bs.size() < 2) {
      int mms = 0;
      for (NodeId c : g.value(g.node(root).inputs[0]).consumers) mms += g.node(c).opType == "MatMul";
      if (mms >= 2 && bs.empty()) return reject("MatMul weight is not a constant 2-D float32 tensor");
      return silent();
    }
    if (bs.front().mm != root) return silent();  // matched from the first sibling
    bool allBias = true;
    for (const auto& b : bs) allBias = allBias && b.add != kNoId;
    Match m{root, {}, {}, {}, {}};
    for (const auto& b : bs) {
      m.nodes.push_back(b.mm);
      if (allBias) m.nodes.push_back(b.add);
    }
    return m;
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    auto bs = branches(g, m.root, ctx.opts);
    bool allBias = true;
    for (const auto& b : bs) allBias = allBias && b.add != kNoId;
    const ValueId x = g.node(m.root).inputs[0];
    const int64_t k = g.constantOf(g.node(m.root).inputs[1])->dims()[0];
    std::vector<int64_t> widths;
    for (const auto& b : bs) widths.push_back(g.constantOf(g.node(b.mm).inputs[1])->dims()[1]);
    const int64_t total = std::accumulate(widths.begin(), widths.end(), int64_t{0});
    std::vector<float> w(static_cast<size_t>(k * total)), bias;
    int64_t col = 0;
    std::vector<ValueId> finals;
    std::vector<Node> olds;
    for (size_t i = 0; i < bs.size(); ++i) {
      auto wi = g.constantOf(g.node(bs[i].mm).inputs[1])->toFloats();
      for (int64_t r = 0; r < k; ++r)
        for (int64_t c = 0; c < widths[i]; ++c)
          w[static_cast<size_t>(r * total + col + c)] = wi[static_cast<size_t>(r * widths[i] + c)];
      col += widths[i];
      if (allBias) {
        auto bi = g.constantOf(bs[i].biasV)->toFloats();
        bias.insert(bias.end(), bi.begin(), bi.end());
      }
      NodeId last = allBias ? bs[i].add : bs[i].mm;
      finals.push_back(g.node(last).outputs[0]);
      olds.push_back(g.node(bs[i].mm));
      if (allBias) olds.push_back(g.node(bs[i].add));
    }
    const std::string base = olds.front().name.empty() ? "matmul" : olds.front().name;
    DType dt = g.value(finals[0]).dtype;
    Shape s = g.value(x).shape;
    s.dims.back() = Dim(total);
    std::vector<ValueId> wSources, bSources;
    for (const auto& br : bs) {
      wSources.push_back(g.node(br.mm).inputs[1]);
      if (allBias) bSources.push_back(br.biasV);
    }
    for (const auto& b : bs) {
      g.removeNode(b.mm);
      if (allBias) g.removeNode(b.add);
    }
    ValueId wv = sharedConstant(g, wSources, ".hweight", Tensor::floats({k, total}, w));
    ValueId mmOut = g.addValue(base + ".hout", dt, s);
    NodeId mm = g.addNode("MatMul", {x, wv}, {mmOut}, {}, g.uniqueNodeName(base + "_horizontal"));
    for (size_t i = 0; i < olds.size(); i += allBias ? 2 : 1) appendOrigins(g, mm, olds[i]);
    ValueId splitIn = mmOut;
    if (allBias) {
      ValueId bv = sharedConstant(g, bSources, ".hbias", Tensor::floats({total}, bias));
      ValueId addOut = g.addValue(base + ".hbias_out", dt, s);
      NodeId add = g.addNode("Add", {mmOut, bv}, {addOut}, {}, g.uniqueNodeName(base + "_horizontal_bias"));
      for (size_t i = 1; i < olds.size(); i += 2) appendOrigins(g, add, olds[i]);
      splitIn = addOut;
    }
    Attributes sa;
    sa.set(Attribute::makeInt("axis", -1));
    std::vector<ValueId> ins{splitIn};
    if (ctx.model.opset() >= 13) ins.push_back(addConstant(g, base + ".hsplit", Tensor::int64s({static_cast<int64_t>(widths.size())}, widths)));
    else sa.set(Attribute::makeInts("split", widths));
    for (ValueId f : finals) g.value(f).producer = kNoId;
    NodeId split = g.addNode("Split", ins, finals, sa, g.uniqueNodeName(base + "_horizontal_split"));
    for (const auto& o : olds) appendOrigins(g, split, o);
  }
};

}  // namespace
std::unique_ptr<Rule> makeHorizontalMatMul() { return std::make_unique<HorizontalMatMul>(); }
}  // namespace fw::fusion::rules
