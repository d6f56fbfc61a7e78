#pragma once
// Einsum equations resolved against their operands' shapes. Shared by the executor, which runs an
// Einsum that is one batched matrix product on its GEMM path (core/exec/ops_linalg.cpp), and by the
// cost model, which counts its FLOPs (core/ir/OpCost.cpp) and costs it as that product (simulator/).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/util/Result.h"

namespace fw {

// Labels: 0..25 for 'a'..'z', 26..51 for 'A'..'Z', kEinsumEllipsis + j for the j-th (right-aligned) dim
// the ellipsis covers.
constexpr int kEinsumEllipsis = 52;
constexpr int kEinsumLabels = 128;

struct EinsumForm {
  std::vector<std::vector<int>> axisLabels;  // per operand, the label of each axis
  std::vector<int> outLabels;                // the output's axes (the implicit output when no "->")
  std::vector<int> sumLabels;                // labels summed over (in no output axis), ascending
  // Per label its size, -1 when no operand has it; an ellipsis dim has its broadcast size.
  std::array<int64_t, kEinsumLabels> size{};
};

// `equation` (whitespace ignored) against the operands' dims. Errors name the term or label at fault.
Result<EinsumForm> resolveEinsum(const std::string& equation, const std::vector<std::vector<int64_t>>& dims);

// A two-operand Einsum whose every label is in both operands and the output (batch), in the first and
// the output (M), in the second and the output (N), or in both operands only (K, summed), with no label
// twice in one term and no axis broadcast from size 1: one batched product C[b] = A[b] (M x K) x B[b]
// (K x N). Label lists are in the output's order (K in the first operand's).
// Where no label is in all three and the output leads with labels of one operand (a mixture of experts'
// 'nd,edh->enh': e in the second operand and the output only), those labels are the batch instead and the
// other operand is shared by every batch (`shared`): C[e] = A (n x d) x B[e] (d x h), written in the
// output's order, where the plain form, one product [n, d] x [d, (e h)], moved B and C around it.
struct EinsumProduct {
  enum class Shared { None, A, B };  // the operand without the batch labels, read by every batch
  std::vector<int> batch, m, n, k;
  int64_t batches = 1, M = 1, N = 1, K = 1;
  Shared shared = Shared::None;
  // The second operand's axes are [batch, N, K] (attention scores' 'bhid,bhjd->bhij'): read transposed,
  // not moved.
  bool transB = false;
  // Whether the first operand's axes (size-1 ones aside) are not in [batch, M, K] order, the second's
  // not in [batch, K, N] (nor [batch, N, K]), the output's not in [batch, M, N]: each such one is copied
  // into (or out of) that order around the product. A shared operand has no batch axes.
  bool moveA = false, moveB = false, moveC = false;
  // Elements of each operand and the output as the product reads and writes them (a shared one once).
  int64_t aElements() const { return (shared == Shared::A ? 1 : batches) * M * K; }
  int64_t bElements() const { return (shared == Shared::B ? 1 : batches) * K * N; }
  int64_t cElements() const { return batches * M * N; }
  // Elements copied into and out of product order.
  int64_t movedElements() const {
    return (moveA ? aElements() : 0) + (moveB ? bElements() : 0) + (moveC ? cElements() : 0);
  }
};
std::optional<EinsumProduct> einsumProduct(const EinsumForm& f,
                                           const std::vector<std::vector<int64_t>>& dims);

}  // namespace fw
