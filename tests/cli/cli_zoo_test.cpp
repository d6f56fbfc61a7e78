// Zoo parameters on the command line: --heads everywhere --layers/--hidden/--seq are, heads= in zoo specs,
// and `fwb zoo list` showing the ranges that are accepted.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "tests/cli/CliRunner.h"

namespace fs = std::filesystem;

namespace {

fs::path scratch() { return cliScratchDir("zoo"); }

// The output value of node `name` in `fwb info --json` (e.g. "...: float32[1,2,8,8]").
std::string outputOf(const nlohmann::json& info, const std::string& name) {
  for (const auto& n : info["node_list"])
    if (n["name"] == name) return n["outputs"].at(0).get<std::string>();
  return "(no node " + name + ")";
}

constexpr const char* kScores = "encoder/layer/0/attention/self/Softmax";
constexpr const char* kQueryHeads = "encoder/layer/0/attention/self/query/Reshape";

}  // namespace

TEST(CliZoo, HeadsInZooExportGivesTwoHeadAttention) {
  fs::path dir = scratch();
  fs::path out = dir / "bert_h2.onnx";
  auto r = runFwb("zoo export bert --layers 1 --hidden 64 --heads 2 --seq 8 -o " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.out;
  auto info = runFwb("info " + out.string() + " --json");
  ASSERT_EQ(info.exitCode, 0) << info.out;
  auto j = nlohmann::json::parse(info.out);
  // Scores [batch, heads, seq, seq]; the query split into [batch, seq, heads, head_dim].
  EXPECT_NE(outputOf(j, kScores).find("[1,2,8,8]"), std::string::npos) << outputOf(j, kScores);
  EXPECT_NE(outputOf(j, kQueryHeads).find("[1,8,2,32]"), std::string::npos) << outputOf(j, kQueryHeads);
  fs::remove_all(dir);
}

TEST(CliZoo, HeadsInZooSpecAndAsOption) {
  auto spec = runFwb("info 'zoo:bert?layers=1&hidden=64&heads=2&seq=8' --json");
  ASSERT_EQ(spec.exitCode, 0) << spec.out;
  auto j = nlohmann::json::parse(spec.out);
  EXPECT_NE(outputOf(j, kScores).find("[1,2,8,8]"), std::string::npos) << outputOf(j, kScores);
  auto opt = runFwb("info zoo:bert --layers 1 --hidden 64 --heads 4 --seq 8 --json");
  ASSERT_EQ(opt.exitCode, 0) << opt.out;
  auto k = nlohmann::json::parse(opt.out);
  EXPECT_NE(outputOf(k, kScores).find("[1,4,8,8]"), std::string::npos) << outputOf(k, kScores);
  EXPECT_NE(outputOf(k, kQueryHeads).find("[1,8,4,16]"), std::string::npos) << outputOf(k, kQueryHeads);
  // Heads change the attention shapes, not the node count.
  EXPECT_EQ(j["nodes"], k["nodes"]);
}

TEST(CliZoo, HeadsThatDoNotDivideHiddenExitTwoNamingBoth) {
  for (const std::string args : {"zoo export bert --layers 1 --hidden 64 --heads 3 -o /dev/null",
                                 "info 'zoo:bert?layers=1&hidden=64&heads=3'",
                                 "fuse zoo:bert --layers 1 --hidden 64 --heads 3 -o /dev/null"}) {
    auto r = runFwb(args);
    EXPECT_EQ(r.exitCode, 2) << args << ": " << r.out;
    EXPECT_NE(r.out.find("--hidden (64)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--heads (3)"), std::string::npos) << r.out;
  }
  // A model without heads refuses the parameter; zero or a non-number is refused before the zoo.
  for (const std::string args : {"info zoo:lstm --heads 2", "info 'zoo:lstm?heads=2'", "info zoo:bert --heads 0",
                                 "info 'zoo:bert?heads=0'", "info 'zoo:bert?heads=two'"}) {
    auto r = runFwb(args);
    EXPECT_EQ(r.exitCode, 2) << args << ": " << r.out;
    EXPECT_NE(r.out.find("heads"), std::string::npos) << args << ": " << r.out;
  }
}

TEST(CliZoo, TooLargeRequestsNameTheParameterToLower) {
  auto r = runFwb("info 'zoo:bert?layers=1500'");
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("--layers to at most 56"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--hidden to at most 148"), std::string::npos) << r.out;
  auto range = runFwb("info zoo:lstm --seq 2001");
  EXPECT_EQ(range.exitCode, 2) << range.out;
  EXPECT_NE(range.out.find("--seq must be in [1, 2000]"), std::string::npos) << range.out;
}

TEST(CliZoo, ListShowsTheAcceptedRangesAndDefaults) {
  auto list = runFwb("zoo list");
  ASSERT_EQ(list.exitCode, 0) << list.out;
  for (const char* s : {"--layers 12 (1..2000)", "--hidden 768 (8..4096)", "--heads 12 (1..128, divides --hidden)",
                        "--seq 128 (1..512)", "--seq 16 (1..2000)", "--image 320 (32..4096, multiple of 32)",
                        "--batch 1 (1..1024)", "hidden 768 allows 56 layers, 1500 layers allow hidden 148"})
    EXPECT_NE(list.out.find(s), std::string::npos) << s << "\n" << list.out;
  auto js = runFwb("zoo list --json");
  ASSERT_EQ(js.exitCode, 0) << js.out;
  auto j = nlohmann::json::parse(js.out);
  // Every advertised maximum is accepted and one more is refused (cheap sizes for the other params).
  for (const auto& e : j) {
    if (e["name"] != "bert" && e["name"] != "lstm") continue;
    ASSERT_TRUE(e["ranges"].contains("seq")) << e.dump();
    const int64_t maxSeq = e["ranges"]["seq"]["max"];
    const std::string base = "info 'zoo:" + e["name"].get<std::string>() + "?layers=1&hidden=16" +
                             (e["name"] == "bert" ? "&heads=2" : "") + "&seq=";
    auto ok = runFwb(base + std::to_string(maxSeq) + "'");
    EXPECT_EQ(ok.exitCode, 0) << ok.out.substr(0, 400);
    auto over = runFwb(base + std::to_string(maxSeq + 1) + "'");
    EXPECT_EQ(over.exitCode, 2) << over.out.substr(0, 400);
  }
}
