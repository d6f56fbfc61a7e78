#include "fusion/Registry.h"

#include "fusion/rules/Rules.h"

namespace fw::fusion {

const std::vector<std::unique_ptr<Rule>>& registeredRules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    using namespace rules;
    // --- rewrites (run to a fixpoint, in this order) ---
    r.push_back(makeDeadCodeElim());
    r.push_back(makeIdentityElim());
    r.push_back(makeConstantFold());
    r.push_back(makeIfConstantInline());
    r.push_back(makeConvBnFold());
    r.push_back(makeMatMulBnFold());
    r.push_back(makeConvScaleFold());
    r.push_back(makeBiasAddFold());
    r.push_back(makeCse());
    r.push_back(makeHorizontalMatMul());
    // --- grouping (each once, in this order; later rules merge the kernels earlier ones formed) ---
    r.push_back(makeConvActivation());
    r.push_back(makeElementwiseChain());
    r.push_back(makeAttentionFusion());
    r.push_back(makeLayerNormFusion());
    r.push_back(makeGeluFusion());
    r.push_back(makeHardSwishFusion());
    r.push_back(makeSwishFusion());
    r.push_back(makeSoftmaxFusion());
    r.push_back(makeMatMulAddAct());
    r.push_back(makeResidualAdd());
    r.push_back(makeReduceElementwise());
    r.push_back(makeSeGate());
    r.push_back(makeDagEpilogue());
    r.push_back(makeInjectiveAbsorb());
    r.push_back(makeUserRules());
    r.push_back(makeStitchReduce());
    return r;
  }();
  return rules;
}

std::vector<RuleInfo> ruleInfos() {
  std::vector<RuleInfo> out;
  for (const auto& r : registeredRules())
    out.push_back({std::string(r->id()), r->level(), std::string(r->description()),
                   r->phase() == Phase::Rewrite ? "rewrite" : "group"});
  return out;
}

const Rule* findRule(std::string_view id) {
  for (const auto& r : registeredRules())
    if (r->id() == id) return r.get();
  return nullptr;
}

bool isRuleActive(const Rule& r, const FusionOptions& o) {
  const std::string id(r.id());
  if (o.disabled.count(id)) return false;
  if (o.enabled.count(id)) return true;
  return r.level() <= o.optLevel;
}

}  // namespace fw::fusion
