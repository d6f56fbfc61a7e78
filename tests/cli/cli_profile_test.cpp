// End-to-end: fwb profile measures the kernels fwb simulate times, under the same names, and
// fwb simulate --measured sets the two side by side (machinery, not speed: no timing is asserted).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/onnx/OnnxIO.h"
#include "tests/cli/CliRunner.h"

namespace fs = std::filesystem;

namespace {
const std::string kModel = "'zoo:resnet50?image=32'";
fs::path scratchDir(const char* tag) { return cliScratchDir("profile", tag); }
nlohmann::json readJson(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }
}  // namespace

TEST(CliProfile, KernelNamesLineUpWithSimulateAtO0AndO2) {
  const auto dir = scratchDir("names");
  for (int level : {0, 2}) {
    const std::string L = std::to_string(level);
    const auto prof = dir / ("p" + L + ".json"), sim = dir / ("s" + L + ".json"), trace = dir / ("t" + L + ".json");
    auto p = runFwb("profile " + kModel + " -O " + L + " --threads 1 --repeat 2 --json " + prof.string() + " --trace " +
                    trace.string());
    ASSERT_EQ(p.exitCode, 0) << p.out;
    EXPECT_NE(p.out.find("measured us"), std::string::npos) << p.out;
    auto pj = readJson(prof);
    EXPECT_EQ(pj["opt_level"].get<int>(), level);
    EXPECT_EQ(pj["threads"].get<int>(), 1);
    EXPECT_GT(pj["total_us"].get<double>(), 0.0);
    auto s = runFwb("simulate " + kModel + " -O " + L + " --json " + sim.string());
    ASSERT_EQ(s.exitCode, 0) << s.out;
    auto sj = readJson(sim);

    std::set<std::string> measured, simulated;
    for (const auto& k : pj["kernels"]) {
      EXPECT_TRUE(measured.insert(k["name"].get<std::string>()).second) << "duplicate " << k["name"];
      EXPECT_FALSE(k["ops"].empty());
      EXPECT_GE(k["measured_us"].get<double>(), 0.0);
    }
    for (const auto& k : sj["kernels"]) simulated.insert(k["name"].get<std::string>());
    EXPECT_EQ(measured, simulated) << "level " << level;
    // The ops and the nodes of each kernel agree too.
    std::map<std::string, nlohmann::json> simOps, simNodes;
    for (const auto& k : sj["kernels"]) {
      simOps[k["name"].get<std::string>()] = k["ops"];
      simNodes[k["name"].get<std::string>()] = k["nodes"];
    }
    for (const auto& k : pj["kernels"]) {
      EXPECT_EQ(k["ops"], simOps[k["name"].get<std::string>()]) << k["name"];
      EXPECT_EQ(k["nodes"], simNodes[k["name"].get<std::string>()]) << k["name"];
    }

    int events = 0;
    const auto tj = readJson(trace);
    for (const auto& e : tj["traceEvents"]) events += e["ph"] == "X";
    EXPECT_EQ(events, static_cast<int>(pj["kernels"].size()));

    // simulate --measured: every kernel matched, the accuracy in the JSON, a measured CSV column.
    const auto withAcc = dir / ("a" + L + ".json"), csv = dir / ("a" + L + ".csv");
    auto a = runFwb("simulate " + kModel + " -O " + L + " --measured " + prof.string() + " --json " + withAcc.string() +
                    " --csv " + csv.string() + " --rows 3");
    ASSERT_EQ(a.exitCode, 0) << a.out;
    EXPECT_NE(a.out.find("measured (host) us"), std::string::npos) << a.out;
    EXPECT_NE(a.out.find("rank correlation"), std::string::npos) << a.out;
    auto acc = readJson(withAcc)["accuracy"];
    EXPECT_EQ(acc["matched"].get<size_t>(), pj["kernels"].size());
    EXPECT_TRUE(acc["unmatched_measured"].empty());
    EXPECT_TRUE(acc["unmatched_simulated"].empty());
    EXPECT_TRUE(acc["other_plan"].empty());
    for (const char* key : {"median_abs_err", "mean_abs_err", "total_err", "spearman"}) EXPECT_TRUE(acc.contains(key)) << key;
    // The profile timed the machine's speed before and after its runs; the built-in profile has no probe.
    for (const char* key : {"call", "stream", "product"})
      EXPECT_GT(pj["speed_probe_us"][key].get<double>(), 0.0) << key;
    EXPECT_GT(pj["speed_probe_drift"].get<double>(), 0.0);
    EXPECT_TRUE(acc["machine_time_ratio"].is_null());
    std::ifstream c(csv);
    std::string header;
    std::getline(c, header);
    EXPECT_NE(header.find(",measured_us,measured_on,"), std::string::npos) << header;
    EXPECT_EQ(readJson(withAcc)["measured"]["label"], "measured (host)");
  }
  fs::remove_all(dir);
}

// A calibration whose speed probe is far from the measured run's: fwb simulate --measured says the errors
// mix two machine states (here the probe of a machine 1000x slower than any).
TEST(CliProfile, SimulateSaysWhenTheMeasuredRunAndTheCalibrationRanInOtherMachineStates) {
  const auto dir = scratchDir("probe");
  const auto prof = dir / "p.json", hw = dir / "hw.json", out = dir / "s.json";
  auto p = runFwb("profile " + kModel + " -O 0 --threads 1 --repeat 2 --json " + prof.string());
  ASSERT_EQ(p.exitCode, 0) << p.out;
  nlohmann::json j = nlohmann::json::parse(R"({
    "name": "slowcpu", "kind": "cpu", "dtype": "float32", "clock_hz": 2.0e9, "cube_cores": 1, "vector_cores": 1,
    "cpu": {"gemm_flops_per_s": 1.0e11, "conv_flops_per_s": 5.0e10, "cache_bandwidth_bytes_per_s": 1.0e11,
            "speed_probe_us": {"call": 500000, "stream": 500000, "product": 500000}},
    "l2_bytes": 33554432, "hbm_bandwidth_bytes_per_s": 1.0e10, "hbm_capacity_bytes": 1.0e10,
    "launch_us": 2.0, "host_dispatch_us": 0, "efficiency": {"elementwise": 0.1, "reduction": 0.02}, "notes": []})");
  std::ofstream(hw) << j.dump();
  auto s = runFwb("simulate " + kModel + " -O 0 --hw " + hw.string() + " --measured " + prof.string() +
                  " --json " + out.string());
  ASSERT_EQ(s.exitCode, 0) << s.out;
  EXPECT_NE(s.out.find("another state"), std::string::npos) << s.out;
  const double ratio = readJson(out)["accuracy"]["machine_time_ratio"].get<double>();
  EXPECT_GT(ratio, 0.0);
  EXPECT_LT(ratio, 0.5);
  fs::remove_all(dir);
}

TEST(CliProfile, MalformedMeasuredRunIsBadInput) {
  const auto dir = scratchDir("bad");
  const auto bad = dir / "broken.json";
  std::ofstream(bad) << R"({"model":"m","opt_level":2,"threads":1,"total_us":3,"kernels":[{"name":"a","measured_us":"slow"}]})";
  auto r = runFwb("simulate " + kModel + " --measured " + bad.string());
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("broken.json: kernels[0].measured_us"), std::string::npos) << r.out;
  const auto garbage = dir / "garbage.json";
  std::ofstream(garbage) << "{";
  r = runFwb("simulate " + kModel + " --measured " + garbage.string());
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("garbage.json: not valid JSON"), std::string::npos) << r.out;
  r = runFwb("simulate " + kModel + " --measured " + (dir / "missing.json").string());
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("missing.json"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(CliProfile, BoardOpSummaryMatchesThroughOriginalNodeNames) {
  // An op summary as a board's profiler writes it: one row per original node (times: the simulated
  // share of its kernel, x 1.5) plus a row naming no node. Every kernel is matched; the error is -1/3.
  const auto dir = scratchDir("board");
  const auto sim = dir / "s.json", csv = dir / "op_summary_0.csv", out = dir / "a.json";
  auto s = runFwb("simulate " + kModel + " -O 2 --json " + sim.string());
  ASSERT_EQ(s.exitCode, 0) << s.out;
  const auto sj = readJson(sim);
  {
    std::ofstream f(csv);
    f << "Op Name,OP Type,Task Duration(us)\n";
    for (const auto& k : sj["kernels"]) {
      const double share = k["dur_us"].get<double>() * 1.5 / static_cast<double>(k["origins"].size());
      for (const auto& o : k["origins"]) f << o.get<std::string>() << ",X," << share << "\n";
    }
    f << "NotANode_99,X,3.0\n";
  }
  auto a = runFwb("simulate " + kModel + " -O 2 --measured " + csv.string() + " --json " + out.string());
  ASSERT_EQ(a.exitCode, 0) << a.out;
  const auto acc = readJson(out)["accuracy"];
  size_t device = 0;
  for (const auto& k : sj["kernels"]) device += k["dur_us"].get<double>() > 0;
  EXPECT_EQ(acc["scored"].get<size_t>(), device);
  EXPECT_NEAR(acc["median_abs_err"].get<double>(), 1.0 / 3.0, 1e-3);
  EXPECT_NEAR(acc["spearman"].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(acc["unmatched_measured"], nlohmann::json::array({"NotANode_99"}));
  fs::remove_all(dir);
}

namespace {
// x[4,8] -> If(ReduceSum(x) > 0) { then: Mul(x, 2) -> Relu } { else: Neg(x) -> Abs } -> Sigmoid.
std::string writeBranchModel(const fs::path& dir) {
  auto branch = [](const char* a, const char* b, const char* tag, bool scale) {
    auto g = std::make_shared<fw::Graph>();
    auto x = g->addValue("x");  // the outer graph's input
    auto t = g->addValue(std::string(tag) + "_t"), o = g->addValue(std::string(tag) + "_out");
    if (scale) {
      auto two = g->addInitializer(std::string(tag) + "_two", fw::Tensor::floats({}, {2.0f}));
      g->addNode(a, {x, two}, {t}, {}, std::string(tag) + "_a");
    } else {
      g->addNode(a, {x}, {t}, {}, std::string(tag) + "_a");
    }
    g->addNode(b, {t}, {o}, {}, std::string(tag) + "_b");
    g->addOutput(o);
    return g;
  };
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32, fw::Shape::ofInts({4, 8}));
  auto s = g->addValue("s"), c = g->addValue("c"), t = g->addValue("t"), y = g->addValue("y");
  fw::Attributes ra;
  ra.set(fw::Attribute::makeInt("keepdims", 0));
  g->addNode("ReduceSum", {x}, {s}, ra, "sum");
  auto zero = g->addInitializer("zero", fw::Tensor::floats({}, {0.0f}));
  g->addNode("Greater", {s, zero}, {c}, {}, "positive");
  fw::Attributes ia;
  ia.set(fw::Attribute::makeGraph("then_branch", branch("Mul", "Relu", "then", true)));
  ia.set(fw::Attribute::makeGraph("else_branch", branch("Neg", "Abs", "else", false)));
  g->addNode("If", {c}, {t}, ia, "if0");
  g->addNode("Sigmoid", {t}, {y}, {}, "sigmoid");
  g->addOutput(y);
  fw::Model m;
  m.opsetImports = {{"", 13}};
  m.graph = g;
  const auto path = (dir / "branch.onnx").string();
  EXPECT_TRUE(fw::saveOnnxFile(m, path).ok());
  return path;
}
}  // namespace

TEST(CliProfile, ControlFlowBodiesAreTimedUnderTheSimulatedKernelNames) {
  const auto dir = scratchDir("bodies");
  const std::string model = writeBranchModel(dir);
  for (int level : {0, 2}) {
    const std::string L = std::to_string(level);
    const auto prof = dir / ("p" + L + ".json"), sim = dir / ("s" + L + ".json");
    auto p = runFwb("profile " + model + " -O " + L + " --threads 1 --repeat 2 --json " + prof.string());
    ASSERT_EQ(p.exitCode, 0) << p.out;
    auto a = runFwb("simulate " + model + " -O " + L + " --measured " + prof.string() + " --json " + sim.string());
    ASSERT_EQ(a.exitCode, 0) << a.out;
    const auto sj = readJson(sim), pj = readJson(prof);
    std::set<std::string> simulated;
    for (const auto& k : sj["kernels"]) simulated.insert(k["name"].get<std::string>());
    int inBody = 0;
    for (const auto& k : pj["kernels"]) {
      const std::string name = k["name"].get<std::string>();
      EXPECT_NE(name, "if0") << "the If's body rows stand for it";
      EXPECT_TRUE(simulated.count(name)) << name << " at -O" << L;
      inBody += name.rfind("if0/", 0) == 0;
    }
    EXPECT_GE(inBody, 1) << "-O" << L << "\n" << p.out;
    const auto acc = sj["accuracy"];
    EXPECT_TRUE(acc["unmatched_measured"].empty()) << acc.dump();
  }
  fs::remove_all(dir);
}

TEST(CliProfile, TimedRunsGoOnUntilTheMinimumTimeIsSpent) {
  // A run of the branch model takes microseconds: with --min-time, far more runs than --repeat are timed
  // (and reported); with both times 0 the counts are exact.
  const auto dir = scratchDir("mintime");
  const std::string model = writeBranchModel(dir);
  const auto timed = dir / "timed.json", exact = dir / "exact.json";
  auto p =
      runFwb("profile " + model +
             " --threads 1 --repeat 3 --min-time 0.2 --warmup 1 --warmup-time 0.05 --json " + timed.string());
  ASSERT_EQ(p.exitCode, 0) << p.out;
  const auto tj = readJson(timed);
  EXPECT_GT(tj["repeats"].get<int>(), 30) << tj.dump();
  EXPECT_GT(tj["warmup"].get<int>(), 1) << tj.dump();
  p = runFwb("profile " + model + " --threads 1 --repeat 3 --min-time 0 --warmup 2 --warmup-time 0 --json " +
             exact.string());
  ASSERT_EQ(p.exitCode, 0) << p.out;
  const auto ej = readJson(exact);
  EXPECT_EQ(ej["warmup"].get<int>(), 2);
  // Exactly 3 runs unless another tenant took time from one: then runs go on until 3 are whole (or the
  // least-stolen count).
  EXPECT_GE(ej.at("runs_timed").get<int>(), 3) << ej.dump();
  if (ej.at("runs_stolen").get<int>() == 0) {
    EXPECT_EQ(ej["repeats"].get<int>(), 3);
    EXPECT_EQ(ej["runs_timed"].get<int>(), 3);
  } else {
    EXPECT_GE(ej["repeats"].get<int>(), 3) << ej.dump();
  }
  auto bad = runFwb("profile " + model + " --min-time -1");
  EXPECT_EQ(bad.exitCode, 2) << bad.out;
  EXPECT_NE(bad.out.find("--min-time"), std::string::npos) << bad.out;
  fs::remove_all(dir);
}

TEST(CliProfile, TheProcessSettingsAreSetUnlessTheUserDidAndAreInTheSource) {
  // fwb re-executes itself with OpenMP's passive wait and a larger glibc tcache, unless the environment
  // already has them; the measured run's source says which settings it ran under.
  const auto dir = scratchDir("env");
  const std::string model = writeBranchModel(dir);
  const auto out = dir / "p.json";
  const char* userOmp = std::getenv("OMP_WAIT_POLICY");
  const char* userTunables = std::getenv("GLIBC_TUNABLES");
  const std::string savedOmp = userOmp ? userOmp : "", savedTunables = userTunables ? userTunables : "";
  unsetenv("OMP_WAIT_POLICY");
  unsetenv("GLIBC_TUNABLES");
  auto p = runFwb("profile " + model + " --threads 1 --repeat 2 --min-time 0 --warmup-time 0 --json " +
                  out.string());
  ASSERT_EQ(p.exitCode, 0) << p.out;
  std::string source = readJson(out)["source"].get<std::string>();
  EXPECT_NE(source.find("OMP_WAIT_POLICY=PASSIVE"), std::string::npos) << source;
  EXPECT_NE(source.find("GLIBC_TUNABLES=glibc.malloc.tcache_count=256"), std::string::npos) << source;
  setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=7", 1);
  p = runFwb("profile " + model + " --threads 1 --repeat 2 --min-time 0 --warmup-time 0 --json " +
             out.string());
  ASSERT_EQ(p.exitCode, 0) << p.out;
  source = readJson(out)["source"].get<std::string>();
  EXPECT_NE(source.find("GLIBC_TUNABLES=glibc.malloc.tcache_count=7"), std::string::npos) << source;
  EXPECT_EQ(source.find("tcache_count=256"), std::string::npos) << source;
  if (userOmp) setenv("OMP_WAIT_POLICY", savedOmp.c_str(), 1);
  if (userTunables)
    setenv("GLIBC_TUNABLES", savedTunables.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
  fs::remove_all(dir);
}

TEST(CliProfile, SeveralProfilesCountAsOneAndRunsAreCheckedForStolenTime) {
  // At one thread every profile says how many runs it timed and how many other tenants took time from;
  // with two threads it does not check. Two profiles of one level given to simulate count as one (per
  // kernel the median); a profile of another level is refused, naming the file.
  const auto dir = scratchDir("merge");
  const std::string model = writeBranchModel(dir);
  const auto p1 = dir / "p1.json", p2 = dir / "p2.json", p0 = dir / "p0.json", two = dir / "two.json",
             sim = dir / "s.json";
  for (const auto& [file, level] : {std::pair{p1, 2}, std::pair{p2, 2}, std::pair{p0, 0}}) {
    auto p = runFwb("profile " + model + " -O " + std::to_string(level) +
                    " --threads 1 --repeat 3 --min-time 0 --json " + file.string());
    ASSERT_EQ(p.exitCode, 0) << p.out;
  }
  const auto j1 = readJson(p1);
  EXPECT_GE(j1.at("runs_timed").get<int>(), j1.at("repeats").get<int>());
  EXPECT_LE(j1.at("runs_stolen").get<int>(), j1.at("runs_timed").get<int>());
  EXPECT_GE(j1.at("steal_share").get<double>(), 0.0);
  auto t = runFwb("profile " + model + " --threads 2 --repeat 2 --min-time 0 --json " + two.string());
  ASSERT_EQ(t.exitCode, 0) << t.out;
  EXPECT_FALSE(readJson(two).contains("runs_stolen"));

  auto a = runFwb("simulate " + model + " -O 2 --measured " + p1.string() + " --measured " + p2.string() +
                  " --json " + sim.string());
  ASSERT_EQ(a.exitCode, 0) << a.out;
  const auto sj = readJson(sim);
  EXPECT_EQ(sj["measured"]["files"].size(), 2u);
  EXPECT_NE(sj["measured"]["source"].get<std::string>().find("median of 2 profiles"), std::string::npos);
  EXPECT_EQ(sj["accuracy"]["matched"].get<size_t>(), j1["kernels"].size());
  auto bad = runFwb("simulate " + model + " -O 2 --measured " + p1.string() + " --measured " + p0.string());
  EXPECT_EQ(bad.exitCode, 2) << bad.out;
  EXPECT_NE(bad.out.find(p0.string() + ": opt_level is 0"), std::string::npos) << bad.out;
  fs::remove_all(dir);
}
