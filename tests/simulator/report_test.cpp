#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "SimTestUtil.h"
#include "core/util/FileUtil.h"
#include "simulator/SimReport.h"

namespace fw::sim::test {
namespace {

TEST(SimReport, JsonHasTheDocumentedKeys) {
  const HwProfile hw = toy();
  Graph g = unaryChain({"Relu", "Neg"}, {1, 4096});
  SimResult r = runUnfused(g, hw);
  const auto j = toJson(r);
  EXPECT_EQ(j["hw"]["name"], "toy");
  EXPECT_DOUBLE_EQ(j["hw"]["peak_flops"].get<double>(), 16.384e12);
  EXPECT_DOUBLE_EQ(j["hw"]["hbm_bandwidth"].get<double>(), 1e11);
  for (const char* k : {"latency_us", "throughput", "hbm_bytes", "peak_memory_bytes", "launch_share", "kernels"})
    EXPECT_TRUE(j.contains(k)) << k;
  ASSERT_EQ(j["kernels"].size(), 2u);
  for (const char* k : {"name", "ops", "unit", "start_us", "dur_us", "flops", "hbm_bytes", "bound"})
    EXPECT_TRUE(j["kernels"][0].contains(k)) << k;
  EXPECT_EQ(j["kernels"][1]["ops"][0], "Neg");
  EXPECT_EQ(j["kernels"][0]["unit"], "vector");
  EXPECT_DOUBLE_EQ(j["kernels"][1]["start_us"].get<double>(), r.kernels[0].durUs);
  // Each kernel's traffic by kind: the Relu reads 4096 elements and writes as many.
  for (const char* k : {"input_bytes", "weight_bytes", "output_bytes"})
    EXPECT_TRUE(j["kernels"][0].contains(k)) << k;
  EXPECT_DOUBLE_EQ(j["kernels"][0]["input_bytes"].get<double>(), r.kernels[0].inputBytes);
  EXPECT_GT(r.kernels[0].inputBytes, 0.0);
  EXPECT_DOUBLE_EQ(j["kernels"][0]["output_bytes"].get<double>(), r.kernels[0].outputBytes);
  EXPECT_DOUBLE_EQ(j["kernels"][0]["weight_bytes"].get<double>(), 0.0);
}

TEST(SimReport, ChromeTraceHasOneCompleteEventPerKernel) {
  const HwProfile hw = toy();
  Graph g = matmul(64, 64, 64);
  SimResult r = runUnfused(g, hw);
  const auto t = toChromeTrace(r);
  ASSERT_TRUE(t.contains("traceEvents"));
  int x = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++x;
    EXPECT_EQ(e["name"], "mm");
    EXPECT_EQ(e["tid"], 1);  // the cube lane
    EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 1.278);
  }
  EXPECT_EQ(x, 1);
}

TEST(SimReport, CsvAndFilesAreWritten) {
  const HwProfile hw = toy();
  Graph g = unaryChain({"Relu", "Sigmoid", "Add"}, {8, 64});
  // Add with one input is not valid ONNX but fine for the cost model: it sees one input.
  SimResult r = runUnfused(g, hw);
  const std::string csv = toCsv(r);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_EQ(csv.rfind("index,name,ops,unit,start_us,dur_us", 0), 0u);
  const auto dir = std::filesystem::temp_directory_path() / "fw_sim_report_test";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(writeJson((dir / "r.json").string(), r).ok());
  ASSERT_TRUE(writeCsv((dir / "r.csv").string(), r).ok());
  ASSERT_TRUE(writeChromeTrace((dir / "r.trace.json").string(), r).ok());
  auto back = readFileBytes((dir / "r.json").string());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(nlohmann::json::parse(*back)["kernels"].size(), 3u);
  std::filesystem::remove_all(dir);
}

TEST(SimReport, ComparisonTableShowsBeforeAndAfter) {
  const HwProfile hw = toy();
  Graph g = unaryChain({"Relu", "Neg", "Abs"}, {1, 65536});
  SimResult before = runUnfused(g, hw);
  SimResult after = run(g, {allInOne(g, "chain")}, hw);
  const std::string t = formatComparisonTable(before, after, hw);
  EXPECT_NE(t.find("simulated on toy"), std::string::npos);
  EXPECT_NE(t.find("Relu+Neg+Abs"), std::string::npos);
  EXPECT_NE(t.find("11.25 →       3.84"), std::string::npos) << t;
  EXPECT_NE(t.find("speed-up 2.93x"), std::string::npos) << t;
}

}  // namespace
}  // namespace fw::sim::test
