#pragma once
// Fusion switches from text, shared by the CLI and the GUI:
//  - a MindSpore graph_kernel_flags string: "--opt_level=2 --disable_pass=cse,gelu_fusion
//    --enable_cluster_ops=Cast --disable_cluster_ops=Reshape" (values comma-separated);
//  - the workbench's JSON config (fusion.json):
//    { "opt_level": 3, "rules": {"cse": false, "stitch_reduce": true}, "enable": [...], "disable": [...],
//      "exclude_nodes": ["conv1"], "min_traffic_saving": 0.3, "ub_fraction": 0.75,
//      "tuned": {...} (written by `fwb tune`, informational),
//      "user_rules": [{"name": "conv_add_relu", "ops": ["Conv", "Add", {"op": "Relu"}]},
//                     {"name": "dw", "ops": [{"op": "Conv", "attrs": {"group": 32}}, "Clip"]}] }
// Unknown rule ids, keys or malformed values are BadInput errors that name the flag or JSON path.
#include <set>
#include <string>

#include "core/util/Result.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

Status applyGraphKernelFlags(FusionOptions& o, const std::string& flags);
Status applyFusionConfig(FusionOptions& o, const std::string& jsonText, const std::string& source);
// BadInput naming `flag` and the first id that is not a registered rule.
Status checkRuleIds(const std::set<std::string>& ids, const std::string& flag);
// "a,b,,c" -> {a, b, c}
std::set<std::string> splitList(const std::string& s);

}  // namespace fw::fusion
