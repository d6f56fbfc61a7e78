#pragma once
// One axis of an ONNX Slice: where it starts in its input and how many elements it takes, its start and end
// clamped as the operator says (negative ones count from the end; a step of either sign, not 0). The
// executor slices by it (core/exec/ops_tensor.cpp) and the CPU cost model counts a Slice's rows by it
// (simulator/OpFamily.cpp: rowWiseRows).
#include <algorithm>
#include <cstdint>
#include <limits>

namespace fw {

struct SliceSpan {
  int64_t start = 0, length = 0;
};

inline SliceSpan sliceSpan(int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (start < 0) start += dim;
  if (end < 0 && end > std::numeric_limits<int64_t>::min() + dim)
    end += dim;
  else if (end < 0)
    end = -1;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
  }
  const int64_t len = step > 0 ? (end - start + step - 1) / step : (start - end + (-step) - 1) / (-step);
  return {start, std::max<int64_t>(0, len)};
}

}  // namespace fw
