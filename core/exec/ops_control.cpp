// Control flow: If, Loop, Scan (opset 8's batched form and 9+). Bodies run through the interpreter with the caller's
// scope, so they can read values of the enclosing graphs by name.
#include <algorithm>
#include <cstring>

#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

// x with `axis` removed, taking index t along it.
RtTensor sliceAxis(const RtTensor& x, int64_t axis, int64_t t) {
  std::vector<int64_t> od = x.dims;
  const int64_t len = od[static_cast<size_t>(axis)];
  od.erase(od.begin() + axis);
  RtTensor y = RtTensor::alloc(x.dtype, od);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  const int64_t inner = numelOf(std::vector<int64_t>(x.dims.begin() + axis + 1, x.dims.end()));
  for (int64_t o = 0; o < outer; ++o) copyElems(x, (o * len + t) * inner, y, o * inner, inner);
  return y;
}

// Stacks equally shaped tensors along a new `axis`.
RtTensor stackAxis(const std::vector<RtTensor>& parts, int64_t axis, const RtTensor& like) {
  std::vector<int64_t> od = parts.empty() ? like.dims : parts[0].dims;
  const int64_t n = static_cast<int64_t>(parts.size());
  od.insert(od.begin() + axis, n);
  RtTensor y = RtTensor::alloc(parts.empty() ? like.dtype : parts[0].dtype, od);
  if (parts.empty()) return y;
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= od[static_cast<size_t>(d)];
  const int64_t inner = numelOf(std::vector<int64_t>(od.begin() + axis + 1, od.end()));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < n; ++k) copyElems(parts[static_cast<size_t>(k)], o * inner, y, (o * n + k) * inner, inner);
  return y;
}

Status opIf(OpContext& c) {
  if (!c.has(0)) return c.fail("missing cond");
  const bool cond = c.input(0).getD(0) != 0;
  GraphPtr g = c.attrs.getGraph(cond ? "then_branch" : "else_branch");
  if (!g) return c.fail(std::string("missing ") + (cond ? "then_branch" : "else_branch"));
  traceControlFlow(c, cond ? 1 : 0, 0);
  auto r = runSubgraph(c, *g, {}, cond ? "then_branch" : "else_branch");
  if (!r.ok()) return r.error().context("node '" + c.node.name + "' (If)");
  if (r->size() < c.out.size()) return c.fail("branch returns fewer outputs than the node has");
  for (size_t k = 0; k < c.out.size(); ++k) c.out[k] = (*r)[k];
  return {};
}

Status opLoop(OpContext& c) {
  GraphPtr body = c.attrs.getGraph("body");
  if (!body) return c.fail("missing body");
  const bool hasM = c.has(0), hasCond = c.has(1);
  const int64_t maxTrips = hasM ? c.input(0).getI(0) : -1;
  bool cond = hasCond ? c.input(1).getD(0) != 0 : true;
  if (!hasM && !hasCond) return c.fail("a Loop without trip count and condition never ends");
  const size_t nCarried = c.numIn() > 2 ? c.numIn() - 2 : 0;
  std::vector<RtTensor> carried;
  for (size_t k = 0; k < nCarried; ++k) carried.push_back(c.has(k + 2) ? c.input(k + 2) : RtTensor());
  const size_t nScan = c.out.size() > nCarried ? c.out.size() - nCarried : 0;
  std::vector<std::vector<RtTensor>> scans(nScan);
  int64_t trips = 0;
  const RunLimits* lim = currentLimits();
  for (int64_t it = 0; (maxTrips < 0 || it < maxTrips) && cond; ++it) {
    if (lim && lim->maxIterations > 0 && it >= lim->maxIterations)
      return c.fail("more than " + std::to_string(lim->maxIterations) +
                    " iterations: stopped at the iteration cap (raise it with --max-iterations)");
    if (lim && lim->deadline > 0 && steadySeconds() > lim->deadline)
      return c.fail("iteration " + std::to_string(it) + ": the run exceeded its time limit (--time-limit)");
    std::vector<RtTensor> args{RtTensor::scalarI(it), RtTensor::alloc(DType::Bool, {})};
    args[1].mb()[0] = cond ? 1 : 0;
    args.insert(args.end(), carried.begin(), carried.end());
    auto r = runSubgraph(c, *body, args, "body");
    if (!r.ok()) return r.error().context("node '" + c.node.name + "' (Loop iteration " + std::to_string(it) + ")");
    ++trips;
    if (r->size() != 1 + nCarried + nScan) return c.fail("body returns " + std::to_string(r->size()) + " outputs, expected " + std::to_string(1 + nCarried + nScan));
    cond = (*r)[0].getD(0) != 0;
    for (size_t k = 0; k < nCarried; ++k) carried[k] = (*r)[1 + k];
    for (size_t k = 0; k < nScan; ++k) scans[k].push_back((*r)[1 + nCarried + k]);
  }
  traceControlFlow(c, -1, trips);
  for (size_t k = 0; k < nCarried; ++k) c.out[k] = carried[k];
  for (size_t k = 0; k < nScan; ++k) {
    if (scans[k].empty()) {
      c.out[nCarried + k] = RtTensor::alloc(DType::Float32, {0});
      continue;
    }
    for (const auto& p : scans[k])
      if (p.dims != scans[k][0].dims) return c.fail("scan output " + std::to_string(k) + " changes shape between iterations");
    c.out[nCarried + k] = stackAxis(scans[k], 0, scans[k][0]);
  }
  return {};
}

// Scan of opsets 8: every state and scan input has a batch axis 0 (scan inputs are [batch, time, ...]),
// the optional first input gives each batch entry's sequence length (default: all steps). Each batch
// entry runs on its own; scan outputs are zero past an entry's length.
Status opScan8(OpContext& c) {
  GraphPtr body = c.attrs.getGraph("body");
  if (!body) return c.fail("missing body");
  const int64_t M = c.attrInt("num_scan_inputs", 0);
  const int64_t N = static_cast<int64_t>(c.numIn()) - 1 - M;
  const int64_t K = static_cast<int64_t>(c.out.size()) - N;
  if (M <= 0 || N < 0 || K < 0) return c.fail("attribute 'num_scan_inputs' does not fit the node's inputs");
  auto dirs = c.attrInts("directions");
  dirs.resize(static_cast<size_t>(M), 0);
  int64_t B = -1, T = -1;
  for (int64_t k = 0; k < N + M; ++k) {
    if (!c.has(static_cast<size_t>(1 + k))) return c.fail("input " + std::to_string(1 + k) + " is missing");
    const RtTensor& x = c.input(static_cast<size_t>(1 + k));
    if (x.rank() < (k < N ? 1u : 2u)) return c.fail("input " + std::to_string(1 + k) + " lacks the batch (and time) axes");
    if (B >= 0 && x.dims[0] != B) return c.fail("inputs differ in batch size");
    B = x.dims[0];
    if (k >= N) {
      if (T >= 0 && x.dims[1] != T) return c.fail("scan inputs differ in sequence length");
      T = x.dims[1];
    }
  }
  std::vector<int64_t> lens(static_cast<size_t>(B), T);
  if (c.has(0)) {
    const auto l = c.input(0).toInts();
    if (static_cast<int64_t>(l.size()) != B) return c.fail("sequence_lens has " + std::to_string(l.size()) + " entries for a batch of " + std::to_string(B));
    for (int64_t b = 0; b < B; ++b) {
      if (l[static_cast<size_t>(b)] < 0 || l[static_cast<size_t>(b)] > T)
        return c.fail("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(l[static_cast<size_t>(b)]) + " is outside [0, " + std::to_string(T) + "]");
      lens[static_cast<size_t>(b)] = l[static_cast<size_t>(b)];
    }
  }
  std::vector<std::vector<RtTensor>> finals(static_cast<size_t>(N)), scanned(static_cast<size_t>(K));
  int64_t trips = 0;
  for (int64_t b = 0; b < B; ++b) {
    std::vector<RtTensor> state, seqs;
    for (int64_t k = 0; k < N; ++k) state.push_back(sliceAxis(c.input(static_cast<size_t>(1 + k)), 0, b));
    for (int64_t m = 0; m < M; ++m) seqs.push_back(sliceAxis(c.input(static_cast<size_t>(1 + N + m)), 0, b));
    std::vector<std::vector<RtTensor>> steps(static_cast<size_t>(K));
    const int64_t len = lens[static_cast<size_t>(b)];
    for (int64_t t = 0; t < len; ++t) {
      std::vector<RtTensor> args = state;
      for (int64_t m = 0; m < M; ++m) args.push_back(sliceAxis(seqs[static_cast<size_t>(m)], 0, dirs[static_cast<size_t>(m)] ? len - 1 - t : t));
      auto r = runSubgraph(c, *body, args, "body");
      if (!r.ok()) return r.error().context("node '" + c.node.name + "' (Scan batch " + std::to_string(b) + " step " + std::to_string(t) + ")");
      if (static_cast<int64_t>(r->size()) != N + K) return c.fail("body returns an unexpected number of outputs");
      for (int64_t k = 0; k < N; ++k) state[static_cast<size_t>(k)] = (*r)[static_cast<size_t>(k)];
      for (int64_t k = 0; k < K; ++k) steps[static_cast<size_t>(k)].push_back((*r)[static_cast<size_t>(N + k)]);
      ++trips;
    }
    for (int64_t k = 0; k < N; ++k) finals[static_cast<size_t>(k)].push_back(state[static_cast<size_t>(k)]);
    for (int64_t k = 0; k < K; ++k) {
      auto& st = steps[static_cast<size_t>(k)];
      if (st.empty()) return c.fail("batch entry " + std::to_string(b) + " has no steps: its scan output has no shape");
      while (static_cast<int64_t>(st.size()) < T) st.push_back(RtTensor::zeros(st[0].dtype, st[0].dims));
      scanned[static_cast<size_t>(k)].push_back(stackAxis(st, 0, st[0]));
    }
  }
  traceControlFlow(c, -1, trips);
  for (int64_t k = 0; k < N; ++k) {
    const auto& f = finals[static_cast<size_t>(k)];
    c.out[static_cast<size_t>(k)] = f.empty() ? RtTensor::alloc(c.input(static_cast<size_t>(1 + k)).dtype, c.input(static_cast<size_t>(1 + k)).dims) : stackAxis(f, 0, f[0]);
  }
  for (int64_t k = 0; k < K; ++k) {
    const auto& s = scanned[static_cast<size_t>(k)];
    if (s.empty()) return c.fail("an empty batch has no scan output shape");
    c.out[static_cast<size_t>(N + k)] = stackAxis(s, 0, s[0]);
  }
  return {};
}

Status opScan(OpContext& c) {
  if (c.opset < 9) return opScan8(c);
  GraphPtr body = c.attrs.getGraph("body");
  if (!body) return c.fail("missing body");
  const int64_t M = c.attrInt("num_scan_inputs", 0);
  const int64_t nIn = static_cast<int64_t>(c.numIn());
  const int64_t N = nIn - M;
  if (M <= 0 || N < 0) return c.fail("invalid num_scan_inputs");
  const int64_t K = static_cast<int64_t>(c.out.size()) - N;
  auto inAxes = c.attrInts("scan_input_axes"), inDirs = c.attrInts("scan_input_directions");
  auto outAxes = c.attrInts("scan_output_axes"), outDirs = c.attrInts("scan_output_directions");
  inAxes.resize(static_cast<size_t>(M), 0);
  inDirs.resize(static_cast<size_t>(M), 0);
  outAxes.resize(static_cast<size_t>(std::max<int64_t>(K, 0)), 0);
  outDirs.resize(static_cast<size_t>(std::max<int64_t>(K, 0)), 0);
  int64_t T = -1;
  for (int64_t m = 0; m < M; ++m) {
    const RtTensor& x = c.input(static_cast<size_t>(N + m));
    const int64_t ax = normAxis(inAxes[static_cast<size_t>(m)], static_cast<int64_t>(x.rank()));
    inAxes[static_cast<size_t>(m)] = ax;
    const int64_t len = x.dims[static_cast<size_t>(ax)];
    if (T >= 0 && len != T) return c.fail("scan inputs differ in sequence length");
    T = len;
  }
  std::vector<RtTensor> state;
  for (int64_t k = 0; k < N; ++k) state.push_back(c.input(static_cast<size_t>(k)));
  std::vector<std::vector<RtTensor>> scans(static_cast<size_t>(std::max<int64_t>(K, 0)));
  for (int64_t t = 0; t < T; ++t) {
    std::vector<RtTensor> args = state;
    for (int64_t m = 0; m < M; ++m) {
      const int64_t idx = inDirs[static_cast<size_t>(m)] ? T - 1 - t : t;
      args.push_back(sliceAxis(c.input(static_cast<size_t>(N + m)), inAxes[static_cast<size_t>(m)], idx));
    }
    auto r = runSubgraph(c, *body, args, "body");
    if (!r.ok()) return r.error().context("node '" + c.node.name + "' (Scan step " + std::to_string(t) + ")");
    if (static_cast<int64_t>(r->size()) != N + K) return c.fail("body returns an unexpected number of outputs");
    for (int64_t k = 0; k < N; ++k) state[static_cast<size_t>(k)] = (*r)[static_cast<size_t>(k)];
    for (int64_t k = 0; k < K; ++k) scans[static_cast<size_t>(k)].push_back((*r)[static_cast<size_t>(N + k)]);
  }
  traceControlFlow(c, -1, std::max<int64_t>(T, 0));
  for (int64_t k = 0; k < N; ++k) c.out[static_cast<size_t>(k)] = state[static_cast<size_t>(k)];
  for (int64_t k = 0; k < K; ++k) {
    auto& parts = scans[static_cast<size_t>(k)];
    if (outDirs[static_cast<size_t>(k)]) std::reverse(parts.begin(), parts.end());
    if (parts.empty()) return c.fail("scan over an empty sequence has no output shape");
    const int64_t ax = normAxis(outAxes[static_cast<size_t>(k)], static_cast<int64_t>(parts[0].rank()) + 1);
    c.out[static_cast<size_t>(N + k)] = stackAxis(parts, ax, parts[0]);
  }
  return {};
}

}  // namespace

std::vector<OpEntry> controlOps() { return {{"If", opIf}, {"Loop", opLoop}, {"Scan", opScan}}; }

}  // namespace fw::exec
