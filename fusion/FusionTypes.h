#pragma once
// Plain value types of the fusion engine: options in, result out. Shared by the CLI, the GUI and the
// simulator seam (which maps Kernel::members to its KernelGroup).
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/ir/Model.h"

namespace fw::fusion {

// Hardware limits the level-2 checks need. fw_fusion never reads a profile itself: the caller (the
// CLI/GUI, which link fw_sim) copies the numbers from resources/hw/<name>.json. ubBytes == 0 turns
// the Unified Buffer check off (no profile known).
struct HwLimits {
  int64_t ubBytes = 0;          // Unified Buffer per core
  int64_t elemBytes = 0;        // device bytes per element; 0 = the graph's own dtype sizes
  double minTrafficSaving = 0.30;  // a merge must remove this fraction of the absorbed parts' traffic
  double ubFraction = 1.0;      // share of the UB one kernel's tile may use (the rest: double buffering)
  // The cache in front of device memory (the profile's l2_bytes; a CPU's last-level cache): from level 2 a
  // merge may not keep more bytes alive than this beyond what the separate kernels keep (0: no limit).
  int64_t cacheBytes = 0;
};

// A user rule (level 3): a chain of op types, each consumed only by the next, fused into one kernel.
struct UserRuleStep {
  std::string opType;
  std::map<std::string, int64_t> intAttrs;  // attributes that must equal these values
};
struct UserRule {
  std::string name;
  std::vector<UserRuleStep> steps;
};

struct FusionOptions {
  int optLevel = 2;
  std::set<std::string> enabled;        // rule ids forced on
  std::set<std::string> disabled;       // rule ids forced off (wins)
  std::set<std::string> excludedNodes;  // node names never rewritten or fused (original names)
  std::set<std::string> clusterOpsEnabled;   // op types treated as fusable elementwise ops
  std::set<std::string> clusterOpsDisabled;  // op types never put into a multi-node kernel
  std::vector<UserRule> userRules;
  HwLimits hw;
  int maxKernelNodes = 200;  // MindSpore's composite op size limit
  // Rewrites stay valid for every binding of the inputs' symbolic dims (the fused export of a model
  // with open dims, fusion/Export.h): Shape/Size of a computed value are not folded into constants.
  bool genericShapes = false;
};

struct Kernel {
  std::string name;      // unique, e.g. "k12_conv_relu"
  std::string pattern;   // what formed it ("conv_relu", "layernorm", "attention", "single")
  std::vector<NodeId> members;        // node ids of FusionResult::rewritten's graph, topological
  std::vector<std::string> origins;   // names of the imported model's nodes it stands for
  std::string unit;      // "cube", "vector", "cube+vector", "none" (views only), "control"
};

struct Decision {
  std::string rule;
  std::string node;      // node name in the graph the rule looked at
  bool applied = false;
  std::string reason;    // why not (or what was done)
};

// The kernels of one subgraph body (If/Loop/Scan), fused on its own: nothing crosses the boundary.
// The scope names the body: "<node>/<attribute>" joined with "/" for nested bodies, e.g.
// "If_0/then_branch" or "If_0/else_branch/Loop_3/body" (a Graphs attribute adds "[i]").
struct SubgraphKernels {
  std::string scope;
  size_t nodesBefore = 0;       // live nodes of the body as imported
  std::vector<Kernel> kernels;  // node ids of the rewritten body (compacted); names unique model-wide
};

struct FusionResult {
  Model rewritten;               // standard ops only, compacted (node ids topological)
  std::vector<Kernel> kernels;   // cover every live node of rewritten.graph exactly once
  // One entry per subgraph body of the rewritten graph (recursively), in the order they were fused.
  // The control-flow node stays one kernel of its enclosing graph; decisions inside a body name
  // the node "<scope>/<node>".
  std::vector<SubgraphKernels> subgraphs;
  std::vector<Decision> decisions;
  std::map<std::string, int> applied;  // rule id -> times applied
  size_t nodesBefore = 0;
  int optLevel = 0;

  const SubgraphKernels* findSubgraph(const std::string& scope) const {
    for (const auto& s : subgraphs)
      if (s.scope == scope) return &s;
    return nullptr;
  }
};

}  // namespace fw::fusion
