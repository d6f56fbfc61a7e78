#include "simulator/NonNegFit.h"

#include <algorithm>
#include <cmath>

namespace fw::sim {
namespace {

// Least squares on the columns in `use`: the normal equations by Gaussian elimination with partial
// pivoting. False when singular.
bool solveSubset(const std::vector<std::vector<double>>& rows, const std::vector<double>& targets,
                 size_t width, unsigned use, std::vector<double>& coef) {
  std::vector<size_t> cols;
  for (size_t j = 0; j < width; ++j)
    if (use & (1u << j)) cols.push_back(j);
  const size_t k = cols.size();
  std::vector<std::vector<double>> a(k, std::vector<double>(k + 1, 0.0));
  for (size_t n = 0; n < rows.size(); ++n)
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = 0; j < k; ++j) a[i][j] += rows[n][cols[i]] * rows[n][cols[j]];
      a[i][k] += rows[n][cols[i]] * targets[n];
    }
  for (size_t c = 0; c < k; ++c) {
    size_t piv = c;
    for (size_t i = c + 1; i < k; ++i)
      if (std::abs(a[i][c]) > std::abs(a[piv][c])) piv = i;
    if (std::abs(a[piv][c]) < 1e-12 * std::max(1.0, std::abs(a[c][c]))) return false;
    std::swap(a[c], a[piv]);
    for (size_t i = 0; i < k; ++i) {
      if (i == c) continue;
      const double f = a[i][c] / a[c][c];
      for (size_t j = c; j <= k; ++j) a[i][j] -= f * a[c][j];
    }
  }
  coef.assign(width, 0.0);
  for (size_t i = 0; i < k; ++i) coef[cols[i]] = a[i][k] / a[i][i];
  return true;
}

}  // namespace

std::optional<std::vector<double>> fitRelativeNonNegative(const std::vector<std::vector<double>>& rowsIn,
                                                          const std::vector<double>& targetsIn) {
  if (rowsIn.empty() || (!targetsIn.empty() && targetsIn.size() != rowsIn.size())) return std::nullopt;
  const std::vector<double> targets = targetsIn.empty() ? std::vector<double>(rowsIn.size(), 1.0) : targetsIn;
  const size_t width = rowsIn.front().size();
  if (width == 0 || width > 16) return std::nullopt;
  // Scale the columns to unit size so the normal equations stay well conditioned (FLOPs are 1e9 times
  // element counts).
  std::vector<double> scale(width, 0.0);
  for (const auto& r : rowsIn) {
    if (r.size() != width) return std::nullopt;
    for (size_t j = 0; j < width; ++j) scale[j] = std::max(scale[j], std::abs(r[j]));
  }
  std::vector<std::vector<double>> rows = rowsIn;
  for (auto& r : rows)
    for (size_t j = 0; j < width; ++j) r[j] = scale[j] > 0 ? r[j] / scale[j] : 0;
  double bestErr = INFINITY;
  std::vector<double> best;
  for (unsigned use = 1; use < (1u << width); ++use) {
    bool usable = true;
    for (size_t j = 0; j < width; ++j)
      if ((use & (1u << j)) && scale[j] == 0) usable = false;
    std::vector<double> c;
    if (!usable || !solveSubset(rows, targets, width, use, c)) continue;
    if (std::any_of(c.begin(), c.end(), [](double v) { return v < 0; })) continue;
    double err = 0;
    for (size_t n = 0; n < rows.size(); ++n) {
      double p = 0;
      for (size_t j = 0; j < width; ++j) p += c[j] * rows[n][j];
      err += (p - targets[n]) * (p - targets[n]);
    }
    if (err < bestErr) {
      bestErr = err;
      best = c;
    }
  }
  if (!std::isfinite(bestErr)) return std::nullopt;
  for (size_t j = 0; j < width; ++j) best[j] = scale[j] > 0 ? best[j] / scale[j] : 0;
  return best;
}

}  // namespace fw::sim
