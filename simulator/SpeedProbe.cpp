#include "simulator/SpeedProbe.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "simulator/HostBench.h"

namespace fw::sim {

using namespace hostbench;

bool SpeedProbe::valid() const {
  for (double v : {callUs, streamUs, productUs})
    if (!(v > 0) || !std::isfinite(v)) return false;
  return true;
}

Result<SpeedProbe> measureSpeedProbe(int threads) {
  const Bench call = oneOp("Add", {16}, {filled({16}, 0.5f)}, {}, 1);
  const Bench stream = oneOp("Relu", {int64_t{1} << 19}, {}, {}, 1);
  const Bench product = oneOp("MatMul", {128, 128}, {filled({128, 128}, 0.05f)}, {}, 1);
  FW_ASSIGN_OR_RETURN(const std::vector<double> us,
                      timeNodesInRounds({&call, &stream, &product}, threads, 2, 15, 3));
  if (us.size() != 3)
    return Error::internal("speed probe: timed " + std::to_string(us.size()) + " benches of 3");
  SpeedProbe p{us[0], us[1], us[2]};
  if (!p.valid()) return Error::internal("speed probe: a bench timed no time");
  return p;
}

double probeTimeRatio(const SpeedProbe& a, const SpeedProbe& b) {
  if (!a.valid() || !b.valid()) return 0.0;
  return std::cbrt(b.callUs / a.callUs * (b.streamUs / a.streamUs) * (b.productUs / a.productUs));
}

SpeedProbe probeMidpoint(const SpeedProbe& a, const SpeedProbe& b) {
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  return {std::sqrt(a.callUs * b.callUs), std::sqrt(a.streamUs * b.streamUs),
          std::sqrt(a.productUs * b.productUs)};
}

bool probeRatioOff(double ratio) {
  return ratio > 0 && std::abs(std::log(ratio)) > std::log1p(kProbeTolerance);
}

std::string probeRatioText(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f %%", 100 * (ratio - 1));
  return buf;
}

nlohmann::json toJson(const SpeedProbe& p) {
  return {{"call", p.callUs}, {"stream", p.streamUs}, {"product", p.productUs}};
}

Result<SpeedProbe> speedProbeFromJson(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object())
    return Error::badInput(where + ": expected an object {\"call\", \"stream\", \"product\"} (us)");
  SpeedProbe p;
  for (auto [key, field] :
       {std::pair{"call", &p.callUs}, {"stream", &p.streamUs}, {"product", &p.productUs}}) {
    const auto it = j.find(key);
    if (it == j.end()) return Error::badInput(where + "." + key + ": missing (microseconds)");
    if (!it->is_number() || !(it->get<double>() > 0) || !(it->get<double>() <= 1e6))
      return Error::badInput(where + "." + key +
                             ": expected a positive number of microseconds, at most 1 s, got " + it->dump());
    *field = it->get<double>();
  }
  return p;
}

}  // namespace fw::sim
