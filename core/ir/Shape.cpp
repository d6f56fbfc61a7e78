#include "core/ir/Shape.h"

#include <limits>

namespace fw {

std::string Dim::str() const {
  if (isStatic()) return std::to_string(value);
  if (!symbol.empty()) return symbol;
  return "?";
}

Shape Shape::ofInts(const std::vector<int64_t>& v) {
  Shape s;
  s.rankKnown = true;
  s.dims.reserve(v.size());
  for (int64_t x : v) s.dims.emplace_back(x);
  return s;
}

bool Shape::isStatic() const {
  if (!rankKnown) return false;
  for (const auto& d : dims)
    if (!d.isStatic()) return false;
  return true;
}

std::optional<int64_t> Shape::numel() const {
  if (!isStatic()) return std::nullopt;
  int64_t n = 1;
  for (const auto& d : dims) {
    if (d.value != 0 && n > std::numeric_limits<int64_t>::max() / d.value) return std::nullopt;  // overflows
    n *= d.value;
  }
  return n;
}

std::optional<std::vector<int64_t>> Shape::ints() const {
  if (!isStatic()) return std::nullopt;
  std::vector<int64_t> v;
  v.reserve(dims.size());
  for (const auto& d : dims) v.push_back(d.value);
  return v;
}

std::string Shape::str() const {
  if (!rankKnown) return "?";
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += dims[i].str();
  }
  return s + "]";
}

bool permKeepsOrder(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm) {
  if (perm.size() != dims.size()) return false;
  int64_t last = -1;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(dims.size())) return false;
    if (dims[static_cast<size_t>(p)] == 1) continue;
    if (p < last) return false;
    last = p;
  }
  return true;
}

}  // namespace fw
