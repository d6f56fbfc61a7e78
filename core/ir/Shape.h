#pragma once
// Tensor shapes whose dimensions are either known integers or named symbols ("batch", "seq").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fw {

struct Dim {
  int64_t value = -1;  // >= 0 when known
  std::string symbol;  // non-empty for a named symbolic dim; both empty/-1 = unknown

  Dim() = default;
  Dim(int64_t v) : value(v) {}  // NOLINT(google-explicit-constructor)
  static Dim sym(std::string s) {
    Dim d;
    d.symbol = std::move(s);
    return d;
  }
  bool isStatic() const { return value >= 0; }
  bool operator==(const Dim& o) const { return value == o.value && symbol == o.symbol; }
  std::string str() const;  // "224", "batch", "?"
};

struct Shape {
  std::vector<Dim> dims;
  bool rankKnown = false;  // false: nothing is known, not even the rank

  Shape() = default;
  Shape(std::vector<Dim> d) : dims(std::move(d)), rankKnown(true) {}  // NOLINT
  static Shape ofInts(const std::vector<int64_t>& v);

  size_t rank() const { return dims.size(); }
  bool isStatic() const;                             // rank known and every dim static
  std::optional<int64_t> numel() const;              // product when static and it fits in int64
  std::optional<std::vector<int64_t>> ints() const;  // the dims when static
  bool operator==(const Shape& o) const { return rankKnown == o.rankKnown && dims == o.dims; }
  std::string str() const;  // "[1,3,224,224]", "[batch,768]", "?"
};

// Whether Transpose with `perm` (axes 0..rank-1) on `dims` keeps the elements in their order: only axes
// of size 1 move (a batch-1 [T,1,H] -> [1,T,H]), so the result is the same buffer read as new dims.
bool permKeepsOrder(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm);

}  // namespace fw
