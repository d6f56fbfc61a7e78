#pragma once
// Internal to fw_sim: the small text helpers the simulator's tables use (SimReport, Measured).
#include <cstdio>
#include <string>

namespace fw::sim::text {

// printf-style formatting of one number ("%.1f us").
inline std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// `s` cut to `w` characters, the last one "~" when cut.
inline std::string fit(const std::string& s, size_t w) {
  if (s.size() <= w) return s;
  return s.substr(0, w - 1) + "~";
}

}  // namespace fw::sim::text
