#pragma once
// Number text for the reports fw_analysis writes (tune, compare, plan diffs, proofs).
#include <cstdio>
#include <string>

namespace fw {

// "12.35" for fixedText(12.3456, 2).
inline std::string fixedText(double v, int decimals) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  return b;
}
// "9.7e-07" for sciText(9.7e-7, 1).
inline std::string sciText(double v, int decimals = 1) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*e", decimals, v);
  return b;
}

}  // namespace fw
