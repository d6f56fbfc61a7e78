// Sequences and optionals as values (OpContext.h: RtTensor::Kind): SequenceEmpty, SequenceConstruct,
// SequenceInsert, SequenceAt, SequenceErase, SequenceLength, SplitToSequence, ConcatFromSequence,
// SequenceMap, Optional, OptionalHasElement, OptionalGetElement. A sequence shares its element
// tensors (they are immutable), so inserting into a long sequence copies handles, not data, and appending
// at its end shares its element storage too (RtTensor::appended: a loop that collects a list appends in
// constant time a trip).
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

Result<const RtTensor*> seqInput(const OpContext& c, size_t k) {
  if (!c.has(k)) return c.fail("missing input " + std::to_string(k) + " (a sequence)");
  const RtTensor& s = c.input(k);
  if (!s.isSequence()) return c.fail("input " + std::to_string(k) + " is not a sequence");
  return &s;
}

// A position input (scalar int) checked against [lo, hi], negative counted from the end (+n).
Result<int64_t> position(const OpContext& c, size_t k, int64_t n, int64_t def, bool allowEnd) {
  if (!c.has(k)) return def;
  const RtTensor& p = c.input(k);
  if (p.store() != Store::I64 || p.numel() != 1) return c.fail("position must be a scalar int32 or int64");
  const int64_t raw = p.getI(0);
  const int64_t pos = raw < 0 ? raw + n : raw;
  if (pos < 0 || pos > (allowEnd ? n : n - 1))
    return c.fail("position " + std::to_string(raw) + " is out of range for a sequence of length " + std::to_string(n));
  return pos;
}

Status opSequenceEmpty(OpContext& c) {
  const auto dt = dtypeFromInt(static_cast<int32_t>(c.attrInt("dtype", 1)));
  if (!dt) return c.fail("attribute 'dtype' is not an ONNX element type");
  c.out[0] = RtTensor::sequence(*dt, {});
  return {};
}

Status opSequenceConstruct(OpContext& c) {
  std::vector<RtTensor> items;
  for (size_t k = 0; k < c.numIn(); ++k) {
    if (!c.has(k) || !c.input(k).isTensor()) return c.fail("input " + std::to_string(k) + " is not a tensor");
    if (!items.empty() && c.input(k).dtype != items[0].dtype)
      return c.fail("input " + std::to_string(k) + " has type " + std::string(dtypeName(c.input(k).dtype)) +
                    ", input 0 " + std::string(dtypeName(items[0].dtype)) + ": a sequence holds one type");
    items.push_back(c.input(k));
  }
  if (items.empty()) return c.fail("needs at least one input");
  const DType dt = items[0].dtype;
  c.out[0] = RtTensor::sequence(dt, std::move(items));
  return {};
}

Status opSequenceInsert(OpContext& c) {
  const RtTensor* s = nullptr;
  FW_ASSIGN_OR_RETURN(s, seqInput(c, 0));
  if (!c.has(1) || !c.input(1).isTensor()) return c.fail("input 1 (tensor) is missing or not a tensor");
  const RtTensor& t = c.input(1);
  if (s->dtype != DType::Undefined && t.dtype != s->dtype)
    return c.fail("tensor of type " + std::string(dtypeName(t.dtype)) + " inserted into a sequence of " +
                  std::string(dtypeName(s->dtype)));
  const auto n = static_cast<int64_t>(s->items().size());
  int64_t pos = 0;
  FW_ASSIGN_OR_RETURN(pos, position(c, 2, n, n, true));
  if (pos == n) {  // at the end: shares the sequence's storage where it can (RtTensor::appended)
    c.out[0] = RtTensor::appended(*s, t);
    return {};
  }
  const auto seq = s->items();
  std::vector<RtTensor> items(seq.begin(), seq.end());
  items.insert(items.begin() + pos, t);
  c.out[0] = RtTensor::sequence(t.dtype, std::move(items));
  return {};
}

Status opSequenceAt(OpContext& c) {
  const RtTensor* s = nullptr;
  FW_ASSIGN_OR_RETURN(s, seqInput(c, 0));
  if (!c.has(1)) return c.fail("missing input 'position'");
  int64_t pos = 0;
  FW_ASSIGN_OR_RETURN(pos, position(c, 1, static_cast<int64_t>(s->items().size()), 0, false));
  c.out[0] = s->items()[static_cast<size_t>(pos)];
  return {};
}

Status opSequenceErase(OpContext& c) {
  const RtTensor* s = nullptr;
  FW_ASSIGN_OR_RETURN(s, seqInput(c, 0));
  const auto seq = s->items();
  std::vector<RtTensor> items(seq.begin(), seq.end());
  if (items.empty()) return c.fail("cannot erase from an empty sequence");
  int64_t pos = 0;
  FW_ASSIGN_OR_RETURN(pos, position(c, 1, static_cast<int64_t>(items.size()), static_cast<int64_t>(items.size()) - 1, false));
  items.erase(items.begin() + pos);
  c.out[0] = RtTensor::sequence(s->dtype, std::move(items));
  return {};
}

Status opSequenceLength(OpContext& c) {
  const RtTensor* s = nullptr;
  FW_ASSIGN_OR_RETURN(s, seqInput(c, 0));
  c.out[0] = RtTensor::scalarI(static_cast<int64_t>(s->items().size()));
  return {};
}

Status opSplitToSequence(OpContext& c) {
  if (!c.has(0) || !c.input(0).isTensor()) return c.fail("input 0 is missing or not a tensor");
  const RtTensor& x = c.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  if (r == 0) return c.fail("cannot split a scalar");
  const int64_t axis = normAxis(c.attrInt("axis", 0), r);
  if (axis < 0 || axis >= r) return c.fail("attribute 'axis' out of range for rank " + std::to_string(r));
  const int64_t dim = x.dims[static_cast<size_t>(axis)];
  std::vector<int64_t> split;
  bool squeeze = false;
  if (!c.has(1)) {
    split.assign(static_cast<size_t>(dim), 1);
    squeeze = c.attrInt("keepdims", 1) == 0;
  } else {
    const RtTensor& sp = c.input(1);
    if (sp.store() != Store::I64) return c.fail("input 'split' must be int32 or int64");
    if (sp.rank() == 0) {
      const int64_t chunk = sp.getI(0);
      if (chunk <= 0) return c.fail("split size " + std::to_string(chunk) + " must be positive");
      for (int64_t at = 0; at < dim; at += chunk) split.push_back(std::min(chunk, dim - at));
    } else {
      split = sp.toInts();
      int64_t total = 0;
      for (int64_t v : split) {
        if (v < 0) return c.fail("negative split size " + std::to_string(v));
        total += v;
      }
      if (total != dim)
        return c.fail("split " + dimsStr(split) + " does not add up to the axis size " + std::to_string(dim));
    }
  }
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  const int64_t inner = numelOf(std::vector<int64_t>(x.dims.begin() + axis + 1, x.dims.end()));
  std::vector<RtTensor> items;
  int64_t at = 0;
  for (int64_t len : split) {
    std::vector<int64_t> od = x.dims;
    od[static_cast<size_t>(axis)] = len;
    RtTensor y = RtTensor::alloc(x.dtype, od);
    for (int64_t o = 0; o < outer; ++o) copyElems(x, (o * dim + at) * inner, y, o * len * inner, len * inner);
    at += len;
    if (squeeze) od.erase(od.begin() + axis);
    items.push_back(y.reshaped(od));
  }
  c.out[0] = RtTensor::sequence(x.dtype, std::move(items));
  return {};
}

Status opConcatFromSequence(OpContext& c) {
  const RtTensor* s = nullptr;
  FW_ASSIGN_OR_RETURN(s, seqInput(c, 0));
  const auto& items = s->items();
  if (items.empty()) return c.fail("cannot concatenate an empty sequence");
  const bool newAxis = c.attrInt("new_axis", 0) != 0;
  const auto axisAttr = c.attrs.getInt("axis");
  if (!axisAttr) return c.fail("missing attribute 'axis'");
  const RtTensor& f = items[0];
  const int64_t r = static_cast<int64_t>(f.rank()) + (newAxis ? 1 : 0);
  const int64_t axis = normAxis(*axisAttr, r);
  if (axis < 0 || axis >= r) return c.fail("attribute 'axis' " + std::to_string(*axisAttr) + " out of range");
  // An element's dims with the axis present (a unit axis inserted for new_axis), read in place. A reshaped
  // copy of each element cost far more than the concatenation: a point-cloud net's 128 sampled indices
  // ([2] each, stacked to [2, 128]) took 54-72 us a run, 3.1-3.4 this way (session 81).
  auto dimOf = [&](const RtTensor& t, int64_t d) {
    if (!newAxis) return t.dims[static_cast<size_t>(d)];
    return d == axis ? int64_t{1} : t.dims[static_cast<size_t>(d < axis ? d : d - 1)];
  };
  auto withAxis = [&](const RtTensor& t) {
    std::vector<int64_t> d(static_cast<size_t>(r));
    for (int64_t k = 0; k < r; ++k) d[static_cast<size_t>(k)] = dimOf(t, k);
    return d;
  };
  std::vector<int64_t> od = withAxis(f);
  od[static_cast<size_t>(axis)] = 0;
  for (const auto& t : items) {
    if (t.rank() != f.rank() || t.dtype != f.dtype) return c.fail("sequence elements differ in rank or type");
    for (int64_t d = 0; d < r; ++d)
      if (d != axis && dimOf(t, d) != dimOf(f, d))
        return c.fail("element shapes " + dimsStr(withAxis(f)) + " and " + dimsStr(withAxis(t)) +
                      " differ off the axis");
    od[static_cast<size_t>(axis)] += dimOf(t, axis);
  }
  RtTensor y = RtTensor::alloc(f.dtype, od);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= od[static_cast<size_t>(d)];
  const int64_t inner = numelOf(std::vector<int64_t>(od.begin() + axis + 1, od.end()));
  const int64_t rowOut = od[static_cast<size_t>(axis)] * inner;
  int64_t at = 0;
  for (const auto& t : items) {
    const int64_t rowIn = dimOf(t, axis) * inner;
    for (int64_t o = 0; o < outer; ++o) copyElems(t, o * rowIn, y, o * rowOut + at, rowIn);
    at += rowIn;
  }
  c.out[0] = std::move(y);
  return {};
}

// SequenceMap: the body runs once per element of input 0; further inputs that are sequences give
// their element at the same position (same length required), tensors are passed whole.
Status opSequenceMap(OpContext& c) {
  const RtTensor* s = nullptr;
  FW_ASSIGN_OR_RETURN(s, seqInput(c, 0));
  GraphPtr body = c.attrs.getGraph("body");
  if (!body) return c.fail("missing attribute 'body'");
  const size_t n = s->items().size();
  for (size_t k = 1; k < c.numIn(); ++k)
    if (c.has(k) && c.input(k).isSequence() && c.input(k).items().size() != n)
      return c.fail("input " + std::to_string(k) + " is a sequence of length " +
                    std::to_string(c.input(k).items().size()) + ", input 0 has " + std::to_string(n));
  std::vector<std::vector<RtTensor>> outs(c.out.size());
  for (size_t i = 0; i < n; ++i) {
    std::vector<RtTensor> args{s->items()[i]};
    for (size_t k = 1; k < c.numIn(); ++k) {
      if (!c.has(k)) return c.fail("input " + std::to_string(k) + " is missing");
      args.push_back(c.input(k).isSequence() ? c.input(k).items()[i] : c.input(k));
    }
    auto r = runSubgraph(c, *body, args, "body");
    if (!r.ok()) return r.error().context("node '" + c.node.name + "' (SequenceMap element " + std::to_string(i) + ")");
    if (r->size() != c.out.size()) return c.fail("body returns " + std::to_string(r->size()) + " outputs, the node has " + std::to_string(c.out.size()));
    for (size_t k = 0; k < r->size(); ++k) outs[k].push_back((*r)[k]);
  }
  traceControlFlow(c, -1, static_cast<int64_t>(n));
  for (size_t k = 0; k < c.out.size(); ++k) {
    // An empty result keeps the element type the body declares for that output.
    DType dt = outs[k].empty() ? body->value(body->outputs()[k]).dtype : outs[k][0].dtype;
    c.out[k] = RtTensor::sequence(dt, std::move(outs[k]));
  }
  return {};
}

Status opOptional(OpContext& c) {
  if (c.has(0)) {
    c.out[0] = c.input(0);
    return {};
  }
  // The element type is in the 'type' attribute (a TypeProto); an empty optional carries none here.
  if (!c.attrs.find("type")) return c.fail("an Optional without input needs the 'type' attribute");
  c.out[0] = RtTensor::none(DType::Undefined);
  return {};
}

Status opOptionalHasElement(OpContext& c) {
  RtTensor y = RtTensor::alloc(DType::Bool, {});
  y.mb()[0] = c.has(0) && !c.input(0).isNone() ? 1 : 0;
  c.out[0] = std::move(y);
  return {};
}

Status opOptionalGetElement(OpContext& c) {
  if (!c.has(0) || c.input(0).isNone()) return c.fail("the optional input is empty");
  c.out[0] = c.input(0);
  return {};
}

}  // namespace

std::vector<OpEntry> sequenceOps() {
  return {{"SequenceEmpty", opSequenceEmpty},
          {"SequenceConstruct", opSequenceConstruct},
          {"SequenceInsert", opSequenceInsert},
          {"SequenceAt", opSequenceAt},
          {"SequenceErase", opSequenceErase},
          {"SequenceLength", opSequenceLength},
          {"SplitToSequence", opSplitToSequence},
          {"ConcatFromSequence", opConcatFromSequence},
          {"SequenceMap", opSequenceMap},
          {"Optional", opOptional},
          {"OptionalHasElement", opOptionalHasElement},
          {"OptionalGetElement", opOptionalGetElement}};
}

}  // namespace fw::exec
