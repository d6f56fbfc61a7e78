#pragma once
// Cost of one kernel on a CPU profile (HwProfile::kind == Cpu, written by `fwb calibrate`): the
// reference executor runs a kernel's members one after another, each as its own library call, so a
// kernel costs the sum over its members of a roofline
//
//     member = max(work / (peak × efficiency),  dram_bytes / dram_bw + cached_bytes / cache_bw)
//     kernel = Σ members + launch_us × (members that run)
//
// with work = FLOPs for the cube family (Conv at the measured convolution rate, grouped/depthwise Conv
// at the grouped rate when the profile has one, everything else at
// the GEMM rate) and max(FLOPs, elements) for the vector families (a pool: the taps of the executor's
// one-dim-at-a-time passes, cpuVectorWork), the efficiency of the op type when
// the profile measured it (cpu.op_efficiency; plus what its fixed cost a call, cpu.op_call_s, exceeds
// launch_us, and a Softmax's, LogSoftmax's, LayerNormalization's or row-moving Transpose's rows times
// cpu.op_row_s), else of its family; and cache-aware traffic: of a
// member's activations (inputs + outputs) the part that fits the last-level cache (l2_bytes) passes
// from the kernel before it through the cache and moves at the cache bandwidth (the profile's measured
// bandwidth curve at that footprint, when it has one); the rest, and the
// weights (read once per run, with the whole run's data in between; a weight several nodes read is
// charged to each by its share) as far as the run has evicted them (coldShare, below), are charged at
// DRAM bandwidth.
// A matrix op whose kind has a shape model in the profile (cpu.cube_time_models, CpuCubeModel.h) takes
// that model's time as its compute time instead of FLOPs / (rate × efficiency). The model was timed with
// the op's data in cache (one node a bench, warm); in a run its weights and output buffer were last
// touched a run ago. With a measured cost of cold data (cpu.cold_bandwidth_bytes_per_s: the same shapes
// run as one network against alone, fitted on their input + weight + output bytes) it adds
// coldShare × (input + weights + output) / cold_bandwidth, where coldShare = 1 - (the core's own
// cache) / (the run's footprint) (a tiny model stays in cache between runs); without one, its weights at
// DRAM bandwidth. A Conv or ConvTranspose on oneDNN's blocked layout whose weight the run computes (not
// held across runs: storedAcrossRuns, CpuCubeModel.h) also pays that weight's reorder on every call
// (cpu.weight_reorder: a call cost and a bandwidth, measured).
// No cube fractals, no Unified Buffer, no pipeline.
#include <optional>
#include <string>
#include <vector>

#include "simulator/KernelBoundary.h"

namespace fw::sim {

// What each node of a run finds in the core's own cache, from the run's order (`order` runs the groups,
// each group its members in turn; the run taken as repeating, so a node's first pass counts from the run
// before). A distance is the distinct bytes of memory the nodes in between read or write, at most
// `runFootprint`: a weight or an input is its own bytes, an activation the bytes of its buffer in the
// executor's arena (planArena over the run: values that live at different times share bytes), a view its
// input's.
struct CpuRunReuse {
  // By NodeId (0 for nodes the groups do not run): how cold the node's call is (cpu.cold_call_s): the
  // distance since its code last ran, over the bytes the calibration's cold call had in between
  // (coldCallEvictElems), at most 1. A matrix op runs the library's primitive for its shapes, which every
  // layer of those shapes shares (a run ago when no other layer has them); any other op its type's loop. A
  // LayerNorm's tiny Add of the variance and eps runs a few nodes after the last Add: its call is hot
  // (bert_lite: 1.1 us measured, 2.3 simulated at the whole run's cold share). A vector op's share is at
  // least the bytes the node before it touched over twice the own cache: a node that streams that much
  // evicts the executor's own state too (session 35).
  std::vector<double> callColdShare;
  // By NodeId, for a vector op: the two parts of its callColdShare apart: its own loop's distance since
  // its type last ran (codeColdShare) and the executor's state evicted by the node before (stateColdShare).
  // For a library product: the distance since a product of its op type last ran (codeColdShare: the code
  // they share) and its own primitive's, its callColdShare (stateColdShare), priced by cold_call_s
  // "product" and "product/primitive" (session 40).
  // A profile that times the first on its own (cold_call_s "code") charges each its own figure: a rare
  // op's call whose loop a layer's traffic evicted, the node before it a tiny one, costs far less than a
  // call after a node that streamed (session 39: a one-element Sqrt 0.17 us in a row, 0.5-1.0 after a Neg
  // over 4 MiB and a tiny Add, 2.4-4.2 right after the Neg).
  std::vector<double> codeColdShare, stateColdShare;
  // By NodeId: the distance that cpu.cold_call_curve (HwProfile.h) prices the node's call at, at most the
  // run's footprint: for a library product the distinct bytes since a product of its op type last ran (the
  // code they share: a 4x16x4 MatMul took 56-71 us after a Neg over 64 MiB and a tiny op, 8-9 after 4 MiB;
  // 7 after the Neg and a MatMul of other shapes), for any other op those since the node before it (not a
  // view) began, which evicted the executor's state (a one-element Add 19 us right after the 64 MiB Neg,
  // a Sigmoid after a tiny op and a MatMul 5.5-7.2 us, 2.4 after 4 MiB; session 42).
  std::vector<double> callDistance;
  // By NodeId, for a vector op: the distinct bytes since its op type last ran, at most the run's footprint,
  // which cpu.cold_call_curve's "code" prices its own loop at (a rare op's code beyond the last-level cache:
  // a one-element ReduceSum after a tiny op, its type last run 32 MB before, 2.9 us; session 78).
  std::vector<double> codeDistance;
  // By NodeId: the distinct bytes since the node itself last ran (a run for a node outside loops, an
  // iteration's for a body's), which cpu.cold_call_curve's "node" prices a vector op's own tensors and
  // bookkeeping at (session 79: a detector's transform's tiny nodes 0.20 us alone, 0.54 with 64 MB streamed
  // elsewhere in the run).
  std::vector<double> nodeDistance;
  // By NodeId: the bytes of the node's activation inputs (not weights) that the run has evicted from the
  // core's own cache since they were last read or written: of a value no larger than that cache, the
  // share of its bytes by which its distance since then and its own bytes exceed it (its bytes were
  // touched in order, so its first ones are the farthest). A transformer's residual Add reads the block's
  // input, written a whole attention or MLP before (gpt_blocks: 30 us measured over 2 x 196 KB, 13 simulated
  // from cache).
  std::vector<double> farInputBytes;
  // By NodeId: the seconds a byte of farInputBytes takes at the copy's bandwidth (cpu.bandwidth_curve) for
  // the footprint of its distance since last touched (its own bytes included), their bytes' mean; 0 with
  // none. The cost model charges what that takes more than the op's own footprint's rate (session 71: an
  // EfficientNet's residual Add read its block's input, 90 KB written several MB before, from DRAM on a
  // VM whose last-level cache was 2.5 MiB: 7.8 us measured, 4.0 simulated at that cache's rate).
  std::vector<double> farInputSPerByte;
  // By NodeId: for an op on the executor's own loop, the bytes of its outputs no
  // larger than the core's own cache that it writes over arena bytes (the executor's plan, MemoryPlan.h)
  // last touched further back than sqrt(own cache x last-level cache): each 64 KiB chunk whose distance
  // (what its last toucher streamed after it, what the run touched since, and the output's bytes before
  // it) exceeds that. They come in before they are written, as an evicted input does (a TCN's causal
  // Slice, x[..., :-2] after each Conv: 42 us measured, 25 simulated without them). For a library product
  // (MatMul, Gemm, Conv on oneDNN), the same bytes beyond the own cache itself, as its inputs count
  // (farInputBytes); the cost model prices a MatMul's or Gemm's output by them (session 40).
  std::vector<double> evictedOutputBytes;
  // By NodeId: the bytes of the node's activations larger than the core's own cache, each weighted by its
  // share of the tier beyond the last-level cache (cpu.far_curve) at its distance; 0 without a far_curve.
  // An output's distance is that of the arena bytes it is written over (the executor's plan, MemoryPlan.h),
  // not of the value: a transformer's layers write each output over the last layer's (near), a ResNet's
  // first stage over bytes a whole run of 60 MB ago (far: SE-ResNet's stem, 3 -> 64 channels at 64x64,
  // batch 8, took 4.3 ms in the network and 1.9 alone). A Conv on oneDNN's layout also counts its output
  // in the executor's staging buffer, which every such Conv reuses from its start (OneDnn.cpp: staged). A
  // matrix op counts its weights larger than the own cache too, each by the share at its distance since its
  // last read (session 70). A Slice or gather counts what it reads of its data, its output's worth.
  std::vector<double> farBytes;
  // By NodeId: the part of farBytes that is the matrix op's weights. A product whose arithmetic and weight
  // stream take turns (cpu.product_stream_share) pays it only for the share of the stream's time in its
  // arithmetic's, at most all: while the arithmetic is longer, the far reads go under it (costCpuKernel).
  std::vector<double> weightFarBytes;
  // By NodeId: the least time the node's weight reads take, each weight's bytes at the profile's weight
  // stream (cpu.weight_stream_curve) for its reuse distance: the distinct bytes the run touched since the
  // weight's last read, plus its own (a weight read once a run is a run away, one that the steps of an
  // unrolled network share is a step away); 0 without a curve. (A [2, 512] x [512, 2048]^T Gemm's 4.2 MB
  // weight streamed at 81 GB/s alone, 51 GB/s with 42 MB of other weights between its reads, session 55's
  // AMD EPYC; Tacotron's decoder cells read theirs 12 times a run, 18 MB apart.)
  std::vector<double> weightStreamS;
  // By NodeId: the same with each distance at most the one cpu.product_stream_share was measured at (the
  // stream a product's arithmetic hides in part); weightStreamS less this is the stream from further away,
  // which no arithmetic hides. weightStreamS without that curve.
  std::vector<double> weightStreamNearS;
  // By NodeId: the reuse distance of its largest weight's read (what the share of a product's stream that its
  // arithmetic does not hide is taken at: cpu.product_stream_share_far); 0 without a weight.
  std::vector<double> weightStreamDistance;
  // By NodeId: a Gather's (cpu.cold_gather prices its picks from a model's table) distance since its table's
  // rows were last read: the distinct bytes the run touched since, plus the rows it picks, at most the run's
  // footprint (what cpu.cold_gather's near and far figures are interpolated at); 0 for any other node.
  std::vector<double> gatherDistance;
};
CpuRunReuse cpuRunReuse(const Graph& g, const std::vector<KernelGroup>& groups,
                        const std::vector<size_t>& order, const HwProfile& hw, double runFootprint);

// `runFootprint`: bytes the whole run touches (runFootprintBytes of the graph the kernel is in).
// `reuse` (optional: cpuRunReuse of the run): each member's call's cold share and the inputs it reads
// from beyond the own cache; without it, coldShareOf(runFootprint) for every call and every input from
// the cache.
Result<KernelCost> costCpuKernel(const Graph& g, const KernelGroup& group, const HwProfile& hw,
                                 std::vector<std::string>* warnings, double runFootprint,
                                 const CpuRunReuse* reuse = nullptr);
// Integer shape work the executor runs between kernels (a node graph mode leaves on the host, Simulator.cpp):
// its call (cpu.op_call_s of its op type, else the launch figure) and, by its call's cold share (`reuse`,
// else coldShareOf the run), cpu.cold_call_s "shape", or the cold_call_curve "node" at the distance since
// the node last ran (`reuse`) where that is more. Nothing when the profile has no "shape" figure.
std::optional<double> cpuShapeWorkSeconds(const Graph& g, NodeId id, const HwProfile& hw, double runFootprint,
                                          const CpuRunReuse* reuse = nullptr);
// What a gather reads of its data input (input 0), beside its whole size: a Gather or GatherND the rows it
// picks (its output's bytes); a GatherElements the cache lines its picks land on, each pick an element
// anywhere along its axis. Its picks of an output row along the last axis share the source row's lines (16
// of a row of 256 floats touch 10 of its 16 lines); along another axis they spread over their block of the
// axes before it. Never more than the whole input, nor less than the output (a DGCNN's 16 neighbours a
// point from a 33 MB expanded tensor: 2 MB picked, some 21 MB of lines; 1.6 ms measured alone, 0.33 ms
// simulated on the picked bytes, session 38). -1 for any other op.
double gatherReadBytes(const Graph& g, const Node& n, const HwProfile& hw, NodeId id);
// The work of a vector-family node on the executor, in the units its efficiency is measured in:
// max(FLOPs, elements), except for a MaxPool without indices or an AveragePool, which the executor
// pools one spatial dim at a time (core/exec/ops_pool.cpp): the taps those 1-D passes read, or the
// output's elements if more, and a TopK, whose input's elements each pass once (its insertions are its
// rows, rowWiseRows), and a scatter: its updates' writes, and with `scatterCopyApart` false (a profile
// that did not time a ScatterElements's rows, scatterCopyApart below) its data's copy too, counted as that
// many writes. fwb calibrate measures the efficiency on the same figure.
double cpuVectorWork(const Graph& g, const Node& n, double flops, double elems, bool scatterCopyApart);
// Whether a profile prices a ScatterElements's data copy apart from its updates (it timed the scatter's
// rows, cpu.op_row_s "ScatterElements", as fwb calibrate does since session 79): the copy at the copy's
// bandwidth (scatterCopySeconds), the updates at the op's efficiency. An older profile fitted one rate on
// the copied elements and the updates together.
bool scatterCopyApart(const CpuFigures& cpu);
// The seconds a ScatterElements's copy of its data (`dataBytes`) takes before its updates are written
// (core/exec/ops_gather_scatter.cpp: cloneOf): read and written at the copy's bandwidth for that
// footprint.
double scatterCopySeconds(double dataBytes, const CpuFigures& cpu);
// The elements a Resize from `in` to `out` writes, pass by pass as the executor runs it (an axis at a time,
// the last axis first when it upsamples); 0 when no axis changes or a shape is unknown.
double resizePassElems(const std::optional<std::vector<int64_t>>& in,
                       const std::optional<std::vector<int64_t>>& out);
// The bytes a run of g touches on the device: its weights and the peak of its live values in node order
// (the executor frees a value after its last use and reuses its bytes).
double runFootprintBytes(const Graph& g, const HwProfile& hw);
// The cache a core has to itself: the first of the measured copy bandwidth's drops past 256 KiB (0: none).
double ownCacheBytes(const std::vector<int64_t>& cacheDrops);
// The share of a kernel's weights and output that a run of this footprint has evicted since they were
// last touched: 1 - (the core's own cache) / footprint, clamped to [0, 1].
double coldShareOf(const HwProfile& hw, double footprintBytes);
// The elements of the Neg that fwb calibrate runs between tiny ops to time a cold call (cpu.cold_call_s),
// on a core whose own cache holds `ownCacheBytes`: it reads and writes 8 bytes an element.
int64_t coldCallEvictElems(double ownCacheBytes);
}  // namespace fw::sim
