// The machine's speed beside a calibration and a profile (simulator/SpeedProbe.h): the ratio of two
// probes, their JSON and its refusals, a profile's probe through medianOfRuns, and the accuracy's
// machine state line. One test times the real probe on the executor.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "simulator/Measured.h"
#include "simulator/SpeedProbe.h"

using namespace fw::sim;
using nlohmann::json;

namespace {

MeasuredRun probedRun(SpeedProbe p, double drift, double us = 10) {
  MeasuredRun m;
  m.source = "hand-made";
  m.model = "m";
  m.optLevel = 2;
  m.threads = 1;
  m.totalUs = us;
  MeasuredKernel k;
  k.name = "k0";
  k.us = us;
  k.ops = {"Relu"};
  m.kernels.push_back(k);
  m.probe = p;
  m.probeDrift = drift;
  return m;
}

}  // namespace

TEST(SpeedProbe, TheRatioIsTheGeometricMeanOfTheFiguresRatios) {
  const SpeedProbe a{0.25, 20, 10}, b{0.5, 40, 20};
  EXPECT_NEAR(probeTimeRatio(a, b), 2.0, 1e-12);
  EXPECT_NEAR(probeTimeRatio(b, a), 0.5, 1e-12);
  // One figure twice as long, the others the same: 2^(1/3).
  EXPECT_NEAR(probeTimeRatio(a, SpeedProbe{0.25, 40, 10}), std::cbrt(2.0), 1e-12);
  const SpeedProbe mid = probeMidpoint(a, b);
  EXPECT_NEAR(mid.callUs, std::sqrt(0.125), 1e-12);
  EXPECT_NEAR(mid.streamUs, std::sqrt(800.0), 1e-12);
  EXPECT_NEAR(probeTimeRatio(a, mid), std::sqrt(2.0), 1e-12);
  // Without both there is no ratio, and a midpoint is the probe there is.
  EXPECT_FALSE(SpeedProbe{}.valid());
  EXPECT_FALSE((SpeedProbe{0.25, 0, 10}.valid()));
  EXPECT_EQ(probeTimeRatio(a, SpeedProbe{}), 0.0);
  EXPECT_EQ(probeMidpoint(SpeedProbe{}, b).streamUs, 40);
  EXPECT_FALSE(probeRatioOff(1.05));
  EXPECT_FALSE(probeRatioOff(1 / 1.05));
  EXPECT_FALSE(probeRatioOff(0));
  EXPECT_TRUE(probeRatioOff(1.2));
  EXPECT_TRUE(probeRatioOff(0.85));
  EXPECT_EQ(probeRatioText(1.12), "+12 %");
  EXPECT_EQ(probeRatioText(0.5), "-50 %");
}

TEST(SpeedProbe, TheJsonRoundTripsAndRefusesWhatIsNoTime) {
  const SpeedProbe a{0.25, 20.5, 10.25};
  auto back = speedProbeFromJson(toJson(a), "p.json: speed_probe_us");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->callUs, a.callUs);
  EXPECT_EQ(back->streamUs, a.streamUs);
  EXPECT_EQ(back->productUs, a.productUs);
  struct Bad {
    json value;
    const char* says;
  };
  for (const Bad& b :
       {Bad{json::array(), "expected an object"},
        Bad{json{{"call", 1}, {"stream", 2}}, "speed_probe_us.product: missing"},
        Bad{json{{"call", -1}, {"stream", 2}, {"product", 3}}, "speed_probe_us.call: expected a positive"},
        Bad{json{{"call", 1}, {"stream", "fast"}, {"product", 3}}, "speed_probe_us.stream"},
        Bad{json{{"call", 1}, {"stream", 2}, {"product", 1e9}}, "at most 1 s"}}) {
    auto refused = speedProbeFromJson(b.value, "p.json: speed_probe_us");
    ASSERT_FALSE(refused.ok()) << b.value.dump();
    EXPECT_EQ(refused.error().code, fw::ErrorCode::BadInput);
    EXPECT_NE(refused.error().message.find(b.says), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("p.json"), std::string::npos) << refused.error().message;
  }
}

TEST(SpeedProbe, AProfileKeepsItsProbeAndTheMedianOfSeveralTakesEachFiguresMedian) {
  const MeasuredRun a = probedRun({0.2, 20, 10}, 1.02), b = probedRun({0.4, 30, 12}, 0.8),
                    c = probedRun({0.3, 50, 11}, 1.1);
  auto back = measuredRunFromJson(toJson(a).dump(), "a.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->probe.streamUs, 20);
  EXPECT_EQ(back->probeDrift, 1.02);
  auto m = medianOfRuns({a, b, c}, {"a.json", "b.json", "c.json"});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->probe.callUs, 0.3);
  EXPECT_EQ(m->probe.streamUs, 30);
  EXPECT_EQ(m->probe.productUs, 11);
  EXPECT_EQ(m->probeDrift, 0.8);  // the farthest from 1 either way
  // A profile without a probe leaves the others' figures; none probed, no probe.
  auto partly = medianOfRuns({a, probedRun({}, 0)}, {});
  ASSERT_TRUE(partly.ok());
  EXPECT_EQ(partly->probe.streamUs, 20);
  EXPECT_FALSE(medianOfRuns({probedRun({}, 0), probedRun({}, 0)}, {})->probe.valid());
  EXPECT_FALSE(toJson(probedRun({}, 0)).contains("speed_probe_us"));
  // A probe without its drift, or a drift that is no ratio, is refused by name.
  json j = toJson(a);
  j.erase("speed_probe_drift");
  auto refused = measuredRunFromJson(j.dump(), "a.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("speed_probe_drift"), std::string::npos) << refused.error().message;
  j["speed_probe_drift"] = -1;
  refused = measuredRunFromJson(j.dump(), "a.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("positive ratio"), std::string::npos) << refused.error().message;
  j["speed_probe_drift"] = 1;
  j["speed_probe_us"]["call"] = 0;
  refused = measuredRunFromJson(j.dump(), "a.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("a.json: speed_probe_us.call"), std::string::npos)
      << refused.error().message;
}

TEST(SpeedProbe, TheAccuracySaysWhenTheMeasuredMachineRanInAnotherState) {
  SimResult sim;
  sim.hwName = "host";
  KernelTiming k;
  k.name = "k0";
  k.durUs = 10;
  k.unit = Unit::Vector;
  k.ops = {"Relu"};
  k.origins = {"k0"};
  sim.kernels = {k};
  sim.latencyUs = 10;
  HwProfile hw;
  hw.cpu.probe = {0.25, 20, 10};
  // The same state: a ratio near 1, no warning in the lines.
  const MeasuredRun same = probedRun({0.26, 20, 10}, 1.0);
  const Accuracy a = accuracy(sim, same, hw);
  EXPECT_NEAR(a.machineTimeRatio, std::cbrt(0.26 / 0.25), 1e-12);
  EXPECT_NE(formatAccuracy(a, same).find("machine state"), std::string::npos);
  EXPECT_EQ(formatAccuracy(a, same).find("mix two machine states"), std::string::npos);
  EXPECT_NEAR(toJson(a)["machine_time_ratio"].get<double>(), a.machineTimeRatio, 1e-12);
  // Measured at half the speed: the lines say the figures mix two states.
  const MeasuredRun slow = probedRun({0.5, 40, 20}, 1.0);
  const Accuracy b = accuracy(sim, slow, hw);
  EXPECT_NEAR(b.machineTimeRatio, 2.0, 1e-12);
  EXPECT_NE(formatAccuracy(b, slow).find("+100 %"), std::string::npos) << formatAccuracy(b, slow);
  EXPECT_NE(formatAccuracy(b, slow).find("mix two machine states"), std::string::npos);
  // A profile without a probe (a built-in one, an older calibration): no ratio, null in the JSON.
  const Accuracy c = accuracy(sim, slow, HwProfile{});
  EXPECT_EQ(c.machineTimeRatio, 0.0);
  EXPECT_TRUE(toJson(c)["machine_time_ratio"].is_null());
  EXPECT_EQ(formatAccuracy(c, slow).find("machine state"), std::string::npos);
}

TEST(SpeedProbe, TheProbeTimesThreeBenchesOnTheExecutor) {
  auto p = measureSpeedProbe(1);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(p->valid());
  // A Relu over 2 MiB moves 4 MiB: far longer than an Add of 16 floats on any machine.
  EXPECT_GT(p->streamUs, 4 * p->callUs);
}
