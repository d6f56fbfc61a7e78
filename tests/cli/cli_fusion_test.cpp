// End-to-end: the fusing verbs share one set of switches and one pipeline.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/cli/CliRunner.h"

namespace fs = std::filesystem;

namespace {
const std::string kSmall = "'zoo:resnet50?image=64'";
fs::path scratchDir(const char* tag) { return cliScratchDir("fusion", tag); }
}  // namespace

TEST(CliFusion, VerifyComparesTheFusedExportAtEveryLevel) {
  for (int level = 0; level <= 3; ++level) {
    auto r = runFwb("verify " + kSmall + " -O " + std::to_string(level) + " --threads 1 --json");
    ASSERT_EQ(r.exitCode, 0) << "level " << level << ": " << r.out;
    auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
    EXPECT_TRUE(j["passed"].get<bool>());
  }
  // An impossible tolerance makes the same check fail with exit 1 at a level that changes arithmetic.
  auto strict = runFwb("verify " + kSmall + " -O 2 --threads 1 --tolerance 0");
  EXPECT_EQ(strict.exitCode, 1) << strict.out;
}

TEST(CliFusion, SwitchErrorsAreBadInput) {
  auto unknownRule = runFwb("fuse " + kSmall + " --disable no_such_rule");
  EXPECT_EQ(unknownRule.exitCode, 2);
  EXPECT_NE(unknownRule.out.find("no_such_rule"), std::string::npos) << unknownRule.out;
  auto unknownNode = runFwb("simulate " + kSmall + " --exclude-node nosuchnode");
  EXPECT_EQ(unknownNode.exitCode, 2);
  EXPECT_NE(unknownNode.out.find("nosuchnode"), std::string::npos) << unknownNode.out;
  auto badFlags = runFwb("fuse " + kSmall + " --flags '--opt_level=9'");
  EXPECT_EQ(badFlags.exitCode, 2) << badFlags.out;
  auto badHw = runFwb("render " + kSmall + " --hw nosuchchip --after /tmp/x.svg");
  EXPECT_EQ(badHw.exitCode, 2) << badHw.out;
}

TEST(CliFusion, DisablingARuleChangesTheKernelsEverywhere) {
  // dag_epilogue generalises both rules (it would form the same kernels), so it goes too
  fs::path dir = scratchDir("disable");
  auto all = runFwb("fuse " + kSmall + " -O 2 --report " + (dir / "a.json").string());
  auto less = runFwb("fuse " + kSmall + " -O 2 --disable conv_activation,residual_add,dag_epilogue --report " + (dir / "b.json").string());
  ASSERT_EQ(all.exitCode, 0) << all.out;
  ASSERT_EQ(less.exitCode, 0) << less.out;
  auto a = nlohmann::json::parse(slurp(dir / "a.json"));
  auto b = nlohmann::json::parse(slurp(dir / "b.json"));
  EXPECT_LT(a["kernels_after"].get<int>(), b["kernels_after"].get<int>());
  auto simA = nlohmann::json::parse(runFwb("simulate " + kSmall + " -O 2 --json -").out);
  auto simB = nlohmann::json::parse(runFwb("simulate " + kSmall + " -O 2 --disable conv_activation,residual_add,dag_epilogue --json -").out);
  EXPECT_LT(simA["latency_us"].get<double>(), simB["latency_us"].get<double>());
  fs::remove_all(dir);
}

TEST(CliFusion, RenderWritesEveryFormatAndDemoWritesItsFiles) {
  fs::path dir = scratchDir("render");
  auto r = runFwb("render " + kSmall + " -O 2 --before " + (dir / "b.svg").string() + " --after " +
                  (dir / "a.png").string() + " --side-by-side " + (dir / "s.pdf").string());
  ASSERT_EQ(r.exitCode, 0) << r.out;
  EXPECT_NE(slurp(dir / "b.svg").find("class=\"node\""), std::string::npos);
  EXPECT_EQ(slurp(dir / "a.png").substr(1, 3), "PNG");
  EXPECT_EQ(slurp(dir / "s.pdf").substr(0, 4), "%PDF");
  auto bad = runFwb("render " + kSmall + " --after " + (dir / "a.jpg").string());
  EXPECT_EQ(bad.exitCode, 2);
  auto demo = runFwb("demo --out-dir " + (dir / "demo").string() + " --rows 5");
  ASSERT_EQ(demo.exitCode, 0) << demo.out;
  EXPECT_NE(demo.out.find("simulated on"), std::string::npos);
  for (const char* f : {"before.svg", "after.svg", "side_by_side.svg", "trace.json"})
    EXPECT_TRUE(fs::exists(dir / "demo" / f)) << f;
  auto trace = nlohmann::json::parse(slurp(dir / "demo" / "trace.json"));
  EXPECT_FALSE(trace["traceEvents"].empty());
  fs::remove_all(dir);
}

namespace {
TEST(CliTune, WritesAConfigThatReproducesTheTunedLatency) {
  fs::path dir = scratchDir("tune");
  const std::string m = "'zoo:mobilenetv2?image=64'";
  auto t = runFwb("tune " + m + " -O 1 --max-evaluations 80 --budget 300 -o " + (dir / "cfg.json").string() + " --json " +
                  (dir / "t.json").string());
  ASSERT_EQ(t.exitCode, 0) << t.out;
  EXPECT_NE(t.out.find("(simulated)"), std::string::npos) << t.out;
  auto res = nlohmann::json::parse(slurp(dir / "t.json"));
  const double best = res["best"]["latency_us"].get<double>();
  EXPECT_LT(best, res["start"]["latency_us"].get<double>());
  EXPECT_EQ(res["best"]["verified"], true);
  auto sim = runFwb("simulate " + m + " --config " + (dir / "cfg.json").string() + " --json -");
  ASSERT_EQ(sim.exitCode, 0) << sim.out;
  EXPECT_NEAR(nlohmann::json::parse(sim.out)["latency_us"].get<double>(), best, best * 1e-9);
  EXPECT_EQ(runFwb("tune " + m + " --objective speed").exitCode, 2);
  EXPECT_EQ(runFwb("tune " + m + " --exclude-node no_such_node").exitCode, 2);
  fs::remove_all(dir);
}
}  // namespace

namespace {
TEST(CliCompare, PrintsEveryPlanOnEveryChipAndRefusesOneChip) {
  auto r = runFwb("compare " + kSmall + " --hw ascend910b2 --hw ascend310 --json -");
  ASSERT_EQ(r.exitCode, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["chips"].size(), 2u);
  EXPECT_EQ(j["chips"][1]["plan_on_each_chip_us"].size(), 2u);
  EXPECT_EQ(j["simulated"], true);
  EXPECT_EQ(runFwb("compare " + kSmall + " --hw ascend910b2").exitCode, 2);
  EXPECT_EQ(runFwb("compare " + kSmall + " --hw ascend910b2 --hw no_such_chip").exitCode, 2);
}
}  // namespace

namespace {
TEST(CliRender, BigGraphsFoldByTheirGroupsAndExpandOnRequest) {
  fs::path dir = scratchDir("render_big");
  const std::string m = "'zoo:bert?layers=120&hidden=32&heads=2&seq=8'";  // about 6,000 nodes
  auto r = runFwb("render " + m + " -O 2 --after " + (dir / "a.dot").string() + " --max-nodes 80");
  ASSERT_EQ(r.exitCode, 0) << r.out;
  const std::string dot = slurp(dir / "a.dot");
  EXPECT_NE(dot.find("[+] encoder/layer/0-39"), std::string::npos) << r.out;
  auto open = runFwb("render " + m + " -O 2 --after " + (dir / "b.dot").string() + " --max-nodes 80 --expand encoder/layer/0-39");
  ASSERT_EQ(open.exitCode, 0) << open.out;
  EXPECT_EQ(slurp(dir / "b.dot").find("[+] encoder/layer/0-39\\n"), std::string::npos);
  EXPECT_NE(slurp(dir / "b.dot").find("[+] encoder/layer/0-39/7"), std::string::npos);
  auto unknown = runFwb("render " + m + " --after " + (dir / "c.dot").string() + " --expand no/such/group");
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.out.find("not a group"), std::string::npos) << unknown.out;
  // It names the groups there are: the first component of every group path, sorted.
  EXPECT_NE(unknown.out.find("top-level groups: 'embeddings', 'encoder'"), std::string::npos) << unknown.out;
  auto all = runFwb("render " + m + " --after " + (dir / "c.dot").string() + " --expand all --max-nodes 80");
  EXPECT_EQ(all.exitCode, 2);
  EXPECT_NE(all.out.find("exceed --max-nodes"), std::string::npos) << all.out;
  fs::remove_all(dir);
}
}  // namespace
