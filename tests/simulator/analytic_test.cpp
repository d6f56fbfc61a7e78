// Hand-computed cases on resources/hw/toy.json. Toy figures used below:
//   clock 1 GHz (1 cycle = 1 ns), 2 cube cores, 2 vector cores, cube 16×16×16, acc 4 B, C0 16,
//   64 fp16 lanes, L0A/L0B 32 KiB, L0C 64 KiB, L1 256 KiB, UB 64 KiB, no L2,
//   HBM 1e11 B/s = 100 B/cycle, launch 1 µs = 1000 cycles, host dispatch 10 µs = 10000 cycles,
//   device dtype fp16 (2 B; the graphs are float32, the device stores fp16).
//   peak = 2·4096·2 cores·1e9 = 16.384 TFLOP/s = 16384 FLOP/cycle.
// Kernel cycles = max(S) + ceil((sum(S) − max(S)) / tiles) + launch, S = {transfer, cube, vector}.
#include <gtest/gtest.h>

#include "SimTestUtil.h"
#include "simulator/CostModel.h"

namespace fw::sim::test {
namespace {

TEST(SimAnalytic, SingleElementwise) {
  const HwProfile hw = toy();
  Graph g = unaryChain({"Relu"}, {1, 65536});
  SimResult r = runUnfused(g, hw);
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelTiming& k = r.kernels[0];
  // bytes: in 65536·2 + out 65536·2 = 262144 → transfer ceil(262144 / 100) = 2622 cycles
  EXPECT_DOUBLE_EQ(k.hbmBytes, 262144.0);
  EXPECT_EQ(k.transferCycles, 2622);
  // vector: 2 cores · 32768 elements each; 1 op/elem → ceil(32768 / 64) = 512 cycles
  EXPECT_EQ(k.vectorCycles, 512);
  EXPECT_EQ(k.cubeCycles, 0);
  // UB tile: in + out double-buffered = 4 buffers · 2 B = 8 B/elem → 65536/8 = 8192 elems
  //          → 32768 / 8192 = 4 tiles per core
  EXPECT_EQ(k.tilesPerCore, 4);
  EXPECT_EQ(k.workingSetBytes, 64 * 8);
  // 2622 + ceil(512 / 4) = 2750, + launch 1000 = 3750
  EXPECT_EQ(k.fillCycles, 128);
  EXPECT_EQ(k.cycles, 3750);
  EXPECT_DOUBLE_EQ(k.durUs, 3.75);
  EXPECT_EQ(k.unit, Unit::Vector);
  EXPECT_EQ(k.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(r.latencyUs, 3.75);
  // launch share: 1000 / 3750
  EXPECT_NEAR(r.launchShare, 1000.0 / 3750.0, 1e-12);
  // memory: x (131072) and the output (131072) are both live at the only step
  EXPECT_DOUBLE_EQ(r.peakMemoryBytes, 262144.0);
}

TEST(SimAnalytic, SingleGemmOneTile) {
  const HwProfile hw = toy();
  Graph g = matmul(64, 64, 64);
  SimResult r = runUnfused(g, hw);
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelTiming& k = r.kernels[0];
  // fractals: mt = nt = kt = 64/16 = 4; 16 output fractals over 2 cores = 8 each, × kt 4 = 32 cycles
  EXPECT_EQ(k.cubeCycles, 32);
  EXPECT_EQ(k.vectorCycles, 0);
  // bytes: x 8192 + W 8192 + y 8192 = 24576 → ceil(245.76) = 246 cycles
  EXPECT_DOUBLE_EQ(k.hbmBytes, 24576.0);
  EXPECT_DOUBLE_EQ(k.weightBytes, 8192.0);
  EXPECT_EQ(k.transferCycles, 246);
  // tiling: 64×64 accumulators = 16 KiB fit L0C → one L1 tile, one tile per core: no overlap
  EXPECT_EQ(k.tilesPerCore, 1);
  EXPECT_DOUBLE_EQ(k.rereadBytes, 0.0);
  // 246 + 32 + launch 1000 = 1278; the launch dominates
  EXPECT_EQ(k.cycles, 1278);
  EXPECT_EQ(k.bound, Bound::Launch);
  EXPECT_DOUBLE_EQ(k.flops, 2.0 * 64 * 64 * 64);
  EXPECT_DOUBLE_EQ(r.weightBytes, 8192.0);
}

TEST(SimAnalytic, GemmWithL1TilingRereads) {
  const HwProfile hw = toy();
  Graph g = matmul(256, 64, 256);
  SimResult r = runUnfused(g, hw);
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelTiming& k = r.kernels[0];
  // cube: mt = nt = 16, kt = 4; 256 fractals / 2 cores = 128 × 4 = 512 cycles
  EXPECT_EQ(k.cubeCycles, 512);
  // L0C holds 16384 fp32 accumulators; A = B = 32768 B. Re-read cost A·ceil(256/tn) + B·ceil(256/tm):
  //   tm=64,tn=256: 1A+4B = 5; tm=128,tn=128: 2A+2B = 4 (best); tm=256,tn=64: 4A+1B = 5.
  // So A and B are each read twice (no L2 on toy): re-read 32768 + 32768 = 65536 B.
  EXPECT_DOUBLE_EQ(k.rereadBytes, 65536.0);
  // total: A 32768 + B 32768 + C 131072 + re-reads 65536 = 262144 B → 2622 cycles
  EXPECT_DOUBLE_EQ(k.hbmBytes, 262144.0);
  EXPECT_EQ(k.transferCycles, 2622);
  // 2×2 = 4 L1 tiles over 2 cores = 2 per core: 2622 + ceil(512 / 2) = 2878, + 1000 = 3878
  EXPECT_EQ(k.tilesPerCore, 2);
  EXPECT_EQ(k.cycles, 3878);
  EXPECT_EQ(k.bound, Bound::Memory);
}

TEST(SimAnalytic, FusedChainVersusUnfused) {
  const HwProfile hw = toy();
  Graph g = unaryChain({"Relu", "Neg", "Abs"}, {1, 65536});
  SimResult before = runUnfused(g, hw);
  SimResult after = run(g, {allInOne(g)}, hw);
  // Unfused: three copies of SingleElementwise = 3 × 3750 cycles, 3 × 262144 B.
  ASSERT_EQ(before.kernels.size(), 3u);
  EXPECT_EQ(before.latencyCycles, 3 * 3750);
  EXPECT_DOUBLE_EQ(before.hbmBytes, 3 * 262144.0);
  // Fused: only x in and t2 out cross HBM: 262144 B → 2622 cycles.
  ASSERT_EQ(after.kernels.size(), 1u);
  const KernelTiming& k = after.kernels[0];
  EXPECT_DOUBLE_EQ(k.hbmBytes, 262144.0);
  EXPECT_EQ(k.transferCycles, 2622);
  // vector: 3 ops × 512 = 1536 cycles
  EXPECT_EQ(k.vectorCycles, 1536);
  // UB: in/out double-buffered (4) + 2 intermediates = 6 buffers · 2 B = 12 B/elem
  //     → floor(65536 / 12) = 5461 → 5440 (multiple of 64) → ceil(32768 / 5440) = 7 tiles
  EXPECT_EQ(k.tilesPerCore, 7);
  // 2622 + ceil(1536 / 7) = 2622 + 220 = 2842, + 1000 = 3842
  EXPECT_EQ(k.cycles, 3842);
  EXPECT_FALSE(k.spilled);
  EXPECT_LT(after.hbmBytes, before.hbmBytes);
  EXPECT_LT(after.latencyUs, before.latencyUs);
  EXPECT_EQ(k.ops, (std::vector<std::string>{"Relu", "Neg", "Abs"}));
}

TEST(SimAnalytic, EagerChainWaitsForHostDispatch) {
  const HwProfile hw = toy();
  Graph g = unaryChain({"Relu", "Neg", "Abs"}, {1, 65536});
  SimResult r = runUnfused(g, hw, SimMode::Eager);
  // The host issues op i at (i+1)·10000 cycles; each kernel takes 3750 cycles, so the device waits:
  //   starts 10000, 20000, 30000 → latency 33750 cycles.
  ASSERT_EQ(r.kernels.size(), 3u);
  EXPECT_EQ(r.kernels[0].startCycle, 10000);
  EXPECT_EQ(r.kernels[1].startCycle, 20000);
  EXPECT_EQ(r.kernels[2].startCycle, 30000);
  EXPECT_EQ(r.latencyCycles, 33750);
  EXPECT_EQ(r.kernels[1].bound, Bound::Host);
  // Useful device time 3 × 2750; the rest is launch and waiting for the host.
  EXPECT_NEAR(r.launchShare, (33750.0 - 3 * 2750.0) / 33750.0, 1e-12);
  SimResult graph = runUnfused(g, hw);
  EXPECT_GT(r.latencyUs, graph.latencyUs);
}

TEST(SimAnalytic, SoftmaxRowLargerThanUbSpills) {
  const HwProfile hw = toy();
  // One row of 32768 elements: 4 buffers · 2 B · 32768 = 256 KiB > UB 64 KiB → re-read the input.
  Graph g = unaryChain({"Softmax"}, {1, 32768});
  SimResult r = runUnfused(g, hw);
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelTiming& k = r.kernels[0];
  EXPECT_TRUE(k.spilled);
  EXPECT_EQ(k.workingSetBytes, 32768 * 8);
  EXPECT_DOUBLE_EQ(k.spillBytes, 65536.0);
  EXPECT_DOUBLE_EQ(k.hbmBytes, 3 * 65536.0);
  // Softmax: 5 ops/elem, one row on one core: 5 × ceil(32768/64) = 2560 cycles
  EXPECT_EQ(k.vectorCycles, 2560);
  // A row of 1024 fits: no spill.
  Graph small = unaryChain({"Softmax"}, {32, 1024});
  EXPECT_FALSE(runUnfused(small, hw).kernels[0].spilled);
}

Graph conv(int64_t cin, int64_t cout, int64_t group, int64_t hw_) {
  Graph g;
  g.name = "conv";
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({1, cin, hw_, hw_}));
  ValueId w = g.addInitializer(
      "W", Tensor::floats({cout, cin / group, 3, 3}, std::vector<float>(static_cast<size_t>(cout * cin / group * 9), 0.1f)));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({1, cout, hw_, hw_}));
  Attributes a;
  a.set(Attribute::makeInts("kernel_shape", {3, 3}));
  a.set(Attribute::makeInts("pads", {1, 1, 1, 1}));
  a.set(Attribute::makeInt("group", group));
  g.addNode("Conv", {x, w}, {y}, a, "conv");
  g.addOutput(y);
  return g;
}

TEST(SimAnalytic, ConvChannelsPadToC0) {
  const HwProfile hw = toy();
  // M = 32·32 = 1024 → mt 64; N = 16 → nt 1; K = ceil(Cin/16)·16 · 9.
  // Cin 3 and Cin 16: K = 144 → kt 9; 64 fractals / 2 cores = 32 × 9 = 288 cycles.
  EXPECT_EQ(runUnfused(conv(3, 16, 1, 32), hw).kernels[0].cubeCycles, 288);
  EXPECT_EQ(runUnfused(conv(16, 16, 1, 32), hw).kernels[0].cubeCycles, 288);
  // Cin 17 pads to 32: K = 288 → kt 18 → 576 cycles.
  EXPECT_EQ(runUnfused(conv(17, 16, 1, 32), hw).kernels[0].cubeCycles, 576);
  // Depthwise 32 channels: 16 groups pack into one block-diagonal fractal column → 2 blocks;
  // M = 16·16 = 256 → mt 16; K = 16·9 = 144 → kt 9; 2·16 fractals / 2 cores = 16 × 9 = 144 cycles.
  EXPECT_EQ(runUnfused(conv(32, 32, 32, 16), hw).kernels[0].cubeCycles, 144);
}

TEST(SimAnalytic, ViewsAreFreeInGraphModeAndCostDispatchInEager) {
  const HwProfile hw = toy();
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape::ofInts({4, 1024}));
  ValueId s = g.addInitializer("s", Tensor::int64s({1}, {4096}));
  ValueId y = g.addValue("y", DType::Float32, Shape::ofInts({4096}));
  ValueId z = g.addValue("z", DType::Float32, Shape::ofInts({4096}));
  g.addNode("Reshape", {x, s}, {y}, {}, "reshape");
  g.addNode("Relu", {y}, {z}, {}, "relu");
  g.addOutput(z);
  SimResult r = runUnfused(g, hw);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].unit, Unit::None);
  EXPECT_EQ(r.kernels[0].cycles, 0);
  EXPECT_DOUBLE_EQ(r.kernels[0].hbmBytes, 0.0);
  EXPECT_EQ(r.latencyCycles, r.kernels[1].cycles);
  // y aliases x: peak memory is x + z (8192 + 8192) plus the 8-byte shape initializer.
  EXPECT_DOUBLE_EQ(r.peakMemoryBytes, 8192.0 + 8192.0 + 8.0);
  SimResult e = runUnfused(g, hw, SimMode::Eager);
  // Eager: the Reshape costs a host dispatch; the Relu is issued at 20000 cycles.
  EXPECT_EQ(e.kernels[1].startCycle, 20000);
}

TEST(SimAnalytic, GroupingErrorsNameTheProblem) {
  const HwProfile hw = toy();
  Graph g = unaryChain({"Relu", "Neg"}, {64});
  auto missing = simulate(g, {{"k0", {0}}}, hw);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("'Neg_1' (Neg) is in no kernel"), std::string::npos);
  auto twice = simulate(g, {{"k0", {0, 1}}, {"k1", {1}}}, hw);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("in two kernels"), std::string::npos);
  SimOptions eager;
  eager.mode = SimMode::Eager;
  auto fusedEager = simulate(g, {allInOne(g)}, hw, eager);
  ASSERT_FALSE(fusedEager.ok());
  EXPECT_EQ(fusedEager.error().code, ErrorCode::BadInput);
  // Non-convex: a → b → c with {a, c} grouped and b outside is a cycle between kernels.
  Graph g3 = unaryChain({"Relu", "Neg", "Abs"}, {64});
  auto cyc = simulate(g3, {{"ac", {0, 2}}, {"b", {1}}}, hw);
  ASSERT_FALSE(cyc.ok());
  EXPECT_NE(cyc.error().message.find("not convex"), std::string::npos);
}

TEST(SimAnalytic, MissingShapeNamesNodeAndValue) {
  const HwProfile hw = toy();
  Graph g;
  ValueId x = g.addInput("x", DType::Float32, Shape({Dim::sym("batch"), Dim(8)}));
  ValueId y = g.addValue("y", DType::Float32, Shape({Dim::sym("batch"), Dim(8)}));
  g.addNode("Relu", {x}, {y}, {}, "act");
  g.addOutput(y);
  auto r = simulate(g, *unfusedGroups(g), hw);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::BadInput);
  EXPECT_NE(r.error().message.find("node 'act'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("'x'"), std::string::npos) << r.error().message;
}

// Fuzz finding (ASan, heap-buffer-overflow): a graph with an input and no kernel at all (a model without
// outputs after dead-code elimination) marked the input live at step 0 of an empty schedule.
TEST(SimAnalytic, GraphWithoutKernelsSimulatesToNothing) {
  Graph g;
  g.name = "no_outputs";
  g.addInput("x", DType::Float32, Shape::ofInts({1, 3, 8, 80}));
  const HwProfile hw = toy();
  for (SimMode mode : {SimMode::Graph, SimMode::Eager}) {
    auto groups = unfusedGroups(g);
    ASSERT_TRUE(groups.ok());
    EXPECT_TRUE(groups->empty());
    const SimResult r = run(g, *groups, hw, mode);
    EXPECT_TRUE(r.kernels.empty());
    EXPECT_EQ(r.latencyUs, 0);
    EXPECT_EQ(r.hbmBytes, 0);
    EXPECT_EQ(r.peakActivationBytes, 0);
    EXPECT_EQ(r.peakMemoryBytes, 0);
  }
}

}  // namespace
}  // namespace fw::sim::test
