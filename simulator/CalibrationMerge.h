#pragma once
// `fwb calibrate --merge A.json B.json ...`: one profile of this machine from several calibrations of it
// taken at different times. A shared machine moves by a quarter within the hour (docs/sim_accuracy.md,
// session 31: the GEMM model's time a GFLOP 1.01e7 and 1.27e7 ns in two calibrations an hour apart); one
// calibration is one snapshot of it, and a model measured over an hour is measured in several.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/util/Result.h"
#include "simulator/HwProfile.h"

namespace fw::sim {

struct CalibrationFile {
  std::string name;  // as the user named it (errors and notes say it)
  const nlohmann::json* json = nullptr;
};
struct MergedCalibration {
  HwProfile profile;
  // Per matrix-op kind, each calibration's shapes against the merge (the median over the shapes of its
  // time / their median time) and the fit: "gemm: shapes' times against their median x0.97 / x1 / x1.2;
  // fitted again: 25 shapes, RMS ln(model/measured) 0.17, s per GFLOP 0.0114".
  std::vector<std::string> spread;
};

// Every number of the profiles (each a cpu profile fwb calibrate wrote on one machine: the same CPU and
// threads) becomes the median of its values over the files (of an even count, the lower of the middle
// two: always a value one calibration measured). A figure only some files have (a later fwb calibrate wrote
// it) is the median over those, with the first of their notes; `spread` says in how many. A curve (points by
// "bytes") whose sizes differ between the files holds every size any of them measured, each point the median
// over the files that measured it; cache drops whose count differs are found again on the merged
// bandwidth_curve; `spread` says both. Each matrix-op kind's time model is fitted again, as fwb calibrate
// fits it, to every shape's median measured time (cpu.cube_time_models.*.measured_us) with the merged
// per-kernel overhead, blocks and copy bandwidth. Notes say so. Bad input (naming the file and the field):
// fewer than two files, any other list whose length differs between them, a profile that does not parse, is
// not a cpu profile fwb calibrate wrote, describes another machine, or has a time model without its shapes'
// measured times.
Result<MergedCalibration> mergeCalibrations(const std::vector<CalibrationFile>& files);

}  // namespace fw::sim
