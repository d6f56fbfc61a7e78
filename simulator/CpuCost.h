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
// the GEMM rate) and max(FLOPs, elements) for the vector families, the efficiency of the op type when
// the profile measured it (cpu.op_efficiency), else of its family; and cache-aware traffic: of a
// member's activations (inputs + outputs) the part that fits the last-level cache (l2_bytes) passes
// from the kernel before it through the cache and moves at the cache bandwidth (the profile's measured
// bandwidth curve at that footprint, when it has one); the rest, and the
// weights (read once per run, with the whole run's data in between; a weight several nodes read is
// charged to each by its share), are charged at DRAM bandwidth.
// A matrix op whose kind has a shape model in the profile (cpu.cube_time_models, CpuCubeModel.h) takes
// that model's time as its compute time instead of FLOPs / (rate × efficiency), plus its weights read
// from DRAM (the model was timed with them in cache; a run reads each layer's weights once).
// No cube fractals, no Unified Buffer, no pipeline.
#include <string>
#include <vector>

#include "simulator/KernelBoundary.h"

namespace fw::sim {

Result<KernelCost> costCpuKernel(const Graph& g, const KernelGroup& group, const HwProfile& hw,
                                 std::vector<std::string>* warnings);

}  // namespace fw::sim
