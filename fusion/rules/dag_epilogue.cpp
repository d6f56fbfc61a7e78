// dag_epilogue (level 2)
// DAG fusion after TVM's FuseOps (post-dominator based) and MindSpore's graph-kernel clustering: a
// kernel absorbs the whole elementwise / broadcast / injective / reducing subgraph its outputs feed,
// not only a single-consumer chain. Diamonds (HardSwish's y * Clip(y + 3, 0, 6) / 6 after a Conv,
// LayerNorm's x feeding both the mean and x - mean) and fan-out to several such consumers all join
// the producing kernel's epilogue, so y never leaves the chip.
//
// The region is grown from the kernel along consumers whose kernels hold only such ops, then pruned
// until it is one legal kernel:
//   - an intermediate read both inside and outside the region (or a graph output read inside) stops
//     the region before its inside readers: every path from the kernel must re-converge inside or
//     leave through a kernel output;
//   - a region kernel that reads a value computed outside from the region's own results would form
//     a cycle: it leaves the region with everything it feeds;
//   - the usual merge checks (one cube op, UB working set, traffic saving, kernel size) drop the
//     latest part of the region until they pass.
// Each kernel is grown once it is complete (at its last node in topological order).
#include <map>
#include <set>

#include "fusion/rules/RuleBase.h"
#include "fusion/rules/Rules.h"

namespace fw::fusion::rules {
namespace {

constexpr size_t kMaxRegionKernels = 64;  // kernels the region may grow by
constexpr size_t kReachCap = 4096;        // nodes the cycle check may visit before it gives up

class DagEpilogue final : public RuleBase {
 public:
  DagEpilogue()
      : RuleBase("dag_epilogue", 2,
                 "fuse the elementwise/injective/reduce DAG a kernel's outputs feed (diamonds, fan-out) into its epilogue",
                 Phase::Group) {}

  MatchResult match(const Context& ctx, NodeId root) const override {
    const Graph& g = ctx.graph;
    const KernelPlan& plan = *ctx.plan;
    const int sg = plan.groupOf(root);
    if (plan.members(sg).back() != root) return silent();  // grow each kernel once it is complete
    if (!sourceKind(ctx, sg)) return silent();

    std::set<int> region{sg};
    std::vector<int> added;  // groups in the order they joined
    std::vector<NodeId> frontier(plan.members(sg).begin(), plan.members(sg).end());
    size_t nodes = plan.members(sg).size();
    while (!frontier.empty() && added.size() < kMaxRegionKernels) {
      NodeId n = frontier.back();
      frontier.pop_back();
      for (ValueId v : g.node(n).outputs) {
        if (v == kNoId) continue;
        for (NodeId c : g.value(v).consumers) {
          const int cg = plan.groupOf(c);
          if (region.count(cg) || !absorbable(ctx, cg)) continue;
          if (nodes + plan.members(cg).size() > static_cast<size_t>(ctx.opts.maxKernelNodes)) continue;
          region.insert(cg);
          added.push_back(cg);
          nodes += plan.members(cg).size();
          frontier.insert(frontier.end(), plan.members(cg).begin(), plan.members(cg).end());
        }
      }
    }
    if (added.empty()) return silent();

    std::string firstWhy;
    for (int attempt = 0; attempt < 8; ++attempt) {
      std::string why = prune(ctx, sg, region);
      if (firstWhy.empty()) firstWhy = why;
      if (region.size() < 2) break;
      std::vector<NodeId> reps;
      for (int gr : region) reps.push_back(plan.members(gr).front());
      const std::string label = labelFor(ctx, sg, region);
      why = plan.checkMerge(reps, label, level());
      if (why.empty()) return Match{root, reps, label, {}, {}};
      if (firstWhy.empty() || attempt == 0) firstWhy = why;
      dropWithDescendants(ctx, sg, region, latestGroup(ctx, sg, region));
    }
    if (firstWhy.empty()) return silent();
    return reject(firstWhy);
  }

 private:
  static bool allowedOp(const Context& ctx, const Node& nd, bool allowCube) {
    OpKind k = nodeKind(nd, ctx.opts.clusterOpsEnabled);
    switch (k) {
      case OpKind::ElemWise:
      case OpKind::Broadcast:
      case OpKind::Reduce:
        return true;
      case OpKind::Injective:
        // static addressing only: every operand but the data must be constant
        for (size_t i = nd.opType == "Concat" ? nd.inputs.size() : 1; i < nd.inputs.size(); ++i)
          if (nd.inputs[i] != kNoId && !isConstant(ctx.graph, nd.inputs[i])) return false;
        return true;
      case OpKind::Cube:
        return allowCube;
      default:
        return false;
    }
  }
  // A kernel that may grow: a cube kernel or a vector one; never control flow or opaque ops.
  static bool sourceKind(const Context& ctx, int gr) {
    for (NodeId m : ctx.plan->members(gr))
      if (!allowedOp(ctx, ctx.graph.node(m), true)) return false;
    return true;
  }
  // A kernel that may join an epilogue: no cube op, nothing opaque.
  static bool absorbable(const Context& ctx, int gr) {
    for (NodeId m : ctx.plan->members(gr))
      if (!allowedOp(ctx, ctx.graph.node(m), false)) return false;
    return true;
  }

  static bool inRegion(const Context& ctx, const std::set<int>& region, NodeId n) {
    return region.count(ctx.plan->groupOf(n)) > 0;
  }

  // Removes `gr` and every region kernel it feeds (they would read it back from outside: a cycle).
  static void dropWithDescendants(const Context& ctx, int source, std::set<int>& region, int gr) {
    if (gr == source || !region.count(gr)) return;
    std::vector<int> stack{gr};
    while (!stack.empty()) {
      int cur = stack.back();
      stack.pop_back();
      if (!region.erase(cur)) continue;
      for (NodeId m : ctx.plan->members(cur))
        for (ValueId v : ctx.graph.node(m).outputs) {
          if (v == kNoId) continue;
          for (NodeId c : ctx.graph.value(v).consumers) {
            int cg = ctx.plan->groupOf(c);
            if (cg != source && region.count(cg)) stack.push_back(cg);
          }
        }
    }
  }

  static int latestGroup(const Context& ctx, int source, const std::set<int>& region) {
    int best = source;
    NodeId last = -1;
    for (int gr : region)
      if (gr != source && ctx.plan->members(gr).back() > last) {
        last = ctx.plan->members(gr).back();
        best = gr;
      }
    return best;
  }

  // Shrinks the region until no intermediate leaks and no cycle runs through outside nodes.
  // Returns the reason for the first part it dropped (empty if nothing was dropped).
  static std::string prune(const Context& ctx, int source, std::set<int>& region) {
    const Graph& g = ctx.graph;
    const KernelPlan& plan = *ctx.plan;
    std::string first;
    for (bool changed = true; changed && region.size() > 1;) {
      changed = false;
      // 1. leaks: a value used inside and outside (or a graph output used inside)
      const std::vector<int> groups(region.begin(), region.end());
      for (size_t gi = 0; gi < groups.size() && !changed; ++gi)
        for (NodeId m : plan.members(groups[gi])) {
          for (ValueId v : g.node(m).outputs) {
            if (v == kNoId) continue;
            const Value& val = g.value(v);
            bool inside = false, outside = val.isGraphOutput;
            NodeId outsider = kNoId;
            for (NodeId c : val.consumers) {
              if (inRegion(ctx, region, c)) {
                if (plan.groupOf(c) != plan.groupOf(m)) inside = true;
              } else {
                outside = true;
                outsider = c;
              }
            }
            if (!inside || !outside) continue;
            if (first.empty())
              first = outsider == kNoId ? "'" + val.name + "' is a graph output"
                                        : "second consumer '" + g.node(outsider).name + "' of '" + val.name + "'";
            std::vector<int> readers;
            for (NodeId c : val.consumers)
              if (inRegion(ctx, region, c) && plan.groupOf(c) != plan.groupOf(m)) readers.push_back(plan.groupOf(c));
            const size_t before = region.size();
            for (int r : readers) dropWithDescendants(ctx, source, region, r);
            if (region.size() == before) {  // only the source reads it: the writer leaves instead
              if (plan.groupOf(m) != source) dropWithDescendants(ctx, source, region, plan.groupOf(m));
              else region = {source};
            }
            changed = true;
            break;
          }
          if (changed) break;
        }
      if (changed) continue;
      // 2. cycles: walk forward from the region through outside nodes (ids are topological, so
      //    nothing past the region's last node can lead back); an outside node feeding the region
      //    closes a cycle.
      NodeId last = 0;
      for (int gr : region) last = std::max(last, plan.members(gr).back());
      std::vector<char> seen(g.nodeCapacity(), 0);
      std::vector<NodeId> stack;
      auto push = [&](NodeId n) {
        for (ValueId v : g.node(n).outputs) {
          if (v == kNoId) continue;
          for (NodeId c : g.value(v).consumers)
            if (c < last && !seen[static_cast<size_t>(c)] && !inRegion(ctx, region, c)) {
              seen[static_cast<size_t>(c)] = 1;
              stack.push_back(c);
            }
        }
      };
      for (int gr : region)
        for (NodeId m : plan.members(gr)) push(m);
      size_t visited = 0;
      int culprit = -1;
      std::string via;
      while (!stack.empty() && culprit < 0) {
        NodeId n = stack.back();
        stack.pop_back();
        if (++visited > kReachCap) {
          culprit = latestGroup(ctx, source, region);
          via = "the region's surroundings are too large to prove acyclic";
          break;
        }
        for (ValueId v : g.node(n).outputs) {
          if (v == kNoId) continue;
          for (NodeId c : g.value(v).consumers)
            if (inRegion(ctx, region, c) && plan.groupOf(c) != source) {
              culprit = plan.groupOf(c);
              via = "would create a cycle through " + g.node(n).name;
              break;
            }
          if (culprit >= 0) break;
        }
        push(n);
      }
      if (culprit >= 0 && culprit != source) {
        if (first.empty()) first = via;
        dropWithDescendants(ctx, source, region, culprit);
        changed = true;
      }
    }
    return first;
  }

  static std::string labelFor(const Context& ctx, int source, const std::set<int>& region) {
    const KernelPlan& plan = *ctx.plan;
    const Graph& g = ctx.graph;
    std::string base = plan.label(source);
    bool cube = false;
    for (NodeId m : plan.members(source)) cube = cube || isCubeOp(g.node(m).opType);
    if (base.empty() && plan.members(source).size() == 1) base = lower(g.node(plan.members(source)[0]).opType);
    // One absorbed kernel lends its name (conv_hardswish); several make an "epilogue".
    std::string tail;
    for (int gr : region)
      if (gr != source) tail = plan.label(gr);
    if (region.size() != 2 || tail.empty()) tail = "epilogue";
    if (!cube) return base.empty() || base == "elementwise" ? (tail == "epilogue" ? "elementwise" : tail) : base;
    return base + "_" + tail;
  }
};

}  // namespace
std::unique_ptr<Rule> makeDagEpilogue() { return std::make_unique<DagEpilogue>(); }
}  // namespace fw::fusion::rules
