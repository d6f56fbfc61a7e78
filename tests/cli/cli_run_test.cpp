// fwb run: timing statistics and resource limits from the command line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tests/cli/CliRunner.h"

TEST(CliRun, RepeatWithStatsWritesMedianMinAndPeak) {
  const auto f = (std::filesystem::temp_directory_path() / "fwb_run_stats.json").string();
  std::filesystem::remove(f);
  auto r = runFwb("run \"zoo:resnet50?image=32\" --repeat 3 --stats --stats-json " + f);
  ASSERT_EQ(r.exitCode, 0) << r.out;
  EXPECT_NE(r.out.find("median_ms"), std::string::npos) << r.out;
  std::ifstream in(f);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string j = ss.str();
  for (const char* key : {"\"median_ms\"", "\"min_ms\"", "\"peak_bytes\"", "\"runs\": 3"})
    EXPECT_NE(j.find(key), std::string::npos) << key << " in " << j;
  // Memory planning: the timed runs follow the plan made by the warm-up run.
  for (const char* key : {"\"tensor_live_peak_bytes\"", "\"tensor_held_bytes\"", "\"arena_planned\": true", "\"rss_bytes\""})
    EXPECT_NE(j.find(key), std::string::npos) << key << " in " << j;
  EXPECT_NE(r.out.find("planned arena"), std::string::npos) << r.out;
  auto heap = runFwb("run \"zoo:resnet50?image=32\" --repeat 2 --stats --no-memory-plan");
  ASSERT_EQ(heap.exitCode, 0) << heap.out;
  EXPECT_EQ(heap.out.find("planned arena"), std::string::npos) << heap.out;
}

TEST(CliRun, LimitsAreClearErrors) {
  auto m = runFwb("run \"zoo:resnet50?image=32\" --max-memory 16K");
  EXPECT_EQ(m.exitCode, 2) << m.out;
  EXPECT_NE(m.out.find("memory budget"), std::string::npos) << m.out;
  auto bad = runFwb("run \"zoo:resnet50?image=32\" --max-memory lots");
  EXPECT_EQ(bad.exitCode, 2) << bad.out;
  EXPECT_NE(bad.out.find("--max-memory 'lots'"), std::string::npos) << bad.out;
}

TEST(CliRun, RepeatedRunsOfAFusedModelKeepTheirPlansAndGiveTheSameOutputs) {
  // A fused model's kernels are model-local functions; --repeat keeps the run plans (bodies' plans
  // included) between runs: the last timed run's outputs equal a single run's.
  namespace fs = std::filesystem;
  const fs::path dir = cliScratchDir("run", "fused_repeat");
  const std::string fused = (dir / "fused.onnx").string();
  auto f = runFwb("fuse \"zoo:lstm?seq=4&hidden=32\" -O 2 -o " + fused);
  ASSERT_EQ(f.exitCode, 0) << f.out;
  auto once = runFwb("run " + fused + " --seed 3 --output-dir " + (dir / "once").string());
  ASSERT_EQ(once.exitCode, 0) << once.out;
  auto many = runFwb("run " + fused + " --seed 3 --repeat 4 --stats --output-dir " + (dir / "many").string());
  ASSERT_EQ(many.exitCode, 0) << many.out;
  EXPECT_NE(many.out.find("runs 4"), std::string::npos) << many.out;
  size_t outputs = 0;
  for (const auto& e : fs::directory_iterator(dir / "once")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("output_", 0) != 0) continue;
    ++outputs;
    auto read = [](const fs::path& p) {
      std::ifstream in(p, std::ios::binary);
      return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    EXPECT_EQ(read(e.path()), read(dir / "many" / name)) << name;
  }
  EXPECT_GT(outputs, 0u);
  fs::remove_all(dir);
}
