// The op registry: op type -> kernel, one table per ops_*.cpp; which ops the executor supports.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "core/exec/Executor.h"
#include "core/exec/OpContext.h"

namespace fw {
namespace exec {
namespace {
const std::unordered_map<std::string, KernelFn>& registry() {
  static const std::unordered_map<std::string, KernelFn> table = [] {
    std::unordered_map<std::string, KernelFn> t;
    for (auto* part : {&elementwiseOps, &nnOps, &tensorOps, &tensorMakeOps, &reduceOps, &rnnOps, &controlOps,
                       &resizeOps, &poolOps, &quantOps, &mathOps, &linalgOps, &gatherScatterOps, &sortOps, &regionOps,
                       &layoutOps, &lossOps, &normOps, &upsampleOps, &convIntegerOps, &randomOps, &signalOps,
                       &stringOps, &sequenceOps})
      for (const auto& e : (*part)()) t.emplace(e.opType, e.fn);
    return t;
  }();
  return table;
}
}  // namespace

bool isDefaultDomain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

KernelFn findKernel(const std::string& opType) {
  const auto& r = registry();
  auto it = r.find(opType);
  return it == r.end() ? nullptr : it->second;
}

std::vector<std::string> registeredOps() {
  std::vector<std::string> out;
  for (const auto& [name, fn] : registry()) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace exec

bool isOpSupported(const std::string& opType, const std::string& domain) {
  return exec::isDefaultDomain(domain) && exec::findKernel(opType) != nullptr;
}

std::vector<std::string> supportedOps() {
  std::vector<std::string> out;
  return exec::registeredOps();
}

namespace {
void scanUnsupported(const Model& m, const Graph& g, std::set<std::string>& out, std::set<const Graph*>& seen) {
  if (!seen.insert(&g).second) return;
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    if (exec::isDefaultDomain(n.domain) && exec::findKernel(n.opType)) {
      for (const auto& sg : n.subgraphs()) scanUnsupported(m, *sg, out, seen);
      continue;
    }
    if (const Function* f = m.findFunction(n.domain, n.opType)) {
      if (f->body) scanUnsupported(m, *f->body, out, seen);
      continue;
    }
    out.insert(exec::isDefaultDomain(n.domain) ? n.opType : n.domain + ":" + n.opType);
  }
}
}  // namespace

std::vector<std::string> unsupportedOps(const Model& model) {
  std::set<std::string> out;
  std::set<const Graph*> seen;
  if (model.graph) scanUnsupported(model, *model.graph, out, seen);
  return {out.begin(), out.end()};
}

}  // namespace fw
