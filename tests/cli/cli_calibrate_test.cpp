// fwb calibrate: a measured cpu profile that fwb simulate accepts; the fit of a board's op summary,
// tested on a generated one; malformed op summaries refused with their file, line and column.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>

#include "tests/cli/CliRunner.h"

namespace fs = std::filesystem;

namespace {
fs::path scratch(const char* tag) { return cliScratchDir("calibrate", tag); }
}  // namespace

TEST(CliCalibrate, MeasuresACpuProfileThatSimulateUses) {
  const fs::path dir = scratch("host");
  const fs::path out = dir / "host.json";
  auto r = runFwb("calibrate -o " + out.string() + " --threads 1 --repeat 3");
  ASSERT_EQ(r.exitCode, 0) << r.out;
  const auto j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j["kind"], "cpu");
  EXPECT_FALSE(j.contains("ub_bytes"));
  EXPECT_GT(j["cpu"]["gemm_flops_per_s"].get<double>(), 0);
  EXPECT_GT(j["hbm_bandwidth_bytes_per_s"].get<double>(), 0);
  // The machine's speed at calibration time (simulator/SpeedProbe.h), for fwb simulate --measured.
  for (const char* key : {"call", "stream", "product"})
    EXPECT_GT(j["cpu"]["speed_probe_us"][key].get<double>(), 0) << key;
  // Every field the profile has carries a note saying it was measured here.
  std::set<std::string> noted;
  for (const auto& n : j["notes"]) {
    EXPECT_NE(n["source"].get<std::string>().find("measured by fwb calibrate on "), std::string::npos) << n.dump();
    EXPECT_NE(n["source"].get<std::string>().find("1 thread"), std::string::npos) << n.dump();
    noted.insert(n["field"].get<std::string>());
  }
  for (const char* f : {"clock_hz",
                        "cpu.speed_probe_us",
                        "cpu.gemm_flops_per_s",
                        "cpu.conv_flops_per_s",
                        "cpu.cache_bandwidth_bytes_per_s",
                        "l2_bytes",
                        "hbm_bandwidth_bytes_per_s",
                        "launch_us",
                        "efficiency.cube",
                        "efficiency.elementwise",
                        "efficiency.reduction",
                        "efficiency.softmax",
                        "efficiency.norm",
                        "efficiency.pooling",
                        "efficiency.data_movement",
                        "cpu.cube_time_models.gemm",
                        "cpu.cube_time_models.gemm_tb",
                        "cpu.cube_time_models.gemm_col",
                        "cpu.cube_time_models.conv",
                        "cpu.cube_time_models.pointwise_conv",
                        "cpu.cube_time_models.grouped_conv",
                        "cpu.cube_time_models.grouped_conv_wide",
                        "cpu.cube_time_models.depthwise_conv",
                        "cpu.cube_time_models.conv_transpose",
                        "cpu.cube_time_models.conv_transpose1d",
                        "cpu.cube_time_models.conv_transpose_plain",
                        "cpu.cube_time_models.conv_direct",
                        "cpu.cube_time_models.conv_rows",
                        "cpu.cube_time_models.rnn",
                        "cpu.weight_reorder",
                        "cpu.op_call_s",
                        "cpu.op_row_s",
                        "cpu.cold_call_s",
                        "cpu.cold_call_curve",
                        "cpu.cold_bandwidth_bytes_per_s",
                        "cpu.pointwise_position_block",
                        "cpu.conv_channel_block",
                        "cpu.stream_curve"})
    EXPECT_TRUE(noted.count(f)) << f;
  // A Gather's picks from DRAM (measured wherever the last-level cache is known): a time a row and a
  // time a byte, each non-negative and at most the profile's limits, with how they were measured.
  if (j.value("l2_bytes", 0.0) > 0) {
    EXPECT_TRUE(noted.count("cpu.cold_gather"));
    if (j["cpu"].contains("cold_gather")) {
      EXPECT_GE(j["cpu"]["cold_gather"]["s_per_row"].get<double>(), 0.0);
      EXPECT_LE(j["cpu"]["cold_gather"]["s_per_row"].get<double>(), 1e-5);
      EXPECT_GE(j["cpu"]["cold_gather"]["s_per_byte"].get<double>(), 0.0);
      EXPECT_LE(j["cpu"]["cold_gather"]["s_per_byte"].get<double>(), 1e-8);
      // Its far figures, where measured, further away than the near ones.
      if (j["cpu"]["cold_gather"].contains("far")) {
        EXPECT_GT(j["cpu"]["cold_gather"]["far"]["distance_bytes"].get<double>(),
                  j["cpu"]["cold_gather"]["distance_bytes"].get<double>());
      }
    }
  }
  // The tier beyond the last-level cache (written when some Neg before the Conv or the Relu slowed it): a
  // curve by ascending distance whose shares never fall and end at 1, a cost a byte for each kind, noted.
  if (j["cpu"].contains("far_curve")) {
    double lastBytes = 0, lastShare = 0;
    for (const auto& p : j["cpu"]["far_curve"]) {
      EXPECT_GT(p["bytes"].get<double>(), lastBytes);
      EXPECT_GE(p["share"].get<double>(), lastShare);
      lastBytes = p["bytes"].get<double>();
      lastShare = p["share"].get<double>();
    }
    EXPECT_DOUBLE_EQ(lastShare, 1.0);
    for (const char* kind : {"vector", "product"})
      EXPECT_GE(j["cpu"]["far_s_per_byte"][kind].get<double>(), 0.0);
    // The pointwise Conv's figure is timed against the last-level cache, when one was found.
    if (j.value("l2_bytes", 0.0) > 0) {
      ASSERT_TRUE(j["cpu"]["far_s_per_byte"].contains("pointwise")) << j["cpu"]["far_s_per_byte"].dump();
      EXPECT_GE(j["cpu"]["far_s_per_byte"]["pointwise"].get<double>(), 0.0);
      EXPECT_NE(r.out.find("a pointwise Conv's"), std::string::npos) << r.out;
    }
    EXPECT_TRUE(noted.count("cpu.far_curve"));
    EXPECT_TRUE(noted.count("cpu.far_s_per_byte"));
    EXPECT_NE(r.out.find("beyond the last level"), std::string::npos) << r.out;
  }
  // A weight's stream by its reuse distance (written where 2 x 64 MiB fit an eighth of the memory): points
  // by ascending distance, each a positive rate no faster than a product of two rows could stream from the
  // core's own cache (1 TB/s), noted, printed.
  if (j["cpu"].contains("weight_stream_curve")) {
    double lastBytes = 0;
    // 10 where 2 GiB fit an eighth of the memory (16 MiB weights cycled 128 and 256 MiB apart), else 8
    const size_t points = j["cpu"]["weight_stream_curve"].size();
    ASSERT_TRUE(points == 8u || points == 10u) << points;
    for (const auto& p : j["cpu"]["weight_stream_curve"]) {
      EXPECT_GT(p["bytes"].get<double>(), lastBytes);
      EXPECT_GT(p["bytes_per_s"].get<double>(), 0.0);
      EXPECT_LT(p["bytes_per_s"].get<double>(), 1e12);
      lastBytes = p["bytes"].get<double>();
    }
    EXPECT_TRUE(noted.count("cpu.weight_stream_curve"));
    EXPECT_NE(r.out.find("a weight's stream"), std::string::npos) << r.out;
    // Since session 57, with the curve: a product's arithmetic against its weight's stream at 4, 8, 16 and 32
    // rows, each share within [0, 1] with its measured time, the distance its weights were read at, noted,
    // printed.
    // Since session 58, with the far points: the same on 16 MiB weights, further apart.
    const bool far = points == 10u;
    for (const std::string key : {"product_stream_share", "product_stream_share_far"}) {
      if (key.find("far") != std::string::npos && !far) {
        EXPECT_FALSE(j["cpu"].contains(key));
        continue;
      }
      ASSERT_TRUE(j["cpu"].contains(key)) << key;
      ASSERT_EQ(j["cpu"][key].size(), 4u);
      double lastRows = 0;
      for (const auto& p : j["cpu"][key]) {
        EXPECT_GT(p["rows"].get<double>(), lastRows);
        EXPECT_GE(p["share"].get<double>(), 0.0);
        EXPECT_LE(p["share"].get<double>(), 1.0);
        EXPECT_GT(p["measured_us"].get<double>(), 0.0);
        lastRows = p["rows"].get<double>();
      }
      EXPECT_TRUE(noted.count("cpu." + key)) << key;
    }
    EXPECT_GT(j["cpu"]["product_stream_distance_bytes"].get<double>(), 64.0 * 1024 * 1024);
    if (far) {
      EXPECT_GT(j["cpu"]["product_stream_far_distance_bytes"].get<double>(), 256.0 * 1024 * 1024);
    }
    EXPECT_NE(r.out.find("a product's stream"), std::string::npos) << r.out;
  }
  // A cold call's extra for the vector ops, for the library's products and for integer shape work, each a
  // time (0 when the evicted calls were no slower), at most a millisecond.
  // Since session 39 also a cold loop's ("code", and each timed op type's "code/<op type>"), and a
  // GridSample's efficiency and time a grid position; since session 40 a product's own primitive alone cold
  // ("product/primitive").
  for (const char* kind :
       {"vector", "product", "product/primitive", "shape", "code", "code/Sqrt", "code/Add", "code/Softmax"}) {
    ASSERT_TRUE(j["cpu"]["cold_call_s"].contains(kind)) << kind;
    EXPECT_GE(j["cpu"]["cold_call_s"][kind].get<double>(), 0.0);
    EXPECT_LT(j["cpu"]["cold_call_s"][kind].get<double>(), 1e-3);
  }
  // Since session 42 a cold call by distance: from 2 MiB up, ascending, each figure non-decreasing, at most
  // a millisecond.
  ASSERT_TRUE(j["cpu"].contains("cold_call_curve"));
  const auto& curve = j["cpu"]["cold_call_curve"];
  ASSERT_GE(curve.size(), 1u);
  EXPECT_DOUBLE_EQ(curve[0]["bytes"].get<double>(), double{2 << 20});
  // Since session 78 an op's own loop by distance ("code"), in every entry or none (none where no distance
  // made it costlier: a last-level cache beyond 64 MiB).
  const bool code = curve[0].contains("code");
  for (size_t i = 0; i < curve.size(); ++i) EXPECT_EQ(curve[i].contains("code"), code) << i;
  // Since session 79 a node's own state by distance ("node"), in every entry.
  for (size_t i = 0; i < curve.size(); ++i) EXPECT_TRUE(curve[i].contains("node")) << i;
  for (size_t i = 0; i < curve.size(); ++i)
    for (const char* kind : {"vector", "product", "code", "node"}) {
      if (std::string(kind) == "code" && !code) continue;
      EXPECT_GE(curve[i][kind].get<double>(), i ? curve[i - 1][kind].get<double>() : 0.0) << i << kind;
      EXPECT_LE(curve[i][kind].get<double>(), 1e-3) << i << kind;
      if (i) {
        EXPECT_GT(curve[i]["bytes"].get<double>(), curve[i - 1]["bytes"].get<double>());
      }
    }
  EXPECT_GT(j["cpu"]["op_efficiency"]["GridSample"].get<double>(), 0.0);
  EXPECT_TRUE(j["cpu"]["op_row_s"].contains("GridSample"));
  // Since session 79 a scatter's rows, beside its updates' efficiency.
  ASSERT_TRUE(j["cpu"]["op_row_s"].contains("ScatterElements"));
  EXPECT_GE(j["cpu"]["op_row_s"]["ScatterElements"].get<double>(), 0.0);
  EXPECT_GT(j["cpu"]["op_efficiency"]["ScatterElements"].get<double>(), 0.0);
  // The executor's elementwise stream: one point per tensor size from 256 KiB (512 KiB of footprint),
  // ascending, each a positive rate.
  const auto& stream = j["cpu"]["stream_curve"];
  ASSERT_GE(stream.size(), 4u);
  EXPECT_DOUBLE_EQ(stream[0]["bytes"].get<double>(), 512.0 * 1024);
  for (size_t i = 0; i < stream.size(); ++i) {
    EXPECT_GT(stream[i]["bytes_per_s"].get<double>(), 0.0);
    if (i) {
      EXPECT_GT(stream[i]["bytes"].get<double>(), stream[i - 1]["bytes"].get<double>());
    }
  }
  // Matrix ops run as one network (about 100 MB of data between two uses of a shape's own) are slower
  // than alone: the fitted cost of a cold byte is positive, and every measured op has a fixed cost.
  EXPECT_GT(j["cpu"].value("cold_bandwidth_bytes_per_s", 0.0), 0.0);
  // The pointwise product's block of positions is a power of two (1 when no block fitted better).
  const int64_t block = j["cpu"].value("pointwise_position_block", int64_t{1});
  EXPECT_TRUE(block >= 1 && block <= 64 && (block & (block - 1)) == 0) << block;
  const int64_t channels = j["cpu"].value("conv_channel_block", int64_t{1});  // the same for output channels
  EXPECT_TRUE(channels >= 1 && channels <= 64 && (channels & (channels - 1)) == 0) << channels;
  EXPECT_EQ(j["cpu"]["op_call_s"].size(), j["cpu"]["op_efficiency"].size());
  // The row-wise ops' time a row, from their rows of 8 beside their rows of 1024.
  // (Since session 57 a Slice's rows too.)
  for (const char* op : {"Softmax", "LogSoftmax", "LayerNormalization", "Transpose/rows", "Gather", "Slice"})
    EXPECT_TRUE(j["cpu"]["op_row_s"].contains(op)) << op;
  // Masks have their own loops: a comparison into bool, its negation and a select are measured.
  for (const char* op : {"Equal", "Not", "Where"}) EXPECT_TRUE(j["cpu"]["op_efficiency"].contains(op)) << op;
  // Every matrix-op kind (oneDNN's, and the executor's own one-column loop) has a fitted shape model with its
  // residual.
  for (const char* kind : {"gemm", "gemm_tb", "gemm_col", "conv", "conv1d", "pointwise_conv", "grouped_conv",
                           "grouped_conv_wide", "depthwise_conv", "conv_transpose", "conv_transpose1d",
                           "conv_transpose_plain", "conv_direct", "conv_rows", "rnn"}) {
    const auto& m = j["cpu"]["cube_time_models"][kind];
    EXPECT_GE(m["cases"].get<int>(), 7) << kind;
    EXPECT_LT(m["rms_log_error"].get<double>(), 1.0) << kind;
    // Each shape's measured time is kept (fwb calibrate --merge fits again from them).
    EXPECT_EQ(m["measured_us"].size(), m["cases"].get<size_t>()) << kind;
  }
  // Two calibrations merged (the second one's per-kernel overhead and GEMM times doubled): each figure
  // the lower of the two, the models fitted again; the merged profile simulates.
  {
    auto second = j;
    second["launch_us"] = 2 * j["launch_us"].get<double>();
    for (auto& [shape, us] : second["cpu"]["cube_time_models"]["gemm"]["measured_us"].items())
      us = 2 * us.get<double>();
    const fs::path two = dir / "second.json", merged = dir / "merged.json";
    std::ofstream(two) << second.dump(2);
    auto r2 = runFwb("calibrate --merge " + out.string() + " " + two.string() + " -o " + merged.string());
    ASSERT_EQ(r2.exitCode, 0) << r2.out;
    EXPECT_NE(r2.out.find("gemm: shapes' times against their median x1 / x2;"), std::string::npos) << r2.out;
    const auto mj = nlohmann::json::parse(slurp(merged));
    EXPECT_DOUBLE_EQ(mj["launch_us"].get<double>(), j["launch_us"].get<double>());
    EXPECT_EQ(mj["cpu"]["cube_time_models"]["gemm"]["measured_us"],
              j["cpu"]["cube_time_models"]["gemm"]["measured_us"]);
    EXPECT_NE(mj["description"].get<std::string>().find("median of 2 calibrations"), std::string::npos);
    auto ms = runFwb("simulate 'zoo:resnet50?image=32' -O 2 --hw " + merged.string() + " --json -");
    EXPECT_EQ(ms.exitCode, 0) << ms.out;
    // One file, or one that is not there: bad input, the output untouched.
    auto bad = runFwb("calibrate --merge " + out.string() + " -o " + (dir / "none.json").string());
    EXPECT_EQ(bad.exitCode, 2) << bad.out;
    EXPECT_NE(bad.out.find("at least two"), std::string::npos) << bad.out;
    bad = runFwb("calibrate --merge " + out.string() + " " + (dir / "missing.json").string() + " -o " +
                 (dir / "none.json").string());
    EXPECT_EQ(bad.exitCode, 2) << bad.out;
    EXPECT_NE(bad.out.find("missing.json"), std::string::npos) << bad.out;
    EXPECT_FALSE(fs::exists(dir / "none.json"));
  }
  auto sim = runFwb("simulate 'zoo:resnet50?image=32' -O 2 --hw " + out.string() + " --json -");
  ASSERT_EQ(sim.exitCode, 0) << sim.out;
  const auto s = nlohmann::json::parse(sim.out.substr(sim.out.find('{')));
  EXPECT_GT(s["latency_us"].get<double>(), 0);
  fs::remove_all(dir);
}

TEST(CliCalibrate, FitRecoversAProfileFromAGeneratedOpSummary) {
  const fs::path dir = scratch("fit");
  const fs::path csv = dir / "op_summary_0_1.csv", fitted = dir / "my910b2.json";
  const std::string model = "'zoo:resnet50?image=224' --batch 8 -O 0";
  auto gen = runFwb("calibrate --synthesize " + csv.string() + " --hw ascend910b2 --set launch_us=3.5 "
                    "--set hbm_bandwidth_bytes_per_s=1.1e12 --set efficiency.cube=0.6 --noise 0.05 --seed 5 " + model);
  ASSERT_EQ(gen.exitCode, 0) << gen.out;
  auto fit = runFwb("calibrate --from " + csv.string() + " --hw ascend910b2 " + model + " -o " + fitted.string());
  ASSERT_EQ(fit.exitCode, 0) << fit.out;
  EXPECT_NE(fit.out.find("residual"), std::string::npos) << fit.out;
  const auto j = nlohmann::json::parse(slurp(fitted));
  EXPECT_EQ(j["name"], "my910b2");
  EXPECT_NEAR(j["launch_us"].get<double>() / 3.5, 1.0, 0.10) << fit.out;
  EXPECT_NEAR(j["hbm_bandwidth_bytes_per_s"].get<double>() / 1.1e12, 1.0, 0.10) << fit.out;
  EXPECT_NEAR(j["efficiency"]["cube"].get<double>() / 0.6, 1.0, 0.10) << fit.out;
  bool residualNote = false;
  for (const auto& n : j["notes"])
    if (n["field"] == "*" && n["source"].get<std::string>().find("residual") != std::string::npos) residualNote = true;
  EXPECT_TRUE(residualNote);
  // The fitted profile is a profile: fwb simulate reads it.
  auto sim = runFwb("simulate 'zoo:resnet50?image=64' --hw " + fitted.string() + " --rows 1");
  EXPECT_EQ(sim.exitCode, 0) << sim.out;
  // An input is never overwritten.
  auto same = runFwb("calibrate --from " + csv.string() + " --hw ascend910b2 " + model + " -o " + csv.string());
  EXPECT_EQ(same.exitCode, 2) << same.out;
  fs::remove_all(dir);
}

TEST(CliCalibrate, MalformedOpSummaryIsBadInputNamingLineAndColumn) {
  const fs::path dir = scratch("bad");
  const fs::path csv = dir / "op_summary_bad.csv";
  std::ofstream(csv) << "Op Name,OP Type,Task Duration(us)\nconv1,Conv2D,12.5\nrelu1,Relu,fast\n";
  auto r = runFwb("calibrate --from " + csv.string() + " --hw ascend910b2 'zoo:resnet50?image=32'");
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("op_summary_bad.csv:3: column 3 ('Task Duration(us)')"), std::string::npos) << r.out;
  // A summary of another model matches nothing: refused, not fitted to nothing.
  std::ofstream(csv) << "Op Name,OP Type,Task Duration(us)\nsomething_else,Conv2D,12.5\n";
  r = runFwb("calibrate --from " + csv.string() + " --hw ascend910b2 'zoo:resnet50?image=32'");
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("no row matches"), std::string::npos) << r.out;
  // Usage errors.
  EXPECT_EQ(runFwb("calibrate zoo:resnet50").exitCode, 2);
  EXPECT_EQ(runFwb("calibrate --from " + csv.string()).exitCode, 2);
  fs::remove_all(dir);
}
