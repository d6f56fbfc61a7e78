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
struct EinsumProduct {
  std::vector<int> batch, m, n, k;
  int64_t batches = 1, M = 1, N = 1, K = 1;
  // Whether the first operand's axes (size-1 ones aside) are not in [batch, M, K] order, the second's
  // not in [batch, K, N], the output's not in [batch, M, N]: each such one is copied into (or out of)
  // that order around the product.
  bool moveA = false, moveB = false, moveC = false;
};
std::optional<EinsumProduct> einsumProduct(const EinsumForm& f,
                                           const std::vector<std::vector<int64_t>>& dims);

}  // namespace fw
