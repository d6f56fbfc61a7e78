#pragma once
// Least squares on relative error with non-negative coefficients, for the few-column fits of
// `fwb calibrate` (a matrix op's time model, the executor's run overhead).
#include <optional>
#include <vector>

namespace fw::sim {

// Each row holds one sample's features divided by its measured value (so the target of every row is 1).
// Minimises sum over rows of (sum_j c_j * row_j - 1)^2 over c >= 0 by trying every subset of the columns
// (fine for up to ~10 columns) and keeping the best subset whose unconstrained solution is non-negative;
// columns are scaled to unit size inside, the coefficients come back in the rows' units (0 for a column
// left out). nullopt when no subset has a non-negative solution, or the rows are empty.
// With `targets` (one per row), row i's target is targets[i] instead of 1.
std::optional<std::vector<double>> fitRelativeNonNegative(const std::vector<std::vector<double>>& rows,
                                                          const std::vector<double>& targets = {});

}  // namespace fw::sim
