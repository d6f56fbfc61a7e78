// Import, validate, resolve shapes and simulate unfused and fused on the default profile.
#include "core/shape/ShapeResolve.h"
#include "fusion/Pipeline.h"
#include "fuzz/FuzzCommon.h"
#include "simulator/HwProfile.h"
#include "simulator/Simulator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto hw = fw::sim::resolveHwProfile(fw::sim::defaultHwProfileName());
  if (!hw.ok()) __builtin_trap();
  auto m = fwfuzz::modelFrom(data, size);
  if (!m.ok() || fwfuzz::tooBig(*m)) return 0;
  fw::ResolveOptions ro;
  ro.traceIfNeeded = false;
  if (!fw::resolveShapes(*m, ro).ok()) return 0;
  auto groups = fw::sim::unfusedGroups(*m->graph);
  if (!groups.ok()) return 0;
  fw::sim::SimOptions so;
  so.controlFlow = fw::sim::ControlFlowPolicy::Max;
  auto before = fw::sim::simulate(*m->graph, *groups, *hw, so);
  if (before.ok() && (before->latencyUs < 0 || before->hbmBytes < 0)) __builtin_trap();  // never a negative figure
  fw::fusion::FusionOptions o;
  o.hw.ubBytes = hw->ubBytes;
  o.hw.cacheBytes = hw->l2Bytes;
  auto r = fw::fusion::fuseModel(*m, o);
  if (!r.ok()) return 0;
  std::vector<fw::sim::KernelGroup> kg;
  for (const auto& k : r->kernels) kg.push_back({k.name, k.members, k.origins});
  auto after = fw::sim::simulate(*r->rewritten.graph, kg, *hw, so);
  if (after.ok() && (after->latencyUs < 0 || after->hbmBytes < 0)) __builtin_trap();
  return 0;
}
