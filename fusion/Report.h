#pragma once
// The fusion report (JSON for --report and the GUI) and the human summary `fwb fuse` prints.
#include <nlohmann/json.hpp>

#include <string>

#include "fusion/FusionTypes.h"

namespace fw::fusion {

// Keys: opt_level, nodes_before, kernels_after (main graph), subgraph_kernels_after (sum over bodies),
// subgraphs [{scope, nodes_before, kernels_after}], applied {rule: n}, rejected [{rule, node, reason}],
// kernels [{name, pattern, unit, members (node names), origins}].
nlohmann::json reportJson(const FusionResult& r);
std::string summaryText(const FusionResult& r, size_t topReasons = 8);

}  // namespace fw::fusion
