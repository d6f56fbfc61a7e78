#include "ui/analysis/Analysis.h"

#include <atomic>

#include "core/io/ModelSource.h"
#include "fusion/Pipeline.h"

namespace fw {

Result<sim::HwProfile> prepareHw(AnalysisOptions& opts) {
  auto hw = sim::resolveHwProfile(opts.hw.empty() ? sim::defaultHwProfileName() : opts.hw);
  if (!hw.ok()) return hw.error();
  opts.fusion.hw.ubBytes = hw->ubBytes;
  opts.fusion.hw.cacheBytes = hw->l2Bytes;
  opts.fusion.hw.elemBytes = static_cast<int64_t>(hw->elemBytes());
  return hw;
}

std::vector<sim::KernelGroup> kernelGroups(const fusion::FusionResult& r) {
  std::vector<sim::KernelGroup> groups;
  groups.reserve(r.kernels.size());
  for (const auto& k : r.kernels) groups.push_back({k.name, k.members, k.origins});
  return groups;
}

Result<fusion::FusionResult> baselinePlan(const Model& model) {
  fusion::FusionOptions o;
  o.optLevel = 0;
  for (const auto& p : baselinePasses()) o.enabled.insert(p);
  return fusion::fuseModel(model, o);
}

namespace {
std::atomic<size_t> gBaselineCalls{0};
}  // namespace

size_t simulateBaselineCalls() { return gBaselineCalls.load(); }

Result<sim::SimResult> simulateBaseline(const Model& model, const sim::HwProfile& hw, sim::SimOptions opts) {
  ++gBaselineCalls;
  if (opts.mode == sim::SimMode::Eager) {
    FW_ASSIGN_OR_RETURN(auto groups, sim::unfusedGroups(*model.graph));
    opts.bodyGroups = nullptr;
    return sim::simulate(*model.graph, groups, hw, opts);
  }
  FW_ASSIGN_OR_RETURN(auto plan, baselinePlan(model));
  return simulatePlan(plan, hw, opts);
}

Result<sim::SimResult> simulatePlan(const fusion::FusionResult& r, const sim::HwProfile& hw, sim::SimOptions opts) {
  opts.mode = sim::SimMode::Graph;
  const auto bodies = bodyKernelGroups(r);
  opts.bodyGroups = &bodies;
  return sim::simulate(*r.rewritten.graph, kernelGroups(r), hw, opts);
}

std::map<std::string, std::vector<sim::KernelGroup>> bodyKernelGroups(const fusion::FusionResult& r) {
  std::map<std::string, std::vector<sim::KernelGroup>> out;
  for (const auto& sg : r.subgraphs) {
    auto& groups = out[sg.scope];
    for (const auto& k : sg.kernels) groups.push_back({k.name, k.members, k.origins});
  }
  return out;
}

int64_t samplesPerRun(const Model& model, int64_t batch) {
  // A zoo model is built at the batch asked for, in whichever dim its inputs keep it (the LSTM's is its
  // second); an imported model's batch setting binds a symbolic leading dim, and a static one is the batch.
  if (!isZooSpec(model.sourcePath) && !model.graph->inputs().empty()) {
    const Shape& s = model.graph->value(model.graph->inputs().front()).shape;
    if (s.rank() > 0 && s.dims[0].isStatic() && s.dims[0].value > 0) return s.dims[0].value;
  }
  return std::max<int64_t>(1, batch);
}

Result<Analysis> analyze(const Model& model, AnalysisOptions opts, const std::atomic<bool>* cancel) {
  auto cancelled = [&]() { return cancel && cancel->load(); };
  Analysis a;
  a.original = model;
  a.trace = opts.trace;
  a.hierarchy = opts.hierarchy ? opts.hierarchy
                               : std::make_shared<const diagram::Hierarchy>(diagram::buildHierarchy(*model.graph));
  auto hw = prepareHw(opts);
  if (!hw.ok()) return hw.error();
  a.hw = std::move(hw).value();
  a.fusionOptions = opts.fusion;
  auto fused = fusion::fuseModel(model, opts.fusion);
  if (!fused.ok()) return fused.error();
  a.fused = std::move(fused).value();
  if (cancelled()) return Error::cancelled();
  if (!opts.simulate) return a;

  sim::SimOptions so;
  so.batch = samplesPerRun(model, opts.batch);
  so.mode = opts.beforeMode;
  so.controlFlow = opts.controlFlow;
  so.trace = &opts.trace;
  auto before = opts.before ? Result<sim::SimResult>(*opts.before) : simulateBaseline(model, a.hw, so);
  if (!before.ok()) {
    // A model the simulator cannot time (unknown shapes, control flow) still fuses and renders.
    a.warnings.push_back("simulation skipped: " + before.error().message);
    return a;
  }
  if (cancelled()) return Error::cancelled();
  auto after = simulatePlan(a.fused, a.hw, so);
  if (!after.ok()) {
    a.warnings.push_back("simulation of the fused graph skipped: " + after.error().message);
    return a;
  }
  a.before = std::move(before).value();
  a.after = std::move(after).value();
  a.simulated = true;
  return a;
}

}  // namespace fw
