// Linear algebra beyond MatMul/Gemm: Einsum, Det.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/Gemm.h"
#include "core/exec/OpContext.h"
#include "core/exec/Transpose.h"

namespace fw::exec {
namespace {

// ---- Einsum ------------------------------------------------------------------------------------

// Labels: 0..51 for letters, 52+j for the j-th (right-aligned) dim the ellipsis covers.
constexpr int kEllBase = 52;

int letterLabel(char ch) {
  if (ch >= 'a' && ch <= 'z') return ch - 'a';
  if (ch >= 'A' && ch <= 'Z') return 26 + (ch - 'A');
  return -1;
}

// One term of the equation: letter labels with the ellipsis position (-1 when absent).
struct Term {
  std::vector<int> letters;
  int ellAt = -1;  // index into letters where the ellipsis sits
};

Result<Term> parseTerm(OpContext& c, const std::string& s) {
  Term t;
  for (size_t p = 0; p < s.size(); ++p) {
    if (s[p] == '.') {
      if (t.ellAt >= 0 || s.compare(p, 3, "...") != 0) return c.fail("malformed ellipsis in equation term '" + s + "'");
      t.ellAt = static_cast<int>(t.letters.size());
      p += 2;
      continue;
    }
    const int l = letterLabel(s[p]);
    if (l < 0) return c.fail("invalid character '" + std::string(1, s[p]) + "' in equation term '" + s + "'");
    t.letters.push_back(l);
  }
  return t;
}

std::vector<std::string> splitOn(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  for (char ch : s) {
    if (ch == sep) parts.emplace_back();
    else parts.back() += ch;
  }
  return parts;
}

// Two float operands whose labels each fall in one of four groups — in both inputs and the output
// (batch), in the first input and the output (M), in the second and the output (N), in both inputs only
// (K, summed) — are one batched product: each input laid out as [batch, M, K] and [batch, K, N] (moved
// only when its axes are not in that order already), C = A x B on the GEMM path, and C moved to the
// output's label order. An attention block written as Einsum (MaxViT's 'BGHID,BGHJD->BGHIJ' and
// 'BGHIJ,BGHJD->BGHID') took 800 ms of a 1.05 s run in the loop below, which sums each output element
// in double, one index at a time. Returns false (nothing done) for any other equation: a label repeated
// within a term (a diagonal), a label summed within one input, or an axis broadcast from size 1.
bool einsumAsProduct(const std::vector<RtTensor>& xs, const std::vector<std::vector<int>>& axisLabels,
                     const std::array<int64_t, 128>& size, const std::vector<int>& outLabels, RtTensor& y) {
  if (xs.size() != 2) return false;
  std::array<int, 128> where{};  // bit 0: first input, bit 1: second, bit 2: output
  for (size_t k = 0; k < 2; ++k)
    for (size_t p = 0; p < axisLabels[k].size(); ++p) {
      const auto l = static_cast<size_t>(axisLabels[k][p]);
      if ((where[l] & (1 << k)) || xs[k].dims[p] != size[l]) return false;
      where[l] |= 1 << k;
    }
  for (int l : outLabels) where[static_cast<size_t>(l)] |= 4;
  std::vector<int> batch, m, n, kl;
  for (int l : outLabels) {
    const int w = where[static_cast<size_t>(l)];
    (w == 7 ? batch : w == 5 ? m : n).push_back(l);
    if (w != 7 && w != 5 && w != 6) return false;
  }
  for (int l : axisLabels[0]) {
    const int w = where[static_cast<size_t>(l)];
    if (w == 3) kl.push_back(l);
    else if (w == 1) return false;
  }
  for (int l : axisLabels[1])
    if (where[static_cast<size_t>(l)] == 2) return false;
  auto prod = [&](const std::vector<int>& ls) {
    int64_t v = 1;
    for (int l : ls) v *= size[static_cast<size_t>(l)];
    return v;
  };
  const int64_t nb = prod(batch), M = prod(m), N = prod(n), K = prod(kl);
  // Input k laid out in the label order `order`: itself when its axes already are, else a moved copy.
  auto laidOut = [&](size_t k, const std::vector<int>& order) {
    std::vector<int64_t> strideOf(128, 0);
    const auto st = stridesOf(xs[k].dims);
    for (size_t p = 0; p < axisLabels[k].size(); ++p) strideOf[static_cast<size_t>(axisLabels[k][p])] = st[p];
    std::vector<int64_t> dims, strides;
    for (int l : order) {
      dims.push_back(size[static_cast<size_t>(l)]);
      strides.push_back(strideOf[static_cast<size_t>(l)]);
    }
    if (strides == stridesOf(dims) || xs[k].numel() <= 1) return xs[k].reshaped(dims);
    RtTensor moved = RtTensor::alloc(DType::Float32, dims);
    copyStrided(xs[k], 0, strides, moved, dims);
    return moved;
  };
  std::vector<int> aOrder = batch, bOrder = batch, cOrder = batch;
  aOrder.insert(aOrder.end(), m.begin(), m.end());
  aOrder.insert(aOrder.end(), kl.begin(), kl.end());
  bOrder.insert(bOrder.end(), kl.begin(), kl.end());
  bOrder.insert(bOrder.end(), n.begin(), n.end());
  cOrder.insert(cOrder.end(), m.begin(), m.end());
  cOrder.insert(cOrder.end(), n.begin(), n.end());
  if (y.numel() == 0) return true;
  const RtTensor A = laidOut(0, aOrder), B = laidOut(1, bOrder);
  const bool direct = cOrder == outLabels;
  RtTensor C = direct ? y : RtTensor::alloc(DType::Float32, {nb, M, N});
  if (nb == 1)
    sgemm(false, false, M, N, K, 1.f, A.f(), K, B.f(), N, 0.f, C.mf(), N);
  else
    sgemmBatched(nb, false, false, M, N, K, A.f(), K, M * K, B.f(), N, K * N, C.mf(), N, M * N);
  if (!direct) {
    std::vector<int64_t> cDims;
    for (int l : cOrder) cDims.push_back(size[static_cast<size_t>(l)]);
    const auto cStrides = stridesOf(cDims);
    std::vector<int64_t> inStride;
    for (int l : outLabels)
      inStride.push_back(cStrides[static_cast<size_t>(std::find(cOrder.begin(), cOrder.end(), l) - cOrder.begin())]);
    copyStrided(C.reshaped(cDims), 0, inStride, y, y.dims);
  }
  return true;
}

Status opEinsum(OpContext& c) {
  std::string eq;
  for (char ch : c.attrStr("equation", "")) {
    if (ch != ' ' && ch != '\t' && ch != '\n') eq += ch;
  }
  if (eq.empty()) return c.fail("missing attribute 'equation'");
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  const bool explicitOut = arrow != std::string::npos;
  const auto termStrs = splitOn(lhs, ',');
  const size_t nIn = termStrs.size();
  if (nIn != c.numIn()) return c.fail("equation '" + eq + "' has " + std::to_string(nIn) + " operands but the node has " + std::to_string(c.numIn()) + " inputs");
  std::vector<Term> terms;
  for (size_t k = 0; k < nIn; ++k) {
    if (!c.has(k)) return c.fail("input " + std::to_string(k) + " is missing");
    auto t = parseTerm(c, termStrs[k]);
    if (!t.ok()) return t.error();
    terms.push_back(std::move(t).value());
  }
  const bool isF = c.input(0).store() == Store::F32;
  for (size_t k = 0; k < nIn; ++k) {
    const Store st = c.input(k).store();
    if (st != Store::F32 && st != Store::I64) return c.fail("input " + std::to_string(k) + " is not numeric: " + typeName(c.input(k)));
    if ((st == Store::F32) != isF) return c.fail("input types differ: " + typeName(c.input(0)) + " and " + typeName(c.input(k)));
  }
  // Per input: the label of each axis. Ellipsis dims are right-aligned across inputs.
  std::vector<std::vector<int>> axisLabels(nIn);
  int ellRank = 0;
  for (size_t k = 0; k < nIn; ++k) {
    const int r = static_cast<int>(c.input(k).rank());
    const int nl = static_cast<int>(terms[k].letters.size());
    if (terms[k].ellAt < 0 ? r != nl : r < nl)
      return c.fail("equation term '" + termStrs[k] + "' does not match input " + std::to_string(k) + " of shape " + dimsStr(c.input(k).dims));
    if (terms[k].ellAt >= 0) ellRank = std::max(ellRank, r - nl);
  }
  if (ellRank > 128 - kEllBase) return c.fail("the ellipsis covers " + std::to_string(ellRank) + " dims, more than 76 supported");
  std::array<int64_t, 128> size;
  size.fill(-1);
  std::array<int, 128> count{};
  for (size_t k = 0; k < nIn; ++k) {
    const RtTensor& x = c.input(k);
    const int r = static_cast<int>(x.rank());
    const int ne = r - static_cast<int>(terms[k].letters.size());
    const Term& t = terms[k];
    for (int li = 0; li <= static_cast<int>(t.letters.size()); ++li) {
      if (li == t.ellAt)
        for (int j = 0; j < ne; ++j) axisLabels[k].push_back(kEllBase + (ellRank - ne) + j);
      if (li < static_cast<int>(t.letters.size())) axisLabels[k].push_back(t.letters[static_cast<size_t>(li)]);
    }
    std::array<bool, 128> seen{};
    for (int p = 0; p < r; ++p) {
      const int l = axisLabels[k][static_cast<size_t>(p)];
      const int64_t d = x.dims[static_cast<size_t>(p)];
      int64_t& sz = size[static_cast<size_t>(l)];
      if (l >= kEllBase) {
        if (sz == -1 || sz == 1) sz = d;
        else if (d != 1 && d != sz) return c.fail("ellipsis dims of the inputs do not broadcast: " + dimsStr(x.dims));
      } else {
        if (sz != -1 && sz != d)
          return c.fail("label '" + std::string(1, l < 26 ? char('a' + l) : char('A' + l - 26)) + "' has sizes " +
                        std::to_string(sz) + " and " + std::to_string(d));
        sz = d;
      }
      if (!seen[static_cast<size_t>(l)]) ++count[static_cast<size_t>(l)];
      seen[static_cast<size_t>(l)] = true;
    }
  }
  // Output labels.
  std::vector<int> outLabels;
  if (explicitOut) {
    auto t = parseTerm(c, eq.substr(arrow + 2));
    if (!t.ok()) return t.error();
    const Term& ot = t.value();
    for (size_t li = 0; li <= ot.letters.size(); ++li) {
      if (static_cast<int>(li) == ot.ellAt)
        for (int j = 0; j < ellRank; ++j) outLabels.push_back(kEllBase + j);
      if (li < ot.letters.size()) {
        const int l = ot.letters[li];
        if (size[static_cast<size_t>(l)] < 0) return c.fail("output label '" + std::string(1, eq[arrow + 2 + li]) + "' does not appear in the inputs");
        if (std::find(outLabels.begin(), outLabels.end(), l) != outLabels.end()) return c.fail("output label repeated in '" + eq + "'");
        outLabels.push_back(l);
      }
    }
  } else {
    for (int j = 0; j < ellRank; ++j) outLabels.push_back(kEllBase + j);
    // Letters appearing exactly once, in ASCII order (upper case before lower case).
    for (int l = 26; l < 52; ++l)
      if (count[static_cast<size_t>(l)] == 1) outLabels.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (count[static_cast<size_t>(l)] == 1) outLabels.push_back(l);
  }
  std::vector<int> sumLabels;
  for (int l = 0; l < 128; ++l)
    if (size[static_cast<size_t>(l)] >= 0 && std::find(outLabels.begin(), outLabels.end(), l) == outLabels.end())
      sumLabels.push_back(l);
  // Strides of every input per label (summed over repeated labels: diagonals).
  std::vector<std::array<int64_t, 128>> lstride(nIn);
  std::vector<RtTensor> xs;
  for (size_t k = 0; k < nIn; ++k) {
    xs.push_back(c.input(k));
    lstride[k].fill(0);
    const auto st = stridesOf(xs[k].dims);
    for (size_t p = 0; p < xs[k].rank(); ++p) {
      if (xs[k].dims[p] == 1 && size[static_cast<size_t>(axisLabels[k][p])] != 1) continue;  // broadcast
      lstride[k][static_cast<size_t>(axisLabels[k][p])] += st[p];
    }
  }
  std::vector<int64_t> od, sd;
  for (int l : outLabels) od.push_back(size[static_cast<size_t>(l)]);
  for (int l : sumLabels) sd.push_back(size[static_cast<size_t>(l)]);
  const int64_t nSum = numelOf(sd);
  RtTensor y = RtTensor::alloc(c.input(0).dtype, od);
  if (isF && einsumAsProduct(xs, axisLabels, size, outLabels, y)) {
    c.out[0] = std::move(y);
    return {};
  }
  const int64_t nOut = y.numel();
  const size_t no = outLabels.size(), ns = sumLabels.size();
  parallelFor(nOut, std::max<int64_t>(nSum, 1) * static_cast<int64_t>(nIn), [&](int64_t b, int64_t e) {
    std::vector<int64_t> base(nIn), off(nIn), sidx(ns);
    for (int64_t o = b; o < e; ++o) {
      std::fill(base.begin(), base.end(), 0);
      int64_t rem = o;
      for (size_t d = no; d-- > 0;) {
        const int64_t i = rem % od[d];
        rem /= od[d];
        for (size_t k = 0; k < nIn; ++k) base[k] += i * lstride[k][static_cast<size_t>(outLabels[d])];
      }
      double accF = 0;
      uint64_t accI = 0;
      off = base;
      std::fill(sidx.begin(), sidx.end(), 0);
      for (int64_t s = 0; s < nSum; ++s) {
        if (isF) {
          double p = 1;
          for (size_t k = 0; k < nIn; ++k) p *= xs[k].f()[off[k]];
          accF += p;
        } else {
          uint64_t p = 1;
          for (size_t k = 0; k < nIn; ++k) p *= static_cast<uint64_t>(xs[k].i()[off[k]]);
          accI += p;
        }
        // Odometer step over the summed labels.
        for (size_t d = ns; d-- > 0;) {
          const size_t l = static_cast<size_t>(sumLabels[d]);
          if (++sidx[d] < sd[d]) {
            for (size_t k = 0; k < nIn; ++k) off[k] += lstride[k][l];
            break;
          }
          for (size_t k = 0; k < nIn; ++k) off[k] -= (sd[d] - 1) * lstride[k][l];
          sidx[d] = 0;
        }
      }
      if (isF) y.mf()[o] = static_cast<float>(accF);
      else y.mi()[o] = wrapInt(y.dtype, accI);
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- Det ---------------------------------------------------------------------------------------

// LU decomposition with partial pivoting, in double, per matrix of the [*, M, M] input.
Status opDet(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  if (x.store() != Store::F32) return c.fail("expects a floating-point input, got " + typeName(x));
  const size_t r = x.rank();
  if (r < 2 || x.dims[r - 1] != x.dims[r - 2]) return c.fail("input must be [*, M, M], got " + dimsStr(x.dims));
  const int64_t m = x.dims[r - 1];
  std::vector<int64_t> od(x.dims.begin(), x.dims.end() - 2);
  RtTensor y = RtTensor::alloc(x.dtype, od);
  const int64_t mats = y.numel();
  parallelFor(mats, m * m * m, [&](int64_t b, int64_t e) {
    std::vector<double> a(static_cast<size_t>(m * m));
    for (int64_t t = b; t < e; ++t) {
      const float* p = x.f() + t * m * m;
      for (int64_t k = 0; k < m * m; ++k) a[static_cast<size_t>(k)] = p[k];
      double det = 1;
      for (int64_t col = 0; col < m && det != 0; ++col) {
        int64_t piv = col;
        for (int64_t row = col + 1; row < m; ++row)
          if (std::fabs(a[static_cast<size_t>(row * m + col)]) > std::fabs(a[static_cast<size_t>(piv * m + col)])) piv = row;
        const double pv = a[static_cast<size_t>(piv * m + col)];
        if (pv == 0) {
          det = 0;
          break;
        }
        if (piv != col) {
          for (int64_t j = 0; j < m; ++j) std::swap(a[static_cast<size_t>(piv * m + j)], a[static_cast<size_t>(col * m + j)]);
          det = -det;
        }
        det *= pv;
        for (int64_t row = col + 1; row < m; ++row) {
          const double f = a[static_cast<size_t>(row * m + col)] / pv;
          if (f == 0) continue;
          for (int64_t j = col; j < m; ++j) a[static_cast<size_t>(row * m + j)] -= f * a[static_cast<size_t>(col * m + j)];
        }
      }
      y.mf()[t] = static_cast<float>(det);
    }
  });
  c.out[0] = std::move(y);
  return {};
}

}  // namespace

std::vector<OpEntry> linalgOps() {
  return {
      {"Einsum", opEinsum},
      {"Det", opDet},
  };
}

}  // namespace fw::exec
