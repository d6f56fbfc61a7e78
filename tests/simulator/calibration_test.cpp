// Issue 22: cpu-kind profiles and their cost, the op_summary importer, the profile fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <utility>

#include "core/exec/DirectConv.h"
#include "core/zoo/Zoo.h"
#include "core/zoo/ZooBuilder.h"
#include "simulator/CpuCost.h"
#include "simulator/HostBench.h"
#include "simulator/HostCalibration.h"
#include "simulator/HostOpCases.h"
#include "simulator/OpFamily.h"
#include "simulator/OpSummary.h"
#include "simulator/ProfileFit.h"
#include "simulator/Simulator.h"
#include "tests/simulator/SimTestUtil.h"

namespace fw::sim {
namespace {

using nlohmann::json;

json cpuProfileJson() {
  return json::parse(R"({
    "name": "testcpu", "kind": "cpu", "dtype": "float32", "clock_hz": 2.0e9,
    "cube_cores": 1, "vector_cores": 1,
    "cpu": {"gemm_flops_per_s": 1.0e11, "conv_flops_per_s": 5.0e10, "cache_bandwidth_bytes_per_s": 1.0e11,
            "grouped_conv_flops_per_s": 1.0e10, "cache_drops_bytes": [49152, 1048576, 33554432],
            "op_efficiency": {"Sigmoid": 0.002}},
    "l2_bytes": 33554432, "hbm_bandwidth_bytes_per_s": 1.0e10, "hbm_capacity_bytes": 1.0e10,
    "launch_us": 2.0, "host_dispatch_us": 0,
    "efficiency": {"elementwise": 0.1, "reduction": 0.02},
    "notes": [{"field": "cpu.gemm_flops_per_s", "source": "test", "estimate": false}]
  })");
}

// What each graph's one kernel takes more on a profile whose ops take `efficiency` (compute-bound, so rows
// show) when `rowS` is set as the time a row of each op in it than without.
std::vector<double> rowTimeUs(const std::vector<const Graph*>& graphs, const json& efficiency,
                              const json& rowS) {
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = efficiency;
  auto plain = parseHwProfile(j, "t.json");
  j["cpu"]["op_row_s"] = rowS;
  auto withRows = parseHwProfile(j, "t.json");
  EXPECT_TRUE(plain.ok() && withRows.ok());
  std::vector<double> out;
  if (!plain.ok() || !withRows.ok()) return out;
  for (const Graph* g : graphs)
    out.push_back(test::runUnfused(*g, *withRows).kernels.at(0).durUs -
                  test::runUnfused(*g, *plain).kernels.at(0).durUs);
  return out;
}

// fwb calibrate's short-rows case of an op type (the first), or nullptr.
const FamilyCase* rowCaseOf(const std::string& opType) {
  static const std::vector<FamilyCase> cases = rowCases();
  for (const auto& c : cases)
    if (c.bench.model.graph->node(c.bench.node).opType == opType) return &c;
  return nullptr;
}

TEST(CpuProfile, ParsesAndRoundTrips) {
  auto p = parseHwProfile(cpuProfileJson(), "t.json");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(p->isCpu());
  EXPECT_EQ(p->ubBytes, 0);  // no Unified Buffer: fusion's UB check is off for this profile
  EXPECT_DOUBLE_EQ(p->peakFlops(), 1.0e11);
  EXPECT_DOUBLE_EQ(p->efficiency.elementwise, 0.1);
  EXPECT_DOUBLE_EQ(p->efficiency.cube, 1.0);
  EXPECT_DOUBLE_EQ(p->cpu.groupedConvFlops, 1.0e10);
  EXPECT_DOUBLE_EQ(p->cpu.opEfficiency.at("Sigmoid"), 0.002);
  EXPECT_DOUBLE_EQ(p->cpu.cacheBandwidthFor(1e6), 1.0e11);  // no curve: the one cache figure
  json j = cpuProfileJson();
  j["cpu"]["bandwidth_curve"] = json::parse(R"([{"bytes": 1024, "bytes_per_s": 4e11}, {"bytes": 1048576, "bytes_per_s": 1e11}])");
  auto c = parseHwProfile(j, "t.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_DOUBLE_EQ(c->cpu.cacheBandwidthFor(512), 4e11);
  EXPECT_DOUBLE_EQ(c->cpu.cacheBandwidthFor(32768), 2.5e11);  // halfway in log size
  EXPECT_DOUBLE_EQ(c->cpu.cacheBandwidthFor(1e9), 1e11);
  j["cpu"]["bandwidth_curve"][1]["bytes"] = 1000;
  c = parseHwProfile(j, "t.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("$.cpu.bandwidth_curve[1].bytes"), std::string::npos) << c.error().message;
  auto again = parseHwProfile(hwProfileToJson(*p), "t2.json");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(hwProfileToJson(*again), hwProfileToJson(*p));
}

TEST(CpuProfile, RefusesNpuFieldsAndBadKind) {
  json j = cpuProfileJson();
  j["ub_bytes"] = 196608;
  auto p = parseHwProfile(j, "t.json");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("$.ub_bytes"), std::string::npos) << p.error().message;
  j = cpuProfileJson();
  j["kind"] = "gpu";
  p = parseHwProfile(j, "t.json");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("$.kind"), std::string::npos) << p.error().message;
  j = cpuProfileJson();
  j.erase("cpu");
  p = parseHwProfile(j, "t.json");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("$.cpu: missing"), std::string::npos) << p.error().message;
  j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Relu", 0.04}, {"Rleu", 0.04}};
  p = parseHwProfile(j, "t.json");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("$.cpu.op_efficiency.Rleu: not an op type"), std::string::npos) << p.error().message;
  j = cpuProfileJson();
  j["efficiency"]["elementwize"] = 1;
  p = parseHwProfile(j, "t.json");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("$.efficiency.elementwize: unknown field"), std::string::npos) << p.error().message;
}

// The executor's time outside its nodes (CpuFigures::RunOverhead): parsed, written back, refused when
// out of range; the simulator adds it to the latency and to no kernel; the calibration's fit recovers
// known figures from chains generated with them.
TEST(CpuProfile, RunOverheadIsInTheLatencyAndInNoKernel) {
  json j = cpuProfileJson();
  j["cpu"]["run_overhead"] = {
      {"s_per_run", 2e-6}, {"s_per_node", 1e-7}, {"s_per_initializer", 5e-8}, {"s_per_io_byte", 1e-11}};
  auto p = parseHwProfile(j, "t.json");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_DOUBLE_EQ(p->cpu.runOverhead.perNodeS, 1e-7);
  auto again = parseHwProfile(hwProfileToJson(*p), "t2.json");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(hwProfileToJson(*again), hwProfileToJson(*p));
  for (auto [key, v] : {std::pair<const char*, double>{"s_per_node", 0.01}, {"s_per_io_byte", -1.0}}) {
    json bad = j;
    bad["cpu"]["run_overhead"][key] = v;
    auto r = parseHwProfile(bad, "t.json");
    ASSERT_FALSE(r.ok()) << key;
    EXPECT_NE(r.error().message.find(std::string("$.cpu.run_overhead.") + key), std::string::npos)
        << r.error().message;
  }
  json extra = j;
  extra["cpu"]["run_overhead"]["s_per_edge"] = 1e-9;
  EXPECT_FALSE(parseHwProfile(extra, "t.json").ok());

  // x[1000] -> Relu (or Cast) -> Add(c[1000]) -> y: two nodes, one initializer, 4000 bytes out, and the
  // input's when the executor converts it (int32, 8000 bytes as int64) rather than holding it as is
  // (float32).
  for (const DType in : {DType::Float32, DType::Int32}) {
    Graph g;
    ValueId x = g.addInput("x", in, Shape::ofInts({1000}));
    ValueId c = g.addInitializer("c", Tensor::floats({1000}, std::vector<float>(1000, 1.f)));
    ValueId r = g.addValue("r", DType::Float32, Shape::ofInts({1000}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1000}));
    if (in == DType::Float32)
      g.addNode("Relu", {x}, {r}, {}, "relu");
    else
      g.addNode("Cast", {x}, {r}, fw::zoo::attrs({Attribute::makeInt("to", 1)}), "cast");
    g.addNode("Add", {r, c}, {y}, {}, "add");
    g.addOutput(y);
    auto plain = parseHwProfile(cpuProfileJson(), "t.json");
    ASSERT_TRUE(plain.ok());
    const SimResult without = test::runUnfused(g, *plain), with = test::runUnfused(g, *p);
    ASSERT_EQ(with.kernels.size(), 2u);
    for (size_t i = 0; i < 2; ++i) EXPECT_DOUBLE_EQ(with.kernels[i].durUs, without.kernels[i].durUs);
    const double inBytes = in == DType::Float32 ? 0.0 : 8000.0;  // an int32 is an int64 in the executor
    const double copies =
        (p->cpu.copySeconds(4000) + (inBytes > 0 ? p->cpu.copySeconds(inBytes) : 0.0)) * 1e6;
    const double want = 2.0 + 2 * 0.1 + 1 * 0.05 + (4000 + inBytes) * 1e-5 + copies;
    EXPECT_NEAR(with.runOverheadUs, want, 1e-9) << dtypeName(in);
    EXPECT_NEAR(with.latencyUs - without.latencyUs, want, 1e-3);  // cycle rounding
    EXPECT_DOUBLE_EQ(without.runOverheadUs, 0.0);
  }

  // Chains generated from known figures, their copies included: the fit gives the figures back.
  const CpuFigures::RunOverhead known{1.5e-6, 7e-8, 6e-8, 2e-11};
  std::vector<RunOverheadSample> chains;
  for (double nodes : {1, 16, 64, 256})
    for (double inits : {1.0, nodes})
      for (double io : {128.0, 8e6}) {
        const double copyUs = 3.0 * io / 1e6;
        chains.push_back({nodes, inits, io,
                          copyUs + 1e6 * (known.perRunS + known.perNodeS * nodes +
                                          known.perInitializerS * inits + known.perIoByteS * io),
                          copyUs});
      }
  auto fit = fitRunOverhead(chains);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_NEAR(fit->perRunS, known.perRunS, 1e-3 * known.perRunS);
  EXPECT_NEAR(fit->perNodeS, known.perNodeS, 1e-3 * known.perNodeS);
  EXPECT_NEAR(fit->perInitializerS, known.perInitializerS, 1e-3 * known.perInitializerS);
  EXPECT_NEAR(fit->perIoByteS, known.perIoByteS, 1e-3 * known.perIoByteS);
  EXPECT_FALSE(fitRunOverhead({chains.begin(), chains.begin() + 3}).ok());
  chains[2].us = 0;
  auto bad = fitRunOverhead(chains);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("must be positive"), std::string::npos) << bad.error().message;
}

// fwb calibrate's weight reorder: Convs timed on a model's weight and on a computed one, the difference a
// call cost plus bytes at a bandwidth; the fit gives known figures back through 3 % noise, charges nothing
// when the computed weights were not slower, and refuses a time <= 0 naming what it was fitting.
TEST(HostCalibration, TheWeightReorderFitRecoversKnownFigures) {
  const double callS = 1.7e-6, bytesPerS = 1.37e10;
  std::mt19937 rng(22);
  std::uniform_real_distribution<double> noise(0.97, 1.03);
  std::vector<WeightReorderSample> samples;
  for (double bytes : {36864.0, 147456.0, 589824.0, 2359296.0, 294912.0}) {
    const double plainUs = 20.0 + bytes / 1e4;  // whatever the Conv itself takes
    samples.push_back({bytes, plainUs, plainUs + 1e6 * (callS + bytes / bytesPerS) * noise(rng)});
  }
  auto fit = fitWeightReorder(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_NEAR(fit->callS, callS, 0.25 * callS);
  EXPECT_NEAR(fit->bytesPerS, bytesPerS, 0.05 * bytesPerS);
  // Not slower (or only one shape slower): nothing to charge.
  std::vector<WeightReorderSample> same = samples;
  for (auto& s : same) s.computedUs = s.plainUs;
  same[0].computedUs += 3.0;
  auto none = fitWeightReorder(same);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->any());
  samples[3].plainUs = 0;
  auto bad = fitWeightReorder(samples);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("weight reorder"), std::string::npos) << bad.error().message;
}

// A Gather's picks from DRAM (HwProfile.h: cold_gather) cost a time a row plus a time a byte more than
// from cache; the fit gives known figures back through 3 % noise, charges nothing when fewer than two
// widths were slower, and refuses a time <= 0 naming what it was fitting.
TEST(HostCalibration, TheColdGatherFitRecoversKnownFigures) {
  const double rowS = 9e-8, byteS = 1.5e-10;
  std::mt19937 rng(30);
  std::uniform_real_distribution<double> noise(0.97, 1.03);
  std::vector<ColdGatherSample> samples;
  for (auto [picks, width] : {std::pair{1024.0, 64.0}, {512.0, 768.0}, {256.0, 3072.0}, {128.0, 4096.0}}) {
    const double hotUs = 1.0 + picks * width / 2e4;
    samples.push_back(
        {picks, picks * width, hotUs + 1e6 * (picks * rowS + picks * width * byteS) * noise(rng), hotUs});
  }
  auto fit = fitColdGather(samples);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_NEAR(fit->perRowS, rowS, 0.1 * rowS);
  EXPECT_NEAR(fit->perByteS, byteS, 0.1 * byteS);
  std::vector<ColdGatherSample> same = samples;
  for (auto& s : same) s.coldUs = s.hotUs;
  same[1].coldUs += 5.0;
  auto none = fitColdGather(same);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->any());
  samples[2].hotUs = 0;
  auto bad = fitColdGather(samples);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("cold gather"), std::string::npos) << bad.error().message;
}

// On a CPU profile with cold_gather, a Gather from a model's table pays its picks' time a row and bytes
// whole in a run whose footprint is twice the last-level cache or more, nothing in one that fits it,
// linearly between; from a table the run computes, nothing. The field is written back, and a malformed one
// is refused naming it.
TEST(CpuCost, AGatherFromATableInDramPaysItsRowsAndBytes) {
  auto graph = [](bool initializer) {
    Graph g;
    ValueId ids = g.addInput("ids", DType::Int64, Shape::ofInts({128}));
    ValueId table =
        initializer
            ? g.addInitializer("table", Tensor::floats({2048, 768}, std::vector<float>(2048 * 768, 0.5f)))
            : g.addInput("table", DType::Float32, Shape::ofInts({2048, 768}));
    ValueId e = g.addValue("e", DType::Float32, Shape::ofInts({128, 768}));
    g.addNode("Gather", {table, ids}, {e}, {}, "gather");
    g.addOutput(e);
    return g;
  };
  json j = cpuProfileJson();
  j["cpu"]["cold_gather"] = {{"s_per_row", 1e-7}, {"s_per_byte", 2e-10}};
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  auto back = parseHwProfile(hwProfileToJson(*with), "t.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_DOUBLE_EQ(back->cpu.coldGather.perRowS, 1e-7);
  EXPECT_DOUBLE_EQ(back->cpu.coldGather.perByteS, 2e-10);
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  auto without = [&](HwProfile hw) {
    hw.cpu.coldGather = {};
    return hw;
  };
  const Graph words = graph(true), computed = graph(false);
  // 128 rows of 3 KiB from DRAM, us, each distinct one once: of 128 uniform picks from 2048 rows, 124.1
  // are distinct on average (gatherDistinctRows).
  const double missed = 2048 * -std::expm1(-128.0 / 2048);
  const double full = missed * (0.1 + 3072 * 2e-4);
  const double footprint = runFootprintBytes(words, *with);
  // What cold_gather adds: its charge doubled adds it once more.
  auto extraWithCache = [&](double llc) {
    HwProfile hw = *with, twice = *with;
    hw.l2Bytes = twice.l2Bytes = static_cast<int64_t>(llc);
    twice.cpu.coldGather.perRowS *= 2;
    twice.cpu.coldGather.perByteS *= 2;
    return us(words, twice) - us(words, hw);
  };
  EXPECT_NEAR(extraWithCache(33554432), 0.0, 1e-9);        // the run fits a 32 MiB cache
  EXPECT_NEAR(extraWithCache(footprint / 2), full, 1e-3);  // twice the cache (whole cycles)
  EXPECT_NEAR(extraWithCache(footprint / 1.5), 0.5 * full, 1e-3);
  // The picks it prices are otherwise timed from cache, not from DRAM as well: at twice the cache, a
  // DRAM a hundred times slower slows the Gather by the output's bytes beyond the cache only (1 KiB:
  // 10 us at 100 MB/s), not by its 384 KiB of picks (3.9 ms).
  {
    HwProfile cold = *with;
    cold.l2Bytes = static_cast<int64_t>(footprint / 2);
    cold.cpu.cacheDropsBytes = {49152, 262144};  // a core's own cache of 256 KiB, under the picks' bytes
    HwProfile slowDram = cold;
    slowDram.hbmBandwidth = cold.hbmBandwidth / 100;
    EXPECT_LT(us(words, slowDram) - us(words, cold), 20.0);
  }
  HwProfile small = *with;
  small.l2Bytes = 65536;
  EXPECT_NEAR(us(computed, small), us(computed, without(small)), 1e-9);
  for (auto [key, v] : {std::pair<const char*, double>{"s_per_row", -1.0}, {"s_per_byte", 1.0}}) {
    json badJ = j;
    badJ["cpu"]["cold_gather"][key] = v;
    auto bad = parseHwProfile(badJ, "t.json");
    ASSERT_FALSE(bad.ok()) << key;
    EXPECT_NE(bad.error().message.find(std::string("$.cpu.cold_gather.") + key), std::string::npos)
        << bad.error().message;
  }
  json extra = j;
  extra["cpu"]["cold_gather"]["s_per_pick"] = 1e-7;
  auto refused = parseHwProfile(extra, "t.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("s_per_pick"), std::string::npos) << refused.error().message;
}

// The run order of one-node groups by their nodes' names.
std::vector<size_t> orderOfNodes(const Graph& g, const std::vector<KernelGroup>& groups,
                                 std::initializer_list<const char*> names) {
  std::vector<size_t> order;
  for (const char* name : names)
    for (size_t i = 0; i < groups.size(); ++i)
      if (groups[i].members.at(0) == g.findNode(name)) order.push_back(i);
  return order;
}

// cold_gather's far figures (session 59): a pick from between the near and the far distance takes the two
// interpolated in log distance, from beyond the far one the far figures; a Gather's distance is what the run
// touched since its table's rows were last read, plus the rows it picks; from further away a row narrower
// than a cache line misses once a line.
TEST(CpuCost, AGathersColdChargeTakesTheFarFiguresAtItsTablesDistance) {
  json j = cpuProfileJson();
  j["cpu"]["cold_gather"] = json::parse(R"({"s_per_row": 1e-8, "s_per_byte": 1e-10, "distance_bytes": 4194304,
      "far": {"s_per_row": 1e-7, "s_per_byte": 1e-9, "distance_bytes": 67108864}})");
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  auto back = parseHwProfile(hwProfileToJson(*with), "t.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(hwProfileToJson(*back), hwProfileToJson(*with));
  const auto& cg = with->cpu.coldGather;
  ASSERT_TRUE(cg.anyFar());
  const double nearS = 100 * 1e-8 + 1e5 * 1e-10, farS = 100 * 1e-7 + 1e5 * 1e-9;
  EXPECT_DOUBLE_EQ(cg.secondsAt(100, 1e5, 0), nearS);  // distance unknown
  EXPECT_DOUBLE_EQ(cg.secondsAt(100, 1e5, 1e6), nearS);
  EXPECT_NEAR(cg.secondsAt(100, 1e5, 16777216), (nearS + farS) / 2, 1e-15);  // halfway in log distance
  EXPECT_DOUBLE_EQ(cg.secondsAt(100, 1e5, 1e12), farS);
  EXPECT_DOUBLE_EQ(cg.secondsAt(100, 1e5, 1e12, 10), 10 * 1e-7 + 1e5 * 1e-9);
  for (const auto& [patch, where] : std::vector<std::pair<std::string, std::string>>{
           {R"({"distance_bytes": null})", "$.cpu.cold_gather.far"},
           {R"({"far": {"distance_bytes": 4194304}})", "$.cpu.cold_gather.far.distance_bytes"},
           {R"({"far": {"s_per_row": 1e-3}})", "$.cpu.cold_gather.far.s_per_row"},
           {R"({"far": {"s_per_pick": 1e-7}})", "s_per_pick"}}) {
    json bad = j;
    bad["cpu"]["cold_gather"].merge_patch(json::parse(patch));
    auto refused = parseHwProfile(bad, "t.json");
    ASSERT_FALSE(refused.ok()) << patch;
    EXPECT_NE(refused.error().message.find(where), std::string::npos) << refused.error().message;
  }

  // 128 picks of rows of `width` floats from a table of `rows`, after a Neg over n floats; the profile's
  // cache small enough that the run's footprint is twice it (the cold charge whole).
  auto graph = [](int64_t rows, int64_t width, int64_t n) {
    Graph g;
    ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({n}));
    ValueId nb = g.addValue("nb", DType::Float32, Shape::ofInts({n}));
    g.addNode("Neg", {big}, {nb}, {}, "neg");
    ValueId ids = g.addInput("ids", DType::Int64, Shape::ofInts({128}));
    ValueId table = g.addInitializer(
        "table", Tensor::floats({rows, width}, std::vector<float>(static_cast<size_t>(rows * width), 0.5f)));
    ValueId e = g.addValue("e", DType::Float32, Shape::ofInts({128, width}));
    g.addNode("Gather", {table, ids}, {e}, {}, "gather");
    g.addOutput(e);
    g.addOutput(nb);
    return g;
  };
  auto extraUs = [&](const Graph& g, HwProfile hw, double& distance) {
    hw.l2Bytes = static_cast<int64_t>(runFootprintBytes(g, hw) / 2);
    const auto groups = unfusedGroups(g);
    EXPECT_TRUE(groups.ok());
    const CpuRunReuse r =
        cpuRunReuse(g, *groups, orderOfNodes(g, *groups, {"neg", "gather"}), hw, runFootprintBytes(g, hw));
    distance = r.gatherDistance.at(static_cast<size_t>(g.findNode("gather")));
    EXPECT_EQ(r.gatherDistance.at(static_cast<size_t>(g.findNode("neg"))), 0.0);
    auto us = [&](const HwProfile& p) {
      for (const KernelTiming& k : test::runUnfused(g, p).kernels)
        if (k.nodes.at(0) == "gather") return k.durUs;
      ADD_FAILURE() << "no gather kernel";
      return 0.0;
    };
    // What cold_gather adds: its charge doubled adds it once more.
    HwProfile twice = hw;
    for (double* f : {&twice.cpu.coldGather.perRowS, &twice.cpu.coldGather.perByteS,
                      &twice.cpu.coldGather.far.perRowS, &twice.cpu.coldGather.far.perByteS})
      *f *= 2;
    return us(twice) - us(hw);
  };
  // Rows of 3 KiB: the picks' own bytes beside the Neg's 2 x 8 MiB and 2 x 32 MiB.
  const double missed = 2048 * -std::expm1(-128.0 / 2048), bytes = missed * 3072;
  for (const int64_t n : {int64_t{1} << 21, int64_t{1} << 23}) {
    double distance = 0;
    const double extra = extraUs(graph(2048, 768, n), *with, distance);
    EXPECT_GE(distance, 4.0 * static_cast<double>(n) + bytes);                   // the Neg's output at least
    EXPECT_NEAR(extra, cg.secondsAt(missed, bytes, distance) * 1e6, 2e-3) << n;  // kernel times in ns
    EXPECT_GT(extra, cg.seconds(missed, bytes) * 1e6 * 1.5) << n;
  }
  // Rows of 8 B from a table of 16384 (128 KiB, 2048 lines): of 128 picks 127.5 rows distinct, each on a line
  // of its own as far as the far figures count (2048 lines > 127.5); from a table of 64 rows (512 B, 8
  // lines), 8 lines.
  for (const int64_t rows : {int64_t{16384}, int64_t{64}}) {
    double distance = 0;
    const double extra = extraUs(graph(rows, 2, int64_t{1} << 23), *with, distance);
    const double r = static_cast<double>(rows) * -std::expm1(-128.0 / static_cast<double>(rows));
    const double lines = std::min(r, static_cast<double>(rows) * 8 / 64);
    EXPECT_NEAR(extra, cg.secondsAt(r, r * 8, distance, lines) * 1e6, 2e-3) << rows;
  }
}

// Only a table row's first pick misses: a Gather's cold charge counts each row it lands on once, the
// distinct ones of constant indices, the expected distinct ones of P uniform picks from R rows otherwise
// (R (1 - e^(-P / R)): all R when P >> R, about P when P << R), each block before the axis apart.
TEST(CpuCost, AGathersColdChargeCountsEachTableRowOnce) {
  auto graph = [](int64_t rows, std::vector<int64_t> idxDims, std::optional<std::vector<int64_t>> at,
                  int64_t axis = 0) {
    Graph g;
    const std::vector<int64_t> tableDims =
        axis == 0 ? std::vector<int64_t>{rows, 64} : std::vector<int64_t>{3, rows, 64};
    int64_t n = 1;
    for (int64_t d : tableDims) n *= d;
    ValueId table = g.addInitializer("table", Tensor::floats(tableDims, std::vector<float>(n, 0.5f)));
    ValueId ids = at ? g.addInitializer("ids", Tensor::int64s(idxDims, *at))
                     : g.addInput("ids", DType::Int64, Shape::ofInts(idxDims));
    std::vector<int64_t> outDims(tableDims.begin(), tableDims.begin() + axis);
    outDims.insert(outDims.end(), idxDims.begin(), idxDims.end());
    outDims.push_back(64);
    ValueId e = g.addValue("e", DType::Float32, Shape::ofInts(outDims));
    g.addNode("Gather", {table, ids}, {e}, fw::zoo::attrs({Attribute::makeInt("axis", axis)}), "gather");
    g.addOutput(e);
    return g;
  };
  auto distinct = [](const Graph& g) { return gatherDistinctRows(g, g.node(0)); };
  EXPECT_NEAR(distinct(graph(100, {8, 96, 12}, std::nullopt)), 100.0, 1e-6);  // 9216 picks of 100 rows
  EXPECT_NEAR(distinct(graph(100000, {64}, std::nullopt)), 100000 * -std::expm1(-64.0 / 100000), 1e-9);
  EXPECT_NEAR(distinct(graph(100000, {64}, std::nullopt)), 64.0, 0.05);
  std::vector<int64_t> repeated;
  for (int r = 0; r < 4; ++r)
    for (int64_t i = 0; i < 32; ++i) repeated.push_back(r % 2 ? i : i - 256);  // i - 256 is row i + 256
  EXPECT_DOUBLE_EQ(distinct(graph(512, {128}, repeated)), 32.0 + 32.0);
  EXPECT_DOUBLE_EQ(distinct(graph(512, {4, 32}, repeated, 1)), 3 * 64.0);  // 3 blocks before the axis
  // The charge: the run twice the cache, cold_gather doubled adds its charge once more, for 100 rows (not
  // 9216) of 256 B.
  json j = cpuProfileJson();
  j["cpu"]["cold_gather"] = {{"s_per_row", 1e-7}, {"s_per_byte", 2e-10}};
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  const Graph chars = graph(100, {8, 96, 12}, std::nullopt);
  HwProfile hw = *with, twice = *with;
  hw.l2Bytes = twice.l2Bytes = static_cast<int64_t>(runFootprintBytes(chars, *with) / 2);
  twice.cpu.coldGather.perRowS *= 2;
  twice.cpu.coldGather.perByteS *= 2;
  const double extra =
      test::runUnfused(chars, twice).kernels.at(0).durUs - test::runUnfused(chars, hw).kernels.at(0).durUs;
  EXPECT_NEAR(extra, 100 * (0.1 + 256 * 2e-4), 1e-3);
}

// A GatherElements's picks from an activation larger than the last-level cache pay cold_gather on the
// cache lines they land on beyond the cache's share of it (each line a row of 64 B); from one that fits,
// nothing.
TEST(CpuCost, GatherElementsPicksFromBeyondTheCachePayTheColdGather) {
  Graph g;
  ValueId data = g.addInput("data", DType::Float32, Shape::ofInts({1024, 1024}));
  ValueId idx = g.addInput("idx", DType::Int64, Shape::ofInts({1024, 16}));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1024, 16}));
  g.addNode("GatherElements", {data, idx}, {y}, fw::zoo::attrs({Attribute::makeInt("axis", 1)}), "ge");
  g.addOutput(y);
  json j = cpuProfileJson();
  j["cpu"]["cold_gather"] = {{"s_per_row", 1e-8}, {"s_per_byte", 1e-10}};
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  const double dataBytes = 4.0 * 1024 * 1024;
  const double picked = gatherReadBytes(g, g.node(0), *with, 0);
  // 16 picks a row of 64 lines: about 14.2 lines a row.
  EXPECT_NEAR(picked / 64 / 1024, 64 * -std::expm1(16 * std::log1p(-1.0 / 64)), 1e-6);
  auto extraWithCache = [&](double llc) {
    HwProfile hw = *with, twice = *with;
    hw.l2Bytes = twice.l2Bytes = static_cast<int64_t>(llc);
    twice.cpu.coldGather.perRowS *= 2;
    twice.cpu.coldGather.perByteS *= 2;
    return test::runUnfused(g, twice).kernels.at(0).durUs - test::runUnfused(g, hw).kernels.at(0).durUs;
  };
  EXPECT_NEAR(extraWithCache(2 * dataBytes), 0.0, 1e-9);
  const double beyond = 0.75 * picked;  // a cache of a quarter of the data
  EXPECT_NEAR(extraWithCache(dataBytes / 4), 1e6 * (beyond / 64 * 1e-8 + beyond * 1e-10), 1e-3);
}

// A TopK's branches depend on its data, and the calibration times each case on the same input again and
// again: a few lines' pattern is learned by the branch predictor (the top 16 of lines of 1024: 0.9 us a
// line at 32 or 64 lines, 2.7 at 512 or more, session 49). Both TopK cases have at least 512 lines of 1024
// or their equal in blocks of 16 values.
TEST(HostCalibration, TheTopKCasesHaveMoreLinesThanTheBranchPredictorLearns) {
  auto topkInputs = [](const std::vector<FamilyCase>& cases) {
    std::vector<std::vector<int64_t>> dims;
    for (const FamilyCase& c : cases) {
      const Graph& g = *c.bench.model.graph;
      if (g.node(c.bench.node).opType != "TopK") continue;
      const auto d = g.value(g.node(c.bench.node).inputs[0]).shape.ints();
      const auto init = g.value(g.node(c.bench.node).inputs[0]).initializer;
      dims.push_back(init ? init->dims() : d.value_or(std::vector<int64_t>{}));
    }
    return dims;
  };
  auto blocks = [](const std::vector<int64_t>& d) {
    return d.size() == 2 ? d[0] * ((d[1] + 15) / 16) : int64_t{0};
  };
  const auto family = topkInputs(familyCases(CaseSize::normal()));
  const auto rows = topkInputs(rowCases());
  ASSERT_EQ(family.size(), 1u);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_GE(blocks(family[0]), 512 * 64) << family[0][0];
  EXPECT_GE(blocks(rows[0]), 512 * 64 / 2) << rows[0][0];  // [4096, 64]: 16K blocks and 156K insertions
}

TEST(CpuProfile, ShippedProfilesAreNpusWithUnitEfficiency) {
  for (const auto& n : listHwProfiles()) {
    auto p = resolveHwProfile(n);
    ASSERT_TRUE(p.ok()) << n;
    EXPECT_FALSE(p->isCpu()) << n;
    for (const auto& [key, fam] : efficiencyKeys()) EXPECT_EQ(p->efficiency.of(fam), 1.0) << n << " " << key;
    EXPECT_FALSE(hwProfileToJson(*p).contains("efficiency"));
  }
}

TEST(CpuCost, RooflinePerMemberWithCacheAwareTraffic) {
  auto hw = *parseHwProfile(cpuProfileJson(), "t.json");
  // Small: 1024 floats in, 1024 out = 8 KiB, fits the LLC: cache bandwidth; Relu work = 1024 elements
  // at 1e11 * 0.1 = 1e10/s = 0.1024 us; memory 8192 / 1e11 = 0.08 us -> compute-bound.
  Graph small = test::unaryChain({"Relu"}, {1024});
  auto r = test::runUnfused(small, hw);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_NEAR(r.kernels[0].durUs, 0.1024 + 2.0, 1e-3);
  EXPECT_EQ(r.kernels[0].bound, Bound::Launch);  // the 2 us overhead is longer than the body
  EXPECT_EQ(r.kernels[0].hbmBytes, 0.0);
  // Big: 16M floats in and out = 128 MiB, 96 MiB over the 32 MiB LLC at DRAM bandwidth.
  Graph big = test::unaryChain({"Relu"}, {16 * 1024 * 1024});
  r = test::runUnfused(big, hw);
  const double fp = 2.0 * 64 * 1024 * 1024, llc = 33554432;
  const double memUs = ((fp - llc) / 1e10 + llc / 1e11) * 1e6, compUs = 16.0 * 1024 * 1024 / 1e10 * 1e6;
  EXPECT_NEAR(r.kernels[0].durUs, std::max(memUs, compUs) + 2.0, 1e-2);
  EXPECT_EQ(r.kernels[0].bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(r.kernels[0].hbmBytes, fp - llc);
  // A fused kernel of two members pays both rooflines and two overheads (the executor runs them one by one).
  Graph two = test::unaryChain({"Relu", "Relu"}, {1024});
  auto f = test::run(two, {test::allInOne(two)}, hw);
  EXPECT_NEAR(f.kernels[0].durUs, 2 * (0.1024 + 2.0), 1e-3);
  // An op type the profile measured on its own uses its own efficiency instead of its family's.
  hw.cpu.opEfficiency["Relu"] = 0.05;
  r = test::runUnfused(small, hw);
  EXPECT_NEAR(r.kernels[0].durUs, 0.2048 + 2.0, 1e-3);
  // Its measured time on a tiny tensor (3 us, dispatch included) adds what exceeds the 2 us launch.
  hw.cpu.opCallS["Relu"] = 3e-6;
  r = test::runUnfused(small, hw);
  EXPECT_NEAR(r.kernels[0].durUs, 1.0 + 0.2048 + 2.0, 1e-3);
  // That fixed cost is spent before the op's loop: a memory-bound op pays it on top of its traffic.
  r = test::runUnfused(big, hw);
  EXPECT_NEAR(r.kernels[0].durUs, 1.0 + memUs + 2.0, 1e-2);
  // Below the launch cost: a kernel of the op alone takes its own call in place of the launch; a fused
  // body's member no less than the launch.
  hw.cpu.opCallS["Relu"] = 1e-6;
  r = test::runUnfused(small, hw);
  EXPECT_NEAR(r.kernels[0].durUs, 0.2048 + 1.0, 1e-3);
  f = test::run(two, {test::allInOne(two)}, hw);
  EXPECT_NEAR(f.kernels[0].durUs, 2 * (0.2048 + 2.0), 1e-3);
  auto back = parseHwProfile(hwProfileToJson(hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_DOUBLE_EQ(back->cpu.opCallS.at("Relu"), 1e-6);
  json bad = cpuProfileJson();
  bad["cpu"]["op_call_s"] = {{"Relu", 2.0}};
  auto refused = parseHwProfile(bad, "t.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("$.cpu.op_call_s.Relu"), std::string::npos) << refused.error().message;
  hw.cpu.opCallS.clear();
  // A row-wise op pays its rows on top (cpu.op_row_s): a Softmax over 32K floats in rows of 8 (4096 rows)
  // 30 ns a row more than without, in rows of 1024 (32 rows) 0.96 us (its loop's time: a memory-bound op
  // hides it, as it hides the rest of its arithmetic); along axis 0 of [8, 4096] its rows
  // are the 8 of each of the 16 blocks of 256 columns; a LayerNormalization's rows are the positions before
  // its axis; other ops none.
  auto softmaxUs = [&](std::vector<int64_t> dims, std::optional<int64_t> axis, const char* op = "Softmax") {
    Graph g = test::unaryChain({op}, dims);
    if (axis) g.node(0).attrs.set(Attribute::makeInt("axis", *axis));
    return test::runUnfused(g, hw).kernels[0].durUs;
  };
  hw.cpu.opEfficiency["Softmax"] = hw.cpu.opEfficiency["LayerNormalization"] =
      0.01;  // compute-bound, as measured
  const double shortRows = softmaxUs({4096, 8}, std::nullopt), longRows = softmaxUs({32, 1024}, std::nullopt),
               columns = softmaxUs({8, 4096}, 0), norm = softmaxUs({4, 8, 1024}, 1, "LayerNormalization");
  hw.cpu.opRowS["Softmax"] = 3e-8;
  hw.cpu.opRowS["LayerNormalization"] = 1e-8;
  EXPECT_NEAR(softmaxUs({4096, 8}, std::nullopt) - shortRows, 4096 * 0.03, 1e-6);
  EXPECT_NEAR(softmaxUs({32, 1024}, std::nullopt) - longRows, 32 * 0.03, 1e-6);
  EXPECT_NEAR(softmaxUs({8, 4096}, 0) - columns, 8 * 16 * 0.03, 1e-6);
  EXPECT_NEAR(softmaxUs({4, 8, 1024}, 1, "LayerNormalization") - norm, 4 * 0.01, 1e-6);
  EXPECT_NEAR(softmaxUs({4096, 8}, std::nullopt, "Relu"),
              test::runUnfused(test::unaryChain({"Relu"}, {4096, 8}), hw).kernels[0].durUs, 1e-9);
  back = parseHwProfile(hwProfileToJson(hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_DOUBLE_EQ(back->cpu.opRowS.at("Softmax"), 3e-8);
  bad = cpuProfileJson();
  bad["cpu"]["op_row_s"] = {{"Softmax", -1.0}};
  refused = parseHwProfile(bad, "t.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("$.cpu.op_row_s.Softmax"), std::string::npos)
      << refused.error().message;
  // A key that is neither an op type nor a variant is refused, the message listing every variant.
  bad = cpuProfileJson();
  bad["cpu"]["op_row_s"] = {{"Gather/rows", 1e-9}};
  refused = parseHwProfile(bad, "t.json");
  ASSERT_FALSE(refused.ok());
  for (const std::string& v : efficiencyVariants())
    EXPECT_NE(refused.error().message.find(v), std::string::npos) << refused.error().message;
  hw.cpu.opRowS.clear();
  hw.cpu.opEfficiency.clear();
  // MatMul at the GEMM rate: 2*64*64*64 flops / 1e11.
  Graph mm = test::matmul(64, 64, 64);
  r = test::runUnfused(mm, hw);
  EXPECT_NEAR(r.kernels[0].durUs, 2.0 * 64 * 64 * 64 / 1e11 * 1e6 + 2.0, 1e-3);
  // An embedding lookup reads the rows it picks: 8 rows of a 100000 x 64 table (25.6 MB) cost 8 rows
  // (2 KiB: a weight, from DRAM by the share of the run the core's own cache cannot hold) plus the 2 KiB
  // output from cache, not the table. The run's footprint counts those rows, not the table: alone, the
  // lookup runs in cache; beside a Neg over 16 MB, its rows are mostly cold.
  for (bool big : {false, true}) {
    Graph e;
    e.name = "embedding";
    ValueId table = e.addInitializer("table", Tensor::floats({100000, 64}, std::vector<float>(6400000, 0.f)));
    ValueId ids = e.addInput("ids", DType::Int64, Shape::ofInts({8}));
    ValueId y = e.addValue("y", DType::Float32, Shape::ofInts({8, 64}));
    e.addNode("Gather", {table, ids}, {y}, {}, "lookup");
    e.addOutput(y);
    if (big) {
      ValueId x = e.addInput("x", DType::Float32, Shape::ofInts({4096, 1024}));
      ValueId n = e.addValue("n", DType::Float32, Shape::ofInts({4096, 1024}));
      e.addNode("Neg", {x}, {n}, {}, "neg");
      e.addOutput(n);
    }
    r = test::runUnfused(e, hw);
    ASSERT_EQ(r.kernels.size(), big ? 2u : 1u);
    const double cold = coldShareOf(hw, runFootprintBytes(e, hw));
    if (big) {
      EXPECT_GT(cold, 0.9);
      EXPECT_LT(cold, 1.0);
    } else {
      EXPECT_DOUBLE_EQ(cold, 0.0);
    }
    const double rowsUs = cold * 2048.0 / 1e10 * 1e6, cachedUs = (64.0 + 2048.0 + (1 - cold) * 2048.0) / 1e11 * 1e6;
    const KernelTiming& lookup = r.kernels[0].ops.at(0) == "Gather" ? r.kernels[0] : r.kernels.at(1);
    ASSERT_EQ(lookup.ops.at(0), "Gather");
    EXPECT_NEAR(lookup.durUs, std::max(rowsUs + cachedUs, 512.0 / (1e11 * 1.0) * 1e6) + 2.0, 1e-3);
    EXPECT_LT(lookup.hbmBytes, 4096.0);
  }
}

// A profile curve (`key` in j's "cpu", `curve` in CpuFigures) written back reads the same, and one whose
// second point is not past its first is refused naming that point's field.
void expectCurveRoundTripsAndIsChecked(json j, const char* key,
                                       std::vector<std::pair<double, double>> CpuFigures::*curve) {
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  auto back = parseHwProfile(hwProfileToJson(*hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cpu.*curve, hw->cpu.*curve);
  j["cpu"][key][1]["bytes"] = 10;
  auto bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find(std::string("$.cpu.") + key + "[1].bytes"), std::string::npos)
      << bad.error().message;
}

// A CPU profile whose executor loops stream 50 GB/s at 1 MB of footprint (the curve's first point: in cache)
// and 5 GB/s at 128 MiB.
json streamCurveProfileJson() {
  json j = cpuProfileJson();
  j["cpu"]["stream_curve"] =
      json::parse(R"([{"bytes": 1e6, "bytes_per_s": 5e10}, {"bytes": 134217728, "bytes_per_s": 5e9}])");
  return j;
}

TEST(CpuCost, AnElementwiseOpBeyondTheOwnCachePaysTheChainsSlowerStream) {
  // The executor's loops stream 50 GB/s at 1 MB of footprint and 5 GB/s at 128 MiB; the copy moves 100 GB/s
  // in cache, 10 GB/s from DRAM. What a byte takes beyond 1 / 50 GB/s is added to the op's work; the copy
  // model's time bounds the op as another estimate of the same traffic (the larger of the two), not on top
  // of it.
  json j = streamCurveProfileJson();
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  EXPECT_DOUBLE_EQ(hw->cpu.streamBandwidthFor(1e6), 5e10);
  EXPECT_DOUBLE_EQ(hw->cpu.streamBandwidthFor(1e9), 5e9);
  auto stall = [&](double fp) { return fp * (1.0 / hw->cpu.streamBandwidthFor(fp) - 1.0 / 5e10) * 1e6; };
  // Within the curve's first footprint (8 KiB): nothing more than without the curve.
  auto r = test::runUnfused(test::unaryChain({"Relu"}, {1024}), *hw);
  EXPECT_NEAR(r.kernels[0].durUs, 0.1024 + 2.0, 1e-3);
  // 2 MiB of footprint: its work (26.2 us, more than the copy's 21 us) and the stall of 2 MiB at 43 GB/s.
  const double fp = 2.0 * 4 * 262144;
  r = test::runUnfused(test::unaryChain({"Relu"}, {262144}), *hw);
  EXPECT_GT(stall(fp), 5.0);
  EXPECT_NEAR(r.kernels[0].durUs, 262144 / 1e10 * 1e6 + stall(fp) + 2.0, 1e-3);
  // 128 MiB: its work and the stall at 5 GB/s (25.8 ms), more than the copy model's time (96 MiB of it
  // from DRAM: 10.4 ms).
  const double big = 2.0 * 64 * 1024 * 1024, llc = 33554432;
  const double memUs = ((big - llc) / 1e10 + llc / 1e11) * 1e6, workUs = 16.0 * 1024 * 1024 / 1e10 * 1e6;
  r = test::runUnfused(test::unaryChain({"Relu"}, {16 * 1024 * 1024}), *hw);
  EXPECT_GT(workUs + stall(big), memUs);
  EXPECT_NEAR(r.kernels[0].durUs, workUs + stall(big) + 2.0, 1e-2);
  // A curve that streams as fast beyond the cache as in it (no stall) leaves the copy model's time.
  j["cpu"]["stream_curve"] =
      json::parse(R"([{"bytes": 1e6, "bytes_per_s": 5e10}, {"bytes": 134217728, "bytes_per_s": 5e10}])");
  auto flat = parseHwProfile(j, "t.json");
  ASSERT_TRUE(flat.ok()) << flat.error().message;
  r = test::runUnfused(test::unaryChain({"Relu"}, {16 * 1024 * 1024}), *flat);
  EXPECT_NEAR(r.kernels[0].durUs, memUs + 2.0, 1e-2);
  // A matrix op keeps its own model.
  auto mm = test::runUnfused(test::matmul(64, 64, 64), *hw);
  EXPECT_NEAR(mm.kernels[0].durUs, 2.0 * 64 * 64 * 64 / 1e11 * 1e6 + 2.0, 1e-3);
  // The curve round-trips and is checked like the copy's.
  expectCurveRoundTripsAndIsChecked(j, "stream_curve", &CpuFigures::streamCurve);
}

// A value that is both inputs of a binary op (x * x) is read once: the Mul of x by itself moves the bytes
// of a unary op over x, less than the Mul of two values, beyond the own cache and in it.
TEST(CpuCost, AValueThatIsBothInputsStreamsOnce) {
  auto hw = parseHwProfile(streamCurveProfileJson(), "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  auto binary = [](bool same, int64_t n) {
    Graph g;
    g.name = same ? "square" : "product";
    const ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({n}));
    const ValueId y = same ? x : g.addInput("y", DType::Float32, Shape::ofInts({n}));
    const ValueId z = g.addValue("z", DType::Float32, Shape::ofInts({n}));
    g.addNode("Mul", {x, y}, {z}, {}, "mul");
    g.addOutput(z);
    return g;
  };
  for (const int64_t n : {int64_t{1} << 14, int64_t{1} << 24}) {
    const auto square = test::runUnfused(binary(true, n), *hw),
               product = test::runUnfused(binary(false, n), *hw);
    ASSERT_EQ(square.kernels.size(), 1u);
    ASSERT_EQ(product.kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(square.kernels[0].inputBytes, 4.0 * static_cast<double>(n));
    EXPECT_LT(square.kernels[0].durUs, product.kernels[0].durUs) << n;
    if (n > (int64_t{1} << 20)) {
      EXPECT_LT(square.kernels[0].durUs, 0.8 * product.kernels[0].durUs) << n;
    }
  }
}

// fwb calibrate's rounds: one figure per bench, in the benches' order, whatever order they were timed in.
TEST(HostBench, RoundsGiveOneFigurePerBenchInOrder) {
  using namespace hostbench;
  const Bench big = oneOp("Exp", {256, 1024}, {}, {}, 2), tiny = oneOp("Exp", {4}, {}, {}, 2);
  auto t = timeNodesInRounds({&tiny, &big, &tiny}, 1, 1, 3, 3);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->size(), 3u);
  EXPECT_GT((*t)[1], 10 * (*t)[0]);  // 256K exps against 4
  EXPECT_GT((*t)[1], 10 * (*t)[2]);
}

// A bench's warm-up and timed runs fill a time as well as their counts (0.2 and 0.5 ms per run asked
// for): a 4-element Exp, 1 warm-up and 20 timed runs asked for, still takes at least 14 ms of runs.
TEST(HostBench, TimingFillsItsMinimumTimeAsWellAsItsCount) {
  using namespace hostbench;
  const Bench tiny = oneOp("Exp", {4}, {}, {}, 2);
  const auto t0 = std::chrono::steady_clock::now();
  auto t = timeNode(tiny, 1, 1, 20);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_GT(*t, 0.0);
  EXPECT_GE(s, 0.014);
}

// The block fit (positions of a pointwise product, output channels of a dense Conv) finds the step the
// times follow, and refuses too few or non-positive times.
TEST(HostBench, BlockFitFindsTheBlockTheTimesFollow) {
  const std::vector<int64_t> ps = {8, 9, 15, 16, 17, 24, 25, 31, 32, 33, 40, 48, 49, 63, 64, 65};
  // Times that step every 16 positions (3 us + 20 us a block, +-2 % noise) fit 16; every 8, 8; a
  // straight line in P, 1.
  for (int64_t block : {16, 8, 1}) {
    std::vector<double> us;
    for (size_t i = 0; i < ps.size(); ++i) {
      const double padded = std::ceil(static_cast<double>(ps[i]) / static_cast<double>(block)) * static_cast<double>(block);
      us.push_back((3.0 + 20.0 * padded / 16.0) * (i % 2 ? 1.02 : 0.98));
    }
    auto fit = fitBlock(ps, us);
    ASSERT_TRUE(fit.ok()) << fit.error().message;
    EXPECT_EQ(fit->block, block);
    EXPECT_NE(fit->how.find("block 64 RMS"), std::string::npos) << fit->how;
  }
  auto bad = fitBlock(ps, std::vector<double>(ps.size(), 0.0));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("must be positive"), std::string::npos) << bad.error().message;
  bad = fitBlock({8, 16}, {1.0, 2.0});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("at least 3"), std::string::npos) << bad.error().message;
}

// fwb calibrate's cache boundaries from the copy curve (sizes in steps of sqrt(2), bandwidths in GB/s as
// measured on a 1 MiB-L2 machine). The size right at the L2's capacity came out anywhere from 110 to 220
// from one calibration to another: the first size under 70 % of the plateau moved between 1 and 1.4 MiB
// footprints, the level's end (10 % under its bandwidth) stays within 740-940 KiB. A dip that recovers is
// no boundary; a flat curve has none.
TEST(HostBench, CacheBoundariesAreWhereALevelsBandwidthEnds) {
  auto curve = [](double atCapacity, double dip) {
    // footprint KiB -> GB/s
    const std::vector<std::pair<double, double>> fp = {
        {16, 250},   {23, 255},   {32, 260},    {45, 262},   {64, 258},   {91, 260},          {128, 261},
        {181, 259},  {256, 262},  {362, dip},   {512, 262},  {724, 258},  {1024, atCapacity}, {1448, 146},
        {2048, 117}, {2896, 118}, {4096, 112},  {5793, 120}, {8192, 125}, {11585, 121},       {16384, 119},
        {32768, 70}, {65536, 55}, {131072, 54}, {262144, 53}};
    std::vector<std::pair<size_t, double>> copy;
    for (const auto& [kib, gbs] : fp) copy.push_back({static_cast<size_t>(kib * 512), gbs * 1e9});
    return copy;
  };
  for (double atCapacity : {110.0, 171.0, 220.0}) {
    for (double dip : {260.0, 131.0}) {
      const std::vector<int64_t> drops = cacheDrops(curve(atCapacity, dip));
      ASSERT_EQ(drops.size(), 2u) << atCapacity << " " << dip << ": " << ::testing::PrintToString(drops);
      EXPECT_GT(drops[0], 740 << 10) << atCapacity << " " << dip;
      EXPECT_LT(drops[0], 940 << 10) << atCapacity << " " << dip;
      // The DRAM level: 10 % under the L3's 119.5 GB/s lies between 16 and 32 MiB.
      EXPECT_GT(drops[1], int64_t{16} << 20);
      EXPECT_LT(drops[1], int64_t{32} << 20);
    }
  }
  EXPECT_TRUE(cacheDrops(std::vector<std::pair<size_t, double>>(12, {size_t{1} << 20, 100e9})).empty());
}

// The last-level cache is the level after the core's own cache, whatever falls after it: on the shared VM
// the copy bandwidth sometimes falls a second time, from ~60 % of the L3's to DRAM's at 64-128 MiB
// footprints (3 of 14 calibrations), and taking that tier moved the L3 from 18 to 74 MiB, the cache
// bandwidth from 93 to 52 GB/s and the cold Gather 13x between calibrations of one run.
TEST(HostBench, TheLastLevelCacheIsTheLevelAfterTheCoresOwn) {
  // footprint KiB -> GB/s: an L2 of 1 MiB, an L3 to ~18 MiB, a tier at 62-68 GB/s to ~70 MiB, then DRAM.
  const std::vector<std::pair<double, double>> fp = {
      {16, 250},   {23, 255},   {32, 260},    {45, 262},    {64, 258},   {91, 260},    {128, 261},
      {181, 259},  {256, 262},  {362, 260},   {512, 262},   {724, 258},  {1024, 171},  {1448, 146},
      {2048, 117}, {2896, 118}, {4096, 112},  {5793, 120},  {8192, 125}, {11585, 121}, {16384, 119},
      {32768, 68}, {65536, 62}, {131072, 40}, {262144, 31}, {524288, 30}};
  std::vector<std::pair<size_t, double>> copy;
  for (const auto& [kib, gbs] : fp) copy.push_back({static_cast<size_t>(kib * 512), gbs * 1e9});
  const std::vector<int64_t> drops = cacheDrops(copy);
  ASSERT_EQ(drops.size(), 3u) << ::testing::PrintToString(drops);
  EXPECT_EQ(lastCacheLevel(drops), 1);
  EXPECT_GT(drops[1], int64_t{16} << 20);
  EXPECT_LT(drops[1], int64_t{32} << 20);
  // Without the tier the L3 is still the last level; a lone L1-sized drop (under 256 KiB, no core's own
  // cache) is the last level itself; no drop, none.
  EXPECT_EQ(lastCacheLevel({int64_t{800} << 10, int64_t{18} << 20}), 1);
  EXPECT_EQ(lastCacheLevel({int64_t{800} << 10}), 0);
  EXPECT_EQ(lastCacheLevel({int64_t{48} << 10}), 0);
  EXPECT_EQ(lastCacheLevel({int64_t{48} << 10, int64_t{800} << 10, int64_t{18} << 20}), 2);
  // The own cache's fall split over two boundaries (0.75 and 1.49 MiB): the L3 is the one after them.
  EXPECT_EQ(lastCacheLevel({int64_t{768} << 10, int64_t{1526} << 10, int64_t{14868} << 10}), 2);
  EXPECT_EQ(lastCacheLevel({}), -1);
}

// A GlobalAveragePool reduces each plane on its own (core/exec/ops_pool.cpp): its rows are its images times
// channels, and fwb calibrate times one over 4096 planes of 2x4 beside the family case's 32 planes of 32x32,
// so that an SE block's pools over planes of 4x4 pay their planes (held-out sets 85-89: a median 0.74 of
// their time simulated, 0.45-0.7 over planes of 9-16, without).
TEST(Calibration, AGlobalPoolPaysItsPlanes) {
  auto pool = [](const char* op, std::vector<int64_t> dims) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<int64_t> od(dims.size(), 1);
    od[0] = dims[0];
    od[1] = dims[1];
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(od));
    g.addNode(op, {x}, {y}, {}, "p");
    g.addOutput(y);
    return g;
  };
  const Graph se = pool("GlobalAveragePool", {8, 96, 4, 4});
  EXPECT_EQ(rowWiseRows(se, se.node(0)), 8 * 96);
  const Graph max3d = pool("GlobalMaxPool", {2, 16, 4, 8, 8});
  EXPECT_EQ(rowWiseRows(max3d, max3d.node(0)), 2 * 16);
  const Graph flat = pool("GlobalAveragePool", {8, 96});  // no spatial axes: refused by the executor
  EXPECT_EQ(rowWiseRows(flat, flat.node(0)), 0);
  // Both pools are timed over 32 planes (the family cases) and 4096 (the row cases), each for its own
  // figures.
  for (const std::string op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    int64_t familyRows = 0, shortRows = 0;
    for (const auto& c : familyCases(CaseSize::normal())) {
      const Graph& g = *c.bench.model.graph;
      if (g.node(c.bench.node).opType == op) familyRows = rowWiseRows(g, g.node(c.bench.node));
    }
    for (const auto& c : rowCases()) {
      const Graph& g = *c.bench.model.graph;
      if (g.node(c.bench.node).opType != op) continue;
      EXPECT_EQ(c.key, op);
      shortRows = rowWiseRows(g, g.node(c.bench.node));
    }
    EXPECT_EQ(familyRows, 32) << op;
    EXPECT_EQ(shortRows, 4096) << op;
  }
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"GlobalAveragePool", 0.001}};  // compute-bound: its rows show
  auto plain = parseHwProfile(j, "t.json");
  j["cpu"]["op_row_s"] = {{"GlobalAveragePool", 2e-9}};
  auto rowed = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok() && rowed.ok());
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  EXPECT_NEAR(us(se, *rowed) - us(se, *plain), 8 * 96 * 2e-3, 1e-6);
}

// A float sum or mean over its last axes in rows of 2 to 7 (the executor's loop over four rows at a time)
// takes the rows figure of "<Op>/short", which fwb calibrate times on rows of that kind beside the family
// case; rows of 8 or more, a middle axis or a max keep their own keys. A profile without the figure (before
// session 81) charges the op type's. A loop body's node whose axes are its parent's constant takes it too.
TEST(Calibration, ASumOverShortRowsTakesTheShortRowsFigure) {
  auto reduce = [](const char* op, std::vector<int64_t> dims, std::vector<int64_t> axes) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<int64_t> od = dims;
    for (int64_t a : axes) od[static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(dims.size()) : a)] = 1;
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(od));
    g.addNode(op, {x}, {y},
              zoo::attrs({Attribute::makeInts("axes", axes), Attribute::makeInt("keepdims", 1)}), "r");
    g.addOutput(y);
    return g;
  };
  const Graph xyz = reduce("ReduceSum", {2, 1024, 3}, {-1}), mean2 = reduce("ReduceMean", {4096, 2}, {-1}),
              eight = reduce("ReduceSum", {2048, 8}, {-1}), max3 = reduce("ReduceMax", {2048, 3}, {-1}),
              middle = reduce("ReduceSum", {64, 3, 16}, {1}),
              lastTwo = reduce("ReduceSum", {512, 2, 3}, {1, 2});
  EXPECT_EQ(efficiencyKey(xyz, xyz.node(0)), "ReduceSum/short");
  EXPECT_EQ(efficiencyKey(mean2, mean2.node(0)), "ReduceMean/short");
  EXPECT_EQ(efficiencyKey(lastTwo, lastTwo.node(0)), "ReduceSum/short");  // rows of 6
  EXPECT_EQ(efficiencyKey(eight, eight.node(0)), "ReduceSum");
  EXPECT_EQ(efficiencyKey(max3, max3.node(0)), "ReduceMax");
  EXPECT_EQ(efficiencyKey(middle, middle.node(0)), "ReduceSum/middle");
  // The calibration times each key on rows of that kind, as a row case (rows only).
  std::set<std::string> timed;
  for (const auto& c : rowCases()) {
    const Graph& cg = *c.bench.model.graph;
    if (c.key.find("/short") != std::string::npos) {
      EXPECT_EQ(efficiencyKey(cg, cg.node(c.bench.node)), c.key);
      timed.insert(c.key);
    }
  }
  EXPECT_EQ(timed, (std::set<std::string>{"ReduceSum/short", "ReduceMean/short"}));
  json j = cpuProfileJson();
  j["cpu"]["op_row_s"] = {{"ReduceSum", 0.3e-9}};
  auto older = parseHwProfile(j, "t.json");
  ASSERT_TRUE(older.ok()) << older.error().message;
  j["cpu"]["op_row_s"]["ReduceSum/short"] = 0.6e-9;
  auto own = parseHwProfile(j, "t.json");
  ASSERT_TRUE(own.ok()) << own.error().message;
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  EXPECT_NEAR(us(xyz, *own) - us(xyz, *older), 2048 * 0.3e-3, 1e-3);  // whole cycles
  EXPECT_DOUBLE_EQ(us(eight, *own), us(eight, *older));

  // A loop body that reads the axes from the graph around it (a scripted point-cloud net's sampling loop)
  // is costed as the same node at top level: its rows are short rows, every trip.
  Graph loop;
  const ValueId x0 = loop.addInput("x0", DType::Float32, Shape::ofInts({2048, 3}));
  loop.addInitializer("ax", Tensor::int64s({1}, {-1}));
  const ValueId trips = loop.addInitializer("M", Tensor::int64s({}, {5}));
  auto body = std::make_shared<Graph>();
  body->addInput("iter", DType::Int64, Shape::ofInts({}));
  const ValueId condIn = body->addInput("cond_in", DType::Bool, Shape::ofInts({}));
  const ValueId carried = body->addInput("carried", DType::Float32, Shape::ofInts({2048, 3}));
  const ValueId condOut = body->addValue("cond_out", DType::Bool, Shape::ofInts({}));
  body->addNode("Identity", {condIn}, {condOut}, {}, "cond");
  const ValueId kept = body->addValue("kept", DType::Float32, Shape::ofInts({2048, 3}));
  body->addNode("Identity", {carried}, {kept}, {}, "keep");
  const ValueId sums = body->addValue("sums", DType::Float32, Shape::ofInts({2048, 1}));
  body->addNode("ReduceSum", {carried, body->addValue("ax")}, {sums},
                zoo::attrs({Attribute::makeInt("keepdims", 1)}), "sum");  // "ax": the outer graph's
  for (ValueId v : {condOut, kept, sums}) body->addOutput(v);
  const ValueId xN = loop.addValue("xN", DType::Float32, Shape::ofInts({2048, 3}));
  const ValueId all = loop.addValue("all", DType::Float32, Shape::ofInts({5, 2048, 1}));
  loop.addNode("Loop", {trips, kNoId, x0}, {xN, all}, zoo::attrs({Attribute::makeGraph("body", body)}),
               "loop");
  loop.addOutput(xN);
  loop.addOutput(all);
  auto sumUs = [](const SimResult& r) {
    for (const auto& k : r.kernels)
      if (k.ops == std::vector<std::string>{"ReduceSum"}) return k.durUs;
    ADD_FAILURE() << "no ReduceSum kernel";
    return 0.0;
  };
  EXPECT_NEAR(sumUs(test::runUnfused(loop, *own)) - sumUs(test::runUnfused(loop, *older)), 5 * 2048 * 0.3e-3,
              5e-3);
}

// An ArgMax or ArgMin along its last axis (axes of 1 after it aside) pays its rows, one an output element,
// at the row figure fwb calibrate times on rows of 8 beside its own case's rows of 1024; along a middle
// axis (blocks of columns) none.
TEST(Calibration, AnArgMaxAlongItsLastAxisPaysItsRows) {
  auto arg = [](const char* op, std::vector<int64_t> dims, int64_t axis) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<int64_t> od = dims;
    od.erase(od.begin() + (axis < 0 ? axis + static_cast<int64_t>(dims.size()) : axis));
    ValueId y = g.addValue("y", DType::Int64, Shape::ofInts(od));
    g.addNode(op, {x}, {y}, zoo::attrs({Attribute::makeInt("axis", axis), Attribute::makeInt("keepdims", 0)}),
              "a");
    g.addOutput(y);
    return g;
  };
  const Graph rows64 = arg("ArgMin", {4096, 64}, 1), unitAfter = arg("ArgMax", {32, 64, 1}, -2),
              middle = arg("ArgMax", {8, 64, 32}, 1);
  EXPECT_EQ(rowWiseRows(rows64, rows64.node(0)), 4096);
  EXPECT_EQ(rowWiseRows(unitAfter, unitAfter.node(0)), 32);
  EXPECT_EQ(rowWiseRows(middle, middle.node(0)), 0);
  std::set<std::string> timed;
  for (const auto& c : rowCases()) {
    const Graph& cg = *c.bench.model.graph;
    const Node& n = cg.node(c.bench.node);
    if (n.opType == "ArgMax" || n.opType == "ArgMin") {
      EXPECT_EQ(c.key, n.opType);
      EXPECT_EQ(rowWiseRows(cg, n), 65536);
      timed.insert(c.key);
    }
  }
  EXPECT_EQ(timed, (std::set<std::string>{"ArgMax", "ArgMin"}));
  json j = cpuProfileJson();
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_row_s"] = {{"ArgMin", 10e-9}, {"ArgMax", 10e-9}};
  auto rowed = parseHwProfile(j, "t.json");
  ASSERT_TRUE(rowed.ok()) << rowed.error().message;
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  EXPECT_NEAR(us(rows64, *rowed) - us(rows64, *plain), 4096 * 10e-3, 1e-3);
  EXPECT_DOUBLE_EQ(us(middle, *rowed), us(middle, *plain));
}

// A comparison into bool runs an Add's broadcast loops (core/exec/Broadcast.h): through the general one
// each row is set up apart, as an Add's. Its rows are counted as an Add's, its key is its op type (its
// figures are timed against a single element; of int64 operands "<Op>/int64"), fwb calibrate times Equal's
// rows beside its family case, and a Less, Greater, LessOrEqual or GreaterOrEqual without figures of its
// own pays Equal's (a k-means step's ids [4096, 1] == [1, 64]: 91.5 us a trip measured, 31.8 simulated
// before; session 82).
TEST(Calibration, AComparisonThroughTheGeneralLoopPaysItsRows) {
  auto cmp = [](const char* op, std::vector<int64_t> a, std::vector<int64_t> b, std::vector<int64_t> od) {
    Graph g;
    ValueId x = g.addInput("x", DType::Int64, Shape::ofInts(a));
    ValueId z = g.addInput("z", DType::Int64, Shape::ofInts(b));
    ValueId y = g.addValue("y", DType::Bool, Shape::ofInts(od));
    g.addNode(op, {x, z}, {y}, {}, "c");
    g.addOutput(y);
    return g;
  };
  const Graph outer = cmp("Equal", {4096, 1}, {1, 64}, {4096, 64}),
              less = cmp("Less", {4096, 1}, {1, 64}, {4096, 64}),
              scalar = cmp("Equal", {4096, 64}, {}, {4096, 64}),
              whole = cmp("Greater", {4096, 64}, {4096, 64}, {4096, 64});
  EXPECT_EQ(rowWiseRows(outer, outer.node(0)), 4096);
  EXPECT_EQ(rowWiseRows(less, less.node(0)), 4096);
  EXPECT_EQ(rowWiseRows(scalar, scalar.node(0)), 0);
  EXPECT_EQ(rowWiseRows(whole, whole.node(0)), 0);
  // Of int64 operands its own figures, "<Op>/int64" (the plain build's loop has no vector compare of them);
  // of floats its op type's.
  EXPECT_EQ(efficiencyKey(outer, outer.node(0)), "Equal/int64");
  EXPECT_EQ(efficiencyKey(less, less.node(0)), "Less/int64");
  Graph floats = cmp("Equal", {4096, 1}, {1, 64}, {4096, 64});
  for (ValueId v : floats.node(0).inputs) floats.value(v).dtype = DType::Float32;
  EXPECT_EQ(efficiencyKey(floats, floats.node(0)), "Equal");
  EXPECT_EQ(rowWiseRows(floats, floats.node(0)), 4096);
  int timed = 0, timedInt64 = 0;
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& cg = *c.bench.model.graph;
    if (efficiencyKey(cg, cg.node(c.bench.node)) != "Equal/int64") continue;
    EXPECT_TRUE(c.ownFiguresOnly);
    ++timedInt64;
  }
  EXPECT_EQ(timedInt64, 1);
  for (const auto& c : rowCases()) {
    const Graph& cg = *c.bench.model.graph;
    const Node& n = cg.node(c.bench.node);
    if (n.opType != "Equal") continue;
    EXPECT_EQ(c.key, "Equal");
    EXPECT_EQ(rowWiseRows(cg, n), 4096);
    ++timed;
  }
  EXPECT_EQ(timed, 1);
  json j = cpuProfileJson();
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_row_s"] = {{"Equal", 10e-9}};
  auto rowed = parseHwProfile(j, "t.json");
  ASSERT_TRUE(rowed.ok()) << rowed.error().message;
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  EXPECT_NEAR(us(outer, *rowed) - us(outer, *plain), 4096 * 10e-3, 1e-3);
  EXPECT_NEAR(us(less, *rowed) - us(less, *plain), 4096 * 10e-3, 1e-3);
  EXPECT_DOUBLE_EQ(us(scalar, *rowed), us(scalar, *plain));
  EXPECT_DOUBLE_EQ(us(whole, *rowed), us(whole, *plain));
  // An int64 Less without figures of its own pays Equal/int64's: a slow rate, more time.
  j["cpu"]["op_efficiency"]["Equal/int64"] = 1e-4;
  auto int64 = parseHwProfile(j, "t.json");
  ASSERT_TRUE(int64.ok()) << int64.error().message;
  EXPECT_GT(us(less, *int64), us(less, *rowed) + 1.0);
  EXPECT_GT(us(outer, *int64), us(outer, *rowed) + 1.0);
  EXPECT_DOUBLE_EQ(us(floats, *int64), us(floats, *rowed));
}

// A Resize's modes take figures of their own: "Resize" for the nearest one, "Resize/linear" and
// "Resize/cubic" for the others; fwb calibrate times one case of each under its key, the cubic one for its
// own figures only. Until session 71 the nearest and linear cases shared "Resize", their median's figure (a
// narrow U-Net's nearest 2x upsampling, 270 us measured, 484 simulated).
TEST(Calibration, EachResizeModeTakesItsOwnFigures) {
  auto resize = [](const char* mode) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({4, 16, 64, 64}));
    ValueId roi = g.addInitializer("roi", Tensor::floats({0}, {}));
    ValueId scales = g.addInitializer("scales", Tensor::floats({4}, {1.f, 1.f, 2.f, 2.f}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({4, 16, 128, 128}));
    Attributes a;
    if (mode) a = zoo::attrs({Attribute::makeString("mode", mode)});
    g.addNode("Resize", {x, roi, scales}, {y}, a, "r");
    g.addOutput(y);
    return g;
  };
  const Graph byDefault = resize(nullptr), nearest = resize("nearest"), linear = resize("linear"),
              cubic = resize("cubic");
  EXPECT_EQ(efficiencyKey(byDefault, byDefault.node(0)), "Resize");
  EXPECT_EQ(efficiencyKey(nearest, nearest.node(0)), "Resize");
  EXPECT_EQ(efficiencyKey(linear, linear.node(0)), "Resize/linear");
  EXPECT_EQ(efficiencyKey(cubic, cubic.node(0)), "Resize/cubic");
  std::map<std::string, bool> timed;  // key -> its own figures only
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& cg = *c.bench.model.graph;
    const Node& n = cg.node(c.bench.node);
    if (n.opType == "Resize") timed[efficiencyKey(cg, n)] = c.ownFiguresOnly;
  }
  EXPECT_EQ(timed, (std::map<std::string, bool>{
                       {"Resize", false}, {"Resize/linear", false}, {"Resize/cubic", true}}));
  // Each mode costs its own figure; a profile without a mode's (calibrated before session 71) the op type's.
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Resize", 0.01}, {"Resize/linear", 0.003}, {"Resize/cubic", 0.001}};
  auto own = parseHwProfile(j, "t.json");
  ASSERT_TRUE(own.ok()) << own.error().message;
  j["cpu"]["op_efficiency"] = {{"Resize", 0.01}};
  auto older = parseHwProfile(j, "t.json");
  ASSERT_TRUE(older.ok()) << older.error().message;
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  EXPECT_DOUBLE_EQ(us(nearest, *own), us(nearest, *older));
  EXPECT_GT(us(linear, *own), 2.5 * us(nearest, *own));
  EXPECT_GT(us(cubic, *own), 2.5 * us(linear, *own));
  EXPECT_DOUBLE_EQ(us(linear, *older), us(nearest, *older));
}

// The far tier's shares from what the Conv and the Relu took more after each Neg (session 71's Xeon, one
// calibration, us): the pooled curve takes the Conv's excess at the short distances, most of it run-to-run
// noise (125 us on 2.8 ms after 4 MiB, 190 after 128), the vector curve the Relu's alone (none to 16 MiB).
TEST(Calibration, TheVectorFarCurveIsTheRelusExcessAlone) {
  const std::vector<double> d = {14.5e6, 22.5e6, 38.5e6, 70.5e6, 134.5e6, 262.5e6};
  std::vector<double> r;  // the Relu's own distance: 8 MiB more than 2E, past the two ops' mean
  for (double x : d) r.push_back(x + 1.5e6);
  const FarShares s = farSharesOf(d, r, {125, 96, 80, 112, 290, 190}, {0, 8, 42, 74, 478, 637});
  ASSERT_EQ(s.pooled.size(), 6u);
  ASSERT_EQ(s.vector.size(), 6u);
  EXPECT_NEAR(s.pooled[0].second, 125.0 / 827, 1e-12);
  EXPECT_NEAR(s.pooled[1].second, 125.0 / 827, 1e-12);  // non-decreasing
  EXPECT_NEAR(s.pooled[4].second, 768.0 / 827, 1e-12);
  EXPECT_DOUBLE_EQ(s.pooled[5].second, 1.0);
  EXPECT_DOUBLE_EQ(s.vector[0].second, 0.0);
  EXPECT_NEAR(s.vector[2].second, 42.0 / 637, 1e-12);
  EXPECT_NEAR(s.vector[4].second, 478.0 / 637, 1e-12);
  EXPECT_DOUBLE_EQ(s.vector[5].second, 1.0);
  for (size_t i = 0; i < d.size(); ++i) {
    EXPECT_EQ(s.pooled[i].first, d[i]);
    EXPECT_EQ(s.vector[i].first, r[i]);
  }
  // A Relu that took nothing more after the largest Neg gives no vector curve (the pooled one stands).
  const FarShares flat = farSharesOf(d, r, {125, 96, 80, 112, 290, 190}, {0, 0, 0, 0, 0, 0});
  EXPECT_TRUE(flat.vector.empty());
  EXPECT_DOUBLE_EQ(flat.pooled[4].second, 1.0);  // 290 over 190: at most 1
  EXPECT_TRUE(farSharesOf(d, r, {1, 2}, {1, 2}).pooled.empty());
  EXPECT_TRUE(farSharesOf(d, {1, 2}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}).pooled.empty());
}

// The far tier's ops grow with the own cache so that the cost model counts their bytes (an activation larger
// than the own cache): 8 MiB ops under an own cache of 1 MiB, 16 MiB under the 8.4 MB session 61's VM found
// (where the 8 MiB ops counted no byte and the tier was written as free), and at most 64 times.
TEST(Calibration, TheFarTiersOpsOutgrowTheOwnCache) {
  EXPECT_EQ(farTierScale(0), 1);
  EXPECT_EQ(farTierScale(1024.0 * 1024), 1);
  EXPECT_EQ(farTierScale(5.0 * 1024 * 1024), 1);
  EXPECT_EQ(farTierScale(8436457), 2);
  EXPECT_EQ(farTierScale(24.0 * 1024 * 1024), 8);
  EXPECT_EQ(farTierScale(1e12), 64);
  for (double own : {1e6, 4.4e6, 8.4e6, 17.6e6, 40e6})
    EXPECT_GT(8.0 * 1024 * 1024 * static_cast<double>(farTierScale(own)), own) << own;
  // Their buffers (about 5 x 8 MiB a scale) within an eighth of the memory: 64 GiB leaves the 8.4 MB case
  // alone; 24 MiB's 8 stays 8 in 4 GiB, goes to 2 in 1 GiB and to 1 in 256 MiB.
  EXPECT_EQ(farTierScale(8436457, 64.0 * (int64_t{1} << 30)), 2);
  EXPECT_EQ(farTierScale(24.0 * 1024 * 1024, 4.0 * (int64_t{1} << 30)), 8);
  EXPECT_EQ(farTierScale(24.0 * 1024 * 1024, 1.0 * (int64_t{1} << 30)), 2);
  EXPECT_EQ(farTierScale(24.0 * 1024 * 1024, 256.0 * (1 << 20)), 1);
}

// A Transpose that only moves axes of size 1 keeps the elements in order: a view on every profile (the
// executor hands out the same buffer); one that moves a real axis is a copy.
TEST(CpuCost, TransposeOfSizeOneAxesIsAView) {
  EXPECT_TRUE(permKeepsOrder({48, 1, 100}, {1, 0, 2}));
  EXPECT_TRUE(permKeepsOrder({1, 48, 1, 100}, {2, 1, 0, 3}));
  EXPECT_FALSE(permKeepsOrder({48, 1, 100}, {2, 1, 0}));
  EXPECT_FALSE(permKeepsOrder({48, 100}, {0}));  // a bad perm is not a view
  auto transposed = [](std::vector<int64_t> dims, std::vector<int64_t> perm) {
    Graph g;
    g.name = "t";
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<int64_t> od;
    for (int64_t p : perm) od.push_back(dims[static_cast<size_t>(p)]);
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(od));
    g.addNode("Transpose", {x}, {y}, zoo::attrs({Attribute::makeInts("perm", perm)}), "t");
    g.addOutput(y);
    return g;
  };
  auto hw = *parseHwProfile(cpuProfileJson(), "t.json");
  for (const HwProfile& p : {hw, test::toy()}) {
    Graph view = transposed({48, 1, 100}, {1, 0, 2});
    EXPECT_EQ(nodeFamily(view, view.node(0)), OpFamily::View);
    EXPECT_TRUE(test::runUnfused(view, p).kernels.empty() || test::runUnfused(view, p).kernels[0].durUs == 0.0) << p.name;
    Graph copy = transposed({48, 2, 100}, {1, 0, 2});
    EXPECT_EQ(nodeFamily(copy, copy.node(0)), OpFamily::DataMovement);
    EXPECT_EQ(efficiencyKey(copy, copy.node(0)), "Transpose/rows");  // rows of 100 move whole
    Graph swap = transposed({48, 2, 100}, {0, 2, 1});
    EXPECT_EQ(efficiencyKey(swap, swap.node(0)), "Transpose");
    auto r = test::runUnfused(copy, p);
    ASSERT_EQ(r.kernels.size(), 1u) << p.name;
    EXPECT_GT(r.kernels[0].durUs, 0.0) << p.name;
  }
  // A profile may measure the row-moving kind on its own; the cost then follows it.
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Transpose", 0.001}, {"Transpose/rows", 0.1}};
  auto both = parseHwProfile(j, "t.json");
  ASSERT_TRUE(both.ok()) << both.error().message;
  const double rows = test::runUnfused(transposed({48, 2, 100}, {1, 0, 2}), *both).kernels.at(0).durUs;
  const double swapped = test::runUnfused(transposed({48, 2, 100}, {0, 2, 1}), *both).kernels.at(0).durUs;
  EXPECT_LT(rows, swapped);
  j["cpu"]["op_efficiency"] = {{"Transpose/cols", 0.1}};
  EXPECT_FALSE(parseHwProfile(j, "t.json").ok());
  // Its rows (cpu.op_row_s): the output's innermost run of axes in input order, axes of 1 left out. An
  // attention head split [25, 512, 12] -> [512, 25, 12] moves 12800 rows of 12; a channel shuffle
  // [2, 16, 32, 32] -> [16, 2, 32, 32] 32 rows of 1024; a swap of the last axis none.
  auto rowsOf = [&](std::vector<int64_t> dims, std::vector<int64_t> perm) {
    Graph g = transposed(dims, perm);
    return rowWiseRows(g, g.node(0));
  };
  EXPECT_EQ(rowsOf({25, 512, 12}, {1, 0, 2}), 12800);
  EXPECT_EQ(rowsOf({1, 25, 8, 12}, {0, 2, 1, 3}), 200);
  EXPECT_EQ(rowsOf({2, 16, 32, 32}, {1, 0, 2, 3}), 32);
  EXPECT_EQ(rowsOf({4, 2, 3, 5}, {2, 0, 1, 3}), 24);  // axes 0, 1 and 3 stay apart in the output
  EXPECT_EQ(rowsOf({48, 2, 100}, {0, 2, 1}), 0);
  j["cpu"]["op_efficiency"] = {{"Transpose/rows", 0.001}};  // compute-bound: its rows show
  auto slow = parseHwProfile(j, "t.json");
  ASSERT_TRUE(slow.ok()) << slow.error().message;
  const double without = test::runUnfused(transposed({25, 512, 12}, {1, 0, 2}), *slow).kernels.at(0).durUs;
  j["cpu"]["op_row_s"] = {{"Transpose/rows", 2e-9}};
  auto withRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(withRows.ok()) << withRows.error().message;
  EXPECT_NEAR(test::runUnfused(transposed({25, 512, 12}, {1, 0, 2}), *withRows).kernels.at(0).durUs - without,
              12800 * 2e-3, 1e-6);
}

// A softmax's rows (cpu.op_row_s): along its last axis every other position's; along a middle axis the
// executor runs blocks of up to 256 columns a row at a time, the axis's length times the blocks
// (core/exec/ops_reduce.cpp): [2, 12, 128, 128] over its 12 classes is 2 x 12 x 64 rows, not 32768.
TEST(CpuCost, ASoftmaxAlongAMiddleAxisRunsRowsOfBlocksOfColumns) {
  auto softmax = [](const std::string& op, std::vector<int64_t> dims, int64_t axis) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(dims));
    g.addNode(op, {x}, {y}, fw::zoo::attrs({fw::Attribute::makeInt("axis", axis)}), "sm");
    g.addOutput(y);
    return rowWiseRows(g, g.node(0));
  };
  EXPECT_EQ(softmax("Softmax", {2, 12, 128, 128}, 1), 2 * 12 * 64);
  EXPECT_EQ(softmax("LogSoftmax", {2, 12, 128, 128}, -3), 2 * 12 * 64);
  EXPECT_EQ(softmax("Softmax", {8, 64, 32, 32}, 2), 8 * 64 * 32);  // 32 columns: one block
  EXPECT_EQ(softmax("Softmax", {4, 3, 300}, 1), 4 * 3 * 2);        // 300 columns: two blocks
  EXPECT_EQ(softmax("Softmax", {8, 64, 32, 32}, 3), 8 * 64 * 32);
  EXPECT_EQ(softmax("Softmax", {8, 64, 32, 32}, -1), 8 * 64 * 32);
}

// A BatchNormalization's rows (cpu.op_row_s) are its planes, an image's channel each (the executor looks up
// the plane's scale and shift, then runs its elements): [1, 960, 7, 7] is 960 rows of 49, [8, 64, 4, 4]
// 512; a BatchNorm1d over [512, 256] runs a row of 256 channels at a time, 512 rows.
TEST(CpuCost, ABatchNormalizationsRowsAreItsPlanes) {
  auto bn = [](std::vector<int64_t> dims) {
    Graph g;
    const int64_t c = dims.at(1);
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<ValueId> ins = {x};
    for (const char* p : {"scale", "bias", "mean", "var"})
      ins.push_back(
          g.addInitializer(p, Tensor::floats({c}, std::vector<float>(static_cast<size_t>(c), 1.0f))));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(dims));
    g.addNode("BatchNormalization", ins, {y}, {}, "bn");
    g.addOutput(y);
    return g;
  };
  auto rowsOf = [&](std::vector<int64_t> dims) {
    const Graph g = bn(std::move(dims));
    return rowWiseRows(g, g.node(0));
  };
  EXPECT_EQ(rowsOf({1, 960, 7, 7}), 960);
  EXPECT_EQ(rowsOf({8, 64, 4, 4}), 512);
  EXPECT_EQ(rowsOf({512, 256}), 512);
  EXPECT_EQ(rowsOf({2, 16, 100}), 32);
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"BatchNormalization", 0.001}};  // compute-bound: its rows show
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_row_s"] = {{"BatchNormalization", 4e-9}};
  auto withRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(withRows.ok()) << withRows.error().message;
  const Graph late = bn({1, 960, 7, 7});
  EXPECT_NEAR(test::runUnfused(late, *withRows).kernels.at(0).durUs -
                  test::runUnfused(late, *plain).kernels.at(0).durUs,
              960 * 4e-3, 1e-6);
}

// A MaxPool's or AveragePool's rows (cpu.op_row_s) are its planes, an image's channel each (the executor
// sets each plane's separable passes up apart): [4, 512, 6, 6] is 2048 rows; the 2x2 stride-2 MaxPool runs
// its own loop, not costed a row. fwb calibrate times both ops over 2048 planes of 4x4.
// A pool's rows are the taps of its bounded loop (poolLoops): each row's border outputs, whose window leaves
// the input, a tap at a time. A profile calibrated before they were (no "<Op>/strided" figure)
// charges its op_row_s a plane.
TEST(CpuCost, APoolsRowsAreItsBoundedTaps) {
  auto pool = [](const char* op, std::vector<int64_t> dims, int64_t k, int64_t stride, int64_t pad) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<int64_t> od = dims;
    for (size_t d = 2; d < dims.size(); ++d) od[d] = (dims[d] + 2 * pad - k) / stride + 1;
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(od));
    g.addNode(op, {x}, {y},
              zoo::attrs({Attribute::makeInts("kernel_shape", std::vector<int64_t>(dims.size() - 2, k)),
                          Attribute::makeInts("strides", std::vector<int64_t>(dims.size() - 2, stride)),
                          Attribute::makeInts("pads", std::vector<int64_t>(2 * (dims.size() - 2), pad))}),
              "p");
    g.addOutput(y);
    return g;
  };
  const Graph branch = pool("MaxPool", {4, 512, 6, 6}, 3, 1, 1);
  EXPECT_EQ(rowWiseRows(branch, branch.node(0)),
            (2048 + 2048 * 6) * 2 * 3);  // two border outputs a row, 3 taps
  const Graph avg = pool("AveragePool", {2, 8, 4, 16, 16}, 3, 1, 1);
  EXPECT_EQ(rowWiseRows(avg, avg.node(0)), (16 + 16 * 4 + 16 * 4 * 16) * 2 * 3);
  const Graph twoByTwo = pool("MaxPool", {4, 512, 6, 6}, 2, 2, 0);
  EXPECT_EQ(efficiencyKey(twoByTwo, twoByTwo.node(0)), "MaxPool/2x2");
  EXPECT_EQ(rowWiseRows(twoByTwo, twoByTwo.node(0)), 0);
  std::set<std::string> rowed;
  for (const auto& c : rowCases()) {
    const Graph& rg = *c.bench.model.graph;
    const std::string op = rg.node(c.bench.node).opType;
    if (op != "MaxPool" && op != "AveragePool") continue;
    EXPECT_EQ(c.key, op);
    EXPECT_EQ(rowWiseRows(rg, rg.node(c.bench.node)), (2048 + 2048 * 4) * 2 * 3);  // no output shape stored
    rowed.insert(op);
  }
  EXPECT_EQ(rowed, (std::set<std::string>{"AveragePool", "MaxPool"}));
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"MaxPool", 0.001}, {"MaxPool/2x2", 0.001}};  // compute-bound: its rows show
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_row_s"] = {{"MaxPool", 7e-8}};
  auto withRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(withRows.ok()) << withRows.error().message;
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  EXPECT_NEAR(us(branch, *withRows) - us(branch, *plain), 2048 * 0.07, 1e-3);
  EXPECT_NEAR(us(twoByTwo, *withRows) - us(twoByTwo, *plain), 0.0, 1e-9);
  j["cpu"]["op_efficiency"]["MaxPool/strided"] = 0.001;
  j["cpu"]["op_row_s"] = json::object();
  auto passesPlain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(passesPlain.ok()) << passesPlain.error().message;
  j["cpu"]["op_row_s"] = {{"MaxPool", 7e-8}};
  auto passesRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(passesRows.ok()) << passesRows.error().message;
  EXPECT_NEAR(us(branch, *passesRows) - us(branch, *passesPlain), (2048 + 2048 * 6) * 2 * 3 * 0.07, 1e-3);
}

// A Cast to the type its input has is handed out as the input by the executor: a view on every
// profile; a Cast that converts is a kernel.
TEST(CpuCost, ACastToItsInputsOwnTypeIsAView) {
  auto cast = [](DType from, int64_t to) {
    Graph g;
    ValueId x = g.addInput("x", from, Shape::ofInts({25, 49, 49}));
    ValueId y = g.addValue("y", *dtypeFromInt(static_cast<int32_t>(to)), Shape::ofInts({25, 49, 49}));
    g.addNode("Cast", {x}, {y}, zoo::attrs({Attribute::makeInt("to", to)}), "c");
    g.addOutput(y);
    return g;
  };
  auto hw = *parseHwProfile(cpuProfileJson(), "t.json");
  for (const HwProfile& p : {hw, test::toy()}) {
    Graph same = cast(DType::Bool, 9);
    EXPECT_EQ(nodeFamily(same, same.node(0)), OpFamily::View);
    auto r = test::runUnfused(same, p);
    EXPECT_TRUE(r.kernels.empty() || r.kernels[0].durUs == 0.0) << p.name;
    Graph converts = cast(DType::Bool, 1);
    EXPECT_NE(nodeFamily(converts, converts.node(0)), OpFamily::View);
    auto c = test::runUnfused(converts, p);
    ASSERT_EQ(c.kernels.size(), 1u) << p.name;
    EXPECT_GT(c.kernels[0].durUs, 0.0) << p.name;
  }
}

// On a CPU profile with view_call_s, a view is that much time in the run: a host step of its own, no
// kernel and not scored, or part of the fused kernel it is in. Without the field a view costs nothing.
TEST(CpuCost, AViewCostsWhatTheExecutorSpendsOnIt) {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({32, 64}));
  ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({32, 64}));
  g.addNode("Relu", {x}, {a}, {}, "relu");
  ValueId shape = g.addInitializer("shape", Tensor::int64s({2}, {64, 32}));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({64, 32}));
  g.addNode("Reshape", {a, shape}, {y}, {}, "reshape");
  g.addOutput(y);
  json j = cpuProfileJson();
  auto without = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  j["cpu"]["view_call_s"] = 0.5e-6;
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_DOUBLE_EQ(with->cpu.viewCallS, 0.5e-6);
  EXPECT_DOUBLE_EQ(parseHwProfile(hwProfileToJson(*with), "t.json")->cpu.viewCallS, 0.5e-6);  // written back
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
  ASSERT_EQ(r1.kernels.size(), 2u);
  EXPECT_EQ(r1.kernels[1].unit, Unit::None);
  EXPECT_NEAR(r1.kernels[1].durUs, 0.5, 0.01);
  EXPECT_EQ(r0.kernels.size() == 2 ? r0.kernels[1].durUs : 0.0, 0.0);
  EXPECT_NEAR(r1.latencyUs - r0.latencyUs, 0.5, 0.01);
  // In eager mode too: the executor runs the view whatever the baseline.
  EXPECT_NEAR(test::runUnfused(g, *with, SimMode::Eager).latencyUs -
                  test::runUnfused(g, *without, SimMode::Eager).latencyUs,
              0.5, 0.01);
  // Fused with the Relu: the kernel is that much longer.
  auto fused = test::run(g, {test::allInOne(g, "k")}, *with);
  auto fused0 = test::run(g, {test::allInOne(g, "k")}, *without);
  ASSERT_EQ(fused.kernels.size(), 1u);
  EXPECT_NEAR(fused.kernels[0].durUs - fused0.kernels[0].durUs, 0.5, 0.01);
  // A kernel of two or more members is a call of a fused body: fused_call_s on top, once.
  j["cpu"]["fused_call_s"] = 0.25e-6;
  auto calls = parseHwProfile(j, "t.json");
  ASSERT_TRUE(calls.ok()) << calls.error().message;
  EXPECT_DOUBLE_EQ(parseHwProfile(hwProfileToJson(*calls), "t.json")->cpu.fusedCallS, 0.25e-6);
  EXPECT_NEAR(test::run(g, {test::allInOne(g, "k")}, *calls).kernels.at(0).durUs - fused.kernels[0].durUs,
              0.25, 0.01);
  EXPECT_NEAR(test::runUnfused(g, *calls).kernels.at(0).durUs, r1.kernels[0].durUs,
              1e-9);  // one member: no call
  j["cpu"]["view_call_s"] = 0.01;
  auto bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("view_call_s"), std::string::npos) << bad.error().message;
}

// What a run touches: its weights and the peak of its live values, not every output (the executor frees a
// value after its last use and reuses its bytes): eight Relus of 1 MiB one after another hold two at a
// time; a graph output is held to the end.
TEST(CpuCost, TheRunsFootprintIsItsWeightsAndItsLiveValuesPeak) {
  const HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  Graph chain =
      test::unaryChain({"Relu", "Relu", "Relu", "Relu", "Relu", "Relu", "Relu", "Relu"}, {256, 1024});
  EXPECT_DOUBLE_EQ(runFootprintBytes(chain, hw), 2.0 * 1024 * 1024);
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({256, 1024}));
  ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({256, 1024}));
  g.addNode("Relu", {x}, {a}, {}, "r0");
  ValueId w = g.addInitializer("w", Tensor::floats({1024, 4}, std::vector<float>(4096, 0.5f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({256, 4}));
  g.addNode("MatMul", {a, w}, {y}, {}, "mm");
  ValueId z = g.addValue("z", DType::Float32, Shape::ofInts({256, 4}));
  g.addNode("Neg", {y}, {z}, {}, "neg");
  g.addOutput(a);  // a, held to the end, beside y then z
  g.addOutput(z);
  EXPECT_DOUBLE_EQ(runFootprintBytes(g, hw), 16384.0 + 1024 * 1024 + 2 * 4096.0);
}

// A weight read through a view (a PyTorch export that shares one weight between layers hands the later
// layers an Identity of it) is that weight: the executor passes the same storage on, so the product costs
// what it costs on the weight itself, its bytes count once in the run, and its readers share them.
TEST(CpuCost, AWeightReadThroughAnIdentityIsThatWeight) {
  auto hw = *parseHwProfile(cpuProfileJson(), "t.json");
  hw.cpu.coldBandwidth = 5e9;  // weights from a run ago stream in at this rate
  auto graph = [](bool throughIdentity) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({64, 1024}));
    ValueId w = g.addInitializer("w", Tensor::floats({1024, 1024}, std::vector<float>(1024 * 1024, 0.5f)));
    ValueId w2 = w;
    if (throughIdentity) {
      w2 = g.addValue("w2", DType::Float32, Shape::ofInts({1024, 1024}));
      g.addNode("Identity", {w}, {w2}, {}, "shared");
    }
    ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({64, 1024}));
    g.addNode("MatMul", {x, w}, {a}, {}, "layer0");
    ValueId b = g.addValue("b", DType::Float32, Shape::ofInts({64, 1024}));
    g.addNode("MatMul", {a, w2}, {b}, {}, "layer1");
    g.addOutput(b);
    return g;
  };
  const Graph direct = graph(false), shared = graph(true);
  EXPECT_EQ(weightBehindViews(shared, shared.findValue("w2")), shared.findValue("w"));
  EXPECT_EQ(weightReaders(shared, shared.findValue("w")), 2);
  EXPECT_EQ(weightBehindViews(shared, shared.findValue("a")), kNoId);
  EXPECT_DOUBLE_EQ(runFootprintBytes(shared, hw), runFootprintBytes(direct, hw));
  const auto r0 = test::runUnfused(direct, hw), r1 = test::runUnfused(shared, hw);
  auto product = [](const SimResult& r, const std::string& node) {
    for (const auto& k : r.kernels)
      if (k.nodes == std::vector<std::string>{node}) return k;
    ADD_FAILURE() << "no kernel of " << node;
    return KernelTiming{};
  };
  for (const std::string node : {"layer0", "layer1"}) {
    EXPECT_NEAR(product(r1, node).durUs, product(r0, node).durUs, 1e-9) << node;
    EXPECT_DOUBLE_EQ(product(r1, node).weightBytes, product(r0, node).weightBytes) << node;
    EXPECT_DOUBLE_EQ(product(r1, node).inputBytes, 64 * 1024 * 4.0) << node;
  }
}

// An embedding table that only Gathers read counts the rows they gather; read by another op too, all of it.
TEST(CpuCost, AnEmbeddingTableCountsTheRowsTheRunGathers) {
  const HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  auto graph = [](bool alsoWhole) {
    Graph g;
    ValueId ids = g.addInput("ids", DType::Int64, Shape::ofInts({16}));
    ValueId table = g.addInitializer("table", Tensor::floats({10000, 32}, std::vector<float>(320000, 0.5f)));
    ValueId e = g.addValue("e", DType::Float32, Shape::ofInts({16, 32}));
    g.addNode("Gather", {table, ids}, {e}, {}, "gather");
    ValueId f = g.addValue("f", DType::Float32, Shape::ofInts({16, 32}));
    g.addNode("Gather", {table, ids}, {f}, {}, "gather2");
    g.addOutput(e);
    g.addOutput(f);
    if (alsoWhole) {
      ValueId n = g.addValue("n", DType::Float32, Shape::ofInts({10000, 32}));
      g.addNode("Neg", {table}, {n}, {}, "neg");
      g.addOutput(n);
    }
    return g;
  };
  // Two Gathers of 16 rows of 128 bytes, and their two outputs live at the end.
  EXPECT_DOUBLE_EQ(runFootprintBytes(graph(false), hw), 2 * 2048.0 + 2 * 2048.0);
  // The Neg reads the whole table (1.28 MB) and writes as much.
  EXPECT_DOUBLE_EQ(runFootprintBytes(graph(true), hw), 1280000.0 + 2 * 2048.0 + 1280000.0);
}

// A Gather's picks are its rows (cpu.op_row_s "Gather"): the indices' elements times the positions before
// its axis, each paying the row time on top of the bytes it moves.
TEST(CpuCost, AGathersPicksPayTheirRowTime) {
  auto graph = [](std::vector<int64_t> table, std::vector<int64_t> ids, int64_t axis) {
    Graph g;
    ValueId i = g.addInput("ids", DType::Int64, Shape::ofInts(ids));
    int64_t n = 1;
    for (int64_t d : table) n *= d;
    ValueId t =
        g.addInitializer("table", Tensor::floats(table, std::vector<float>(static_cast<size_t>(n), 0.5f)));
    std::vector<int64_t> out(table.begin(), table.begin() + axis);
    out.insert(out.end(), ids.begin(), ids.end());
    out.insert(out.end(), table.begin() + axis + 1, table.end());
    ValueId e = g.addValue("e", DType::Float32, Shape::ofInts(out));
    g.addNode("Gather", {t, i}, {e}, zoo::attrs({Attribute::makeInt("axis", axis)}), "gather");
    g.addOutput(e);
    return g;
  };
  Graph picks = graph({4096, 8}, {1024}, 0), columns = graph({2, 5, 3}, {3}, 1),
        grid = graph({50, 4}, {6, 7}, 0);
  EXPECT_EQ(rowWiseRows(picks, picks.node(0)), 1024);
  EXPECT_EQ(rowWiseRows(columns, columns.node(0)), 6);
  EXPECT_EQ(rowWiseRows(grid, grid.node(0)), 42);
  HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  hw.cpu.opEfficiency["Gather"] = 0.001;  // compute-bound: a memory-bound op hides its rows as its other work
  const double without = test::runUnfused(picks, hw).kernels.at(0).durUs;
  hw.cpu.opRowS["Gather"] = 2e-9;
  EXPECT_NEAR(test::runUnfused(picks, hw).kernels.at(0).durUs - without, 1024 * 2e-3, 1e-6);
}

// A Slice copies its output a run at a time (cpu.op_row_s "Slice"): the run its output's innermost axes
// make in one stride of the input's walk, the axes kept whole and the first one cut, as the executor
// merges them.
TEST(CpuCost, ASlicesRowsAreItsOutputsRunsInOnePieceOfItsInput) {
  auto graph = [](std::vector<int64_t> in, std::vector<int64_t> starts, std::vector<int64_t> ends,
                  std::vector<int64_t> axes, std::vector<int64_t> steps, std::vector<int64_t> out) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(in));
    auto ints = [&](const char* name, const std::vector<int64_t>& v) {
      return g.addInitializer(name, Tensor::int64s({static_cast<int64_t>(v.size())}, v));
    };
    std::vector<ValueId> ins = {x, ints("s", starts), ints("e", ends), ints("a", axes)};
    if (!steps.empty()) ins.push_back(ints("p", steps));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    g.addNode("Slice", ins, {y}, {}, "slice");
    g.addOutput(y);
    return g;
  };
  // The cost volume's window: [2, 32, 16, 24] to 16 columns, 1024 rows of 16.
  Graph columns = graph({2, 32, 16, 24}, {0}, {16}, {3}, {}, {2, 32, 16, 16});
  EXPECT_EQ(rowWiseRows(columns, columns.node(0)), 1024);
  // Rows cut, whole rows kept: [2, 32, 24, 24] to 16 rows, 64 runs of 16 x 24.
  Graph rows = graph({2, 32, 24, 24}, {0}, {16}, {2}, {}, {2, 32, 16, 24});
  EXPECT_EQ(rowWiseRows(rows, rows.node(0)), 64);
  // A channel range of an image: one run per image.
  Graph channels = graph({2, 32, 8, 8}, {4}, {20}, {1}, {}, {2, 16, 8, 8});
  EXPECT_EQ(rowWiseRows(channels, channels.node(0)), 2);
  // Every other column: the input's walk two by two runs on from row to row (a RoPE export's x[..., ::2]):
  // one row; of an odd length it does not: a row each; every other row: runs of a whole row (negative axis).
  Graph everyOther = graph({4, 16}, {0}, {16}, {1}, {2}, {4, 8});
  EXPECT_EQ(rowWiseRows(everyOther, everyOther.node(0)), 1);
  Graph oddRows = graph({4, 15}, {0}, {15}, {1}, {2}, {4, 8});
  EXPECT_EQ(rowWiseRows(oddRows, oddRows.node(0)), 4);
  Graph otherRows = graph({8, 16}, {0}, {8}, {-2}, {2}, {4, 16});
  EXPECT_EQ(rowWiseRows(otherRows, otherRows.node(0)), 4);
  // The output's extents come from the constant starts and ends, its inferred shape or not (a calibration's
  // one-node graph has none); opset 9's attributes likewise.
  Graph open = graph({4, 16}, {0}, {8}, {1}, {}, {});
  open.value(open.node(0).outputs[0]).shape = Shape();
  EXPECT_EQ(rowWiseRows(open, open.node(0)), 4);
  Graph attrs;
  {
    ValueId x = attrs.addInput("x", DType::Float32, Shape::ofInts({6, 32}));
    ValueId y = attrs.addValue("y", DType::Float32);
    attrs.addNode("Slice", {x}, {y},
                  zoo::attrs({Attribute::makeInts("starts", {-8}), Attribute::makeInts("ends", {1000}),
                              Attribute::makeInts("axes", {1})}),
                  "slice");
    attrs.addOutput(y);
  }
  EXPECT_EQ(rowWiseRows(attrs, attrs.node(0)), 6);
  // Ends computed in the graph and no inferred output: no rows.
  Graph computed;
  {
    ValueId x = computed.addInput("x", DType::Float32, Shape::ofInts({4, 16}));
    ValueId e = computed.addInput("e", DType::Int64, Shape::ofInts({1}));
    ValueId s0 = computed.addInitializer("s", Tensor::int64s({1}, {0}));
    ValueId y = computed.addValue("y", DType::Float32);
    computed.addNode("Slice", {x, s0, e}, {y}, {}, "slice");
    computed.addOutput(y);
  }
  EXPECT_EQ(rowWiseRows(computed, computed.node(0)), 0);
  // The rows pay the profile's time a row on top.
  HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  hw.cpu.opEfficiency["Slice"] = 0.001;  // compute-bound, as above
  const double without = test::runUnfused(columns, hw).kernels.at(0).durUs;
  hw.cpu.opRowS["Slice"] = 3e-9;
  EXPECT_NEAR(test::runUnfused(columns, hw).kernels.at(0).durUs - without, 1024 * 3e-3, 1e-6);
}

// A GatherND works out each index tuple's address, then copies its slice: its tuples are its rows, timed by
// fwb calibrate (1024 tuples of 8 beside the family case's 8 of 1024, as many floats out); GatherND and
// NonZero have family cases of their own (a detector's post-processing: SSDlite320's GatherNDs 17-18 us,
// simulated 0.9-2.1 on the family's rate; set 111, session 77).
TEST(CpuCost, AGatherNDsTuplesAreItsRows) {
  auto graph = [](std::vector<int64_t> data, std::vector<int64_t> idx) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(data));
    int64_t n = 1;
    for (int64_t d : idx) n *= d;
    ValueId i = g.addInitializer("ids", Tensor::int64s(idx, std::vector<int64_t>(static_cast<size_t>(n), 0)));
    std::vector<int64_t> out(idx.begin(), idx.end() - 1);
    out.insert(out.end(), data.begin() + idx.back(), data.end());
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    g.addNode("GatherND", {x, i}, {y}, {}, "gnd");
    g.addOutput(y);
    return g;
  };
  const Graph scores = graph({3234}, {3234, 1}), boxes = graph({3234, 4}, {3234, 1}),
              pairs = graph({8, 16, 4}, {5, 7, 2});
  EXPECT_EQ(rowWiseRows(scores, scores.node(0)), 3234);
  EXPECT_EQ(rowWiseRows(boxes, boxes.node(0)), 3234);
  EXPECT_EQ(rowWiseRows(pairs, pairs.node(0)), 35);
  // fwb calibrate: the short tuples beside the family case, as many values out, more tuples.
  int64_t familyRows = -1, familyOut = -1, shortRows = -1, shortOut = -1;
  std::set<std::string> own;
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& g = *c.bench.model.graph;
    const Node& n = g.node(c.bench.node);
    if (n.opType == "NonZero" || n.opType == "GatherND")
      own.insert(n.opType + (c.ownFiguresOnly ? " own" : ""));
    if (n.opType != "GatherND") continue;
    familyRows = rowWiseRows(g, n);
    familyOut = familyRows * g.value(n.inputs[0]).shape.ints()->back();
  }
  EXPECT_EQ(own, (std::set<std::string>{"GatherND own", "NonZero own"}));
  if (const FamilyCase* c = rowCaseOf("GatherND")) {
    const Graph& g = *c->bench.model.graph;
    EXPECT_EQ(c->key, "GatherND");
    shortRows = rowWiseRows(g, g.node(c->bench.node));
    shortOut = shortRows * g.value(g.node(c->bench.node).inputs[0]).shape.ints()->back();
  }
  EXPECT_EQ(familyRows, 8);
  EXPECT_EQ(shortRows, 1024);
  EXPECT_EQ(shortOut, familyOut);
  // The tuples pay the profile's time a row.
  const auto more = rowTimeUs({&boxes}, {{"GatherND", 0.001}}, {{"GatherND", 5e-9}});
  ASSERT_EQ(more.size(), 1u);
  EXPECT_NEAR(more[0], 3234 * 5e-3, 1e-6);
}

// A Gather whose picks are of 4 or 8 bytes copies each with one move (core/exec/OpContext.h: copyRows):
// its picks pay "Gather/elements"'s row time, not the longer rows' "Gather"; the profile takes the key.
TEST(CpuCost, AGatherOfSingleElementsPaysItsOwnTimeAPick) {
  auto graph = [](std::vector<int64_t> table, DType type, std::vector<int64_t> ids, int64_t axis) {
    Graph g;
    ValueId x = g.addInput("x", type, Shape::ofInts(table));
    ValueId i =
        g.addInitializer("ids", Tensor::int64s(ids, std::vector<int64_t>(static_cast<size_t>(ids[0]), 1)));
    std::vector<int64_t> out(table.begin(), table.begin() + axis);
    out.insert(out.end(), ids.begin(), ids.end());
    out.insert(out.end(), table.begin() + axis + 1, table.end());
    ValueId e = g.addValue("e", type, Shape::ofInts(out));
    g.addNode("Gather", {x, i}, {e}, zoo::attrs({Attribute::makeInt("axis", axis)}), "gather");
    g.addOutput(e);
    return g;
  };
  const Graph column = graph({64, 32}, DType::Float32, {10}, 1),
              pairs = graph({64, 2}, DType::Float32, {10}, 0), ids = graph({64, 32}, DType::Int64, {10}, 1),
              rows = graph({64, 4}, DType::Float32, {10}, 0);
  EXPECT_EQ(efficiencyKey(column, column.node(0)), "Gather/elements");
  EXPECT_EQ(efficiencyKey(pairs, pairs.node(0)), "Gather/elements");
  EXPECT_EQ(efficiencyKey(ids, ids.node(0)), "Gather/elements");
  EXPECT_EQ(efficiencyKey(rows, rows.node(0)), "Gather");
  EXPECT_EQ(rowWiseRows(column, column.node(0)), 640);
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Gather", 0.001}};  // compute-bound: its rows show
  j["cpu"]["op_row_s"] = {{"Gather", 2e-9}};
  auto longRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(longRows.ok()) << longRows.error().message;
  j["cpu"]["op_row_s"]["Gather/elements"] = 3e-10;
  auto both = parseHwProfile(j, "t.json");
  ASSERT_TRUE(both.ok()) << both.error().message;
  const double withLong = test::runUnfused(column, *longRows).kernels.at(0).durUs;
  const double withElements = test::runUnfused(column, *both).kernels.at(0).durUs;
  EXPECT_NEAR(withLong - withElements, 640 * (2e-9 - 3e-10) * 1e6, 1e-6);
  EXPECT_DOUBLE_EQ(test::runUnfused(rows, *longRows).kernels.at(0).durUs,
                   test::runUnfused(rows, *both).kernels.at(0).durUs);
}

// A float ReduceMax, ReduceMin, ReduceSum or ReduceMean over its last axes reduces each output's row on its
// own (core/exec/ops_reduce.cpp): a row an output element, axes of 1 after the first reduced one aside, the
// axes an attribute or a constant input; over a middle axis (a kept axis after a reduced one) no rows.
TEST(CpuCost, AReductionOverItsLastAxesPaysARowAnOutput) {
  auto graph = [](const char* op, std::vector<int64_t> dims, std::optional<std::vector<int64_t>> axes,
                  bool axesInput) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<ValueId> ins{x};
    Attributes a;
    if (axes && axesInput)
      ins.push_back(g.addInitializer("axes", Tensor::int64s({static_cast<int64_t>(axes->size())}, *axes)));
    else if (axes)
      a.set(Attribute::makeInts("axes", *axes));
    std::vector<int64_t> out = dims;  // keepdims (the default): each reduced axis 1
    for (size_t k = 0; k < out.size(); ++k)
      if (!axes || axes->empty() ||
          std::count(axes->begin(), axes->end(), static_cast<int64_t>(k)) +
                  std::count(axes->begin(), axes->end(),
                             static_cast<int64_t>(k) - static_cast<int64_t>(out.size())) >
              0)
        out[k] = 1;
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    g.addNode(op, ins, {y}, a, "r");
    g.addOutput(y);
    return g;
  };
  auto rowsOf = [&](const char* op, std::vector<int64_t> dims, std::optional<std::vector<int64_t>> axes,
                    bool axesInput = false) {
    const Graph g = graph(op, std::move(dims), std::move(axes), axesInput);
    return rowWiseRows(g, g.node(0));
  };
  EXPECT_EQ(rowsOf("ReduceMax", {4, 32, 256, 16}, std::vector<int64_t>{-1}), 4 * 32 * 256);
  EXPECT_EQ(rowsOf("ReduceSum", {2, 192, 8}, std::vector<int64_t>{2}, true), 384);
  EXPECT_EQ(rowsOf("ReduceMean", {8, 16, 1}, std::vector<int64_t>{1}), 8);
  EXPECT_EQ(rowsOf("ReduceMin", {6, 4, 5}, std::vector<int64_t>{1, 2}), 6);
  EXPECT_EQ(rowsOf("ReduceMean", {6, 4, 5}, std::nullopt), 1);
  EXPECT_EQ(rowsOf("ReduceMax", {8, 16, 4}, std::vector<int64_t>{1}), 0);
  EXPECT_EQ(rowsOf("ReduceProd", {8, 16}, std::vector<int64_t>{1}), 0);
  // A LogSumExp's rows too (each row's maximum, exponentials and logarithm); over a middle axis none.
  EXPECT_EQ(rowsOf("ReduceLogSumExp", {4, 257, 257}, std::vector<int64_t>{2}), 4 * 257);
  EXPECT_EQ(rowsOf("ReduceLogSumExp", {4, 257, 257}, std::vector<int64_t>{1}), 0);
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"ReduceMax", 0.001}};  // compute-bound: its rows show
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_row_s"] = {{"ReduceMax", 2e-9}};
  auto withRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(withRows.ok()) << withRows.error().message;
  const Graph g = graph("ReduceMax", {64, 16}, std::vector<int64_t>{-1}, false);
  EXPECT_NEAR(
      test::runUnfused(g, *withRows).kernels.at(0).durUs - test::runUnfused(g, *plain).kernels.at(0).durUs,
      64 * 2e-3, 1e-6);
}

// A GatherElements reads the cache lines its picks land on (gatherReadBytes): 16 picks a row of 256 floats
// (16 lines) touch 16 (1 - (15/16)^16) = 10.3 of them; picks along a middle axis spread over the block of
// the axes from it on; never more than the data, never less than the output. A Gather reads its output's
// worth.
TEST(CpuCost, AGatherElementsReadsTheLinesItsPicksLandOn) {
  auto graph = [](const char* op, std::vector<int64_t> data, std::vector<int64_t> idx, int64_t axis) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(data));
    int64_t n = 1;
    for (int64_t e : idx) n *= e;
    ValueId i = g.addInitializer("i", Tensor::int64s(idx, std::vector<int64_t>(static_cast<size_t>(n), 0)));
    std::vector<int64_t> out = idx;
    if (std::string(op) == "Gather") {
      out.assign(data.begin(), data.begin() + axis);
      out.insert(out.end(), idx.begin(), idx.end());
      out.insert(out.end(), data.begin() + axis + 1, data.end());
    }
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    g.addNode(op, {x, i}, {y}, zoo::attrs({Attribute::makeInt("axis", axis)}), "g");
    g.addOutput(y);
    return g;
  };
  const HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  auto read = [&](const Graph& g) { return gatherReadBytes(g, g.node(0), hw, 0); };
  const double lines = 16 * (1 - std::pow(15.0 / 16.0, 16));
  EXPECT_NEAR(read(graph("GatherElements", {64, 256}, {64, 16}, 1)), 64 * lines * 64, 1e-6);
  // Along axis 1 of [8, 64, 32]: each of the 8 blocks of 64 x 32 floats (128 lines) takes 16 x 32 picks.
  EXPECT_NEAR(read(graph("GatherElements", {8, 64, 32}, {8, 16, 32}, 1)),
              8 * 128 * (1 - std::pow(1 - 1.0 / 128, 16 * 32)) * 64, 1e-6);
  EXPECT_DOUBLE_EQ(read(graph("GatherElements", {64, 8}, {64, 64}, 1)), 64 * 64 * 4.0);      // the output's
  EXPECT_DOUBLE_EQ(read(graph("GatherElements", {4, 4096}, {4, 4096}, 1)), 4 * 4096 * 4.0);  // the data's
  EXPECT_DOUBLE_EQ(read(graph("Gather", {4096, 8}, {100}, 0)), 100 * 8 * 4.0);
  Graph relu;
  ValueId x = relu.addInput("x", DType::Float32, Shape::ofInts({4}));
  ValueId y = relu.addValue("y", DType::Float32, Shape::ofInts({4}));
  relu.addNode("Relu", {x}, {y}, {}, "r");
  EXPECT_EQ(gatherReadBytes(relu, relu.node(0), hw, 0), -1);
}

// An Add, Sub, Mul or Div through the executor's general broadcast loop pays a row for each of its rows (the
// output over its innermost run of axes both operands walk as one), through its tile loop (a short row
// repeated down a dense operand) a row for each plane; its own loops (two whole operands, a single element, a
// trailing row, one value a row) have none.
TEST(CpuCost, ABroadcastThroughTheGeneralLoopPaysItsRows) {
  auto graph = [](const char* op, std::vector<int64_t> a, std::vector<int64_t> b) {
    Graph g;
    ValueId x = g.addInput("a", DType::Float32, Shape::ofInts(a));
    ValueId w = g.addInput("b", DType::Float32, Shape::ofInts(b));
    std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
    for (size_t k = 0; k < out.size(); ++k) {
      const int64_t p = k + a.size() >= out.size() ? a[k + a.size() - out.size()] : 1;
      const int64_t q = k + b.size() >= out.size() ? b[k + b.size() - out.size()] : 1;
      out[k] = std::max(p, q);
    }
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    g.addNode(op, {x, w}, {y}, {}, "op");
    g.addOutput(y);
    return g;
  };
  auto rowsOf = [&](const char* op, std::vector<int64_t> a, std::vector<int64_t> b) {
    const Graph g = graph(op, std::move(a), std::move(b));
    return rowWiseRows(g, g.node(0));
  };
  EXPECT_EQ(rowsOf("Mul", {64, 64, 1}, {64, 1, 8}), 4096);
  EXPECT_EQ(rowsOf("Mul", {64, 64, 8}, {64, 1, 8}), 64);                  // tiles: 64 planes of [64, 8]
  EXPECT_EQ(rowsOf("Sub", {2, 1024, 1, 3}, {2, 1, 1024, 3}), 2048);       // a point cloud's pairwise offsets
  EXPECT_EQ(rowsOf("Sub", {2, 64, 1, 16}, {2, 1, 64, 16}), 64 * 64 * 2);  // rows of 16: the general loop
  EXPECT_EQ(rowsOf("Mul", {2, 192, 1}, {192, 8}), 384);
  EXPECT_EQ(rowsOf("Add", {1, 32, 16, 16}, {1, 32, 1, 1}), 32);  // a channel's plane a row
  EXPECT_EQ(rowsOf("Sub", {8, 64}, {8, 64}), 0);
  EXPECT_EQ(rowsOf("Div", {8, 64}, {1}), 0);
  EXPECT_EQ(rowsOf("Add", {8, 20, 64}, {64}), 0);             // a bias: a trailing row
  EXPECT_EQ(rowsOf("Div", {16, 1152, 8}, {16, 1152, 1}), 0);  // one value a row
  EXPECT_EQ(rowsOf("Pow", {64, 64, 8}, {64, 1, 8}), 0);
  // The loops that stream one operand and keep the other at hand are timed as "<Op>/row".
  auto keyOf = [&](const char* op, std::vector<int64_t> a, std::vector<int64_t> b) {
    const Graph g = graph(op, std::move(a), std::move(b));
    return efficiencyKey(g, g.node(0));
  };
  EXPECT_EQ(keyOf("Add", {8, 20, 64}, {64}), "Add/row");
  EXPECT_EQ(keyOf("Sub", {16, 1152, 8}, {16, 1152, 1}), "Sub/row");
  EXPECT_EQ(keyOf("Div", {64}, {8, 20, 64}), "Div/row");
  EXPECT_EQ(keyOf("Mul", {64, 64, 1}, {64, 1, 8}), "Mul");
  EXPECT_EQ(keyOf("Mul", {64, 64, 8}, {64, 1, 8}), "Mul/row");
  EXPECT_EQ(keyOf("Sub", {2, 1, 1024, 3}, {2, 1024, 1, 3}), "Sub/row");
  EXPECT_EQ(keyOf("Mul", {8, 64}, {8, 64}), "Mul");
  EXPECT_EQ(keyOf("Mul", {8, 64}, {1}), "Mul/scalar");
  EXPECT_TRUE(isEfficiencyVariant("Mul/row"));
  const Graph g = graph("Mul", {64, 64, 1}, {64, 1, 8});
  const Graph tiled = graph("Mul", {64, 64, 8}, {64, 1, 8});
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Mul", 0.001}, {"Mul/row", 0.001}};  // compute-bound: its rows show
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_row_s"] = {{"Mul", 2e-9}, {"Mul/row", 3e-8}};
  auto withRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(withRows.ok()) << withRows.error().message;
  EXPECT_NEAR(
      test::runUnfused(g, *withRows).kernels.at(0).durUs - test::runUnfused(g, *plain).kernels.at(0).durUs,
      4096 * 2e-3, 1e-6);
  EXPECT_NEAR(test::runUnfused(tiled, *withRows).kernels.at(0).durUs -
                  test::runUnfused(tiled, *plain).kernels.at(0).durUs,
              64 * 3e-2, 1e-6);
}

// A GridSample works out each output position's coordinates, taps and weights once for all its channels
// (core/exec/ops_region.cpp): its rows are the grid's positions, so a spatial transformer's 3 channels a
// position cost more a value than a feature map's 32.
TEST(CpuCost, AGridSamplesRowsAreItsPositions) {
  auto graph = [](int64_t n, int64_t c, int64_t ho, int64_t wo) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({n, c, 32, 32}));
    ValueId grid = g.addInput("grid", DType::Float32, Shape::ofInts({n, ho, wo, 2}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({n, c, ho, wo}));
    g.addNode("GridSample", {x, grid}, {y}, {}, "gs");
    g.addOutput(y);
    return g;
  };
  const Graph stn = graph(16, 3, 64, 64), maps = graph(4, 32, 32, 24);
  EXPECT_EQ(rowWiseRows(stn, stn.node(0)), 16 * 64 * 64);
  EXPECT_EQ(rowWiseRows(maps, maps.node(0)), 4 * 32 * 24);
  Graph unknown = graph(1, 1, 8, 8);
  unknown.value(unknown.node(0).inputs[1]).shape = Shape();
  EXPECT_EQ(rowWiseRows(unknown, unknown.node(0)), 0);
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"GridSample", 0.001}};  // compute-bound: its work and rows show
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_row_s"] = {{"GridSample", 1e-8}};
  auto withRows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(withRows.ok()) << withRows.error().message;
  EXPECT_NEAR(test::runUnfused(stn, *withRows).kernels.at(0).durUs -
                  test::runUnfused(stn, *plain).kernels.at(0).durUs,
              16 * 64 * 64 * 1e-2, 1e-6);
}

// A TopK keeps each line's best k by insertion (core/exec/ops_sort.cpp): its rows are the insertions, some
// k (1 + ln(n / k)) a line of n in random order, at most n, with k from its K input, its attribute (opset
// 1) or its output; with such a row time its work is its input's elements, without one (an older profile)
// a sort's n log n as before (core/ir/OpCost.h).
TEST(CpuCost, ATopKsRowsAreItsInsertions) {
  auto graph = [](std::vector<int64_t> dims, int64_t k,
                  int how) {  // how: 0 K input, 1 attribute, 2 output only
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<ValueId> ins{x};
    Attributes a;
    if (how == 0) ins.push_back(g.addInitializer("k", Tensor::int64s({1}, {k})));
    if (how == 1) a.set(Attribute::makeInt("k", k));
    if (how == 2) ins.push_back(g.addInput("kin", DType::Int64, Shape::ofInts({1})));
    std::vector<int64_t> out = dims;
    out.back() = k;
    ValueId v = g.addValue("v", DType::Float32, Shape::ofInts(out)),
            i = g.addValue("i", DType::Int64, Shape::ofInts(out));
    g.addNode("TopK", ins, {v, i}, a, "topk");
    g.addOutput(v);
    g.addOutput(i);
    return g;
  };
  auto rowsOf = [&](std::vector<int64_t> dims, int64_t k, int how) {
    const Graph g = graph(std::move(dims), k, how);
    return rowWiseRows(g, g.node(0));
  };
  const int64_t dgcnn = std::llround(1024 * 16 * (1 + std::log(16.0)));
  EXPECT_EQ(rowsOf({4, 256, 256}, 16, 0), dgcnn);
  EXPECT_EQ(rowsOf({4, 256, 256}, 16, 1), dgcnn);
  EXPECT_EQ(rowsOf({4, 256, 256}, 16, 2), dgcnn);
  EXPECT_EQ(rowsOf({8, 100}, 100, 0), 800);  // every value goes in: at most n a line
  EXPECT_EQ(rowsOf({8, 100}, 0, 0), 0);
  const Graph g = graph({512, 64}, 16, 0);
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"TopK", 0.001}};  // compute-bound: its work and rows show
  auto sort = parseHwProfile(j, "t.json");
  ASSERT_TRUE(sort.ok()) << sort.error().message;
  j["cpu"]["op_row_s"] = {{"TopK", 1e-8}};
  auto rows = parseHwProfile(j, "t.json");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  const double peak = std::max(rows->cpu.gemmFlops, rows->cpu.convFlops);
  const double work = 512.0 * 64.0, sortWork = work * std::log2(work);
  const double withRows = test::runUnfused(g, *rows).kernels.at(0).durUs;
  const double asSort = test::runUnfused(g, *sort).kernels.at(0).durUs;
  EXPECT_NEAR(
      asSort - withRows,
      (sortWork - work) / (peak * 0.001) * 1e6 - static_cast<double>(rowWiseRows(g, g.node(0))) * 1e-2,
      1e-3 * asSort);
}

// The executor computes a Relu with its producer (a Conv's, BatchNormalization's or Add's only reader) in a
// fused body: no pass of its own there; alone, after another op, or beside another reader it costs its pass.
TEST(CpuCost, AReluAfterItsProducerInAFusedKernelIsItsEpilogue) {
  const HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  auto graph = [](const char* first, bool secondReader) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({64, 1024}));
    ValueId c = g.addInitializer("c", Tensor::floats({1024}, std::vector<float>(1024, 0.5f)));
    ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({64, 1024}));
    g.addNode(first, std::string(first) == "Add" ? std::vector<ValueId>{x, c} : std::vector<ValueId>{x}, {a},
              {}, "first");
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({64, 1024}));
    g.addNode("Relu", {a}, {y}, {}, "relu");
    g.addOutput(y);
    if (secondReader) g.addOutput(a);
    return g;
  };
  auto firstAlone = [&](const char* first) {
    Graph g = graph(first, false);
    return test::runUnfused(g, hw).kernels.at(0).durUs;
  };
  Graph addRelu = graph("Add", false);
  const double fused = test::run(addRelu, {test::allInOne(addRelu, "k")}, hw).kernels.at(0).durUs;
  EXPECT_NEAR(fused, firstAlone("Add"), 1e-6);
  // Unfused (as -O0 profiles it), the Relu is a kernel of its own.
  EXPECT_EQ(test::runUnfused(addRelu, hw).kernels.size(), 2u);
  // Its input also a graph output, or a producer the executor does not take a Relu into: a pass.
  Graph kept = graph("Add", true);
  EXPECT_GT(test::run(kept, {test::allInOne(kept, "k")}, hw).kernels.at(0).durUs, firstAlone("Add") + 1.0);
  Graph sig = graph("Sigmoid", false);
  EXPECT_GT(test::run(sig, {test::allInOne(sig, "k")}, hw).kernels.at(0).durUs, firstAlone("Sigmoid") + 1.0);
}

// A MatMul whose only reader is a Split over its last axis writes the parts itself in a fused body
// (core/exec/Epilogue.h): the Split costs nothing there and the product a call a part; a Split over
// another axis, or a product the run also keeps, costs its copy.
TEST(CpuCost, ASplitOverItsProductsLastAxisInAFusedKernelIsWrittenByTheProduct) {
  const HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  auto graph = [](int64_t axis, bool split, bool keepProduct) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({256, 64}));
    ValueId w = g.addInitializer("w", Tensor::floats({64, 128}, std::vector<float>(64 * 128, 0.5f)));
    ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({256, 128}));
    g.addNode("MatMul", {x, w}, {a}, {}, "mm");
    if (!split) {
      g.addOutput(a);
      return g;
    }
    const std::vector<int64_t> part =
        axis == 0 ? std::vector<int64_t>{128, 128} : std::vector<int64_t>{256, 64};
    ValueId s0 = g.addValue("s0", DType::Float32, Shape::ofInts(part));
    ValueId s1 = g.addValue("s1", DType::Float32, Shape::ofInts(part));
    Attributes at;
    at.set(Attribute::makeInt("axis", axis));
    g.addNode("Split", {a}, {s0, s1}, at, "split");
    g.addOutput(s0);
    g.addOutput(s1);
    if (keepProduct) g.addOutput(a);
    return g;
  };
  Graph alone = graph(-1, false, false);
  const double product = test::runUnfused(alone, hw).kernels.at(0).durUs;
  auto fused = [&](int64_t axis, bool keep) {
    Graph g = graph(axis, true, keep);
    return test::run(g, {test::allInOne(g, "k")}, hw).kernels.at(0).durUs;
  };
  Graph last = graph(-1, true, false);
  const auto unfused = test::runUnfused(last, hw);
  ASSERT_EQ(unfused.kernels.size(), 2u);  // at -O0 the Split is a kernel of its own
  const double split = unfused.kernels.at(1).durUs;
  ASSERT_GT(split, 1.0);
  const double inParts = fused(-1, false);
  EXPECT_GE(inParts, product);  // a call more, no copy
  EXPECT_LT(inParts, product + 0.5 * split);
  EXPECT_NEAR(fused(1, false), inParts, 1e-6);  // the same axis by its index
  EXPECT_GT(fused(0, false), product + 0.5 * split);
  EXPECT_GT(fused(-1, true), product + 0.5 * split);
}

// The test profile without cpu.cold_call_s and with {"vector": 2 us, "product": 10 us}.
std::pair<Result<HwProfile>, Result<HwProfile>> coldCallProfiles() {
  json j = cpuProfileJson();
  auto without = parseHwProfile(j, "t.json");
  j["cpu"]["cold_call_s"] = {{"vector", 2e-6}, {"product", 10e-6}};
  return {std::move(without), parseHwProfile(j, "t.json")};
}

// A Gather from a model's table touches the rows it picks, not the table: the run's distinct bytes between
// two calls of the Relu after it (and the bytes the node before it moved) are 64 picked rows, not a 16 MiB
// table (a DLRM's column picks after an embedding Gather had been charged a whole cold call: 0.61 us
// simulated, 0.21-0.25 measured, session 58).
TEST(CpuCost, AGatherTouchesTheRowsItPicksNotItsTable) {
  Graph g;
  // A product over a 1.5 MiB weight first: the run's footprint (what a distance is clamped to) beyond the own
  // cache; the Gather's picks a small part of it.
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, 1024}));
  ValueId w = g.addInitializer("w", Tensor::floats({1024, 384}, std::vector<float>(1024 * 384, 0.5f)));
  ValueId m = g.addValue("m", DType::Float32, Shape::ofInts({1, 384}));
  g.addNode("MatMul", {x, w}, {m}, {}, "mm");
  ValueId table =
      g.addInitializer("table", Tensor::floats({16384, 256}, std::vector<float>(16384 * 256, 0.5f)));
  ValueId idx = g.addInput("idx", DType::Int64, Shape::ofInts({64}));
  ValueId e = g.addValue("e", DType::Float32, Shape::ofInts({64, 256}));
  g.addNode("Gather", {table, idx}, {e}, {}, "gather");
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({64, 256}));
  g.addNode("Relu", {e}, {y}, {}, "relu");
  g.addOutput(m);
  g.addOutput(y);
  auto [without, with] = coldCallProfiles();
  ASSERT_TRUE(with.ok()) << with.error().message;
  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  const double footprint = runFootprintBytes(g, *with);
  ASSERT_GT(footprint, 1.5 * 1024 * 1024);
  const CpuRunReuse r = cpuRunReuse(g, *groups, {0, 1, 2}, *with, footprint);
  const double picked = 64.0 * 256 * 4, own = 1024.0 * 1024;
  // The Relu's state: what the Gather moved (its picks, indices and output) over twice the own cache; 0.84
  // with the whole table counted (up to the run's footprint).
  const double state = r.stateColdShare.at(static_cast<size_t>(g.findNode("relu")));
  EXPECT_GT(state, 0.0);
  EXPECT_NEAR(state, (2 * picked + 64 * 8) / (2 * own), 1e-9);
}

// cpu.cold_call_s: each member pays its kind's figure ("product" for a matrix op, "vector" for the rest)
// times its call's cold share: what the run touched since its code last ran (cpuRunReuse: a matrix op's
// primitive is its shapes', a vector op's loop its type's) over what the calibration's cold call had.
TEST(CpuCost, AColdCallCostsItsShareOfTheProfilesColdCall) {
  auto graph = [](int64_t rows) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({rows, 1024}));
    ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({rows, 1024}));
    g.addNode("Relu", {x}, {a}, {}, "relu");
    ValueId w = g.addInitializer("w", Tensor::floats({1024, 4}, std::vector<float>(4096, 0.5f)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({rows, 4}));
    g.addNode("MatMul", {a, w}, {y}, {}, "mm");
    g.addOutput(y);
    return g;
  };
  auto [without, with] = coldCallProfiles();
  ASSERT_TRUE(without.ok()) << without.error().message;
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_DOUBLE_EQ(parseHwProfile(hwProfileToJson(*with), "t.json")->cpu.coldCallS.at("product"), 10e-6);
  const Graph big = graph(1024);  // 4 MB through the Relu: beyond the 1 MiB own cache
  const double footprint = runFootprintBytes(big, *with);
  const double share = coldShareOf(*with, footprint);
  ASSERT_GT(share, 0.5);
  const auto groups = unfusedGroups(big);
  ASSERT_TRUE(groups.ok());
  const std::vector<double> calls = cpuRunReuse(big, *groups, {0, 1}, *with, footprint).callColdShare;
  const double reluShare = calls.at(static_cast<size_t>(big.findNode("relu")));
  // The Relu runs once a run: what the run touches in between is all of it, at most its footprint, over
  // the 4 MiB the calibration's Neg reads and writes on a 1 MiB own cache. So does the product (its
  // primitive's shapes run once a run).
  EXPECT_NEAR(reluShare, std::min(1.0, footprint / (4.0 * 1024 * 1024)), 1e-9);
  const double mmShare = calls.at(static_cast<size_t>(big.findNode("mm")));
  EXPECT_DOUBLE_EQ(mmShare, reluShare);
  const SimResult r0 = test::runUnfused(big, *without), r1 = test::runUnfused(big, *with);
  ASSERT_EQ(r1.kernels.size(), 2u);
  EXPECT_NEAR(r1.kernels[0].durUs - r0.kernels[0].durUs, reluShare * 2.0, 1e-3);
  EXPECT_NEAR(r1.kernels[1].durUs - r0.kernels[1].durUs, mmShare * 10.0, 1e-3);
  // Fused, each member pays.
  EXPECT_NEAR(test::run(big, {test::allInOne(big, "k")}, *with).kernels.at(0).durUs -
                  test::run(big, {test::allInOne(big, "k")}, *without).kernels.at(0).durUs,
              reluShare * 2.0 + mmShare * 10.0, 1e-3);
  const Graph small = graph(16);  // 64 KB: stays in the own cache between runs
  EXPECT_DOUBLE_EQ(coldShareOf(*with, runFootprintBytes(small, *with)), 0.0);
  const SimResult s0 = test::runUnfused(small, *without), s1 = test::runUnfused(small, *with);
  const auto smallGroups = unfusedGroups(small);
  ASSERT_TRUE(smallGroups.ok());
  const std::vector<double> smallCalls =
      cpuRunReuse(small, *smallGroups, {0, 1}, *with, runFootprintBytes(small, *with)).callColdShare;
  const double smallRelu = smallCalls.at(static_cast<size_t>(small.findNode("relu")));
  const double smallMm = smallCalls.at(static_cast<size_t>(small.findNode("mm")));
  EXPECT_LT(smallMm, 0.03);  // its run's 80 KB of the 4 MiB
  // The Relu follows the MatMul, which read those 80 KB: over twice the own cache, its share.
  EXPECT_NEAR(smallRelu, std::max(smallMm, (64.0 * 1024 + 16.0 * 1024 + 16 * 4 * 4) / (2.0 * 1024 * 1024)),
              1e-9);
  EXPECT_NEAR(s1.kernels.at(1).durUs - s0.kernels.at(1).durUs, 10.0 * smallMm, 1e-3);
  EXPECT_NEAR(s1.latencyUs - s0.latencyUs, 2.0 * smallRelu + 10.0 * smallMm, 1e-3);
  for (const json& badValue : {json{{"vector", -1.0}}, json{{"scalar", 1e-6}}}) {
    json bad = cpuProfileJson();
    bad["cpu"]["cold_call_s"] = badValue;
    auto refused = parseHwProfile(bad, "t.json");
    ASSERT_FALSE(refused.ok()) << badValue.dump();
    EXPECT_NE(refused.error().message.find("cold_call_s"), std::string::npos) << refused.error().message;
  }
}

// cpu.cold_call_curve: a call pays at least the curve at its distance (CpuRunReuse::callDistance): a library
// product's since a product of its op type last ran (here a run ago, over a Neg of 16 MiB), any other op's
// since the node before it began (an Add after a tiny Neg: a few bytes, though its own loop last ran a run
// ago). The curve: log-interpolated, a share of its first figure below its first point, flat beyond its last.
TEST(CpuCost, AColdCallPaysAtLeastTheCurveAtItsDistance) {
  Graph g;
  ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({4 << 20}));  // 16 MiB in, 16 MiB out
  ValueId nb = g.addValue("nb", DType::Float32, Shape::ofInts({4 << 20}));
  g.addNode("Neg", {big}, {nb}, {}, "neg");
  g.addOutput(nb);
  ValueId s = g.addInput("s", DType::Float32, Shape::ofInts({4, 16}));
  ValueId m = g.addValue("m", DType::Float32, Shape::ofInts({4, 4}));
  g.addNode("MatMul", {s, g.addInitializer("w", Tensor::floats({16, 4}, std::vector<float>(64, 0.5f)))}, {m},
            {}, "mm");
  g.addOutput(m);
  ValueId t = g.addInput("t", DType::Float32, Shape::ofInts({64}));
  ValueId tn = g.addValue("tn", DType::Float32, Shape::ofInts({64}));
  g.addNode("Neg", {t}, {tn}, {}, "tiny");
  ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({64}));
  g.addNode("Add", {tn, tn}, {a}, {}, "add");
  g.addOutput(a);

  json j = cpuProfileJson();
  j["cpu"]["cold_call_s"] = {{"vector", 2e-6}, {"product", 10e-6}};
  auto without = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  const double mib = 1 << 20;
  j["cpu"]["cold_call_curve"] = json::array({{{"bytes", 4 * mib}, {"vector", 1e-6}, {"product", 5e-6}},
                                             {{"bytes", 64 * mib}, {"vector", 20e-6}, {"product", 80e-6}}});
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  const auto back = parseHwProfile(hwProfileToJson(*with), "t.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->cpu.coldCallCurve.size(), 2u);
  EXPECT_DOUBLE_EQ(back->cpu.coldCallCurve[1].productS, 80e-6);
  const CpuFigures& c = with->cpu;
  EXPECT_DOUBLE_EQ(c.coldCallCurveSeconds(true, 2 * mib), 2.5e-6);
  EXPECT_NEAR(c.coldCallCurveSeconds(true, 16 * mib), 5e-6 + 0.5 * 75e-6, 1e-12);
  EXPECT_NEAR(c.coldCallCurveSeconds(false, 16 * mib), 1e-6 + 0.5 * 19e-6, 1e-12);
  EXPECT_DOUBLE_EQ(c.coldCallCurveSeconds(true, 256 * mib), 80e-6);
  EXPECT_DOUBLE_EQ(without->cpu.coldCallCurveSeconds(true, 256 * mib), 0.0);

  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  const double footprint = runFootprintBytes(g, *with);
  const CpuRunReuse r = cpuRunReuse(g, *groups, {0, 1, 2, 3}, *with, footprint);
  auto at = [&](const char* node) { return r.callDistance.at(static_cast<size_t>(g.findNode(node))); };
  EXPECT_GE(at("mm"), 16 * mib);  // the Neg's 16 MiB output at least
  EXPECT_LE(at("mm"), footprint);
  EXPECT_LT(at("add"), 4096.0);
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
  ASSERT_EQ(r1.kernels.size(), 4u);
  // The MatMul: the curve at its distance, of which cold_call_s's 10 us (at most) it paid already.
  const double curveUs = c.coldCallCurveSeconds(true, at("mm")) * 1e6;
  ASSERT_GT(curveUs, 40.0);
  const double more = r1.kernels[1].durUs - r0.kernels[1].durUs;
  EXPECT_GE(more, curveUs - 10.0 - 1e-3);
  EXPECT_LE(more, curveUs + 1e-3);
  // The Add after the tiny Neg, and the Neg after that Add (a run ago): their state is near, no more.
  EXPECT_NEAR(r1.kernels[3].durUs - r0.kernels[3].durUs, 0.0, 1e-2);
  EXPECT_NEAR(r1.kernels[0].durUs - r0.kernels[0].durUs, 0.0, 1e-2);

  // A malformed curve is refused, naming the field.
  for (const json& bad : {json::array({{{"bytes", 8 * mib}, {"vector", 1e-6}, {"product", 1e-6}},
                                       {{"bytes", 4 * mib}, {"vector", 1e-6}, {"product", 1e-6}}}),
                          json::array({{{"bytes", 8 * mib}, {"vector", -1e-6}, {"product", 1e-6}}}),
                          json::array({{{"bytes", 8 * mib}, {"vector", 1e-6}, {"product", 2e-3}}}),
                          json::array({{{"bytes", 8 * mib}, {"vector", 1e-6}}}),
                          json::array({{{"bytes", 8 * mib}, {"vector", 1e-6}, {"product", 1e-6}, {"x", 1}}}),
                          json{{"bytes", 1}}}) {
    json badProfile = cpuProfileJson();
    badProfile["cpu"]["cold_call_curve"] = bad;
    auto refused = parseHwProfile(badProfile, "t.json");
    ASSERT_FALSE(refused.ok()) << bad.dump();
    EXPECT_NE(refused.error().message.find("cold_call_curve"), std::string::npos) << refused.error().message;
  }
}

// cpu.cold_call_s "code": a vector op whose own loop the run evicted since it last ran, the node before it
// a tiny one, pays that figure on its code's share, not the "vector" one (which a call right after a node
// that streamed pays: the executor's state evicted too). A LayerNorm's Sqrt runs once a layer, after an Add
// of its variance and eps.
// A Neg over `bigElems` floats ("neg"), then a LayerNorm's tiny Add of eps ("add") and its Sqrt ("sqrt",
// whose output "q" is the graph's).
Graph negThenAddSqrt(int64_t bigElems) {
  Graph g;
  ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({bigElems}));
  ValueId nb = g.addValue("nb", DType::Float32, Shape::ofInts({bigElems}));
  g.addNode("Neg", {big}, {nb}, {}, "neg");
  g.addOutput(nb);
  ValueId s = g.addInput("s", DType::Float32, Shape::ofInts({64}));
  ValueId e = g.addValue("e", DType::Float32, Shape::ofInts({64}));
  g.addNode("Add", {s, g.addInitializer("eps", Tensor::floats({1}, {1e-5f}))}, {e}, {}, "add");
  ValueId q = g.addValue("q", DType::Float32, Shape::ofInts({64}));
  g.addNode("Sqrt", {e}, {q}, {}, "sqrt");
  g.addOutput(q);
  return g;
}

TEST(CpuCost, ACallWhoseLoopAloneIsColdPaysTheCodeFigure) {
  Graph g = negThenAddSqrt(1 << 20);  // 4 MiB
  auto [without, vectorOnly] = coldCallProfiles();
  ASSERT_TRUE(vectorOnly.ok()) << vectorOnly.error().message;
  json j = cpuProfileJson();
  j["cpu"]["cold_call_s"] = {{"vector", 2e-6}, {"product", 10e-6}, {"code", 0.5e-6}};
  auto withCode = parseHwProfile(j, "t.json");
  ASSERT_TRUE(withCode.ok()) << withCode.error().message;
  EXPECT_DOUBLE_EQ(parseHwProfile(hwProfileToJson(*withCode), "t.json")->cpu.coldCodeSeconds().value(),
                   0.5e-6);
  EXPECT_FALSE(vectorOnly->cpu.coldCodeSeconds().has_value());
  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  const CpuRunReuse r = cpuRunReuse(g, *groups, {0, 1, 2}, *withCode, runFootprintBytes(g, *withCode));
  auto at = [&](const std::vector<double>& v, const char* node) {
    return v.at(static_cast<size_t>(g.findNode(node)));
  };
  // The Sqrt's loop last ran a run ago, over the Neg's 8 MiB; the Add before it moved 512 bytes.
  EXPECT_DOUBLE_EQ(at(r.codeColdShare, "sqrt"), 1.0);
  EXPECT_LT(at(r.stateColdShare, "sqrt"), 0.01);
  EXPECT_DOUBLE_EQ(at(r.callColdShare, "sqrt"), 1.0);
  // The Add right after the Neg finds the executor's state evicted as well.
  EXPECT_DOUBLE_EQ(at(r.stateColdShare, "add"), 1.0);
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *vectorOnly),
                  r2 = test::runUnfused(g, *withCode);
  ASSERT_EQ(r2.kernels.size(), 3u);
  EXPECT_NEAR(r1.kernels[2].durUs - r0.kernels[2].durUs, 2.0, 1e-3);
  EXPECT_NEAR(r2.kernels[2].durUs - r0.kernels[2].durUs, 0.5, 1e-3);
  EXPECT_NEAR(r2.kernels[1].durUs - r0.kernels[1].durUs, 2.0, 1e-3);
  // An op type the calibration timed on its own pays its own figure; the others the median.
  j["cpu"]["cold_call_s"]["code/Sqrt"] = 0.3e-6;
  auto ownFigure = parseHwProfile(j, "t.json");
  ASSERT_TRUE(ownFigure.ok()) << ownFigure.error().message;
  EXPECT_DOUBLE_EQ(parseHwProfile(hwProfileToJson(*ownFigure), "t.json")->cpu.coldCodeSeconds("Sqrt").value(),
                   0.3e-6);
  EXPECT_DOUBLE_EQ(ownFigure->cpu.coldCodeSeconds("Add").value(), 0.5e-6);
  EXPECT_NEAR(test::runUnfused(g, *ownFigure).kernels.at(2).durUs - r0.kernels[2].durUs, 0.3, 1e-3);
  json bad = cpuProfileJson();
  for (const char* key : {"loop", "code/"}) {
    bad["cpu"]["cold_call_s"] = {{key, 1e-6}};
    auto refused = parseHwProfile(bad, "t.json");
    ASSERT_FALSE(refused.ok()) << key;
    EXPECT_NE(refused.error().message.find("\"code/<op type>\""), std::string::npos)
        << refused.error().message;
  }
}

// cpu.cold_call_curve "code": a vector op whose own loop last ran far beyond the cache pays at least the
// curve's "code" at that distance (CpuRunReuse::codeDistance), though the node before it was a tiny one (its
// state near); cold_call_s "code" was timed nearer. A second op of that type right after pays no more.
// negThenAddSqrt over 16 MiB with a second Sqrt after the first, and a profile whose cold_call_curve has
// two entries, 4 and 64 MiB (no "code" or "node" column yet).
Graph negThenAddSqrtTwice() {
  Graph g = negThenAddSqrt(4 << 20);  // 16 MiB in, 16 MiB out
  const ValueId q = g.findValue("q");
  ValueId q2 = g.addValue("q2", DType::Float32, Shape::ofInts({64}));
  g.addNode("Sqrt", {q}, {q2}, {}, "sqrt2");
  g.addOutput(q2);
  return g;
}
json twoPointColdCurveProfile() {
  const double mib = 1 << 20;
  json j = cpuProfileJson();
  j["cpu"]["cold_call_curve"] = json::array({{{"bytes", 4 * mib}, {"vector", 1e-6}, {"product", 5e-6}},
                                             {{"bytes", 64 * mib}, {"vector", 20e-6}, {"product", 80e-6}}});
  return j;
}

// A cold_call_curve column (`column`) in some entries only, or above 1 ms, is refused, naming the field.
void expectColdCurveColumnRefused(const char* column) {
  const double mib = 1 << 20;
  for (const json& bad :
       {json::array({{{"bytes", 4 * mib}, {"vector", 1e-6}, {"product", 1e-6}, {column, 1e-6}},
                     {{"bytes", 8 * mib}, {"vector", 1e-6}, {"product", 1e-6}}}),
        json::array({{{"bytes", 4 * mib}, {"vector", 1e-6}, {"product", 1e-6}, {column, 2e-3}}})}) {
    json badProfile = cpuProfileJson();
    badProfile["cpu"]["cold_call_curve"] = bad;
    auto refused = parseHwProfile(badProfile, "t.json");
    ASSERT_FALSE(refused.ok()) << bad.dump();
    EXPECT_NE(refused.error().message.find(column), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("cold_call_curve"), std::string::npos) << refused.error().message;
  }
}

TEST(CpuCost, ALoopLastRunFarAwayPaysTheCodeCurveAtItsDistance) {
  Graph g = negThenAddSqrtTwice();
  const double mib = 1 << 20;
  json j = twoPointColdCurveProfile();
  j["cpu"]["cold_call_s"] = {{"vector", 2e-6}, {"product", 10e-6}, {"code", 0.5e-6}};
  auto without = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_FALSE(without->cpu.hasColdCodeCurve());
  EXPECT_DOUBLE_EQ(without->cpu.coldCodeCurveSeconds(64 * mib), 0.0);
  j["cpu"]["cold_call_curve"][0]["code"] = 0.4e-6;
  j["cpu"]["cold_call_curve"][1]["code"] = 8e-6;
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  const auto back = parseHwProfile(hwProfileToJson(*with), "t.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_DOUBLE_EQ(back->cpu.coldCallCurve[1].codeS, 8e-6);
  const CpuFigures& c = with->cpu;
  EXPECT_DOUBLE_EQ(c.coldCodeCurveSeconds(2 * mib), 0.2e-6);
  EXPECT_NEAR(c.coldCodeCurveSeconds(16 * mib), 0.4e-6 + 0.5 * 7.6e-6, 1e-12);
  EXPECT_DOUBLE_EQ(c.coldCodeCurveSeconds(256 * mib), 8e-6);

  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  const CpuRunReuse r = cpuRunReuse(g, *groups, {0, 1, 2, 3}, *with, runFootprintBytes(g, *with));
  auto at = [&](const std::vector<double>& v, const char* node) {
    return v.at(static_cast<size_t>(g.findNode(node)));
  };
  // The first Sqrt's loop last ran a run ago, the Neg's 16 MiB output at least between; the Add before it
  // moved 512 bytes.
  EXPECT_GE(at(r.codeDistance, "sqrt"), 16 * mib);
  EXPECT_LT(at(r.callDistance, "sqrt"), 4096.0);
  EXPECT_LT(at(r.codeDistance, "sqrt2"), 4096.0);
  const double curveUs = c.coldCodeCurveSeconds(at(r.codeDistance, "sqrt")) * 1e6;
  ASSERT_GT(curveUs, 4.0);
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
  ASSERT_EQ(r1.kernels.size(), 4u);
  // Without the column the Sqrt paid cold_call_s "code" (0.5 us); with it, the curve there in its place.
  EXPECT_NEAR(r1.kernels[2].durUs - r0.kernels[2].durUs, curveUs - 0.5, 1e-3);
  EXPECT_NEAR(r1.kernels[3].durUs - r0.kernels[3].durUs, 0.0, 1e-3);
  // The Add right after the Neg: its state's curve (the "vector" column) already exceeds the code's.
  EXPECT_NEAR(r1.kernels[1].durUs - r0.kernels[1].durUs, 0.0, 1e-3);

  // "code" in some entries only, or above 1 ms, is refused, naming the field.
  expectColdCurveColumnRefused("code");
}

// A profile whose cold_call_curve has "node" figures charges a vector op at least the curve there at the
// distance since the node itself last ran (a run away, a 16 MiB Neg between), whatever ran just before it and
// however recently its op type did: the second Sqrt, right after the first, pays it as the first does. A
// library product does not (its primitive is priced by its own distance). "node" in some entries only, or
// above 1 ms, is refused naming the field.
TEST(CpuCost, ANodeLastRunFarAwayPaysTheNodeCurveAtItsDistance) {
  Graph g = negThenAddSqrtTwice();
  const double mib = 1 << 20;
  json j = twoPointColdCurveProfile();
  auto without = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_FALSE(without->cpu.coldNodeCurve);
  EXPECT_DOUBLE_EQ(without->cpu.coldNodeCurveSeconds(64 * mib), 0.0);
  j["cpu"]["cold_call_curve"][0]["node"] = 0.1e-6;
  j["cpu"]["cold_call_curve"][1]["node"] = 1.6e-6;
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  const auto back = parseHwProfile(hwProfileToJson(*with), "t.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->cpu.coldNodeCurve);
  EXPECT_DOUBLE_EQ(back->cpu.coldCallCurve[1].nodeS, 1.6e-6);
  EXPECT_NEAR(with->cpu.coldNodeCurveSeconds(16 * mib), 0.1e-6 + 0.5 * 1.5e-6, 1e-12);

  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  const CpuRunReuse r = cpuRunReuse(g, *groups, {0, 1, 2, 3}, *with, runFootprintBytes(g, *with));
  const double d = r.nodeDistance.at(static_cast<size_t>(g.findNode("sqrt2")));
  EXPECT_GE(d, 16 * mib);  // a run: the Neg's output at least
  const double nodeUs = with->cpu.coldNodeCurveSeconds(d) * 1e6;
  ASSERT_GT(nodeUs, 0.8);
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
  ASSERT_EQ(r1.kernels.size(), 4u);
  // The second Sqrt: nothing else cold (its loop and the node before just ran): the node figure alone.
  EXPECT_NEAR(r1.kernels[3].durUs - r0.kernels[3].durUs, nodeUs, 1e-3);
  // The Add right after the Neg: its state's curve ("vector", 1 us and more there) already exceeds it.
  EXPECT_NEAR(r1.kernels[1].durUs - r0.kernels[1].durUs, 0.0, 1e-3);

  expectColdCurveColumnRefused("node");
}

// A profile whose cold_call_curve has "outside" figures charges the run, outside every kernel, the larger of
// that at each kernel's distance since its node last ran and run_overhead's s_per_node: in a run that streams
// a 16 MiB Neg every node after it last ran a run away and pays the curve there (the Neg itself: only the
// tiny nodes after it ran since); in a run of tiny nodes alone the curve is below s_per_node, which stands.
// No kernel's time moves. "outside" in some entries only, or above 1 ms, is refused naming the field.
TEST(CpuCost, ANodeLastRunFarAwayPaysTheOutsideCurveInTheRunOverhead) {
  const double mib = 1 << 20;
  json j = twoPointColdCurveProfile();
  j["cpu"]["run_overhead"] = {
      {"s_per_run", 2e-6}, {"s_per_node", 0.06e-6}, {"s_per_initializer", 0.0}, {"s_per_io_byte", 0.0}};
  auto without = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_FALSE(without->cpu.coldOutsideCurve);
  EXPECT_DOUBLE_EQ(without->cpu.outsideNodeSeconds(64 * mib), 0.06e-6);
  j["cpu"]["cold_call_curve"][0]["outside"] = 0.1e-6;
  j["cpu"]["cold_call_curve"][1]["outside"] = 0.9e-6;
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  const auto back = parseHwProfile(hwProfileToJson(*with), "t.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->cpu.coldOutsideCurve);
  EXPECT_DOUBLE_EQ(back->cpu.coldCallCurve[1].outsideS, 0.9e-6);
  EXPECT_NEAR(with->cpu.outsideNodeSeconds(16 * mib), 0.1e-6 + 0.5 * 0.8e-6, 1e-12);
  EXPECT_DOUBLE_EQ(with->cpu.outsideNodeSeconds(1 * mib), 0.06e-6);  // 0.025 by the curve: s_per_node

  const Graph g = negThenAddSqrtTwice();
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
  ASSERT_EQ(r1.kernels.size(), 4u);
  double expectUs = 0;
  for (size_t k = 0; k < r1.kernels.size(); ++k) {
    if (k > 0) EXPECT_GE(r1.kernels[k].nodeDistanceBytes, 16 * mib) << r1.kernels[k].name;  // a run away
    EXPECT_DOUBLE_EQ(r1.kernels[k].durUs, r0.kernels[k].durUs) << r1.kernels[k].name;
    expectUs += (with->cpu.outsideNodeSeconds(r1.kernels[k].nodeDistanceBytes) - 0.06e-6) * 1e6;
  }
  ASSERT_GT(expectUs, 4 * 0.3);
  EXPECT_NEAR(r1.runOverheadUs - r0.runOverheadUs, expectUs, 1e-6);
  EXPECT_NEAR(r1.latencyUs - r0.latencyUs, expectUs, 0.01);

  // Tiny nodes alone: a run is a few KiB, the curve there far under s_per_node.
  Graph tiny;
  ValueId x = tiny.addInput("x", DType::Float32, Shape::ofInts({64}));
  for (int k = 0; k < 3; ++k) {
    ValueId y = tiny.addValue("y" + std::to_string(k), DType::Float32, Shape::ofInts({64}));
    tiny.addNode("Relu", {x}, {y}, {}, "relu" + std::to_string(k));
    x = y;
  }
  tiny.addOutput(x);
  EXPECT_DOUBLE_EQ(test::runUnfused(tiny, *with).runOverheadUs,
                   test::runUnfused(tiny, *without).runOverheadUs);

  expectColdCurveColumnRefused("outside");
}

// A view and integer shape work the executor runs as nodes pay the curve's "node" at the distance since
// they last ran too (a run: the 16 MiB Neg between): the view on top of view_call_s, the shape work where
// it says more than the call's cold share of cold_call_s "shape". Without the column, as before.
TEST(CpuCost, AViewAndShapeWorkLastRunFarAwayPayTheNodeCurve) {
  Graph g = negThenAddSqrtTwice();
  const ValueId q2 = g.findValue("q2");
  ValueId flat = g.addValue("flat", DType::Float32, Shape::ofInts({8, 8}));
  g.addNode("Reshape", {q2, g.addInitializer("to", Tensor::int64s({2}, {8, 8}))}, {flat}, {}, "view");
  g.addOutput(flat);
  ValueId dims = g.addValue("dims", DType::Int64, Shape::ofInts({2}));
  g.addNode("Shape", {flat}, {dims}, {}, "shape");
  ValueId rows = g.addValue("rows", DType::Int64, Shape::ofInts({1}));
  g.addNode("Gather", {dims, g.addInitializer("first", Tensor::int64s({1}, {0}))}, {rows},
            zoo::attrs({Attribute::makeInt("axis", 0)}), "rows");
  g.addOutput(rows);
  json j = twoPointColdCurveProfile();
  j["cpu"]["view_call_s"] = 0.1e-6;
  j["cpu"]["cold_call_s"]["shape"] = 0.05e-6;
  auto without = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  j["cpu"]["cold_call_curve"][0]["node"] = 0.1e-6;
  j["cpu"]["cold_call_curve"][1]["node"] = 1.6e-6;
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;

  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  std::vector<size_t> order(groups->size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  const CpuRunReuse r = cpuRunReuse(g, *groups, order, *with, runFootprintBytes(g, *with));
  const NodeId view = g.findNode("view"), rowsNode = g.findNode("rows");
  const double viewUs = with->cpu.coldNodeCurveSeconds(r.nodeDistance.at(static_cast<size_t>(view))) * 1e6;
  const double rowsUs =
      with->cpu.coldNodeCurveSeconds(r.nodeDistance.at(static_cast<size_t>(rowsNode))) * 1e6;
  ASSERT_GT(viewUs, 0.8);  // a run away: past the 16 MiB Neg
  ASSERT_GT(rowsUs, 0.8);
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
  ASSERT_EQ(r1.kernels.size(), r0.kernels.size());
  auto kernelOf = [](const SimResult& res, const std::string& node) {
    for (const auto& k : res.kernels)
      if (k.nodes == std::vector<std::string>{node}) return k.durUs;
    ADD_FAILURE() << "no kernel of " << node;
    return 0.0;
  };
  EXPECT_NEAR(kernelOf(r0, "view"), 0.1, 1e-3);
  EXPECT_NEAR(kernelOf(r1, "view") - kernelOf(r0, "view"), viewUs, 1e-3);
  // The shape work's cold share of "shape" is at most 0.05 us: the curve's figure replaces it.
  const double rowsGain = kernelOf(r1, "rows") - kernelOf(r0, "rows");
  EXPECT_GE(rowsGain, rowsUs - 0.05 - 1e-3);
  EXPECT_LE(rowsGain, rowsUs + 1e-3);
}

// An op with nothing to do (its outputs empty, no work counted) pays the executor's call, not its op's own
// fitted fixed part: a RoIAlign of a pyramid level no box went to, on a profile whose RoiAlign call is 73 us.
TEST(CpuCost, AnOpWithNothingToDoPaysNoCallOfItsOwn) {
  auto roiAlign = [](int64_t boxes) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, 8, 16, 16}));
    std::vector<float> r;
    for (int64_t k = 0; k < boxes; ++k) r.insert(r.end(), {0.f, 0.f, 8.f, 8.f});
    ValueId rois = g.addInitializer("rois", Tensor::floats({boxes, 4}, r));
    ValueId at = g.addInitializer("at", Tensor::int64s({boxes}, std::vector<int64_t>(static_cast<size_t>(boxes), 0)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({boxes, 8, 7, 7}));
    g.addNode("RoiAlign", {x, rois, at}, {y},
              zoo::attrs({Attribute::makeInt("output_height", 7), Attribute::makeInt("output_width", 7)}), "roi");
    g.addOutput(y);
    return g;
  };
  json j = cpuProfileJson();
  j["cpu"]["op_call_s"]["RoiAlign"] = 73e-6;
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const SimResult none = test::runUnfused(roiAlign(0), *hw), two = test::runUnfused(roiAlign(2), *hw);
  ASSERT_EQ(none.kernels.size(), 1u);
  ASSERT_EQ(two.kernels.size(), 1u);
  EXPECT_GE(two.kernels[0].durUs, 73.0);
  EXPECT_LT(none.kernels[0].durUs, 5.0);
}

// Integer shape work on a CPU profile (a chunk's size: Shape, Gather, Add, Div between two big Relus) is
// the executor's node in line, still on the host: with cpu.cold_call_s "shape", its op's call plus its call's
// cold share of that figure; without, the launch figure alone. The profile refuses "shape" where only a
// matrix or vector op has a figure (far_s_per_byte).
TEST(CpuCost, ShapeWorkOnACpuIsItsCallAndItsShareOfTheProfilesColdShapeCall) {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1024, 1024}));
  ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({1024, 1024}));
  g.addNode("Relu", {x}, {a}, {}, "relu");
  ValueId s = g.addValue("s", DType::Int64, Shape::ofInts({2}));
  g.addNode("Shape", {a}, {s}, {}, "shape");
  ValueId idx = g.addInitializer("idx", Tensor::int64s({}, {1}));
  ValueId one = g.addInitializer("one", Tensor::int64s({}, {1}));
  ValueId d = g.addValue("d", DType::Int64, Shape::ofInts({}));
  g.addNode("Gather", {s, idx}, {d}, zoo::attrs({Attribute::makeInt("axis", 0)}), "gather");
  ValueId e = g.addValue("e", DType::Int64, Shape::ofInts({}));
  g.addNode("Add", {d, one}, {e}, {}, "add");
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1024, 1024}));
  g.addNode("Neg", {a}, {y}, {}, "neg");
  g.addOutput(y);
  g.addOutput(e);
  json j = cpuProfileJson();
  j["cpu"]["op_call_s"]["Add"] = 0.3e-6;
  j["cpu"]["cold_call_s"] = {{"vector", 2e-6}, {"product", 10e-6}};
  auto without = parseHwProfile(j, "t.json");
  j["cpu"]["cold_call_s"]["shape"] = 1e-6;
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_DOUBLE_EQ(parseHwProfile(hwProfileToJson(*with), "t.json")->cpu.coldShapeCallSeconds().value_or(0),
                   1e-6);
  const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
  auto kernel = [](const SimResult& r, const std::string& node) {
    for (const KernelTiming& k : r.kernels)
      if (k.nodes.size() == 1 && k.nodes[0] == node) return k;
    ADD_FAILURE() << "no kernel of " << node;
    return KernelTiming{};
  };
  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  std::vector<size_t> order(groups->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::vector<double> share =
      cpuRunReuse(g, *groups, order, *with, runFootprintBytes(g, *with)).callColdShare;
  for (const char* node : {"gather", "add"}) {
    SCOPED_TRACE(node);
    const KernelTiming k0 = kernel(r0, node), k1 = kernel(r1, node);
    EXPECT_EQ(k1.bound, Bound::Host);
    EXPECT_EQ(k1.unit, Unit::None);
    EXPECT_NEAR(k0.durUs, with->launchUs, 1e-2);
    const double call = std::string(node) == "add" ? 0.3 : with->launchUs;
    const double cold = share.at(static_cast<size_t>(g.findNode(node)));
    EXPECT_NEAR(k1.durUs, call + cold * 1.0, 1e-2);
  }
  // Gather runs once a run, with the Relu's and the Neg's 8 MB in between: all of its call is cold.
  EXPECT_NEAR(share.at(static_cast<size_t>(g.findNode("gather"))), 1.0, 1e-9);
  // A far-tier byte has no shape figure.
  json bad = cpuProfileJson();
  bad["cpu"]["far_s_per_byte"] = {{"shape", 1e-9}, {"vector", 1e-9}};
  bad["cpu"]["far_curve"] = json::array({{{"bytes", 1e6}, {"share", 1.0}}});
  auto refused = parseHwProfile(bad, "t.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("far_s_per_byte"), std::string::npos) << refused.error().message;
}

// A call's distance counts memory, not values: twelve Negs that write over the arena's same few buffers
// between two Sqrts leave the second Sqrt's code far more of the own cache than twelve that each read a
// buffer of their own (the executor's arena reuses freed bytes; a transformer's layers write over the last
// layer's). A value read through a Reshape is the Reshape's input's storage.
TEST(CpuCost, AColdCallsDistanceCountsTheMemoryTouchedNotTheValues) {
  auto graph = [](bool ownInputs) {
    Graph g;
    ValueId s = g.addInput("s", DType::Float32, Shape::ofInts({2, 64, 1}));
    ValueId cur = g.addInput("x", DType::Float32, Shape::ofInts({128, 1024}));  // 512 KiB
    ValueId q0 = g.addValue("q0", DType::Float32, Shape::ofInts({2, 64, 1}));
    g.addNode("Sqrt", {s}, {q0}, {}, "sqrt0");
    g.addOutput(q0);
    for (int i = 0; i < 12; ++i) {
      const std::string k = std::to_string(i);
      ValueId in = cur;
      if (ownInputs) in = g.addInput("z" + k, DType::Float32, Shape::ofInts({128, 1024}));
      ValueId y = g.addValue("n" + k, DType::Float32, Shape::ofInts({128, 1024}));
      g.addNode("Neg", {in}, {y}, {}, "neg" + k);
      if (ownInputs) {
        g.addOutput(y);
      } else {
        ValueId v = g.addValue("v" + k, DType::Float32, Shape::ofInts({1024, 128}));
        g.addNode("Reshape", {y, g.addInitializer("shape" + k, Tensor::int64s({2}, {1024, 128}))}, {v}, {},
                  "view" + k);
        ValueId back = g.addValue("b" + k, DType::Float32, Shape::ofInts({128, 1024}));
        g.addNode("Reshape", {v, g.addInitializer("back" + k, Tensor::int64s({2}, {128, 1024}))}, {back}, {},
                  "unview" + k);
        y = back;
      }
      cur = y;
    }
    g.addOutput(cur);
    ValueId q1 = g.addValue("q1", DType::Float32, Shape::ofInts({2, 64, 1}));
    g.addNode("Sqrt", {s}, {q1}, {}, "sqrt1");
    g.addOutput(q1);
    // After them, 32 MiB of the run's own: the run's footprint is no bound on the chain's distance.
    ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({4 << 20}));
    ValueId nb = g.addValue("nbig", DType::Float32, Shape::ofInts({4 << 20}));
    g.addNode("Neg", {big}, {nb}, {}, "negbig");
    g.addOutput(nb);
    return g;
  };
  auto [without, with] = coldCallProfiles();
  ASSERT_TRUE(with.ok()) << with.error().message;
  auto shareOf = [&](const Graph& g, const char* node) {
    const auto groups = unfusedGroups(g);
    EXPECT_TRUE(groups.ok());
    std::vector<size_t> order(groups->size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    return cpuRunReuse(g, *groups, order, *with, runFootprintBytes(g, *with))
        .callColdShare.at(static_cast<size_t>(g.findNode(node)));
  };
  const Graph reused = graph(false), distinct = graph(true);
  // Twelve buffers of their own: 12 MiB between the Sqrts, beyond the calibration's 4 MiB.
  EXPECT_DOUBLE_EQ(shareOf(distinct, "sqrt1"), 1.0);
  // The chain writes over a few buffers of 512 KiB: some 2 MiB of memory with its input, where its values
  // were 6 MiB (and their views 12 more).
  const double near = shareOf(reused, "sqrt1");
  EXPECT_GT(near, 0.3);
  EXPECT_LT(near, 0.9);
}

// The test profile with a far tier: none of it up to 16 MiB of distance, all of it from 64 MiB; a byte
// from it 0.1 ns more for a vector op, 0.5 ns for a product.
Result<HwProfile> farTierProfile() {
  json j = cpuProfileJson();
  j["cpu"]["far_curve"] =
      json::parse(R"([{"bytes": 16777216, "share": 0}, {"bytes": 67108864, "share": 1}])");
  j["cpu"]["far_s_per_byte"] = {{"vector", 1e-10}, {"product", 5e-10}};
  return parseHwProfile(j, "t.json");
}

// CpuRunReuse::farBytes of g's unfused run in group order.
std::vector<double> farBytesOf(const Graph& g, const HwProfile& hw) {
  const auto groups = unfusedGroups(g);
  EXPECT_TRUE(groups.ok());
  std::vector<size_t> order(groups->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  return cpuRunReuse(g, *groups, order, hw, runFootprintBytes(g, hw)).farBytes;
}

TEST(CpuProfile, TheFarTierRoundTripsAndRefusesWhatItCannotMean) {
  auto hw = farTierProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  EXPECT_DOUBLE_EQ(hw->cpu.farShareAt(8e6, true), 0.0);
  EXPECT_DOUBLE_EQ(hw->cpu.farShareAt(32.0 * 1048576, true), 0.5);  // halfway in log size
  EXPECT_DOUBLE_EQ(hw->cpu.farShareAt(1e9, true), 1.0);
  EXPECT_DOUBLE_EQ(hw->cpu.farSecondsPerByte(true), 5e-10);
  auto again = parseHwProfile(hwProfileToJson(*hw), "t.json");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->cpu.farCurve, hw->cpu.farCurve);
  EXPECT_EQ(again->cpu.farSPerByte, hw->cpu.farSPerByte);
  EXPECT_TRUE(parseHwProfile(cpuProfileJson(), "t.json")->cpu.farCurve.empty());
  struct Bad {
    const char* key;
    json value;
    const char* says;
  };
  for (const Bad& b :
       {Bad{"far_curve", json::parse(R"([{"bytes": 1e6, "share": 1.5}])"), "at most 1"},
        Bad{"far_curve", json::parse(R"([{"bytes": 2e6, "share": 0}, {"bytes": 1e6, "share": 1}])"),
            "ascending"},
        Bad{"far_curve", json::parse(R"([{"bytes": 1e6}])"), "share"},
        Bad{"far_s_per_byte", json{{"vector", 1e-3}}, "at most 1 us"},
        Bad{"far_s_per_byte", json{{"scalar", 1e-10}}, "vector"},
        Bad{"far_s_per_byte", json{{"pointwise", 2e-6}}, "at most 1 us"},
        Bad{"cold_call_s", json{{"pointwise", 1e-6}}, "not a kind of call"}}) {
    json j = hwProfileToJson(*hw);
    j["cpu"][b.key] = b.value;
    auto refused = parseHwProfile(j, "t.json");
    ASSERT_FALSE(refused.ok()) << b.value.dump();
    EXPECT_NE(refused.error().message.find(b.key), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find(b.says), std::string::npos) << refused.error().message;
  }
  // A vector op's curve (cpu.far_curve_vector): its own shares where the profile has it, the pooled curve's
  // without; written back; refused without far_curve and where it is no curve of shares.
  EXPECT_DOUBLE_EQ(hw->cpu.farShareAt(1e9, false), 1.0);
  json split = hwProfileToJson(*hw);
  split["cpu"]["far_curve_vector"] =
      json::parse(R"([{"bytes": 67108864, "share": 0}, {"bytes": 268435456, "share": 0.5}])");
  auto both = parseHwProfile(split, "t.json");
  ASSERT_TRUE(both.ok()) << both.error().message;
  EXPECT_DOUBLE_EQ(both->cpu.farShareAt(1e8, false), 0.0 + 0.5 * std::log(1e8 / 67108864.0) / std::log(4.0));
  EXPECT_DOUBLE_EQ(both->cpu.farShareAt(1e8, true), 1.0);
  EXPECT_DOUBLE_EQ(both->cpu.farShareAt(1e12, false), 0.5);
  EXPECT_EQ(parseHwProfile(hwProfileToJson(*both), "t.json")->cpu.farCurveVector, both->cpu.farCurveVector);
  for (const Bad& b :
       {Bad{"far_curve_vector", json::parse(R"([{"bytes": 1e6, "share": -0.5}])"), "share"},
        Bad{"far_curve_vector", json::parse(R"([{"bytes": 2e6, "share": 0}, {"bytes": 1e6, "share": 1}])"),
            "ascending"},
        Bad{"far_curve_vector", json::parse(R"([{"bytes": 1e6, "share": "half"}])"), "share"}}) {
    json j = split;
    j["cpu"][b.key] = b.value;
    auto refused = parseHwProfile(j, "t.json");
    ASSERT_FALSE(refused.ok()) << b.value.dump();
    EXPECT_NE(refused.error().message.find(b.key), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find(b.says), std::string::npos) << refused.error().message;
  }
  json vectorOnly = cpuProfileJson();
  vectorOnly["cpu"]["far_curve_vector"] = json::parse(R"([{"bytes": 1e6, "share": 1}])");
  auto lone = parseHwProfile(vectorOnly, "t.json");
  ASSERT_FALSE(lone.ok());
  EXPECT_NE(lone.error().message.find("far_curve_vector"), std::string::npos) << lone.error().message;
  json half = cpuProfileJson();
  half["cpu"]["far_curve"] = json::parse(R"([{"bytes": 1e6, "share": 1}])");
  auto alone = parseHwProfile(half, "t.json");
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.error().message.find("come together"), std::string::npos) << alone.error().message;
}

// cpu.speed_probe_us (simulator/SpeedProbe.h): read, written back, and refused by name when it is no time.
TEST(CpuProfile, TheSpeedProbeRoundTripsAndIsRefusedByName) {
  json j = cpuProfileJson();
  EXPECT_FALSE(parseHwProfile(j, "t.json")->cpu.probe.valid());
  EXPECT_FALSE(hwProfileToJson(*parseHwProfile(j, "t.json"))["cpu"].contains("speed_probe_us"));
  j["cpu"]["speed_probe_us"] = {{"call", 0.25}, {"stream", 21.5}, {"product", 9.75}};
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  EXPECT_EQ(hw->cpu.probe.streamUs, 21.5);
  auto again = parseHwProfile(hwProfileToJson(*hw), "t.json");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->cpu.probe.callUs, 0.25);
  EXPECT_EQ(again->cpu.probe.productUs, 9.75);
  j["cpu"]["speed_probe_us"]["product"] = "slow";
  auto refused = parseHwProfile(j, "t.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("cpu.speed_probe_us.product"), std::string::npos)
      << refused.error().message;
  EXPECT_EQ(refused.error().message.rfind("t.json: ", 0), 0u) << refused.error().message;
  j["cpu"]["speed_probe_us"] = 3;
  refused = parseHwProfile(j, "t.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("cpu.speed_probe_us: expected an object"), std::string::npos)
      << refused.error().message;
}

Result<HwProfile> gemmModelProfile(json j);  // below

// cpu.weight_stream_curve: a weight is read at least at the stream its reuse distance gets, each read by
// its own distance: `k` Gemms [2, 512] x [512, 2048]^T on 4 MiB
// weights of their own, read by `steps` steps in turn (an unrolled recurrent network's cells). One weight
// alone is a read of 4 MiB away (20 GB/s on the curve), four in turn 16 MiB (12.5 GB/s, halfway in log
// size to 64 MiB's 5 GB/s). Without the curve, a weight the steps share is charged as before: a share of one
// read a run.
// `k` Gemms [xRows, 512] x [512, wRows]^T on weights of their own, read by `steps` steps in turn (node
// "gemm<step>_<weight>").
Graph gemmsInTurn(int64_t xRows, int k, int steps, int64_t wRows) {
  Graph g;
  const ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({xRows, 512}));
  std::vector<ValueId> ws;
  for (int i = 0; i < k; ++i)
    ws.push_back(g.addInitializer(
        "w" + std::to_string(i),
        Tensor::floats({wRows, 512}, std::vector<float>(static_cast<size_t>(wRows) * 512, 0.01f))));
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < k; ++i) {
      const std::string tag = std::to_string(s) + "_" + std::to_string(i);
      const ValueId y = g.addValue("y" + tag, DType::Float32, Shape::ofInts({xRows, wRows}));
      g.addNode("Gemm", {x, ws[static_cast<size_t>(i)]}, {y}, zoo::attrs({Attribute::makeInt("transB", 1)}),
                "gemm" + tag);
      g.addOutput(y);
    }
  return g;
}

TEST(CpuCost, AWeightsReadTakesItsStreamAtItsReuseDistance) {
  auto graph = [](int k, int steps, int64_t rows = 2048) { return gemmsInTurn(2, k, steps, rows); };
  json j = cpuProfileJson();
  j["cpu"]["weight_stream_curve"] =
      json::parse(R"([{"bytes": 4194304, "bytes_per_s": 2e10}, {"bytes": 67108864, "bytes_per_s": 5e9}])");
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const HwProfile plain = *parseHwProfile(cpuProfileJson(), "t.json");
  EXPECT_DOUBLE_EQ(hw->cpu.weightStreamBandwidthFor(4194304), 2e10);
  EXPECT_NEAR(hw->cpu.weightStreamBandwidthFor(16777216), 1.25e10, 1e6);
  EXPECT_DOUBLE_EQ(plain.cpu.weightStreamBandwidthFor(16777216), 0.0);
  const double w = 4194304;
  auto streamOf = [](const Graph& g, const HwProfile& p) {
    const auto groups = unfusedGroups(g);
    EXPECT_TRUE(groups.ok());
    std::vector<size_t> order(groups->size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    return cpuRunReuse(g, *groups, order, p, runFootprintBytes(g, p)).weightStreamS;
  };
  // Alone: a read 4 MiB and its input and output away.
  const Graph alone = graph(1, 1);
  const double aloneS = streamOf(alone, *hw).at(static_cast<size_t>(alone.findNode("gemm0_0")));
  EXPECT_NEAR(aloneS, w / 2e10, 0.01 * w / 2e10);
  // Four weights read in turn by three steps: every read the other three weights away.
  const Graph shared = graph(4, 3);
  const auto sharedS = streamOf(shared, *hw);
  for (const Node& n : shared.nodes()) {
    EXPECT_NEAR(sharedS.at(static_cast<size_t>(n.id)), w / 1.25e10, 0.03 * w / 1.25e10) << n.name;
  }
  // Each read is bound by its stream (the Gemm's arithmetic, 42 us, and its bytes from the cache, 42 us,
  // are less); the launch on top.
  const SimResult with = test::runUnfused(shared, *hw);
  ASSERT_EQ(with.kernels.size(), 12u);
  for (const KernelTiming& kt : with.kernels) {
    const double streamUs = sharedS.at(static_cast<size_t>(shared.findNode(kt.nodes.at(0)))) * 1e6;
    EXPECT_NEAR(kt.durUs, streamUs + 2.0, 0.5) << kt.nodes.at(0);
  }
  // A weight smaller than the own cache too: four of 0.5 MiB in turn, 2 MiB apart (before the curve's first
  // point: its rate), each read 26 us where its arithmetic takes 5.
  const Graph small = graph(4, 3, 256);
  const auto smallS = streamOf(small, *hw);
  const SimResult smallRun = test::runUnfused(small, *hw);
  for (const KernelTiming& kt : smallRun.kernels) {
    const double s = smallS.at(static_cast<size_t>(small.findNode(kt.nodes.at(0))));
    EXPECT_NEAR(s, w / 8 / 2e10, 1e-9) << kt.nodes.at(0);
    EXPECT_NEAR(kt.durUs, s * 1e6 + 2.0, 0.5) << kt.nodes.at(0);
  }
  // Without the curve no read has a stream, and the three steps' reads of a weight share one read's cost.
  for (double s : streamOf(shared, plain)) EXPECT_EQ(s, 0.0);
  const SimResult without = test::runUnfused(shared, plain);
  double withUs = 0, withoutUs = 0;
  for (const auto& kt : with.kernels) withUs += kt.durUs;
  for (const auto& kt : without.kernels) withoutUs += kt.durUs;
  EXPECT_LT(withoutUs, 0.7 * withUs);
  // The traffic reported is a weight's share of one read from DRAM, as without the curve; a read bound by its
  // stream is memory-bound, its transfer at least its stream.
  for (size_t i = 0; i < with.kernels.size(); ++i) {
    EXPECT_DOUBLE_EQ(with.kernels[i].hbmBytes, without.kernels[i].hbmBytes) << with.kernels[i].nodes.at(0);
    EXPECT_GE(with.kernels[i].hbmBytes, w / 3 - 1);
    EXPECT_EQ(with.kernels[i].bound, Bound::Memory) << with.kernels[i].nodes.at(0);
    EXPECT_GE(hw->cyclesToUs(with.kernels[i].transferCycles) + 1e-3, w / 1.25e10 * 1e6 * 0.97);
  }
  // With a shape model and a cold rate (what fwb calibrate writes) the read is bound by its stream too, and
  // its weight pays no cold share on top: the product's 42 us of arithmetic and 1 us a call are less.
  auto modelled = gemmModelProfile(j);
  ASSERT_TRUE(modelled.ok()) << modelled.error().message;
  const SimResult shaped = test::runUnfused(shared, *modelled);
  for (const KernelTiming& kt : shaped.kernels) {
    const double streamUs = sharedS.at(static_cast<size_t>(shared.findNode(kt.nodes.at(0)))) * 1e6;
    EXPECT_NEAR(kt.durUs, streamUs + 2.0, 1.0) << kt.nodes.at(0);
  }
  // A weight and a view of it read by one node are one read: the same stream as the node reading the weight
  // and an input.
  auto viewed = [](bool viaView) {
    Graph g;
    const ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1 << 20}));
    const ValueId wt = g.addInitializer("wt", Tensor::floats({1 << 20}, std::vector<float>(1 << 20, 0.5f)));
    ValueId other = x;
    if (viaView) {
      other = g.addValue("view", DType::Float32, Shape::ofInts({1 << 20}));
      g.addNode("Identity", {wt}, {other}, {}, "view");
    }
    const ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({1 << 20}));
    g.addNode("Add", {wt, other}, {a}, {}, "first");
    const ValueId b = g.addValue("b", DType::Float32, Shape::ofInts({1 << 20}));
    g.addNode("Add", {wt, x}, {b}, {}, "again");
    g.addOutput(a);
    g.addOutput(b);
    return g;
  };
  const Graph twice = viewed(true), once = viewed(false);
  const double twiceS = streamOf(twice, *hw).at(static_cast<size_t>(twice.findNode("first")));
  EXPECT_GT(twiceS, 0.0);
  EXPECT_DOUBLE_EQ(twiceS, streamOf(once, *hw).at(static_cast<size_t>(once.findNode("first"))));
  // A Gather's picks from a table that cpu.cold_gather prices are rows here and there, no stream; without a
  // cold_gather figure they stream as the rows they read.
  {
    Graph g;
    const ValueId idx = g.addInput("idx", DType::Int64, Shape::ofInts({64}));
    const ValueId table =
        g.addInitializer("table", Tensor::floats({4096, 256}, std::vector<float>(4096 * 256, 0.5f)));
    const ValueId rows = g.addValue("rows", DType::Float32, Shape::ofInts({64, 256}));
    g.addNode("Gather", {table, idx}, {rows}, {}, "lookup");
    g.addOutput(rows);
    json cg = j;
    cg["cpu"]["cold_gather"] = {{"s_per_row", 1e-7}, {"s_per_byte", 2e-10}};
    auto priced = parseHwProfile(cg, "t.json");
    ASSERT_TRUE(priced.ok()) << priced.error().message;
    EXPECT_EQ(streamOf(g, *priced).at(static_cast<size_t>(g.findNode("lookup"))), 0.0);
    EXPECT_GT(streamOf(g, *hw).at(static_cast<size_t>(g.findNode("lookup"))), 0.0);
  }
  // The curve round-trips and is checked like the copy's.
  expectCurveRoundTripsAndIsChecked(j, "weight_stream_curve", &CpuFigures::weightStreamCurve);
}

// cpu.product_stream_share: a product of several rows whose weight streams in costs the longer of its
// arithmetic and its weight's stream, plus the share (by its rows) of the shorter that the longer does not
// hide, plus what its stream takes more beyond the distance the share was measured at. `k` Gemms [rows, 512]
// x [512, 2048]^T on 4 MiB weights of their own, three steps reading them in turn: each read 16 MiB away,
// 336 us of stream on the curve; the shape model's arithmetic 1e-11 s a flop and 1 us a call.
TEST(CpuCost, AProductsArithmeticAndItsWeightsStreamTakeTurnsByItsRows) {
  auto graph = [](int64_t rows) { return gemmsInTurn(rows, 4, 3, 2048); };
  json j = cpuProfileJson();
  j["cpu"]["weight_stream_curve"] =
      json::parse(R"([{"bytes": 4194304, "bytes_per_s": 2e10}, {"bytes": 67108864, "bytes_per_s": 5e9}])");
  auto withShare = [&](double at4, double at16, double distance) {
    json k = j;
    k["cpu"]["product_stream_share"] = {{{"rows", 4}, {"share", at4}, {"measured_us", 150.0}},
                                        {{"rows", 16}, {"share", at16}, {"measured_us", 400.0}}};
    k["cpu"]["product_stream_distance_bytes"] = distance;
    return gemmModelProfile(k);
  };
  auto meanUs = [](const Graph& g, const HwProfile& hw) {
    const SimResult r = test::runUnfused(g, hw);
    double sum = 0;
    for (const auto& kt : r.kernels) sum += kt.durUs;
    return sum / static_cast<double>(r.kernels.size());
  };
  auto none = gemmModelProfile(j);
  auto half = withShare(0.0, 1.0, 64.0 * 1024 * 1024);  // 0.5 at 8 rows (halfway in log rows)
  auto zero = withShare(0.0, 0.0, 64.0 * 1024 * 1024);
  auto zeroNear = withShare(0.0, 0.0, 8.0 * 1024 * 1024);
  ASSERT_TRUE(none.ok() && half.ok() && zero.ok() && zeroNear.ok());
  EXPECT_DOUBLE_EQ(half->cpu.productStreamShareAt(8, 0), 0.5);
  EXPECT_DOUBLE_EQ(half->cpu.productStreamShareAt(2, 0), 0.0);
  EXPECT_DOUBLE_EQ(half->cpu.productStreamShareAt(64, 0), 1.0);
  // 8 rows: 169 us of arithmetic under 336 of stream; half of the 169 on top.
  const Graph eight = graph(8);
  EXPECT_NEAR(meanUs(eight, *zero), meanUs(eight, *none), 1e-6);
  EXPECT_NEAR(meanUs(eight, *half) - meanUs(eight, *none), 0.5 * (2.0 * 8 * 512 * 2048 * 1e-11 * 1e6 + 1.0),
              0.5);
  // One row is its stream, whatever the share.
  const Graph one = graph(1);
  EXPECT_NEAR(meanUs(one, *half), meanUs(one, *none), 1e-6);
  // Measured 8 MiB away, a read 16 MiB away (and the other reads' outputs) hides only its stream up to there
  // (258 us at 16.25 GB/s): what it takes more (about 80 us) comes on top of 16 rows' 336 us of arithmetic.
  const Graph sixteen = graph(16);
  const double w = 4194304, nearUs = w / 1.625e10 * 1e6,
               fullUs = w / zero->cpu.weightStreamBandwidthFor(4 * (w + 16 * 2048 * 4) + 16 * 512 * 4) * 1e6;
  EXPECT_NEAR(meanUs(sixteen, *zeroNear) - meanUs(sixteen, *zero), fullUs - nearUs, 0.03 * (fullUs - nearUs));
  // The curve, its times and its distance round-trip, and are checked.
  json k = j;
  k["cpu"]["product_stream_share"] = {{{"rows", 4}, {"share", 0.0}, {"measured_us", 150.0}},
                                      {{"rows", 8}, {"share", 0.25}, {"measured_us", 190.0}}};
  k["cpu"]["product_stream_distance_bytes"] = 8.4e7;
  auto hw = parseHwProfile(k, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  auto back = parseHwProfile(hwProfileToJson(*hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cpu.productStream.share, hw->cpu.productStream.share);
  EXPECT_EQ(back->cpu.productStream.us, (std::vector<std::pair<int64_t, double>>{{4, 150.0}, {8, 190.0}}));
  EXPECT_DOUBLE_EQ(back->cpu.productStream.distance, 8.4e7);
  const auto refused = test::expectProfileRefused;
  json bad = k;
  bad["cpu"]["product_stream_share"][1]["share"] = 1.5;
  refused(bad, "$.cpu.product_stream_share[1].share");
  bad = k;
  bad["cpu"]["product_stream_share"][1]["rows"] = 4;
  refused(bad, "$.cpu.product_stream_share[1].rows");
  bad = k;
  bad["cpu"]["product_stream_share"][0].erase("measured_us");
  refused(bad, "measured_us");
  bad = k;
  bad["cpu"].erase("product_stream_distance_bytes");
  refused(bad, "product_stream_share");
}

// cpu.product_stream_share_far: shares measured with the weights further apart. A read between the two
// distances takes the share interpolated in log distance, and a product costs as it would with one set
// measured at that share and at least that distance. Gemms [16, 512] x [512, 2048]^T in turn as above, each
// read about 16.9 MB away; near set 8 MiB away (share 0), far set 64 MiB away (share 1 at 16 rows).
TEST(CpuCost, AProductsShareIsTakenAtItsWeightsDistanceBetweenTheNearAndFarSets) {
  json j = cpuProfileJson();
  j["cpu"]["weight_stream_curve"] =
      json::parse(R"([{"bytes": 4194304, "bytes_per_s": 2e10}, {"bytes": 67108864, "bytes_per_s": 5e9}])");
  const double MiB = 1024.0 * 1024, w = 4194304, d = 4 * (w + 16 * 2048 * 4) + 16 * 512 * 4;
  json twoSets = j;
  twoSets["cpu"]["product_stream_share"] = {{{"rows", 4}, {"share", 0.0}, {"measured_us", 150.0}},
                                            {{"rows", 16}, {"share", 0.0}, {"measured_us", 400.0}}};
  twoSets["cpu"]["product_stream_distance_bytes"] = 8 * MiB;
  twoSets["cpu"]["product_stream_share_far"] = {{{"rows", 4}, {"share", 0.0}, {"measured_us", 600.0}},
                                                {{"rows", 16}, {"share", 1.0}, {"measured_us", 1900.0}}};
  twoSets["cpu"]["product_stream_far_distance_bytes"] = 64 * MiB;
  auto hw = gemmModelProfile(twoSets);
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const double at = std::log(d / (8 * MiB)) / std::log(8.0);
  EXPECT_DOUBLE_EQ(hw->cpu.productStreamShareAt(16, 4 * MiB), 0.0);
  EXPECT_DOUBLE_EQ(hw->cpu.productStreamShareAt(16, 8 * MiB), 0.0);
  EXPECT_NEAR(hw->cpu.productStreamShareAt(16, 16 * MiB), 1.0 / 3, 1e-12);
  EXPECT_NEAR(hw->cpu.productStreamShareAt(16, d), at, 1e-12);
  EXPECT_DOUBLE_EQ(hw->cpu.productStreamShareAt(16, 64 * MiB), 1.0);
  EXPECT_DOUBLE_EQ(hw->cpu.productStreamShareAt(16, 512 * MiB), 1.0);
  EXPECT_DOUBLE_EQ(hw->cpu.productStreamShareAt(8, 64 * MiB), 0.5);
  EXPECT_DOUBLE_EQ(hw->cpu.productStreamShareDistance(), 64 * MiB);
  // One set measured at 64 MiB with the interpolated share costs the same; with the near set alone the read
  // (beyond 8 MiB) costs another figure.
  json oneSet = j;
  oneSet["cpu"]["product_stream_share"] = {{{"rows", 4}, {"share", at}, {"measured_us", 150.0}},
                                           {{"rows", 16}, {"share", at}, {"measured_us", 400.0}}};
  oneSet["cpu"]["product_stream_distance_bytes"] = 64 * MiB;
  json nearOnly = twoSets;
  nearOnly["cpu"].erase("product_stream_share_far");
  nearOnly["cpu"].erase("product_stream_far_distance_bytes");
  auto same = gemmModelProfile(oneSet);
  auto near = gemmModelProfile(nearOnly);
  ASSERT_TRUE(same.ok() && near.ok());
  const Graph sixteen = gemmsInTurn(16, 4, 3, 2048);
  const SimResult a = test::runUnfused(sixteen, *hw), b = test::runUnfused(sixteen, *same),
                  c = test::runUnfused(sixteen, *near);
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  ASSERT_EQ(a.kernels.size(), c.kernels.size());
  for (size_t k = 0; k < a.kernels.size(); ++k) {
    // (within 0.5 %: the read's distance is about d, the outputs between two reads as the run places them)
    EXPECT_NEAR(a.kernels[k].durUs, b.kernels[k].durUs, 0.005 * b.kernels[k].durUs) << k;
    EXPECT_GT(a.kernels[k].durUs - c.kernels[k].durUs, 0.05 * c.kernels[k].durUs) << k;  // 8 % here
  }
  // The far set round-trips; it needs the near set, a distance of its own, and one beyond the near one.
  auto back = parseHwProfile(hwProfileToJson(*hw), "back.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cpu.productStreamFar.share, hw->cpu.productStreamFar.share);
  EXPECT_EQ(back->cpu.productStreamFar.us,
            (std::vector<std::pair<int64_t, double>>{{4, 600.0}, {16, 1900.0}}));
  EXPECT_DOUBLE_EQ(back->cpu.productStreamFar.distance, 64 * MiB);
  const auto refused = test::expectProfileRefused;
  json bad = twoSets;
  bad["cpu"].erase("product_stream_share");
  bad["cpu"].erase("product_stream_distance_bytes");
  refused(bad, "needs product_stream_share");
  bad = twoSets;
  bad["cpu"]["product_stream_far_distance_bytes"] = 8 * MiB;
  refused(bad, "must be larger than product_stream_distance_bytes");
  bad = twoSets;
  bad["cpu"].erase("product_stream_far_distance_bytes");
  refused(bad, "product_stream_share_far");
  bad = twoSets;
  bad["cpu"]["product_stream_share_far"][1]["share"] = -0.5;
  refused(bad, "$.cpu.product_stream_share_far[1].share");
}

// The grouped_conv_wide model is fitted on 1x1 groups too, over a plane and over one axis (a grouped
// projection), beside its 3x3 shapes; each is a case of that kind, its calls an image and group.
TEST(HostCalibration, TheWideGroupedConvModelIsFittedOnOneByOneGroupsToo) {
  int plane = 0, line = 0, threeByThree = 0;
  for (const auto& [name, f] : cubeCaseFeatures("grouped_conv_wide")) {
    EXPECT_EQ(f.kind, "grouped_conv_wide") << name;
    EXPECT_GE(f.calls, 2.0) << name;
    plane += name.find("Conv 1x1") == 0;
    line += name.find("Conv1d 1 ") == 0;
    threeByThree += name.find("Conv 3x3") == 0;
  }
  EXPECT_EQ(plane, 2);
  EXPECT_EQ(line, 3);
  EXPECT_EQ(threeByThree, 15);
}

// The pointwise_conv model's far-activation term (CpuCubeModel.h) is fitted on shapes on both sides of the
// own cache, whatever it is between 1 and 2 MiB (the machines here: 1.2-1.6 MB): narrow ones inside it at
// one image, and past twice it at a batch.
TEST(HostCalibration, ThePointwiseModelIsFittedOnBothSidesOfTheOwnCache) {
  for (double own : {1.0 * (1 << 20), 2.0 * (1 << 20)}) {
    int inside = 0, allPast = 0, narrowInside = 0, narrowPast = 0;
    for (const auto& [name, f] : cubeCaseFeatures("pointwise_conv")) {
      EXPECT_EQ(f.kind, "pointwise_conv") << name;
      const CubeFeatures h = f.withOwnCache(own);
      const double elems = f.inElems + f.outElems;
      const bool narrow = f.flops / (2 * f.outElems) <= 24;  // K: input channels
      inside += h.farActElems == 0;
      allPast += h.farActElems == elems;
      narrowInside += narrow && h.farActElems == 0;
      narrowPast += narrow && h.farActElems == elems;
    }
    EXPECT_GE(inside, 5) << own;
    EXPECT_GE(allPast, 4) << own;
    EXPECT_GE(narrowInside, 2) << own;
    EXPECT_GE(narrowPast, 2) << own;
  }
}

// The rnn model is fitted on batches through wide cells too (session 76): a step's product of 16 or more rows
// over 256 or more hidden is arithmetic, which cells of a few rows or narrow ones leave the fit to guess (a
// held-out LSTM language model, 16 rows over 320 hidden, had been simulated 21 % under its time).
TEST(HostCalibration, TheRecurrentModelIsFittedOnBatchesThroughWideCells) {
  int wideBatches = 0;
  for (const auto& [name, f] : cubeCaseFeatures("rnn")) {
    EXPECT_EQ(f.kind, "rnn") << name;
    const auto batchAt = name.find(" batch "), arrow = name.find("->");
    if (batchAt == std::string::npos || arrow == std::string::npos) continue;
    const int64_t batch = std::stoll(name.substr(batchAt + 7)), hidden = std::stoll(name.substr(arrow + 2));
    wideBatches += batch >= 16 && hidden >= 256;
  }
  EXPECT_GE(wideBatches, 3);
}

// The conv_direct model is fitted on depthwise Convs of a few taps too (session 61), which the executor's
// direct loop takes where it times faster than the library (kDirectConvMinTapsDepthwise): each a case of
// that kind, its loads a vector a tap (one output channel a group).
TEST(HostCalibration, TheDirectLoopModelIsFittedOnShortDepthwiseKernelsToo) {
  int shortDepthwise = 0;
  for (const auto& [name, f] : cubeCaseFeatures("conv_direct")) {
    EXPECT_EQ(f.kind, "conv_direct") << name;
    EXPECT_TRUE(f.ownLoop) << name;
    if (name.find("depthwise") != std::string::npos && name.find("Conv k") == 0 &&
        std::stoi(name.substr(6)) < fw::exec::kDirectConvMinTaps)
      ++shortDepthwise;
    if (name == "Conv k3 384->384 depthwise over 1024 batch 4") {
      EXPECT_DOUBLE_EQ(f.flops, 2.0 * 4 * 384 * 1024 * 3) << name;
      EXPECT_DOUBLE_EQ(f.patchElems, 4.0 * 384 * 1024 * 3) << name;
    }
  }
  EXPECT_EQ(shortDepthwise, 6);
}

// The conv1d model is fitted on several sequences and dilated Convs too (session 58): each a case of that
// kind, its FLOPs its batch's and its taps' (dilation spreads the taps, it does not add any).
TEST(HostCalibration, TheConv1dModelIsFittedOnBatchedAndDilatedShapesToo) {
  int batched = 0, dilated = 0;
  for (const auto& [name, f] : cubeCaseFeatures("conv1d")) {
    EXPECT_EQ(f.kind, "conv1d") << name;
    if (name == "Conv1d k3 64->64 dilation 2 at 256 x4") {
      // padded by 2: 256 out, less the taps that land in the padding (4 of 768 a row)
      EXPECT_DOUBLE_EQ(f.flops, 2.0 * 4 * 64 * 64 * (3 * 256 - 4)) << name;
      EXPECT_DOUBLE_EQ(f.weightStreamBytes, 4.0 * 64 * 64 * 3 * 4);  // once an image
    }
    batched += name.find(" x") != std::string::npos;
    dilated += name.find("dilation") != std::string::npos;
  }
  EXPECT_EQ(batched, 3);
  EXPECT_EQ(dilated, 2);
}

// fwb calibrate's shares (productStreamShares): a product timed at the longer of its shape model's time and
// its weight's stream plus a known share of the shorter gives that share back; one timed under the longer
// gives 0.
TEST(HostCalibration, ProductStreamSharesRecoverTheShareOfTheShorterTheProductsTook) {
  json j = cpuProfileJson();
  j["cpu"]["weight_stream_curve"] = json::parse(R"([{"bytes": 1e6, "bytes_per_s": 1e10}])");  // flat: 419 us
  auto hw = gemmModelProfile(j);
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const double streamUs = 4.0 * 512 * 2048 / 1e10 * 1e6;
  const std::map<int64_t, double> known = {{4, 0.0}, {8, 0.2}, {16, 0.4}, {32, 0.6}};
  std::vector<std::pair<int64_t, double>> us;
  for (const auto& [rows, share] : known) {
    const double c = 2.0 * static_cast<double>(rows) * 512 * 2048 * 1e-11 * 1e6 + 1.0;
    us.push_back({rows, std::max(c, streamUs) + share * std::min(c, streamUs)});
  }
  us.front().second = 0.9 * streamUs;  // faster than its stream: none
  std::string how;
  const auto shares = productStreamShares(*hw, us, false, how);
  ASSERT_EQ(shares.share.size(), known.size());
  EXPECT_EQ(shares.us, us);
  EXPECT_GT(shares.distance, 64.0 * 1024 * 1024);
  for (const auto& [rows, share] : shares.share)
    EXPECT_NEAR(share, known.at(static_cast<int64_t>(rows)), 1e-6) << rows;
  EXPECT_NE(how.find("8 rows"), std::string::npos) << how;
  // Without a weight stream curve nothing can be priced.
  auto plain = gemmModelProfile(cpuProfileJson());
  ASSERT_TRUE(plain.ok());
  how.clear();
  EXPECT_TRUE(productStreamShares(*plain, us, false, how).empty());
}

// cpu.far_curve: an activation larger than the own cache pays the far tier's extra a byte by the distance
// of the bytes it is written over, as the executor's arena places it (MemoryPlan.h): `n` Relus in a chain
// over 4 MiB (each written over the bytes two before it: near), then a Neg over a 64 MiB input. The arena
// puts the Neg's output first, at offset 0, and the chain's first values over it: those are written over
// bytes the Neg streamed a whole run ago (far); the later ones over the chain's own (near), though by value
// they too were last touched a run ago.
TEST(CpuCost, AnActivationWrittenOverArenaBytesFarBackPaysTheFarTier) {
  auto graph = [](int64_t bigElems) {
    Graph g;
    ValueId cur = g.addInput("x", DType::Float32, Shape::ofInts({1 << 20}));
    for (int i = 0; i < 6; ++i) {
      ValueId y = g.addValue("r" + std::to_string(i), DType::Float32, Shape::ofInts({1 << 20}));
      g.addNode("Relu", {cur}, {y}, {}, "relu" + std::to_string(i));
      cur = y;
    }
    g.addOutput(cur);
    ValueId z = g.addInput("z", DType::Float32, Shape::ofInts({bigElems}));
    ValueId big = g.addValue("big", DType::Float32, Shape::ofInts({bigElems}));
    g.addNode("Neg", {z}, {big}, {}, "neg");
    g.addOutput(big);
    return g;
  };
  auto hw = farTierProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const HwProfile plain = *parseHwProfile(cpuProfileJson(), "t.json");
  const double mib4 = 4.0 * 1048576;
  const Graph far = graph(int64_t{16} << 20);  // the Neg over 64 MiB
  const auto fb = farBytesOf(far, *hw);
  auto at = [&](const Graph& g, const std::vector<double>& v, const char* node) {
    return v.at(static_cast<size_t>(g.findNode(node)));
  };
  // relu0: its input (a graph input, a whole run ago) and its output (over the Neg's first bytes) far.
  EXPECT_GT(at(far, fb, "relu0"), 1.5 * mib4);
  EXPECT_LE(at(far, fb, "relu0"), 2.0 * mib4 + 1.0);
  // relu3 reads a value written over the chain's own bytes and writes over them: near.
  EXPECT_DOUBLE_EQ(at(far, fb, "relu3"), 0.0);
  EXPECT_DOUBLE_EQ(at(far, fb, "relu4"), 0.0);
  // The Neg's input and most of its output are far: the chain and the Neg's own stream come between.
  EXPECT_GT(at(far, fb, "neg"), 64.0 * 1048576);
  // Each far byte costs the vector figure more; without a far tier, nothing.
  const SimResult with = test::runUnfused(far, *hw), without = test::runUnfused(far, plain);
  for (size_t k = 0; k < with.kernels.size(); ++k) {
    const std::string node = with.kernels[k].nodes.at(0);
    EXPECT_NEAR(with.kernels[k].durUs - without.kernels[k].durUs, at(far, fb, node.c_str()) * 1e-10 * 1e6,
                1e-3)
        << node;
  }
  for (double b : farBytesOf(far, plain)) EXPECT_EQ(b, 0.0);
  // A small Neg: the whole run is some 30 MiB, the chain's bytes at most that far: at most part of the tier.
  const Graph near = graph(int64_t{1} << 16);
  const auto nb = farBytesOf(near, *hw);
  EXPECT_LT(at(near, nb, "relu0"), 0.6 * at(far, fb, "relu0"));
  EXPECT_DOUBLE_EQ(at(near, nb, "relu3"), 0.0);
}

// farBytesOf g on the far-tier test profile (before) and on it with a vector curve at 0 from 16 to 256 MiB
// (after).
std::pair<std::vector<double>, std::vector<double>> farBytesWithoutAndWithAFlatVectorCurve(const Graph& g) {
  auto pooled = farTierProfile();
  EXPECT_TRUE(pooled.ok()) << pooled.error().message;
  json j = hwProfileToJson(*pooled);
  j["cpu"]["far_curve_vector"] =
      json::parse(R"([{"bytes": 16777216, "share": 0}, {"bytes": 268435456, "share": 0}])");
  auto split = parseHwProfile(j, "t.json");
  EXPECT_TRUE(split.ok()) << split.error().message;
  return {farBytesOf(g, *pooled), farBytesOf(g, *split)};
}

// cpu.far_curve_vector: a vector op's activations take the vector curve's share, a matrix op's the pooled
// curve's. A MatMul and a Relu each read a 64 MiB graph input (last touched a run ago, some 200 MiB away):
// with the vector curve at 0 to 256 MiB the Relu pays none of the far tier, the MatMul the same as without
// it.
TEST(CpuCost, AVectorOpTakesTheVectorFarCurveAndAMatrixOpThePooledOne) {
  Graph g;
  const int64_t rows = 16384, cols = 1024;  // 64 MiB
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({rows, cols}));
  ValueId w = g.addInitializer("w", Tensor::floats({cols, 16}, std::vector<float>(cols * 16, 0.5f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({rows, 16}));
  g.addNode("MatMul", {x, w}, {y}, {}, "matmul");
  g.addOutput(y);
  ValueId x2 = g.addInput("x2", DType::Float32, Shape::ofInts({rows, cols}));
  ValueId r = g.addValue("r", DType::Float32, Shape::ofInts({rows, cols}));
  g.addNode("Relu", {x2}, {r}, {}, "relu");
  g.addOutput(r);
  const auto [before, after] = farBytesWithoutAndWithAFlatVectorCurve(g);
  const auto matmul = static_cast<size_t>(g.findNode("matmul")),
             relu = static_cast<size_t>(g.findNode("relu"));
  EXPECT_GT(before.at(relu), 64.0 * 1048576);  // its input, and its output over bytes a run ago
  EXPECT_DOUBLE_EQ(after.at(relu), 0.0);
  EXPECT_GT(before.at(matmul), 32.0 * 1048576);
  EXPECT_DOUBLE_EQ(after.at(matmul), before.at(matmul));
}

// A value one kind of op wrote and the other kind reads takes the reader's curve (the writer keeps a share of
// its arena bytes for each: CpuRunReuse's slotShare and slotShareVector). A MatMul writes 64 MiB, a Neg
// streams 128 MiB of other values, a Relu reads the MatMul's output, and a second MatMul reads the Relu's:
// with the vector curve at 0 to 256 MiB the Relu pays none of the far tier, the second MatMul as much as
// without the vector curve.
TEST(CpuCost, AValueWrittenByOneKindOfOpAndReadByTheOtherTakesTheReadersCurve) {
  Graph g;
  const int64_t rows = 16384, cols = 1024;  // 64 MiB
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({rows, 64}));
  ValueId w = g.addInitializer("w", Tensor::floats({64, cols}, std::vector<float>(64 * cols, 0.5f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({rows, cols}));
  g.addNode("MatMul", {x, w}, {y}, {}, "matmul");
  ValueId other = g.addInput("other", DType::Float32, Shape::ofInts({rows, cols}));
  ValueId negated = g.addValue("negated", DType::Float32, Shape::ofInts({rows, cols}));
  g.addNode("Neg", {other}, {negated}, {}, "neg");
  g.addOutput(negated);
  ValueId r = g.addValue("r", DType::Float32, Shape::ofInts({rows, cols}));
  g.addNode("Relu", {y}, {r}, {}, "relu");
  ValueId w2 = g.addInitializer("w2", Tensor::floats({cols, 16}, std::vector<float>(cols * 16, 0.5f)));
  ValueId z = g.addValue("z", DType::Float32, Shape::ofInts({rows, 16}));
  g.addNode("MatMul", {r, w2}, {z}, {}, "matmul2");
  g.addOutput(z);
  const auto [before, after] = farBytesWithoutAndWithAFlatVectorCurve(g);
  const auto relu = static_cast<size_t>(g.findNode("relu")),
             matmul2 = static_cast<size_t>(g.findNode("matmul2"));
  EXPECT_GT(before.at(relu), 64.0 * 1048576);  // the MatMul's output at a distance past 64 MiB, and its own
  EXPECT_DOUBLE_EQ(after.at(relu), 0.0);
  EXPECT_GT(before.at(matmul2), 0.0);
  EXPECT_DOUBLE_EQ(after.at(matmul2), before.at(matmul2));
}

// A Slice of a few rows of a far activation pays the far tier on what it reads, its output's worth, not on
// the whole value (session 70: the first 8 rows of a 64 MiB activation, 3-5 us measured, 1808 simulated).
TEST(CpuCost, ASliceOfAFarActivationPaysTheFarTierOnWhatItReads) {
  Graph g;
  const int64_t rows = 32768, cols = 512;  // 64 MiB
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({rows, cols}));
  ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({rows, cols}));
  g.addNode("Neg", {x}, {a}, {}, "neg1");
  ValueId b = g.addValue("b", DType::Float32, Shape::ofInts({rows, cols}));
  g.addNode("Neg", {a}, {b}, {}, "neg2");
  ValueId st = g.addInitializer("st", Tensor::int64s({1}, {0}));
  ValueId en = g.addInitializer("en", Tensor::int64s({1}, {8}));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({8, cols}));
  g.addNode("Slice", {b, st, en}, {y}, {}, "slice");
  g.addOutput(y);
  auto hw = farTierProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const auto fb = farBytesOf(g, *hw);
  const double outBytes = 4.0 * 8 * cols;
  EXPECT_GT(fb.at(static_cast<size_t>(g.findNode("neg2"))), 32.0 * 1048576);  // its input and output are far
  EXPECT_LE(fb.at(static_cast<size_t>(g.findNode("slice"))), outBytes + 1e-6);
  const SimResult r = test::runUnfused(g, *hw);
  for (const auto& k : r.kernels) {
    if (k.nodes.at(0) == "slice") {
      EXPECT_LT(k.durUs, 50.0);
    }
  }
}

// A matrix op's weight larger than the own cache pays the far tier by its distance since its last read, as
// an activation does: a classifier head's 2 MB weight read a run of 128 MiB of Negs after its last read is
// far; the same weight in a run of a few MiB, or a weight within the own cache, is not.
TEST(CpuCost, AMatrixOpsLargeWeightPaysTheFarTierByItsDistance) {
  auto graph = [](int64_t negElems, int64_t classes) {
    Graph g;
    ValueId z = g.addInput("z", DType::Float32, Shape::ofInts({negElems}));
    ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({negElems}));
    g.addNode("Neg", {z}, {a}, {}, "neg");
    g.addOutput(a);
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({8, 512}));
    ValueId w = g.addInitializer(
        "W", Tensor::floats({classes, 512}, std::vector<float>(static_cast<size_t>(classes * 512), 0.01f)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({8, classes}));
    g.addNode("Gemm", {x, w}, {y}, zoo::attrs({Attribute::makeInt("transB", 1)}), "head");
    g.addOutput(y);
    return g;
  };
  auto hw = farTierProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  auto headFar = [&](const Graph& g) {
    return farBytesOf(g, *hw).at(static_cast<size_t>(g.findNode("head")));
  };
  const double weightBytes = 4.0 * 1000 * 512;
  EXPECT_GE(headFar(graph(int64_t{16} << 20, 1000)), weightBytes);  // a run of 128 MiB: far
  EXPECT_EQ(headFar(graph(int64_t{1} << 18, 1000)), 0.0);           // a run of 3 MiB: near
  EXPECT_EQ(headFar(graph(int64_t{16} << 20, 100)), 0.0);           // 200 KB, within the own cache
  // It costs the product figure a byte more; without a far tier, nothing.
  const Graph far = graph(int64_t{16} << 20, 1000);
  const HwProfile plain = *parseHwProfile(cpuProfileJson(), "t.json");
  for (double b : farBytesOf(far, plain)) EXPECT_EQ(b, 0.0);
}

// A Resize's work is what the executor's passes write, axis by axis, the last axis first when it upsamples,
// in units of what the calibration's 2x upsampling writes an output element (1.5), so that a profile's Resize
// figures keep their meaning: a bilinear 8x upsampling of [1, 2, 4, 4] writes [1, 2, 4, 32] then [1, 2, 32,
// 32], a 2x downsampling of [1, 2, 32, 32] writes [1, 2, 16, 32] then [1, 2, 16, 16], a nearest one the same;
// one along the last axis only writes its output once; a 2x upsampling of both axes counts its output; a
// Resize to its own size its output's elements. (One figure an output had charged downsamplings a third of
// their passes: [2, 64, 64, 64] -> 32x32, 258 us measured, 171 simulated, 301 so; an 8x upsampling 1.33x its
// passes: 0.89 ms measured, 1.86 and 1.36 simulated, session 76.)
TEST(CpuCost, AResizesWorkIsWhatItsAxisPassesWrite) {
  auto resize = [](std::vector<int64_t> in, std::vector<int64_t> out, const char* mode) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(in));
    ValueId sizes = g.addInitializer("sizes", Tensor::int64s({static_cast<int64_t>(out.size())}, out));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    g.addNode("Resize", {x, kNoId, kNoId, sizes}, {y}, zoo::attrs({Attribute::makeString("mode", mode)}),
              "rs");
    g.addOutput(y);
    return g;
  };
  const Graph up = resize({1, 2, 4, 4}, {1, 2, 32, 32}, "linear");
  EXPECT_DOUBLE_EQ(cpuVectorWork(up, up.node(0), 0, 2048, true), (2 * 4 * 32 + 2048.0) / 1.5);
  const Graph down = resize({1, 2, 32, 32}, {1, 2, 16, 16}, "linear");
  EXPECT_DOUBLE_EQ(cpuVectorWork(down, down.node(0), 0, 512, true), (2 * 16 * 32 + 512.0) / 1.5);
  const Graph nearest = resize({1, 2, 32, 32}, {1, 2, 16, 16}, "nearest");
  EXPECT_DOUBLE_EQ(cpuVectorWork(nearest, nearest.node(0), 0, 512, true), (2 * 16 * 32 + 512.0) / 1.5);
  const Graph wide = resize({1, 2, 8, 8}, {1, 2, 8, 16}, "linear");
  EXPECT_DOUBLE_EQ(cpuVectorWork(wide, wide.node(0), 0, 256, true), 256.0 / 1.5);
  const Graph twice = resize({1, 2, 8, 8}, {1, 2, 16, 16}, "linear");
  EXPECT_DOUBLE_EQ(cpuVectorWork(twice, twice.node(0), 0, 512, true), 512.0);
  // Every axis at its length: the executor hands the input on, no pass (a detector's transform resizing a
  // 320x320 image to 320x320: 4.5 us measured, 378 simulated as a pass; session 77).
  const Graph same = resize({1, 2, 8, 8}, {1, 2, 8, 8}, "linear");
  EXPECT_DOUBLE_EQ(cpuVectorWork(same, same.node(0), 0, 128, true), 0.0);
}

// A product whose arithmetic and weight stream take turns pays its weight's far tier for the share of the
// stream's time in the arithmetic's, at most all of it: 16 Gemms on 4 MiB weights of their own, read twice
// in turn (64 MiB apart: far in full), over 2 rows (the stream the longer: the far tier in full) and over
// 4096 (the arithmetic 100x the stream: the far reads under it). ViT-B/32's 100-row MLP products had been
// simulated 30 % over their time in the network with the far tier in full (session 76).
TEST(CpuCost, AProductsFarWeightGoesUnderItsArithmeticByTheStreamsShare) {
  json j = cpuProfileJson();
  j["cpu"]["weight_stream_curve"] =
      json::parse(R"([{"bytes": 4194304, "bytes_per_s": 2e10}, {"bytes": 67108864, "bytes_per_s": 5e9}])");
  j["cpu"]["product_stream_share"] = {{{"rows", 4}, {"share", 0.0}, {"measured_us", 150.0}},
                                      {{"rows", 16}, {"share", 0.0}, {"measured_us", 400.0}}};
  j["cpu"]["product_stream_distance_bytes"] = 64.0 * 1024 * 1024;
  json far = j;
  far["cpu"]["far_curve"] =
      json::parse(R"([{"bytes": 16777216, "share": 0}, {"bytes": 67108864, "share": 1}])");
  far["cpu"]["far_s_per_byte"] = {{"vector", 1e-10}, {"product", 5e-10}};
  auto withTier = gemmModelProfile(far), without = gemmModelProfile(j);
  ASSERT_TRUE(withTier.ok() && without.ok());
  const double weightBytes = 4.0 * 2048 * 512, fullUs = weightBytes * 5e-10 * 1e6;
  // The far tier's extra on the second read of weight 3 less its activations' (their far bytes in full),
  // and the weight's far bytes.
  auto extraUs = [&](int64_t rows, double& farWeightBytes) {
    const Graph g = gemmsInTurn(rows, 16, 2, 2048);
    const auto groups = unfusedGroups(g);
    EXPECT_TRUE(groups.ok());
    std::vector<size_t> order(groups->size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    const CpuRunReuse reuse = cpuRunReuse(g, *groups, order, *withTier, runFootprintBytes(g, *withTier));
    const auto at = static_cast<size_t>(g.findNode("gemm1_3"));
    farWeightBytes = reuse.weightFarBytes.at(at);
    const double activationsUs = (reuse.farBytes.at(at) - farWeightBytes) * 5e-10 * 1e6;
    const SimResult a = test::runUnfused(g, *withTier), b = test::runUnfused(g, *without);
    double ua = 0, ub = 0;
    for (const auto& k : a.kernels)
      if (k.nodes.at(0) == "gemm1_3") ua = k.durUs;
    for (const auto& k : b.kernels)
      if (k.nodes.at(0) == "gemm1_3") ub = k.durUs;
    return ua - ub - activationsUs;
  };
  double fewBytes = 0, manyBytes = 0;
  const double few = extraUs(2, fewBytes), many = extraUs(4096, manyBytes);
  EXPECT_NEAR(fewBytes, weightBytes, 1e-6 * weightBytes);  // a run of 64 MiB and more apart: far in full
  EXPECT_NEAR(manyBytes, weightBytes, 1e-6 * weightBytes);
  EXPECT_NEAR(few, fullUs, 1e-3 * fullUs);  // 2 rows: 42 us of arithmetic under a stream of 839
  EXPECT_GT(many, 0.0);                     // 4096 rows: 86 ms of arithmetic over the same stream
  EXPECT_LT(many, 0.02 * fullUs);
}

// A Conv on oneDNN's layout also writes its output into the executor's staging buffer, which every such
// Conv reuses from its start (core/exec/OneDnn.cpp: staged), before the reorder into its own: a 3x3 Conv
// to 4 MiB in a run that then streams 128 MiB pays the far tier on both, a pointwise one (the executor's
// own product, no staging) on its output only.
TEST(CpuCost, AConvOnTheLibrarysLayoutPaysTheFarTierOnItsStagingBufferToo) {
  auto graph = [](int64_t k) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, 16, 128, 128}));
    ValueId w = g.addInitializer(
        "w", Tensor::floats({64, 16, k, k}, std::vector<float>(static_cast<size_t>(64 * 16 * k * k), 0.01f)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1, 64, 128, 128}));
    Attributes a;
    a.set(Attribute::makeInts("pads", {k / 2, k / 2, k / 2, k / 2}));
    g.addNode("Conv", {x, w}, {y}, a, "conv");
    g.addOutput(y);
    ValueId z = g.addInput("z", DType::Float32, Shape::ofInts({int64_t{16} << 20}));
    ValueId big = g.addValue("big", DType::Float32, Shape::ofInts({int64_t{16} << 20}));
    g.addNode("Neg", {z}, {big}, {}, "neg");
    g.addOutput(big);
    return g;
  };
  auto hw = farTierProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  auto convFar = [&](const Graph& g) {
    return farBytesOf(g, *hw).at(static_cast<size_t>(g.findNode("conv")));
  };
  const double mib4 = 4.0 * 1048576;
  const double pointwise = convFar(graph(1)), blocked = convFar(graph(3));
  EXPECT_GT(pointwise, 0.5 * mib4);
  EXPECT_LE(pointwise, mib4 + 1.0);
  EXPECT_GT(blocked, pointwise + 0.5 * mib4);
  EXPECT_LE(blocked, 2 * mib4 + 1.0);
}

// A vector op's call is as cold as what the run touched since the last node of its type ran, over the bytes
// the calibration's cold call had in between (a Neg of coldCallEvictElems: 8 bytes an element), or as what
// the node before it touched over twice the own cache, the larger: Add, Neg, Add over n floats. The first
// Add follows the last one of the run before (its type hot), which streamed 8n bytes and the constant; the
// second has the Neg's input and output (8n bytes) in between, both ways.
TEST(CpuCost, AVectorCallIsAsColdAsWhatTheRunTouchedSinceItsTypeLastRanOrTheLastNodeStreamed) {
  auto graph = [](int64_t n) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({n}));
    ValueId c = g.addInitializer("c", Tensor::floats({1}, {1.0f}));
    ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({n}));
    g.addNode("Add", {x, c}, {a}, {}, "add1");
    ValueId b = g.addValue("b", DType::Float32, Shape::ofInts({n}));
    g.addNode("Neg", {a}, {b}, {}, "neg");
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({n}));
    g.addNode("Add", {b, c}, {y}, {}, "add2");
    g.addOutput(y);
    return g;
  };
  auto [without, with] = coldCallProfiles();
  ASSERT_TRUE(without.ok()) << without.error().message;
  ASSERT_TRUE(with.ok()) << with.error().message;
  const double coldAt = 8.0 * static_cast<double>(coldCallEvictElems(1024.0 * 1024));
  ASSERT_DOUBLE_EQ(coldAt, 4.0 * 1024 * 1024);
  struct Case {
    int64_t n;
    double add2;  // its cold share
  };
  const double twiceOwn = 2.0 * 1024 * 1024;
  for (const Case& k : {Case{16, 128.0 / twiceOwn}, Case{1 << 17, 0.5}, Case{1 << 20, 1.0}}) {
    SCOPED_TRACE(k.n);
    const Graph g = graph(k.n);
    const double footprint = runFootprintBytes(g, *with);
    const auto groups = unfusedGroups(g);
    ASSERT_TRUE(groups.ok());
    const std::vector<double> calls = cpuRunReuse(g, *groups, {0, 1, 2}, *with, footprint).callColdShare;
    const double add1 = std::min(1.0, (8.0 * static_cast<double>(k.n) + 4) / twiceOwn);
    EXPECT_NEAR(calls.at(static_cast<size_t>(g.findNode("add1"))), add1, 1e-9);
    EXPECT_NEAR(calls.at(static_cast<size_t>(g.findNode("add2"))), k.add2, 1e-9);
    // The Neg runs once a run: everything else the run touched, at most its footprint.
    EXPECT_GE(calls.at(static_cast<size_t>(g.findNode("neg"))), k.add2);
    const SimResult r0 = test::runUnfused(g, *without), r1 = test::runUnfused(g, *with);
    ASSERT_EQ(r1.kernels.size(), 3u);
    EXPECT_NEAR(r1.kernels[0].durUs - r0.kernels[0].durUs, 2.0 * add1, 2e-3);
    EXPECT_NEAR(r1.kernels[2].durUs - r0.kernels[2].durUs, 2.0 * k.add2, 2e-3);
  }
  // Nothing touched in between: a hot call, not an unknown footprint's cold one.
  const Graph twice = test::unaryChain({"Neg", "Neg"}, {16});
  const auto groups = unfusedGroups(twice);
  ASSERT_TRUE(groups.ok());
  for (double s : cpuRunReuse(twice, *groups, {0, 1}, *with, runFootprintBytes(twice, *with)).callColdShare)
    EXPECT_LT(s, 1e-3);
}

// a = Relu(x), c = Relu(a), a Neg over n other floats, then Add(c, a): after the Neg's 8n bytes, a and c (64
// KiB each) have left a 1 MiB own cache when n is large; c's Relu reads a just written.
Graph reluReluNegAdd(int64_t n) {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({16384}));
  ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({n}));
  ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({16384}));
  g.addNode("Relu", {x}, {a}, {}, "r0");
  ValueId c = g.addValue("c", DType::Float32, Shape::ofInts({16384}));
  g.addNode("Relu", {a}, {c}, {}, "r1");
  ValueId nb = g.addValue("nb", DType::Float32, Shape::ofInts({n}));
  g.addNode("Neg", {big}, {nb}, {}, "neg");
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({16384}));
  g.addNode("Add", {c, a}, {y}, {}, "add");
  g.addOutput(y);
  g.addOutput(nb);
  return g;
}

// The test CPU profile with a cold rate of 10 GB/s (cpu.cold_bandwidth_bytes_per_s).
Result<HwProfile> coldBandwidthProfile() {
  json j = cpuProfileJson();
  j["cpu"]["cold_bandwidth_bytes_per_s"] = 1e10;
  return parseHwProfile(j, "t.json");
}

// An activation the run has evicted from the core's own cache since it was last touched streams in from the
// last-level cache: a = Relu(x), c = Relu(a), a Neg over n other floats, then Add(c, a). After the Neg's 8n
// bytes, a and c (64 KiB each) have left the 1 MiB own cache when n is large; c's Relu reads a just written.
TEST(CpuCost, AnInputTheRunHasEvictedSinceItWasTouchedStreamsInFromTheLastLevelCache) {
  const auto graph = reluReluNegAdd;
  auto hw = coldBandwidthProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  auto reuseOf = [&](const Graph& g) {
    const auto groups = unfusedGroups(g);
    EXPECT_TRUE(groups.ok());
    // r0, r1, neg, add, whatever the topological order of the Neg
    return cpuRunReuse(g, *groups, orderOfNodes(g, *groups, {"r0", "r1", "neg", "add"}), *hw,
                       runFootprintBytes(g, *hw));
  };
  auto farOf = [](const CpuRunReuse& r, const Graph& g, const char* node) {
    return r.farInputBytes.at(static_cast<size_t>(g.findNode(node)));
  };
  const Graph small = graph(16), big = graph(1 << 20);
  const CpuRunReuse rs = reuseOf(small), rb = reuseOf(big);
  for (const char* node : {"r0", "r1", "neg", "add"}) EXPECT_EQ(farOf(rs, small, node), 0.0) << node;
  EXPECT_EQ(farOf(rb, big, "add"), 2 * 65536.0);
  EXPECT_EQ(farOf(rb, big, "r1"), 0.0);
  EXPECT_EQ(farOf(rb, big, "r0"), 65536.0);  // x, read a run ago
  EXPECT_EQ(farOf(rb, big, "neg"), 0.0);     // 4 MiB: larger than the own cache, its streams are the curve's
  // The Add's far bytes come from the last-level cache: each takes what the copy takes more a byte at the
  // footprint of its distance (the Neg's 8 MiB and its own: 20 GB/s on this curve; before session 71 the
  // geometric mean of the own and the last-level cache, 5.7 MiB, the same here) than at the Add's own
  // footprint (192 KiB: 100 GB/s): 131072 B x (1/20 - 1/100) ns = 5.24 us on top.
  auto addUs = [&](const Graph& g, const HwProfile& p) {
    for (const KernelTiming& k : test::runUnfused(g, p).kernels)
      if (k.nodes.at(0) == "add") return k.durUs;
    ADD_FAILURE() << "no add kernel";
    return 0.0;
  };
  json j = cpuProfileJson();
  j["cpu"]["cold_bandwidth_bytes_per_s"] = 1e10;
  j["cpu"]["bandwidth_curve"] = json::parse(R"([{"bytes": 65536, "bytes_per_s": 1e11},
      {"bytes": 1048576, "bytes_per_s": 1e11}, {"bytes": 2097152, "bytes_per_s": 2e10},
      {"bytes": 33554432, "bytes_per_s": 2e10}])");
  auto curved = parseHwProfile(j, "t.json");
  ASSERT_TRUE(curved.ok()) << curved.error().message;
  EXPECT_NEAR(addUs(big, *curved) - addUs(small, *curved), 5.24288, 1e-3);
  // A copy no slower there than in the own cache (no curve): nothing on top.
  EXPECT_NEAR(addUs(big, *hw) - addUs(small, *hw), 0.0, 1e-3);
  // No last-level cache beyond the own one: the cold rate, 131072 B at 10 GB/s, and the Add's output too: it
  // is written over arena bytes last touched before the Neg, beyond the own cache (evictedOutputBytes), so
  // 196608 B at 10 GB/s. With the last-level cache (32 MiB) the point beyond which an output's bytes count is
  // sqrt(1 x 32) MiB away, further than this run's 4 MiB footprint: none count.
  j["l2_bytes"] = 1048576;
  auto noTier = parseHwProfile(j, "t.json");
  ASSERT_TRUE(noTier.ok()) << noTier.error().message;
  EXPECT_NEAR(addUs(big, *noTier) - addUs(small, *noTier), 19.6608, 1e-3);
  auto outOf = [](const CpuRunReuse& r, const Graph& g, const char* node) {
    return r.evictedOutputBytes.at(static_cast<size_t>(g.findNode(node)));
  };
  const auto groups = unfusedGroups(big);
  ASSERT_TRUE(groups.ok());
  const CpuRunReuse near = cpuRunReuse(big, *groups, orderOfNodes(big, *groups, {"r0", "r1", "neg", "add"}),
                                       *noTier, runFootprintBytes(big, *noTier));
  EXPECT_EQ(outOf(near, big, "add"), 65536.0);
  EXPECT_EQ(outOf(near, big, "r1"), 0.0);   // written over bytes the run touched a node before
  EXPECT_EQ(outOf(near, big, "neg"), 0.0);  // 4 MiB: larger than the own cache
  for (const char* node : {"r0", "r1", "neg", "add"}) {
    EXPECT_EQ(outOf(rb, big, node), 0.0) << node;
    EXPECT_EQ(outOf(rs, small, node), 0.0) << node;
  }
}

// An evicted input's bytes take the copy's rate at the footprint of their distance (CpuRunReuse::
// farInputSPerByte): the Add of the test above after a Neg over 32 MiB reads a and c 64 MiB away, where this
// curve's copy moves 5 GB/s: 131072 B x (1/5 - 1/100) ns = 24.9 us on top, not the 5.24 of the last-level
// cache's rate at the geometric mean of the own and that cache (session 71: an EfficientNet's residual Adds,
// their block's input written several MB before on a VM whose last-level cache was 2.5 MiB, were simulated at
// a median 0.51 of their time so).
TEST(CpuCost, AnEvictedInputTakesTheCopysRateAtItsDistance) {
  const auto graph = reluReluNegAdd;
  json j = cpuProfileJson();
  j["cpu"]["cold_bandwidth_bytes_per_s"] = 1e10;
  j["cpu"]["bandwidth_curve"] = json::parse(R"([{"bytes": 65536, "bytes_per_s": 1e11},
      {"bytes": 1048576, "bytes_per_s": 1e11}, {"bytes": 2097152, "bytes_per_s": 2e10},
      {"bytes": 16777216, "bytes_per_s": 2e10}, {"bytes": 33554432, "bytes_per_s": 5e9}])");
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const Graph small = graph(16), near = graph(1 << 20), far = graph(8 << 20);
  auto reuseOf = [&](const Graph& g) {
    const auto groups = unfusedGroups(g);
    EXPECT_TRUE(groups.ok());
    return cpuRunReuse(g, *groups, orderOfNodes(g, *groups, {"r0", "r1", "neg", "add"}), *hw,
                       runFootprintBytes(g, *hw));
  };
  auto at = [](const Graph& g, const std::vector<double>& v, const char* node) {
    return v.at(static_cast<size_t>(g.findNode(node)));
  };
  const CpuRunReuse rn = reuseOf(near), rf = reuseOf(far);
  EXPECT_EQ(at(far, rf.farInputBytes, "add"), 2 * 65536.0);
  EXPECT_NEAR(at(near, rn.farInputSPerByte, "add"), 1 / 2e10, 1e-15);  // 8 MiB away
  EXPECT_NEAR(at(far, rf.farInputSPerByte, "add"), 1 / 5e9, 1e-15);    // 64 MiB away: past the curve's end
  EXPECT_EQ(at(far, rf.farInputSPerByte, "r1"), 0.0);                  // none evicted
  auto addUs = [&](const Graph& g) {
    for (const KernelTiming& k : test::runUnfused(g, *hw).kernels)
      if (k.nodes.at(0) == "add") return k.durUs;
    ADD_FAILURE() << "no add kernel";
    return 0.0;
  };
  EXPECT_NEAR(addUs(near) - addUs(small), 5.24288, 1e-3);
  // Its output is written over arena bytes last touched before the Neg, beyond the geometric mean of the own
  // and the last-level cache in this 64 MiB run (evictedOutputBytes): 65536 B at that point's rate, as
  // before.
  EXPECT_NEAR(addUs(far) - addUs(small),
              (131072 * (1 / 5e9 - 1 / 1e11) + 65536 * (1 / 2e10 - 1 / 1e11)) * 1e6, 1e-3);
}

// A gather or a Slice reads from its data input only what it writes: x [8, 2048] (64 KiB), a Neg over a
// million floats, then a Gather of row 3 and a Slice of the first 256 columns of x: each far by its own
// output (8 KiB), not by all of x, which an Add of x then pays whole.
TEST(CpuCost, AGatherOrSliceOfAnEvictedInputReadsOnlyWhatItWrites) {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({8, 2048}));
  ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({1 << 20}));
  ValueId nb = g.addValue("nb", DType::Float32, Shape::ofInts({1 << 20}));
  g.addNode("Neg", {big}, {nb}, {}, "neg");
  ValueId row = g.addInitializer("row", Tensor::int64s({}, {3}));
  ValueId picked = g.addValue("picked", DType::Float32, Shape::ofInts({2048}));
  g.addNode("Gather", {x, row}, {picked}, zoo::attrs({Attribute::makeInt("axis", 0)}), "gather");
  ValueId starts = g.addInitializer("starts", Tensor::int64s({1}, {0}));
  ValueId ends = g.addInitializer("ends", Tensor::int64s({1}, {256}));
  ValueId axes = g.addInitializer("axes", Tensor::int64s({1}, {1}));
  ValueId part = g.addValue("part", DType::Float32, Shape::ofInts({8, 256}));
  g.addNode("Slice", {x, starts, ends, axes}, {part}, {}, "slice");
  ValueId doubled = g.addValue("doubled", DType::Float32, Shape::ofInts({8, 2048}));
  g.addNode("Add", {x, x}, {doubled}, {}, "add");
  for (ValueId v : {nb, picked, part, doubled}) g.addOutput(v);
  auto hw = coldBandwidthProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const auto groups = unfusedGroups(g);
  ASSERT_TRUE(groups.ok());
  for (const bool gatherFirst : {true, false}) {
    const auto order = gatherFirst ? orderOfNodes(g, *groups, {"neg", "gather", "slice", "add"})
                                   : orderOfNodes(g, *groups, {"neg", "add", "gather", "slice"});
    const CpuRunReuse r = cpuRunReuse(g, *groups, order, *hw, runFootprintBytes(g, *hw));
    auto far = [&](const char* node) { return r.farInputBytes.at(static_cast<size_t>(g.findNode(node))); };
    if (gatherFirst) {
      EXPECT_EQ(far("gather"), 8192.0);
      EXPECT_EQ(far("slice"), 0.0);  // x was touched by the Gather just before
      EXPECT_EQ(far("add"), 0.0);
    } else {
      EXPECT_EQ(far("add"), 65536.0);
      EXPECT_EQ(far("gather"), 0.0);
    }
  }
}

// A Neg over n floats, then three products x*W1 -> m1, m1*W2 -> m2 (the same shapes), m2*W3 -> y (others).
Graph threeProducts(int64_t n) {
  Graph g;
  ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({n}));
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({64, 64}));
  ValueId nb = g.addValue("nb", DType::Float32, Shape::ofInts({n}));
  g.addNode("Neg", {big}, {nb}, {}, "neg");
  std::vector<float> w(64 * 64, 0.01f);
  ValueId w1 = g.addInitializer("w1", Tensor::floats({64, 64}, w));
  ValueId w2 = g.addInitializer("w2", Tensor::floats({64, 64}, w));
  ValueId w3 = g.addInitializer("w3", Tensor::floats({64, 32}, std::vector<float>(64 * 32, 0.01f)));
  ValueId m1 = g.addValue("m1", DType::Float32, Shape::ofInts({64, 64}));
  g.addNode("MatMul", {x, w1}, {m1}, {}, "mm1");
  ValueId m2 = g.addValue("m2", DType::Float32, Shape::ofInts({64, 64}));
  g.addNode("MatMul", {m1, w2}, {m2}, {}, "mm2");
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({64, 32}));
  g.addNode("MatMul", {m2, w3}, {y}, {}, "mm3");
  g.addOutput(y);
  g.addOutput(nb);
  return g;
}

// The test CPU profile with a cold rate of 10 GB/s and a GEMM shape model of 1e-11 s a flop and 1 us a
// call (no other term).
Result<HwProfile> gemmModelProfile(json j = cpuProfileJson()) {
  j["cpu"]["cold_bandwidth_bytes_per_s"] = 1e10;
  json gemm = json::object();
  for (const char* k : cubeCoefficientKeys()) gemm[k] = 0.0;
  gemm["s_per_flop"] = 1e-11;
  gemm["s_per_call"] = 1e-6;
  j["cpu"]["cube_time_models"]["gemm"] = gemm;
  return parseHwProfile(j, "t.json");
}

// The time of g's kernel that starts with `node`, unfused, on gemmModelProfile(j) at a cold rate of
// `coldRate`.
double kernelUsAtColdRate(const Graph& g, const json& j, const char* node, double coldRate) {
  auto hw = gemmModelProfile(j);
  EXPECT_TRUE(hw.ok()) << hw.error().message;
  if (!hw.ok()) return 0.0;
  hw->cpu.coldBandwidth = coldRate;
  for (const KernelTiming& k : test::runUnfused(g, *hw).kernels)
    if (k.nodes.at(0) == node) return k.durUs;
  ADD_FAILURE() << "no " << node << " kernel";
  return 0.0;
}

// A matrix op's call, inputs and output are as cold as the run left them: the library's primitive is its
// shapes', shared by every layer of those shapes, an input the node before just wrote is in cache, and so
// are output bytes the node before touched (threeProducts).
TEST(CpuCost, AProductsCallAndInputsAreAsColdAsTheRunLeftThem) {
  auto hw = gemmModelProfile();
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const Graph small = threeProducts(16), big = threeProducts(1 << 20);
  const auto groups = unfusedGroups(big);
  ASSERT_TRUE(groups.ok());
  const double footprint = runFootprintBytes(big, *hw);
  const double coldShare = coldShareOf(*hw, footprint);
  ASSERT_GT(coldShare, 0.7);
  const CpuRunReuse r =
      cpuRunReuse(big, *groups, orderOfNodes(big, *groups, {"neg", "mm1", "mm2", "mm3"}), *hw, footprint);
  auto at = [&](const std::vector<double>& v, const char* node) {
    return v.at(static_cast<size_t>(big.findNode(node)));
  };
  // mm2 runs mm1's primitive right after it: a hot call; mm1 runs it after mm3 and the Neg's 8 MiB.
  EXPECT_LT(at(r.callColdShare, "mm2"), 0.01);
  EXPECT_DOUBLE_EQ(at(r.callColdShare, "mm1"), 1.0);
  EXPECT_DOUBLE_EQ(at(r.callColdShare, "mm3"), 1.0);
  // mm2's input is mm1's output, just written; mm1's is the graph input x, read a run ago.
  EXPECT_EQ(at(r.farInputBytes, "mm2"), 0.0);
  EXPECT_EQ(at(r.farInputBytes, "mm1"), 64 * 64 * 4.0);
  // An output pays the bytes of the arena it is written over that the run evicted since they were last
  // touched, not the run's cold share of it: mm2 writes over x's bytes, which mm1 just read; mm1 over
  // bytes last touched before the Neg.
  EXPECT_EQ(at(r.evictedOutputBytes, "mm2"), 0.0);
  EXPECT_EQ(at(r.evictedOutputBytes, "mm1"), 64 * 64 * 4.0);
  // In the kernel times: mm2 pays nothing more than in the small run, mm1 its input and output at 10 GB/s.
  auto usOf = [&](const Graph& g, const char* node) {
    for (const KernelTiming& k : test::runUnfused(g, *hw).kernels)
      if (k.nodes.at(0) == node) return k.durUs;
    ADD_FAILURE() << "no " << node << " kernel";
    return 0.0;
  };
  const double bytes = 64 * 64 * 4.0;
  EXPECT_NEAR(usOf(big, "mm2") - usOf(small, "mm2"), 0.0, 1e-3);
  EXPECT_NEAR(usOf(big, "mm1") - usOf(small, "mm1"), 2 * bytes / 1e10 * 1e6, 1e-3);
}

// A MatMul's input larger than the core's own cache (1 MiB here), written by the node before, is in the
// last-level cache, where its shape model was timed: no cold bytes for it (its bytes beyond that cache would
// pay the far tier). x [1024, 1024] (4 MiB), a Relu, then a MatMul by W [1024, 16]: the MatMul's time at a
// cold rate of 1 GB/s and of 1 TB/s differs by its output's bytes alone (before session 40 also the run's
// cold share of 4 MiB, 0.88, at that rate: 3.7 ms more at 1 GB/s).
TEST(CpuCost, AProductsLargeInputJustWrittenIsNotCold) {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1024, 1024}));
  ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({1024, 1024}));
  g.addNode("Relu", {x}, {a}, {}, "relu");
  ValueId w = g.addInitializer("w", Tensor::floats({1024, 16}, std::vector<float>(1024 * 16, 0.01f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1024, 16}));
  g.addNode("MatMul", {a, w}, {y}, {}, "mm");
  g.addOutput(y);
  auto usOf = [&](double coldRate) { return kernelUsAtColdRate(g, cpuProfileJson(), "mm", coldRate); };
  // Only its output's 64 KiB differ, written over arena bytes last touched a run ago.
  EXPECT_NEAR(usOf(1e9) - usOf(1e12), 65536 * (1e-9 - 1e-12) * 1e6, 1e-3);
}

// `j` with the dense and the pointwise Conv's time models: 1e-11 s a FLOP and 1 us a call, nothing else.
json withConvModels(json j) {
  json model = json::object();
  for (const char* key : cubeCoefficientKeys()) model[key] = 0.0;
  model["s_per_flop"] = 1e-11;
  model["s_per_call"] = 1e-6;
  j["cpu"]["cube_time_models"]["conv"] = model;
  j["cpu"]["cube_time_models"]["pointwise_conv"] = model;
  return j;
}

// A pointwise Conv runs on the executor's GEMM path, one product an image over the data as they are
// (CubeFeatures::plainProduct): its input and output are as cold as a MatMul's, not the run's cold share of
// them. x [1, 1024, 32, 32] (4 MiB, beyond the 1 MiB own cache) through a Relu, then a Conv to 16 channels:
// 1x1, its time at a cold rate of 1 GB/s and of 1 TB/s differs by its output's 64 KiB alone (written over
// arena bytes last touched a run ago); 3x3 and padded (oneDNN's blocked layout), by the run's cold share of
// its input and output.
TEST(CpuCost, APointwiseConvsInputAndOutputAreAsColdAsAProducts) {
  for (const int64_t k : {1, 3}) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, 1024, 32, 32}));
    ValueId a = g.addValue("a", DType::Float32, Shape::ofInts({1, 1024, 32, 32}));
    g.addNode("Relu", {x}, {a}, {}, "relu");
    ValueId w =
        g.addInitializer("w", Tensor::floats({16, 1024, k, k}, std::vector<float>(16 * 1024 * k * k, 0.01f)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1, 16, 32, 32}));
    const int64_t pad = k / 2;
    g.addNode("Conv", {a, w}, {y}, zoo::attrs({Attribute::makeInts("pads", {pad, pad, pad, pad})}), "conv");
    g.addOutput(y);
    json j = withConvModels(cpuProfileJson());
    auto usOf = [&](double coldRate) { return kernelUsAtColdRate(g, j, "conv", coldRate); };
    auto hw = gemmModelProfile(j);
    ASSERT_TRUE(hw.ok()) << hw.error().message;
    const double coldShare = coldShareOf(*hw, runFootprintBytes(g, *hw));
    ASSERT_GT(coldShare, 0.0);
    const double bytes = k == 1 ? 65536.0 : coldShare * (4194304.0 + 65536.0);
    EXPECT_NEAR(usOf(1e9) - usOf(1e12), bytes * (1e-9 - 1e-12) * 1e6, 1e-3) << k << "x" << k;
  }
}

// far_s_per_byte "pointwise": a pointwise Conv (one product an image) pays it on its input and output bytes
// beyond the last-level cache's, whatever their distance (a far curve that gives nothing here); one within
// the cache, or a 3x3 Conv beyond it, pays nothing more; without the figure, nothing more either.
TEST(CpuCost, APointwiseConvsBytesBeyondTheLastLevelCostTheirOwnFigure) {
  auto convOf = [](int64_t batch, int64_t k) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({batch, 16, 64, 64}));
    ValueId w =
        g.addInitializer("w", Tensor::floats({64, 16, k, k}, std::vector<float>(64 * 16 * k * k, 0.01f)));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({batch, 64, 64, 64}));
    const int64_t pad = k / 2;
    g.addNode("Conv", {x, w}, {y}, zoo::attrs({Attribute::makeInts("pads", {pad, pad, pad, pad})}), "conv");
    g.addOutput(y);
    return g;
  };
  json j = withConvModels(cpuProfileJson());
  j["l2_bytes"] = 4194304;
  j["cpu"]["far_curve"] = json::parse(R"([{"bytes": 1e12, "share": 0}, {"bytes": 2e12, "share": 1}])");
  j["cpu"]["far_s_per_byte"] = {{"vector", 1e-10}, {"product", 5e-10}};
  auto without = gemmModelProfile(j);
  j["cpu"]["far_s_per_byte"]["pointwise"] = 1e-9;
  auto with = gemmModelProfile(j);
  ASSERT_TRUE(without.ok()) << without.error().message;
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_DOUBLE_EQ(with->cpu.farPointwiseSecondsPerByte(), 1e-9);
  EXPECT_DOUBLE_EQ(without->cpu.farPointwiseSecondsPerByte(), 0.0);
  auto again = parseHwProfile(hwProfileToJson(*with), "t.json");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_DOUBLE_EQ(again->cpu.farPointwiseSecondsPerByte(), 1e-9);
  auto us = [](const Graph& g, const HwProfile& hw) { return test::runUnfused(g, hw).kernels.at(0).durUs; };
  // 4 images: 1 MiB in, 4 MiB out, 1 MiB beyond the 4 MiB cache.
  const Graph beyond = convOf(4, 1);
  EXPECT_NEAR(us(beyond, *with) - us(beyond, *without), 1048576 * 1e-9 * 1e6, 1e-6);
  const Graph within = convOf(2, 1);  // 2.5 MiB
  EXPECT_DOUBLE_EQ(us(within, *with), us(within, *without));
  const Graph dense = convOf(4, 3);
  EXPECT_DOUBLE_EQ(us(dense, *with), us(dense, *without));
}

// A squeeze-excitation's 1x1 Conv over a batch runs the library's matmul on a packed weight, the code a
// Gemm's runs (exec::pointwiseImagesAsOneProduct), not the plain-layout GEMM of the pointwise Convs: its
// code's distance is since a Gemm last ran. Right after a pointwise Conv, with a Neg over 4 MiB between
// runs, its code is cold; right after a Gemm, warm.
TEST(CpuCost, ASqueezeExcitationConvOverABatchSharesTheGemmsCodeNotThePointwiseConvs) {
  auto block = [](bool gemmFirst) {
    Graph g;
    ValueId big = g.addInput("big", DType::Float32, Shape::ofInts({1 << 20}));
    ValueId nb = g.addValue("nb", DType::Float32, Shape::ofInts({1 << 20}));
    g.addNode("Neg", {big}, {nb}, {}, "neg");
    g.addOutput(nb);
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({8, 16, 8, 8}));
    ValueId pw = g.addValue("pw", DType::Float32, Shape::ofInts({8, 16, 8, 8}));
    g.addNode("Conv",
              {x, g.addInitializer("wp", Tensor::floats({16, 16, 1, 1}, std::vector<float>(256, 0.1f)))},
              {pw}, zoo::attrs({Attribute::makeInts("kernel_shape", {1, 1})}), "pw");
    ValueId pooled = g.addValue("pooled", DType::Float32, Shape::ofInts({8, 16, 1, 1}));
    g.addNode("GlobalAveragePool", {pw}, {pooled}, {}, "gap");
    ValueId in = pooled;
    if (gemmFirst) {
      ValueId flat = g.addValue("flat", DType::Float32, Shape::ofInts({8, 16}));
      g.addNode("Flatten", {pooled}, {flat}, {}, "flatten");
      ValueId fc = g.addValue("fc", DType::Float32, Shape::ofInts({8, 16}));
      g.addNode("Gemm",
                {flat, g.addInitializer("wf", Tensor::floats({16, 16}, std::vector<float>(256, 0.1f)))}, {fc},
                zoo::attrs({Attribute::makeInt("transB", 1)}), "fc");
      in = g.addValue("back", DType::Float32, Shape::ofInts({8, 16, 1, 1}));
      g.addNode("Reshape", {fc, g.addInitializer("shape", Tensor::int64s({4}, {8, 16, 1, 1}))}, {in}, {},
                "back");
    }
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({8, 16, 1, 1}));
    g.addNode("Conv",
              {in, g.addInitializer("ws", Tensor::floats({16, 16, 1, 1}, std::vector<float>(256, 0.1f))),
               g.addInitializer("bs", Tensor::floats({16}, std::vector<float>(16, 0.f)))},
              {y}, zoo::attrs({Attribute::makeInts("kernel_shape", {1, 1})}), "se");
    g.addOutput(y);
    return g;
  };
  json j = cpuProfileJson();
  j["cpu"]["cold_call_s"] = {{"vector", 1e-6}, {"product", 10e-6}, {"product/primitive", 2e-6}};
  auto hw = gemmModelProfile(j);
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  for (const bool gemmFirst : {false, true}) {
    const Graph g = block(gemmFirst);
    ASSERT_EQ(cubeFeatures(g, g.findNode("se"))->kind, "gemm_tb");
    const auto groups = unfusedGroups(g);
    ASSERT_TRUE(groups.ok());
    const auto order = gemmFirst
                           ? orderOfNodes(g, *groups, {"neg", "pw", "gap", "flatten", "fc", "back", "se"})
                           : orderOfNodes(g, *groups, {"neg", "pw", "gap", "se"});
    const CpuRunReuse r = cpuRunReuse(g, *groups, order, *hw, runFootprintBytes(g, *hw));
    const double share = r.codeColdShare.at(static_cast<size_t>(g.findNode("se")));
    if (gemmFirst)
      EXPECT_LT(share, 0.01);
    else
      EXPECT_DOUBLE_EQ(share, 1.0);
  }
}

// With cold_call_s "product/primitive", a product's cold call is two parts: the code every product of its
// op type shares, by the distance since one last ran, and its own primitive, by its shapes' distance. In
// threeProducts after the Neg, mm1 finds both cold (it pays all of "product"), mm2 runs mm1's primitive
// right after it (nothing), and mm3 another primitive right after a MatMul (only "product/primitive").
TEST(CpuCost, AProductRightAfterAnotherOfOtherShapesPaysItsPrimitiveAlone) {
  json j = cpuProfileJson();
  j["cpu"]["cold_call_s"] = {{"vector", 1e-6}, {"product", 10e-6}};
  auto whole = gemmModelProfile(j);
  j["cpu"]["cold_call_s"]["product/primitive"] = 2e-6;
  auto split = gemmModelProfile(j);
  ASSERT_TRUE(whole.ok() && split.ok());
  const Graph big = threeProducts(1 << 20);
  const auto groups = unfusedGroups(big);
  ASSERT_TRUE(groups.ok());
  const CpuRunReuse r = cpuRunReuse(big, *groups, orderOfNodes(big, *groups, {"neg", "mm1", "mm2", "mm3"}),
                                    *split, runFootprintBytes(big, *split));
  auto at = [&](const std::vector<double>& v, const char* node) {
    return v.at(static_cast<size_t>(big.findNode(node)));
  };
  EXPECT_DOUBLE_EQ(at(r.codeColdShare, "mm1"), 1.0);
  EXPECT_DOUBLE_EQ(at(r.stateColdShare, "mm1"), 1.0);
  EXPECT_LT(at(r.codeColdShare, "mm3"), 0.01);
  EXPECT_DOUBLE_EQ(at(r.stateColdShare, "mm3"), 1.0);
  auto usOf = [&](const HwProfile& hw, const char* node) {
    for (const KernelTiming& k : test::runUnfused(big, hw).kernels)
      if (k.nodes.at(0) == node) return k.durUs;
    ADD_FAILURE() << "no " << node << " kernel";
    return 0.0;
  };
  EXPECT_NEAR(usOf(*split, "mm1") - usOf(*whole, "mm1"), 0.0, 1e-3);
  EXPECT_NEAR(usOf(*split, "mm2") - usOf(*whole, "mm2"), 0.0, 1e-2);
  // mm3: 10 us a whole cold call before, 2 us plus what is left of the code share now.
  const double codeShare = at(r.codeColdShare, "mm3");
  EXPECT_NEAR(usOf(*whole, "mm3") - usOf(*split, "mm3"), 8.0 - codeShare * 8.0, 1e-3);
  EXPECT_DOUBLE_EQ(parseHwProfile(hwProfileToJson(*split), "t.json")->cpu.coldPrimitiveSeconds().value(),
                   2e-6);
  EXPECT_FALSE(whole->cpu.coldPrimitiveSeconds().has_value());
  json bad = cpuProfileJson();
  bad["cpu"]["cold_call_s"] = {{"product/kernel", 1e-6}};
  auto refused = parseHwProfile(bad, "t.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("\"product/primitive\""), std::string::npos)
      << refused.error().message;
}

// On a CPU profile with weight_reorder, a Conv whose weight the run computes (a DequantizeLinear before it)
// pays the reorder of that weight on every call; a model's weight, a view of one, a graph input (the
// executor keys the copy on the storage) and a pointwise Conv (its GEMM path reads the weight as stored)
// do not.
TEST(CpuCost, AConvOnAWeightTheRunComputesPaysItsReorder) {
  enum class W { Initializer, ViewOfInitializer, GraphInput, Dequantized };
  auto graph = [](W how, int64_t k) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, 64, 16, 16}));
    const std::vector<int64_t> dims = {64, 64, k, k};
    const size_t n = static_cast<size_t>(64 * 64 * k * k);
    ValueId w = kNoId;
    if (how == W::Initializer) w = g.addInitializer("w", Tensor::floats(dims, std::vector<float>(n, 0.01f)));
    if (how == W::GraphInput) w = g.addInput("w", DType::Float32, Shape::ofInts(dims));
    if (how == W::ViewOfInitializer) {
      ValueId flat =
          g.addInitializer("wflat", Tensor::floats({static_cast<int64_t>(n)}, std::vector<float>(n, 0.01f)));
      ValueId shape = g.addInitializer("shape", Tensor::int64s({4}, dims));
      w = g.addValue("w", DType::Float32, Shape::ofInts(dims));
      g.addNode("Reshape", {flat, shape}, {w}, {}, "reshape");
    }
    if (how == W::Dequantized) {
      ValueId q =
          g.addInitializer("wq", Tensor::fromVector<uint8_t>(DType::UInt8, dims, std::vector<uint8_t>(n, 3)));
      ValueId scale = g.addInitializer("scale", Tensor::scalarFloat(0.01f));
      w = g.addValue("w", DType::Float32, Shape::ofInts(dims));
      g.addNode("DequantizeLinear", {q, scale}, {w}, {}, "dq");
    }
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1, 64, 16, 16}));
    g.addNode("Conv", {x, w}, {y}, zoo::attrs({Attribute::makeInts("pads", {k / 2, k / 2, k / 2, k / 2})}),
              "conv");
    g.addOutput(y);
    return g;
  };
  json j = cpuProfileJson();
  auto without = parseHwProfile(j, "t.json");
  ASSERT_TRUE(without.ok()) << without.error().message;
  j["cpu"]["weight_reorder"] = {{"s_per_call", 2e-6}, {"bytes_per_s", 1.0e10}};
  auto with = parseHwProfile(j, "t.json");
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_DOUBLE_EQ(with->cpu.weightReorder.callS, 2e-6);
  auto back = parseHwProfile(hwProfileToJson(*with), "t.json");  // written back
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_DOUBLE_EQ(back->cpu.weightReorder.bytesPerS, 1.0e10);
  auto convUs = [](const Graph& g, const HwProfile& hw) {
    for (const auto& k : test::runUnfused(g, hw).kernels)
      if (!k.ops.empty() && k.ops[0] == "Conv") return k.durUs;
    return -1.0;
  };
  // 3x3 64->64: 147456 bytes of weight, 2 us + 14.7 us at 10 GB/s.
  const Graph dq = graph(W::Dequantized, 3);
  EXPECT_NEAR(convUs(dq, *with) - convUs(dq, *without), 2.0 + 147456 / 1.0e4, 0.05);
  for (W how : {W::Initializer, W::ViewOfInitializer, W::GraphInput}) {
    const Graph g = graph(how, 3);
    EXPECT_NEAR(convUs(g, *with), convUs(g, *without), 1e-9) << static_cast<int>(how);
  }
  const Graph pointwise = graph(W::Dequantized, 1);
  EXPECT_NEAR(convUs(pointwise, *with), convUs(pointwise, *without), 1e-9);
  // Malformed: named field, clear reason.
  for (const char* bad :
       {R"({"s_per_call": 0.01, "bytes_per_s": 1e10})", R"({"s_per_call": 1e-6, "bytes_per_s": -1})",
        R"({"s_per_call": 1e-6, "bytes_per_s": 1e10, "slope": 1})", R"([1, 2])"}) {
    j["cpu"]["weight_reorder"] = json::parse(bad);
    auto r = parseHwProfile(j, "t.json");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("weight_reorder"), std::string::npos) << r.error().message;
  }
}

// The reference executor holds every integer type in 8 bytes (Store::I64): on a cpu profile an int8
// tensor moves 8 bytes an element (a QDQ model's weight into its DequantizeLinear), on an NPU its size.
TEST(CpuCost, IntegerTensorsTakeTheExecutorsEightBytesOnACpuProfile) {
  auto cpu = parseHwProfile(cpuProfileJson(), "t.json");
  ASSERT_TRUE(cpu.ok()) << cpu.error().message;
  const HwProfile npu = *resolveHwProfile("ascend910b2");
  for (DType t : {DType::Int8, DType::UInt8, DType::Int32, DType::Int64}) {
    EXPECT_EQ(deviceElemBytes(t, *cpu), 8u) << dtypeName(t);
    EXPECT_EQ(deviceElemBytes(t, npu), dtypeSize(t)) << dtypeName(t);
  }
  EXPECT_EQ(deviceElemBytes(DType::Bool, *cpu), 1u);
  EXPECT_EQ(deviceElemBytes(DType::Float16, *cpu), 4u);  // the profile's fp32
  Graph g;
  ValueId q = g.addInitializer(
      "q", Tensor::fromVector<uint8_t>(DType::Int8, {64, 64}, std::vector<uint8_t>(64 * 64, 1)));
  ValueId scale = g.addInitializer("s", Tensor::scalarFloat(0.1f));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({64, 64}));
  const NodeId dq = g.addNode("DequantizeLinear", {q, scale}, {y}, {}, "dq");
  g.addOutput(y);
  EXPECT_DOUBLE_EQ(*deviceBytes(g, q, *cpu, dq), 64.0 * 64 * 8);
  EXPECT_DOUBLE_EQ(*deviceBytes(g, q, npu, dq), 64.0 * 64);
}

// fwb calibrate's fused-call bench: the pairs as plain nodes and as calls of a fused body compute the
// same, and the calls run on the executor's function path.
TEST(HostBench, TheFusedCallBenchComputesWhatItsPlainPairsDo) {
  const hostbench::Bench plain = hostbench::reluNegPairs(4, false), calls = hostbench::reluNegPairs(4, true);
  EXPECT_EQ(calls.model.functions.size(), 1u);
  EXPECT_EQ(calls.model.graph->nodes().size(), 4u);
  EXPECT_EQ(plain.model.graph->nodes().size(), 8u);
  auto a = runGraph(plain.model, plain.inputs, {});
  auto b = runGraph(calls.model, calls.inputs, {});
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  ASSERT_EQ(a->size(), 4u);
  ASSERT_EQ(b->size(), 4u);
  const auto x = plain.inputs[0].toFloats();
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ((*a)[k].toFloats(), (*b)[k].toFloats());
    const auto y = (*b)[k].toFloats();
    for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], -std::max(0.0f, x[i]));
  }
}

// fwb calibrate times each unary math op networks use on its own (their loops differ by 100x), on
// inputs they take in a network: every case runs and gives finite values (Log and Sqrt of positives).
TEST(HostBench, EveryUnaryMathOpIsTimedOnItsOwnOnInputsItTakes) {
  std::set<std::string> timed;
  for (const auto& c : familyCases(CaseSize::tiny())) {
    const Graph& g = *c.bench.model.graph;
    const std::string op = g.node(c.bench.node).opType;
    timed.insert(op);
    if (c.key != "elementwise" || g.node(c.bench.node).inputs.size() != 1) continue;
    auto r = runGraph(c.bench.model, c.bench.inputs, {});
    ASSERT_TRUE(r.ok()) << op << ": " << r.error().message;
    for (float v : (*r)[0].toFloats()) EXPECT_TRUE(std::isfinite(v)) << op;
  }
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Erf", "Sqrt", "Exp", "Neg", "Abs", "Log", "Reciprocal",
                         "Floor", "Round", "Sin", "Cos", "Softplus", "Softsign", "Elu"})
    EXPECT_TRUE(timed.count(op)) << op;
}

// The scatter-add fwb calibrate times (a GNN's aggregation) runs, adds every update row onto the data row its
// index names, and counts for ScatterElements' own figures only: the data-movement family's median is over
// the other cases. The cases added since (sessions 52-55) count for their own figures only too:
// ReduceLogSumExp, the 2x2 stride-2 MaxPool ("MaxPool/2x2"), a mask's Cast to float, RoiAlign and
// NonMaxSuppression, (session 59) the reductions over a middle axis and CumSum, and (session 65) the 1-D
// strided MaxPool and AveragePool, (session 71) the cubic Resize, (session 72) GlobalMaxPool and (session 81)
// ArgMax and ArgMin; every other case counts.
TEST(HostBench, AScatterAddIsTimedForItsOwnFiguresOnly) {
  int scatters = 0;
  const std::set<std::string> own = {"ScatterElements",
                                     "ReduceLogSumExp",
                                     "MaxPool/2x2",
                                     "Cast",
                                     "RoiAlign",
                                     "NonMaxSuppression",
                                     "ReduceMean/middle",
                                     "ReduceSum/middle",
                                     "ReduceMax/middle",
                                     "CumSum",
                                     "MaxPool/strided",
                                     "AveragePool/strided",
                                     "Resize/cubic",
                                     "GlobalMaxPool",
                                     "GatherND",
                                     "NonZero",
                                     "ArgMax",
                                     "ArgMin",
                                     "Equal/int64"};
  std::set<std::string> seen;
  for (const auto& c : familyCases(CaseSize::tiny())) {
    const Graph& g = *c.bench.model.graph;
    const std::string op = g.node(c.bench.node).opType;
    const std::string key = efficiencyKey(g, g.node(c.bench.node));
    EXPECT_EQ(c.ownFiguresOnly, own.count(key) > 0) << key;
    if (c.ownFiguresOnly) seen.insert(key);
    if (op != "ScatterElements") continue;
    ++scatters;
    auto r = runGraph(c.bench.model, c.bench.inputs, {});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Node& n = g.node(c.bench.node);
    const Tensor *idx = g.constantOf(n.inputs[1]), *upd = g.constantOf(n.inputs[2]);
    ASSERT_TRUE(idx && upd);
    std::vector<float> want = c.bench.inputs.at(0).toFloats();
    const std::vector<float> u = upd->toFloats();
    const std::vector<int64_t> at = idx->toInt64s();
    const int64_t cols = upd->dims().back();
    for (size_t k = 0; k < u.size(); ++k) {
      EXPECT_EQ(at[k], at[k - k % static_cast<size_t>(cols)]) << "a row's index is one data row";
      want[static_cast<size_t>(at[k] * cols) + k % static_cast<size_t>(cols)] += u[k];
    }
    const std::vector<float> y = (*r)[0].toFloats();
    ASSERT_EQ(y.size(), want.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-5) << i;
  }
  EXPECT_EQ(scatters, 1);
  EXPECT_EQ(seen, own);
}

// fwb calibrate times NonMaxSuppression twice over the same 1024 boxes: the family case keeps one box (its
// candidates' sort), the row case every box (523776 pairs tested): its time a pair (cpu.op_row_s) is what the
// second took more, over the pairs it has more (rowWiseRows counts them by the bound, the output's rows
// being unknown before the run).
TEST(HostBench, NonMaxSuppressionIsTimedKeepingOneBoxAndKeepingAll) {
  auto selected = [](const FamilyCase& c) -> int64_t {
    auto r = runGraph(c.bench.model, c.bench.inputs, {});
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? (*r)[0].dims()[0] : -1;
  };
  int64_t familyRows = -1, pairRows = -1;
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& g = *c.bench.model.graph;
    if (g.node(c.bench.node).opType != "NonMaxSuppression") continue;
    EXPECT_EQ(selected(c), 1);
    familyRows = rowWiseRows(g, g.node(c.bench.node));
  }
  for (const auto& c : rowCases()) {
    const Graph& g = *c.bench.model.graph;
    if (g.node(c.bench.node).opType != "NonMaxSuppression") continue;
    EXPECT_EQ(c.key, "NonMaxSuppression");
    EXPECT_EQ(selected(c), 1024);
    pairRows = rowWiseRows(g, g.node(c.bench.node));
  }
  EXPECT_EQ(familyRows, 1024 / 2);
  EXPECT_EQ(pairRows, 1024 * 1024 / 2);
}

// A Split copies its parts as a Slice does, not at the data-movement family's rate (a merged K/V
// product's Split of 393 KB took 15 us in a Perceiver-style model, 41 simulated at the family's):
// fwb calibrate times one on its own, with both parts, and the cost follows it.
TEST(HostBench, ASplitIsTimedOnItsOwnWithItsParts) {
  const FamilyCase* split = nullptr;
  const auto cases = familyCases(CaseSize::tiny());
  for (const auto& c : cases)
    if (c.bench.model.graph->node(c.bench.node).opType == "Split") split = &c;
  ASSERT_NE(split, nullptr);
  const Graph& g = *split->bench.model.graph;
  ASSERT_EQ(g.node(split->bench.node).outputs.size(), 2u);
  auto r = runGraph(split->bench.model, split->bench.inputs, {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), g.outputs().size());
  const Tensor& x = split->bench.inputs[0];
  const int64_t rows = x.dims()[0], cols = x.dims()[1];
  const auto in = x.toFloats(), left = (*r)[0].toFloats(), right = (*r)[1].toFloats();
  ASSERT_EQ(left.size(), static_cast<size_t>(rows * cols / 2));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols / 2; ++j) {
      EXPECT_EQ(left[static_cast<size_t>(i * cols / 2 + j)], in[static_cast<size_t>(i * cols + j)]);
      EXPECT_EQ(right[static_cast<size_t>(i * cols / 2 + j)],
                in[static_cast<size_t>(i * cols + cols / 2 + j)]);
    }
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Split", 0.001}};
  auto slow = parseHwProfile(j, "t.json");
  j["cpu"]["op_efficiency"] = {{"Split", 0.5}};
  auto own = parseHwProfile(j, "t.json");
  ASSERT_TRUE(slow.ok() && own.ok());
  Graph big;
  ValueId bx = big.addInput("x", DType::Float32, Shape::ofInts({512, 512}));
  ValueId sizes = big.addInitializer("s", Tensor::int64s({2}, {256, 256}));
  ValueId y0 = big.addValue("y0", DType::Float32, Shape::ofInts({512, 256}));
  ValueId y1 = big.addValue("y1", DType::Float32, Shape::ofInts({512, 256}));
  big.addNode("Split", {bx, sizes}, {y0, y1}, zoo::attrs({Attribute::makeInt("axis", 1)}), "split");
  big.addOutput(y0);
  big.addOutput(y1);
  EXPECT_LT(2 * test::runUnfused(big, *own).kernels.at(0).durUs,
            test::runUnfused(big, *slow).kernels.at(0).durUs);
  // Its rows are its parts times the positions before its axis: 512 x 2 here; one block of each part
  // along the first axis. fwb calibrate times them in rows of 8 beside the case's rows of 512.
  EXPECT_EQ(rowWiseRows(big, big.node(0)), 1024);
  EXPECT_EQ(rowWiseRows(g, g.node(split->bench.node)), 2 * x.dims()[0]);
  bool rowCase = false;
  for (const auto& c : rowCases())
    if (c.key == "Split") {
      const Graph& rg = *c.bench.model.graph;
      EXPECT_EQ(rowWiseRows(rg, rg.node(c.bench.node)), 4096);
      rowCase = true;
    }
  EXPECT_TRUE(rowCase);
  j["cpu"]["op_row_s"] = {{"Split", 1e-6}};
  auto rowed = parseHwProfile(j, "t.json");
  j["cpu"]["op_row_s"] = {{"Split", 2e-6}};  // 1 us more a row: 1024 us more
  auto rowed2 = parseHwProfile(j, "t.json");
  ASSERT_TRUE(rowed.ok() && rowed2.ok());
  EXPECT_NEAR(
      test::runUnfused(big, *rowed2).kernels.at(0).durUs - test::runUnfused(big, *rowed).kernels.at(0).durUs,
      1024.0, 1e-6);
}

// The time of the first kernel of g, unfused, on the test CPU profile with these op efficiencies
// (cpu.op_efficiency).
double firstKernelUsWith(const Graph& g, const json& opEfficiency) {
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = opEfficiency;
  auto hw = parseHwProfile(j, "t.json");
  EXPECT_TRUE(hw.ok()) << hw.error().message;
  return hw.ok() ? test::runUnfused(g, *hw).kernels.at(0).durUs : 0.0;
}

// A float MaxPool of a 2x2 window at stride 2 without padding runs the executor's own loop: its own
// efficiency
// ("MaxPool/2x2"), which fwb calibrate measures; other windows, strides, padding or an Indices output keep
// "MaxPool".
TEST(CpuCost, ATwoByTwoStrideTwoMaxPoolHasItsOwnEfficiency) {
  auto pool = [](std::vector<int64_t> dims, std::vector<Attribute> a, bool indices = false) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<int64_t> od = {dims[0], dims[1], dims[2] / 2, dims[3] / 2};
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(od));
    std::vector<ValueId> outs = {y};
    if (indices) outs.push_back(g.addValue("i", DType::Int64, Shape::ofInts(od)));
    Attributes as;
    for (Attribute& at : a) as.set(std::move(at));
    g.addNode("MaxPool", {x}, outs, as, "p");
    g.addOutput(y);
    return g;
  };
  const Attribute k2 = Attribute::makeInts("kernel_shape", {2, 2}),
                  s2 = Attribute::makeInts("strides", {2, 2});
  Graph plain = pool({16, 32, 32, 32}, {k2, s2});
  Graph zeroPads = pool({16, 32, 32, 32}, {k2, s2, Attribute::makeInts("pads", {0, 0, 0, 0})});
  Graph ceilEven = pool({16, 32, 32, 32}, {k2, s2, Attribute::makeInt("ceil_mode", 1)});
  EXPECT_EQ(efficiencyKey(plain, plain.node(0)), "MaxPool/2x2");
  EXPECT_EQ(efficiencyKey(zeroPads, zeroPads.node(0)), "MaxPool/2x2");
  EXPECT_EQ(efficiencyKey(ceilEven, ceilEven.node(0)), "MaxPool/2x2");
  for (const Graph& g : {pool({16, 32, 33, 32}, {k2, s2, Attribute::makeInt("ceil_mode", 1)}),
                         pool({16, 32, 32, 32}, {k2, s2, Attribute::makeInts("pads", {1, 1, 1, 1})}),
                         pool({16, 32, 32, 32}, {Attribute::makeInts("kernel_shape", {3, 3}), s2}),
                         pool({16, 32, 32, 32}, {k2, Attribute::makeInts("strides", {1, 1})}),
                         pool({16, 32, 32, 32}, {k2, s2}, true)})
    EXPECT_EQ(efficiencyKey(g, g.node(0)), "MaxPool");
  EXPECT_TRUE(isEfficiencyVariant("MaxPool/2x2"));
  // fwb calibrate times it beside the 3x3 MaxPool.
  std::vector<std::string> keys;
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& g = *c.bench.model.graph;
    if (g.node(c.bench.node).opType == "MaxPool") keys.push_back(efficiencyKey(g, g.node(c.bench.node)));
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"MaxPool", "MaxPool/2x2", "MaxPool/strided"}));
  // On a profile with both, the 2x2 pool costs by its own.
  EXPECT_LT(firstKernelUsWith(plain, {{"MaxPool", 0.02}, {"MaxPool/2x2", 0.08}}),
            0.5 * firstKernelUsWith(plain, {{"MaxPool", 0.02}}));
}

// A pool's taps along its last dim at a stride read one value a stride apart, 2-2.6x a contiguous tap's time:
// they cost at "<Op>/strided" (a 1-D pool at a stride is keyed so, and fwb calibrate times one), the rest at
// the op's own rate. A profile without the figure costs every tap at the key's rate.
TEST(CpuCost, APoolsStridedTapsCostAtTheirOwnRate) {
  // The output's shape is stored for the simulator; poolLoops works it out from the attributes (the bench
  // graphs of fwb calibrate store none: APoolsRowsAreItsPassesRows).
  auto pool = [](const char* op, std::vector<int64_t> dims, std::vector<int64_t> out,
                 std::vector<Attribute> a) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    Attributes as;
    for (Attribute& at : a) as.set(std::move(at));
    g.addNode(op, {x}, {y}, as, "p");
    g.addOutput(y);
    return g;
  };
  auto ints = [](const char* name, std::vector<int64_t> v) {
    return Attribute::makeInts(name, std::move(v));
  };
  // 1-D, a window of 4 at stride 4 over [32, 64, 3980] (a keyword CNN's pools): 995 outputs a row.
  const Graph oneD =
      pool("MaxPool", {32, 64, 3980}, {32, 64, 995}, {ints("kernel_shape", {4}), ints("strides", {4})});
  auto l = poolLoops(oneD, oneD.node(0));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->stridedTaps, 32.0 * 64 * 995 * 4);
  EXPECT_EQ(l->contiguousTaps, 0.0);
  EXPECT_EQ(l->rows, 0);  // every window inside: no bounded loop
  EXPECT_EQ(efficiencyKey(oneD, oneD.node(0)), "MaxPool/strided");
  // A ResNet stem's 3x3 at stride 2, padded, with ceil_mode over 111: the first dim's pass reads whole rows
  // (contiguous), the last dim's pass one value a stride apart; 56 outputs each way.
  const Graph stem = pool("AveragePool", {2, 64, 111, 111}, {2, 64, 56, 56},
                          {ints("kernel_shape", {3, 3}), ints("strides", {2, 2}), ints("pads", {1, 1, 1, 1}),
                           Attribute::makeInt("ceil_mode", 1)});
  l = poolLoops(stem, stem.node(0));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->contiguousTaps, 128.0 * 56 * 111 * 3);
  EXPECT_EQ(l->stridedTaps, 128.0 * 56 * 56 * 3);
  // Every output row of the first pass takes the bounded loop (a stride, whole rows); of the second pass's
  // rows of 56, the first output (its window starts in the padding) and the last (past the input's end).
  EXPECT_EQ(l->rows, 128 * 56 * 3 + 128 * 56 * 2 * 3);
  EXPECT_EQ(efficiencyKey(stem, stem.node(0)), "AveragePool");
  // SAME_UPPER at stride 2 over 7: 4 outputs, one pass of strided taps.
  const Graph same = pool(
      "MaxPool", {1, 8, 7}, {1, 8, 4},
      {ints("kernel_shape", {3}), ints("strides", {2}), Attribute::makeString("auto_pad", "SAME_UPPER")});
  l = poolLoops(same, same.node(0));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->stridedTaps, 8.0 * 4 * 3);
  // Dilated (the executor's geometry, core/exec/ConvGeometry.h): 3 taps 2 apart over 9, 5 outputs, every
  // window inside.
  const Graph dilated =
      pool("MaxPool", {1, 8, 9}, {1, 8, 5}, {ints("kernel_shape", {3}), ints("dilations", {2})});
  l = poolLoops(dilated, dilated.node(0));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->contiguousTaps, 8.0 * 5 * 3);
  EXPECT_EQ(l->rows, 0);
  // Attributes the executor refuses (a kernel of another rank, a stride of 0): no loops to price.
  for (const Graph& bad :
       {pool("MaxPool", {1, 8, 9}, {1, 8, 7}, {ints("kernel_shape", {3, 3})}),
        pool("MaxPool", {1, 8, 9}, {1, 8, 7}, {ints("kernel_shape", {3}), ints("strides", {0})})})
    EXPECT_FALSE(poolLoops(bad, bad.node(0)));
  const Graph flat = pool("MaxPool", {2, 64, 56, 56}, {2, 64, 56, 56},
                          {ints("kernel_shape", {3, 3}), ints("pads", {1, 1, 1, 1})});
  l = poolLoops(flat, flat.node(0));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->stridedTaps, 0.0);
  EXPECT_EQ(efficiencyKey(flat, flat.node(0)), "MaxPool");
  EXPECT_TRUE(isEfficiencyVariant("MaxPool/strided"));
  EXPECT_TRUE(isEfficiencyVariant("AveragePool/strided"));
  // Compute-bound efficiencies, so the rates show: the strided rate a quarter of the plain one.
  const double plainOnly = firstKernelUsWith(oneD, {{"MaxPool", 0.004}});
  const double both = firstKernelUsWith(oneD, {{"MaxPool", 0.004}, {"MaxPool/strided", 0.001}});
  EXPECT_NEAR(both, 4 * plainOnly, 0.02 * both);
  // The stem's strided taps are a third of its taps: with them at a quarter of the rate, 1/3 * 4 + 2/3 = 2x.
  const double stemPlain = firstKernelUsWith(stem, {{"AveragePool", 0.002}});
  const double stemBoth = firstKernelUsWith(stem, {{"AveragePool", 0.002}, {"AveragePool/strided", 0.0005}});
  EXPECT_NEAR(stemBoth / stemPlain, (56.0 * 111 + 4 * 56 * 56) / (56.0 * 111 + 56 * 56), 0.03);
  // A stride-1 pool has no strided taps: the figure changes nothing.
  EXPECT_NEAR(firstKernelUsWith(flat, {{"MaxPool", 0.004}, {"MaxPool/strided", 0.001}}),
              firstKernelUsWith(flat, {{"MaxPool", 0.004}}), 1e-9);
  // fwb calibrate times a 1-D pool at stride 2 of each op for their own figures.
  std::set<std::string> timed;
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& g = *c.bench.model.graph;
    const std::string key = efficiencyKey(g, g.node(c.bench.node));
    if (key.size() > 8 && key.substr(key.size() - 8) == "/strided") {
      timed.insert(key);
      EXPECT_TRUE(c.ownFiguresOnly) << key;
    }
  }
  EXPECT_EQ(timed, (std::set<std::string>{"AveragePool/strided", "MaxPool/strided"}));
}

// A float reduction over a middle axis (a mean over the tokens of [batch, tokens, dim]) runs the executor's
// column loop: its own efficiency ("<Op>/middle"), which fwb calibrate measures for ReduceMean, ReduceSum and
// ReduceMax, each at the normal and the tiny size; over the last axes (axes of 1 aside) and for a
// LogSumExp, the op type's.
TEST(CpuCost, AReductionOverAMiddleAxisHasItsOwnEfficiency) {
  auto reduce = [](const char* op, std::vector<int64_t> dims, std::vector<int64_t> axes) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
    std::vector<int64_t> od;
    for (size_t d = 0; d < dims.size(); ++d)
      if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end()) od.push_back(dims[d]);
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(od));
    g.addNode(op, {x}, {y},
              zoo::attrs({Attribute::makeInts("axes", axes), Attribute::makeInt("keepdims", 0)}), "r");
    g.addOutput(y);
    return g;
  };
  const Graph mean = reduce("ReduceMean", {32, 8, 64}, {1});
  EXPECT_EQ(efficiencyKey(mean, mean.node(0)), "ReduceMean/middle");
  EXPECT_EQ(rowWiseRows(mean, mean.node(0)), 0);  // not costed a row
  for (const char* op : {"ReduceSum", "ReduceMax", "ReduceMin"}) {
    const Graph g = reduce(op, {4, 16, 2, 512}, {1, 2});
    EXPECT_EQ(efficiencyKey(g, g.node(0)), std::string(op) + "/middle");
    EXPECT_TRUE(isEfficiencyVariant(std::string(op) + "/middle"));
  }
  for (const Graph& g :
       {reduce("ReduceMean", {32, 8, 64}, {2}), reduce("ReduceMean", {32, 8, 1}, {1}),
        reduce("ReduceMean", {32, 8, 64}, {1, 2}), reduce("ReduceLogSumExp", {32, 8, 64}, {1})})
    EXPECT_EQ(efficiencyKey(g, g.node(0)), g.node(0).opType);
  // fwb calibrate times the three at both sizes (the tiny case keyed as the normal one).
  for (const CaseSize& z : {CaseSize::normal(), CaseSize::tiny()}) {
    std::set<std::string> keys;
    for (const auto& c : familyCases(z)) {
      const Graph& g = *c.bench.model.graph;
      const std::string key = efficiencyKey(g, g.node(c.bench.node));
      if (key.size() > 7 && key.compare(key.size() - 7, 7, "/middle") == 0) keys.insert(key);
    }
    EXPECT_EQ(keys, (std::set<std::string>{"ReduceMax/middle", "ReduceMean/middle", "ReduceSum/middle"}));
  }
  // On a profile with both, the middle-axis mean costs by its own.
  EXPECT_GT(firstKernelUsWith(mean, {{"ReduceMean", 0.04}, {"ReduceMean/middle", 0.01}}),
            2 * firstKernelUsWith(mean, {{"ReduceMean", 0.04}}));
}

// One Pad of `dims` by `pads` (constant pads as an initializer), its output shape stored.
Graph padGraph(std::vector<int64_t> dims, std::vector<int64_t> pads, const std::string& mode = "") {
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(dims));
  std::vector<int64_t> od = dims;
  for (size_t d = 0; d < dims.size(); ++d) od[d] += pads[d] + pads[d + dims.size()];
  ValueId p = g.addInitializer("pads", Tensor::int64s({static_cast<int64_t>(pads.size())}, pads));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(od));
  g.addNode("Pad", {x, p}, {y},
            mode.empty() ? Attributes{} : zoo::attrs({Attribute::makeString("mode", mode)}), "p");
  g.addOutput(y);
  return g;
}

// Pad copies row by row along the last axis: a Pad that keeps the last axis, or whose rows are long, has
// its own efficiency ("Pad/rows"), which fwb calibrate measures; the cost follows it.
TEST(CpuCost, APadThatKeepsTheLastAxisHasItsOwnEfficiency) {
  auto pad = [](std::vector<int64_t> dims, std::vector<int64_t> pads) { return padGraph(dims, pads); };
  Graph nchw = pad({1, 32, 32, 32}, {0, 0, 1, 1, 0, 0, 1, 1});
  Graph nhwc = pad({1, 32, 32, 32}, {0, 1, 1, 0, 0, 1, 1, 0});
  EXPECT_EQ(efficiencyKey(nchw, nchw.node(0)), "Pad");
  EXPECT_EQ(efficiencyKey(nhwc, nhwc.node(0)), "Pad/rows");
  EXPECT_EQ(padRows(nhwc, nhwc.node(0))->length, 32);
  EXPECT_EQ(padRows(nchw, nchw.node(0))->length, 34);
  // Padded rows of 128 or more elements copy at the long rows' rate too (a causal 1-D pad of 256 + 2).
  Graph causal = pad({8, 64, 256}, {0, 0, 2, 0, 0, 0});
  Graph shortRows = pad({8, 64, 120}, {0, 0, 2, 0, 0, 0});
  EXPECT_EQ(efficiencyKey(causal, causal.node(0)), "Pad/rows");
  EXPECT_EQ(efficiencyKey(shortRows, shortRows.node(0)), "Pad");
  EXPECT_TRUE(isEfficiencyVariant("Pad/rows"));
  // fwb calibrate times one Pad of each kind.
  std::vector<std::string> keys;
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& g = *c.bench.model.graph;
    if (g.node(c.bench.node).opType == "Pad") keys.push_back(efficiencyKey(g, g.node(c.bench.node)));
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"Pad", "Pad/rows"}));
  // On a profile with both, a Pad that keeps the last axis costs by its own, of as many elements.
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Pad", 0.008}, {"Pad/rows", 0.05}};
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  const double padded = test::runUnfused(nchw, *hw).kernels.at(0).durUs;
  const double kept = test::runUnfused(nhwc, *hw).kernels.at(0).durUs;
  EXPECT_LT(kept, 0.5 * padded);
  // A Pad by zeros everywhere (pads from a Constant node, as PyTorch exports before a pooling) is a view.
  {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({64, 6, 28, 28}));
    ValueId p = g.addValue("pads", DType::Int64, Shape::ofInts({8}));
    g.addNode("Constant", {}, {p},
              zoo::attrs({Attribute::makeTensor("value", Tensor::int64s({8}, std::vector<int64_t>(8, 0)))}),
              "k");
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({64, 6, 28, 28}));
    g.addNode("Pad", {x, p}, {y}, {}, "p");
    g.addOutput(y);
    EXPECT_TRUE(padRows(g, g.node(1))->none);
    EXPECT_EQ(nodeFamily(g, g.node(1)), OpFamily::View);
    EXPECT_FALSE(padRows(nchw, nchw.node(0))->none);
  }
  // Pads computed in the graph (a TensorFlow-style "same" pad worked out from the input's shape): an
  // output of the input's shape is the input, handed out (pads of 0); a larger one a copy.
  for (const bool same : {true, false}) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({8, 16, 56, 56}));
    ValueId p = g.addInput("pads", DType::Int64, Shape::ofInts({8}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({8, 16, same ? 56 : 57, same ? 56 : 57}));
    g.addNode("Pad", {x, p}, {y}, {}, "p");
    g.addOutput(y);
    EXPECT_EQ(padRows(g, g.node(0))->none, same);
    EXPECT_EQ(nodeFamily(g, g.node(0)) == OpFamily::View, same);
    EXPECT_EQ(rowWiseRows(g, g.node(0)), same ? 0 : 8 * 16 * 57);
  }
  // Without it (an older profile), the Pad's own.
  j["cpu"]["op_efficiency"] = {{"Pad", 0.008}};
  auto old = parseHwProfile(j, "t.json");
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_NEAR(test::runUnfused(nhwc, *old).kernels.at(0).durUs, padded, 0.05 * padded);
}

// A Pad of the [N,C,H,W] kind steps through its output row by row, each row's source looked up and its
// parts copied apart (core/exec/ops_tensor.cpp: opPad): its rows pay the profile's time a row
// ("Pad" in cpu.op_row_s, timed by fwb calibrate on [1, 2312, 2, 2] to 4x4 beside the family case's
// [1, 32, 32, 32], as many values out). Inception-v3's pads of [2, 2048, 3, 3] to 5x5 took 90 us alone, 24
// simulated at the elements' rate alone (session 77). A "Pad/rows" kind's rows are in its elements' rate.
TEST(CpuCost, APadOfSmallPlanesPaysItsRows) {
  auto pad = [](std::vector<int64_t> dims, std::vector<int64_t> pads, std::string mode = "constant") {
    return padGraph(dims, pads, mode);
  };
  const Graph small = pad({2, 2048, 3, 3}, {0, 0, 1, 1, 0, 0, 1, 1});
  EXPECT_EQ(rowWiseRows(small, small.node(0)), 2 * 2048 * 5);  // every output row
  // Blocks of the axes before the last two that lie in a constant pad are one fill each; an edge pad's
  // take their source's rows.
  const Graph channels = pad({2, 8, 3, 3}, {0, 2, 1, 1, 0, 1, 1, 1});
  EXPECT_EQ(rowWiseRows(channels, channels.node(0)), 2 * 3 + 2 * 8 * 5);
  const Graph edge = pad({2, 8, 3, 3}, {0, 2, 1, 1, 0, 1, 1, 1}, "edge");
  EXPECT_EQ(rowWiseRows(edge, edge.node(0)), 2 * 11 * 5);
  // A crop of the channels leaves fewer blocks, each a source.
  const Graph crop = pad({2, 8, 3, 3}, {0, -2, 1, 1, 0, 0, 1, 1});
  EXPECT_EQ(rowWiseRows(crop, crop.node(0)), 2 * 6 * 5);
  // The "Pad/rows" kinds (the last axis kept, or rows of 128 or more) and a Pad by zeros: none.
  const Graph nhwc = pad({2, 6, 6, 64}, {0, 1, 1, 0, 0, 1, 1, 0});
  const Graph causal = pad({8, 64, 256}, {0, 0, 2, 0, 0, 0});
  const Graph zeros = pad({2, 8, 3, 3}, std::vector<int64_t>(8, 0));
  EXPECT_EQ(rowWiseRows(nhwc, nhwc.node(0)), 0);
  EXPECT_EQ(rowWiseRows(causal, causal.node(0)), 0);
  EXPECT_EQ(rowWiseRows(zeros, zeros.node(0)), 0);
  // A crop past an axis's length (an invalid model) counts no negative rows.
  const Graph overCrop = pad({2, 8, 3, 3}, {0, 0, -2, 1, 0, 0, -2, 1});
  EXPECT_EQ(rowWiseRows(overCrop, overCrop.node(0)), 0);
  // A rank-1 Pad is one row.
  const Graph line = pad({100}, {3, 4});
  EXPECT_EQ(rowWiseRows(line, line.node(0)), 1);
  // fwb calibrate times a Pad of short rows beside its family case, as many values out, more rows.
  int64_t familyRows = -1, familyOut = -1, shortRows = -1, shortOut = -1;
  auto outValues = [](const Graph& g, const Node& n) {
    const auto in = *g.value(n.inputs[0]).shape.ints();
    const Tensor* t = g.constantOf(n.inputs[1]);
    EXPECT_NE(t, nullptr);
    const std::vector<int64_t> p = t ? t->toInt64s() : std::vector<int64_t>(2 * in.size(), 0);
    int64_t v = 1;
    for (size_t d = 0; d < in.size(); ++d) v *= in[d] + p[d] + p[d + in.size()];
    return v;
  };
  for (const auto& c : familyCases(CaseSize::normal())) {
    const Graph& g = *c.bench.model.graph;
    const Node& n = g.node(c.bench.node);
    if (n.opType == "Pad" && efficiencyKey(g, n) == "Pad") {
      familyRows = rowWiseRows(g, n);
      familyOut = outValues(g, n);
    }
  }
  if (const FamilyCase* c = rowCaseOf("Pad")) {
    const Graph& g = *c->bench.model.graph;
    EXPECT_EQ(c->key, "Pad");
    shortRows = rowWiseRows(g, g.node(c->bench.node));
    shortOut = outValues(g, g.node(c->bench.node));
  }
  EXPECT_EQ(familyRows, 32 * 34);
  EXPECT_EQ(shortRows, 2312 * 4);
  EXPECT_EQ(shortOut, familyOut);
  // The rows pay the profile's time a row on top; the "Pad/rows" kind does not.
  const auto more = rowTimeUs({&small, &nhwc}, {{"Pad", 0.001}, {"Pad/rows", 0.001}}, {{"Pad", 4e-9}});
  ASSERT_EQ(more.size(), 2u);
  EXPECT_NEAR(more[0], 2 * 2048 * 5 * 4e-3, 1e-6);
  EXPECT_NEAR(more[1], 0.0, 1e-9);
}

// An Add, Sub, Mul or Div of the whole output and one element runs on the executor's own loop: its key is
// "<Op>/scalar"; two whole operands, a per-channel operand or a one-element output keep the op type.
TEST(CpuCost, ABinaryOpWithAScalarOperandHasItsOwnEfficiency) {
  auto binary = [](const char* op, std::vector<int64_t> a, std::vector<int64_t> b, std::vector<int64_t> y) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(a));
    int64_t nb = 1;
    for (int64_t d : b) nb *= d;
    ValueId c = g.addInitializer("c", Tensor::floats(b, std::vector<float>(static_cast<size_t>(nb), 1.5f)));
    ValueId out = g.addValue("y", DType::Float32, Shape::ofInts(y));
    g.addNode(op, {x, c}, {out}, {}, "n");
    g.addOutput(out);
    return g;
  };
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    Graph s = binary(op, {1, 96, 12, 80}, {}, {1, 96, 12, 80});
    EXPECT_EQ(efficiencyKey(s, s.node(0)), std::string(op) + "/scalar");
    EXPECT_TRUE(isEfficiencyVariant(std::string(op) + "/scalar"));
  }
  Graph one = binary("Mul", {1, 96, 12, 80}, {1, 1, 1, 1}, {1, 96, 12, 80});
  EXPECT_EQ(efficiencyKey(one, one.node(0)), "Mul/scalar");  // a [1,1,1,1] operand is one element too
  Graph same = binary("Mul", {2, 8}, {2, 8}, {2, 8});
  EXPECT_EQ(efficiencyKey(same, same.node(0)), "Mul");
  Graph channel = binary("Mul", {1, 96, 12, 80}, {1, 96, 1, 1}, {1, 96, 12, 80});
  EXPECT_EQ(efficiencyKey(channel, channel.node(0)), "Mul");
  Graph both = binary("Mul", {1}, {}, {1});
  EXPECT_EQ(efficiencyKey(both, both.node(0)), "Mul");
  EXPECT_FALSE(isEfficiencyVariant("Max/scalar"));

  // The cost follows the variant when the profile measured it, and the op type's figure otherwise.
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"] = {{"Mul", 0.001}};
  auto plain = parseHwProfile(j, "t.json");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  j["cpu"]["op_efficiency"] = {{"Mul", 0.001}, {"Mul/scalar", 0.1}};
  auto variant = parseHwProfile(j, "t.json");
  ASSERT_TRUE(variant.ok()) << variant.error().message;
  Graph s = binary("Mul", {1, 96, 12, 80}, {}, {1, 96, 12, 80});
  EXPECT_LT(test::runUnfused(s, *variant).kernels.at(0).durUs, test::runUnfused(s, *plain).kernels.at(0).durUs);
  EXPECT_DOUBLE_EQ(test::runUnfused(same, *variant).kernels.at(0).durUs, test::runUnfused(same, *plain).kernels.at(0).durUs);
  j["cpu"]["op_efficiency"] = {{"Max/scalar", 0.1}};
  auto bad = parseHwProfile(j, "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("Mul/scalar"), std::string::npos) << bad.error().message;
}

// A MaxPool without indices or an AveragePool is worked by the executor one spatial dim at a time
// (core/exec/ops_pool.cpp): its work is the taps of those passes, first dim first; a 1-tap dim at
// stride 1 costs no pass; a MaxPool with indices and every other op keep max(FLOPs, elements).
TEST(CpuCost, APoolsWorkIsTheTapsOfItsOneDimensionalPasses) {
  auto pool = [](const char* op, std::vector<int64_t> in, std::vector<int64_t> out, std::vector<int64_t> k,
                 std::vector<int64_t> strides, bool indices) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(in));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(out));
    std::vector<ValueId> outs{y};
    if (indices) outs.push_back(g.addValue("i", DType::Int64, Shape::ofInts(out)));
    std::vector<int64_t> pads(2 * k.size(), 0);
    for (size_t d = 0; d < k.size(); ++d) pads[d] = pads[k.size() + d] = k[d] / 2;
    g.addNode(op, {x}, outs,
              zoo::attrs({Attribute::makeInts("kernel_shape", k), Attribute::makeInts("strides", strides),
                          Attribute::makeInts("pads", pads)}),
              "p");
    g.addOutput(y);
    return g;
  };
  // 3x3x3 at stride 1 over 2 planes of 4x6x8: three passes over 384 elements, 3 taps each.
  Graph cube = pool("MaxPool", {1, 2, 4, 6, 8}, {1, 2, 4, 6, 8}, {3, 3, 3}, {1, 1, 1}, false);
  const double boxFlops = 384.0 * 27;
  EXPECT_DOUBLE_EQ(cpuVectorWork(cube, cube.node(0), boxFlops, 384, true), 3 * 384.0 * 3);
  Graph avg = pool("AveragePool", {1, 2, 4, 6, 8}, {1, 2, 4, 6, 8}, {3, 3, 3}, {1, 1, 1}, false);
  EXPECT_DOUBLE_EQ(cpuVectorWork(avg, avg.node(0), boxFlops, 384, true), 3 * 384.0 * 3);
  // [1, 3, 3] at stride [1, 2, 2] over 2 planes of 4x8x8: no pass along the first dim; the second pass
  // shrinks 4x8x8 to 4x4x8 (128 per plane), the third to 4x4x4 (64 per plane), 3 taps each.
  Graph half = pool("MaxPool", {1, 2, 4, 8, 8}, {1, 2, 4, 4, 4}, {1, 3, 3}, {1, 2, 2}, false);
  EXPECT_DOUBLE_EQ(cpuVectorWork(half, half.node(0), 128.0 * 9, 128, true), 2 * (128 + 64) * 3.0);
  // With indices the executor keeps the box loop: FLOPs as nodeCost counts them.
  Graph withIndices = pool("MaxPool", {1, 2, 4, 6, 8}, {1, 2, 4, 6, 8}, {3, 3, 3}, {1, 1, 1}, true);
  EXPECT_DOUBLE_EQ(cpuVectorWork(withIndices, withIndices.node(0), boxFlops, 384, true), boxFlops);
  // The cost follows: the 3x3x3 pool is charged a third of its box taps.
  auto hw = *parseHwProfile(cpuProfileJson(), "t.json");
  const double poolUs = test::runUnfused(cube, hw).kernels.at(0).durUs - hw.launchUs;
  const double boxUs = test::runUnfused(withIndices, hw).kernels.at(0).durUs - hw.launchUs;
  EXPECT_NEAR(poolUs / boxUs, 1.0 / 3.0, 0.05);
}

// A scatter's work is its data's copy and its updates' writes: a GNN-style scatter-add of 16384 rows of 64
// onto 2048 is 9x its output's elements (ScatterElements and ScatterND alike); updates of unknown shape leave
// the output's elements. A profile that prices a ScatterElements's copy apart counts its updates alone.
TEST(CpuCost, AScattersWorkCountsItsUpdates) {
  auto scatter = [](const char* op, std::vector<int64_t> data, std::vector<int64_t> idx, Shape upd) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(data));
    ValueId i = g.addInput("i", DType::Int64, Shape::ofInts(idx));
    ValueId u = g.addInput("u", DType::Float32, upd);
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(data));
    g.addNode(op, {x, i, u}, {y}, zoo::attrs({Attribute::makeString("reduction", "add")}), "s");
    g.addOutput(y);
    return g;
  };
  Graph gnn = scatter("ScatterElements", {2048, 64}, {16384, 64}, Shape::ofInts({16384, 64}));
  EXPECT_DOUBLE_EQ(cpuVectorWork(gnn, gnn.node(0), 0, 2048.0 * 64, false), 2048.0 * 64 * 9);
  EXPECT_DOUBLE_EQ(cpuVectorWork(gnn, gnn.node(0), 0, 2048.0 * 64, true), 2048.0 * 64 * 8);
  Graph nd = scatter("ScatterND", {2048, 64}, {16384, 1}, Shape::ofInts({16384, 64}));
  EXPECT_DOUBLE_EQ(cpuVectorWork(nd, nd.node(0), 0, 2048.0 * 64, true), 2048.0 * 64 * 9);
  Graph unknown = scatter("ScatterElements", {2048, 64}, {16384, 64}, Shape{});
  EXPECT_DOUBLE_EQ(cpuVectorWork(unknown, unknown.node(0), 0, 2048.0 * 64, true), 2048.0 * 64);
  // The cost follows: 8x the updates, several times the time.
  Graph few = scatter("ScatterElements", {2048, 64}, {2048, 64}, Shape::ofInts({2048, 64}));
  auto hw = *parseHwProfile(cpuProfileJson(), "t.json");
  EXPECT_GT(test::runUnfused(gnn, hw).kernels.at(0).durUs, 3 * test::runUnfused(few, hw).kernels.at(0).durUs);
}

// An op that writes more than it reads moves each output byte twice within the last-level cache (a line is
// fetched before it is written over): an Expand writing 8 MB from 256 B costs what a Relu 8 MB -> 8 MB does,
// both memory-bound. From twice the cache on, its output counts once: writing 96 MB costs well under a Relu
// over 96 MB.
TEST(CpuCost, AnOpWritingMoreThanItReadsMovesItsOutputTwiceWithinTheCache) {
  auto expand = [](int64_t rows) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, 64}));
    ValueId s = g.addInitializer("s", Tensor::int64s({2}, {rows, 64}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({rows, 64}));
    g.addNode("Expand", {x, s}, {y}, {}, "expand");
    g.addOutput(y);
    return g;
  };
  auto relu = [](int64_t rows) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({rows, 64}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({rows, 64}));
    g.addNode("Relu", {x}, {y}, {}, "relu");
    g.addOutput(y);
    return g;
  };
  json j = cpuProfileJson();                   // a 32 MB last-level cache
  j["cpu"]["op_efficiency"]["Expand"] = 50.0;  // both far faster than their bytes: memory-bound
  j["cpu"]["op_efficiency"]["Relu"] = 50.0;
  auto hw = parseHwProfile(j, "t.json");
  ASSERT_TRUE(hw.ok()) << hw.error().message;
  auto us = [&](const Graph& g) { return test::runUnfused(g, *hw).kernels.at(0).durUs - hw->launchUs; };
  const int64_t eightMb = 32768, ninetySixMb = 393216;  // rows of 64 floats
  EXPECT_NEAR(us(expand(eightMb)) / us(relu(eightMb)), 1.0, 0.1);
  EXPECT_LT(us(expand(ninetySixMb)), 0.6 * us(relu(ninetySixMb)));
  EXPECT_GT(us(expand(ninetySixMb)), 0.3 * us(relu(ninetySixMb)));
}

// A profile that timed a ScatterElements's rows (as fwb calibrate does since session 79) prices its data's
// copy at the copy's bandwidth and its updates at the op's rate, a row of them at the row's figure: a
// detector's RoI-pool level merge that writes no rows over [16, 256, 7, 7] costs about its copy, where an
// older profile charged the copied elements at the updates' rate; the same updates in rows of 7 cost their
// extra rows' time more than in rows of 49.
TEST(CpuCost, AScatterPaysItsDataCopyAtTheCopysBandwidthAndItsRowsApart) {
  auto merge = [](int64_t k, std::vector<int64_t> rowShape) {
    Graph g;
    std::vector<int64_t> data = {16, 256};
    data.insert(data.end(), rowShape.begin(), rowShape.end());
    std::vector<int64_t> upd = data;
    upd[0] = k;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts(data));
    int64_t n = 1;
    for (int64_t d : upd) n *= d;
    std::vector<int64_t> at(static_cast<size_t>(n));
    for (size_t j = 0; j < at.size(); ++j) at[j] = static_cast<int64_t>(j * 7 % 16);
    ValueId i = g.addInitializer("i", Tensor::int64s(upd, at));
    ValueId u = g.addInput("u", DType::Float32, Shape::ofInts(upd));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts(data));
    g.addNode("ScatterElements", {x, i, u}, {y}, zoo::attrs({Attribute::makeInt("axis", 0)}), "merge");
    g.addOutput(y);
    return g;
  };
  json j = cpuProfileJson();
  j["cpu"]["op_efficiency"]["ScatterElements"] = 0.01;
  auto older = parseHwProfile(j, "t.json");
  ASSERT_TRUE(older.ok()) << older.error().message;
  j["cpu"]["op_row_s"]["ScatterElements"] = 5e-9;
  auto apart = parseHwProfile(j, "t.json");
  ASSERT_TRUE(apart.ok()) << apart.error().message;
  ASSERT_TRUE(scatterCopyApart(apart->cpu));
  ASSERT_FALSE(scatterCopyApart(older->cpu));
  const double dataBytes = 16.0 * 256 * 49 * 4;
  const double copyUs = scatterCopySeconds(dataBytes, apart->cpu) * 1e6;
  ASSERT_GT(copyUs, 0.0);
  const Graph none = merge(0, {7, 7});
  const double olderUs = test::runUnfused(none, *older).kernels.at(0).durUs;
  const double apartUs = test::runUnfused(none, *apart).kernels.at(0).durUs;
  EXPECT_GE(olderUs, 16.0 * 256 * 49 / (older->cpu.gemmFlops * 0.01) * 1e6);
  EXPECT_GE(apartUs, copyUs);
  EXPECT_LT(apartUs, olderUs / 3);
  // Four rows of updates: 4 x 256 x 7 rows of 7, or 4 x 256 rows of 49.
  const double sevens = test::runUnfused(merge(4, {7, 7}), *apart).kernels.at(0).durUs;
  const double fortyNines = test::runUnfused(merge(4, {49}), *apart).kernels.at(0).durUs;
  EXPECT_NEAR(sevens - fortyNines, (4.0 * 256 * 7 - 4.0 * 256) * 5e-9 * 1e6, 0.05);
}

// --- op_summary importer -------------------------------------------------------------------------

const char* kHeader =
    "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),"
    "Task Wait Time(us),Block Dim,Input Shapes\n";

TEST(OpSummary, ReadsDocumentedColumnsAndSumsLaunches) {
  const std::string text = std::string("\xEF\xBB\xBF") + kHeader +
                           "0,1,3,2,conv1,Conv2D,AI_CORE,1700000000000.100\t,12.5,0,24,\"1,3,224,224;64,3,7,7\"\r\n"
                           "0,1,4,2,relu1,Relu,AI_VECTOR_CORE,1700000000013.000\t,2.25,0.4,48,\"1,64,112,112\"\r\n"
                           "0,1,5,2,conv1,Conv2D,AI_CORE,1700000000016.000\t,7.5,0,24,\"1,3,224,224;64,3,7,7\"\r\n"
                           "\n";
  auto r = parseOpSummaryCsv(text, "op_summary_0_1.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->byNode);
  ASSERT_EQ(r->kernels.size(), 2u);
  EXPECT_EQ(r->kernels[0].name, "conv1");
  EXPECT_DOUBLE_EQ(r->kernels[0].us, 20.0);  // two launches
  EXPECT_EQ(r->kernels[0].ops, std::vector<std::string>{"Conv2D"});
  EXPECT_DOUBLE_EQ(r->kernels[1].us, 2.25);
  EXPECT_DOUBLE_EQ(r->totalUs, 22.25);
  // CANN 5.x/6.0 spelled the columns without the unit.
  auto old = parseOpSummaryCsv("Op Name,OP Type,Task Duration\nfc,MatMul,3\n", "old.csv");
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_DOUBLE_EQ(old->kernels[0].us, 3.0);
}

void expectRefused(const std::string& text, const std::vector<std::string>& parts) {
  auto r = parseOpSummaryCsv(text, "bad.csv");
  ASSERT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.error().code, ErrorCode::BadInput);
  for (const auto& p : parts) EXPECT_NE(r.error().message.find(p), std::string::npos) << r.error().message;
}

TEST(OpSummary, RefusesMalformedFilesNamingLineAndColumn) {
  expectRefused("", {"bad.csv", "empty file"});
  expectRefused("a,b,c\n1,2,3\n", {"bad.csv:1", "no 'Op Name' column"});
  expectRefused("Op Name,OP Type\nx,Add\n", {"bad.csv:1", "no 'Task Duration(us)' column"});
  expectRefused(kHeader, {"bad.csv", "no operator rows"});
  expectRefused(std::string(kHeader) + "0,1,3,2,conv1,Conv2D,AI_CORE,1,2\n", {"bad.csv:2", "9 fields, the header 12"});
  expectRefused(std::string(kHeader) + "0,1,3,2,conv1,Conv2D,AI_CORE,1,abc,0,24,x\n",
                {"bad.csv:2", "column 9 ('Task Duration(us)')", "'abc'"});
  expectRefused(std::string(kHeader) + "0,1,3,2,conv1,Conv2D,AI_CORE,1,-4,0,24,x\n", {"bad.csv:2", "non-negative"});
  expectRefused(std::string(kHeader) + "0,1,3,2,conv1,Conv2D,AI_CORE,1,4,0,24,x\n0,1,3,2,,Relu,AI_CORE,1,4,0,24,x\n",
                {"bad.csv:3", "column 5 ('Op Name')", "empty operator name"});
  expectRefused(std::string(kHeader) + "0,1,3,2,conv1,Conv2D,AI_CORE,1,4,zero,24,x\n",
                {"bad.csv:2", "column 10 ('Task Wait Time(us)')"});
  expectRefused(std::string(kHeader) + "0,1,3,2,conv1,Conv2D,AI_CORE,1,4,0,24,\"1,3\n", {"bad.csv:2", "never closed"});
  expectRefused("Op Name,Task Duration(us),Op Name\nx,1,y\n", {"bad.csv:1", "column 3 ('Op Name')", "twice"});
  auto missing = loadOpSummaryCsv("/nonexistent/op_summary.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/op_summary.csv"), std::string::npos) << missing.error().message;
}

// --- generated op summaries and the fit ---------------------------------------------------------

Model zoo(const std::string& spec, int64_t batch = 1) {
  ZooParams p;
  p.batch = batch;
  if (spec == "resnet50") p.image = batch > 1 ? 224 : 64;
  if (spec == "bert") {
    p.layers = 2;
    p.seq = batch > 1 ? 128 : 64;
  }
  auto m = buildZooModel(spec, p);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

TEST(OpSummary, GeneratedSummaryMatchesEveryTimedKernelAndReportsStrangers) {
  Model m = zoo("resnet50");
  const Graph& g = *m.graph;
  auto hw = *resolveHwProfile("ascend910b2");
  auto sim = test::runUnfused(g, hw);
  std::string csv = synthesizeOpSummaryCsv(g, sim, hw, {0.05, 7});
  csv += "0,1,999,2,hccl_allreduce_1,N/A,static,HCCL,1700000000000.000\t,3.0,0,0,0,,,,,,\n";
  auto run = parseOpSummaryCsv(csv, "gen.csv");
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto match = matchOpSummary(*run, g, sim.kernels);
  size_t timed = 0;
  for (const auto& k : sim.kernels) timed += k.unit != Unit::None;
  EXPECT_EQ(match.matchedRows, timed);
  EXPECT_TRUE(match.unmatchedKernels.empty());
  ASSERT_EQ(match.unmatchedRows.size(), 1u);
  EXPECT_EQ(match.unmatchedRows[0], "hccl_allreduce_1");
  // Noise stays within ±5 % per row.
  for (size_t k = 0; k < sim.kernels.size(); ++k)
    if (match.kernelRows[k] > 0) {
      EXPECT_NEAR(match.kernelUs[k] / sim.kernels[k].durUs, 1.0, 0.0501);
    }
  // A framework scope prefix and a MindSpore "-opN" suffix still match.
  MeasuredRun scoped;
  scoped.kernels.push_back({"Default/network/" + sim.kernels[0].nodes[0] + "-op12", {}, 5.0, -1, -1, {}});
  auto ms = matchOpSummary(scoped, g, sim.kernels);
  EXPECT_EQ(ms.matchedRows, 1u);
}

TEST(ProfileFit, RecoversKnownFieldsFromNoisyGeneratedSummaries) {
  // The board is a 910B2 whose uncertain fields differ from the shipped guesses; the fit starts from the
  // shipped profile and sees only a noisy op summary of ResNet-50 and of BERT.
  const auto shipped = *resolveHwProfile("ascend910b2");
  HwProfile truth = shipped;
  ASSERT_TRUE(setProfileField(truth, "launch_us", 3.5).ok());
  ASSERT_TRUE(setProfileField(truth, "hbm_bandwidth_bytes_per_s", 1.1e12).ok());
  ASSERT_TRUE(setProfileField(truth, "efficiency.cube", 0.6).ok());
  ASSERT_TRUE(setProfileField(truth, "efficiency.elementwise", 0.05).ok());
  // Softmax at 30 % stays memory-bound on this chip: the fit must say it cannot tell, not invent a value.
  ASSERT_TRUE(setProfileField(truth, "efficiency.softmax", 0.3).ok());
  for (const std::string name : {"resnet50", "bert"}) {
    Model m = zoo(name, 8);  // batch 8: enough work that the cube's speed shows in the times
    const Graph& g = *m.graph;
    auto groups = *unfusedGroups(g);
    auto sim = test::run(g, groups, truth);
    auto run = parseOpSummaryCsv(synthesizeOpSummaryCsv(g, sim, truth, {0.05, 11}), name + ".csv");
    ASSERT_TRUE(run.ok()) << run.error().message;
    auto fit = fitProfile(g, groups, shipped, *run);
    ASSERT_TRUE(fit.ok()) << fit.error().message;
    EXPECT_GT(fit->kernelsUsed, 20u);
    EXPECT_LT(fit->rmsLogAfter, fit->rmsLogBefore) << name;
    EXPECT_LT(fit->rmsLogAfter, 0.05) << name;  // uniform ±5 % noise has an RMS of 2.9 %
    for (const auto& f : fit->fields) {
      std::printf("%s %-28s true %-10.4g fitted %-10.4g sensitivity %.3f std err %.3f %s\n", name.c_str(), f.field.c_str(),
                  *profileField(truth, f.field), f.after, f.sensitivity, f.stdErr, f.determined ? "determined" : "kept");
      const double want = *profileField(truth, f.field);
      SCOPED_TRACE(name + " " + f.field + ": fitted " + std::to_string(f.after) + ", true " + std::to_string(want) +
                   ", sensitivity " + std::to_string(f.sensitivity) + ", std err " + std::to_string(f.stdErr));
      if (f.determined) EXPECT_NEAR(f.after / want, 1.0, 0.10);
      else EXPECT_EQ(f.after, f.before);
    }
    auto det = [&](const std::string& field) {
      for (const auto& f : fit->fields)
        if (f.field == field) return f.determined;
      return false;
    };
    // The launch cost, the bandwidth and the cube's efficiency shape every such model's times.
    EXPECT_TRUE(det("launch_us")) << name;
    EXPECT_TRUE(det("hbm_bandwidth_bytes_per_s")) << name;
    EXPECT_TRUE(det("efficiency.cube")) << name;
    // At 5 % the vector unit is slow enough that elementwise ops become vector-bound: the data show it.
    EXPECT_TRUE(det("efficiency.elementwise")) << name;
  }
}

// A NonMaxSuppression's rows (cpu.op_row_s) are its box pairs: N candidates a list against the K kept, N K /
// 2 summed over the lists. K is the output's rows when known (a traced run), else every list's bound, min(N,
// max_output_boxes_per_class); without that input none is selected.
TEST(CpuCost, NonMaxSuppressionsRowsAreItsBoxPairs) {
  auto graph = [](std::optional<int64_t> kept, std::optional<int64_t> maxOut) {
    Graph g;
    ValueId b = g.addInput("boxes", DType::Float32, Shape::ofInts({2, 300, 4}));
    ValueId s = g.addInput("scores", DType::Float32, Shape::ofInts({2, 3, 300}));
    std::vector<ValueId> ins = {b, s};
    if (maxOut) ins.push_back(g.addInitializer("max", Tensor::int64s({1}, {*maxOut})));
    ValueId y =
        g.addValue("sel", DType::Int64, kept ? Shape::ofInts({*kept, 3}) : Shape({Dim::sym("k"), Dim(3)}));
    g.addNode("NonMaxSuppression", ins, {y}, {}, "nms");
    g.addOutput(y);
    return g;
  };
  const Graph traced = graph(120, 50), bounded = graph(std::nullopt, 50), few = graph(std::nullopt, 1000),
              none = graph(std::nullopt, std::nullopt);
  EXPECT_EQ(rowWiseRows(traced, traced.node(0)), 300 * 120 / 2);
  EXPECT_EQ(rowWiseRows(bounded, bounded.node(0)), 300 * 6 * 50 / 2);
  EXPECT_EQ(rowWiseRows(few, few.node(0)), 300 * 6 * 300 / 2);
  EXPECT_EQ(rowWiseRows(none, none.node(0)), 0);
  HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  hw.cpu.opEfficiency["NonMaxSuppression"] = 0.001;  // compute-bound: its rows show
  const double without = test::runUnfused(traced, hw).kernels.at(0).durUs;
  hw.cpu.opRowS["NonMaxSuppression"] = 1e-9;
  EXPECT_NEAR(test::runUnfused(traced, hw).kernels.at(0).durUs - without, 18000 * 1e-3, 1e-6);
}

// A Slice copies its output's rows: a frame of 400 samples from each of 4 waveforms costs the same whether
// the waveforms are 800 or 160000 samples long (6.4 KB moved either way, not 2.56 MB read).
TEST(CpuCost, ASliceReadsItsOutputsBytesFromItsData) {
  auto graph = [](int64_t len) {
    Graph g;
    ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({4, len}));
    ValueId starts = g.addInitializer("starts", Tensor::int64s({1}, {160}));
    ValueId ends = g.addInitializer("ends", Tensor::int64s({1}, {560}));
    ValueId axes = g.addInitializer("axes", Tensor::int64s({1}, {1}));
    ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({4, 400}));
    g.addNode("Slice", {x, starts, ends, axes}, {y}, {}, "slice");
    g.addOutput(y);
    return g;
  };
  HwProfile hw = *parseHwProfile(cpuProfileJson(), "t.json");
  hw.cpu.opEfficiency["Slice"] = 10.0;  // memory-bound: its bytes show
  const auto shortOnes = test::runUnfused(graph(800), hw).kernels.at(0);
  const auto longOnes = test::runUnfused(graph(160000), hw).kernels.at(0);
  EXPECT_EQ(longOnes.transferCycles, shortOnes.transferCycles);
  EXPECT_NEAR(longOnes.durUs, shortOnes.durUs, 1e-9);
  EXPECT_GT(longOnes.transferCycles, 0);
}

}  // namespace
}  // namespace fw::sim
