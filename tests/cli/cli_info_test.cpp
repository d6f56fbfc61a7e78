#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "tests/cli/CliRunner.h"

namespace fs = std::filesystem;

namespace {
fs::path scratch() { return cliScratchDir("info"); }
}  // namespace

TEST(CliInfo, JsonHasTheDocumentedKeys) {
  auto r = runFwb("info zoo:lstm --layers 1 --seq 2 --json");
  ASSERT_EQ(r.exitCode, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"nodes", "ops", "params", "flops", "inputs", "outputs", "opsets", "node_list"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_GT(j["nodes"].get<int>(), 0);
  EXPECT_GT(j["flops"].get<double>(), 0);
  EXPECT_EQ(j["node_list"].size(), j["nodes_after_import"].get<size_t>());
}

TEST(CliInfo, BrokenFilesExitTwoWithOneMessage) {
  fs::path dir = scratch();
  std::mt19937 rng(7);
  std::string random(2048, '\0');
  for (auto& c : random) c = static_cast<char>(rng());
  const std::pair<std::string, std::string> cases[] = {{"empty.onnx", ""}, {"random.onnx", random}, {"text.onnx", "hello"}};
  for (const auto& [name, content] : cases) {
    std::ofstream(dir / name, std::ios::binary) << content;
    auto r = runFwb("info " + (dir / name).string());
    EXPECT_EQ(r.exitCode, 2) << name << ": " << r.out;
    EXPECT_NE(r.out.find(name), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;  // one clear line
  }
  auto missing = runFwb("info " + (dir / "missing.onnx").string());
  EXPECT_EQ(missing.exitCode, 2);
  auto unknownZoo = runFwb("info zoo:nosuchmodel");
  EXPECT_EQ(unknownZoo.exitCode, 2);
  EXPECT_NE(unknownZoo.out.find("resnet50"), std::string::npos) << unknownZoo.out;  // lists known names
  auto badShape = runFwb("info zoo:lstm --input-shape nonsense");
  EXPECT_EQ(badShape.exitCode, 2);
  auto usage = runFwb("info");
  EXPECT_EQ(usage.exitCode, 2);
  fs::remove_all(dir);
}

TEST(CliZoo, ExportWritesAModelThatInfoReads) {
  fs::path dir = scratch();
  fs::path out = dir / "lstm.onnx";
  auto r = runFwb("zoo export lstm --layers 1 --seq 3 -o " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.out;
  ASSERT_TRUE(fs::exists(out));
  auto info = runFwb("info " + out.string() + " --json");
  ASSERT_EQ(info.exitCode, 0) << info.out;
  auto j = nlohmann::json::parse(info.out);
  auto direct = nlohmann::json::parse(runFwb("info zoo:lstm --layers 1 --seq 3 --json").out);
  EXPECT_EQ(j["nodes"], direct["nodes"]);
  EXPECT_EQ(j["params"], direct["params"]);
  EXPECT_EQ(j["flops"], direct["flops"]);
  auto list = runFwb("zoo list");
  EXPECT_EQ(list.exitCode, 0);
  for (const char* name : {"resnet50", "mobilenetv2", "bert", "yolov5s", "deeplabv3plus", "lstm"})
    EXPECT_NE(list.out.find(name), std::string::npos) << name;
  fs::remove_all(dir);
}
