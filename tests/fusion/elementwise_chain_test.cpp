#include "fusion/Registry.h"
#include "tests/fusion/FusionTestUtil.h"
namespace fwtest {
namespace {

TEST(ElementwiseChain, FusesChainAndDiamond) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto a = b.op("Add", {x, b.constant("c", {8})}, {2, 8});
  auto s = b.op("Sigmoid", {a}, {2, 8});
  b.output(b.op("Mul", {a, s}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"elementwise_chain"}));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].members.size(), 3u);
}
TEST(ElementwiseChain, RejectsGraphOutputIntermediate) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto a = b.op("Relu", {x}, {2, 8});
  b.output(a);
  b.output(b.op("Sigmoid", {a}, {2, 8}));
  auto r = fuseAndVerify(b.model(), onlyRules({"elementwise_chain"}));
  EXPECT_EQ(r.kernels.size(), 2u);
  EXPECT_TRUE(hasDecision(r, "elementwise_chain", false, "is a graph output"));
}
// A WaveNet's skip sums (skip += k_i(h_i) a layer): as one kernel the chain of Adds waits for the last
// layer, holding every layer's k_i output until then, where apart each Add runs as its layer's output comes
// (set 110's WaveNet, 18 layers of 8 MiB: 207-212 ms against 185-188 without that kernel, session 77). From
// level 2 a merge may hold no more than the cache beyond what the kernels apart hold.
static Model skipSums(int layers) {
  GraphBuilder b;
  ValueId h = b.input("x", {16, 64});
  ValueId skip = kNoId;
  for (int i = 0; i < layers; ++i) {
    const std::string n = std::to_string(i);
    ValueId k = b.op("MatMul", {h, b.constant("k" + n, {64, 64})}, {16, 64}, {}, "skip_mm" + n);
    skip = skip == kNoId ? k : b.op("Add", {skip, k}, {16, 64}, {}, "skip_add" + n);
    h = b.op("MatMul", {h, b.constant("w" + n, {64, 64})}, {16, 64}, {}, "layer_mm" + n);
  }
  b.output(skip);
  b.output(h);
  return b.model();
}
static fusion::FusionOptions chainOnly(int level) {
  auto o = onlyRules({"elementwise_chain"}, level);
  for (const auto& info : fusion::ruleInfos())
    if (info.id != "elementwise_chain") o.disabled.insert(info.id);
  o.hw.minTrafficSaving = 0;
  return o;
}
TEST(ElementwiseChain, HoldsNoMoreThanTheCacheWaitingForALaterInput) {
  auto o = chainOnly(2);
  // No cache figure: the Adds become one kernel.
  auto r = fuseAndVerify(skipSums(4), o);
  EXPECT_EQ(multiKernels(r), 1u);
  // Each Add joined to the one before holds one more layer output (16 x 64 floats, 4 KiB) until the next
  // layer's MatMul has run.
  o.hw.cacheBytes = 2048;
  r = fuseAndVerify(skipSums(4), o);
  EXPECT_EQ(multiKernels(r), 0u);
  EXPECT_TRUE(
      hasDecision(r, "elementwise_chain", false, "would keep 4 KiB more alive until 'skip_mm2' has run"));
  o.hw.cacheBytes = 8192;
  r = fuseAndVerify(skipSums(2), o);
  EXPECT_EQ(multiKernels(r), 0u);  // one Add: nothing to join
  r = fuseAndVerify(skipSums(3), o);
  EXPECT_EQ(multiKernels(r), 1u);  // 4 KiB held, within 8 KiB
  // Below level 2 no such check (as the Unified Buffer's).
  o.optLevel = 1;
  o.hw.cacheBytes = 2048;
  r = fuseAndVerify(skipSums(4), o);
  EXPECT_EQ(multiKernels(r), 1u);
}
// A member that waits but would have left as much for the later members holds nothing more: a branch's
// Relu joined to the Add that meets the other branch.
TEST(ElementwiseChain, AWaitThatHoldsWhatApartIsHeldAnywayIsAllowed) {
  GraphBuilder b;
  auto x = b.input("x", {16, 64});
  auto a = b.op("Relu", {b.op("MatMul", {x, b.constant("w1", {64, 64})}, {16, 64})}, {16, 64}, {}, "relu");
  auto c = b.op("MatMul", {x, b.constant("w2", {64, 64})}, {16, 64}, {}, "other");
  b.output(b.op("Add", {a, c}, {16, 64}, {}, "meet"));
  auto o = chainOnly(2);
  o.hw.cacheBytes = 1024;
  auto r = fuseAndVerify(b.model(), o);
  ASSERT_EQ(multiKernels(r), 1u);
}
}  // namespace
}  // namespace fwtest
