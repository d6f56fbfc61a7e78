// Measured beside simulated (simulator/Measured.h): accuracy figures on hand-made runs, the profile
// JSON round trip and its errors, the measured trace, and the measured column of the CSV and table.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/util/FileUtil.h"
#include "simulator/Measured.h"
#include "simulator/SimReport.h"

using namespace fw::sim;

namespace {

KernelTiming kt(const std::string& name, double us, Unit unit = Unit::Vector, std::vector<std::string> origins = {}) {
  KernelTiming k;
  k.name = name;
  k.durUs = us;
  k.unit = unit;
  k.ops = {"Relu"};
  k.origins = origins.empty() ? std::vector<std::string>{name} : std::move(origins);
  return k;
}

SimResult simOf(std::vector<KernelTiming> ks) {
  SimResult r;
  r.hwName = "test";
  for (auto& k : ks) {
    k.startUs = r.latencyUs;
    r.latencyUs += k.durUs;
  }
  r.kernels = std::move(ks);
  return r;
}

MeasuredRun runOf(std::vector<std::pair<std::string, double>> rows, double total = 0) {
  MeasuredRun m;
  m.source = "hand-made";
  m.model = "m";
  m.optLevel = 2;
  m.threads = 1;
  for (auto& [n, us] : rows) {
    MeasuredKernel k;
    k.name = n;
    k.us = us;
    k.ops = {"Relu"};
    m.kernels.push_back(k);
    m.totalUs += us;
  }
  if (total > 0) m.totalUs = total;
  return m;
}

}  // namespace

TEST(Measured, SpearmanOfOrders) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3}, {5, 5, 5}), 0.0);  // no spread
  EXPECT_DOUBLE_EQ(spearman({1}, {1}), 0.0);
  // Ties take their average rank: x ranks 1,2.5,2.5,4 against 1,2,3,4 -> 0.9486832980505138.
  EXPECT_NEAR(spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486832980505138, 1e-12);
}

TEST(Measured, AccuracyOfExactAndReversedRuns) {
  const auto sim = simOf({kt("a", 1), kt("b", 2), kt("c", 3), kt("d", 4)});
  auto same = accuracy(sim, runOf({{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}));
  EXPECT_EQ(same.matched, 4u);
  EXPECT_EQ(same.scored, 4u);
  EXPECT_DOUBLE_EQ(same.medianAbsErr, 0.0);
  EXPECT_DOUBLE_EQ(same.meanAbsErr, 0.0);
  EXPECT_DOUBLE_EQ(same.totalErr, 0.0);
  EXPECT_DOUBLE_EQ(same.spearman, 1.0);
  EXPECT_TRUE(same.ranked);
  EXPECT_TRUE(toJson(same)["spearman"].is_number());
  EXPECT_FALSE(toJson(same).contains("spearman_na"));

  // Measured in the reverse order of size: rank correlation -1. Errors: |1-4|/4, |2-3|/3, |3-2|/2, |4-1|/1.
  auto rev = accuracy(sim, runOf({{"a", 4}, {"b", 3}, {"c", 2}, {"d", 1}}, 20));
  EXPECT_DOUBLE_EQ(rev.spearman, -1.0);
  const double e[] = {0.75, 1.0 / 3.0, 0.5, 3.0};
  EXPECT_NEAR(rev.meanAbsErr, (e[0] + e[1] + e[2] + e[3]) / 4, 1e-12);
  EXPECT_NEAR(rev.medianAbsErr, (0.5 + 0.75) / 2, 1e-12);
  EXPECT_NEAR(rev.totalErr, (10.0 - 20.0) / 20.0, 1e-12);  // simulated latency 10 vs the measured total
  ASSERT_EQ(rev.rows.size(), 4u);
  EXPECT_NEAR(rev.rows[3].relErr, 3.0, 1e-12);
  EXPECT_EQ(rev.measuredUs, (std::vector<double>{4, 3, 2, 1}));
}

TEST(Measured, TheErrorBrokenDownByWhatTheKernelsRun) {
  // Two Convs and two Relus, a view (not scored) and an If measured as one node: each group's sums, its
  // share of the whole-model error and its median ratio; the largest difference first.
  auto sim = simOf({kt("k0_conv", 10, Unit::Cube), kt("k1_relu", 2), kt("k2_conv", 6, Unit::Cube),
                    kt("k3_relu", 1), kt("k4_reshape", 0, Unit::None), kt("If_5/then_branch/k0_add", 3)});
  sim.kernels[0].ops = sim.kernels[2].ops = {"Conv"};
  sim.kernels[4].ops = {"Reshape"};
  auto a = accuracy(sim, runOf({{"k0_conv", 8},
                                {"k1_relu", 4},
                                {"k2_conv", 6},
                                {"k3_relu", 2},
                                {"k4_reshape", 0.5},
                                {"If_5", 2.5}},
                               23));
  ASSERT_EQ(a.byOps.size(), 3u);
  EXPECT_EQ(a.byOps[0].ops, "Relu");  // |3 - 6| before the Convs' |16 - 14| and the If's |3 - 2.5|
  EXPECT_EQ(a.byOps[0].kernels, 2u);
  EXPECT_DOUBLE_EQ(a.byOps[0].simulatedUs, 3.0);
  EXPECT_DOUBLE_EQ(a.byOps[0].measuredUs, 6.0);
  EXPECT_DOUBLE_EQ(a.byOps[0].medianRatio, 0.5);
  EXPECT_NEAR(a.byOps[0].shareOfTotal, -3.0 / 23, 1e-12);
  EXPECT_EQ(a.byOps[1].ops, "Conv");
  EXPECT_DOUBLE_EQ(a.byOps[1].medianRatio, (1.25 + 1.0) / 2);
  EXPECT_NEAR(a.byOps[1].shareOfTotal, 2.0 / 23, 1e-12);
  EXPECT_EQ(a.byOps[2].ops, "control flow");
  EXPECT_EQ(a.byOps[2].kernels, 1u);
  // The scored rows' shares add up to the whole-model error (the view adds nothing simulated here).
  EXPECT_NEAR(a.byOps[0].shareOfTotal + a.byOps[1].shareOfTotal + a.byOps[2].shareOfTotal + (0 - 0.5) / 23,
              a.totalErr, 1e-12);
  const auto j = toJson(a)["by_ops"];
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[1]["ops"], "Conv");
  EXPECT_EQ(j[1]["kernels"], 2);
  EXPECT_DOUBLE_EQ(j[1]["simulated_us"].get<double>(), 16.0);
  const std::string text = formatAccuracy(a, runOf({}));
  EXPECT_NE(
      text.find("error by ops           Relu: 2 kernels, simulated 3.0 us vs measured 6.0 us (median 0.50 of "
                "measured), -13.0 % of the whole model"),
      std::string::npos)
      << text;
  // A fused body of more than six ops is printed by its first five and its count (the JSON keeps them all).
  EXPECT_EQ(shortOps("Conv+Add+Relu"), "Conv+Add+Relu");
  EXPECT_EQ(shortOps("A+B+C+D+E+F"), "A+B+C+D+E+F");
  EXPECT_EQ(shortOps("A+B+C+D+E+F+G"), "A+B+C+D+E+... (7 ops)");
  a.byOps[1].ops = "MatMul+Add+Add+Split+Sigmoid+Sigmoid+Tanh";
  EXPECT_NE(formatAccuracy(a, runOf({})).find("  MatMul+Add+Add+Split+Sigmoid+... (7 ops): 2 kernels"),
            std::string::npos)
      << formatAccuracy(a, runOf({}));
}

TEST(Measured, UnmatchedViewsAndControlFlow) {
  // A view (no device kernel), two body kernels of an If measured as the node, one kernel unmeasured.
  const auto sim = simOf({kt("k0_conv", 10, Unit::Cube), kt("k1_reshape", 0, Unit::None),
                          kt("If_3/then_branch/k0_add", 2), kt("If_3/then_branch/k1_mul", 3), kt("k4_relu", 1)});
  auto a = accuracy(sim, runOf({{"k0_conv", 5}, {"k1_reshape", 0.5}, {"If_3", 10}, {"ghost", 7}}));
  EXPECT_EQ(a.matched, 3u);
  EXPECT_EQ(a.scored, 2u);    // the view is matched, not scored
  EXPECT_EQ(a.excluded, 1u);
  EXPECT_EQ(a.unmatchedMeasured, (std::vector<std::string>{"ghost"}));
  EXPECT_EQ(a.unmatchedSimulated, (std::vector<std::string>{"k4_relu"}));
  ASSERT_EQ(a.rows.size(), 3u);
  EXPECT_EQ(a.rows[2].name, "If_3");
  EXPECT_DOUBLE_EQ(a.rows[2].simulatedUs, 5.0);  // 2 + 3
  EXPECT_DOUBLE_EQ(a.rows[2].relErr, -0.5);
  EXPECT_DOUBLE_EQ(a.rows[0].relErr, 1.0);       // 10 vs 5
  EXPECT_DOUBLE_EQ(a.medianAbsErr, 0.75);
  EXPECT_DOUBLE_EQ(a.measuredUs[1], 0.5);
  EXPECT_DOUBLE_EQ(a.measuredUs[2], -1.0);       // body rows: matched through their node, not one by one
}

TEST(Measured, AKernelOfTheSameNameThatRanOtherNodesIsAnotherPlan) {
  // Profiled with another hardware profile: its k1 ran the Conv alone, the simulated k1 fused the Conv
  // with its norm; the name k2 exists in both plans for different nodes. Only k0 lines up.
  auto sim = simOf({kt("k0_pad", 1), kt("k1_conv_epilogue", 10, Unit::CubeVector), kt("k2_pad", 2)});
  sim.kernels[0].nodes = {"pad_0"};
  sim.kernels[1].nodes = {"conv_1", "norm_2"};
  sim.kernels[1].ops = {"Conv", "InstanceNormalization"};
  sim.kernels[2].nodes = {"pad_4"};
  auto run = runOf({{"k0_pad", 1}, {"k1_conv_epilogue", 6}, {"k2_pad", 5}});
  run.kernels[0].nodes = {"pad_0"};
  run.kernels[1].nodes = {"conv_1"};
  run.kernels[1].ops = {"Conv"};
  run.kernels[2].nodes = {"norm_2"};
  auto a = accuracy(sim, run);
  EXPECT_EQ(a.matched, 1u);
  ASSERT_EQ(a.otherPlan.size(), 2u);
  EXPECT_EQ(a.otherPlan[0],
            "k1_conv_epilogue: measured Conv (conv_1), simulated Conv+InstanceNormalization (conv_1, ...)");
  EXPECT_EQ(a.unmatchedSimulated, (std::vector<std::string>{"k1_conv_epilogue", "k2_pad"}));
  EXPECT_NE(formatAccuracy(a, run).find("ran other nodes"), std::string::npos);
  EXPECT_EQ(toJson(a)["other_plan"].size(), 2u);
  // A source that does not list nodes (older profiles) matches by name alone.
  for (auto& k : run.kernels) k.nodes.clear();
  EXPECT_EQ(accuracy(sim, run).matched, 3u);
}

TEST(Measured, ByNodeRunsSumPerKernelThroughOrigins) {
  // A board measured the original nodes; the fused kernel k0 stands for conv_0, bn_0 and relu_0.
  const auto sim = simOf({kt("k0_conv_relu", 6, Unit::CubeVector, {"conv_0", "bn_0", "relu_0"}),
                          kt("k1_pool", 2, Unit::Vector, {"pool_0"})});
  auto run = runOf({{"conv_0", 3}, {"Default/net/relu_0", 1}, {"pool_0", 4}, {"softmax_9", 1}});
  run.byNode = true;
  auto a = accuracy(sim, run);
  EXPECT_EQ(a.matched, 2u);
  EXPECT_DOUBLE_EQ(a.measuredUs[0], 4.0);  // conv_0 + relu_0 (matched by the last '/' part)
  EXPECT_DOUBLE_EQ(a.measuredUs[1], 4.0);
  EXPECT_EQ(a.unmatchedMeasured, (std::vector<std::string>{"softmax_9"}));
  EXPECT_DOUBLE_EQ(a.meanAbsErr, (0.5 + 0.5) / 2);
  EXPECT_DOUBLE_EQ(a.spearman, 0.0);  // measured times tie: no spread
  EXPECT_FALSE(a.ranked);
  EXPECT_EQ(a.unranked, "the measured times are all equal");
}

// A run fused into one kernel has no ranking to correlate: not a Spearman of 0 (which reads as "no
// correlation") but none, in the JSON (null and why) and in the text.
TEST(Measured, OneKernelHasNoRankCorrelation) {
  const auto sim = simOf({kt("k0_all", 8)});
  auto run = runOf({{"k0_all", 10}}, 10);
  auto a = accuracy(sim, run);
  EXPECT_EQ(a.scored, 1u);
  EXPECT_FALSE(a.ranked);
  EXPECT_EQ(a.unranked, "1 kernel scored: nothing to rank");
  EXPECT_NEAR(a.medianAbsErr, 0.2, 1e-12);
  const auto j = toJson(a);
  EXPECT_TRUE(j["spearman"].is_null());
  EXPECT_EQ(j["spearman_na"], "1 kernel scored: nothing to rank");
  const std::string text = formatAccuracy(a, run);
  EXPECT_NE(text.find("Spearman n/a (1 kernel scored: nothing to rank)"), std::string::npos) << text;
  // Two kernels rank (+-1), and equal simulated times do not.
  auto two = accuracy(simOf({kt("a", 1), kt("b", 2)}), runOf({{"a", 1}, {"b", 3}}));
  EXPECT_TRUE(two.ranked);
  EXPECT_DOUBLE_EQ(two.spearman, 1.0);
  auto flat = accuracy(simOf({kt("a", 2), kt("b", 2)}), runOf({{"a", 1}, {"b", 3}}));
  EXPECT_FALSE(flat.ranked);
  EXPECT_EQ(flat.unranked, "the simulated times are all equal");
}

TEST(Measured, JsonRoundTrip) {
  auto run = runOf({{"k0_conv", 12.5}, {"k1_relu", 0.25}}, 14);
  run.kernels[0].minUs = 11;
  run.kernels[0].startUs = 0;
  run.kernels[1].startUs = 12.6;
  run.kernels[1].nodes = {"relu_1"};
  run.repeats = 5;
  run.warmup = 1;
  const auto dir = std::filesystem::temp_directory_path() / "fw_measured_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "p.json").string();
  ASSERT_TRUE(writeMeasuredJson(path, run).ok());
  auto back = loadMeasuredRun(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->model, "m");
  EXPECT_EQ(back->source, "hand-made");
  EXPECT_EQ(back->optLevel, 2);
  EXPECT_EQ(back->threads, 1);
  EXPECT_EQ(back->repeats, 5);
  EXPECT_DOUBLE_EQ(back->totalUs, 14);
  ASSERT_EQ(back->kernels.size(), 2u);
  EXPECT_EQ(back->kernels[0].name, "k0_conv");
  EXPECT_EQ(back->kernels[0].ops, (std::vector<std::string>{"Relu"}));
  EXPECT_DOUBLE_EQ(back->kernels[0].us, 12.5);
  EXPECT_DOUBLE_EQ(back->kernels[0].minUs, 11);
  EXPECT_DOUBLE_EQ(back->kernels[1].minUs, -1);
  EXPECT_DOUBLE_EQ(back->kernels[1].startUs, 12.6);
  EXPECT_TRUE(back->kernels[0].nodes.empty());
  EXPECT_EQ(back->kernels[1].nodes, (std::vector<std::string>{"relu_1"}));
  EXPECT_EQ(toJson(*back), toJson(run));

  // The trace: one X event per kernel at its start.
  const auto tr = toChromeTrace(run);
  int events = 0;
  for (const auto& e : tr["traceEvents"])
    if (e["ph"] == "X") {
      ++events;
      if (e["name"] == "k1_relu") {
        EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 12.6);
      }
    }
  EXPECT_EQ(events, 2);
  std::filesystem::remove_all(dir);
}

TEST(Measured, MalformedJsonNamesFileAndField) {
  auto err = [](const std::string& text) {
    auto r = measuredRunFromJson(text, "prof.json");
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_NE(err("{not json").find("prof.json: not valid JSON"), std::string::npos);
  EXPECT_NE(err("[1,2]").find("expected a JSON object"), std::string::npos);
  const std::string head = R"({"model":"m","opt_level":2,"threads":1,"total_us":3,)";
  EXPECT_NE(err(R"({"opt_level":2,"threads":1,"total_us":3,"kernels":[]})").find("prof.json: model: missing"), std::string::npos);
  EXPECT_NE(err(head + R"("kernels":{}})").find("prof.json: kernels: expected an array"), std::string::npos);
  EXPECT_NE(err(head + R"("kernels":[{"name":"a","measured_us":1},{"name":"b","measured_us":"x"}]})")
                .find("prof.json: kernels[1].measured_us: expected a number"),
            std::string::npos);
  EXPECT_NE(err(head + R"("kernels":[{"name":"a","measured_us":-1}]})").find("kernels[0].measured_us: must not be negative"),
            std::string::npos);
  EXPECT_NE(err(head + R"("kernels":[{"measured_us":1}]})").find("kernels[0].name: missing"), std::string::npos);
  EXPECT_NE(err(head + R"("kernels":[{"name":"a","ops":[1],"measured_us":1}]})").find("kernels[0].ops[0]"), std::string::npos);
  EXPECT_NE(err(head + R"("kernels":[{"name":"a","nodes":"n","measured_us":1}]})")
                .find("kernels[0].nodes: expected an array"),
            std::string::npos);
  EXPECT_NE(
      err(head + R"("kernels":[{"name":"a","nodes":["n",2],"measured_us":1}]})").find("kernels[0].nodes[1]"),
      std::string::npos);
  EXPECT_NE(err(R"({"model":"m","opt_level":7,"threads":1,"total_us":3,"kernels":[]})").find("opt_level: 7 is out of range"),
            std::string::npos);
  auto ok = measuredRunFromJson(head + R"("kernels":[{"name":"a","measured_us":1}]})", "prof.json");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->source, "prof.json");  // no source given: the file stands for it

  auto ext = loadMeasuredRun("run.txt");
  ASSERT_FALSE(ext.ok());
  EXPECT_NE(ext.error().message.find("run.txt"), std::string::npos);
}

TEST(Measured, TheMedianOfSeveralProfilesPerKernel) {
  auto a = runOf({{"k0", 10}, {"k1", 4}}, 15), b = runOf({{"k0", 30}, {"k1", 2}}, 35),
       c = runOf({{"k0", 12}, {"k1", 3}}, 16);
  a.repeats = b.repeats = c.repeats = 10;
  a.runsTimed = 12, a.runsStolen = 2, a.stealShare = 0.01;
  b.runsTimed = 10, b.runsStolen = 0, b.stealShare = 0.0;
  c.runsTimed = 15, c.runsStolen = 5, c.stealShare = 0.03;
  a.kernels[0].minUs = 9, b.kernels[0].minUs = 8;
  auto m = medianOfRuns({a, b, c}, {"a.json", "b.json", "c.json"});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_DOUBLE_EQ(m->kernels[0].us, 12);
  EXPECT_DOUBLE_EQ(m->kernels[1].us, 3);
  EXPECT_DOUBLE_EQ(m->kernels[0].minUs, 8);
  EXPECT_DOUBLE_EQ(m->kernels[1].minUs, -1);
  EXPECT_DOUBLE_EQ(m->totalUs, 16);
  EXPECT_EQ(m->repeats, 30);
  EXPECT_EQ(m->runsTimed, 37);
  EXPECT_EQ(m->runsStolen, 7);
  EXPECT_DOUBLE_EQ(m->stealShare, 0.01);
  EXPECT_EQ(m->mergedFrom, (std::vector<std::string>{"a.json", "b.json", "c.json"}));
  EXPECT_NE(m->source.find("median of 3 profiles"), std::string::npos) << m->source;
  EXPECT_NE(formatMeasuredTable(*m).find("the median of 3 profiles' medians (30 timed runs in all)"),
            std::string::npos)
      << formatMeasuredTable(*m);
  // The fields survive the JSON.
  auto back = measuredRunFromJson(toJson(*m).dump(), "m.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(toJson(*back), toJson(*m));
  // One run is itself; a profile without the steal check makes the merged one unchecked.
  EXPECT_EQ(toJson(*medianOfRuns({a}, {"a.json"})), toJson(a));
  auto unchecked = c;
  unchecked.runsStolen = -1;
  EXPECT_EQ(medianOfRuns({a, unchecked}, {}).value().runsStolen, -1);
  EXPECT_FALSE(medianOfRuns({}, {}).ok());
}

// Several profiles set as one say how alike they rank their kernels (the median over pairs of runs of their
// Spearman over kernels above 0 us in both), and the accuracy reports it beside its own Spearman: a ranking
// cannot be judged finer. Runs a and c agree (1), b swaps c and d: 0.8 against a over four kernels (a's e
// took 0 us), 0.9 against c over five; the median 0.9.
TEST(Measured, SeveralProfilesSayHowAlikeTheyRankTheirKernels) {
  const auto a = runOf({{"a", 10}, {"b", 20}, {"c", 30}, {"d", 40}, {"e", 0}}),
             b = runOf({{"a", 10}, {"b", 20}, {"c", 40}, {"d", 30}, {"e", 5}}),
             c = runOf({{"a", 11}, {"b", 21}, {"c", 31}, {"d", 41}, {"e", 6}});
  auto two = medianOfRuns({a, c}, {"a.json", "c.json"});
  ASSERT_TRUE(two.ok()) << two.error().message;
  EXPECT_DOUBLE_EQ(two->runsSpearman, 1.0);
  auto three = medianOfRuns({a, b, c}, {"a.json", "b.json", "c.json"});
  ASSERT_TRUE(three.ok()) << three.error().message;
  EXPECT_NEAR(three->runsSpearman, 0.9, 1e-12);
  EXPECT_TRUE(std::isnan(medianOfRuns({a}, {"a.json"})->runsSpearman));
  const auto sim = simOf({kt("a", 10), kt("b", 20), kt("c", 30), kt("d", 40), kt("e", 5)});
  const Accuracy acc = accuracy(sim, *three);
  EXPECT_NEAR(acc.runsSpearman, 0.9, 1e-12);
  EXPECT_NEAR(toJson(acc)["spearman_between_runs"].get<double>(), 0.9, 1e-12);
  EXPECT_NE(formatAccuracy(acc, *three).find("the measured runs rank the kernels alike to 0.900"),
            std::string::npos)
      << formatAccuracy(acc, *three);
  const Accuracy one = accuracy(sim, a);
  EXPECT_TRUE(toJson(one)["spearman_between_runs"].is_null());
  EXPECT_EQ(formatAccuracy(one, a).find("rank the kernels alike"), std::string::npos);
}

TEST(Measured, ProfilesOfAnotherModelOrLevelAreNotMerged) {
  const auto a = runOf({{"k0", 10}, {"k1", 4}});
  auto err = [&](MeasuredRun b) {
    auto m = medianOfRuns({a, b}, {"a.json", "b.json"});
    EXPECT_FALSE(m.ok());
    return m.ok() ? std::string() : m.error().message;
  };
  auto b = a;
  b.optLevel = 0;
  EXPECT_NE(err(b).find("b.json: opt_level is 0, a.json's is 2"), std::string::npos) << err(b);
  b = a;
  b.model = "other";
  EXPECT_NE(err(b).find("b.json: model is 'other'"), std::string::npos) << err(b);
  b = a;
  b.threads = 2;
  EXPECT_NE(err(b).find("threads"), std::string::npos);
  b = a;
  b.kernels.pop_back();
  EXPECT_NE(err(b).find("number of kernels"), std::string::npos);
  b = a;
  b.kernels[1].name = "k9";
  EXPECT_NE(err(b).find("kernels[1].name is 'k9'"), std::string::npos) << err(b);
  // The steal fields are checked when read.
  const std::string head = R"({"model":"m","opt_level":2,"threads":1,"total_us":3,"kernels":[],)";
  auto bad = measuredRunFromJson(head + R"("runs_timed":3,"runs_stolen":4,"steal_share":0})", "p.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("p.json: runs_stolen: 4 is out of range"), std::string::npos)
      << bad.error().message;
  bad = measuredRunFromJson(head + R"("runs_timed":3,"runs_stolen":1,"steal_share":2})", "p.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("steal_share"), std::string::npos);
}

TEST(Measured, CsvAndTableCarryTheMeasuredColumn) {
  const auto sim = simOf({kt("a", 1), kt("b", 2)});
  const auto acc = accuracy(sim, runOf({{"a", 2}}));
  const std::string csv = toCsv(sim, &acc);
  EXPECT_NE(csv.substr(0, csv.find('\n')).find("dur_us,measured_us,measured_on,cycles"), std::string::npos);
  EXPECT_NE(csv.find("\n0,a,Relu,vector,0.0000,1.0000,2.0000,host,"), std::string::npos);
  EXPECT_NE(csv.find("\n1,b,Relu,vector,1.0000,2.0000,,,"), std::string::npos);
  EXPECT_EQ(toCsv(sim).find("measured_us"), std::string::npos);

  HwProfile hw;
  hw.name = "test";
  const auto run = runOf({{"a", 2}});
  const std::string t = formatComparisonTable(sim, sim, hw, 0, &acc, &run);
  EXPECT_NE(t.find("measured (host) us"), std::string::npos);
  EXPECT_NE(t.find("-50%"), std::string::npos);
  EXPECT_NE(t.find("whole model"), std::string::npos);
  EXPECT_NE(t.find("unmatched simulated"), std::string::npos);

  // A board's op summary (rows by node) is labelled as such everywhere.
  auto board = runOf({{"a", 2}});
  board.byNode = true;
  const auto boardAcc = accuracy(sim, board);
  EXPECT_EQ(boardAcc.on, "board");
  EXPECT_NE(toCsv(sim, &boardAcc).find(",board,"), std::string::npos);
  EXPECT_NE(formatComparisonTable(sim, sim, hw, 0, &boardAcc, &board).find("measured (board) us"), std::string::npos);
  EXPECT_EQ(toJson(boardAcc)["measured_on"], "board");
}
