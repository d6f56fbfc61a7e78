// fwb calibrate --merge: one profile from several calibrations of a machine (simulator/CalibrationMerge.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "simulator/CalibrationMerge.h"
#include "simulator/CpuCubeModel.h"
#include "simulator/HostCalibration.h"
#include "simulator/HwProfile.h"

namespace fw::sim {
namespace {

using nlohmann::json;

// A GEMM that takes 1e-11 s a FLOP, 2e-10 s an input element and 3 us a call.
CubeTimeModel knownGemm() {
  CubeTimeModel m;
  m.coef[0] = 1e-11;
  m.coef[1] = 2e-10;
  m.coef[5] = 3e-6;
  return m;
}

// A calibration as fwb calibrate writes one, its GEMM shapes timed at the known model times `factor(i)`
// (a per-kernel overhead of 2 us included; the calibration's own launch_us is `launchUs`).
template <class Factor>
json calibration(double launchUs, double gemmPeak, int64_t channelBlock, std::vector<int64_t> drops,
                 Factor factor) {
  json j = json::parse(R"({
    "name": "host", "kind": "cpu", "dtype": "float32", "clock_hz": 2.0e9, "cube_cores": 1, "vector_cores": 1,
    "description": "This machine as the reference executor sees it (Test CPU, 1 thread), measured by fwb calibrate on 2026-11-29",
    "cpu": {"conv_flops_per_s": 5.0e10, "cache_bandwidth_bytes_per_s": 1.0e11, "grouped_conv_flops_per_s": 1.0e10},
    "l2_bytes": 33554432, "hbm_bandwidth_bytes_per_s": 1.0e10, "hbm_capacity_bytes": 1.0e10, "host_dispatch_us": 0,
    "efficiency": {"elementwise": 0.1},
    "notes": [{"field": "launch_us", "source": "measured by fwb calibrate on Test CPU: a one-element Add", "estimate": false},
              {"field": "cpu.cube_time_models.gemm", "source": "measured by fwb calibrate on Test CPU: fitted", "estimate": false}]
  })");
  j["launch_us"] = launchUs;
  j["cpu"]["gemm_flops_per_s"] = gemmPeak;
  j["cpu"]["conv_channel_block"] = channelBlock;
  j["cpu"]["cache_drops_bytes"] = drops;
  const CubeTimeModel known = knownGemm();
  json gemm = {{"cases", 3}, {"rms_log_error", 0.1}};
  for (size_t k = 0; k < known.coef.size(); ++k)
    gemm[cubeCoefficientKeys()[k]] = known.coef[k] * 1.3 * factor(0);  // its own fit, off
  json shapes = json::object();
  size_t i = 0;
  for (const auto& [name, f] : cubeCaseFeatures("gemm"))
    shapes[name] = 2.0 + known.seconds(f) * 1e6 * factor(i++);
  gemm["measured_us"] = shapes;
  j["cpu"]["cube_time_models"]["gemm"] = gemm;
  return j;
}

TEST(CalibrationMerge, EachFigureIsItsMedianAndTheModelsAreFittedToTheShapesMedianTimes) {
  ASSERT_GE(cubeCaseFeatures("gemm").size(), 10u);
  // Each shape is timed fast in one calibration, slow in another and right in the third, which differs by
  // shape: no calibration has the right times, their median has all of them.
  const double f[3] = {0.7, 1.0, 1.45};
  const json a = calibration(2.0, 1.0e11, 16, {36000, 57000, 1500000}, [&](size_t i) { return f[i % 3]; });
  const json b =
      calibration(2.6, 0.8e11, 8, {36000, 50000, 1500000}, [&](size_t i) { return f[(i + 1) % 3]; });
  const json c =
      calibration(1.1, 1.2e11, 16, {36000, 57000, 1400000}, [&](size_t i) { return f[(i + 2) % 3]; });
  for (const json* one : {&a, &b, &c}) {
    auto p = parseHwProfile(*one, "one");
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->cpu.cubeModels.at("gemm").measuredUs.size(), cubeCaseFeatures("gemm").size());
  }
  auto m = mergeCalibrations({{"a.json", &a}, {"b.json", &b}, {"c.json", &c}});
  ASSERT_TRUE(m.ok()) << m.error().message;
  const HwProfile& p = m->profile;
  EXPECT_DOUBLE_EQ(p.launchUs, 2.0);
  EXPECT_DOUBLE_EQ(p.cpu.gemmFlops, 1.0e11);
  EXPECT_EQ(p.cpu.convChannelBlock, 16);
  // Drop by drop, each the median.
  EXPECT_EQ(p.cpu.cacheDropsBytes, (std::vector<int64_t>{36000, 57000, 1500000}));
  // The GEMM model fitted again recovers the known one; each calibration's own times were 30-45 % off.
  const CubeTimeModel& g = p.cpu.cubeModels.at("gemm");
  EXPECT_NEAR(g.coef[0], 1e-11, 1e-13);
  EXPECT_NEAR(g.coef[5], 3e-6, 3e-8);
  EXPECT_LT(g.rmsLogError, 0.01);
  EXPECT_EQ(g.cases, static_cast<int>(cubeCaseFeatures("gemm").size()));
  for (const auto& [name, us] : g.measuredUs) {
    const json* mine = nullptr;
    for (const json* one : {&a, &b, &c})
      if (std::abs((*one)["cpu"]["cube_time_models"]["gemm"]["measured_us"][name].get<double>() - us) < 1e-9)
        mine = one;
    EXPECT_NE(mine, nullptr) << name << ": the median is one calibration's time";
  }
  // Notes and description say what was merged.
  EXPECT_NE(p.description.find("median of 3 calibrations"), std::string::npos) << p.description;
  EXPECT_NE(p.description.find("Test CPU, 1 thread"), std::string::npos) << p.description;
  for (const auto& n : p.notes)
    EXPECT_NE(n.source.find("a.json, b.json, c.json"), std::string::npos) << n.source;
  ASSERT_EQ(m->spread.size(), 1u);
  EXPECT_EQ(m->spread[0].rfind("gemm: shapes' times against their median x", 0), 0u) << m->spread[0];
  // The merged profile reads back as written.
  auto back = parseHwProfile(hwProfileToJson(p), "merged");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cpu.cubeModels.at("gemm").measuredUs.size(), g.measuredUs.size());
}

// The recurrent cells' times made of known steps and a projection the known GEMM model prices: fitted with
// that GEMM model, the rnn model recovers the steps' coefficients and says it prices its projections there;
// without one, its own terms price them.
TEST(CalibrationMerge, TheRecurrentFitTakesTheCellsInputProjectionsOffAtTheGemmModel) {
  const auto cases = cubeCaseFeatures("rnn");
  ASSERT_GE(cases.size(), 10u);
  CubeTimeModel steps;
  steps.coef[0] = 4e-11;   // the steps' products, slower a FLOP than the GEMM's 1e-11
  steps.coef[3] = 1.5e-6;  // a step
  steps.coef[5] = 8e-6;    // a call
  const CubeTimeModel gemm = knownGemm();
  std::map<std::string, double> us;
  for (const auto& [name, f] : cases) {
    ASSERT_GT(f.projRows, 0) << name;
    us[name] = 2.0 + (steps.seconds(f.withoutInputProjection()) + gemm.seconds(f.inputProjection())) * 1e6;
  }
  const CpuFigures noCurve;
  auto fit = refitCubeModel("rnn", us, 2.0, 1, 1, noCurve, {{"gemm", gemm}});
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->model.projectionKind, "gemm");
  EXPECT_NEAR(fit->model.coef[0], 4e-11, 1e-13);
  EXPECT_NEAR(fit->model.coef[3], 1.5e-6, 1e-8);
  EXPECT_NEAR(fit->model.coef[5], 8e-6, 1e-8);
  EXPECT_LT(fit->model.rmsLogError, 0.01);
  auto own = refitCubeModel("rnn", us, 2.0, 1, 1, noCurve, {});
  ASSERT_TRUE(own.ok()) << own.error().message;
  EXPECT_EQ(own->model.projectionKind, "");
}

TEST(CalibrationMerge, RefusesWhatItCannotMergeNamingTheFileAndField) {
  auto one = [](double launch) {
    return calibration(launch, 1e11, 16, {1500000}, [](size_t) { return 1.0; });
  };
  const json a = one(2.0), b = one(2.2);
  auto err = [](const std::vector<CalibrationFile>& files) {
    auto m = mergeCalibrations(files);
    EXPECT_FALSE(m.ok());
    if (m.ok()) return std::string();
    EXPECT_EQ(m.error().code, ErrorCode::BadInput) << m.error().message;
    return m.error().message;
  };
  EXPECT_NE(err({{"a.json", &a}}).find("at least two"), std::string::npos);
  json other = b;
  other["description"] =
      "This machine as the reference executor sees it (Other CPU, 1 thread), measured by fwb calibrate on "
      "2026-11-29";
  std::string e = err({{"a.json", &a}, {"other.json", &other}});
  EXPECT_NE(e.find("other.json: description: another machine"), std::string::npos) << e;
  json threads = b;
  threads["description"] =
      "This machine as the reference executor sees it (Test CPU, 2 threads), measured by fwb calibrate on "
      "2026-11-29";
  EXPECT_NE(err({{"a.json", &a}, {"t.json", &threads}}).find("t.json: description"), std::string::npos);
  json old = b;
  old["cpu"]["cube_time_models"]["gemm"].erase("measured_us");
  e = err({{"a.json", &a}, {"old.json", &old}});
  EXPECT_NE(e.find("old.json: cpu.cube_time_models.gemm.measured_us: missing"), std::string::npos) << e;
  json byHand = b;
  byHand["description"] = "my laptop";
  EXPECT_NE(err({{"a.json", &a}, {"hand.json", &byHand}})
                .find("hand.json: description: not a profile fwb calibrate measured"),
            std::string::npos);
  json broken = b;
  broken["cpu"]["cube_time_models"]["gemm"]["measured_us"]["MatMul 1x1x1"] = -3;
  e = err({{"a.json", &a}, {"broken.json", &broken}});
  EXPECT_NE(e.find("broken.json"), std::string::npos) << e;
  EXPECT_NE(e.find("measured_us"), std::string::npos) << e;
  // A calibration of another version's shapes (fewer than half of them named) cannot be fitted again.
  json renamed = b, renamed2 = a;
  for (json* r : {&renamed, &renamed2}) {
    json shapes = json::object();
    for (auto it = (*r)["cpu"]["cube_time_models"]["gemm"]["measured_us"].begin();
         it != (*r)["cpu"]["cube_time_models"]["gemm"]["measured_us"].end(); ++it)
      shapes["old " + it.key()] = it.value();
    (*r)["cpu"]["cube_time_models"]["gemm"]["measured_us"] = shapes;
  }
  e = err({{"r.json", &renamed}, {"r2.json", &renamed2}});
  EXPECT_NE(e.find("cpu.cube_time_models.gemm"), std::string::npos) << e;
}

// A curve measured at a size one calibration could not take (weight_stream_curve's 256 MiB point) is
// merged size by size, and drops found a different number of times are found again on the merged curve.
TEST(CalibrationMerge, CurvesWhoseSizesDifferAreMergedSizeBySize) {
  auto one = [](double launch, std::vector<int64_t> drops) {
    return calibration(launch, 1e11, 16, drops, [](size_t) { return 1.0; });
  };
  json a = one(2.0, {1500000}), b = one(2.1, {1500000, 30000000}), c = one(2.2, {1500000});
  auto stream = [](std::vector<std::pair<double, double>> pts) {
    json curve = json::array();
    for (auto [bytes, bw] : pts) curve.push_back({{"bytes", bytes}, {"bytes_per_s", bw}});
    return curve;
  };
  const double MiB = 1024.0 * 1024;
  a["cpu"]["weight_stream_curve"] = stream({{MiB, 1.0e11}, {16 * MiB, 3.0e10}});
  b["cpu"]["weight_stream_curve"] = stream({{MiB, 1.2e11}, {16 * MiB, 2.8e10}, {256 * MiB, 1.3e10}});
  c["cpu"]["weight_stream_curve"] = stream({{MiB, 1.1e11}, {16 * MiB, 2.9e10}});
  // The copy curve: 100 GB/s to a 2 MiB footprint, 20 GB/s from 8 MiB on.
  std::vector<std::pair<double, double>> copy;
  for (double f = 64 * 1024; f <= 256 * MiB; f *= 2) copy.push_back({f, f <= 2 * MiB ? 1.0e11 : 2.0e10});
  for (json* j : {&a, &b, &c}) j->at("cpu")["bandwidth_curve"] = stream(copy);
  // The product stream's times merge as medians and its shares are worked out again on the merged GEMM model
  // and weight stream (each file's own share, 0.9, is not kept).
  int k = 0;
  for (json* j : {&a, &b, &c}) {
    const double f = 1.0 + 0.1 * k++;
    j->at("cpu")["product_stream_share"] = {{{"rows", 4}, {"share", 0.9}, {"measured_us", 60.0 * f}},
                                            {{"rows", 8}, {"share", 0.9}, {"measured_us", 90.0 * f}}};
    j->at("cpu")["product_stream_distance_bytes"] = 7.1e7;
    j->at("cpu")["product_stream_share_far"] = {{{"rows", 4}, {"share", 0.9}, {"measured_us", 600.0 * f}},
                                                {{"rows", 8}, {"share", 0.9}, {"measured_us", 800.0 * f}}};
    j->at("cpu")["product_stream_far_distance_bytes"] = 2.7e8;
  }
  auto m = mergeCalibrations({{"a.json", &a}, {"b.json", &b}, {"c.json", &c}});
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->profile.cpu.productStream.us.size(), 2u);  // the middle file's times
  EXPECT_EQ(m->profile.cpu.productStream.us[1].first, 8);
  EXPECT_NEAR(m->profile.cpu.productStream.us[0].second, 66.0, 1e-9);
  EXPECT_NEAR(m->profile.cpu.productStream.us[1].second, 99.0, 1e-9);
  ASSERT_EQ(m->profile.cpu.productStreamFar.us.size(), 2u);
  EXPECT_NEAR(m->profile.cpu.productStreamFar.us[1].second, 880.0, 1e-9);
  for (const bool far : {false, true}) {
    const auto& set = far ? m->profile.cpu.productStreamFar : m->profile.cpu.productStream;
    std::string how;
    const auto again = productStreamShares(m->profile, set.us, far, how);
    ASSERT_EQ(again.share.size(), 2u);
    EXPECT_EQ(set.share, again.share);
    EXPECT_LT(again.share[1].second, 0.9);
    bool noted = false;
    for (const auto& n : m->profile.notes)
      if (n.field == (far ? "cpu.product_stream_share_far" : "cpu.product_stream_share"))
        noted = n.source.find("worked out again") != std::string::npos;
    EXPECT_TRUE(noted) << far;
  }
  const auto& ws = m->profile.cpu.weightStreamCurve;
  ASSERT_EQ(ws.size(), 3u);
  EXPECT_DOUBLE_EQ(ws[0].first, MiB);
  EXPECT_DOUBLE_EQ(ws[0].second, 1.1e11);  // the median of three
  EXPECT_DOUBLE_EQ(ws[1].second, 2.9e10);
  EXPECT_DOUBLE_EQ(ws[2].first, 256 * MiB);  // b's own point
  EXPECT_DOUBLE_EQ(ws[2].second, 1.3e10);
  // One drop, where the merged copy curve falls: between its 2 and 4 MiB footprints.
  ASSERT_EQ(m->profile.cpu.cacheDropsBytes.size(), 1u);
  EXPECT_GT(m->profile.cpu.cacheDropsBytes[0], int64_t{1} << 20);
  EXPECT_LE(m->profile.cpu.cacheDropsBytes[0], int64_t{4} << 20);
  std::string spread;
  for (const auto& line : m->spread) spread += line + "\n";
  EXPECT_NE(spread.find("cpu.weight_stream_curve: sizes differ between the calibrations (2 / 3 / 2 points)"),
            std::string::npos)
      << spread;
  EXPECT_NE(spread.find("268435456 bytes in 1 of 3"), std::string::npos) << spread;
  EXPECT_NE(spread.find("cpu.cache_drops_bytes: the calibrations found 1 / 2 / 1 drops"), std::string::npos)
      << spread;

  // Without a copy curve the drops cannot be found again: refused, naming the field.
  for (json* j : {&a, &b, &c}) j->at("cpu").erase("bandwidth_curve");
  auto refused = mergeCalibrations({{"a.json", &a}, {"b.json", &b}});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::BadInput);
  EXPECT_NE(refused.error().message.find("cpu.cache_drops_bytes"), std::string::npos)
      << refused.error().message;
  // Equal counts merge drop by drop, as before.
  auto same = mergeCalibrations({{"a.json", &a}, {"c.json", &c}});
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_EQ(same->profile.cpu.cacheDropsBytes, std::vector<int64_t>{1500000});
}

// A figure a later fwb calibrate writes (cpu.far_curve_vector, session 71) survives a merge whose first
// file predates it: the median over the files that have it, their note, and a spread line that says so.
TEST(CalibrationMerge, AFigureOnlyLaterCalibrationsWroteIsKeptWhicheverFileComesFirst) {
  auto one = [](double launch) {
    return calibration(launch, 1e11, 16, {1500000}, [](size_t) { return 1.0; });
  };
  json a = one(2.0), b = one(2.1), c = one(2.2);
  auto curve = [](double share) {
    json far = json::array();
    far.push_back({{"bytes", 1.6e7}, {"share", share}});
    far.push_back({{"bytes", 2.7e8}, {"share", 1.0}});
    return far;
  };
  for (json* j : {&a, &b, &c}) {
    j->at("cpu")["far_curve"] = curve(0.5);
    j->at("cpu")["far_s_per_byte"] = {{"vector", 1e-10}, {"product", 2e-10}};
  }
  b["cpu"]["far_curve_vector"] = curve(0.1);
  c["cpu"]["far_curve_vector"] = curve(0.3);
  c["notes"].push_back({{"field", "cpu.far_curve_vector"},
                        {"source", "measured by fwb calibrate: the Relu's"},
                        {"estimate", false}});
  auto m = mergeCalibrations({{"a.json", &a}, {"b.json", &b}, {"c.json", &c}});
  ASSERT_TRUE(m.ok()) << m.error().message;
  const auto& v = m->profile.cpu.farCurveVector;
  ASSERT_EQ(v.size(), 2u);
  EXPECT_DOUBLE_EQ(v[0].second, 0.1);  // the lower of the two files' that have it
  EXPECT_DOUBLE_EQ(m->profile.cpu.farCurve[0].second, 0.5);
  bool noted = false;
  for (const auto& n : m->profile.notes)
    if (n.field == "cpu.far_curve_vector") noted = n.source.find("the Relu's") != std::string::npos;
  EXPECT_TRUE(noted);
  std::string spread;
  for (const auto& line : m->spread) spread += line + "\n";
  EXPECT_NE(spread.find("cpu.far_curve_vector: in 2 of 3 calibrations"), std::string::npos) << spread;
  EXPECT_EQ(spread.find("notes"), std::string::npos) << spread;
}

}  // namespace
}  // namespace fw::sim
