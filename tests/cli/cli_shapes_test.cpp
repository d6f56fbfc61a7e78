// The user's own model from the command line: open dims bound by default (one line says so), the
// user's binding wins, and a value nothing can shape is a clear error (exit 2), never a crash.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/onnx/OnnxIO.h"
#include "tests/cli/CliRunner.h"

namespace {

std::string writeModel(const std::string& name, bool mystery) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32,
                       fw::Shape({fw::Dim::sym("batch"), 3, fw::Dim::sym("height"), fw::Dim::sym("width")}));
  auto w = g->addInitializer("w", fw::Tensor::floats({8, 3, 3, 3}, std::vector<float>(216, 0.05f)));
  auto c = g->addValue("c");
  fw::Attributes a;
  a.set(fw::Attribute::makeInts("strides", {2, 2}));
  a.set(fw::Attribute::makeInts("pads", {1, 1, 1, 1}));
  g->addNode("Conv", {x, w}, {c}, a, "conv");
  auto r = g->addValue("r");
  g->addNode("Relu", {c}, {r}, {}, "relu");
  fw::ValueId out = r;
  if (mystery) {
    out = g->addValue("decoded");
    g->addNode("Decode", {r}, {out}, {}, "decoder", "com.vendor");
  }
  g->addOutput(out);
  fw::Model m;
  m.opsetImports = {{"", 13}, {"com.vendor", 1}};
  m.graph = g;
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  EXPECT_TRUE(fw::saveOnnxFile(m, path).ok());
  return path;
}

}  // namespace

TEST(CliShapes, OpenDimsAreBoundByDefaultAndSaidInOneLine) {
  const auto path = writeModel("fwb_cli_open_dims.onnx", false);
  auto r = runFwb("simulate " + path + " -O 2");
  EXPECT_EQ(r.exitCode, 0) << r.out;
  EXPECT_NE(r.out.find("bound by default batch=1, height=224 (image), width=224 (image)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("latency"), std::string::npos);
  auto u = runFwb("simulate " + path + " -O 2 --input-shape x=2,3,64,64");
  EXPECT_EQ(u.exitCode, 0) << u.out;
  EXPECT_EQ(u.out.find("bound by default"), std::string::npos) << u.out;
  auto i = runFwb("info " + path);
  EXPECT_EQ(i.exitCode, 0) << i.out;
  EXPECT_NE(i.out.find("batch"), std::string::npos) << i.out;  // info keeps the symbols by name
  EXPECT_EQ(runFwb("verify " + path + " -O 2").exitCode, 0);
}

TEST(CliShapes, RunBindsOpenDimsLikeEveryOtherVerb) {
  const auto path = writeModel("fwb_cli_run_open_dims.onnx", false);
  auto sim = runFwb("simulate " + path + " -O 1");
  auto r = runFwb("run " + path);
  ASSERT_EQ(r.exitCode, 0) << r.out;
  const std::string line = "bound by default batch=1, height=224 (image), width=224 (image)";
  EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
  EXPECT_NE(sim.out.find(line), std::string::npos) << sim.out;
  // The run used the bound shape: Conv stride 2 on 224x224 gives 112x112.
  EXPECT_NE(r.out.find("[1,8,112,112]"), std::string::npos) << r.out;
  auto u = runFwb("run " + path + " --input-shape batch=2");
  ASSERT_EQ(u.exitCode, 0) << u.out;
  EXPECT_NE(u.out.find("[2,8,112,112]"), std::string::npos) << u.out;
  EXPECT_EQ(u.out.find("batch=1"), std::string::npos) << u.out;
}

TEST(CliShapes, AValueNothingCanShapeIsAClearError) {
  const auto path = writeModel("fwb_cli_mystery.onnx", true);
  auto r = runFwb("simulate " + path + " -O 0");
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("node 'decoder'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("decoded"), std::string::npos) << r.out;
}
