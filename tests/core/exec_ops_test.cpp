// Hand-computed (or numpy-computed, as noted) cases for the executor's trickier kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

#include "core/exec/Executor.h"
#include "core/exec/FastMath.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::Tensor;

TEST(ExecOps, ConvGroupsDilationAsymmetricPadsStrides) {
  // Expected values from a direct numpy loop (float64) over the same definition:
  // x = arange(100).reshape(1,4,5,5) % 7 - 3, w = arange(48).reshape(6,2,2,2) % 5 - 2,
  // strides (1,2), pads (1,0,2,1), dilations (2,1), group 2.
  std::vector<float> x(100), w(48);
  for (int k = 0; k < 100; ++k) x[k] = static_cast<float>(k % 7 - 3);
  for (int k = 0; k < 48; ++k) w[k] = static_cast<float>(k % 5 - 2);
  auto r = runOne("Conv",
                  {{"x", Tensor::floats({1, 4, 5, 5}, x)},
                   {"w", Tensor::floats({6, 2, 2, 2}, w), true},
                   {"b", Tensor::floats({6}, {0.5f, -1, 2, 0, 1, -0.5f}), true}},
                  1,
                  attrs({Attribute::makeInts("strides", {1, 2}), Attribute::makeInts("pads", {1, 0, 2, 1}),
                         Attribute::makeInts("dilations", {2, 1}), Attribute::makeInt("group", 2)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::vector<float> want = {
      4.5,  -2.5,  -2.5, 10.5, 18.5, -6.5, -11.5, 10.5, 9.5,  -5.5, -11.5, 11.5, 3.5,  -2.5, -5.5, -4.5, 3.5,  -5.5,
      -10,  5,     7,    -9,   -14,  8,    10,    -9,   -8,   -6,   10,    -10,  -2,   -1,   1,    -3,   -2,   -1,
      10,   -3,    1,    1,    8,    2,    1,     1,    -1,   8,    1,     3,    -3,   10,   2,    -2,   -3,   8,
      -4,   -5,    6,    10,   -13,  1,    12,    10,   -6,   -7,   12,    1,    -5,   -6,   6,    3,    -5,   0,
      15,   7,     -2,   -8,   19,   0,    -7,    -8,   10,   8,    -7,    -1,   -2,   5,    1,    -2,   -2,   3,
      -3.5, -3.5,  2.5,  6.5,  -6.5, -8.5, -8.5,  6.5,  -6.5, -9.5, -8.5,  9.5,  13.5, -6.5, -6.5, 5.5,  13.5, -6.5};
  expectNear((*r)[0], {1, 6, 6, 3}, want);
}

// Depthwise Convs (one input channel a group) run on oneDNN's 16- or 8-channel blocks where the library
// would pick channels-last (core/exec/ConvPrimitive.cpp): channel counts that are multiples of 16, of 8
// only, and neither; strides 1 and 2; 3x3 and 5x5; a channel multiplier of 2; each against a direct loop.
// The large, small, large order runs the staging buffers' reuse: a smaller call after a larger one, then
// the larger again over what the smaller left.
TEST(ExecOps, DepthwiseConvOnBlockedLayoutsMatchesDirectLoop) {
  struct Case {
    int64_t n, c, hw, k, stride, mult;
  };
  for (const Case& cs : {Case{2, 32, 20, 3, 1, 1}, Case{1, 24, 9, 3, 2, 1}, Case{2, 32, 20, 3, 1, 1},
                         Case{3, 3, 11, 5, 1, 1}, Case{1, 48, 7, 5, 2, 1}, Case{1, 16, 6, 3, 1, 2}}) {
    const int64_t m = cs.c * cs.mult, pad = cs.k / 2, ho = (cs.hw + 2 * pad - cs.k) / cs.stride + 1;
    std::vector<float> x(static_cast<size_t>(cs.n * cs.c * cs.hw * cs.hw)),
        w(static_cast<size_t>(m * cs.k * cs.k)), b(static_cast<size_t>(m));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 7 % 13) - 6);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 5 % 9) - 4) * 0.5f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 3) - 1.f;
    std::vector<float> want(static_cast<size_t>(cs.n * m * ho * ho));
    for (int64_t n = 0; n < cs.n; ++n)
      for (int64_t o = 0; o < m; ++o)
        for (int64_t i = 0; i < ho; ++i)
          for (int64_t j = 0; j < ho; ++j) {
            double acc = b[static_cast<size_t>(o)];
            const int64_t ch = o / cs.mult;
            for (int64_t u = 0; u < cs.k; ++u)
              for (int64_t v = 0; v < cs.k; ++v) {
                const int64_t r = i * cs.stride - pad + u, q = j * cs.stride - pad + v;
                if (r < 0 || q < 0 || r >= cs.hw || q >= cs.hw) continue;
                acc +=
                    static_cast<double>(x[static_cast<size_t>(((n * cs.c + ch) * cs.hw + r) * cs.hw + q)]) *
                    w[static_cast<size_t>((o * cs.k + u) * cs.k + v)];
              }
            want[static_cast<size_t>(((n * m + o) * ho + i) * ho + j)] = static_cast<float>(acc);
          }
    auto r =
        runOne("Conv",
               {{"x", Tensor::floats({cs.n, cs.c, cs.hw, cs.hw}, x)},
                {"w", Tensor::floats({m, 1, cs.k, cs.k}, w), true},
                {"b", Tensor::floats({m}, b), true}},
               1,
               attrs({Attribute::makeInts("strides", {cs.stride, cs.stride}),
                      Attribute::makeInts("pads", {pad, pad, pad, pad}), Attribute::makeInt("group", cs.c)}));
    ASSERT_TRUE(r.ok()) << r.error().message;
    SCOPED_TRACE("depthwise " + std::to_string(cs.c) + " channels x" + std::to_string(cs.mult) + ", " +
                 std::to_string(cs.k) + "x" + std::to_string(cs.k) + " stride " + std::to_string(cs.stride));
    expectNear((*r)[0], {cs.n, m, ho, ho}, want);
  }
}

TEST(ExecOps, ConvAutoPadSameUpperAndLower) {
  // 1x1x4x4 ones, 3x3 ones kernel, stride 2: out 2x2. SAME_UPPER pads (0 top/left, 1 bottom/right):
  // windows rows {0,1,2},{2,3,pad} -> counts 3x3=9, 3x2=6, 2x3=6, 2x2=4.
  // SAME_LOWER pads (1 top/left, 0 bottom/right): windows {pad,0,1},{1,2,3} -> 4, 6, 6, 9.
  std::vector<float> ones(16, 1.f), k(9, 1.f);
  for (const auto& [mode, want] : std::vector<std::pair<std::string, std::vector<float>>>{
           {"SAME_UPPER", {9, 6, 6, 4}}, {"SAME_LOWER", {4, 6, 6, 9}}}) {
    auto r = runOne("Conv", {{"x", Tensor::floats({1, 1, 4, 4}, ones)}, {"w", Tensor::floats({1, 1, 3, 3}, k), true}}, 1,
                    attrs({Attribute::makeString("auto_pad", mode), Attribute::makeInts("strides", {2, 2})}));
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectNear((*r)[0], {1, 1, 2, 2}, want);
  }
}

TEST(ExecOps, AddBroadcastsNumpyStyle) {
  auto r = runOne("Add", {{"a", iota({2, 1, 3})}, {"b", iota({4, 1}, 0, 10)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) want.push_back(static_cast<float>(i * 3 + k + j * 10));
  expectNear((*r)[0], {2, 4, 3}, want);
}

// A row of the trailing dims on either side (leading 1s or not), and one that is not trailing: each
// against the index-by-index sum (Sub, so a swapped operand would show).
TEST(ExecOps, TrailingRowOperandOnEitherSideMatchesIndexByIndex) {
  const std::vector<int64_t> od = {2, 3, 5};
  struct Case {
    std::vector<int64_t> ad, bd;
  };
  // The last two: one value a row (the output's dims with the last 1), on either side.
  for (const Case& c :
       {Case{od, {5}}, Case{od, {1, 1, 5}}, Case{od, {3, 5}}, Case{{5}, od}, Case{{1, 3, 5}, od},
        Case{od, {3, 1}}, Case{{2, 1, 5}, od}, Case{od, {2, 3, 1}}, Case{{2, 3, 1}, od}}) {
    auto r = runOne("Sub", {{"a", iota(c.ad, 0.f, 1.f)}, {"b", iota(c.bd, 0.f, 100.f)}});
    ASSERT_TRUE(r.ok()) << r.error().message;
    // Element (i, j, k) of an operand of dims d (right-aligned; size-1 dims repeat).
    auto at = [&](const std::vector<int64_t>& d, float step, int64_t i, int64_t j, int64_t k) {
      std::vector<int64_t> idx = {i, j, k}, full(3 - d.size(), 1);
      full.insert(full.end(), d.begin(), d.end());
      int64_t flat = 0;
      for (size_t q = 0; q < 3; ++q) flat = flat * full[q] + (full[q] == 1 ? 0 : idx[q]);
      return step * static_cast<float>(flat);
    };
    std::vector<float> want;
    for (int64_t i = 0; i < od[0]; ++i)
      for (int64_t j = 0; j < od[1]; ++j)
        for (int64_t k = 0; k < od[2]; ++k) want.push_back(at(c.ad, 1.f, i, j, k) - at(c.bd, 100.f, i, j, k));
    expectNear((*r)[0], od, want, 0.f);
  }
}

namespace {
// Element (i, j, k) of a [2, 3, 5]-broadcast operand of dims d (right-aligned; size-1 dims repeat).
int64_t flatAt(const std::vector<int64_t>& d, int64_t i, int64_t j, int64_t k) {
  std::vector<int64_t> idx = {i, j, k}, full(3 - d.size(), 1);
  full.insert(full.end(), d.begin(), d.end());
  int64_t flat = 0;
  for (size_t q = 0; q < 3; ++q) flat = flat * full[q] + (full[q] == 1 ? 0 : idx[q]);
  return flat;
}

fw::Tensor bools(const std::vector<int64_t>& dims, uint64_t seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<uint8_t>(((i + 1) * 2654435761u * (seed + 1)) >> 31 & 1);
  return fw::Tensor::fromVector<uint8_t>(fw::DType::Bool, dims, v);
}
}  // namespace

TEST(ExecOps, WhereNotAndComparisonsMatchADirectLoopOverEveryBroadcastForm) {
  // Each operand whole, a scalar, a trailing row or a middle broadcast; float, int64 and bool values.
  const std::vector<int64_t> od = {2, 3, 5};
  const std::vector<std::vector<int64_t>> forms = {od, {}, {5}, {3, 1}, {2, 1, 5}};
  for (const auto& cd : forms)
    for (const auto& xd : forms)
      for (const auto& yd : forms) {
        // (The output is [2, 3, 5] when the three together cover it.)
        bool covers = true;
        for (size_t q = 0; q < 3; ++q) {
          int64_t m = 1;
          for (const auto* d : {&cd, &xd, &yd})
            if (d->size() + q >= 3) m = std::max(m, (*d)[d->size() + q - 3]);
          covers = covers && m == od[q];
        }
        if (!covers) continue;
        const fw::Tensor cond = bools(cd, 1), xf = iota(xd, 0.f, 1.f), yf = iota(yd, 0.f, -10.f);
        auto r = runOne("Where", {{"c", cond}, {"x", xf}, {"y", yf}});
        ASSERT_TRUE(r.ok()) << r.error().message;
        const auto cv = cond.data<uint8_t>();
        std::vector<float> want;
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < 3; ++j)
            for (int64_t k = 0; k < 5; ++k)
              want.push_back(cv[static_cast<size_t>(flatAt(cd, i, j, k))]
                                 ? static_cast<float>(flatAt(xd, i, j, k))
                                 : -10.f * static_cast<float>(flatAt(yd, i, j, k)));
        expectNear((*r)[0], od, want, 0.f);
      }
  // int64 and bool values, a scalar on either side.
  for (const auto& [xd, yd] :
       {std::pair{od, std::vector<int64_t>{}}, std::pair{std::vector<int64_t>{}, od}}) {
    std::vector<int64_t> xs(30), ys(30);
    for (int64_t q = 0; q < 30; ++q)
      xs[static_cast<size_t>(q)] = (int64_t{1} << 40) + q, ys[static_cast<size_t>(q)] = -q;
    const fw::Tensor xi = fw::Tensor::int64s(xd, xd.empty() ? std::vector<int64_t>{xs[0]} : xs);
    const fw::Tensor yi = fw::Tensor::int64s(yd, yd.empty() ? std::vector<int64_t>{ys[0]} : ys);
    const fw::Tensor cond = bools(od, 2);
    auto r = runOne("Where", {{"c", cond}, {"x", xi}, {"y", yi}});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto got = (*r)[0].toInt64s();
    const auto cv = cond.data<uint8_t>();
    for (size_t q = 0; q < 30; ++q)
      EXPECT_EQ(got[q], cv[q] ? (xd.empty() ? xs[0] : xs[q]) : (yd.empty() ? ys[0] : ys[q])) << q;
    const fw::Tensor xt = bools(xd, 3), yt = bools(yd, 4);
    auto b = runOne("Where", {{"c", cond}, {"x", xt}, {"y", yt}});
    ASSERT_TRUE(b.ok()) << b.error().message;
    const auto bv = (*b)[0].data<uint8_t>();
    const auto xb = xt.data<uint8_t>(), yb = yt.data<uint8_t>();
    for (size_t q = 0; q < 30; ++q)
      EXPECT_EQ(bv[q], cv[q] ? xb[xd.empty() ? 0 : q] : yb[yd.empty() ? 0 : q]) << q;
  }
  // Not, over more elements than a vector register holds.
  const fw::Tensor many = bools({3, 67}, 5);
  auto n = runOne("Not", {{"b", many}});
  ASSERT_TRUE(n.ok()) << n.error().message;
  const auto in = many.data<uint8_t>(), out = (*n)[0].data<uint8_t>();
  ASSERT_EQ(out.size(), in.size());
  for (size_t q = 0; q < in.size(); ++q) EXPECT_EQ(out[q], in[q] ? 0 : 1) << q;
  // Comparisons of floats (NaN unequal to itself) and int64s against a scalar, a row and a whole operand.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const fw::Tensor a = fw::Tensor::floats({2, 3}, {1.f, nan, -2.f, 0.f, 3.f, 3.f});
  for (const auto& [bt, bvals] :
       {std::pair{std::vector<int64_t>{}, std::vector<float>{3.f}},
        std::pair{std::vector<int64_t>{3}, std::vector<float>{1.f, nan, 0.f}},
        std::pair{std::vector<int64_t>{2, 3}, std::vector<float>{1.f, nan, -1.f, 0.f, 2.f, 4.f}}})
    for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"}) {
      auto r = runOne(op, {{"a", a}, {"b", fw::Tensor::floats(bt, bvals)}});
      ASSERT_TRUE(r.ok()) << r.error().message;
      const auto got = (*r)[0].data<uint8_t>();
      const auto av = a.data<float>();
      for (size_t q = 0; q < 6; ++q) {
        const float x = av[q], y = bvals[bt.empty() ? 0 : bt.size() == 1 ? q % 3 : q];
        const std::string o = op;
        const bool want = o == "Equal"         ? x == y
                          : o == "Less"        ? x < y
                          : o == "Greater"     ? x > y
                          : o == "LessOrEqual" ? x <= y
                                               : x >= y;
        EXPECT_EQ(got[q], want ? 1 : 0) << op << " " << q;
      }
    }
  auto ie = runOne("Equal", {{"a", fw::Tensor::int64s({4}, {int64_t{1} << 60, 2, 3, -4})},
                             {"b", fw::Tensor::int64s({}, {int64_t{1} << 60})}});
  ASSERT_TRUE(ie.ok()) << ie.error().message;
  EXPECT_EQ(std::vector<uint8_t>((*ie)[0].data<uint8_t>().begin(), (*ie)[0].data<uint8_t>().end()),
            (std::vector<uint8_t>{1, 0, 0, 0}));
}

TEST(ExecOps, IncompatibleBroadcastIsAnError) {
  auto r = runOne("Mul", {{"a", iota({2, 3})}, {"b", iota({4})}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("broadcast"), std::string::npos) << r.error().message;
}

TEST(ExecOps, GemmTransposesAlphaBetaAndVectorBias) {
  // A stored [3,2] with transA, B stored [2,3] with transB: A^T B^T = [[6,-2],[8,-2]];
  // 0.5 * that + 2 * [1,-1] = [[5,-3],[6,-3]].
  auto r = runOne("Gemm",
                  {{"a", Tensor::floats({3, 2}, {1, 2, 3, 4, 5, 6})},
                   {"b", Tensor::floats({2, 3}, {1, 0, 1, 0, 1, -1})},
                   {"c", Tensor::floats({2}, {1, -1})}},
                  1,
                  attrs({Attribute::makeInt("transA", 1), Attribute::makeInt("transB", 1),
                         Attribute::makeFloat("alpha", 0.5f), Attribute::makeFloat("beta", 2.f)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {2, 2}, {5, -3, 6, -3});
}

TEST(ExecOps, MatMulBatchedBroadcast) {
  // [2,1,2,3] x [3,3,2] -> [2,3,2,2]; check one block by hand: A[1,0] = [[6,7,8],[9,10,11]],
  // B[2] = [[12,13],[14,15],[16,17]] -> [[6*12+7*14+8*16, 6*13+7*15+8*17], ...] = [[298,319],[424,454]].
  auto r = runOne("MatMul", {{"a", iota({2, 1, 2, 3})}, {"b", iota({3, 3, 2})}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& y = (*r)[0];
  ASSERT_EQ(y.dims(), (std::vector<int64_t>{2, 3, 2, 2}));
  auto v = y.toFloats();
  const size_t base = (1 * 3 + 2) * 4;
  EXPECT_FLOAT_EQ(v[base + 0], 298);
  EXPECT_FLOAT_EQ(v[base + 1], 319);
  EXPECT_FLOAT_EQ(v[base + 2], 424);
  EXPECT_FLOAT_EQ(v[base + 3], 454);
}

TEST(ExecOps, SliceNegativeSteps) {
  const int64_t big = std::numeric_limits<int64_t>::min();
  auto r = runOne("Slice", {{"x", iota({2, 5})},
                            {"s", Tensor::int64s({1}, {-1}), true},
                            {"e", Tensor::int64s({1}, {big}), true},
                            {"a", Tensor::int64s({1}, {1}), true},
                            {"st", Tensor::int64s({1}, {-2}), true}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {2, 3}, {4, 2, 0, 9, 7, 5});
  // Out-of-range start with a negative step clamps to the last element; end -6 clamps to "before 0".
  auto r2 = runOne("Slice", {{"x", iota({5})},
                             {"s", Tensor::int64s({1}, {100}), true},
                             {"e", Tensor::int64s({1}, {-6}), true},
                             {"a", Tensor::int64s({1}, {0}), true},
                             {"st", Tensor::int64s({1}, {-1}), true}});
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  expectNear((*r2)[0], {5}, {4, 3, 2, 1, 0});
}

// An empty tensor keeps its other dims: a detector's pyramid level that keeps no box ([0, 2, 2]) is
// flattened to [0, 4], whose shape feeds a Reshape and a Concat of the levels' boxes (RetinaNet, set 111:
// [0, 0] before, and the Concat refused it).
TEST(ExecOps, FlattenAndLayerNormOfAnEmptyTensorKeepTheirOtherDims) {
  auto flat = [](std::vector<int64_t> dims, int64_t axis) {
    auto r =
        runOne("Flatten", {{"x", Tensor::floats(dims, {})}}, 1, attrs({Attribute::makeInt("axis", axis)}));
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? (*r)[0].dims() : std::vector<int64_t>{};
  };
  EXPECT_EQ(flat({0, 2, 2}, 1), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(flat({2, 0, 3}, 2), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(flat({2, 3, 0}, 1), (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(flat({0, 5}, 0), (std::vector<int64_t>{1, 0}));
  // A LayerNormalization over an empty batch: its scale still matches the normalized dims.
  auto ln = runOne("LayerNormalization",
                   {{"x", Tensor::floats({0, 8}, {})}, {"s", iota({8}), true}, {"b", iota({8}), true}}, 1,
                   attrs({Attribute::makeInt("axis", -1)}));
  ASSERT_TRUE(ln.ok()) << ln.error().message;
  EXPECT_EQ((*ln)[0].dims(), (std::vector<int64_t>{0, 8}));
}

TEST(ExecOps, ResizeNearestModes) {
  // Default half_pixel + round_prefer_floor, scales [1,1,2,3] (the ONNX operator doc example).
  auto r = runOne("Resize", {{"x", Tensor::floats({1, 1, 2, 2}, {1, 2, 3, 4})},
                             {"", {}},
                             {"scales", Tensor::floats({4}, {1, 1, 2, 3}), true}},
                  1, attrs({Attribute::makeString("mode", "nearest")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {1, 1, 4, 6}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4});
  // asymmetric + ceil, sizes 4 -> 3: x/0.75 = 0, 1.33, 2.67 -> 0, 2, 3.
  auto r2 = runOne("Resize", {{"x", Tensor::floats({1, 1, 1, 4}, {1, 2, 3, 4})},
                              {"", {}},
                              {"", {}},
                              {"sizes", Tensor::int64s({4}, {1, 1, 1, 3}), true}},
                   1,
                   attrs({Attribute::makeString("mode", "nearest"),
                          Attribute::makeString("coordinate_transformation_mode", "asymmetric"),
                          Attribute::makeString("nearest_mode", "ceil")}));
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  expectNear((*r2)[0], {1, 1, 1, 3}, {1, 3, 4});
  // half_pixel + round_prefer_ceil, x2 on [1,2,3]: coords -0.25,0.25,0.75,1.25,1.75,2.25 -> 0,0,1,1,2,2.
  auto r3 = runOne("Resize", {{"x", Tensor::floats({1, 3}, {1, 2, 3})},
                              {"", {}},
                              {"scales", Tensor::floats({2}, {1, 2}), true}},
                   1, attrs({Attribute::makeString("mode", "nearest"), Attribute::makeString("nearest_mode", "round_prefer_ceil")}));
  ASSERT_TRUE(r3.ok()) << r3.error().message;
  expectNear((*r3)[0], {1, 6}, {1, 1, 2, 2, 3, 3});
}

// An attribute the Resize does not know fails naming it, before any position is worked out: a nearest_mode
// (asymmetric 2x: every other position integral), a coordinate mode.
TEST(ExecOps, ResizeRefusesAnUnknownModeNamingIt) {
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"nearest_mode", "round_half_even"}, {"coordinate_transformation_mode", "centered"}}) {
    auto r = runOne("Resize",
                    {{"x", Tensor::floats({1, 2}, {1, 2})},
                     {"", {}},
                     {"", {}},
                     {"sizes", Tensor::int64s({2}, {1, 4}), true}},
                    1,
                    attrs({Attribute::makeString("mode", "nearest"),
                           Attribute::makeString("coordinate_transformation_mode",
                                                 name == "nearest_mode" ? "asymmetric" : value),
                           Attribute::makeString("nearest_mode", name == "nearest_mode" ? value : "floor")}));
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.error().message.find("unsupported " + name + " '" + value + "'"), std::string::npos)
        << r.error().message;
  }
}

TEST(ExecOps, LstmForwardMatchesNumpy) {
  // numpy reference (float64): gates iofc, f=sigmoid, g=h=tanh, seq 2, batch 1, input 2, hidden 2;
  // W = arange(16)*0.1-0.7, R = arange(16)*-0.05+0.3, B = arange(16)*0.02-0.1.
  std::vector<float> W(16), R(16), B(16);
  for (int k = 0; k < 16; ++k) {
    W[k] = k * 0.1f - 0.7f;
    R[k] = k * -0.05f + 0.3f;
    B[k] = k * 0.02f - 0.1f;
  }
  auto r = runOne("LSTM",
                  {{"x", Tensor::floats({2, 1, 2}, {0.5f, -1.f, 1.5f, 0.25f})},
                   {"w", Tensor::floats({1, 8, 2}, W), true},
                   {"r", Tensor::floats({1, 8, 2}, R), true},
                   {"b", Tensor::floats({1, 16}, B), true}},
                  3, attrs({Attribute::makeInt("hidden_size", 2)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {2, 1, 1, 2}, {-0.042867549f, -0.056217497f, 0.050016879f, 0.092758552f});
  expectNear((*r)[1], {1, 1, 2}, {0.050016879f, 0.092758552f});
  expectNear((*r)[2], {1, 1, 2}, {0.130548282f, 0.194375114f});
}

TEST(ExecOps, SoftmaxLegacyAndModernAxis) {
  // opset 13: along the last axis; opset 11: flattened from axis 1 (both rows of each batch together).
  auto r = runOne("Softmax", {{"x", Tensor::floats({1, 2, 2}, {0, 0, 0, 0})}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {1, 2, 2}, {0.5f, 0.5f, 0.5f, 0.5f});
  auto r2 = runOne("Softmax", {{"x", Tensor::floats({1, 2, 2}, {0, 0, 0, 0})}}, 1, {}, 11);
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  expectNear((*r2)[0], {1, 2, 2}, {0.25f, 0.25f, 0.25f, 0.25f});
}

// [outer, reduced, inner] of dims around the run of axes from the first to the last of `axes`.
static std::array<int64_t, 3> runSplit(const std::vector<int64_t>& dims, const std::vector<int64_t>& axes) {
  const auto r = static_cast<int64_t>(dims.size());
  int64_t first = r, last = -1;
  for (int64_t a : axes) first = std::min(first, (a + r) % r), last = std::max(last, (a + r) % r);
  std::array<int64_t, 3> s = {1, 1, 1};
  for (int64_t d = 0; d < r; ++d) s[d < first ? 0 : d <= last ? 1 : 2] *= dims[static_cast<size_t>(d)];
  return s;
}

TEST(ExecOps, ReductionsOverMiddleAxesMatchADoubleLoopInOrder) {
  // A run of middle axes reduced ([outer, R, inner]) sums R rows of `inner` at a time (ops_reduce.cpp), each
  // element in input order: against a double loop in that order, sums equal as floats, Max and Min exact, a
  // NaN propagated; one and two middle axes, with and without keepdims.
  struct Case {
    std::vector<int64_t> dims, axes;
  };
  // Rows of 2 and 3 (several outer indices a block), 40 (a block of 6 with a short last one), 600 (blocks of
  // 256 columns and a last one of 88).
  for (const Case& c : {Case{{4, 200, 3}, {1}}, Case{{2, 5, 7, 16}, {1, 2}}, Case{{1, 9, 1}, {-2}},
                        Case{{3, 4, 5, 2}, {2}}, Case{{13, 6, 40}, {1}}, Case{{5, 4, 600}, {1}}}) {
    int64_t n = 1;
    for (int64_t d : c.dims) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 7.3, 11.0) - 5.0);
    const auto in = Tensor::floats(c.dims, v);
    const auto [outer, red, inner] = runSplit(c.dims, c.axes);
    for (int64_t keep : {0, 1})
      for (const char* op : {"ReduceMean", "ReduceSum", "ReduceSumSquare", "ReduceL1", "ReduceL2",
                             "ReduceMax", "ReduceMin", "ReduceLogSum"}) {
        std::vector<float> in2 = v;
        if (std::string(op) == "ReduceLogSum")
          for (float& x : in2) x = std::fabs(x) + 0.5f;
        auto res =
            runOne(op, {{"x", Tensor::floats(c.dims, in2)}}, 1,
                   attrs({Attribute::makeInts("axes", c.axes), Attribute::makeInt("keepdims", keep)}), 13);
        ASSERT_TRUE(res.ok()) << op << ": " << res.error().message;
        const auto y = (*res)[0].toFloats();
        ASSERT_EQ(y.size(), static_cast<size_t>(outer * inner)) << op;
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t j = 0; j < inner; ++j) {
            double sum = 0, sq = 0, l1 = 0, mx = -1e300, mn = 1e300;
            for (int64_t k = 0; k < red; ++k) {
              const double x = in2[static_cast<size_t>((o * red + k) * inner + j)];
              sum += x, sq += x * x, l1 += std::fabs(x), mx = std::max(mx, x), mn = std::min(mn, x);
            }
            const std::string s = op;
            const double want = s == "ReduceMean"        ? sum / static_cast<double>(red)
                                : s == "ReduceSum"       ? sum
                                : s == "ReduceSumSquare" ? sq
                                : s == "ReduceL1"        ? l1
                                : s == "ReduceL2"        ? std::sqrt(sq)
                                : s == "ReduceMax"       ? mx
                                : s == "ReduceMin"       ? mn
                                                         : std::log(sum);
            EXPECT_EQ(y[static_cast<size_t>(o * inner + j)], static_cast<float>(want))
                << op << " dims " << c.dims.size() << " at " << o << "," << j;
          }
      }
  }
  std::vector<float> withNan(24, 1.f);
  withNan[9] = std::numeric_limits<float>::quiet_NaN();  // [2, 3, 4]: output (0, 1) over axis 1
  for (const char* op : {"ReduceMax", "ReduceMin", "ReduceMean"}) {
    auto res = runOne(op, {{"x", Tensor::floats({2, 3, 4}, withNan)}}, 1,
                      attrs({Attribute::makeInts("axes", {1}), Attribute::makeInt("keepdims", 0)}), 13);
    ASSERT_TRUE(res.ok()) << res.error().message;
    const auto y = (*res)[0].toFloats();
    for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(std::isnan(y[i]), i == 1) << op << " " << i;
  }
}

// A float ReduceProd, and int64 ReduceSum, ReduceSumSquare, ReduceL1, ReduceProd, ReduceMax and ReduceMin,
// over the last axes, a middle run and one with axes of size 1 in it: a float product the same bits as a
// double product in order; integers exact in wrapping int64 arithmetic, beyond the 2^53 a double holds
// exactly.
TEST(ExecOps, ProductsAndIntegerReductionsOverARunAreExact) {
  struct Case {
    std::vector<int64_t> dims, axes;
  };
  for (const Case& c : {Case{{6, 3}, {-1}}, Case{{8, 7, 3}, {2}}, Case{{4, 5, 2}, {1}},
                        Case{{3, 4, 300}, {1}}, Case{{2, 3, 4, 5}, {1, 2}}, Case{{2, 1, 3, 1, 4}, {2}}}) {
    int64_t n = 1;
    for (int64_t d : c.dims) n *= d;
    const auto [outer, red, inner] = runSplit(c.dims, c.axes);
    std::vector<float> fv(static_cast<size_t>(n));
    std::vector<int64_t> iv(static_cast<size_t>(n));
    for (size_t i = 0; i < fv.size(); ++i) {
      fv[i] = static_cast<float>(0.6 + std::fmod(i * 0.37, 0.9));
      // Around 2^58 (some negative): a double sum of a few of them rounds.
      iv[i] = (int64_t{1} << 58) + static_cast<int64_t>(i * 7919 % 1000) * ((i % 3 == 0) ? -1 : 1) -
              (i % 5 == 0 ? (int64_t{1} << 59) : 0);
    }
    const auto opts = attrs({Attribute::makeInts("axes", c.axes), Attribute::makeInt("keepdims", 0)});
    auto prod = runOne("ReduceProd", {{"x", Tensor::floats(c.dims, fv)}}, 1, opts, 13);
    ASSERT_TRUE(prod.ok()) << prod.error().message;
    const auto py = (*prod)[0].toFloats();
    ASSERT_EQ(py.size(), static_cast<size_t>(outer * inner));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < inner; ++j) {
        double p = 1;
        for (int64_t k = 0; k < red; ++k) p *= fv[static_cast<size_t>((o * red + k) * inner + j)];
        EXPECT_EQ(py[static_cast<size_t>(o * inner + j)], static_cast<float>(p))
            << "ReduceProd at " << o << "," << j;
      }
    for (const char* op :
         {"ReduceSum", "ReduceSumSquare", "ReduceL1", "ReduceProd", "ReduceMax", "ReduceMin"}) {
      auto res = runOne(op, {{"x", Tensor::int64s(c.dims, iv)}}, 1, opts, 13);
      ASSERT_TRUE(res.ok()) << op << ": " << res.error().message;
      const auto y = (*res)[0].toInt64s();
      ASSERT_EQ(y.size(), static_cast<size_t>(outer * inner)) << op;
      const std::string s = op;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < inner; ++j) {
          uint64_t sum = 0, sq = 0, l1 = 0, pr = 1;
          int64_t mx = std::numeric_limits<int64_t>::min(), mn = std::numeric_limits<int64_t>::max();
          for (int64_t k = 0; k < red; ++k) {
            const int64_t x = iv[static_cast<size_t>((o * red + k) * inner + j)];
            const auto u = static_cast<uint64_t>(x);
            sum += u, sq += u * u, l1 += x < 0 ? 0 - u : u, pr *= u, mx = std::max(mx, x),
                                                                     mn = std::min(mn, x);
          }
          const uint64_t want = s == "ReduceSum"         ? sum
                                : s == "ReduceSumSquare" ? sq
                                : s == "ReduceL1"        ? l1
                                : s == "ReduceProd"      ? pr
                                : s == "ReduceMax"       ? static_cast<uint64_t>(mx)
                                                         : static_cast<uint64_t>(mn);
          EXPECT_EQ(y[static_cast<size_t>(o * inner + j)], static_cast<int64_t>(want))
              << op << " dims " << c.dims.size() << " at " << o << "," << j;
        }
    }
  }
}

// An integer reduction's result has its input's width: a uint8 sum wraps modulo 256, an int32 product modulo
// 2^32 (signed), an int8 sum of negatives below -128 wraps up; int64 sums are exact past 2^53 (the test
// above).
TEST(ExecOps, IntegerReductionsWrapToTheirInputsWidth) {
  struct Case {
    fw::DType t;
    std::vector<int64_t> v;
    const char* op;
    int64_t want;
  };
  for (const Case& c : {Case{fw::DType::UInt8, {200, 100}, "ReduceSum", 44},
                        Case{fw::DType::Int8, {-100, -50}, "ReduceSum", 106},
                        Case{fw::DType::Int32, {65536, 65537}, "ReduceProd", 65536},
                        Case{fw::DType::Int32, {2147483647, 1}, "ReduceSum", -2147483648LL},
                        Case{fw::DType::UInt8, {3, 250}, "ReduceMax", 250}}) {
    fw::Tensor x = Tensor::int64s({1, static_cast<int64_t>(c.v.size())}, c.v);
    auto cast = runOne("Cast", {{"x", x}}, 1, attrs({Attribute::makeInt("to", static_cast<int64_t>(c.t))}));
    ASSERT_TRUE(cast.ok()) << cast.error().message;
    auto r = runOne(c.op, {{"x", (*cast)[0]}}, 1,
                    attrs({Attribute::makeInts("axes", {1}), Attribute::makeInt("keepdims", 0)}), 13);
    ASSERT_TRUE(r.ok()) << c.op << ": " << r.error().message;
    ASSERT_EQ((*r)[0].dtype(), c.t);
    EXPECT_EQ((*r)[0].toInt64s().at(0), c.want) << c.op << " of " << c.v[0] << ", " << c.v[1];
  }
}

// A float LogSumExp over rows, over a middle run of axes, over axes with axes of size 1 between them and over
// axes that are no run: against log(sum(exp(x - max))) + max in doubles, within 2e-6 of the result's scale
// (exponentials on vector lanes, FastMath.h); values spread over [-120, 60], so some terms' exponentials
// underflow; and rows of all -inf (-inf), with a +inf (+inf) and with a NaN (NaN).
TEST(ExecOps, LogSumExpOverRowsAndMiddleAxesMatchesADoubleLoop) {
  struct Case {
    std::vector<int64_t> dims, axes;
  };
  for (const Case& c : {Case{{5, 257}, {1}}, Case{{3, 37, 300}, {1}}, Case{{2, 3, 1, 4, 5}, {1, 3}},
                        Case{{4, 6, 5}, {0, 2}}, Case{{7, 3}, {0, 1}}, Case{{2, 9, 1, 3}, {-3}}}) {
    const auto r = static_cast<int64_t>(c.dims.size());
    int64_t n = 1;
    for (int64_t d : c.dims) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 37.3, 180.0) - 120.0);
    auto res = runOne("ReduceLogSumExp", {{"x", Tensor::floats(c.dims, v)}}, 1,
                      attrs({Attribute::makeInts("axes", c.axes), Attribute::makeInt("keepdims", 0)}), 13);
    ASSERT_TRUE(res.ok()) << res.error().message;
    const auto y = (*res)[0].toFloats();
    std::vector<char> red(c.dims.size(), 0);
    for (int64_t a : c.axes) red[static_cast<size_t>((a + r) % r)] = 1;
    // Each element's output index: its kept coordinates in order.
    std::vector<double> mx(y.size(), -1e300), sum(y.size(), 0.0);
    std::vector<size_t> outOf(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      size_t rem = i, o = 0, scale = 1;
      for (int64_t d = r - 1; d >= 0; --d) {
        const auto dim = static_cast<size_t>(c.dims[static_cast<size_t>(d)]);
        if (!red[static_cast<size_t>(d)]) o += (rem % dim) * scale, scale *= dim;
        rem /= dim;
      }
      outOf[i] = o;
      ASSERT_LT(o, y.size());
      mx[o] = std::max(mx[o], static_cast<double>(v[i]));
    }
    for (size_t i = 0; i < v.size(); ++i) sum[outOf[i]] += std::exp(static_cast<double>(v[i]) - mx[outOf[i]]);
    for (size_t o = 0; o < y.size(); ++o) {
      const double want = std::log(sum[o]) + mx[o];
      EXPECT_NEAR(y[o], want, 2e-6 * std::max(1.0, std::fabs(want))) << "dims rank " << r << " at " << o;
    }
  }
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // [4, 3]: rows all -inf, with +inf, with NaN, plain; over the rows and down the columns of its transpose.
  const std::vector<float> rows = {-inf, -inf, -inf, 1.f, inf, -inf, 2.f, nan, 0.f, 0.f, 0.f, 0.f};
  std::vector<float> cols(12);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) cols[static_cast<size_t>(j * 4 + i)] = rows[static_cast<size_t>(i * 3 + j)];
  for (const bool middle : {false, true}) {
    auto res = runOne("ReduceLogSumExp",
                      {{"x", middle ? Tensor::floats({1, 3, 4}, cols) : Tensor::floats({4, 3}, rows)}}, 1,
                      attrs({Attribute::makeInts("axes", {1}), Attribute::makeInt("keepdims", 0)}), 13);
    ASSERT_TRUE(res.ok()) << res.error().message;
    const auto y = (*res)[0].toFloats();
    ASSERT_EQ(y.size(), 4u);
    EXPECT_EQ(y[0], -inf) << (middle ? "middle" : "row");
    EXPECT_EQ(y[1], inf) << (middle ? "middle" : "row");
    EXPECT_TRUE(std::isnan(y[2])) << (middle ? "middle" : "row");
    EXPECT_NEAR(y[3], std::log(3.0), 1e-6) << (middle ? "middle" : "row");
  }
}

// A row's max or min (RowSum.h: extremeRow) at every length from 1 to 40: sixteen at a time, then four,
// then one; a NaN anywhere in a row (in each of its positions in turn) makes the row's result NaN.
TEST(ExecOps, RowExtremesOfEveryShortLengthMatchALoop) {
  for (int64_t len = 1; len <= 40; ++len) {
    const int64_t rows = len + 1;  // row r < len holds a NaN at position r; the last row holds none
    std::vector<float> v(static_cast<size_t>(rows * len));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 7.3, 23.0) - 11.0);
    for (int64_t r = 0; r < len; ++r)
      v[static_cast<size_t>(r * len + r)] = std::numeric_limits<float>::quiet_NaN();
    for (const bool isMax : {true, false}) {
      auto res = runOne(isMax ? "ReduceMax" : "ReduceMin", {{"x", Tensor::floats({rows, len}, v)}}, 1,
                        attrs({Attribute::makeInts("axes", {1}), Attribute::makeInt("keepdims", 0)}), 13);
      ASSERT_TRUE(res.ok()) << res.error().message;
      const auto y = (*res)[0].toFloats();
      ASSERT_EQ(y.size(), static_cast<size_t>(rows));
      for (int64_t r = 0; r < rows; ++r) {
        if (r < len) {
          EXPECT_TRUE(std::isnan(y[static_cast<size_t>(r)])) << "length " << len << ", NaN at " << r;
          continue;
        }
        float want = v[static_cast<size_t>(r * len)];
        for (int64_t k = 1; k < len; ++k) {
          const float x = v[static_cast<size_t>(r * len + k)];
          want = isMax ? std::max(want, x) : std::min(want, x);
        }
        EXPECT_EQ(y[static_cast<size_t>(r)], want) << (isMax ? "max" : "min") << " of a row of " << len;
      }
    }
  }
}

// Axes of size 1 around the reduced ones: those after the first reduced axis lay the elements out as rows
// (ops_reduce.cpp takes [256, 12, 1] over axis 1 as rows of 12); those before it, or between kept axes, do
// not. Every case against a double loop over the same elements.
TEST(ExecOps, ReductionsWithAxesOfSizeOneMatchADoubleLoop) {
  struct Case {
    std::vector<int64_t> dims, axes;
  };
  for (const Case& cs : {Case{{5, 12, 1}, {1}}, Case{{4, 1, 5, 1}, {2}}, Case{{1, 6, 1, 3}, {1}},
                         Case{{2, 3, 1, 4}, {1}}, Case{{3, 1, 7}, {1, 2}}, Case{{1, 9}, {1}}}) {
    const int64_t n = std::accumulate(cs.dims.begin(), cs.dims.end(), int64_t{1}, std::multiplies<>());
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 5.7, 13.0) - 6.0);
    std::vector<char> red(cs.dims.size(), 0);
    for (int64_t a : cs.axes) red[static_cast<size_t>(a)] = 1;
    for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax"}) {
      const bool sum = std::string(op) == "ReduceSum";
      std::vector<Attribute> a{Attribute::makeInt("keepdims", 0)};
      std::vector<In> in{{"x", Tensor::floats(cs.dims, v)}};
      if (sum)
        in.push_back({"axes", Tensor::int64s({static_cast<int64_t>(cs.axes.size())}, cs.axes), true});
      else
        a.push_back(Attribute::makeInts("axes", cs.axes));
      auto r = runOne(op, in, 1, attrs(a), 13);
      ASSERT_TRUE(r.ok()) << op << ": " << r.error().message;
      const auto y = (*r)[0].toFloats();
      // The double loop: every element to the output its kept coordinates name.
      std::vector<double> acc(y.size(), std::string(op) == "ReduceMax" ? -1e300 : 0.0);
      std::vector<int64_t> count(y.size(), 0);
      for (int64_t i = 0; i < n; ++i) {
        int64_t rem = i, o = 0, scale = 1;
        for (size_t d = cs.dims.size(); d-- > 0;) {
          const int64_t c = rem % cs.dims[d];
          rem /= cs.dims[d];
          if (!red[d]) o += c * scale, scale *= cs.dims[d];
        }
        const double x = v[static_cast<size_t>(i)];
        double& t = acc[static_cast<size_t>(o)];
        t = std::string(op) == "ReduceMax" ? std::max(t, x) : t + x;
        ++count[static_cast<size_t>(o)];
      }
      ASSERT_EQ(y.size(), acc.size());
      for (size_t o = 0; o < y.size(); ++o) {
        const double want = std::string(op) == "ReduceMean" ? acc[o] / static_cast<double>(count[o]) : acc[o];
        EXPECT_NEAR(y[o], want, 1e-5 * std::max(1.0, std::fabs(want)))
            << op << " case " << cs.dims.size() << "-D at " << o;
      }
    }
  }
}

TEST(ExecOps, EluSeluAndCeluMatchTheirDefinitions) {
  // The exponential on vector lanes and a select without a branch (ops_elementwise.cpp: expUnit), against
  // the definitions in double precision: zeros keep the sign the definitions give them, NaN stays NaN,
  // infinities go to their limits; alphas of both signs (a negative one takes another path).
  std::vector<float> v = {-0.0f,
                          0.0f,
                          1e-30f,
                          -1e-30f,
                          -1e-7f,
                          1e-7f,
                          0.5f,
                          -0.5f,
                          -3.f,
                          3.f,
                          -20.f,
                          -100.f,
                          88.f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()};
  for (int i = 0; i < 1000; ++i) v.push_back(static_cast<float>(std::fmod(i * 0.377, 9.0) - 6.0));
  struct Case {
    const char* op;
    float alpha;
  };
  for (const Case& cs : {Case{"Elu", 1.0f}, Case{"Elu", 0.3f}, Case{"Elu", -0.7f}, Case{"Selu", 1.6732632f},
                         Case{"Selu", -0.5f}, Case{"Celu", 1.0f}, Case{"Celu", 2.5f}}) {
    const std::string op = cs.op;
    std::vector<Attribute> at{Attribute::makeFloat("alpha", cs.alpha)};
    const double g = 1.0507009873554805;
    if (op == "Selu") at.push_back(Attribute::makeFloat("gamma", static_cast<float>(g)));
    auto r = runOne(cs.op, {{"x", Tensor::floats({static_cast<int64_t>(v.size())}, v)}}, 1, attrs(at), 13);
    ASSERT_TRUE(r.ok()) << op << ": " << r.error().message;
    const auto y = (*r)[0].toFloats();
    ASSERT_EQ(y.size(), v.size());
    const double a = cs.alpha;
    for (size_t i = 0; i < v.size(); ++i) {
      const double x = v[i];
      double want;
      if (op == "Elu")
        want = x >= 0 ? x : a * std::expm1(x);
      else if (op == "Selu")
        want = x > 0 ? g * x : g * (a * std::exp(x) - a);
      else
        want = std::max(0.0, x) + std::min(0.0, a * std::expm1(x / a));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(y[i])) << op << " alpha " << a << " at " << x;
      } else if (std::isinf(want)) {
        EXPECT_EQ(y[i], static_cast<float>(want)) << op << " alpha " << a << " at " << x;
      } else if (want == 0) {
        EXPECT_EQ(y[i], 0.0f) << op << " alpha " << a << " at " << x;
        if (op == "Elu" && x == 0) {
          EXPECT_EQ(std::signbit(y[i]), std::signbit(v[i])) << "Elu keeps the zero's sign";
        }
      } else {
        // exp within 4 ulp, less 1: near x = 0 the absolute error is that of exp near 1
        EXPECT_NEAR(y[i], want, 2e-6 * std::max(1.0, std::fabs(want)) + 1e-6 * std::fabs(a))
            << op << " alpha " << a << " at " << x;
      }
    }
  }
}

TEST(ExecOps, GlobalAveragePoolMatchesADoubleLoopOverEveryPlaneSize) {
  // Each plane summed in partial sums (RowSum.h); planes of 1 to 19 elements and of 4099 (a remainder
  // after the pairs of four), in 1-D, 2-D and 3-D images, against one double sum a plane.
  std::vector<std::vector<int64_t>> shapes;
  for (int64_t k = 1; k <= 19; ++k) shapes.push_back({2, 3, k});
  shapes.push_back({1, 2, 4099});
  shapes.push_back({2, 2, 5, 7});
  shapes.push_back({1, 3, 3, 4, 5});
  for (const auto& dims : shapes) {
    const int64_t n = std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
    const int64_t planes = dims[0] * dims[1], inner = n / planes;
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 7.3, 17.0) - 8.0) * 1e3f;
    auto r = runOne("GlobalAveragePool", {{"x", Tensor::floats(dims, v)}}, 1, {}, 13);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto y = (*r)[0].toFloats();
    ASSERT_EQ(static_cast<int64_t>(y.size()), planes);
    for (int64_t p = 0; p < planes; ++p) {
      double s = 0;
      for (int64_t k = 0; k < inner; ++k) s += v[static_cast<size_t>(p * inner + k)];
      const double want = s / static_cast<double>(inner);
      EXPECT_NEAR(y[static_cast<size_t>(p)], want, 1e-6 * std::max(1.0, std::fabs(want)))
          << dims.size() << "-D, plane of " << inner << ", plane " << p;
    }
  }
}

TEST(ExecOps, GlobalMaxPoolIsEachPlanesMaximumAndNaNWhereThePlaneHasOne) {
  // Each plane's maximum in vector steps of 16 and a remainder (RowSum.h, extremeRow): planes of 1 to 37
  // elements and of 4099, exact; a NaN anywhere in a plane (in a vector step or the remainder) makes that
  // plane's output NaN and no other's, as ReduceMax over the same axes.
  std::vector<std::vector<int64_t>> shapes;
  for (int64_t k = 1; k <= 37; ++k) shapes.push_back({2, 3, k});
  shapes.push_back({1, 2, 4099});
  shapes.push_back({2, 2, 5, 7});
  for (const auto& dims : shapes) {
    const int64_t n = std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
    const int64_t planes = dims[0] * dims[1], inner = n / planes;
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 7.3, 17.0) - 30.0);
    const int64_t nanPlane = planes - 1;
    v[static_cast<size_t>(nanPlane * inner + inner / 2)] = std::numeric_limits<float>::quiet_NaN();
    auto r = runOne("GlobalMaxPool", {{"x", Tensor::floats(dims, v)}}, 1, {}, 13);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto y = (*r)[0].toFloats();
    ASSERT_EQ(static_cast<int64_t>(y.size()), planes);
    for (int64_t p = 0; p < planes; ++p) {
      if (p == nanPlane) {
        EXPECT_TRUE(std::isnan(y[static_cast<size_t>(p)])) << "plane of " << inner;
        continue;
      }
      float want = -std::numeric_limits<float>::infinity();
      for (int64_t k = 0; k < inner; ++k) want = std::max(want, v[static_cast<size_t>(p * inner + k)]);
      EXPECT_EQ(y[static_cast<size_t>(p)], want) << "plane of " << inner << ", plane " << p;
    }
  }
}

TEST(ExecOps, MiddleAxisMaxAndMinAreExactAndNaNOnlyInTheirColumn) {
  // ReduceMax and ReduceMin over axis 1 of [2, R, inner] run 4 columns a vector and write each vector out
  // whole (ops_reduce.cpp): inner 4 to 13 (vectors and a remainder of 0 to 3), R 1 to 9 (passes of 4 rows
  // and the rest), against a plain loop, exact; a NaN in one column (in a vector, then in the remainder)
  // makes that output NaN and no other.
  for (int64_t inner : {4, 5, 7, 8, 13})
    for (int64_t rr : {1, 3, 4, 9}) {
      const std::vector<int64_t> dims = {2, rr, inner};
      std::vector<float> v(static_cast<size_t>(2 * rr * inner));
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 7.3, 11.0) - 5.0);
      const int64_t nanCol = inner - 1;  // in the remainder unless inner is a multiple of 4
      for (int64_t col : {int64_t{1}, nanCol}) {
        std::vector<float> w = v;
        w[static_cast<size_t>((rr - 1) * inner + col)] = std::numeric_limits<float>::quiet_NaN();
        for (const char* op : {"ReduceMax", "ReduceMin"}) {
          const bool isMax = std::string(op) == "ReduceMax";
          auto r = runOne(op, {{"x", Tensor::floats(dims, w)}}, 1,
                          attrs({Attribute::makeInts("axes", {1}), Attribute::makeInt("keepdims", 0)}));
          ASSERT_TRUE(r.ok()) << op << ": " << r.error().message;
          const auto y = (*r)[0].toFloats();
          ASSERT_EQ(y.size(), static_cast<size_t>(2 * inner));
          for (int64_t o = 0; o < 2; ++o)
            for (int64_t j = 0; j < inner; ++j) {
              const float got = y[static_cast<size_t>(o * inner + j)];
              if (o == 0 && j == col) {
                EXPECT_TRUE(std::isnan(got)) << op << " inner " << inner << " R " << rr << " column " << j;
                continue;
              }
              float want = w[static_cast<size_t>(o * rr * inner + j)];
              for (int64_t k = 1; k < rr; ++k) {
                const float x = w[static_cast<size_t>((o * rr + k) * inner + j)];
                want = isMax ? std::max(want, x) : std::min(want, x);
              }
              EXPECT_EQ(got, want) << op << " inner " << inner << " R " << rr << " at " << o << "," << j;
            }
        }
      }
    }
}

TEST(ExecOps, RowReductionsAndLayerNormMatchADoubleLoopOverEveryRowLength) {
  // Rows reduced whole run in four partial sums (ops_reduce.cpp); every row length from 1 to 37 and
  // 1000, against a plain double loop: sums within 1e-5 relative, Max and Min exact, a NaN propagated.
  // Seven rows: rows of 2 to 7 are summed four at a time, then one at a time; each row's result is the
  // same bit for bit as the row's alone (one at a time).
  for (int64_t len : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 25, 37, 1000}) {
    const int64_t rows = 7;
    std::vector<float> v(static_cast<size_t>(rows * len));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 7.3, 11.0) - 5.0);
    const auto in = Tensor::floats({rows, len}, v);
    const auto axes = attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 0)});
    for (const char* op :
         {"ReduceMean", "ReduceSumSquare", "ReduceL1", "ReduceL2", "ReduceMax", "ReduceMin"}) {
      auto r = runOne(op, {{"x", in}}, 1, axes);
      ASSERT_TRUE(r.ok()) << op << ": " << r.error().message;
      const auto y = (*r)[0].toFloats();
      ASSERT_EQ(y.size(), static_cast<size_t>(rows));
      for (int64_t i = 0; i < rows; ++i) {
        double sum = 0, sq = 0, l1 = 0, mx = -1e300, mn = 1e300;
        for (int64_t k = 0; k < len; ++k) {
          const double x = v[static_cast<size_t>(i * len + k)];
          sum += x, sq += x * x, l1 += std::fabs(x), mx = std::max(mx, x), mn = std::min(mn, x);
        }
        const std::string o = op;
        const double want = o == "ReduceMean"        ? sum / static_cast<double>(len)
                            : o == "ReduceSumSquare" ? sq
                            : o == "ReduceL1"        ? l1
                            : o == "ReduceL2"        ? std::sqrt(sq)
                            : o == "ReduceMax"       ? mx
                                                     : mn;
        const std::vector<float> row(v.begin() + i * len, v.begin() + (i + 1) * len);
        auto alone = runOne(op, {{"x", Tensor::floats({1, len}, row)}}, 1, axes);
        ASSERT_TRUE(alone.ok()) << op << ": " << alone.error().message;
        EXPECT_EQ(y[static_cast<size_t>(i)], (*alone)[0].toFloats().at(0))
            << op << " len " << len << " row " << i;
        if (o == "ReduceMax" || o == "ReduceMin")
          EXPECT_EQ(y[static_cast<size_t>(i)], static_cast<float>(want)) << op << " len " << len;
        else
          EXPECT_NEAR(y[static_cast<size_t>(i)], want, 1e-5 * std::max(1.0, std::fabs(want)))
              << op << " len " << len;
      }
    }
    // LayerNormalization with a whole-row scale and bias: (x - mean) / sqrt(var + eps) * s + b.
    std::vector<float> sc(static_cast<size_t>(len)), bi(static_cast<size_t>(len));
    for (int64_t k = 0; k < len; ++k)
      sc[static_cast<size_t>(k)] = 0.5f + 0.1f * static_cast<float>(k % 5),
      bi[static_cast<size_t>(k)] = 0.25f * static_cast<float>(k % 3);
    auto ln =
        runOne("LayerNormalization",
               {{"x", in}, {"s", Tensor::floats({len}, sc), true}, {"b", Tensor::floats({len}, bi), true}}, 1,
               attrs({Attribute::makeInt("axis", -1)}), 17);
    ASSERT_TRUE(ln.ok()) << ln.error().message;
    const auto y = (*ln)[0].toFloats();
    for (int64_t i = 0; i < rows; ++i) {
      double sum = 0, sq = 0;
      for (int64_t k = 0; k < len; ++k) sum += v[static_cast<size_t>(i * len + k)];
      const double m = sum / static_cast<double>(len);
      for (int64_t k = 0; k < len; ++k) sq += std::pow(v[static_cast<size_t>(i * len + k)] - m, 2);
      const double is = 1.0 / std::sqrt(sq / static_cast<double>(len) + 1e-5);
      for (int64_t k = 0; k < len; ++k) {
        const size_t at = static_cast<size_t>(i * len + k);
        EXPECT_NEAR(y[at], (v[at] - m) * is * sc[static_cast<size_t>(k)] + bi[static_cast<size_t>(k)], 2e-5)
            << "LayerNormalization len " << len << " at " << i << "," << k;
      }
    }
  }
  std::vector<float> withNan = {1.f, 2.f, std::numeric_limits<float>::quiet_NaN(), 0.f, 5.f, 6.f};
  auto r = runOne("ReduceMax", {{"x", Tensor::floats({1, 6}, withNan)}}, 1,
                  attrs({Attribute::makeInts("axes", {-1}), Attribute::makeInt("keepdims", 0)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(std::isnan((*r)[0].toFloats()[0]));
}

TEST(ExecOps, LogSoftmaxOfLongRowsMatchesTheDoubleReference) {
  // Rows of 1000 over [-60, 60] (exponentials on vector lanes, on the AVX2 and the SSE2 build of
  // FastMath), and a row along a non-last axis (blocks of columns): x - max - log(sum exp(x - max)) in
  // double, within 3e-5 (values down to -120: a few float ulps).
  const int64_t rows = 3, len = 1000;
  std::vector<float> v(static_cast<size_t>(rows * len));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(std::fmod(i * 37.0, 120.0) - 60.0) * (i % 7 ? 1.f : 0.1f);
  auto ref = [&](int64_t k, int64_t step, int64_t base) {
    double mx = -1e300, sum = 0;
    for (int64_t j = 0; j < len; ++j) mx = std::max(mx, double(v[static_cast<size_t>(base + j * step)]));
    for (int64_t j = 0; j < len; ++j) sum += std::exp(double(v[static_cast<size_t>(base + j * step)]) - mx);
    return double(v[static_cast<size_t>(base + k * step)]) - mx - std::log(sum);
  };
  for (int lanes : fw::exec::fastmath::buildLanes()) {
    fw::exec::fastmath::allowLanes(lanes);
    auto r = runOne("LogSoftmax", {{"x", Tensor::floats({rows, len}, v)}});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto y = (*r)[0].toFloats();
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t k = 0; k < len; ++k)
        ASSERT_NEAR(y[static_cast<size_t>(i * len + k)], ref(k, 1, i * len), 3e-5)
            << lanes << " lanes " << i << "," << k;
  }
  fw::exec::fastmath::allowLanes(16);
  // Along axis 0 of [len, rows]: each column is a row of the softmax.
  auto c = runOne("LogSoftmax", {{"x", Tensor::floats({len, rows}, v)}}, 1,
                  attrs({Attribute::makeInt("axis", 0)}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  const auto yc = (*c)[0].toFloats();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = 0; k < len; ++k)
      ASSERT_NEAR(yc[static_cast<size_t>(k * rows + i)], ref(k, rows, i), 3e-5) << i << "," << k;
}

TEST(ExecOps, SoftmaxAlongAMiddleAxisMatchesTheDoubleReferenceInEveryColumnBlock) {
  // [2, 7, 300] over axis 1: 300 columns an outer index, a block of 256 and one of 44; [5, 3] over axis 0
  // (3 columns). Softmax within 1e-6 + 2e-6 relative and LogSoftmax within 3e-5 of the double reference,
  // on every lane width; a NaN in one column makes that column NaN and no other.
  for (auto [dims, axis] :
       std::vector<std::pair<std::vector<int64_t>, int64_t>>{{{2, 7, 300}, 1}, {{5, 3}, 0}}) {
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d) {
      if (d < axis) outer *= dims[static_cast<size_t>(d)];
      if (d > axis) inner *= dims[static_cast<size_t>(d)];
    }
    const int64_t len = dims[static_cast<size_t>(axis)];
    std::vector<float> v(static_cast<size_t>(outer * len * inner));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(std::fmod(i * 7.31, 50.0) - 25.0);
    const int64_t nanColumn = inner - 1;
    v[static_cast<size_t>(2 * inner + nanColumn)] = std::numeric_limits<float>::quiet_NaN();
    for (int lanes : fw::exec::fastmath::buildLanes()) {
      fw::exec::fastmath::allowLanes(lanes);
      for (const bool isLog : {false, true}) {
        auto r = runOne(isLog ? "LogSoftmax" : "Softmax", {{"x", Tensor::floats(dims, v)}}, 1,
                        attrs({Attribute::makeInt("axis", axis)}));
        ASSERT_TRUE(r.ok()) << r.error().message;
        const auto y = (*r)[0].toFloats();
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i) {
            auto at = [&](int64_t k) { return static_cast<size_t>((o * len + k) * inner + i); };
            if (o == 0 && i == nanColumn) {
              for (int64_t k = 0; k < len; ++k) ASSERT_TRUE(std::isnan(y[at(k)])) << k;
              continue;
            }
            double mx = -1e300, sum = 0;
            for (int64_t k = 0; k < len; ++k) mx = std::max(mx, double(v[at(k)]));
            for (int64_t k = 0; k < len; ++k) sum += std::exp(double(v[at(k)]) - mx);
            for (int64_t k = 0; k < len; ++k) {
              const double want = isLog ? v[at(k)] - mx - std::log(sum) : std::exp(v[at(k)] - mx) / sum;
              ASSERT_NEAR(y[at(k)], want, isLog ? 3e-5 : 1e-6 + 2e-6 * std::fabs(want))
                  << (isLog ? "LogSoftmax " : "Softmax ") << lanes << " lanes, at " << o << "," << k << ","
                  << i;
            }
          }
      }
    }
    fw::exec::fastmath::allowLanes(16);
  }
}

TEST(ExecOps, AMaskedSoftmaxWritesNoSubnormalProbabilities) {
  // Rows of 16 scores with every other one masked by -100 (a Swin-style window mask: e^-100 is 3.7e-44,
  // subnormal), along the last axis and along axis 1 of [4, 16, 3]: the masked probabilities are 0, none
  // is subnormal, the others within 1e-6 of the double reference; LogSoftmax keeps x - max - log(sum).
  std::vector<float> v(4 * 16 * 3);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(std::fmod(i * 0.37, 3.0)) - ((i / 3) % 2 ? 100.f : 0.f);
  for (int lanes : fw::exec::fastmath::buildLanes()) {
    fw::exec::fastmath::allowLanes(lanes);
    for (const bool middle : {false, true})
      for (const bool isLog : {false, true}) {
        const std::vector<int64_t> dims =
            middle ? std::vector<int64_t>{4, 16, 3} : std::vector<int64_t>{12, 16};
        std::vector<float> x = v;
        if (!middle)  // the same rows, laid out along the last axis
          for (int64_t o = 0; o < 4; ++o)
            for (int64_t k = 0; k < 16; ++k)
              for (int64_t i = 0; i < 3; ++i)
                x[static_cast<size_t>((o * 3 + i) * 16 + k)] = v[static_cast<size_t>((o * 16 + k) * 3 + i)];
        auto r = runOne(isLog ? "LogSoftmax" : "Softmax", {{"x", Tensor::floats(dims, x)}}, 1,
                        attrs({Attribute::makeInt("axis", middle ? 1 : -1)}));
        ASSERT_TRUE(r.ok()) << r.error().message;
        const auto y = (*r)[0].toFloats();
        for (int64_t o = 0; o < 4; ++o)
          for (int64_t i = 0; i < 3; ++i) {
            auto at = [&](int64_t k) {
              return static_cast<size_t>(middle ? (o * 16 + k) * 3 + i : (o * 3 + i) * 16 + k);
            };
            double mx = -1e300, sum = 0;
            for (int64_t k = 0; k < 16; ++k) mx = std::max(mx, double(x[at(k)]));
            for (int64_t k = 0; k < 16; ++k) sum += std::exp(double(x[at(k)]) - mx);
            for (int64_t k = 0; k < 16; ++k) {
              const float got = y[at(k)];
              ASSERT_NE(std::fpclassify(got), FP_SUBNORMAL)
                  << lanes << " lanes, " << o << "," << k << "," << i;
              if (isLog) {
                ASSERT_NEAR(got, x[at(k)] - mx - std::log(sum), 3e-5);
              } else if (x[at(k)] - mx < -50) {
                ASSERT_EQ(got, 0.f);
              } else {
                ASSERT_NEAR(got, std::exp(x[at(k)] - mx) / sum, 1e-6);
              }
            }
          }
      }
  }
  fw::exec::fastmath::allowLanes(16);
}

TEST(ExecOps, PadReflectAndEdge) {
  auto r = runOne("Pad", {{"x", Tensor::floats({4}, {1, 2, 3, 4})}, {"p", Tensor::int64s({2}, {2, 3}), true}}, 1,
                  attrs({Attribute::makeString("mode", "reflect")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {9}, {3, 2, 1, 2, 3, 4, 3, 2, 1});
  auto r2 = runOne("Pad", {{"x", Tensor::floats({4}, {1, 2, 3, 4})}, {"p", Tensor::int64s({2}, {1, 2}), true}}, 1,
                   attrs({Attribute::makeString("mode", "edge")}));
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  expectNear((*r2)[0], {7}, {1, 1, 2, 3, 4, 4, 4});
}

TEST(ExecOps, CastToFloat16RoundsEveryFloatAsTheSoftwareConversionDoes) {
  // Every 4099th bit pattern of a float (normals, subnormals, the float16 overflow edge, ties), the
  // specials, in a count that is not a multiple of the eight the F16C path takes at once: each output's
  // float16 bits equal floatToHalf of the input; a NaN stays a NaN.
  std::vector<float> v;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 4099) {
    float f;
    const auto b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    v.push_back(f);
  }
  for (float f : {0.f, -0.f, 65504.f, 65519.f, 65520.f, -65520.f, 1.f + 1.f / 2048, 1.f + 3.f / 2048,
                  5.9604645e-8f, 2.9802322e-8f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
    v.push_back(f);
  if (v.size() % 8 == 0) v.push_back(1.5f);
  const auto n = static_cast<int64_t>(v.size());
  auto r = runOne("Cast", {{"x", Tensor::floats({n}, v)}}, 1,
                  attrs({Attribute::makeInt("to", static_cast<int64_t>(fw::DType::Float16))}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dtype(), fw::DType::Float16);
  const auto got = (*r)[0].data<uint16_t>();
  ASSERT_EQ(static_cast<int64_t>(got.size()), n);
  for (size_t k = 0; k < v.size(); ++k) {
    if (std::isnan(v[k])) {
      EXPECT_TRUE(std::isnan(fw::halfToFloat(got[k]))) << k;
      continue;
    }
    ASSERT_EQ(got[k], fw::floatToHalf(v[k])) << "input " << v[k] << " at " << k;
  }
}

TEST(ExecOps, CastKeepsLogicalTypeAndWraps) {
  auto r = runOne("Cast", {{"x", Tensor::floats({3}, {1.7f, -2.2f, 300.f})}}, 1,
                  attrs({Attribute::makeInt("to", static_cast<int64_t>(fw::DType::UInt8))}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dtype(), fw::DType::UInt8);
  auto v = (*r)[0].toInt64s();
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[1], 254);  // -2 wraps modulo 256
  EXPECT_EQ(v[2], 44);   // 300 wraps modulo 256
}

// A Cast from float to int64 and int32 truncates every value as a scalar cast does, eight at a time on vector
// lanes where all eight are within int32 and element by element around a NaN, an infinity or a value beyond
// it (-2^31 and the largest float below 2^31 inside, 2^31 and 3e9 outside), whichever lane it is in.
TEST(ExecOps, CastFromFloatToIntegersTruncatesEveryValueAsAScalarCast) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> specials = {nan,  inf,   -inf,          2147483648.f,
                                       3e9f, -3e9f, -2147483648.f, 2147483520.f};
  std::vector<float> v;
  for (int i = 0; i < 61; ++i) v.push_back(static_cast<float>(i % 7 - 3) * 1.37f + (i % 2 ? 0.5f : -0.99f));
  for (size_t k = 0; k < specials.size(); ++k) v[7 + k * 6] = specials[k];
  for (fw::DType to : {fw::DType::Int64, fw::DType::Int32}) {
    auto r = runOne("Cast", {{"x", Tensor::floats({static_cast<int64_t>(v.size())}, v)}}, 1,
                    attrs({Attribute::makeInt("to", static_cast<int64_t>(to))}));
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto got = (*r)[0].toInt64s();
    ASSERT_EQ(got.size(), v.size());
    for (size_t k = 0; k < v.size(); ++k) {
      // A NaN or an infinity gives int64's minimum (0 in int32's width).
      int64_t want = std::isfinite(v[k]) ? static_cast<int64_t>(v[k]) : std::numeric_limits<int64_t>::min();
      if (to == fw::DType::Int32)
        want = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(want)));
      EXPECT_EQ(got[k], want) << "value " << v[k] << " at " << k
                              << (to == fw::DType::Int32 ? " to int32" : "");
    }
  }
}

// Mod of int64s by a scalar, fmod 0 (the divisor's sign) and 1 (the dividend's): powers of two (a mask for
// fmod 0) and others, positive and negative dividends and divisors, against the definition.
TEST(ExecOps, IntegerModByAScalarFollowsTheDivisorsOrTheDividendsSign) {
  std::vector<int64_t> xs;
  for (int64_t q = -40; q <= 40; ++q) xs.push_back(q * 977 + (q % 3) * (int64_t{1} << 40));
  for (int64_t m :
       {int64_t{1}, int64_t{2}, int64_t{16384}, int64_t{1} << 40, int64_t{3}, int64_t{-8}, int64_t{-7}})
    for (int64_t f : {0, 1}) {
      auto r = runOne(
          "Mod",
          {{"a", Tensor::int64s({static_cast<int64_t>(xs.size())}, xs)}, {"b", Tensor::int64s({}, {m})}}, 1,
          attrs({Attribute::makeInt("fmod", f)}));
      ASSERT_TRUE(r.ok()) << r.error().message;
      const auto got = (*r)[0].toInt64s();
      ASSERT_EQ(got.size(), xs.size());
      for (size_t k = 0; k < xs.size(); ++k) {
        int64_t want = xs[k] % m;
        if (f == 0 && want != 0 && ((want < 0) != (m < 0))) want += m;
        EXPECT_EQ(got[k], want) << xs[k] << " mod " << m << " fmod " << f;
      }
    }
}

TEST(ExecOps, MaxPoolIndicesAndAveragePoolPadding) {
  auto r = runOne("MaxPool", {{"x", iota({1, 1, 3, 3})}}, 2,
                  attrs({Attribute::makeInts("kernel_shape", {2, 2}), Attribute::makeInts("pads", {1, 1, 0, 0})}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ((*r)[1].toInt64s(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  // Average over a 2x2 window with 1 pad on top/left: corner sees only x[0,0] (count_include_pad=0).
  auto r2 = runOne("AveragePool", {{"x", iota({1, 1, 2, 2}, 1)}}, 1,
                   attrs({Attribute::makeInts("kernel_shape", {2, 2}), Attribute::makeInts("pads", {1, 1, 0, 0})}));
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  expectNear((*r2)[0], {1, 1, 2, 2}, {1, 1.5f, 2, 2.5f});
}

// A Pad by zeros on every axis hands out its input, as a Reshape does (the cost model counts both as
// views): the run allocates no tensor for it; a Pad that pads does.
TEST(ExecOps, APadByZerosHandsOutItsInput) {
  const Tensor x = iota({2, 3, 4}, 1.f, 1.f);
  auto allocations = [&](std::vector<int64_t> pads, std::vector<float>* out) -> int64_t {
    const std::vector<In> ins = {{"x", x}, {"pads", Tensor::int64s({6}, pads), true}};
    fw::ExecStats stats;
    fw::ExecOptions o;
    o.stats = &stats;
    auto r = fw::runGraph(oneNode("Pad", ins, 1, {}, 17), runtimeInputs(ins), o);
    EXPECT_TRUE(r.ok()) << r.error().message;
    if (r.ok()) *out = (*r)[0].toFloats();
    return stats.allocations;
  };
  std::vector<float> same, padded;
  EXPECT_EQ(allocations({0, 0, 0, 0, 0, 0}, &same), 0);
  EXPECT_EQ(same, x.toFloats());
  EXPECT_GT(allocations({0, 0, 1, 0, 0, 0}, &padded), 0);
  EXPECT_EQ(padded.size(), 2u * 3u * 5u);
}

TEST(ExecOps, PadMatchesADirectLoopForEveryModeRankAndSign) {
  // Per output element: along each axis i = o - begin; outside [0, n) constant takes the value, edge
  // clamps, reflect mirrors without repeating the border (period 2 (n - 1)).
  auto source = [](int64_t o, int64_t b, int64_t n, const std::string& mode) -> int64_t {
    int64_t i = o - b;
    if (i >= 0 && i < n) return i;
    if (mode == "constant") return -1;
    if (mode == "edge") return std::clamp<int64_t>(i, 0, n - 1);
    if (n == 1) return 0;
    const int64_t p = 2 * (n - 1);
    i = ((i % p) + p) % p;
    return i >= n ? p - i : i;
  };
  struct Case {
    std::vector<int64_t> dims, pads;
  };
  const std::vector<Case> cases = {{{5}, {2, 3}},
                                   {{5}, {-1, 2}},
                                   {{3, 4}, {1, 0, 2, 3}},
                                   {{3, 4}, {0, -1, 1, 2}},
                                   {{2, 3, 4}, {0, 1, 2, 1, 0, 3}},
                                   {{2, 3, 4}, {1, 0, 0, 0, 2, 0}},
                                   {{1, 2, 3, 3}, {0, 0, 1, 2, 0, 1, 2, 1}},
                                   {{2, 3, 3, 2}, {0, 0, -1, 1, 0, 0, 1, -1}},
                                   {{2, 3, 4}, {0, 0, 0, 0, 0, 0}},  // no pad: the input itself
                                   {{3, 4}, {0, -1, 0, 1}},          // the same shape, shifted
                                   // rows of 16 bytes and more: 16-byte moves, the last one overlapping
                                   {{2, 3, 7}, {0, 1, 2, 1, 0, 3}},
                                   {{2, 2, 5, 9}, {1, 0, 1, 0, 0, 2, 1, 0}},
                                   {{3, 6, 13}, {0, -2, 0, 0, 1, -5}}};
  for (const std::string mode : {"constant", "edge", "reflect"})
    for (const auto& cs : cases) {
      const size_t r = cs.dims.size();
      bool fits = true;  // reflect needs the pad no wider than n - 1
      for (size_t d = 0; d < r; ++d)
        fits = fits && (mode != "reflect" || std::max(cs.pads[d], cs.pads[d + r]) < cs.dims[d]);
      if (!fits) continue;
      SCOPED_TRACE(mode + " over " + std::to_string(r) + " axes, case " + std::to_string(&cs - cases.data()));
      const Tensor x = iota(cs.dims, 1.f, 1.f);
      auto res = runOne("Pad",
                        {{"x", x},
                         {"pads", Tensor::int64s({static_cast<int64_t>(2 * r)}, cs.pads), true},
                         {"v", Tensor::floats({}, {-7.f}), true}},
                        1, attrs({Attribute::makeString("mode", mode)}));
      ASSERT_TRUE(res.ok()) << mode << ": " << res.error().message;
      std::vector<int64_t> od(r);
      int64_t total = 1;
      for (size_t d = 0; d < r; ++d) total *= od[d] = cs.dims[d] + cs.pads[d] + cs.pads[d + r];
      const auto xv = x.toFloats();
      std::vector<float> want;
      for (int64_t o = 0; o < total; ++o) {
        int64_t rest = o, off = 0, stride = 1;
        bool outside = false;
        for (size_t d = r; d-- > 0;) {
          const int64_t i = source(rest % od[d], cs.pads[d], cs.dims[d], mode);
          rest /= od[d];
          outside = outside || i < 0;
          off += i * stride;
          stride *= cs.dims[d];
        }
        want.push_back(outside ? -7.f : xv[static_cast<size_t>(off)]);
      }
      expectNear((*res)[0], od, want, 0.f);
    }
  // Eight- and one-byte elements (int64, bool): rows of 3 (under 16 bytes) and of 5 padded to 8.
  for (const fw::DType dt : {fw::DType::Int64, fw::DType::Bool})
    for (const auto& cs : std::vector<Case>{{{2, 3}, {1, 2, 0, 1}}, {{2, 5}, {0, 1, 1, 2}}}) {
      std::vector<int64_t> xv(static_cast<size_t>(cs.dims[0] * cs.dims[1]));
      for (size_t k = 0; k < xv.size(); ++k)
        xv[k] = dt == fw::DType::Bool ? (k % 3 == 1) : static_cast<int64_t>(k) + 1;
      const int64_t pad = dt == fw::DType::Bool ? 1 : 200;
      auto of = [&](std::vector<int64_t> dims, const std::vector<int64_t>& v) {
        if (dt == fw::DType::Int64) return Tensor::int64s(std::move(dims), v);
        return Tensor::fromVector<uint8_t>(fw::DType::Bool, std::move(dims),
                                           std::vector<uint8_t>(v.begin(), v.end()));
      };
      auto res = runOne(
          "Pad",
          {{"x", of(cs.dims, xv)}, {"pads", Tensor::int64s({4}, cs.pads), true}, {"v", of({}, {pad}), true}},
          1, {});
      ASSERT_TRUE(res.ok()) << res.error().message;
      const int64_t H = cs.dims[0] + cs.pads[0] + cs.pads[2], W = cs.dims[1] + cs.pads[1] + cs.pads[3];
      const auto got = (*res)[0].toInt64s();
      ASSERT_EQ(got.size(), static_cast<size_t>(H * W));
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          const int64_t i = h - cs.pads[0], j = w - cs.pads[1];
          const int64_t want = i < 0 || i >= cs.dims[0] || j < 0 || j >= cs.dims[1]
                                   ? pad
                                   : xv[static_cast<size_t>(i * cs.dims[1] + j)];
          EXPECT_EQ(got[static_cast<size_t>(h * W + w)], want)
              << (dt == fw::DType::Int64 ? "int64 " : "bool ") << h << "," << w;
        }
    }
  // An unknown mode is refused once something is padded, and passes a crop through.
  auto wrap = runOne("Pad", {{"x", iota({4})}, {"pads", Tensor::int64s({2}, {1, 0}), true}}, 1,
                     attrs({Attribute::makeString("mode", "spiral")}));
  ASSERT_FALSE(wrap.ok());
  EXPECT_NE(wrap.error().message.find("unsupported mode 'spiral'"), std::string::npos)
      << wrap.error().message;
  auto crop = runOne("Pad", {{"x", iota({4})}, {"pads", Tensor::int64s({2}, {-1, 0}), true}}, 1,
                     attrs({Attribute::makeString("mode", "spiral")}));
  ASSERT_TRUE(crop.ok()) << crop.error().message;
  expectNear((*crop)[0], {3}, {1, 2, 3}, 0.f);
}

// int64 Add, Sub and Mul (index arithmetic) with each broadcast form the loop has: a trailing row, the row
// on the left, two whole operands, a column; against the element-by-element definition.
TEST(ExecOps, Int64ArithmeticBroadcastsMatchTheDefinition) {
  const std::vector<int64_t> av{3, -7, 11, 0, 5, 2000000000000, -4, 9, 1, -1, 6, 8};
  struct Case {
    std::vector<int64_t> bd;
    bool swap;
  };
  for (const Case& cs : {Case{{4}, false}, Case{{4}, true}, Case{{3, 4}, false}, Case{{3, 1}, false}}) {
    const int64_t nb = std::accumulate(cs.bd.begin(), cs.bd.end(), int64_t{1}, std::multiplies<>());
    std::vector<int64_t> bv(static_cast<size_t>(nb));
    for (int64_t k = 0; k < nb; ++k) bv[static_cast<size_t>(k)] = 3 * k - 5;
    for (const char* op : {"Add", "Sub", "Mul"}) {
      const Tensor at = Tensor::int64s({3, 4}, av), bt = Tensor::int64s(cs.bd, bv);
      auto r = cs.swap ? runOne(op, {{"b", bt}, {"a", at}}) : runOne(op, {{"a", at}, {"b", bt}});
      ASSERT_TRUE(r.ok()) << op << ": " << r.error().message;
      const auto y = (*r)[0].toInt64s();
      ASSERT_EQ(y.size(), 12u);
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j) {
          const int64_t x = av[static_cast<size_t>(i * 4 + j)];
          const int64_t z = cs.bd.size() == 2 && cs.bd[1] == 1 ? bv[static_cast<size_t>(i)]
                            : nb == 4                          ? bv[static_cast<size_t>(j)]
                                                               : bv[static_cast<size_t>(i * 4 + j)];
          const int64_t l = cs.swap ? z : x, rr = cs.swap ? x : z;
          const std::string o = op;
          const int64_t want = o == "Add" ? l + rr : o == "Sub" ? l - rr : l * rr;
          EXPECT_EQ(y[static_cast<size_t>(i * 4 + j)], want) << op << " at " << i << "," << j;
        }
    }
  }
}

// Tile copies runs of the input's last axis (ops_tensor.cpp): every output element against its definition,
// y[o] = x[o mod dims], over ranks 1-4, repeats of 0 and 1 on some axes, floats and int64.
TEST(ExecOps, TileMatchesItsDefinition) {
  struct Case {
    std::vector<int64_t> dims, reps;
  };
  for (const Case& cs : {Case{{5}, {3}}, Case{{16, 1, 8}, {1, 50, 1}}, Case{{2, 3}, {2, 1}},
                         Case{{2, 3}, {0, 2}}, Case{{2, 1, 3, 2}, {1, 4, 2, 3}}, Case{{1, 4}, {3, 1}}}) {
    const int64_t n = std::accumulate(cs.dims.begin(), cs.dims.end(), int64_t{1}, std::multiplies<>());
    std::vector<float> xv(static_cast<size_t>(n));
    std::vector<int64_t> xi(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      xv[static_cast<size_t>(i)] = 0.5f * static_cast<float>(i) - 1.f, xi[static_cast<size_t>(i)] = 7 * i - 3;
    const Tensor reps = Tensor::int64s({static_cast<int64_t>(cs.reps.size())}, cs.reps);
    auto rf = runOne("Tile", {{"x", Tensor::floats(cs.dims, xv)}, {"r", reps, true}}, 1, {}, 13);
    auto ri = runOne("Tile", {{"x", Tensor::int64s(cs.dims, xi)}, {"r", reps, true}}, 1, {}, 13);
    ASSERT_TRUE(rf.ok() && ri.ok()) << (rf.ok() ? ri.error().message : rf.error().message);
    std::vector<int64_t> od;
    for (size_t d = 0; d < cs.dims.size(); ++d) od.push_back(cs.dims[d] * cs.reps[d]);
    EXPECT_EQ((*rf)[0].dims(), od);
    const auto yf = (*rf)[0].toFloats();
    const auto yi = (*ri)[0].toInt64s();
    const int64_t on = std::accumulate(od.begin(), od.end(), int64_t{1}, std::multiplies<>());
    ASSERT_EQ(yf.size(), static_cast<size_t>(on));
    ASSERT_EQ(yi.size(), static_cast<size_t>(on));
    for (int64_t o = 0; o < on; ++o) {
      int64_t rem = o, src = 0, scale = 1;
      for (size_t d = od.size(); d-- > 0;) {
        src += (rem % od[d]) % cs.dims[d] * scale;
        rem /= od[d];
        scale *= cs.dims[d];
      }
      EXPECT_EQ(yf[static_cast<size_t>(o)], xv[static_cast<size_t>(src)]) << cs.dims.size() << "-D at " << o;
      EXPECT_EQ(yi[static_cast<size_t>(o)], xi[static_cast<size_t>(src)]) << cs.dims.size() << "-D at " << o;
    }
  }
}

namespace {
// Row-major index helpers for the data-movement definitions below.
std::vector<int64_t> unflat(int64_t i, const std::vector<int64_t>& dims) {
  std::vector<int64_t> at(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    at[d] = i % dims[d];
    i /= dims[d];
  }
  return at;
}
int64_t flat(const std::vector<int64_t>& at, const std::vector<int64_t>& dims) {
  int64_t i = 0;
  for (size_t d = 0; d < dims.size(); ++d) i = i * dims[d] + at[d];
  return i;
}
int64_t countOf(const std::vector<int64_t>& dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
}
// A float tensor and an int64 tensor of the same values (4- and 8-byte rows), distinct per element.
std::pair<Tensor, Tensor> floatAndInt(const std::vector<int64_t>& dims, int64_t seed) {
  const int64_t n = countOf(dims);
  std::vector<float> f(static_cast<size_t>(n));
  std::vector<int64_t> i(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    i[static_cast<size_t>(k)] = 1000 * seed + k;
    f[static_cast<size_t>(k)] = static_cast<float>(i[static_cast<size_t>(k)]);
  }
  return {Tensor::floats(dims, f), Tensor::int64s(dims, i)};
}
}  // namespace

// Concat, Split, Gather and a Slice with steps copy rows of every size through copyRows (4 and 8 bytes,
// multiples of 16 up to 256, longer) or gather along each row: every element where the definition puts
// it, for every axis, float and int64. ([1100, 3, 1]: a Concat over several blocks of output rows, the last
// one short; a Gather of fewer picks than rows, pick by pick.)
TEST(ExecOps, ConcatSplitGatherAndSteppedSliceMatchTheirDefinitionsForEveryAxisAndRowSize) {
  for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{
           {3, 4, 5}, {2, 3, 4}, {2, 3, 70}, {2, 6, 8, 2, 1}, {7}, {2, 1, 16}, {1100, 3, 1}}) {
    const auto r = static_cast<int64_t>(dims.size());
    for (int64_t axis = 0; axis < r; ++axis) {
      const auto ax = static_cast<size_t>(axis);
      for (int typed = 0; typed < 2; ++typed) {
        auto pick = [&](const std::pair<Tensor, Tensor>& p) { return typed ? p.second : p.first; };
        auto values = [&](const Tensor& t) {
          return typed ? t.toInt64s() : [&] {
            std::vector<int64_t> v;
            for (float x : t.toFloats()) v.push_back(static_cast<int64_t>(x));
            return v;
          }();
        };
        const std::string what =
            std::to_string(r) + "-D axis " + std::to_string(axis) + (typed ? " int64" : " float");
        // Concat of two inputs, the second 2 longer along the axis.
        std::vector<int64_t> d2 = dims;
        d2[ax] += 2;
        const Tensor a = pick(floatAndInt(dims, 1)), b = pick(floatAndInt(d2, 2));
        auto cat = runOne("Concat", {{"a", a}, {"b", b}}, 1, attrs({Attribute::makeInt("axis", axis)}), 13);
        ASSERT_TRUE(cat.ok()) << cat.error().message;
        std::vector<int64_t> od = dims;
        od[ax] = dims[ax] + d2[ax];
        ASSERT_EQ((*cat)[0].dims(), od) << what;
        const auto y = values((*cat)[0]), av = values(a), bv = values(b);
        for (int64_t o = 0; o < countOf(od); ++o) {
          auto at = unflat(o, od);
          const bool first = at[ax] < dims[ax];
          if (!first) at[ax] -= dims[ax];
          EXPECT_EQ(y[static_cast<size_t>(o)],
                    first ? av[static_cast<size_t>(flat(at, dims))] : bv[static_cast<size_t>(flat(at, d2))])
              << "Concat " << what << " at " << o;
        }
        // Split of the concatenation back into its two parts.
        auto parts = runOne("Split", {{"x", (*cat)[0]}, {"s", Tensor::int64s({2}, {dims[ax], d2[ax]}), true}},
                            2, attrs({Attribute::makeInt("axis", axis)}), 13);
        ASSERT_TRUE(parts.ok()) << parts.error().message;
        EXPECT_EQ(values((*parts)[0]), av) << "Split " << what;
        EXPECT_EQ(values((*parts)[1]), bv) << "Split " << what;
        // Gather of positions along the axis, repeated and out of order, negative ones counted from the end.
        const int64_t n = dims[ax];
        const std::vector<int64_t> idx = {n - 1, 0, -1, n / 2, 0};
        auto g = runOne("Gather", {{"x", a}, {"i", Tensor::int64s({5}, idx), true}}, 1,
                        attrs({Attribute::makeInt("axis", axis)}), 13);
        ASSERT_TRUE(g.ok()) << g.error().message;
        std::vector<int64_t> gd = dims;
        gd[ax] = 5;
        ASSERT_EQ((*g)[0].dims(), gd) << what;
        const auto gy = values((*g)[0]);
        for (int64_t o = 0; o < countOf(gd); ++o) {
          auto at = unflat(o, gd);
          const int64_t k = idx[static_cast<size_t>(at[ax])];
          at[ax] = k < 0 ? k + n : k;
          EXPECT_EQ(gy[static_cast<size_t>(o)], av[static_cast<size_t>(flat(at, dims))]) << "Gather " << what;
        }
        // Slice with step 2 from 1 along the axis (x[..., 1::2, ...]): no axis of the view has stride 1
        // when the axis is the last.
        auto s = runOne("Slice", {{"x", a},
                                  {"s", Tensor::int64s({1}, {1}), true},
                                  {"e", Tensor::int64s({1}, {std::numeric_limits<int64_t>::max()}), true},
                                  {"a", Tensor::int64s({1}, {axis}), true},
                                  {"st", Tensor::int64s({1}, {2}), true}});
        ASSERT_TRUE(s.ok()) << s.error().message;
        std::vector<int64_t> sd = dims;
        sd[ax] = n / 2;
        ASSERT_EQ((*s)[0].dims(), sd) << what;
        const auto sy = values((*s)[0]);
        for (int64_t o = 0; o < countOf(sd); ++o) {
          auto at = unflat(o, sd);
          at[ax] = 1 + 2 * at[ax];
          EXPECT_EQ(sy[static_cast<size_t>(o)], av[static_cast<size_t>(flat(at, dims))]) << "Slice " << what;
        }
      }
    }
  }
}

// A reduction of every axis (to one value) and of the last axis, float: the definition in double.
// Max and Min over a run of middle axes ([outer, R, inner], R reduced: CBAM's channel max) take four rows
// a pass in 4-lane vectors: every row count and row width against a double loop, a NaN in one column
// making that column's result NaN and no other's, infinities kept.
TEST(ExecOps, MaxAndMinOverMiddleAxesMatchADoubleLoopWithNaNsInTheirColumns) {
  for (const auto& dims : std::vector<std::vector<int64_t>>{
           {2, 5, 3}, {3, 7, 9}, {1, 8, 4}, {2, 4, 2, 17}, {2, 3, 1, 4096}, {1, 1, 5}, {2, 9, 3, 3}}) {
    const int64_t inner = dims.back() * (dims.size() == 4 ? dims[2] : 1);
    Tensor x = iota(dims, -50.f, 0.731f);
    auto v = x.toFloats();
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(static_cast<float>(i) * 1.37f) * 100.f;
    const int64_t R = dims[1];
    // A NaN in column 1 of the first outer index (row R - 1), +inf and -inf in column 0.
    if (inner > 1) v[static_cast<size_t>((R - 1) * inner + 1)] = std::numeric_limits<float>::quiet_NaN();
    v[static_cast<size_t>((R / 2) * inner)] = std::numeric_limits<float>::infinity();
    if (R > 1) v[0] = -std::numeric_limits<float>::infinity();
    x = Tensor::floats(dims, v);
    const std::vector<int64_t> axes =
        dims.size() == 4 && dims[2] == 1 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{1};
    const int64_t keptInner = dims.size() == 4 && dims[2] == 1 ? dims[3] : inner;
    for (const char* op : {"ReduceMax", "ReduceMin"}) {
      SCOPED_TRACE(std::string(op) + " over " + std::to_string(dims.size()) + "-d, " + std::to_string(R) +
                   " rows of " + std::to_string(inner));
      auto r = runOne(op, {{"x", x}}, 1,
                      attrs({Attribute::makeInts("axes", axes), Attribute::makeInt("keepdims", 0)}), 13);
      ASSERT_TRUE(r.ok()) << r.error().message;
      const auto got = (*r)[0].toFloats();
      ASSERT_EQ(static_cast<int64_t>(got.size()), dims[0] * keptInner);
      const bool mx = std::string(op) == "ReduceMax";
      for (int64_t o = 0; o < dims[0]; ++o)
        for (int64_t j = 0; j < keptInner; ++j) {
          double want =
              mx ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
          bool nan = false;
          for (int64_t k = 0; k < R; ++k) {
            const float f = v[static_cast<size_t>((o * R + k) * keptInner + j)];
            nan |= std::isnan(f);
            want = mx ? std::max<double>(want, f) : std::min<double>(want, f);
          }
          const float g = got[static_cast<size_t>(o * keptInner + j)];
          if (nan)
            EXPECT_TRUE(std::isnan(g)) << o << "," << j;
          else
            EXPECT_EQ(g, static_cast<float>(want)) << o << "," << j;
        }
    }
  }
}

// PRelu selects x * slope where x < 0 and x elsewhere, on the bits (no branch): a slope of one value, of a
// row, of a channel and of every element against the definition, with NaN, infinities, signed zeros and
// an infinite slope where x is positive (x stays x).
TEST(ExecOps, PReluMatchesItsDefinitionForEverySlopeShape) {
  const std::vector<int64_t> dims = {3, 4, 5};
  std::vector<float> v(60);
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(static_cast<float>(i) * 2.1f) * 10.f;
  v[1] = std::numeric_limits<float>::quiet_NaN();
  v[2] = std::numeric_limits<float>::infinity();
  v[3] = -std::numeric_limits<float>::infinity();
  v[4] = -0.f;
  v[7] = 0.f;
  const Tensor x = Tensor::floats(dims, v);
  for (const auto& sd : std::vector<std::vector<int64_t>>{{1}, {5}, {4, 1}, {3, 4, 5}}) {
    SCOPED_TRACE(std::to_string(sd.size()) + "-d slope of " + std::to_string(sd.back()));
    std::vector<float> sv(
        static_cast<size_t>(std::accumulate(sd.begin(), sd.end(), int64_t{1}, std::multiplies<>())));
    for (size_t i = 0; i < sv.size(); ++i) sv[i] = 0.25f - 0.1f * static_cast<float>(i % 7);
    sv[0] = std::numeric_limits<float>::infinity();  // only read where x < 0 gives -inf; x >= 0 stays x
    auto r = runOne("PRelu", {{"x", x}, {"slope", Tensor::floats(sd, sv)}}, 1, {}, 16);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto got = (*r)[0].toFloats();
    ASSERT_EQ(got.size(), v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      // The slope's element for x's index i, broadcast from the right.
      size_t si = 0, stride = 1;
      size_t rem = i;
      std::vector<size_t> idx(3);
      for (size_t d = 3; d-- > 0;)
        idx[d] = rem % static_cast<size_t>(dims[d]), rem /= static_cast<size_t>(dims[d]);
      for (size_t d = sd.size(); d-- > 0;) {
        const size_t xd = 3 - sd.size() + d;
        si += (sd[d] == 1 ? 0 : idx[xd]) * stride;
        stride *= static_cast<size_t>(sd[d]);
      }
      const float want = v[i] < 0 ? v[i] * sv[si] : v[i];
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << i;
      } else {
        EXPECT_EQ(got[i], want) << i;
        EXPECT_EQ(std::signbit(got[i]), std::signbit(want)) << i;
      }
    }
  }
}

namespace {

// Numpy broadcasting of dims ad against bd by index arithmetic: the output's dims, and for each output
// element (flat) the flat element of each operand it reads.
struct BroadcastIndex {
  std::vector<int64_t> od, a, b;
};
BroadcastIndex broadcastIndex(const std::vector<int64_t>& ad, const std::vector<int64_t>& bd) {
  const size_t r = std::max(ad.size(), bd.size());
  auto padded = [&](const std::vector<int64_t>& d) {
    std::vector<int64_t> f(r - d.size(), 1);
    f.insert(f.end(), d.begin(), d.end());
    return f;
  };
  const auto fa = padded(ad), fb = padded(bd);
  BroadcastIndex m;
  m.od.resize(r);
  int64_t n = 1;
  for (size_t q = 0; q < r; ++q) n *= m.od[q] = std::max(fa[q], fb[q]);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t rem = flat, ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t q = r; q-- > 0;) {
      const int64_t i = rem % m.od[q];
      rem /= m.od[q];
      ia += (fa[q] == 1 ? 0 : i) * sa;
      ib += (fb[q] == 1 ? 0 : i) * sb;
      sa *= fa[q];
      sb *= fb[q];
    }
    m.a.push_back(ia);
    m.b.push_back(ib);
  }
  return m;
}

}  // namespace

// Broadcasts whose merged rows are short and many (StyleGAN2's modulation, [1, 64, 4, 3, 3] * [4, 1, 4, 1,
// 1], rows of 9) carry each row's index from the last: against index arithmetic, on one thread and on two
// (each thread's first row decomposed on its own).
TEST(ExecOps, ShortRowBroadcastsMatchIndexArithmeticOnOneAndTwoThreads) {
  struct Case {
    std::vector<int64_t> ad, bd;
  };
  // The last ones: one value a row of 2, 3 and 9 against a dense operand on either side, a trailing row of 3
  // and 8 (row lengths up to 8 known to the compiler, core/exec/Broadcast.h byShortLength; 9 read at run
  // time).
  for (const Case& c :
       {Case{{1, 64, 4, 3, 3}, {4, 1, 4, 1, 1}}, Case{{8, 32, 16, 16}, {8, 1, 16, 1}},
        Case{{3, 1, 5, 1, 7}, {1, 4, 1, 6, 1}}, Case{{2, 1, 3}, {5, 1}}, Case{{7, 5, 2}, {7, 5, 1}},
        Case{{7, 5, 1}, {7, 5, 3}}, Case{{6, 9}, {6, 1}}, Case{{9, 3}, {3}}, Case{{8}, {5, 8}}}) {
    const BroadcastIndex at = broadcastIndex(c.ad, c.bd);
    const std::vector<int64_t>& od = at.od;
    const Tensor a = iota(c.ad, 0.f, 1.f), b = iota(c.bd, 0.f, 0.001f);
    const auto av = a.toFloats(), bv = b.toFloats();
    auto model = oneNode("Mul", {{"a", a}, {"b", b}}, 1, {}, 17);
    std::vector<float> want(at.a.size());
    for (size_t k = 0; k < want.size(); ++k)
      want[k] = av[static_cast<size_t>(at.a[k])] * bv[static_cast<size_t>(at.b[k])];
    for (int threads : {1, 2}) {
      SCOPED_TRACE(std::to_string(c.ad.size()) + "-d against " + std::to_string(c.bd.size()) + "-d, " +
                   std::to_string(threads) + " thread(s)");
      fw::ExecOptions o;
      o.threads = threads;
      auto r = fw::runGraph(model, runtimeInputs({{"a", a}, {"b", b}}), o);
      ASSERT_TRUE(r.ok()) << r.error().message;
      expectNear((*r)[0], od, want, 0.f);
    }
  }
}

// A short row of one operand repeated down a dense plane of the other ([B, N, 1, 3] - [B, 1, N, 3], a point
// cloud's pairwise offsets) runs as planes against a tile of the row (core/exec/Broadcast.h): either side
// repeated, planes not a multiple of the tile (40 rows of 3 against a tile of 21), rows of 1 to 15, a Sub
// (the order kept), a Less (bool out) and an int64 Sub, each against index arithmetic on one and two threads.
TEST(ExecOps, ARowRepeatedDownADensePlaneMatchesIndexArithmetic) {
  struct Case {
    std::vector<int64_t> ad, bd;
  };
  for (const Case& c : {Case{{2, 40, 1, 3}, {2, 1, 40, 3}}, Case{{3, 9, 4}, {3, 1, 4}},
                        Case{{3, 1, 4}, {3, 9, 4}}, Case{{5, 1, 15}, {5, 7, 15}}, Case{{4, 2, 1}, {1, 2, 1}},
                        Case{{2, 3, 1, 1, 5}, {2, 1, 6, 11, 5}}, Case{{1, 30, 2}, {6, 1, 2}}}) {
    const BroadcastIndex at = broadcastIndex(c.ad, c.bd);
    const std::vector<int64_t>& od = at.od;
    const auto n = static_cast<int64_t>(at.a.size());
    const std::vector<int64_t>&ia = at.a, &ib = at.b;
    const Tensor a = iota(c.ad, 0.f, 1.f), b = iota(c.bd, 0.5f, 0.75f);
    const auto av = a.toFloats(), bv = b.toFloats();
    std::vector<int64_t> ai(av.size()), bi(bv.size());
    for (size_t k = 0; k < av.size(); ++k) ai[k] = 3 * static_cast<int64_t>(k) - 7;
    for (size_t k = 0; k < bv.size(); ++k) bi[k] = 5 * static_cast<int64_t>(k) + 2;
    const Tensor a64 = Tensor::int64s(c.ad, ai), b64 = Tensor::int64s(c.bd, bi);
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::PrintToString(c.ad) + " against " + ::testing::PrintToString(c.bd) + ", " +
                   std::to_string(threads) + " thread(s)");
      fw::ExecOptions o;
      o.threads = threads;
      auto sub = fw::runGraph(oneNode("Sub", {{"a", a}, {"b", b}}, 1, {}, 17),
                              runtimeInputs({{"a", a}, {"b", b}}), o);
      auto less = fw::runGraph(oneNode("Less", {{"a", a}, {"b", b}}, 1, {}, 17),
                               runtimeInputs({{"a", a}, {"b", b}}), o);
      auto isub = fw::runGraph(oneNode("Sub", {{"a", a64}, {"b", b64}}, 1, {}, 17),
                               runtimeInputs({{"a", a64}, {"b", b64}}), o);
      ASSERT_TRUE(sub.ok() && less.ok() && isub.ok());
      ASSERT_EQ((*sub)[0].dims(), od);
      ASSERT_EQ((*less)[0].dims(), od);
      ASSERT_EQ((*isub)[0].dims(), od);
      const auto got = (*sub)[0].toFloats();
      const auto gotI = (*isub)[0].toInt64s();
      const auto gotB = (*less)[0].toInt64s();
      for (int64_t k = 0; k < n; ++k) {
        const auto x = static_cast<size_t>(ia[static_cast<size_t>(k)]),
                   y = static_cast<size_t>(ib[static_cast<size_t>(k)]);
        ASSERT_EQ(got[static_cast<size_t>(k)], av[x] - bv[y]) << "element " << k;
        ASSERT_EQ(gotI[static_cast<size_t>(k)], ai[x] - bi[y]) << "element " << k;
        ASSERT_EQ(gotB[static_cast<size_t>(k)], av[x] < bv[y] ? 1 : 0) << "element " << k;
      }
    }
  }
}

TEST(ExecOps, ReductionsOfEveryAxisMatchADoubleLoop) {
  const Tensor x = iota({3, 1000}, -700.f, 0.37f);
  const auto v = x.toFloats();
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"}) {
    auto all = runOne(op, {{"x", x}}, 1, attrs({Attribute::makeInt("keepdims", 0)}), 13);
    ASSERT_TRUE(all.ok()) << all.error().message;
    double sum = 0, mx = -1e30, mn = 1e30;
    for (float f : v) sum += f, mx = std::max<double>(mx, f), mn = std::min<double>(mn, f);
    const double want = std::string(op) == "ReduceSum"    ? sum
                        : std::string(op) == "ReduceMean" ? sum / static_cast<double>(v.size())
                        : std::string(op) == "ReduceMax"  ? mx
                                                          : mn;
    EXPECT_TRUE((*all)[0].dims().empty()) << op;
    EXPECT_NEAR((*all)[0].toFloats().at(0), want, 1e-6 * std::max(1.0, std::fabs(want))) << op;
  }
}

TEST(ExecOps, ExpandRepeatsElementsAlongBroadcastAxesForEveryElementSize) {
  // y[i...] = x[i... with broadcast axes at 0], byte for byte, for 1-, 2-, 4- and 8-byte elements: the last
  // axis broadcast (one element filled along the run), a middle one, and both.
  struct Case {
    std::vector<int64_t> in, out;
  };
  const std::vector<Case> cases = {
      {{2, 3, 1}, {2, 3, 5}}, {{2, 1, 4, 1}, {2, 3, 4, 5}}, {{1, 4}, {3, 4}}, {{3, 1}, {2, 3, 7}}};
  for (auto [dt, es] : std::vector<std::pair<fw::DType, size_t>>{
           {fw::DType::UInt8, 1}, {fw::DType::Int16, 2}, {fw::DType::Float32, 4}, {fw::DType::Int64, 8}})
    for (const Case& cs : cases) {
      int64_t n = 1;
      for (int64_t d : cs.in) n *= d;
      std::vector<uint8_t> bytes(static_cast<size_t>(n) * es);
      for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<uint8_t>(k * 37 + 11);
      const Tensor x(dt, cs.in, bytes);
      auto r = runOne("Expand",
                      {{"x", x}, {"s", Tensor::int64s({static_cast<int64_t>(cs.out.size())}, cs.out), true}});
      ASSERT_TRUE(r.ok()) << r.error().message;
      const Tensor& y = (*r)[0];
      ASSERT_EQ(y.dims(), cs.out);
      const size_t lead = cs.out.size() - cs.in.size();
      int64_t total = 1;
      for (int64_t d : cs.out) total *= d;
      for (int64_t o = 0; o < total; ++o) {
        int64_t rest = o, src = 0, stride = 1;
        for (size_t a = cs.out.size(); a-- > 0;) {
          const int64_t i = rest % cs.out[a];
          rest /= cs.out[a];
          if (a >= lead) {
            const int64_t d = cs.in[a - lead];
            src += (d == 1 ? 0 : i) * stride;
            stride *= d;
          }
        }
        ASSERT_EQ(0, std::memcmp(y.rawData() + static_cast<size_t>(o) * es,
                                 bytes.data() + static_cast<size_t>(src) * es, es))
            << "element size " << es << ", output element " << o;
      }
    }
}

TEST(ExecOps, ConstantOfShapeFillsEveryElementWithTheValueOfItsType) {
  const Tensor shape = Tensor::int64s({3}, {4, 33, 17});
  const size_t n = 4 * 33 * 17;
  auto run = [&](std::optional<Tensor> value) {
    fw::Attributes a;
    if (value) a = attrs({Attribute::makeTensor("value", *value)});
    return runOne("ConstantOfShape", {{"s", shape, true}}, 1, a);
  };
  auto f = run(Tensor::floats({1}, {2.5f}));
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ((*f)[0].dims(), (std::vector<int64_t>{4, 33, 17}));
  EXPECT_EQ((*f)[0].toFloats(), std::vector<float>(n, 2.5f));
  auto i = run(Tensor::int64s({1}, {-7}));
  ASSERT_TRUE(i.ok()) << i.error().message;
  EXPECT_EQ((*i)[0].dtype(), fw::DType::Int64);
  EXPECT_EQ((*i)[0].toInt64s(), std::vector<int64_t>(n, -7));
  auto b = run(Tensor(fw::DType::Bool, {1}, std::vector<uint8_t>{1}));
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ((*b)[0].dtype(), fw::DType::Bool);
  EXPECT_EQ(std::vector<uint8_t>((*b)[0].rawData(), (*b)[0].rawData() + n), std::vector<uint8_t>(n, 1));
  auto z = run(std::nullopt);  // no value: float zeros
  ASSERT_TRUE(z.ok()) << z.error().message;
  EXPECT_EQ((*z)[0].toFloats(), std::vector<float>(n, 0.f));
  auto two = run(Tensor::floats({2}, {1.f, 2.f}));
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.error().message.find("one element"), std::string::npos) << two.error().message;
}
