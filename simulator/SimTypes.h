#pragma once
// The simulator's plain structs: a kernel grouping in, options, and the timed schedule out
// (KernelGroup, SimOptions, KernelTiming, SimResult). simulator/Simulator.h includes it and declares
// simulate(); the files simulate() is made of (schedule, cost, control flow, memory) include only this.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "core/ir/Graph.h"
#include "core/util/Result.h"

namespace fw::sim {

struct KernelGroup {
  KernelGroup() = default;
  KernelGroup(std::string n, std::vector<NodeId> m, std::vector<std::string> o = {})
      : name(std::move(n)), members(std::move(m)), origins(std::move(o)) {}

  std::string name;
  std::vector<NodeId> members;       // node ids of the graph passed to simulate()
  std::vector<std::string> origins;  // optional: names of the imported model's nodes this kernel
                                     // stands for (when the graph was rewritten); for comparisons
};

enum class SimMode { Graph, Eager };
enum class Unit { None, Cube, Vector, CubeVector };  // None: a view, no device kernel
enum class Bound { None, Compute, Memory, Launch, Host };

const char* unitName(Unit u);    // "none", "cube", "vector", "cube+vector"
const char* boundName(Bound b);  // "none", "compute", "memory", "launch", "host"
const char* simModeName(SimMode m);

// Which branch of an If is timed. Trace: the branch the traced run took (ExecTrace, from the
// reference executor on the seeded sample inputs); Then/Else: always that branch; Max: the slower.
enum class ControlFlowPolicy { Trace, Then, Else, Max };
const char* controlFlowPolicyName(ControlFlowPolicy p);  // "trace", "then", "else", "max"
Result<ControlFlowPolicy> parseControlFlowPolicy(const std::string& s);

struct SimOptions {
  SimMode mode = SimMode::Graph;
  int64_t batch = 1;  // samples per run, for throughput (the graph's shapes already carry it)
  // Control flow (If/Loop/Scan): the simulator times the body kernels of the path that would run,
  // named "<scope>/<kernel>" (scope as in ExecTrace: "If_3/then_branch"). Loop/Scan trip counts come
  // from the trace, else from a constant trip count / the scanned input's static length.
  ControlFlowPolicy controlFlow = ControlFlowPolicy::Trace;
  const ExecTrace* trace = nullptr;
  // Kernel groups of each body by scope; a body without an entry runs one kernel per node.
  const std::map<std::string, std::vector<KernelGroup>>* bodyGroups = nullptr;
};

// One kernel of the schedule. Cycle fields are integers at the profile's clock (exact for tests);
// the *_us fields are the same times in microseconds.
struct KernelTiming {
  std::string name;
  std::vector<NodeId> members;
  std::vector<std::string> ops;    // op type per member, in member order
  std::vector<std::string> nodes;  // node name per member
  std::vector<std::string> origins;  // original node names (KernelGroup::origins, else `nodes`)
  Unit unit = Unit::None;
  Bound bound = Bound::None;
  double startUs = 0, durUs = 0;   // device time on the stream (includes launch)
  double flops = 0;                // useful FLOPs (nodeCost), no padding
  double hbmBytes = 0;             // everything that crosses HBM: inputs, weights, outputs, re-reads, spill
  double weightBytes = 0, inputBytes = 0, outputBytes = 0, rereadBytes = 0, spillBytes = 0;
  int64_t cubeCycles = 0, vectorCycles = 0, transferCycles = 0, fillCycles = 0, launchCycles = 0;
  int64_t cycles = 0;              // device cycles of this kernel, launch included
  int64_t startCycle = 0;
  int64_t tilesPerCore = 1;        // pipeline depth used for the double-buffer fill term
  int64_t workingSetBytes = 0;     // UB bytes of the smallest vector tile (0 for pure cube kernels)
  bool spilled = false;            // working set exceeded UB: pays spill traffic
  double hostDispatchUs = 0;       // eager mode: host time to dispatch this kernel's operator
  std::string scope;               // subgraph body it runs in ("If_3/then_branch"), "" at top level
  int64_t repeats = 1;             // loop bodies: iterations folded into this row (times are totals)
  // A cpu profile: distinct bytes the run touched since this kernel's (first member's) node last ran
  // (CpuRunReuse::nodeDistance; a loop body's: a trip), which prices the executor's time outside it
  // (CpuFigures::outsideNodeSeconds).
  double nodeDistanceBytes = 0;
};

struct SimResult {
  std::string hwName;
  double peakFlops = 0;     // FLOP/s
  double hbmBandwidth = 0;  // B/s
  SimMode mode = SimMode::Graph;
  int64_t batch = 1;
  double latencyUs = 0;
  int64_t latencyCycles = 0;
  double throughput = 0;    // samples/s
  double hbmBytes = 0;
  double weightBytes = 0;   // device bytes of all weights
  double peakActivationBytes = 0;
  double peakMemoryBytes = 0;  // weights + activation peak
  double launchShare = 0;   // share of latency spent on launches and waiting for host dispatch
  double flops = 0;
  // A cpu profile with run_overhead: the executor's time outside its nodes in this run (per run, per
  // node run, per initializer, per byte of graph inputs and outputs), inside latencyUs, in no kernel.
  double runOverheadUs = 0;
  std::vector<KernelTiming> kernels;  // in schedule order
  std::vector<std::string> warnings;
  std::vector<std::string> controlFlowNotes;  // "If_3: then_branch (trace)", "Loop_2: 16 trips (trace)"
};

}  // namespace fw::sim
