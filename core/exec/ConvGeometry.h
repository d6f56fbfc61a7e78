#pragma once
// Internal to core/exec (and the simulator's pool costing, which reads the pool geometry): spatial geometry
// (pads, strides, dilations, output size) of Conv, ConvTranspose and the pools, from the node's attributes
// including auto_pad.
#include <vector>

#include "core/exec/OpContext.h"

namespace fw::exec {

struct ConvGeometry {
  std::vector<int64_t> in, out, kernel, strides, dilations, padsBegin, padsEnd;

  int64_t kernelSize() const { return numelOf(kernel); }
  int64_t outSize() const { return numelOf(out); }
  int64_t inSize() const { return numelOf(in); }
};

// Conv (transposed = false) or ConvTranspose geometry for spatial input dims `in` and kernel dims.
Result<ConvGeometry> convGeometry(const OpContext& c, const std::vector<int64_t>& in,
                                  const std::vector<int64_t>& kernel, bool transposed);
// MaxPool / AveragePool geometry (kernel_shape attribute, ceil_mode).
Result<ConvGeometry> poolGeometry(const OpContext& c, const std::vector<int64_t>& in);
// The same from a node's attributes alone: the simulator prices a pool's passes on the geometry the
// executor runs (simulator/OpFamily.cpp: poolLoops).
Result<ConvGeometry> poolGeometry(const Node& node, const Attributes& attrs, const std::vector<int64_t>& in);

// A Conv or ConvTranspose as the executor's convolution paths take it (ConvPrimitive.h, DirectConv.h).
struct ConvProblem {
  bool transposed = false;                 // ConvTranspose
  int64_t N = 0, C = 0, M = 0, group = 1;  // batch, input channels, output channels, groups
  ConvGeometry geo;  // in = input spatial dims, out = output spatial dims (also for ConvTranspose)
};

}  // namespace fw::exec
