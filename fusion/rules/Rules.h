#pragma once
// Factories of every rule (one file each under fusion/rules/); Registry.cpp lists them in order.
#include <memory>

#include "fusion/Rule.h"

namespace fw::fusion::rules {

// level 1 rewrites
std::unique_ptr<Rule> makeDeadCodeElim();
std::unique_ptr<Rule> makeIdentityElim();
std::unique_ptr<Rule> makeConstantFold();
std::unique_ptr<Rule> makeIfConstantInline();
std::unique_ptr<Rule> makeConvBnFold();
std::unique_ptr<Rule> makeMatMulBnFold();
std::unique_ptr<Rule> makeConvScaleFold();
std::unique_ptr<Rule> makeBiasAddFold();
// level 2 rewrites
std::unique_ptr<Rule> makeCse();
std::unique_ptr<Rule> makeHorizontalMatMul();
// level 1 grouping
std::unique_ptr<Rule> makeConvActivation();
std::unique_ptr<Rule> makeElementwiseChain();
// level 2 grouping
std::unique_ptr<Rule> makeLayerNormFusion();
std::unique_ptr<Rule> makeGeluFusion();
std::unique_ptr<Rule> makeHardSwishFusion();
std::unique_ptr<Rule> makeSwishFusion();
std::unique_ptr<Rule> makeSoftmaxFusion();
std::unique_ptr<Rule> makeAttentionFusion();
std::unique_ptr<Rule> makeMatMulAddAct();
std::unique_ptr<Rule> makeResidualAdd();
std::unique_ptr<Rule> makeReduceElementwise();
std::unique_ptr<Rule> makeSeGate();
std::unique_ptr<Rule> makeDagEpilogue();
std::unique_ptr<Rule> makeInjectiveAbsorb();
// level 3 grouping
std::unique_ptr<Rule> makeUserRules();
std::unique_ptr<Rule> makeStitchReduce();

}  // namespace fw::fusion::rules
