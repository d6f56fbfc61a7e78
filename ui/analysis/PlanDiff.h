#pragma once
// Differences between two fusion plans of the same model (the tuner's start vs winner, one chip's
// plan vs another's): the kernels that changed and the decisions that went the other way.
#include <string>
#include <vector>

#include "fusion/FusionTypes.h"
#include "simulator/Simulator.h"

namespace fw {

// Each changed part is a connected set of kernels of `a` and of `b` that share original nodes,
// printed with their simulated times: "k8_conv + k9_add (4.10 us) -> k8_conv_add (2.08 us)".
std::vector<std::string> kernelChanges(const fusion::FusionResult& a, const sim::SimResult& sa,
                                       const fusion::FusionResult& b, const sim::SimResult& sb);

// A decision (rule at node) that was applied in some plans and refused in others; `outcome` has
// one entry per plan: "applied" / "fused as ..." or the refusal's reason, "-" if never considered.
struct DecisionDiff {
  std::string rule, node;
  std::vector<std::string> outcome;
};
std::vector<DecisionDiff> decisionDiffs(const std::vector<const fusion::FusionResult*>& plans);

std::string joinStrings(const std::vector<std::string>& v, const std::string& sep);

}  // namespace fw
