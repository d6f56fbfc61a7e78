// conv_bn_fold (level 1)
// Before: Conv(X, W, b) -> BatchNormalization(gamma, beta, mean, var)      After: Conv(X, W', b')
// W'[c] = W[c] * s[c];  b'[c] = (b[c] - mean[c]) * s[c] + beta[c];  s = gamma / sqrt(var + eps)
// Conditions: BN in inference mode with constant parameters, W and b constant float32, the Conv
// output read only by the BN.
#include "fusion/rules/BnMath.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

class ConvBnFold final : public RuleBase {
 public:
  ConvBnFold()
      : RuleBase("conv_bn_fold", 1, "fold BatchNormalization into the preceding Conv's weights and bias", Phase::Rewrite,
                 {"BatchNormalization"}) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const Node& bn = g.node(root);
    NodeId conv = producerOfInput(g, root, 0);
    if (conv == kNoId || (g.node(conv).opType != "Conv" && g.node(conv).opType != "ConvTranspose"))
      return reject("input is not produced by a Conv");
    if (g.node(conv).opType == "ConvTranspose") return reject("ConvTranspose is not folded (weight layout)");
    if (auto why = whyNotPrivate(g, bn.inputs[0], root); !why.empty()) return reject(why);
    const Node& c = g.node(conv);
    if (c.inputs.size() < 2 || !isConstant(g, c.inputs[1])) return reject("Conv weight is not constant");
    if (c.inputs.size() > 2 && c.inputs[2] != kNoId && !isConstant(g, c.inputs[2])) return reject("Conv bias is not constant");
    if (g.constantOf(c.inputs[1])->dtype() != DType::Float32) return reject("Conv weight dtype is not float32");
    BnAffine a;
    if (auto why = bnAffine(g, bn, a); !why.empty()) return reject(why);
    if (static_cast<size_t>(g.constantOf(c.inputs[1])->dims()[0]) != a.scale.size())
      return reject("BN channels differ from Conv output channels");
    return Match{root, {conv, root}, {}, {}, {}};
  }

  void apply(Context& ctx, const Match& m) const override {
    Graph& g = ctx.graph;
    const NodeId conv = m.nodes[0];
    const Node bn = g.node(m.root);
    BnAffine a;
    (void)bnAffine(g, bn, a);
    const Node& c = g.node(conv);
    const Tensor& w = *g.constantOf(c.inputs[1]);
    std::vector<float> wv = w.toFloats();
    const size_t cout = a.scale.size(), per = wv.size() / cout;
    for (size_t o = 0; o < cout; ++o)
      for (size_t k = 0; k < per; ++k) wv[o * per + k] = static_cast<float>(wv[o * per + k] * a.scale[o]);
    std::vector<float> bv(cout, 0.0f);
    if (c.inputs.size() > 2 && c.inputs[2] != kNoId) bv = g.constantOf(c.inputs[2])->toFloats();
    for (size_t o = 0; o < cout; ++o) bv[o] = static_cast<float>(bv[o] * a.scale[o] + a.shift[o]);
    const std::string base = c.name.empty() ? "conv" : c.name;
    ValueId nw = addConstant(g, base + ".weight_bn", Tensor::floats(w.dims(), wv));
    ValueId nb = addConstant(g, base + ".bias_bn", Tensor::floats({static_cast<int64_t>(cout)}, bv));
    g.setNodeInput(conv, 1, nw);
    setInputAt(g, conv, 2, nb);
    ValueId y = bn.outputs[0];
    g.removeNode(m.root);
    moveOutput(g, conv, 0, y);
    addOrigins(g, conv, bn);
  }
};

}  // namespace
std::unique_ptr<Rule> makeConvBnFold() { return std::make_unique<ConvBnFold>(); }
}  // namespace fw::fusion::rules
