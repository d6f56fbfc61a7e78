// Seeded sample inputs for a model's runtime inputs (randomInputs): the traced run, fwb run and
// fwb verify use them.
#include <cctype>
#include <optional>
#include <set>

#include "core/exec/Executor.h"
#include "core/exec/OpContext.h"

namespace fw {

namespace {
// splitmix64: the same numbers on every platform and standard library.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }  // [0,1)
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Upper bound for integer values feeding a Gather as indices: the gathered table's size on its axis, the
// smallest over the tables they index. Looks through ops that pass values on unchanged (a column picked by
// a Gather or a Slice, Squeeze, Reshape, Concat, Cast...): a TabTransformer's [b, 16] categorical input
// reaches each column's embedding through a Gather of that column.
int64_t gatherBound(const Graph& g, ValueId v, int depth = 0) {
  static const std::set<std::string> pass{"Gather",  "GatherElements", "Slice",    "Squeeze",   "Unsqueeze",
                                          "Reshape", "Flatten",        "Identity", "Transpose", "Split",
                                          "Expand",  "Tile",           "Concat",   "Cast"};
  int64_t bound = 0;
  auto take = [&](int64_t b) {
    if (b > 0) bound = bound ? std::min(bound, b) : b;
  };
  for (NodeId c : g.value(v).consumers) {
    const Node& n = g.node(c);
    if (n.dead) continue;
    if (n.opType == "Gather" && n.inputs.size() >= 2 && n.inputs[1] == v) {
      const Value& table = g.value(n.inputs[0]);
      if (!table.shape.rankKnown) continue;
      int64_t axis = n.attrs.intOr("axis", 0);
      if (axis < 0) axis += static_cast<int64_t>(table.shape.rank());
      if (axis < 0 || axis >= static_cast<int64_t>(table.shape.rank())) continue;
      const Dim& d = table.shape.dims[static_cast<size_t>(axis)];
      if (d.isStatic()) take(d.value);
      continue;
    }
    // The values themselves go on: the data input of a pick or a slice, any input of a Concat.
    const bool carries = n.opType == "Concat" ? true : !n.inputs.empty() && n.inputs[0] == v;
    if (depth >= 4 || !n.domain.empty() || !pass.count(n.opType) || !carries) continue;
    for (ValueId o : n.outputs)
      if (o != kNoId) take(gatherBound(g, o, depth + 1));
  }
  return bound;
}
// A scalar integer input that the graph compares with a constant (sr == 16000, mode > 2) gets that
// constant, so sample inputs drive the model down a path it was written for. Looks through
// Cast/Identity/Squeeze/Unsqueeze/Reshape.
std::optional<int64_t> comparedConstant(const Graph& g, ValueId v, int depth = 0) {
  if (depth > 3) return std::nullopt;
  static const std::set<std::string> cmp{"Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual"};
  static const std::set<std::string> pass{"Cast", "Identity", "Squeeze", "Unsqueeze", "Reshape", "Flatten"};
  for (NodeId c : g.value(v).consumers) {
    const Node& n = g.node(c);
    if (n.dead) continue;
    if (cmp.count(n.opType) && n.inputs.size() == 2) {
      const ValueId other = n.inputs[0] == v ? n.inputs[1] : n.inputs[0];
      const Tensor* t = other == kNoId ? nullptr : g.constantOf(other);
      if (t && t->numel() == 1) return static_cast<int64_t>(t->getDouble(0));
    }
    if (pass.count(n.opType) && !n.outputs.empty() && n.outputs[0] != kNoId)
      if (auto r = comparedConstant(g, n.outputs[0], depth + 1)) return r;
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<Tensor>> randomInputs(const Model& model, uint64_t seed) {
  if (!model.graph) return Error::badInput("model has no graph");
  const Graph& g = *model.graph;
  std::vector<Tensor> out;
  Rng rng{seed};
  for (ValueId id : g.inputs()) {
    const Value& v = g.value(id);
    if (v.initializer) {
      out.push_back(*v.initializer);
      continue;
    }
    if (!v.shape.rankKnown)
      return Error::badInput("input '" + v.name + "' has an unknown shape; give it with --input-shape " + v.name +
                             "=d0,d1,...");
    std::vector<int64_t> dims;
    for (const auto& d : v.shape.dims) {
      if (!d.isStatic())
        return Error::badInput("input '" + v.name + "' has a symbolic dim '" + d.str() + "' (shape " +
                               v.shape.str() + "); bind it with --input-shape " +
                               (d.symbol.empty() ? v.name + "=..." : d.symbol + "=N") + " or --batch");
      dims.push_back(d.value);
    }
    const auto bytes = exec::checkedBytes(dims, static_cast<int64_t>(std::max<size_t>(dtypeSize(v.dtype), 1)));
    if (!bytes)
      return Error::badInput("input '" + v.name + "' of shape " + v.shape.str() + ": its element count overflows 64 bits");
    if (*bytes > defaultMemoryBudget())
      return Error::badInput("input '" + v.name + "' of shape " + v.shape.str() + " needs " + std::to_string(*bytes) +
                             " bytes, above the memory budget of " + std::to_string(defaultMemoryBudget()) +
                             " bytes (half of physical memory)");
    const int64_t n = exec::numelOf(dims);
    const std::string lname = lower(v.name);
    const bool isMask = lname.find("mask") != std::string::npos;
    exec::RtTensor t = exec::RtTensor::alloc(v.dtype, dims);
    switch (t.store()) {
      case exec::Store::F32:
        for (int64_t k = 0; k < n; ++k) t.mf()[k] = isMask ? 1.f : rng.uniform() * 2.f - 1.f;
        break;
      case exec::Store::I64: {
        if (n == 1 && !isMask) {
          if (auto c = comparedConstant(g, id)) {
            t.mi()[0] = *c;
            break;
          }
        }
        int64_t bound = gatherBound(g, id);
        if (bound <= 0) bound = 100;
        if (v.dtype == DType::Int8 || v.dtype == DType::UInt8) bound = std::min<int64_t>(bound, 100);
        for (int64_t k = 0; k < n; ++k)
          t.mi()[k] = isMask ? 1 : static_cast<int64_t>(rng.next() % static_cast<uint64_t>(bound));
        break;
      }
      case exec::Store::U8:
        for (int64_t k = 0; k < n; ++k) t.mb()[k] = 1;
        break;
      default:
        return Error::badInput("input '" + v.name + "' has type " + std::string(dtypeName(v.dtype)) +
                               ", which random inputs cannot make");
    }
    out.push_back(t.toTensor());
  }
  return out;
}

}  // namespace fw
