#pragma once
// The reference executor: runs a Model's graph on the CPU, float32 for every floating type and int64
// for every integer type, so that an original and a fused model can be compared on the same inputs.
//
// Control flow (If, Loop, Scan) runs its subgraphs; a node whose (domain, opType) names a model-local
// function (e.g. the fusion engine's `fwb.fused` kernels) runs the function body inline. An op the
// executor does not know fails with an error naming it — never a guessed answer.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/Model.h"
#include "core/util/Result.h"

namespace fw {

// What one run did, for tools that must know the path a model takes (the simulator times exactly
// that path) and the shapes it computed (values whose shape depends on data). Paths name a
// subgraph body as the fusion engine's scopes do: "<node>/<attribute>", nested with "/", so a
// control-flow node is keyed "If_25" at top level and "Loop_3/body/If_7" inside a body.
struct ExecTrace {
  struct ControlFlow {
    std::string opType;     // If, Loop, Scan
    int64_t runs = 0;       // times the node ran (more than once inside a loop body)
    int64_t thenRuns = 0;   // If: runs that took then_branch
    int64_t elseRuns = 0;   // If: runs that took else_branch
    int64_t trips = 0;      // Loop/Scan: body iterations over all runs
  };
  std::map<std::string, ControlFlow> controlFlow;
  bool recordShapes = false;  // fill `shapes`
  // "<path>|<value name>" ("|y" at top level) -> dims of the last tensor computed for the value;
  // names in `varying` changed shape between runs (inside a loop body).
  std::map<std::string, std::vector<int64_t>> shapes;
  std::map<std::string, DType> dtypes;  // same keys: the element type computed
  std::set<std::string> varying;
  // Same keys: each dim summed over the tensors computed for the value while their rank stayed that of the
  // first, and how many: a varying value's mean shape (a loop's carried tensor that grows by one row an
  // iteration is on average half its last; resolveShapes binds the mean).
  struct DimSums {
    std::vector<double> sum;
    int64_t count = 0;
    bool sameRank = true;
  };
  std::map<std::string, DimSums> dimSums;
  static std::string key(const std::string& path, const std::string& value) { return path + "|" + value; }
};

// Memory of one run (ExecOptions::stats). Counted: the numeric tensors the run computes (inputs and
// initializers are only read), each rounded up to 64 bytes.
struct ExecStats {
  int64_t livePeakBytes = 0;      // most bytes alive at once: the run's true peak in its node order
  int64_t reservedPeakBytes = 0;  // what they occupied: the arena when the run followed a plan,
                                  // else the live peak (heap buffers freed at last use)
  int64_t plannedBytes = 0;       // the arena planned for the next run on these shapes (0: none)
  int64_t allocations = 0;        // tensors allocated
  bool planned = false;           // the run took its buffers from a plan made by an earlier run
};

// Wall time per node of the model's main graph (ExecOptions::profile), for `fwb profile`. Each run
// appends one entry per top-level node it executes, in execution order; a control-flow node or a call
// of a model-local function (a `fwb.fused` kernel) is one entry holding everything it ran. While
// profiling, a top-level Relu is not folded into its producer as an epilogue, so every node of the
// main graph is timed on its own. Nothing is timed when the pointer is unset.
struct ExecProfile {
  struct NodeTime {
    NodeId node = kNoId;  // id in the main graph
    double startUs = 0;   // from the start of the main graph's node loop
    double us = 0;        // wall time of the node
  };
  std::vector<NodeTime> nodes;
  // Nodes of control-flow bodies (If branches, Loop/Scan bodies, nested), each summed over the times
  // its body ran in this run, in the order first run. A control-flow node's own time (in `nodes` or
  // here) includes its bodies'. Function bodies (fused kernels) are timed as their one node.
  struct BodyNodeTime {
    std::string path;  // "If_3/then_branch", as ExecTrace names bodies
    std::string node, opType, domain;
    double us = 0;
    int64_t calls = 0;
  };
  std::vector<BodyNodeTime> bodyNodes;
  std::unordered_map<std::string, size_t> bodyIndex;  // path + '\n' + node -> index in bodyNodes
  // Per body path, per position in its run order: the index in bodyNodes (SIZE_MAX until first run), so a
  // body run looks its path up once instead of building and hashing a key per node.
  std::unordered_map<std::string, std::vector<size_t>> bodySlots;
};

// Run plans (node order, the values each node releases, epilogues) kept between runs of one model. A caller that runs the
// same model many times (fwb profile) gives each run the same object, and the plans of the main graph,
// of its function bodies (fused kernels) and of its control-flow bodies are made once instead of in
// every run, where a body's plan was part of its node's time. The object holds the model's graph and
// function bodies alive, so Model::mutableGraph copies them rather than changing them; a run of any
// other model does not use it. Runs may share it concurrently.
class RunPlans;
std::shared_ptr<RunPlans> makeRunPlans();
size_t planCount(const RunPlans& p);  // plans made so far (one per graph and plan flags)

struct ExecOptions {
  int threads = 0;                 // 0 = all cores (std::thread::hardware_concurrency)
  bool keepIntermediates = false;  // RunResult::intermediates gets every computed value by name
  const std::atomic<bool>* cancel = nullptr;  // checked between nodes; a cancel is a BadInput error
  ExecTrace* trace = nullptr;      // filled when set (control-flow path, optionally shapes)
  // Resource limits; a run that exceeds one fails with a BadInput error naming the node.
  int64_t maxMemoryBytes = -1;     // largest single tensor; -1 = half of physical memory, 0 = none
  int64_t maxIterations = 1000000; // per Loop run; 0 = none
  double timeLimitSeconds = 0;     // whole run; 0 = none
  // Memory planning (core/exec/MemoryPlan.h): the first run on given input shapes records its
  // buffers' lifetimes, later runs place them in one arena planned from that record. false: every
  // tensor from the heap, freed after its last use (for comparison).
  bool reuseBuffers = true;
  ExecStats* stats = nullptr;      // filled when set
  ExecProfile* profile = nullptr;  // filled when set: wall time per top-level node
  std::shared_ptr<RunPlans> plans; // when set: run plans reused across runs of one model (above)
};
// For executables, first thing in main(): sets what the user has not set of
// - OMP_WAIT_POLICY=PASSIVE: oneDNN's OpenMP threads then block instead of spinning, so it may use the
//   executor's threads on a shared machine (core/exec/OneDnn.h);
// - GLIBC_TUNABLES=glibc.malloc.tcache_count=256: glibc's per-thread cache keeps 256 freed blocks of a
//   size instead of 7. Silero VAD's fused (-O2) profiled run took 82 us against 63 at -O0, with twice
//   the share of samples in glibc's _int_malloc (perf: 13.6 % against 6.0 %); with 256, 56-57 us at
//   both (docs/executor.md);
// and re-executes the program (libgomp and glibc read them at start). Returns only when nothing had to
// be done or the re-exec failed (then oneDNN stays single-threaded).
void setProcessEnvironment(char** argv);

// For executables, after setProcessEnvironment: glibc keeps tensor-sized blocks (up to 64 MB) in its heap
// and 128 MB of freed memory before trimming, so a run does not unmap each freed activation and fault
// in fresh zeroed pages for the next (PP-OCRv4 det at 640x640: fwb verify ~15% less wall time).
void tuneAllocatorForTensors();

// Half of the machine's physical memory: the default tensor budget.
int64_t defaultMemoryBudget();

struct RunResult {
  std::vector<Tensor> outputs;                   // graph output order
  std::map<std::string, Tensor> intermediates;   // only with keepIntermediates
};

// Inputs in graph input order (runtime inputs only; initializers are the model's own).
Result<std::vector<Tensor>> runGraph(const Model& model, const std::vector<Tensor>& inputs,
                                     const ExecOptions& opts = {});
// A graph input or output that need not be a tensor: a sequence of tensors (ONNX SequenceProto) or an
// optional without a value (OptionalProto with no element). An optional holding a tensor or a
// sequence is given and returned as that tensor or sequence.
struct RunValue {
  enum class Kind { Tensor, Sequence, None };
  Kind kind = Kind::Tensor;
  Tensor tensor;                      // Kind::Tensor
  std::vector<Tensor> items;          // Kind::Sequence
  DType elemType = DType::Undefined;  // Kind::Sequence / None: the element type, when known
  static RunValue of(Tensor t) {
    RunValue v;
    v.tensor = std::move(t);
    return v;
  }
};
// runGraph for graphs whose inputs or outputs are sequences or optionals.
Result<std::vector<RunValue>> runGraphValues(const Model& model, const std::vector<RunValue>& inputs,
                                             const ExecOptions& opts = {});
// Inputs by name; graph inputs that are also initializers may be omitted (their default is used).
Result<RunResult> runGraphNamed(const Model& model, const std::map<std::string, Tensor>& inputs,
                                const ExecOptions& opts = {});

// Runs one node of `g` alone on constant inputs: `constantOf(v)` gives the data of each non-omitted
// input (null: not constant, an error). Outputs in node output order, omitted ones skipped. Used by
// constant folding and by the partial evaluation of shape arithmetic.
Result<std::vector<Tensor>> evalNode(const Model& model, const Graph& g, const Node& n,
                                     const std::function<const Tensor*(ValueId)>& constantOf);
// What a Shape node (its start/end attributes) or a Size node computes for a value of shape `dims`.
Tensor shapeNodeValue(const Node& n, const std::vector<int64_t>& dims);

// Is the op known to the executor (ai.onnx domain)?
bool isOpSupported(const std::string& opType, const std::string& domain = "");
// All ai.onnx op types the executor implements, sorted.
std::vector<std::string> supportedOps();
// Op types in the model (graph, subgraphs, function bodies) that the executor can neither run nor
// resolve as a model function; "domain:op" for non-default domains. Sorted, unique.
std::vector<std::string> unsupportedOps(const Model& model);

// Arena plans kept idle between runs (MemoryPlan.h): at most 4 by default, within 1/8 of physical
// memory. Code that runs many small graphs in turn and times each once warm (fwb calibrate's rounds)
// raises the count for a scope: a graph whose plan was dropped records again on its next run, the
// recording run hands the freed heap back to the system, and the runs after it take page faults.
class IdleArenaLimit {
 public:
  explicit IdleArenaLimit(size_t plans);
  ~IdleArenaLimit();
  IdleArenaLimit(const IdleArenaLimit&) = delete;
  IdleArenaLimit& operator=(const IdleArenaLimit&) = delete;

 private:
  size_t previous_;
};

// Seeded inputs for every runtime graph input: floats uniform in [-1, 1]; integer inputs in [0, 100),
// bounded by the first dim of a table they index through Gather; a scalar integer the graph
// compares with a constant (Equal(sr, 16000)) takes that constant; inputs named like masks get 1; bools
// are true. A symbolic or unknown dim is an error asking for --input-shape.
Result<std::vector<Tensor>> randomInputs(const Model& model, uint64_t seed);

}  // namespace fw
