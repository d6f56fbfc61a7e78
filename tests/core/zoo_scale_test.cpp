// The zoo at big-graph sizes (issue #11): 1,500 BERT layers and 1,000 LSTM steps build without outside
// files, the node count grows linearly in layers/steps, and limits name the parameter to lower.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "core/zoo/Zoo.h"

namespace fw {
namespace {

struct Built {
  size_t nodes = 0;
  double seconds = 0;
};

Built buildCounting(const std::string& name, const ZooParams& p, Model* keep = nullptr) {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = buildZooModel(name, p);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return {};
  Built b{r->graph->liveNodeCount(), s};
  if (keep) *keep = std::move(r).value();
  return b;
}

TEST(ZooScale, Bert1500LayersWithSmallHiddenIsLinearInLayers) {
  ZooParams p;
  p.hidden = 64;
  p.heads = 2;
  p.seq = 32;
  p.layers = 1;
  const size_t one = buildCounting("bert", p).nodes;
  p.layers = 2;
  const size_t two = buildCounting("bert", p).nodes;
  ASSERT_GT(two, one);
  const size_t perLayer = two - one, fixed = one - perLayer;
  EXPECT_EQ(perLayer, 50u);  // ZooBert tests count the ops of one layer

  p.layers = 1500;
  Model m;
  const Built big = buildCounting("bert", p, &m);
  std::printf("bert layers=1500 hidden=64 heads=2 seq=32: %zu nodes built in %.2f s\n", big.nodes, big.seconds);
  EXPECT_EQ(big.nodes, 1500 * perLayer + fixed);
  const Graph& g = *m.graph;
  EXPECT_EQ(g.value(g.outputs().at(0)).shape, Shape::ofInts({1, 32, 64}));
  EXPECT_NE(g.findValue("encoder.layer.1499.attention.self.query.weight"), kNoId);
  EXPECT_EQ(g.findValue("encoder.layer.1500.attention.self.query.weight"), kNoId);
  EXPECT_TRUE(g.topoOrder().ok());
}

TEST(ZooScale, Lstm1000StepsIsLinearInSteps) {
  ZooParams p;
  p.layers = 2;
  p.hidden = 16;
  p.seq = 1;
  const size_t one = buildCounting("lstm", p).nodes;
  p.seq = 2;
  const size_t two = buildCounting("lstm", p).nodes;
  ASSERT_GT(two, one);
  const size_t perStep = two - one, fixed = one - perStep;
  // Per step: one Gather of the input, 15 gate ops per layer, one Unsqueeze for the output.
  EXPECT_EQ(perStep, 1u + 2u * 15u + 1u);

  p.seq = 1000;
  Model m;
  const Built big = buildCounting("lstm", p, &m);
  std::printf("lstm layers=2 hidden=16 seq=1000: %zu nodes built in %.2f s\n", big.nodes, big.seconds);
  EXPECT_EQ(big.nodes, 1000 * perStep + fixed);
  const Graph& g = *m.graph;
  EXPECT_EQ(g.value(g.outputs().at(0)).shape, Shape::ofInts({1000, 1, 16}));
  EXPECT_TRUE(g.topoOrder().ok());
}

// Over the .onnx weight limit: the message gives the count and how far to lower which parameter, and the
// suggested values are the largest that fit (one more is still refused).
TEST(ZooScale, TooManyWeightsSaysWhichParameterToLower) {
  ZooParams p;
  p.layers = 1500;  // at hidden 768: ~10.6G weights
  auto r = buildZooModel("bert", p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::BadInput);
  const std::string& msg = r.error().message;
  EXPECT_NE(msg.find("400M"), std::string::npos) << msg;
  const auto number = [&](const std::string& after) -> int64_t {
    const auto at = msg.find(after);
    if (at == std::string::npos) return -1;
    return std::stoll(msg.substr(at + after.size()));
  };
  const int64_t maxLayers = number("--layers to at most ");
  const int64_t maxHidden = number("--hidden to at most ");
  ASSERT_GT(maxLayers, 0) << msg;
  ASSERT_GT(maxHidden, 0) << msg;
  EXPECT_NE(msg.find("(at --hidden 768)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(at --layers 1500"), std::string::npos) << msg;
  // One step past each suggestion is still too large.
  ZooParams q;
  q.layers = maxLayers + 1;
  EXPECT_FALSE(buildZooModel("bert", q).ok());
  q.layers = 1500;
  q.hidden = maxHidden + 1;
  q.heads = 1;
  auto over = buildZooModel("bert", q);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().message.find("400M"), std::string::npos) << over.error().message;
  EXPECT_EQ(maxLayers, 56);   // 12 x 768^2 + 13 x 768 = 7.09M weights per layer, 1.77M outside them
  EXPECT_EQ(maxHidden, 148);  // 1500 x (12 x 148^2 + 13 x 148) = 397.2M; 149 gives 402.5M

  ZooParams l;
  l.layers = 16;
  l.hidden = 4096;
  auto lstm = buildZooModel("lstm", l);
  ASSERT_FALSE(lstm.ok());
  EXPECT_EQ(lstm.error().code, ErrorCode::BadInput);
  EXPECT_NE(lstm.error().message.find("--layers to at most 3 (at --hidden 4096)"), std::string::npos)
      << lstm.error().message;
  EXPECT_NE(lstm.error().message.find("--hidden to at most"), std::string::npos) << lstm.error().message;
}

// Every advertised range is the accepted one: one below the minimum and one above the maximum are refused
// with a message naming the parameter and the same range.
TEST(ZooScale, AdvertisedRangesAreTheAcceptedOnes) {
  for (const auto& e : zooEntries()) {
    ASSERT_EQ(e.specs.size(), e.params.size()) << e.name;
    for (const auto& s : e.specs) {
      for (const int64_t v : {s.lo - 1, s.hi + 1}) {
        ZooParams p;
        if (s.name == "batch") p.batch = v;
        else if (s.name == "layers") p.layers = v;
        else if (s.name == "hidden") p.hidden = v;
        else if (s.name == "heads") p.heads = v;
        else if (s.name == "seq") p.seq = v;
        else if (s.name == "image") p.image = v;
        else FAIL() << e.name << ": unexpected parameter " << s.name;
        auto r = buildZooModel(e.name, p);
        ASSERT_FALSE(r.ok()) << e.name << " --" << s.name << " " << v;
        EXPECT_EQ(r.error().code, ErrorCode::BadInput);
        const std::string range = "--" + s.name + " must be in [" + std::to_string(s.lo) + ", " +
                                  std::to_string(s.hi) + "]";
        EXPECT_NE(r.error().message.find(range), std::string::npos) << r.error().message;
      }
    }
  }
  // The sizes issue #11 asks for are inside the ranges.
  for (const auto& e : zooEntries()) {
    for (const auto& s : e.specs) {
      if (e.name == "bert" && s.name == "layers") {
        EXPECT_GE(s.hi, 1500);
      }
      if (e.name == "lstm" && s.name == "seq") {
        EXPECT_GE(s.hi, 1000);
      }
    }
  }
}

TEST(ZooScale, HeadsMustDivideHidden) {
  ZooParams p;
  p.layers = 1;
  p.hidden = 64;
  p.heads = 3;
  auto r = buildZooModel("bert", p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::BadInput);
  EXPECT_NE(r.error().message.find("--hidden (64) must be divisible by --heads (3)"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("--heads 2"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace fw
