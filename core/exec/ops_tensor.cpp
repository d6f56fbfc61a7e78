// Data movement: Identity, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Slice, Gather,
// Expand, Tile, Pad.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "core/exec/Broadcast.h"
#include "core/exec/OpContext.h"
#include "core/exec/Transpose.h"
#include "core/ir/Shape.h"
#include "core/ir/SliceSpan.h"

namespace fw::exec {
namespace {

Result<std::vector<int64_t>> axesFrom(const OpContext& c, size_t inputIndex) {
  if (c.has(inputIndex)) return c.input(inputIndex).toInts();
  return c.attrInts("axes");
}

Status opIdentity(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  c.out[0] = c.input(0);
  return {};
}

Status opReshape(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects data and shape");
  const RtTensor& x = c.input(0);
  std::vector<int64_t> shape = c.input(1).toInts();
  const bool allowZero = c.attrInt("allowzero", 0) != 0;
  int64_t known = 1, infer = -1;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0 && !allowZero) {
      if (k >= x.rank()) return c.fail("shape has 0 at axis " + std::to_string(k) + " beyond the input rank");
      shape[k] = x.dims[k];
    }
    if (shape[k] == -1) {
      if (infer >= 0) return c.fail("shape has more than one -1");
      infer = static_cast<int64_t>(k);
    } else if (shape[k] < 0) {
      return c.fail("invalid shape value " + std::to_string(shape[k]));
    } else {
      known *= shape[k];
    }
  }
  if (infer >= 0) {
    if (known == 0 || x.numel() % known) return c.fail("cannot infer -1 for " + dimsStr(x.dims) + " -> " + dimsStr(shape));
    shape[static_cast<size_t>(infer)] = x.numel() / known;
  }
  if (numelOf(shape) != x.numel())
    return c.fail("cannot reshape " + dimsStr(x.dims) + " to " + dimsStr(shape));
  c.out[0] = x.reshaped(shape);
  return {};
}

Status opFlatten(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  const int64_t axis = normAxis(c.attrInt("axis", 1), r);
  if (axis < 0 || axis > r) return c.fail("axis out of range");
  // Both sides as products of their dims: an empty tensor keeps its other side ([0, 2, 2] -> [0, 4]; a
  // detector's level with no box kept, whose shape feeds a Reshape).
  int64_t a = 1, b = 1;
  for (int64_t k = 0; k < r; ++k) (k < axis ? a : b) *= x.dims[static_cast<size_t>(k)];
  c.out[0] = x.reshaped({a, b});
  return {};
}

Status opSqueeze(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  auto axes = axesFrom(c, 1);
  if (!axes.ok()) return axes.error();
  const int64_t r = static_cast<int64_t>(x.rank());
  std::vector<char> drop(x.rank(), 0);
  if (axes->empty()) {
    for (size_t k = 0; k < x.rank(); ++k) drop[k] = x.dims[k] == 1;
  } else {
    for (int64_t a : *axes) {
      const int64_t n = normAxis(a, r);
      if (n < 0 || n >= r) return c.fail("axis " + std::to_string(a) + " out of range for rank " + std::to_string(r));
      if (x.dims[static_cast<size_t>(n)] != 1) return c.fail("cannot squeeze axis " + std::to_string(a) + " of size " + std::to_string(x.dims[static_cast<size_t>(n)]));
      drop[static_cast<size_t>(n)] = 1;
    }
  }
  std::vector<int64_t> d;
  for (size_t k = 0; k < x.rank(); ++k)
    if (!drop[k]) d.push_back(x.dims[k]);
  c.out[0] = x.reshaped(d);
  return {};
}

Status opUnsqueeze(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  auto axes = axesFrom(c, 1);
  if (!axes.ok()) return axes.error();
  const int64_t r = static_cast<int64_t>(x.rank() + axes->size());
  std::vector<char> ins(static_cast<size_t>(r), 0);
  for (int64_t a : *axes) {
    const int64_t n = normAxis(a, r);
    if (n < 0 || n >= r || ins[static_cast<size_t>(n)]) return c.fail("invalid axis " + std::to_string(a));
    ins[static_cast<size_t>(n)] = 1;
  }
  std::vector<int64_t> d;
  size_t src = 0;
  for (int64_t k = 0; k < r; ++k) d.push_back(ins[static_cast<size_t>(k)] ? 1 : x.dims[src++]);
  c.out[0] = x.reshaped(d);
  return {};
}

Status opTranspose(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  const size_t r = x.rank();
  std::vector<int64_t> perm = c.attrInts("perm");
  if (perm.empty())
    for (size_t k = 0; k < r; ++k) perm.push_back(static_cast<int64_t>(r - 1 - k));
  if (perm.size() != r) return c.fail("perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(r));
  std::vector<int64_t> od(r), inStr = stridesOf(x.dims), st(r);
  std::vector<char> seen(r, 0);
  for (size_t k = 0; k < r; ++k) {
    const int64_t p = normAxis(perm[k], static_cast<int64_t>(r));
    if (p < 0 || p >= static_cast<int64_t>(r)) return c.fail("invalid perm");
    if (seen[static_cast<size_t>(p)]++) return c.fail("perm names axis " + std::to_string(p) + " twice");
    perm[k] = p;
    od[k] = x.dims[static_cast<size_t>(p)];
    st[k] = inStr[static_cast<size_t>(p)];
  }
  // Only axes of size 1 move: the elements keep their order, a view of the same buffer.
  if (permKeepsOrder(x.dims, perm) && x.isTensor()) {
    c.out[0] = x.reshaped(od);
    return {};
  }
  RtTensor y = RtTensor::alloc(x.dtype, od);
  if (r == 0 || x.numel() == 0) {
    if (x.numel()) copyElems(x, 0, y, 0, 1);
    c.out[0] = std::move(y);
    return {};
  }
  copyStrided(x, 0, st, y, od);
  c.out[0] = std::move(y);
  return {};
}

Status opConcat(OpContext& c) {
  std::vector<const RtTensor*> ins;
  for (size_t k = 0; k < c.numIn(); ++k)
    if (c.has(k)) ins.push_back(c.in[k]);
  if (ins.empty()) return c.fail("no inputs");
  const RtTensor& f = *ins[0];
  const int64_t r = static_cast<int64_t>(f.rank());
  auto axisAttr = c.attrs.getInt("axis");
  if (!axisAttr) return c.fail("missing attribute 'axis'");
  const int64_t axis = normAxis(*axisAttr, r);
  if (axis < 0 || axis >= r) return c.fail("axis out of range");
  std::vector<int64_t> od = f.dims;
  od[static_cast<size_t>(axis)] = 0;
  for (const RtTensor* t : ins) {
    if (t->rank() != f.rank() || t->store() != f.store()) return c.fail("inputs differ in rank or type");
    for (int64_t d = 0; d < r; ++d)
      if (d != axis && t->dims[static_cast<size_t>(d)] != f.dims[static_cast<size_t>(d)])
        return c.fail("input shapes " + dimsStr(f.dims) + " and " + dimsStr(t->dims) + " differ off the axis");
    od[static_cast<size_t>(axis)] += t->dims[static_cast<size_t>(axis)];
  }
  RtTensor y = RtTensor::alloc(f.dtype, od);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= od[static_cast<size_t>(d)];
  const int64_t inner = numelOf(std::vector<int64_t>(od.begin() + axis + 1, od.end()));
  const int64_t rowOut = od[static_cast<size_t>(axis)] * inner;
  const auto es = static_cast<int64_t>(storeBytes(f.store()));
  if (f.store() == Store::Str) {
    int64_t at = 0;
    for (const RtTensor* t : ins) {
      const int64_t rowIn = t->dims[static_cast<size_t>(axis)] * inner;
      for (int64_t o = 0; o < outer; ++o) copyElems(*t, o * rowIn, y, o * rowOut + at, rowIn);
      at += rowIn;
    }
    c.out[0] = std::move(y);
    return {};
  }
  // Blocks of output rows of about 16 KB, every input's part of a block written before the next block:
  // each input's part of a row is its own copy, and input by input over the whole output, short parts
  // (a stack of 64 per-step [16, 192, 1] outputs along the last axis: 64 passes of one float a row over
  // 786 KB) wrote a cache line an element out of cache: 194-252 us alone, 102-104 in blocks (session 46).
  const int64_t block = std::max<int64_t>(1, (int64_t{16} << 10) / std::max<int64_t>(1, rowOut * es));
  char* out = static_cast<char*>(y.mraw());
  for (int64_t o0 = 0; o0 < outer; o0 += block) {
    const int64_t rows = std::min(block, outer - o0);
    int64_t at = 0;
    for (const RtTensor* t : ins) {
      const int64_t rowIn = t->dims[static_cast<size_t>(axis)] * inner;
      if (rowIn > 0) {
        const char* src = static_cast<const char*>(t->raw()) + o0 * rowIn * es;
        char* dst = out + (o0 * rowOut + at) * es;
        copyRows(
            rows, rowIn * es, [&](int64_t o) { return src + o * rowIn * es; },
            [&](int64_t o) { return dst + o * rowOut * es; });
      }
      at += rowIn;
    }
  }
  c.out[0] = std::move(y);
  return {};
}

Status opSplit(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  const int64_t axis = normAxis(c.attrInt("axis", 0), r);
  if (axis < 0 || axis >= r) return c.fail("axis out of range");
  const int64_t dim = x.dims[static_cast<size_t>(axis)];
  const size_t nOut = c.node.outputs.size();
  std::vector<int64_t> split = c.has(1) ? c.input(1).toInts() : c.attrInts("split");
  if (split.empty()) {
    const int64_t parts = c.attrInt("num_outputs", static_cast<int64_t>(nOut));
    const int64_t chunk = (dim + parts - 1) / parts;
    for (int64_t k = 0; k < parts; ++k) split.push_back(std::min(chunk, dim - k * chunk));
  }
  int64_t total = 0;
  for (int64_t s : split) total += s;
  if (split.size() != nOut || total != dim)
    return c.fail("split " + dimsStr(split) + " does not divide axis of size " + std::to_string(dim) + " into " +
                  std::to_string(nOut) + " outputs");
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  const int64_t inner = numelOf(std::vector<int64_t>(x.dims.begin() + axis + 1, x.dims.end()));
  int64_t at = 0;
  for (size_t k = 0; k < nOut; ++k) {
    std::vector<int64_t> od = x.dims;
    od[static_cast<size_t>(axis)] = split[k];
    RtTensor y = RtTensor::alloc(x.dtype, od);
    const int64_t row = split[k] * inner;
    if (x.store() == Store::Str || row == 0) {
      for (int64_t o = 0; o < outer; ++o) copyElems(x, (o * dim + at) * inner, y, o * row, row);
    } else {
      const auto es = static_cast<int64_t>(storeBytes(x.store()));
      const char* src = static_cast<const char*>(x.raw()) + at * inner * es;
      char* dst = static_cast<char*>(y.mraw());
      copyRows(
          outer, row * es, [&](int64_t o) { return src + o * dim * inner * es; },
          [&](int64_t o) { return dst + o * row * es; });
    }
    at += split[k];
    c.out[k] = std::move(y);
  }
  return {};
}

Status opSlice(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.has(1)) {
    starts = c.input(1).toInts();
    if (!c.has(2)) return c.fail("missing ends");
    ends = c.input(2).toInts();
    if (c.has(3)) axes = c.input(3).toInts();
    if (c.has(4)) steps = c.input(4).toInts();
  } else {
    starts = c.attrInts("starts");
    ends = c.attrInts("ends");
    axes = c.attrInts("axes");
  }
  if (starts.size() != ends.size()) return c.fail("starts and ends differ in length");
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size()) return c.fail("axes/steps length mismatch");
  std::vector<int64_t> st(x.rank(), 0), sp(x.rank(), 1), od = x.dims;
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t a = normAxis(axes[k], r);
    if (a < 0 || a >= r) return c.fail("axis " + std::to_string(axes[k]) + " out of range");
    const int64_t dim = x.dims[static_cast<size_t>(a)], step = steps[k];
    if (step == 0) return c.fail("step must not be 0");
    const SliceSpan span = sliceSpan(dim, starts[k], ends[k], step);
    od[static_cast<size_t>(a)] = span.length;
    st[static_cast<size_t>(a)] = span.start;
    sp[static_cast<size_t>(a)] = step;
  }
  RtTensor y = RtTensor::alloc(x.dtype, od);
  const auto is = stridesOf(x.dims);
  int64_t base = 0;
  std::vector<int64_t> walk(x.rank());
  for (size_t d = 0; d < x.rank(); ++d) {
    base += st[d] * is[d];
    walk[d] = sp[d] * is[d];
  }
  if (y.numel() > 0) copyStrided(x, base, walk, y, od);
  c.out[0] = std::move(y);
  return {};
}

Status opGather(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects data and indices");
  const RtTensor& x = c.input(0);
  const RtTensor& idx = c.input(1);
  const int64_t r = static_cast<int64_t>(x.rank());
  const int64_t axis = normAxis(c.attrInt("axis", 0), r);
  if (axis < 0 || axis >= r) return c.fail("axis out of range");
  const int64_t dim = x.dims[static_cast<size_t>(axis)];
  std::vector<int64_t> od(x.dims.begin(), x.dims.begin() + axis);
  od.insert(od.end(), idx.dims.begin(), idx.dims.end());
  od.insert(od.end(), x.dims.begin() + axis + 1, x.dims.end());
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  const int64_t inner = numelOf(std::vector<int64_t>(x.dims.begin() + axis + 1, x.dims.end()));
  // The indices read where they lie when they are int64, copied (negative ones moved up by dim) only when
  // some are negative or of another type: two copies of a hash grid's 524288 indices, each a fresh 4 MB, took
  // about a quarter of its 2.5 ms Gather (1 thread, set 65, session 54).
  std::vector<int64_t> own;
  const int64_t* ind = nullptr;
  if (idx.store() == Store::I64) {
    ind = idx.i();
  } else {
    own = idx.toInts();
    ind = own.data();
  }
  const int64_t ni = idx.numel();
  bool negative = false;
  for (int64_t k = 0; k < ni; ++k) {
    const int64_t i = ind[k];
    if (i < -dim || i >= dim)
      return c.fail("index " + std::to_string(i) + " out of range [" + std::to_string(-dim) + ", " +
                    std::to_string(dim) + ")");
    negative = negative || i < 0;
  }
  if (negative) {
    if (own.empty()) own.assign(ind, ind + ni);
    for (int64_t& i : own) i += i < 0 ? dim : 0;
    ind = own.data();
  }
  const int64_t* const at = ind;
  RtTensor y = RtTensor::alloc(x.dtype, od);
  if (y.numel() > 0) {
    if (x.store() == Store::Str) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < ni; ++k)
          copyElems(x, (o * dim + at[k]) * inner, y, (o * ni + k) * inner, inner);
    } else {
      // One copy of a row's bytes a pick (copyRows), the pointers and sizes taken once: a row of 4 or 8
      // bytes (a column of a table, inner 1) with a size the compiler knows.
      const auto es = static_cast<int64_t>(storeBytes(x.store()));
      const char* src = static_cast<const char*>(x.raw());
      char* dst = static_cast<char*>(y.mraw());
      const int64_t row = inner * es;
      if (outer > ni) {
        // Fewer picks than outer rows (a column, x[:, :, t]): pick by pick over the rows, one copyRows
        // each, not a call for every row's one pick ([16, 192, 64] at one index of the last axis: 5.9-6.6
        // -> 4.8-6.5 us; the rest is a cache line fetched a pick).
        for (int64_t k = 0; k < ni; ++k) {
          const char* from = src + at[k] * row;
          char* to = dst + k * row;
          copyRows(
              outer, row, [&](int64_t o) { return from + o * dim * row; },
              [&](int64_t o) { return to + o * ni * row; });
        }
      } else {
        for (int64_t o = 0; o < outer; ++o) {
          const char* from = src + o * dim * row;
          char* to = dst + o * ni * row;
          copyRows(
              ni, row, [&](int64_t k) { return from + at[k] * row; },
              [&](int64_t k) { return to + k * row; });
        }
      }
    }
  }
  c.out[0] = std::move(y);
  return {};
}

Status opExpand(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects input and shape");
  const RtTensor& x = c.input(0);
  auto od = broadcastShapes({x.dims, c.input(1).toInts()});
  if (!od.ok()) return c.fail(od.error().message);
  RtTensor y = RtTensor::alloc(x.dtype, *od);
  if (y.numel() > 0)
    broadcastRows<1>(*od, {x.dims}, [&](int64_t o, const std::array<int64_t, 1>& off, int64_t len,
                                        const std::array<int64_t, 1>& st) {
      if (st[0] == 1) {
        copyElems(x, off[0], y, o, len);
      } else if (st[0] == 0) {
        // One element repeated along the run (a [N, C, H, 1] expanded along W): element by element through
        // copyElems, [8, 64, 32, 1] to [8, 64, 32, 32] took 1.44 ms (22 ns an element), as fills 0.1 ms.
        fillElems(x, off[0], y, o, len);
      } else {
        for (int64_t i = 0; i < len; ++i) copyElems(x, off[0] + i * st[0], y, o + i, 1);
      }
    });
  c.out[0] = std::move(y);
  return {};
}

Status opTile(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects input and repeats");
  const RtTensor& x = c.input(0);
  const auto rep = c.input(1).toInts();
  if (rep.size() != x.rank()) return c.fail("repeats must have one entry per axis");
  std::vector<int64_t> od(x.rank());
  for (size_t d = 0; d < x.rank(); ++d) od[d] = x.dims[d] * rep[d];
  RtTensor y = RtTensor::alloc(x.dtype, od);
  if (y.numel() == 0) {
    c.out[0] = std::move(y);
    return {};
  }
  if (x.rank() == 0) {
    copyElems(x, 0, y, 0, 1);
    c.out[0] = std::move(y);
    return {};
  }
  // A run of the input's last axis at a time, repeated along it; the source row found once an output row.
  // (Element by element, with a division per axis and element, a [16, 1, 128] repeated 50 times along
  // axis 1 took 2.6 ms: 25 ns an element.)
  const size_t r = x.rank();
  const int64_t len = x.dims[r - 1], reps = rep[r - 1], outLen = od[r - 1];
  const auto is = stridesOf(x.dims);
  const int64_t rows = y.numel() / outLen;
  for (int64_t row = 0; row < rows; ++row) {
    int64_t off = 0;
    for (int64_t rem = row, d = static_cast<int64_t>(r) - 2; d >= 0; --d) {
      const auto k = static_cast<size_t>(d);
      off += (rem % od[k]) % x.dims[k] * is[k];
      rem /= od[k];
    }
    for (int64_t k = 0; k < reps; ++k) copyElems(x, off, y, row * outLen + k * len, len);
  }
  c.out[0] = std::move(y);
  return {};
}

// Pad: the input index that output index `o` reads along an axis of `n` elements padded by `b` in
// front, or -1 outside the input (constant mode).
enum class PadMode { Constant, Edge, Reflect, Unknown };
int64_t padSource(int64_t o, int64_t b, int64_t n, PadMode m) {
  int64_t i = o - b;
  if (i >= 0 && i < n) return i;
  if (m == PadMode::Edge) return std::clamp<int64_t>(i, 0, n - 1);
  if (m != PadMode::Reflect) return -1;
  if (n == 1) return 0;
  const int64_t period = 2 * (n - 1);
  i = ((i % period) + period) % period;
  return i >= n ? period - i : i;
}

Status opPad(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  const size_t r = x.rank();
  std::vector<int64_t> pads = c.has(1) ? c.input(1).toInts() : c.attrInts("pads");
  const std::string mode = c.attrStr("mode", "constant");
  std::vector<int64_t> begin(r, 0), end(r, 0);
  if (c.has(3)) {
    const auto axes = c.input(3).toInts();
    if (pads.size() != 2 * axes.size()) return c.fail("pads must have 2 entries per axis");
    for (size_t k = 0; k < axes.size(); ++k) {
      const int64_t a = normAxis(axes[k], static_cast<int64_t>(r));
      begin[static_cast<size_t>(a)] = pads[k];
      end[static_cast<size_t>(a)] = pads[k + axes.size()];
    }
  } else {
    if (pads.size() != 2 * r) return c.fail("pads must have " + std::to_string(2 * r) + " entries");
    for (size_t d = 0; d < r; ++d) {
      begin[d] = pads[d];
      end[d] = pads[d + r];
    }
  }
  std::vector<int64_t> od(r);
  for (size_t d = 0; d < r; ++d) {
    od[d] = x.dims[d] + begin[d] + end[d];
    if (od[d] < 0) return c.fail("negative output dim");
    if (mode != "constant" && od[d] > 0 && x.dims[d] == 0) return c.fail("cannot " + mode + "-pad an empty axis");
  }
  // No pad on any axis (PyTorch exports one before a pooling without padding): the input itself, as
  // a Reshape hands it out (the cost model counts it as a view, simulator/OpFamily.h).
  if (std::all_of(begin.begin(), begin.end(), [](int64_t v) { return v == 0; }) &&
      std::all_of(end.begin(), end.end(), [](int64_t v) { return v == 0; })) {
    c.out[0] = x;
    return {};
  }
  RtTensor cv;
  if (c.has(2)) cv = castTo(c.input(2), x.dtype);
  else {
    cv = castTo(RtTensor::scalarF(c.attrFloat("value", 0.f)), x.dtype);
  }
  RtTensor y = RtTensor::alloc(x.dtype, od);
  const int64_t total = y.numel();
  if (total == 0 || r == 0) {
    copyElems(x, 0, y, 0, total);
    c.out[0] = std::move(y);
    return {};
  }
  const PadMode m = mode == "constant"  ? PadMode::Constant
                    : mode == "edge"    ? PadMode::Edge
                    : mode == "reflect" ? PadMode::Reflect
                                        : PadMode::Unknown;
  if (m == PadMode::Unknown)
    for (size_t d = 0; d < r; ++d)
      if (begin[d] > 0 || end[d] > 0) return c.fail("unsupported mode '" + mode + "'");
  // Row by row along the last axis: the overlap with the input row in one copy, the pad columns
  // from a row of the constant or one by one (edge, reflect). Was one element at a time with a
  // division per axis: about 1 ms for each of Swin-B's window pads. The rows of one outer index (the
  // axes before the last two) are walked along the second-to-last axis with its source row found once a
  // row, its parts in typed loops and runs of whole rows in one copy: with every axis's source looked up
  // and three memcpy calls of a run-time size a row, a shift MLP's pads of [8, 24, 15, 16] by one row
  // (3072 rows of 16 floats) took 52-93 us, of [8, 24, 16, 15] by one column 72-128 us (session 45).
  const size_t last = r - 1;
  const int64_t W = od[last], n = x.dims[last], b = begin[last];
  RtTensor fill;
  if (m == PadMode::Constant || m == PadMode::Unknown) {
    fill = RtTensor::alloc(x.dtype, {W});
    fillElems(cv, 0, fill, 0, W);
  }
  const int64_t lo = std::clamp<int64_t>(b, 0, W), hi = std::clamp<int64_t>(b + n, 0, W);
  const int64_t padLo = hi > lo ? lo : W, padHi = hi > lo ? hi : W;  // columns [0, padLo) and [padHi, W) pad
  const auto is = stridesOf(x.dims);
  const auto es = static_cast<int64_t>(storeBytes(x.store()));
  // The input offset of the output index `idx` on its leading axes, or -1 where one of them falls in the
  // padding; and the index's successor.
  auto sourceOffset = [&](const std::vector<int64_t>& idx) {
    int64_t base = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      const int64_t i = padSource(idx[d], begin[d], x.dims[d], m);
      if (i < 0) return int64_t{-1};
      base += i * is[d];
    }
    return base;
  };
  auto advance = [&](std::vector<int64_t>& idx) {
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < od[d]) break;
      idx[d] = 0;
    }
  };
  if (es == 0) {                        // strings: element by element through copyElems
    std::vector<int64_t> idx(last, 0);  // the row's output index on the outer axes
    for (int64_t o = 0; o < total; o += W) {
      const int64_t base = sourceOffset(idx);
      if (base < 0) {
        copyElems(fill, 0, y, o, W);
      } else {
        if (hi > lo) copyElems(x, base + lo - b, y, o + lo, hi - lo);
        if (fill.defined()) {
          copyElems(fill, 0, y, o, padLo);
          copyElems(fill, 0, y, o + padHi, W - padHi);
        } else {
          for (int64_t k = 0; k < padLo; ++k) copyElems(x, base + padSource(k, b, n, m), y, o + k, 1);
          for (int64_t k = padHi; k < W; ++k) copyElems(x, base + padSource(k, b, n, m), y, o + k, 1);
        }
      }
      advance(idx);
    }
    c.out[0] = std::move(y);
    return {};
  }
  // Typed rows (U: the element's bits), a row's parts in loops the compiler vectorises; where the last axis
  // is not padded, consecutive rows of consecutive source rows in one copy.
  const size_t mid = r >= 2 ? r - 2 : 0;  // the axis walked within an outer index (none when rank 1)
  const int64_t H = r >= 2 ? od[mid] : 1;
  const bool wholeRows = b == 0 && n == W;  // each output row is its source row, whole
  auto run = [&](auto tag) {
    using U = decltype(tag);
    const U* xs = static_cast<const U*>(x.raw());
    U* ys = static_cast<U*>(y.mraw());
    U fv{};
    if (fill.defined()) std::memcpy(&fv, fill.raw(), sizeof(U));
    auto source = [&](int64_t h) { return r >= 2 ? padSource(h, begin[mid], x.dims[mid], m) : 0; };
    std::vector<int64_t> idx(mid, 0);  // the outer index
    for (int64_t o = 0; o < total; o += H * W) {
      const int64_t base = sourceOffset(idx);
      if (base < 0) {
        std::fill_n(ys + o, H * W, fv);
      } else {
        for (int64_t h = 0; h < H;) {
          U* __restrict row = ys + o + h * W;
          const int64_t i = source(h);
          if (i < 0) {
            std::fill_n(row, W, fv);
            ++h;
            continue;
          }
          const U* __restrict src = xs + base + (r >= 2 ? i * is[mid] : 0);
          if (wholeRows) {
            int64_t e = h + 1;
            while (e < H && source(e) == i + (e - h)) ++e;
            std::memcpy(row, src, static_cast<size_t>((e - h) * W) * sizeof(U));
            h = e;
            continue;
          }
          const U* __restrict part = src + (lo - b);
          for (int64_t k = lo; k < hi; ++k) row[k] = part[k - lo];
          if (fill.defined()) {
            for (int64_t k = 0; k < padLo; ++k) row[k] = fv;
            for (int64_t k = padHi; k < W; ++k) row[k] = fv;
          } else {
            for (int64_t k = 0; k < padLo; ++k) row[k] = src[padSource(k, b, n, m)];
            for (int64_t k = padHi; k < W; ++k) row[k] = src[padSource(k, b, n, m)];
          }
          ++h;
        }
      }
      advance(idx);
    }
  };
  if (es == 4)
    run(uint32_t{});
  else if (es == 8)
    run(uint64_t{});
  else
    run(uint8_t{});
  c.out[0] = std::move(y);
  return {};
}

}  // namespace

std::vector<OpEntry> tensorOps() {
  return {
      {"Identity", opIdentity},
      {"Reshape", opReshape},
      {"Flatten", opFlatten},
      {"Squeeze", opSqueeze},
      {"Unsqueeze", opUnsqueeze},
      {"Transpose", opTranspose},
      {"Concat", opConcat},
      {"Split", opSplit},
      {"Slice", opSlice},
      {"Gather", opGather},
      {"Expand", opExpand},
      {"Tile", opTile},
      {"Pad", opPad},
  };
}

}  // namespace fw::exec
