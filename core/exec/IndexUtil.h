#pragma once
// Internal to core/exec: what the index kernels (ops_gather_scatter, ops_sort, ops_region, ops_layout)
// share: element-type dispatch and the checks of index inputs and axis attributes.
#include <cstdint>
#include <string>

#include "core/exec/OpContext.h"

namespace fw::exec::indexing {

template <class T>
const T* dataOf(const RtTensor& t) {
  return static_cast<const T*>(t.raw());
}
template <class T>
T* mdataOf(RtTensor& t) {
  return static_cast<T*>(t.mraw());
}

// Calls f(T{}) with T the storage type of `s`; false for a storage class without elements.
template <class F>
bool byStore(Store s, F&& f) {
  switch (s) {
    case Store::F32: f(float{}); return true;
    case Store::I64: f(int64_t{}); return true;
    case Store::U8: f(uint8_t{}); return true;
    case Store::Str: f(std::string{}); return true;
    default: return false;
  }
}

inline std::string str(int64_t v) { return std::to_string(v); }

// The integer tensor behind index input k, or an error naming it.
inline Result<const RtTensor*> indexInput(const OpContext& c, size_t k, const char* name) {
  if (!c.has(k)) return c.fail("missing input '" + std::string(name) + "'");
  const RtTensor& t = c.input(k);
  if (t.store() != Store::I64) return c.fail("input '" + std::string(name) + "' must be an integer tensor");
  return &t;
}

// Attribute 'axis' (default `def`) normalised against `rank`, or an error when out of range.
inline Result<int64_t> axisAttr(const OpContext& c, int64_t def, int64_t rank) {
  const int64_t a = c.attrInt("axis", def);
  const int64_t n = normAxis(a, rank);
  if (n < 0 || n >= rank) return c.fail("attribute 'axis' " + str(a) + " out of range for rank " + str(rank));
  return n;
}

}  // namespace fw::exec::indexing
