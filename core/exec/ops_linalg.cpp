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
#include "core/ir/Einsum.h"

namespace fw::exec {
namespace {

// ---- Einsum ------------------------------------------------------------------------------------

// Two float operands whose labels each fall in one of four groups — in both inputs and the output
// (batch), in the first input and the output (M), in the second and the output (N), in both inputs only
// (K, summed) — are one batched product: each input laid out as [batch, M, K] and [batch, K, N] (or
// [batch, N, K], read transposed), moved only when its axes are not in that order already, C = A x B on the
// GEMM path, and C moved to the output's label order. Where the output leads with labels of one input
// only (a mixture of experts' 'nd,edh->enh'), the batch is those labels and the other input is shared
// (core/ir/Einsum.h). An attention block written as Einsum (MaxViT's 'BGHID,BGHJD->BGHIJ' and
// 'BGHIJ,BGHJD->BGHID') took 800 ms of a 1.05 s run in the loop below, which sums each output element
// in double, one index at a time; the experts' 'nd,edh->enh' over [256, 128] and [8, 128, 512] took
// 12.2 ms as one product [256, 128] x [128, (8 512)] with B and C moved, where the second product of the
// same arithmetic, 'enh,ehd->end', took 5.0 (1 thread, session 43). Returns false (nothing done) for any
// other equation: a label repeated within a term (a diagonal), a label summed within one input, or an
// axis broadcast from size 1.
bool einsumAsProduct(const std::vector<RtTensor>& xs, const EinsumForm& form, RtTensor& y) {
  using Shared = EinsumProduct::Shared;
  std::vector<std::vector<int64_t>> xDims;
  for (const auto& x : xs) xDims.push_back(x.dims);
  const auto prod = einsumProduct(form, xDims);
  if (!prod) return false;
  const auto& axisLabels = form.axisLabels;
  const auto& size = form.size;
  const auto& outLabels = form.outLabels;
  const auto &batch = prod->batch, &m = prod->m, &n = prod->n, &kl = prod->k;
  const int64_t nb = prod->batches, M = prod->M, N = prod->N, K = prod->K;
  // Input k laid out in the label order `order`: itself when its axes already are (size-1 ones aside),
  // else a moved copy.
  auto laidOut = [&](size_t k, const std::vector<int>& order) {
    std::vector<int64_t> strideOf(kEinsumLabels, 0);
    const auto st = stridesOf(xs[k].dims);
    for (size_t p = 0; p < axisLabels[k].size(); ++p) strideOf[static_cast<size_t>(axisLabels[k][p])] = st[p];
    std::vector<int64_t> dims, strides;
    for (int l : order) {
      dims.push_back(size[static_cast<size_t>(l)]);
      strides.push_back(strideOf[static_cast<size_t>(l)]);
    }
    const auto want = stridesOf(dims);
    bool inOrder = true;
    for (size_t d = 0; d < dims.size(); ++d) inOrder = inOrder && (dims[d] == 1 || strides[d] == want[d]);
    if (inOrder || xs[k].numel() <= 1) return xs[k].reshaped(dims);
    RtTensor moved = RtTensor::alloc(DType::Float32, dims);
    copyStrided(xs[k], 0, strides, moved, dims);
    return moved;
  };
  auto concat = [](std::initializer_list<const std::vector<int>*> parts) {
    std::vector<int> o;
    for (const auto* part : parts) o.insert(o.end(), part->begin(), part->end());
    return o;
  };
  const std::vector<int> none;
  const std::vector<int> aOrder = concat({prod->shared == Shared::A ? &none : &batch, &m, &kl});
  const std::vector<int> bOrder =
      concat({prod->shared == Shared::B ? &none : &batch, prod->transB ? &n : &kl, prod->transB ? &kl : &n});
  const std::vector<int> cOrder = concat({&batch, &m, &n});
  if (y.numel() == 0) return true;
  const RtTensor A = laidOut(0, aOrder), B = laidOut(1, bOrder);
  // A model weight read as stored goes through the product's packed copy of it (core/exec/Gemm.cpp); a
  // moved copy has no owner.
  const std::weak_ptr<const void> bOwner = B.constantOwner();
  const bool direct = !prod->moveC;
  RtTensor C = direct ? y : RtTensor::alloc(DType::Float32, {nb, M, N});
  const bool tb = prod->transB;
  const int64_t ldb = tb ? K : N;
  if (prod->shared == Shared::B) {  // rows of every batch against the one B
    sgemm(false, tb, nb * M, N, K, 1.f, A.f(), K, B.f(), ldb, 0.f, C.mf(), N, bOwner);
  } else if (prod->shared == Shared::A) {
    // The one A against each batch's B. A model's weights (a mixture of experts' 'td,edh->eth') one product
    // a batch on oneDNN's packed copy of each; otherwise one batched product, on the row loop when small:
    // 500 products 8 x 8 x 8 52 -> 15 us that way, where 8 experts 64 x 256 x 512 took 1.19-1.21 ms packed
    // one by one and 1.34-1.35 batched on their weights as stored (1 thread, session 61).
    if (!bOwner.expired() && !smallProductsOnRowLoop(nb, false, tb, M, N, K)) {
      for (int64_t b = 0; b < nb; ++b)
        sgemm(false, tb, M, N, K, 1.f, A.f(), K, B.f() + b * K * N, ldb, 0.f, C.mf() + b * M * N, N, bOwner);
    } else {
      sgemmBatched(nb, false, tb, M, N, K, A.f(), K, 0, B.f(), ldb, K * N, C.mf(), N, M * N);
    }
  } else if (nb == 1) {
    sgemm(false, tb, M, N, K, 1.f, A.f(), K, B.f(), ldb, 0.f, C.mf(), N, bOwner);
  } else {
    sgemmBatched(nb, false, tb, M, N, K, A.f(), K, M * K, B.f(), ldb, K * N, C.mf(), N, M * N);
  }
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
  const std::string eq = c.attrStr("equation", "");
  std::vector<std::vector<int64_t>> dims;
  for (size_t k = 0; k < c.numIn(); ++k) {
    if (!c.has(k)) return c.fail("input " + std::to_string(k) + " is missing");
    dims.push_back(c.input(k).dims);
  }
  auto resolved = resolveEinsum(eq, dims);
  if (!resolved.ok()) return c.fail(resolved.error().message);
  const EinsumForm& form = *resolved;
  const size_t nIn = dims.size();
  const bool isF = c.input(0).store() == Store::F32;
  for (size_t k = 0; k < nIn; ++k) {
    const Store st = c.input(k).store();
    if (st != Store::F32 && st != Store::I64) return c.fail("input " + std::to_string(k) + " is not numeric: " + typeName(c.input(k)));
    if ((st == Store::F32) != isF) return c.fail("input types differ: " + typeName(c.input(0)) + " and " + typeName(c.input(k)));
  }
  const auto& axisLabels = form.axisLabels;
  const auto& size = form.size;
  const auto& outLabels = form.outLabels;
  const auto& sumLabels = form.sumLabels;
  // Strides of every input per label (summed over repeated labels: diagonals).
  std::vector<std::array<int64_t, kEinsumLabels>> lstride(nIn);
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
  if (isF && einsumAsProduct(xs, form, y)) {
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
