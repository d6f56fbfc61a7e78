#pragma once
// Internal to `fwb calibrate` (HostCalibration.cpp): the op cases of the vector families, built at a
// size that fits the cache or at a tiny one (the op's fixed cost a call).
#include <cstdint>
#include <string>
#include <vector>

#include "simulator/HostBench.h"

namespace fw::sim {

// The sizes of the family cases: 32x1024 rows and 32-channel 32x32 images, or 2x8 and 4-channel 2x2.
struct CaseSize {
  int64_t rows, cols;
  std::vector<int64_t> img, small;  // NCHW: pooling/norm/pad, and the Resize input
  static CaseSize normal();
  static CaseSize tiny();
};
struct FamilyCase {
  std::string key;  // the efficiency family
  hostbench::Bench bench;
  // Timed for its op type's own figures only, left out of the family's median (an op added after the
  // family's median was fitted: ScatterElements, session 47, moved the data-movement median from 0.057 to
  // 0.023 in one calibration, the family's figures lying in two clusters, ~0.02 and ~0.08).
  bool ownFiguresOnly = false;
};
// The ops that work row by row (OpFamily.h: rowWiseRows) over 32K elements in rows of 8: beside their
// family case's rows of 1024, their time a row (cpu.op_row_s). The key is the efficiency key
// (efficiencyKey: the op type, "Transpose/rows", or "Gather/elements", timed beside the Gather case).
std::vector<FamilyCase> rowCases();
// Every op `fwb calibrate` times for the vector families, in the same order at every size.
std::vector<FamilyCase> familyCases(const CaseSize& size);

}  // namespace fw::sim
