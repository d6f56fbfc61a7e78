// The user's own model from the command line: open dims bound by default (one line says so), the
// user's binding wins, and a value nothing can shape is a clear error (exit 2), never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

// x[batch,3,height,width] -> Conv(stride 2) -> Relu -> Reshape to [batch, -1] with the batch read by
// Shape/Gather/Unsqueeze/Concat: shape arithmetic that folds to constants at any one binding.
std::string writeFlattenModel(const std::string& name) {
  auto g = std::make_shared<fw::Graph>();
  auto x = g->addInput("x", fw::DType::Float32,
                       fw::Shape({fw::Dim::sym("batch"), 3, fw::Dim::sym("height"), fw::Dim::sym("width")}));
  auto w = g->addInitializer("w", fw::Tensor::floats({4, 3, 3, 3}, std::vector<float>(108, 0.05f)));
  auto c = g->addValue("c"), r = g->addValue("r"), s = g->addValue("s"), b = g->addValue("b"), bu = g->addValue("bu");
  auto shape = g->addValue("target"), y = g->addValue("y");
  fw::Attributes a;
  a.set(fw::Attribute::makeInts("strides", {2, 2}));
  a.set(fw::Attribute::makeInts("pads", {1, 1, 1, 1}));
  g->addNode("Conv", {x, w}, {c}, a, "conv");
  g->addNode("Relu", {c}, {r}, {}, "relu");
  g->addNode("Shape", {r}, {s}, {}, "shape");
  auto zero = g->addInitializer("zero", fw::Tensor::scalarInt64(0));
  g->addNode("Gather", {s, zero}, {b}, {}, "batch_of");
  auto axes = g->addInitializer("axes", fw::Tensor::int64s({1}, {0}));
  g->addNode("Unsqueeze", {b, axes}, {bu}, {}, "unsq");
  auto minus1 = g->addInitializer("minus1", fw::Tensor::int64s({1}, {-1}));
  fw::Attributes ca;
  ca.set(fw::Attribute::makeInt("axis", 0));
  g->addNode("Concat", {bu, minus1}, {shape}, ca, "target_of");
  g->addNode("Reshape", {r, shape}, {y}, {}, "flatten");
  g->addOutput(y);
  fw::Model m;
  m.opsetImports = {{"", 13}};
  m.graph = g;
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  EXPECT_TRUE(fw::saveOnnxFile(m, path).ok());
  return path;
}

}  // namespace

TEST(CliShapes, FusedExportKeepsTheSignatureAndRunsAtAnotherBinding) {
  const auto path = writeFlattenModel("fwb_cli_contract.onnx");
  const auto out = (std::filesystem::temp_directory_path() / "fwb_cli_contract_fused.onnx").string();
  const auto rep = (std::filesystem::temp_directory_path() / "fwb_cli_contract_report.json").string();
  auto f = runFwb("fuse " + path + " -O 2 -o " + out + " --report " + rep);
  ASSERT_EQ(f.exitCode, 0) << f.out;
  EXPECT_NE(f.out.find("keeps the model's signature"), std::string::npos) << f.out;
  auto fused = fw::loadOnnxFile(out);
  ASSERT_TRUE(fused.ok()) << fused.error().message;
  const auto& in = fused->graph->value(fused->graph->inputs()[0]);
  EXPECT_EQ(in.name, "x");
  EXPECT_EQ(in.shape.str(), "[batch,3,height,width]");
  const auto& o = fused->graph->value(fused->graph->outputs()[0]);
  EXPECT_EQ(o.name, "y");
  EXPECT_FALSE(o.shape.isStatic()) << o.shape.str();
  // The fused file runs at a binding the analysis never saw, with the shape that binding gives.
  auto run = runFwb("run " + out + " --input-shape x=2,3,64,32");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("[2,2048]"), std::string::npos) << run.out;  // 4 * 32 * 16
  // The report records the binding the analysis ran at and what the export kept.
  std::ifstream rj(rep);
  std::stringstream ss;
  ss << rj.rdbuf();
  EXPECT_NE(ss.str().find("\"bound_by_default\""), std::string::npos) << ss.str();
  EXPECT_NE(ss.str().find("kept (symbolic dims open)"), std::string::npos) << ss.str();
  // verify checks the export at the bound shapes and at a second binding of every open dim (an image
  // dim grows by the model's spatial reduction, 2 here; the batch doubles).
  auto v = runFwb("verify " + path + " -O 2");
  ASSERT_EQ(v.exitCode, 0) << v.out;
  EXPECT_NE(v.out.find("second binding batch=2, height=226, width=226"), std::string::npos) << v.out;
  // --static-shapes: the file runs only at the bound dims, and the output says which.
  auto st = runFwb("fuse " + path + " -O 2 -o " + out + " --static-shapes");
  ASSERT_EQ(st.exitCode, 0) << st.out;
  EXPECT_NE(st.out.find("static export: input dims fixed at x[0] batch=1, x[2] height=224, x[3] width=224"),
            std::string::npos) << st.out;
  auto fixed = fw::loadOnnxFile(out);
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed->graph->value(fixed->graph->inputs()[0]).shape.str(), "[1,3,224,224]");
}

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
