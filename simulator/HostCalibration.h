#pragma once
// `fwb calibrate`: measure this machine with microbenchmarks on the reference executor and describe it as
// a hardware profile of kind "cpu" (CpuCost.h says how the simulator uses one). Every figure is measured
// here; each profile field's note says how.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/util/Result.h"
#include "simulator/CpuCubeModel.h"
#include "simulator/HwProfile.h"

namespace fw::sim {

struct CubeModelFit {
  CubeTimeModel model;
  std::string cases;                                  // "shape us; shape us; ..." as timed
  std::vector<std::pair<std::string, double>> rates;  // shape, FLOP/s
};

// The executor's time outside its nodes in one run of a chain of tiny Adds (HwProfile.h,
// CpuFigures::RunOverhead), with what the chain has.
struct RunOverheadSample {
  double nodes = 0, initializers = 0, ioBytes = 0, us = 0;
  double copyUs = 0;  // one copy of each output (and converted input) at the copy bandwidth (copySeconds)
};
// us - copyUs = s_per_run + s_per_node * nodes + s_per_initializer * initializers + s_per_io_byte * ioBytes
// fitted to the samples (non-negative least squares on error relative to us). Bad input: fewer than 4
// samples, or a time <= 0.
Result<CpuFigures::RunOverhead> fitRunOverhead(const std::vector<RunOverheadSample>& samples);
struct RunOverheadFit {
  CpuFigures::RunOverhead overhead;
  std::string how;  // "nodes/initializers/io KiB us (model us); ..."
};
// What a Conv pays on each call for a weight the run computes, beyond the same Conv on a model's weight:
// oneDNN's reorder of the weight into its blocked layout (a model's weight is reordered once and kept).
struct WeightReorderFit {
  double callS = 0, bytesPerS = 0;  // 0, 0 when no shape paid for it (CpuFigures::WeightReorder)
  std::string how;                  // "shape weight-KiB plain-us computed-us; ..."
};
struct WeightReorderSample {
  double weightBytes = 0, plainUs = 0, computedUs = 0;  // the same Conv on a model's and on a computed weight
};
// computedUs - plainUs = s_per_call + weightBytes / bytes_per_s, fitted (non-negative least squares on
// relative error) to the shapes whose computed weight was slower; 0, 0 when fewer than two were. Bad
// input: a time or a size <= 0 or not finite.
Result<CpuFigures::WeightReorder> fitWeightReorder(const std::vector<WeightReorderSample>& samples);
// A Gather's picks from a table in DRAM against the same picks from cache (HwProfile.h: cold_gather).
struct ColdGatherSample {
  double picks = 0, bytes = 0, coldUs = 0, hotUs = 0;  // bytes: the rows picked
};
// coldUs - hotUs = picks * s_per_row + bytes * s_per_byte, fitted (non-negative least squares on relative
// error) to the samples whose cold time was longer; 0, 0 when fewer than two were. Bad input: a count, a
// size or a time <= 0 or not finite.
Result<CpuFigures::ColdGather> fitColdGather(const std::vector<ColdGatherSample>& samples);
struct HostMeasurement {
  std::string cpu;
  int threads = 1;
  double clockHz = 0, memBytes = 0;
  double overheadUs = 0;
  double viewCallUs = 0;  // a Reshape's time a node (HwProfile.h: view_call_s)
  double fusedCallUs = 0;  // a fused body's call beyond its members' time (HwProfile.h: fused_call_s)
  double coldCallUs = 0, coldProductCallUs = 0, coldPrimitiveCallUs = 0, coldCodeCallUs = 0,
         coldShapeCallUs = 0;                // a call with its cache evicted, more (HwProfile.h: cold_call_s)
  std::vector<CpuFigures::ColdCallPoint> coldCallCurve;  // HwProfile.h: cold_call_curve (seconds)
  std::string coldCurveHow;
  std::map<std::string, double> coldCodeUs;  // by op type: its loop alone cold, more ("code/<op type>")
  std::string coldCallHow;
  std::vector<std::pair<double, double>> farCurve;       // HwProfile.h: far_curve (measureFarTier)
  std::vector<std::pair<double, double>> farCurveVector;  // HwProfile.h: far_curve_vector (the Relu's alone)
  double farProductSPerByte = 0, farVectorSPerByte = 0;  // HwProfile.h: far_s_per_byte
  std::string farHow;
  double farPointwiseSPerByte = 0;  // far_s_per_byte's "pointwise" (HwProfile.h)
  std::string farPointwiseHow;
  // The machine's speed at the calibration's start and end (simulator/SpeedProbe.h): HwProfile.h's
  // speed_probe_us is their midpoint.
  SpeedProbe probeStart, probeEnd;
  std::vector<std::pair<double, double>> weightStream;  // HwProfile.h: weight_stream_curve
  std::string weightStreamHow;
  // MatMul [R, 512] x [512, 2048] by rows R, each cycled over 16 copies of its 4 MiB weight: the median node
  // time less the per-kernel overhead (us); hostProfile makes product_stream_share of them.
  std::vector<std::pair<int64_t, double>> productStreamUs;
  // The same on 16 MiB weights, MatMul [R, 512] x [512, 8192] (product_stream_share_far); empty where the
  // memory is short.
  std::vector<std::pair<int64_t, double>> productStreamFarUs;
  CpuFigures::ColdGather coldGather;  // a Gather's picks from DRAM, more (measureColdGathers)
  std::string coldGatherHow;
  double gemmFlops = 0, convFlops = 0;
  double groupedFlops = 0;  // depthwise convolutions: oneDNN's rate differs by an order of magnitude
  std::string gemmShape, convShape, groupedShape;
  std::vector<std::pair<size_t, double>> copy;  // buffer bytes -> bandwidth
  std::vector<std::pair<size_t, double>> stream;  // tensor bytes -> a Relu chain's bytes moved a second
  std::vector<int64_t> drops;                   // footprints where the bandwidth drops
  double cubeEff = 1;                           // median rate / peak over the GEMM and Conv cases
  std::map<std::string, double> opEff;          // per op type measured (median over its cases)
  std::map<std::string, double> opCallUs;       // per op type: its time on a tiny tensor
  std::map<std::string, double> opRowUs;        // per row-wise op type: its time a row (rowCases())
  std::string cubeCases;
  double llcBytes = 0, cacheBw = 0, dramBw = 0;
  double coldBw = 0;  // matrix ops in a network against alone (measureColdCost)
  WeightReorderFit weightReorder;  // a Conv's computed weight (measureWeightReorder)
  int64_t positionBlock = 1;  // pointwise Conv: positions computed in whole blocks of (measurePositionBlock)
  std::string positionHow;
  int64_t channelBlock = 1;  // dense Conv, ConvTranspose: output channels in whole blocks of (measureChannelBlock)
  std::string channelHow;
  std::string coldHow;
  RunOverheadFit runOverhead;
  std::string llcHow;
  struct Family {
    std::string key, op;  // op: what was run, with its time and efficiency
    double us = 0, work = 0, eff = 0;
  };
  std::vector<Family> families;
  std::map<std::string, CubeModelFit> cubeModels;  // per kind of matrix op (CpuCubeModel.h)
};

// The footprints (source + destination) where a streaming copy's bandwidth drops from one cache level to
// the next, from `copy` (buffer bytes -> bandwidth, sizes ascending): a level begins where the bandwidth
// stays under 70 % of the level before's (the median over its sizes); its boundary is where the bandwidth
// falls 10 % under the level before's, that level's end (interpolated on log size).
std::vector<int64_t> cacheDrops(const std::vector<std::pair<size_t, double>>& copy);
// Which of `drops` is the last-level cache: the first boundary at 4x the core's own cache (CpuCost.h:
// ownCacheBytes) or more, else the last (a boundary nearer is the own cache's fall split over two sizes:
// 0.75 and 1.49 MiB with the L3's at 14.5 in one calibration of session 50). A tier beyond it (on a shared VM
// the copy bandwidth falls a second time at 62-74 MiB footprints in 3 of 14 calibrations, 16-21 MiB the
// others) is the far tier's (cpu.far_curve): taking it would move the cache bandwidth and what the cold
// Gather is measured after from one calibration to the next. -1 when there is no boundary.
int lastCacheLevel(const std::vector<int64_t>& drops);
// The batch of the far tier's Conv and the multiple of 8 MiB of its Relu (measureFarTier): the least power of
// 2 (at most 64, and halved while the ops' buffers, about 5 x 8 MiB a scale, pass an eighth of `memBytes`)
// whose 8 MiB reach 1.5 times the core's own cache, so that the bytes the cost model counts
// (CpuRunReuse::farBytes: an activation larger than the own cache) are the ones timed. (Session 61's VM
// found its own cache at 8.4-8.5 MB in 2 of 3 calibrations: the 8 MiB ops counted no byte, and the tier's
// measured excess, a Relu 445 us alone and 706 after a Neg over 128 MiB, was written as 0 ns a byte.)
int64_t farTierScale(double ownCacheBytes, double memBytes = 0);
// The far tier's shares by distance (HwProfile.h: far_curve, far_curve_vector) from what a Conv and a Relu
// took more after each Neg than alone (`excessConv`, `excessRelu`, us, by ascending distance): the pooled
// curve is their sum over the sum after the last Neg, at `distances` (the two ops' mean), the vector curve
// the Relu's alone over its last (none when that is 0), at the Relu's own `reluDistances`; each
// non-decreasing, within [0, 1].
struct FarShares {
  std::vector<std::pair<double, double>> pooled, vector;
};
FarShares farSharesOf(const std::vector<double>& distances, const std::vector<double>& reluDistances,
                      const std::vector<double>& excessConv, const std::vector<double>& excessRelu);
// Runs every microbenchmark (a few seconds to a minute, on `threads` executor threads, `repeat` timed runs
// per case). Progress lines go to stderr.
Result<HostMeasurement> measureHost(int threads, int repeat);
// Times a grid of shapes per kind of matrix op and fits each kind's time model (a pointwise Conv's
// features padded to whole blocks of `positionBlock` positions, a dense Conv's and a ConvTranspose's
// to whole blocks of `channelBlock` output channels). `copy`'s bandwidth curve gives a dense Conv's
// weight stream its time at the copy bandwidth (CubeSample::streamSeconds); an empty curve: no bound.
Result<std::map<std::string, CubeModelFit>> measureCubeModels(int threads, int repeat, double overheadUs,
                                                              int64_t positionBlock, int64_t channelBlock,
                                                              const CpuFigures& copy);
// A kind's time model fitted again to its shapes' measured times (`measuredUs`: shape name -> us, per-kernel
// overhead included, as CubeTimeModel::measuredUs), as measureCubeModels fits it. Bad input: an unknown
// kind, or fewer than half of the kind's shapes named. `fitted`: the kinds fitted so far, of which the rnn
// kind takes the gemm model to price its cells' input projections (CubeTimeModel::projectionKind; without
// one, its own terms price them).
Result<CubeModelFit> refitCubeModel(const std::string& kind, const std::map<std::string, double>& measuredUs,
                                    double overheadUs, int64_t positionBlock, int64_t channelBlock,
                                    const CpuFigures& copy,
                                    const std::map<std::string, CubeTimeModel>& fitted);
// The shapes measureCubeModels times for `kind` (none for an unknown kind): name, features unblocked.
std::vector<std::pair<std::string, CubeFeatures>> cubeCaseFeatures(const std::string& kind);
struct BlockFit {
  int64_t block = 1;
  std::string how;  // "count us; ..." and the fit's residual per candidate block
};
// The block b (1, 2, 4, ..., 64) for which time = a + c * ceil(P / b) * b fits the times `us` of P =
// `counts` best (least squares on relative error; a larger block replaces a smaller one only when its
// RMS ln residual is 10 % below). Bad input: fewer than 3 counts, mismatched sizes, a time or count <= 0.
Result<BlockFit> fitBlock(const std::vector<int64_t>& counts, const std::vector<double>& us);
// Times a 1x1 Conv over 1 x P positions for P on both sides of multiples of 16 and fits the block the
// product computes them in (fitBlock).
Result<BlockFit> measurePositionBlock(int threads, int repeat);
// Times a 3x3 Conv 64 -> M at 28x28 for M on both sides of multiples of 16 and fits the block of output
// channels oneDNN's blocked layout computes (fitBlock).
Result<BlockFit> measureChannelBlock(int threads, int repeat);
struct ColdCost {
  double bytesPerS = 0;    // 0 when the shapes were not slower in sequence by their bytes
  double callS = 0;        // the fit's intercept: a cold start per call
  std::string how;         // "shape alone-us in-sequence-us; ..."
};
// Times a sample of the matrix-op shapes alone (repeated: their data stay in cache) and as one network in
// sequence, and fits the difference on their bytes (input, output, weights).
Result<ColdCost> measureColdCost(int threads, int repeat);
// Times five 3x3 Convs (32 to 256 channels) on a model's weight and on a weight a Mul computes in the run,
// in rounds, and fits the difference as a + weight bytes / bandwidth (least squares on relative error).
Result<WeightReorderFit> measureWeightReorder(int threads, int repeat);
// Times chains of 1 to 256 tiny Adds, with one shared or one own constant each, and of 4 Adds on 256K to
// 4M floats, run as fwb profile runs a model, and fits their time outside the nodes (fitRunOverhead), the
// copies of inputs and outputs at the bandwidth curve of `copy` (CpuFigures::copySeconds).
Result<RunOverheadFit> measureRunOverhead(int threads, int repeat, const CpuFigures& copy);
// The measurement as a "cpu" profile named `name`, with a note per field.
HwProfile hostProfile(const HostMeasurement& m, const std::string& name);
// HwProfile.h: product_stream_share (or, `far`, product_stream_share_far) from the cycled products' times
// (HostMeasurement::productStreamUs or productStreamFarUs) on a profile with its GEMM time model and weight
// stream curve: by rows, (time - the longer of the shape model's time and the weight's stream at its
// distance) / the shorter, within [0, 1], with each kept row's time and the runs' distance; `how` says each.
// Rows whose profile lacks either figure are left out.
CpuFigures::ProductStreamSet productStreamShares(const HwProfile& p,
                                                 const std::vector<std::pair<int64_t, double>>& us, bool far,
                                                 std::string& how);

}  // namespace fw::sim
