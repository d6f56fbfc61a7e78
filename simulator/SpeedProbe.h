#pragma once
// The machine's speed at one moment (fwb calibrate, fwb profile, fwb simulate --measured). A shared machine
// moves: session 64's first calibration (docs/sim_accuracy.md) timed a call at 0.48 us and a Relu chain at
// 44 GB/s, the next one ten minutes later 0.25 us and 100 GB/s; MobileNetV2 and MNASNet profiled between
// the two were simulated 8-21 % over their measurement on the first and within 4.2 % on the second. No
// figure of a calibration or a profile says which state it was taken in; three short benches timed beside
// each do: a call (an Add of 16 floats), a stream (a Relu over 2 MiB: 4 MiB in and out, past a core's own
// cache and in a last-level one) and a product (a 128x128x128 MatMul), each the median node time over 3
// rounds of 15 runs. A calibration times them at its start and end, a profile before and after its runs;
// fwb simulate --measured sets the profile's beside the calibration's.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/util/Result.h"

namespace fw::sim {

struct SpeedProbe {
  double callUs = 0, streamUs = 0, productUs = 0;
  // All three measured (positive and finite); a profile or calibration written before session 64 has none.
  bool valid() const;
};

// Times the three benches on the reference executor (about 0.1 s).
Result<SpeedProbe> measureSpeedProbe(int threads);

// How much longer b's machine took than a's: the geometric mean over the three figures of b / a (1: the
// same speed, 2: b's ran at half the speed). 0 when either is not valid.
double probeTimeRatio(const SpeedProbe& a, const SpeedProbe& b);
// Per figure the geometric mean of a's and b's (one probe for a span timed at its start and end).
SpeedProbe probeMidpoint(const SpeedProbe& a, const SpeedProbe& b);
// A ratio off by more than this (either way) is a different machine state: warnings say so.
inline constexpr double kProbeTolerance = 0.10;
bool probeRatioOff(double ratio);
// "+12 %" / "-8 %" of a ratio (the time b took more than a).
std::string probeRatioText(double ratio);

// {"call": us, "stream": us, "product": us}
nlohmann::json toJson(const SpeedProbe& p);
// Reads that object; an error (BadInput) names `where` and the field ("speed_probe_us.stream: ...").
Result<SpeedProbe> speedProbeFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace fw::sim
