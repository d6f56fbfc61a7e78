// se_gate (level 2)
// Recognises the squeeze-and-excitation gate of MobileNetV3, PP-LCNet, EfficientNet:
//   s = GlobalAveragePool(x) | ReduceMean(x, spatial axes)  -> [Reshape/Flatten]
//   g = act2(Conv2|Gemm2(act1(Conv1|Gemm1(s))))              act: Relu, HardSigmoid, Sigmoid, Clip...
//   y = x * g
// One kernel holds one cube op, so the gate becomes two kernels: "se_squeeze" = the pooling as the
// prologue of the first projection (with its activation), and "se_excite" = the second projection,
// the gate activation and the scaling of x in its epilogue. x is read twice (pool, scale) but the
// pooled vector and the gate never leave the chip.
#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

constexpr int kMaxSteps = 6;

bool isSqueeze(const Graph& g, const Node& n) {
  if (n.opType == "GlobalAveragePool") return true;
  if (n.opType != "ReduceMean" || n.inputs.empty()) return false;
  const Shape& in = g.value(n.inputs[0]).shape;
  if (!in.rankKnown || in.rank() < 3) return false;
  std::vector<int64_t> axes = n.attrs.getInts("axes").value_or(std::vector<int64_t>{});
  if (axes.empty() && n.inputs.size() > 1 && isConstant(g, n.inputs[1])) axes = g.constantOf(n.inputs[1])->toInt64s();
  if (axes.empty()) return false;
  for (int64_t a : axes) {
    if (a < 0) a += static_cast<int64_t>(in.rank());
    if (a < 2) return false;
  }
  return true;
}

// An op the gate passes through: elementwise with constant operands besides the data, or a view.
bool passThrough(const Graph& g, const Node& n) {
  OpKind k = opKind(n.opType, n.domain);
  if (k != OpKind::ElemWise && k != OpKind::Broadcast && k != OpKind::Injective) return false;
  if (n.outputs.size() != 1 || n.inputs.empty()) return false;
  for (size_t i = 1; i < n.inputs.size(); ++i)
    if (n.inputs[i] != kNoId && !isConstant(g, n.inputs[i])) return false;
  return true;
}

// Follows sole consumers from `v` through pass-through ops to the first node `stop` accepts.
template <class Stop>
NodeId walk(const Graph& g, ValueId v, std::vector<NodeId>& path, Stop stop) {
  for (int step = 0; step < kMaxSteps; ++step) {
    NodeId c = soleConsumer(g, v);
    if (c == kNoId) return kNoId;
    const Node& n = g.node(c);
    if (stop(n, v)) return c;
    if (!passThrough(g, n) || n.inputs[0] != v) return kNoId;
    path.push_back(c);
    v = n.outputs[0];
  }
  return kNoId;
}

struct Gate {
  NodeId squeeze = kNoId, c1 = kNoId, c2 = kNoId, mul = kNoId;
  std::vector<NodeId> pre, mid, post;  // squeeze..c1, c1..c2, c2..mul (exclusive)
};

bool isProjection(const Node& n, ValueId v) {
  return (n.opType == "Conv" || n.opType == "Gemm" || n.opType == "MatMul") && !n.inputs.empty() && n.inputs[0] == v;
}

// The gate that starts at squeeze node `s`, or why there is none.
std::string findGate(const Graph& g, NodeId s, Gate& out) {
  const Node& sq = g.node(s);
  const ValueId x = sq.inputs[0];
  out.squeeze = s;
  out.c1 = walk(g, sq.outputs[0], out.pre, [](const Node& n, ValueId v) { return isProjection(n, v); });
  if (out.c1 == kNoId) return "pooled value does not feed a Conv/Gemm alone";
  out.c2 = walk(g, g.node(out.c1).outputs[0], out.mid, [](const Node& n, ValueId v) { return isProjection(n, v); });
  if (out.c2 == kNoId) return "first projection does not feed a second one alone";
  out.mul = walk(g, g.node(out.c2).outputs[0], out.post,
                 [&](const Node& n, ValueId v) { return n.opType == "Mul" && otherInput(n, v) == x; });
  if (out.mul == kNoId) return "the gate does not scale the pooled input";
  return {};
}

class SeGate final : public RuleBase {
 public:
  SeGate()
      : RuleBase("se_gate", 2, "recognise the squeeze-excitation gate (pool+project, project+gate+scale)", Phase::Group,
                 {"GlobalAveragePool", "ReduceMean", "Mul"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& n = g.node(root);
    Gate gate;
    if (n.opType != "Mul") {
      if (!isSqueeze(g, n)) return silent();
      if (auto why = findGate(g, root, gate); !why.empty()) return reject(why);
      std::vector<NodeId> nodes{root};
      nodes.insert(nodes.end(), gate.pre.begin(), gate.pre.end());
      nodes.push_back(gate.c1);
      return firstLegal(ctx, root, {nodes}, "se_squeeze", level());
    }
    // Mul: find the squeeze from the gate side, then check it leads back here.
    for (size_t side = 0; side < 2 && n.inputs.size() == 2; ++side) {
      const ValueId x = n.inputs[1 - side];
      NodeId s = kNoId;
      for (NodeId c : g.value(x).consumers)
        if (isSqueeze(g, g.node(c))) s = c;
      if (s == kNoId || findGate(g, s, gate).size() || gate.mul != root) continue;
      std::vector<NodeId> nodes{gate.c2};
      nodes.insert(nodes.end(), gate.post.begin(), gate.post.end());
      nodes.push_back(root);
      return firstLegal(ctx, root, {nodes}, "se_excite", level());
    }
    return silent();
  }
};

}  // namespace
std::unique_ptr<Rule> makeSeGate() { return std::make_unique<SeGate>(); }
}  // namespace fw::fusion::rules
