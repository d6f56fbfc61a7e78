#pragma once
// Internal to simulator/HostCalibration*.cpp: the microbenchmark harness of `fwb calibrate`. A bench is a
// small graph of independent one-node chains run through the reference executor with its per-node
// profile; each node's time is one sample.
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "core/ir/Attribute.h"
#include "core/ir/Model.h"

namespace fw::sim::hostbench {

double median(std::vector<double> v);
std::string procField(const char* file, const char* key);  // "key: value" line of a /proc file
std::string today();                                        // YYYY-MM-DD, UTC
std::string fmt(const char* f, double v);
std::string bytesStr(double b);

struct Bench {
  fw::Model model;
  std::vector<fw::Tensor> inputs;
  fw::NodeId node = fw::kNoId;  // the node whose cost figures (FLOPs, elements) are used
  // Time only `node` (the other nodes prepare its operands); otherwise every node is a sample (copies).
  bool onlyNode = false;
};

// The median wall time of one node over `repeat` runs after `warmup` runs.
fw::Result<double> timeNode(const Bench& b, int threads, int warmup, int repeat);
// The median wall time of each bench's timed node, measured in `rounds` rounds that each time every
// bench in turn (`repeat` runs each, after `warmup` runs, at least two, in every round): a few seconds
// in which the shared machine runs slower move a minority of each bench's rounds, and the median over
// the rounds leaves them out, where timing each bench in one block would move all of a few benches'
// figures. Every round warms up again because the executor keeps only a few idle buffer arenas
// (MemoryPlan.h): back on a bench after the others, its first run records its buffers and its second
// allocates a fresh arena. With one warm-up run a round, a 3x3 Conv 3->16 stride 2 at 320x320 timed
// 971 us against 366 us once warm (and 1x1 Conv 16->32 at 160x160 903 against 344). A caller that
// wants every round warm keeps the arenas for its scope (IdleArenaLimit, core/exec/Executor.h), as the
// matrix-op grids do.
fw::Result<std::vector<double>> timeNodesInRounds(const std::vector<const Bench*>& benches, int threads, int warmup,
                                                  int repeat, int rounds);
// The benches' timed nodes as one network, one after another in the given order, each on its own input
// and weights: what a kernel meets in a model run (the kernels before it have passed their data through
// the caches since its own were last touched).
Bench sequenceOf(const std::vector<Bench>& parts);
// The median over `repeat` runs (after `warmup`) of a run's wall time outside its nodes (the run's time
// less its nodes' times), the run timed as fwb profile times one (run plans kept, every node timed).
fw::Result<double> timeOutside(const Bench& b, int threads, int warmup, int repeat);
// The median wall time of every node of a bench over `repeat` runs after `warmup` runs, in node order.
fw::Result<std::vector<double>> timeNodes(const Bench& b, int threads, int warmup, int repeat);
// Values like a network's activations: both signs, unpredictable, around `v0`.
fw::Tensor filled(std::vector<int64_t> dims, float v0);
// One op on input x[dims] (plus initializers), `copies` times on the same input; each call has `outputs`
// outputs (a Split's parts).
Bench oneOpOn(const std::string& op, fw::Tensor x, const std::vector<fw::Tensor>& weights,
              fw::Attributes attrs, int copies, fw::DType outType, int outputs = 1);
// The same on a float input filled like activations.
Bench oneOp(const std::string& op, const std::vector<int64_t>& dims, const std::vector<fw::Tensor>& weights,
            fw::Attributes attrs, int copies);

// `copies` chains of Relu then Neg on a 16-element input: as plain nodes (every node one sample) or,
// `asCalls`, each chain the body of a model-local function called once (every call one sample), as
// `fwb fuse` exports a fused kernel: the two time a call of a fused body against its members run alone.
Bench reluNegPairs(int copies, bool asCalls);

struct OpFigures {
  double flops = 0, elems = 0, bytes = 0;
  double work = 0;  // cpuVectorWork (CpuCost.h): what a vector op's efficiency is measured on
};
// Resolves the bench graph's shapes (stored into b.model) and returns the timed node's cost figures.
fw::Result<OpFigures> figuresOf(Bench& b);

}  // namespace fw::sim::hostbench
