// Evaluating single nodes on constants (constant folding, partial evaluation of shape arithmetic)
// and what a Shape/Size node computes for given dims.
#include <algorithm>

#include "core/exec/Executor.h"
#include "core/exec/OpContext.h"

namespace fw {

Result<std::vector<Tensor>> evalNode(const Model& model, const Graph& g, const Node& n,
                                     const std::function<const Tensor*(ValueId)>& constantOf) {
  Model one;
  one.opsetImports = model.opsetImports;
  auto gr = std::make_shared<Graph>();
  std::vector<ValueId> ins, outs, real;
  for (ValueId v : n.inputs) {
    if (v == kNoId) {
      ins.push_back(kNoId);
      continue;
    }
    const Tensor* t = constantOf(v);
    if (!t) return Error::internal("node '" + n.name + "': input '" + g.value(v).name + "' is not constant");
    ins.push_back(gr->addInitializer(g.value(v).name, *t));
  }
  for (ValueId v : n.outputs) outs.push_back(v == kNoId ? kNoId : gr->addValue(g.value(v).name));
  gr->addNode(n.opType, ins, outs, n.attrs, n.name);
  for (ValueId v : outs)
    if (v != kNoId) real.push_back(v);
  gr->setOutputs(real);
  one.graph = gr;
  ExecOptions eo;
  eo.threads = 1;
  return runGraph(one, {}, eo);
}

Tensor shapeNodeValue(const Node& n, const std::vector<int64_t>& dims) {
  if (n.opType == "Size") {
    int64_t p = 1;
    for (int64_t d : dims) p *= d;
    return Tensor::scalarInt64(p);
  }
  const auto r = static_cast<int64_t>(dims.size());
  int64_t start = n.attrs.intOr("start", 0), end = n.attrs.intOr("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, start, r);
  std::vector<int64_t> sl(dims.begin() + start, dims.begin() + end);
  return Tensor::int64s({static_cast<int64_t>(sl.size())}, sl);
}

}  // namespace fw
