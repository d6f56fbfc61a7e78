#pragma once
// A simulated NPU described as data (resources/hw/<name>.json). Every figure the cost model uses is a
// field here; the code holds no hardware numbers. Loading validates every field and names the JSON
// path of the first error ("toy.json: $.cube.m: must be a positive integer").
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/DType.h"
#include "core/ir/OpInfo.h"
#include "core/util/Result.h"
#include "simulator/CpuCubeModel.h"
#include "simulator/SpeedProbe.h"

namespace fw::sim {

struct HwNote {
  std::string field;   // JSON path the note is about ("$.clock_hz"), or "*" for the whole profile
  std::string source;  // where the figure comes from
  bool estimate = false;
};

// What the profile describes. An NPU is costed with cube fractals, the Unified Buffer and a pipeline
// of transfer/cube/vector stages (CostModel.cpp); a CPU (a profile that `fwb calibrate` measured on
// this machine) with a roofline per cost family and cache-aware traffic (CpuCost.cpp).
enum class DeviceKind { Npu, Cpu };
const char* deviceKindName(DeviceKind k);  // "npu", "cpu"

// Throughput multipliers per cost family: 1 = the formulas as they stand. On an NPU they divide the
// cube and vector cycles (fitted by `fwb calibrate --from op_summary.csv`); on a CPU a family's
// throughput is peak FLOP/s × its efficiency (measured by `fwb calibrate`). JSON: "efficiency"
// {"cube", "elementwise", "reduction", "pooling", "softmax", "norm", "data_movement"}, each optional.
struct FamilyEfficiency {
  double cube = 1, elementwise = 1, reduction = 1, pooling = 1, softmax = 1, norm = 1, dataMovement = 1;
  double of(CostFamily f) const;  // View/ControlFlow: 1; Unknown: elementwise
  double* field(CostFamily f);    // nullptr for families without a field
};
const std::vector<std::pair<std::string, CostFamily>>& efficiencyKeys();  // JSON key -> family

// Figures only a CPU profile has (JSON "cpu" object).
struct CpuFigures {
  double gemmFlops = 0;        // "gemm_flops_per_s": MatMul/Gemm through the executor's oneDNN path
  double convFlops = 0;        // "conv_flops_per_s": Conv through the executor's oneDNN path
  double groupedConvFlops = 0; // "grouped_conv_flops_per_s" (optional; 0: conv_flops_per_s): Conv with group > 1
  double cacheBandwidth = 0;   // "cache_bandwidth_bytes_per_s": streaming copy that fits the last-level cache
  // "cold_bandwidth_bytes_per_s" (optional): what a matrix op's data (input, output and weights) cost on
  // top of its shape model's time, which was timed with them in cache, when a run has evicted them: bytes
  // per second of extra time. Without it, only the weights are charged, at hbm_bandwidth_bytes_per_s.
  double coldBandwidth = 0;
  // "pointwise_position_block" (optional, default 1): a pointwise Conv's product computes the output
  // positions in whole blocks of this many (CubeFeatures::withPositionBlock); measured by fwb calibrate.
  int64_t pointwisePositionBlock = 1;
  // "conv_channel_block" (optional, default 1): a dense Conv or ConvTranspose computes its output channels
  // in whole blocks of this many (CubeFeatures::withChannelBlock); measured by fwb calibrate.
  int64_t convChannelBlock = 1;
  std::vector<int64_t> cacheDropsBytes;  // "cache_drops_bytes": sizes where the copy bandwidth drops
  // "bandwidth_curve": [{"bytes", "bytes_per_s"}] streaming bandwidth by footprint, ascending (optional):
  // data that fit the last-level cache move at the curve's bandwidth for their footprint (interpolated
  // in log size) instead of cache_bandwidth_bytes_per_s.
  std::vector<std::pair<double, double>> bandwidthCurve;
  double cacheBandwidthFor(double footprintBytes) const;
  // "stream_curve": [{"bytes", "bytes_per_s"}] (optional, same form): what the executor's elementwise
  // loops move (input + output) per second in a chain of them by footprint (input + output), beyond the
  // core's own cache. Its loops stream slower than a copy there (a Relu chain at 8 MiB tensors: 72-76
  // GB/s here, a copy of that footprint 113), and slower than their own in-cache rate would say.
  std::vector<std::pair<double, double>> streamCurve;
  double streamBandwidthFor(double footprintBytes) const;  // 0 without a curve
  // "weight_stream_curve": [{"bytes", "bytes_per_s"}] (optional, same form): the bytes a second a model
  // weight streams in at when it is read by a product of few rows (a [2, 512] x [512, N]^T Gemm), by its
  // reuse distance (the distinct bytes touched since its last read, its own included): fwb calibrate times
  // the Gemm alone on weights of 0.5 to 16 MiB, cycled over copies of a 4 MiB one and, where the memory
  // allows, of a 16 MiB one (128 and 256 MiB apart). A weight stays in the last-level cache while that
  // distance fits it and comes from beyond at a rate of its own (session 55's AMD EPYC: 77-85 GB/s up to 8
  // MB, 51 at 42 MB, where a copy from DRAM moves 37; session 56's Xeon: 100 GB/s at 1 MB, 29 from 4 MB on;
  // session 58, the same machine: 24 at 128 MiB, 15 at 256, where session 57 timed one 256 MiB weight
  // alone at 13). Every read of
  // any weight by any node takes at least its bytes at this rate (CpuRunReuse::weightStreamS); the times are
  // taken less the per-kernel overhead, which launch_us charges.
  std::vector<std::pair<double, double>> weightStreamCurve;
  double weightStreamBandwidthFor(double distanceBytes) const;  // 0 without a curve
  // "product_stream_share": [{"rows", "share", "measured_us"}] (optional, by ascending rows; share in [0, 1];
  // measured_us: the timed product's median less the per-kernel overhead): of a product
  // of that many rows whose weight streams in from beyond the cache, the share of the shorter of its
  // arithmetic (its shape model's time) and its weight's stream that the longer does not hide. fwb calibrate
  // times a MatMul [R, 512] x [512, 2048] cycled over 16 copies of its 4 MiB weight for R = 4, 8, 16 and 32
  // and takes (time - the longer) / the shorter. A product of few rows is its stream (a share near 0); from
  // 8 rows on the arithmetic and the stream take turns in part (session 57's Xeon, two calibrations: 0,
  // 0.24-0.27, 0.15-0.20, 0.15-0.21). Interpolated in log rows, flat beyond the ends.
  // "product_stream_distance_bytes" (with the curve): the reuse distance its weights were read at (the
  // copies' bytes). Beyond it (or beyond the far set's, below) the arithmetic hides none of what the stream
  // takes more: a product costs the longer of its arithmetic and its stream up to that distance, the share
  // of the shorter, and the rest of its stream.
  // "product_stream_share_far" with "product_stream_far_distance_bytes" (optional, with the above; a larger
  // distance): the same shares measured with the weights further apart (fwb calibrate, where the memory
  // allows: MatMul [R, 512] x [512, 8192] over 16 copies of its 16 MiB weight). From further away a weight
  // streams slower (session 58's Xeon VM: 28 GB/s up to 64 MiB, 24 at 128, 15 at 256) and the arithmetic
  // hides less of it (shares at 4, 8, 16, 32 rows: 0, 0.25, 0.11, 0.15 at 68 MiB; 0.27, 0.56, 0.76, 0.82 at
  // 272 MiB). A read between the two distances takes the share interpolated in log distance (probes 128
  // MiB apart took halfway between: 16 rows 1.3 ms a 16 MiB weight, 0.97 at 64 MiB, 1.65 at 256); beyond
  // the far one, the far share and the stream beyond it unhidden.
  struct ProductStreamSet {
    std::vector<std::pair<double, double>> share;  // (rows, share) by ascending rows
    std::vector<std::pair<int64_t, double>> us;    // each point's "measured_us" (calibrate --merge refits)
    double distance = 0;                           // the weights' reuse distance (bytes)
    bool empty() const { return share.empty(); }
    double shareAt(double rows) const;  // 0 without a curve
  };
  ProductStreamSet productStream, productStreamFar;
  // The share at `rows` for a weight read `distanceBytes` since its last read.
  double productStreamShareAt(double rows, double distanceBytes) const;
  // The distance beyond which no share applies: the far set's, else the near set's (0 without either).
  double productStreamShareDistance() const {
    return !productStreamFar.empty() ? productStreamFar.distance
           : productStream.empty()   ? 0.0
                                     : productStream.distance;
  }
  // One copy of `bytes` into a fresh buffer: read and write at the bandwidth for their footprint.
  double copySeconds(double bytes) const;
  // "op_efficiency": {OpType: efficiency} for op types measured one by one; it replaces the family's
  // efficiency for that op type (the executor's kernels of one family differ by 10x and more).
  std::map<std::string, double> opEfficiency;
  // "op_call_s": {OpType: seconds} (optional): an op type's time on a tiny tensor, dispatch included; a
  // member of that type costs what of it exceeds launch_us on top of its work.
  std::map<std::string, double> opCallS;
  // "op_row_s": {OpType or variant: seconds} (optional): what an op that works row by row (Softmax,
  // LogSoftmax, LayerNormalization, Transpose/rows, a Gather's picks) spends a row beyond its elements'
  // time: each row is set up and finished apart from its elements (a softmax over rows of 8 floats took 5.4
  // ns an element here, over rows of 1024 1.4). A member of that kind costs rowWiseRows (OpFamily.h) x this
  // on top of its work.
  std::map<std::string, double> opRowS;
  // "cold_call_s": {"vector": seconds, "product": seconds} (optional): what a call costs more when the
  // run's traffic since the op's last call has evicted its code and data from the core's own cache (a
  // one-element Add took 0.9 us called again and again, 3.7 us after a Neg over 4 MiB; a 4x16x4 MatMul
  // 7.9 and 25); "product" for the library's matrix ops (OpFamily::Cube), "vector" for the others. A
  // member costs coldShare (CpuCost.h) x its kind's figure on top. "shape" (optional): the same for the
  // integer shape work the executor runs between kernels (cpuShapeWorkSeconds, CpuCost.h), a node of a
  // chain (Shape, Gather, Add, Div, Mul on int64 took 0.14-0.26 us a node in a row, 0.6-1.8 after a Neg
  // over 4 MiB); without it, shape work costs the launch figure alone.
  std::map<std::string, double> coldCallS;
  double coldCallSeconds(bool product) const {
    auto it = coldCallS.find(product ? "product" : "vector");
    return it != coldCallS.end() ? it->second : 0.0;
  }
  // "code" (optional): what a vector op's call costs more when its own loop has been evicted since it last
  // ran but the executor's state has not (the node before it moved little): the median over seven ops on
  // [64, 8] of each one on the output of a tiny Neg after a Neg over twice the own cache, against the
  // same after the tiny Neg again and again (session 39: Relu and Sqrt 0.9-1.0 us more, Add, Mul, Div,
  // Sigmoid, ReduceMean 2.0-2.2; a tiny Neg after the big one, its loop hot, 2.1-2.3 us where 0.2 in a
  // row). Without it, a call whose loop is far
  // costs the "vector" figure. "code/<op type>" (optional): that op type's own figure, where the
  // calibration timed it (a Sqrt's or Relu's loop is less code than a broadcasting Add's).
  std::optional<double> coldCodeSeconds(const std::string& opType = {}) const {
    auto it = coldCallS.find("code/" + opType);
    if (it == coldCallS.end()) it = coldCallS.find("code");
    return it != coldCallS.end() ? std::optional<double>(it->second) : std::nullopt;
  }
  // "product/primitive" (optional): what a product's call costs more when only its own primitive (its
  // kernel, descriptor and packed weight) has left the cache, a product of other shapes having just run
  // (the library's shared code is back): the tiny MatMul after a Neg over twice the own cache and a MatMul
  // of other shapes, less it in a row (session 40: 2.0 and 5.1 us more after a 4x16x8 and a 64x64x64 one,
  // where 15 more after the Neg alone; fwb calibrate's own figure on 2026-11-30: 3.68). With it, every
  // library product (a MatMul, a Gemm, a Conv on oneDNN: only the MatMul was timed) pays this figure by its
  // primitive's distance and the rest of "product" by the distance since a product of its op type last ran.
  std::optional<double> coldPrimitiveSeconds() const {
    auto it = coldCallS.find("product/primitive");
    return it != coldCallS.end() ? std::optional<double>(it->second) : std::nullopt;
  }
  std::optional<double> coldShapeCallSeconds() const {
    auto it = coldCallS.find("shape");
    return it != coldCallS.end() ? std::optional<double>(it->second) : std::nullopt;
  }
  // "far_curve": [{"bytes", "share"}] by ascending distance (optional): how far into the tier beyond the
  // last-level cache (0 none of it, 1 all) an activation's bytes are whose memory the run last touched that
  // many distinct bytes ago (CpuRunReuse::farBytes); interpolated in log size, 0 before the first point,
  // the last share after it. "far_s_per_byte": {"vector": s, "product": s}: what such a byte costs more
  // than one from the cache's tier. Both measured by fwb calibrate: a 3x3 Conv (product) and a Relu
  // (vector) after a Neg over 4 to 128 MiB against alone (session 34: the Conv of 3 -> 64 channels at 64x64,
  // batch 8, took 2.1 ms in a run of 25 MB and 4.4 ms in one of 280 MB).
  std::vector<std::pair<double, double>> farCurve;
  // "far_curve_vector" (optional, with far_curve; fwb calibrate since session 71): the same share by distance
  // of the Relu's own bytes (since session 72; 2E and half its input and output, where far_curve is at the
  // Conv's and the Relu's mean) from the Relu's excess alone, which a vector op takes (without it,
  // far_curve). The pooled curve's points up to 70 MiB were the Conv's run-to-run noise (its excess 80-470 us
  // on 2.1-2.8 ms, none monotone over six calibrations of session 70 and 71's Xeon, where the Relu's was
  // under 2 % to 32 MiB of Negs and 50-90 % at 64 MiB): a chain of vector ops over 32 MiB tensors, each
  // reading the one before's output, ran at the copy's rate and was simulated 1.1-1.4x over by the pooled
  // curve's 0.15 share at 38-70 MiB.
  std::vector<std::pair<double, double>> farCurveVector;
  std::map<std::string, double> farSPerByte;
  // "speed_probe_us": {"call", "stream", "product"} (optional): the machine's speed at calibration time
  // (simulator/SpeedProbe.h), the midpoint of the probes at the calibration's start and end. fwb simulate
  // --measured sets a profile's probe beside it and warns when the two machine states differ.
  SpeedProbe probe;
  // "cold_call_curve": [{"bytes", "vector", "product"[, "code"][, "node"]}] by ascending distance (optional):
  // what a one-element Add ("vector") and a 4x16x4 MatMul ("product") take more than in a row when the run
  // touched that many distinct bytes since they last ran (fwb calibrate: each after 3 Negs whose input and
  // output are that many bytes, 2 to 64 MiB; non-decreasing). Interpolated in log size, a share of the first
  // point's figure below it (distance over its bytes), the last figure beyond it. A call pays the larger of
  // this at its distance (CpuRunReuse::callDistance: a product's code's, another op's state's) and
  // cold_call_s's (session 42, the AMD EPYC VM: the MatMul 4.8 us more after 4 MiB, 16 after 8, 38 after 16,
  // 86 after 64, where cold_call_s's "product" was timed at one distance and charged no more beyond it;
  // CondConv's routing Gemms after its Convs 21-66 us measured, 7-18 simulated so). "code" (optional, every
  // entry or none): what an op on [64, 8] takes more when only its own loop is that far (the node before it a
  // tiny op whose output it reads, which brings the executor's state back; the median over a few op types):
  // charged at the distance since the op's type last ran (CpuRunReuse::codeDistance). Session 78: a
  // one-element ReduceSum, Add, Div and Gather after a tiny op took 1.0-2.9 us where their type last ran 32
  // MB before (0.15-0.27 in a row; cold_call_s "code", timed at 4x the own cache, said 0.17-0.25 more),
  // 0.4-1.3 at 8 MB. "node" (optional, every entry or none): what a tiny op takes more when only its own node
  // is that far (an Add on [64, 8] in a chain of Adds, the Add before it and its type's loop just run, the
  // run streaming that many bytes elsewhere: the node's own tensors, slot and bookkeeping, found evicted):
  // charged to a vector op at the distance since that node last ran, a run for most nodes
  // (CpuRunReuse::nodeDistance). Session 79: a detector's transform cut out (98 nodes) took 0.20 us a tiny
  // node alone, 0.54 with 64 MB streamed after it in the run, where neither the op types' loops nor the node
  // before had moved; 156 to 195 of some 300-390 tiny kernels of three held-out detectors were simulated at
  // under half their time.
  // "outside" (optional, every entry or none): the executor's time outside a node (its plan entry, the values
  // it releases, their records) when that node last ran that far away, a node (fwb calibrate: a run's time
  // outside its nodes with 72 Adds in the chain less with 8, the run streaming that many bytes elsewhere).
  // A run pays the larger of this at each kernel row's distance (KernelTiming::nodeDistanceBytes, a loop
  // body's a trip's, each trip) and run_overhead's s_per_node (Simulator.cpp, addRunOverhead). Session 81,
  // the AMD EPYC VM: 0.074 us a node at 2 MiB, 0.12 at 4-16, 0.19 at 32, 0.26 at 64 (s_per_node 0.12); FCOS's
  // run outside its 1713 kernels 2060 us measured, 344 simulated with s_per_node alone, 576 with this.
  struct ColdCallPoint {
    double bytes = 0, vectorS = 0, productS = 0, codeS = 0, nodeS = 0, outsideS = 0;
  };
  std::vector<ColdCallPoint> coldCallCurve;
  bool coldNodeCurve = false;     // the curve's entries have "node" figures
  bool coldOutsideCurve = false;  // and "outside" figures
  double coldCallCurveSeconds(bool product, double distanceBytes) const;  // 0 without a curve
  double coldCodeCurveSeconds(double distanceBytes) const;  // 0 without a curve or its "code" figures
  double coldNodeCurveSeconds(double distanceBytes) const;  // 0 without a curve or its "node" figures
  // The executor's time outside a node that last ran that far away: the larger of the curve's "outside" there
  // and run_overhead's s_per_node.
  double outsideNodeSeconds(double distanceBytes) const;
  bool hasColdCodeCurve() const {
    return !coldCallCurve.empty() && coldCallCurve.back().codeS > 0;
  }
  // The share at a distance of a matrix op's bytes (`product`) or a vector op's (far_curve_vector where the
  // profile has one); 0 without a curve.
  double farShareAt(double distanceBytes, bool product) const;
  double farSecondsPerByte(bool product) const {
    auto it = farSPerByte.find(product ? "product" : "vector");
    return it != farSPerByte.end() ? it->second : 0.0;
  }
  // far_s_per_byte's "pointwise" (optional; fwb calibrate since session 66): what a pointwise Conv on the
  // executor's product path (one product an image, core/exec/ConvPrimitive.cpp) takes more a byte of its
  // input and output beyond the last-level cache's bytes, over what its images take one at a time. Its
  // product reads C input rows and writes M output rows a column block at a time, strided streams the
  // prefetchers do not follow from DRAM (1x1 Conv 128 -> 16 at 56x56 over 16 images, 25.7 MB in: 2078 us
  // measured, 4 x 310 at 4 images; the cube model's 1256 simulated). 0 without the figure.
  double farPointwiseSecondsPerByte() const {
    auto it = farSPerByte.find("pointwise");
    return it != farSPerByte.end() ? it->second : 0.0;
  }
  // "view_call_s" (optional): what the executor spends on a node that hands out its input (a Reshape, a
  // Cast to its own type, a Pad by zeros): a view is no kernel, but each one the executor runs is this
  // much time in the run, as a host step of its own or inside the fused kernel it belongs to.
  double viewCallS = 0;
  // "fused_call_s" (optional): what the executor spends calling a fused kernel's body (a model-local
  // function: its plan, a value table, the inputs bound), beyond its members' own times; charged once to
  // each kernel of two or more members.
  double fusedCallS = 0;
  // "weight_reorder" (optional): {"s_per_call", "bytes_per_s"}: what a Conv or ConvTranspose on oneDNN's
  // blocked layout pays on each call to reorder a weight the run computes (a QDQ model's DequantizeLinear
  // before it, at -O0), where a model's own weight is reordered once and kept; measured by fwb calibrate.
  struct WeightReorder {
    double callS = 0, bytesPerS = 0;
    bool any() const { return callS > 0 || bytesPerS > 0; }
    double seconds(double bytes) const { return callS + (bytesPerS > 0 ? bytes / bytesPerS : 0.0); }
  } weightReorder;
  // "cold_gather" (optional): {"s_per_row", "s_per_byte"}: what a Gather's picks cost more when its
  // table's rows come from DRAM (an embedding table in a run: the run's other data pass through the caches
  // between two reads of it), on top of their time from cache: each pick a row's misses, each byte picked
  // its transfer; measured by fwb calibrate. A Gather from a model's table pays it whole in a run whose
  // footprint is twice the last-level cache or more, nothing in one that fits it, linearly between
  // (CpuCost.cpp).
  // "distance_bytes" (optional): how far the calibration's eviction put the rows (the bytes touched between
  // two reads of them). "far" (optional, since session 59): {"s_per_row", "s_per_byte", "distance_bytes"},
  // the same timed with the rows further away (what makes them dearer is not isolated here; 140 rows of 2.6
  // KB from a 26 MB table took 9.7 us in a row, 29 after 8 MiB of other bytes, 38 after 32, 74 after 128, 77
  // after 384; session 59). A pick from between the two distances takes the figures interpolated in log
  // distance, from beyond the far one the far figures (secondsAt).
  struct ColdGather {
    double perRowS = 0, perByteS = 0, distanceBytes = 0;
    struct Far {
      double perRowS = 0, perByteS = 0, distanceBytes = 0;
    } far;
    bool any() const { return perRowS > 0 || perByteS > 0; }
    bool anyFar() const { return far.distanceBytes > distanceBytes && distanceBytes > 0; }
    double seconds(double rows, double bytes) const { return rows * perRowS + bytes * perByteS; }
    // At `distance` bytes since the table's rows were last read (0: unknown, the near figures); `farRows`
    // (when not negative) the rows the far figures count, where fewer than `rows`.
    double secondsAt(double rows, double bytes, double distance, double farRows = -1) const {
      const double nearS = seconds(rows, bytes);
      if (!anyFar() || !(distance > distanceBytes)) return nearS;
      const double t =
          std::min(1.0, std::log(distance / distanceBytes) / std::log(far.distanceBytes / distanceBytes));
      return nearS + t * ((farRows >= 0 ? farRows : rows) * far.perRowS + bytes * far.perByteS - nearS);
    }
  } coldGather;
  // "cube_time_models": {kind: {s_per_flop, s_per_input_element, s_per_output_element,
  // s_per_patch_element, s_per_weight_element, s_per_call, cases, rms_log_error}} (optional): a matrix op of a kind
  // with a model is timed by its shape (CpuCubeModel.h) instead of FLOPs at the kind's peak rate.
  std::map<std::string, CubeTimeModel> cubeModels;
  // "run_overhead" (optional): the executor's time in a run outside its nodes (binding the inputs and
  // the model's initializers, the bookkeeping and frees between nodes, converting the inputs it does not
  // hold as is, copying the outputs out), as {"s_per_run", "s_per_node", "s_per_initializer",
  // "s_per_io_byte"} on top of one copy of each graph output and converted input (copySeconds); measured
  // by fwb calibrate on chains of Adds. The
  // simulator adds it to a run's latency, outside every kernel (SimResult::runOverheadUs).
  struct RunOverhead {
    double perRunS = 0, perNodeS = 0, perInitializerS = 0, perIoByteS = 0;
    bool any() const { return perRunS > 0 || perNodeS > 0 || perInitializerS > 0 || perIoByteS > 0; }
  } runOverhead;
};

struct HwProfile {
  std::string name;
  std::string description;
  std::string sourcePath;  // file it was read from (for messages)

  DeviceKind kind = DeviceKind::Npu;  // JSON "kind", default "npu"
  DType dtype = DType::Float16;  // device dtype of every floating tensor (weights and activations)
  double clockHz = 0;
  int64_t cubeCores = 0;    // cores with a cube unit (AIC)
  int64_t vectorCores = 0;  // cores with a vector unit (AIV, or the same cores on Da Vinci v1)
  int64_t cubeM = 0, cubeN = 0, cubeK = 0;  // one cube instruction: (m×k)·(k×n) per cycle
  int64_t accBytes = 0;     // bytes per accumulator element in L0C
  int64_t fractalC0 = 0;    // channel block of the NC1HWC0 layout: Conv channels pad to it
  int64_t vectorLanes = 0;  // elements of `dtype` per vector instruction per cycle
  int64_t l0aBytes = 0, l0bBytes = 0, l0cBytes = 0, l1Bytes = 0, ubBytes = 0;  // per core
  int64_t l2Bytes = 0;      // shared cache in front of HBM (0: none); re-reads of operands that fit are free
  double hbmBandwidth = 0;  // bytes/s, whole chip
  double hbmCapacityBytes = 0;
  double launchUs = 0;        // device-side cost of starting one kernel (graph and eager)
  double hostDispatchUs = 0;  // host cost of dispatching one operator in eager mode
  FamilyEfficiency efficiency;
  CpuFigures cpu;             // kind == Cpu only; l2Bytes is then the last-level cache and
                              // hbmBandwidth the DRAM bandwidth
  std::vector<HwNote> notes;

  bool isCpu() const { return kind == DeviceKind::Cpu; }

  size_t elemBytes() const { return dtypeSize(dtype); }
  double peakCubeFlops() const;    // 2 * m*n*k * cubeCores * clock
  double peakVectorFlops() const;  // lanes * vectorCores * clock
  double peakFlops() const;        // the larger of the two (the cube on every real chip); a CPU: the
                                   // larger of its measured GEMM and convolution rates
  int64_t usToCycles(double us) const;
  double cyclesToUs(double cycles) const { return cycles / clockHz * 1e6; }
  bool isEstimate(const std::string& field) const;
};

// Parses and validates a profile. `sourceName` prefixes error messages.
Result<HwProfile> parseHwProfile(const nlohmann::json& j, const std::string& sourceName);
Result<HwProfile> parseHwProfileText(const std::string& text, const std::string& sourceName);
Result<HwProfile> loadHwProfileFile(const std::string& path);
// The profile as JSON in the schema parseHwProfile reads (round-trips: parse(toJson(p)) == p).
nlohmann::json hwProfileToJson(const HwProfile& p);

// NAME (a profile shipped in the hardware folder) or a path to a .json file.
Result<HwProfile> resolveHwProfile(const std::string& nameOrPath);
// The folder of shipped profiles: $FW_HW_DIR if set, else <resources>/hw.
std::string hwProfileDir();
std::vector<std::string> listHwProfiles();  // names, sorted
// The profile used when --hw is not given ("ascend910b2").
std::string defaultHwProfileName();

}  // namespace fw::sim
