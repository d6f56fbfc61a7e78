// matmul_bn_fold (level 1)
// Before: Gemm(A, B, C) | MatMul(A, B) [2-D] -> BatchNormalization      After: Gemm(A, B', C')
// Columns of B (rows when transB) scale by s = gamma / sqrt(var + eps);  C' = (beta*C) * s + shift,
// alpha is kept. A 2-D MatMul with a constant B becomes a Gemm. The BN channel axis (1) must be the
// column axis, i.e. the output is 2-D.
#include "fusion/rules/BnMath.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class MatMulBnFold final : public RuleBase {
 public:
  MatMulBnFold()
      : RuleBase("matmul_bn_fold", 1, "fold BatchNormalization into the preceding Gemm/MatMul", Phase::Rewrite,
                 {"BatchNormalization"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& bn = g.node(root);
    NodeId mm = producerOfInput(g, root, 0);
    if (mm == kNoId || (g.node(mm).opType != "Gemm" && g.node(mm).opType != "MatMul")) return silent();
    if (auto why = whyNotPrivate(g, bn.inputs[0], root); !why.empty()) return reject(why);
    const Node& n = g.node(mm);
    if (!isConstant(g, n.inputs[1])) return reject(n.opType + " B is not constant");
    const Tensor& b = *g.constantOf(n.inputs[1]);
    if (b.dtype() != DType::Float32 || b.dims().size() != 2) return reject(n.opType + " B is not a 2-D float32 constant");
    const Shape& ys = g.value(bn.inputs[0]).shape;
    if (!ys.rankKnown || ys.rank() != 2) return reject("BN channel axis is not the column axis (output rank " + std::to_string(ys.rank()) + ")");
    if (n.opType == "Gemm" && n.inputs.size() > 2 && n.inputs[2] != kNoId) {
      if (!isConstant(g, n.inputs[2])) return reject("Gemm C is not constant");
      const Tensor& c = *g.constantOf(n.inputs[2]);
      const int64_t cols = n.attrs.intOr("transB", 0) ? b.dims()[0] : b.dims()[1];
      if (c.numel() != 1 && c.numel() != cols) return reject("Gemm C is not a per-column vector");
    }
    BnAffine a;
    if (auto why = bnAffine(g, bn, a); !why.empty()) return reject(why);
    const int64_t cols = n.opType == "Gemm" && n.attrs.intOr("transB", 0) ? b.dims()[0] : b.dims()[1];
    if (static_cast<size_t>(cols) != a.scale.size()) return reject("BN channels differ from the column count");
    return Match{root, {mm, root}, {}, {}, {}};
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    const NodeId mm = m.nodes[0];
    const Node bn = g.node(m.root);
    BnAffine a;
    (void)bnAffine(g, bn, a);
    Node& n = g.node(mm);
    const bool transB = n.opType == "Gemm" && n.attrs.intOr("transB", 0);
    const Tensor& b = *g.constantOf(n.inputs[1]);
    std::vector<float> bv = b.toFloats();
    const size_t rows = static_cast<size_t>(b.dims()[0]), cols = static_cast<size_t>(b.dims()[1]);
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c) bv[r * cols + c] = static_cast<float>(bv[r * cols + c] * a.scale[transB ? r : c]);
    const size_t nout = a.scale.size();
    std::vector<float> cv(nout, 0.0f);
    double beta = 1;
    if (n.opType == "Gemm") beta = n.attrs.floatOr("beta", 1.0f);
    if (n.inputs.size() > 2 && n.inputs[2] != kNoId) {
      const Tensor& c = *g.constantOf(n.inputs[2]);
      for (size_t i = 0; i < nout; ++i) cv[i] = static_cast<float>(beta * c.getDouble(c.numel() == 1 ? 0 : static_cast<int64_t>(i)));
    }
    for (size_t i = 0; i < nout; ++i) cv[i] = static_cast<float>(cv[i] * a.scale[i] + a.shift[i]);
    if (n.opType == "MatMul") n.opType = "Gemm";
    n.attrs.set(Attribute::makeFloat("beta", 1.0f));
    const std::string base = n.name.empty() ? "gemm" : n.name;
    ValueId nb = addConstant(g, base + ".weight_bn", Tensor::floats(b.dims(), bv));
    ValueId nc = addConstant(g, base + ".bias_bn", Tensor::floats({static_cast<int64_t>(nout)}, cv));
    g.setNodeInput(mm, 1, nb);
    setInputAt(g, mm, 2, nc);
    ValueId y = bn.outputs[0];
    g.removeNode(m.root);
    moveOutput(g, mm, 0, y);
    addOrigins(g, mm, bn);
  }
};

}  // namespace
std::unique_ptr<Rule> makeMatMulBnFold() { return std::make_unique<MatMulBnFold>(); }
}  // namespace fw::fusion::rules
