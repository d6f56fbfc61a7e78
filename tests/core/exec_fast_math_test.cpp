// core/exec/FastMath.h against double-precision results, on both of its builds (AVX2 where the CPU has
// it, SSE2 always), and the ops that use it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/FastMath.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::Tensor;
namespace fm = fw::exec::fastmath;

namespace {

// |got - want| in units in the last place of want as a float (subnormals count as the smallest step).
double ulps(float got, double want) {
  const float w = static_cast<float>(want);
  if (std::isinf(w)) return got == w ? 0.0 : 1e30;
  double step = std::nextafter(std::fabs(w), std::numeric_limits<float>::infinity()) - std::fabs(w);
  if (step == 0 || w == 0) step = std::numeric_limits<float>::denorm_min();
  return std::fabs(static_cast<double>(got) - want) / step;
}

struct Worst {
  double ulp = 0;
  float at = 0;
};

// Every 4099th float bit pattern (NaNs left out) through one array call of `f`, against `ref`.
template <class R>
Worst sweep(void (*f)(const float*, float*, int64_t), R ref) {
  std::vector<float> xs;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4099) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(b));
    if (!std::isnan(x)) xs.push_back(x);
  }
  std::vector<float> ys(xs.size());
  f(xs.data(), ys.data(), static_cast<int64_t>(xs.size()));
  Worst w;
  for (size_t k = 0; k < xs.size(); ++k) {
    const double u = ulps(ys[k], ref(static_cast<double>(xs[k])));
    if (u > w.ulp) w = {u, xs[k]};
  }
  return w;
}

void expectAccurate(int lanes) {
  fm::allowLanes(lanes);
  const auto e = sweep(fm::exp, [](double x) { return std::exp(x); });
  const auto r = sweep(fm::erf, [](double x) { return std::erf(x); });
  const auto t = sweep(fm::tanh, [](double x) { return std::tanh(x); });
  const auto s = sweep(fm::sigmoid, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  const auto sn = sweep(fm::sin, [](double x) { return std::sin(x); });
  const auto cs = sweep(fm::cos, [](double x) { return std::cos(x); });
  const auto sp =
      sweep(fm::softplus, [](double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); });
  fm::allowLanes(16);
  SCOPED_TRACE(std::to_string(lanes) + " lanes");
  EXPECT_LE(e.ulp, 4.0) << "exp at " << e.at;
  EXPECT_LE(r.ulp, 4.0) << "erf at " << r.at;
  EXPECT_LE(t.ulp, 4.0) << "tanh at " << t.at;
  EXPECT_LE(s.ulp, 4.0) << "sigmoid at " << s.at;
  EXPECT_LE(sn.ulp, 1.0) << "sin at " << sn.at;
  EXPECT_LE(cs.ulp, 1.0) << "cos at " << cs.at;
  EXPECT_LE(sp.ulp, 4.0) << "softplus at " << sp.at;
}

}  // namespace

TEST(ExecFastMath, WithinFourUlpOnEveryBuild) {
  for (int lanes : fm::buildLanes()) expectAccurate(lanes);
}

// Every build computes the same operations a lane with no fused multiply-add: results are equal bit for
// bit, whichever build a CPU takes (16 lanes on AVX-512, 8 on AVX2, 4 on any x86-64).
TEST(ExecFastMath, EveryBuildGivesTheSameBits) {
  std::vector<float> xs;
  for (uint32_t b = 0; b < 0xffffffffu - 65537u; b += 65537u) {
    const float x = std::bit_cast<float>(b);
    if (!std::isnan(x)) xs.push_back(x);
  }
  using Fn = void (*)(const float*, float*, int64_t);
  const std::pair<const char*, Fn> fns[] = {{"exp", fm::exp},          {"erf", fm::erf}, {"tanh", fm::tanh},
                                            {"sigmoid", fm::sigmoid},  {"sin", fm::sin}, {"cos", fm::cos},
                                            {"softplus", fm::softplus}};
  for (const auto& [name, f] : fns) {
    std::vector<std::vector<float>> outs;
    for (int lanes : fm::buildLanes()) {
      fm::allowLanes(lanes);
      outs.emplace_back(xs.size());
      f(xs.data(), outs.back().data(), static_cast<int64_t>(xs.size()));
    }
    fm::allowLanes(16);
    for (size_t b = 1; b < outs.size(); ++b)
      for (size_t k = 0; k < xs.size(); ++k)
        ASSERT_EQ(std::bit_cast<uint32_t>(outs[b][k]), std::bit_cast<uint32_t>(outs[0][k]))
            << name << " at " << xs[k] << ": build " << b << " of " << outs.size();
  }
}

TEST(ExecFastMath, SpecialValuesAndTails) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (int lanes : fm::buildLanes()) {
    fm::allowLanes(lanes);
    EXPECT_EQ(fm::exp(inf), inf);
    EXPECT_EQ(fm::exp(-inf), 0.f);
    EXPECT_EQ(fm::exp(0.f), 1.f);
    EXPECT_EQ(fm::exp(89.f), inf);
    EXPECT_GT(fm::exp(-100.f), 0.f);  // subnormal results are kept
    // An attention mask's scores (-1e9, the lowest float) and the edge of the range: 0, a lane at a time
    // beside ordinary lanes.
    const float lowest = std::numeric_limits<float>::lowest();
    std::vector<float> masked = {-1e9f, 0.5f, lowest, -103.95f, -103.8f, -1.f, -1e9f, 2.f, -104.f};
    fm::exp(masked.data(), masked.data(), static_cast<int64_t>(masked.size()));
    EXPECT_EQ(masked[0], 0.f);
    EXPECT_EQ(masked[2], 0.f);
    EXPECT_EQ(masked[3], 0.f);
    EXPECT_GT(masked[4], 0.f);
    EXPECT_EQ(masked[6], 0.f);
    EXPECT_EQ(masked[8], 0.f);
    EXPECT_LE(ulps(masked[1], std::exp(0.5)), 4.0);
    EXPECT_LE(ulps(masked[5], std::exp(-1.0)), 4.0);
    EXPECT_LE(ulps(masked[7], std::exp(2.0)), 4.0);
    EXPECT_EQ(fm::erf(inf), 1.f);
    EXPECT_EQ(fm::erf(-inf), -1.f);
    EXPECT_TRUE(std::signbit(fm::erf(-0.f)));
    EXPECT_EQ(fm::tanh(-inf), -1.f);
    EXPECT_EQ(fm::sigmoid(-inf), 0.f);
    EXPECT_EQ(fm::sigmoid(inf), 1.f);
    EXPECT_EQ(fm::sigmoid(0.f), 0.5f);
    EXPECT_EQ(fm::softplus(inf), inf);
    EXPECT_EQ(fm::softplus(-inf), 0.f);
    EXPECT_EQ(fm::softplus(1e30f), 1e30f);
    EXPECT_GT(fm::softplus(-100.f), 0.f);  // e^-100, subnormal, kept
    EXPECT_TRUE(std::isnan(fm::softplus(nan)));
    EXPECT_TRUE(std::isnan(fm::exp(nan)) && std::isnan(fm::erf(nan)) && std::isnan(fm::tanh(nan)) &&
                std::isnan(fm::sigmoid(nan)));
    EXPECT_TRUE(std::signbit(fm::sin(-0.f)) && fm::sin(-0.f) == 0.f);
    EXPECT_EQ(fm::cos(0.f), 1.f);
    EXPECT_TRUE(std::isnan(fm::sin(inf)) && std::isnan(fm::cos(-inf)) && std::isnan(fm::sin(nan)));
    // Arguments of a positional encoding (up to 2^9·π·|x|), about 10^6 where the library takes over, and
    // the floats nearest multiples of π/2, where the reduction decides the result: every lane, within 1 ulp.
    std::vector<float> args = {1608.5f, -1608.49f, 3.14159265f, 1.57079633f, 4.71238898f, 6.28318531f,
                               355.f,   103993.f,  999999.f,    1000001.f,   -2e6f,       1e20f};
    for (int k = 1; k < 4000; k += 7) args.push_back(static_cast<float>(k * 1.5707963267948966));
    std::vector<float> ys(args.size()), yc(args.size());
    fm::sin(args.data(), ys.data(), static_cast<int64_t>(args.size()));
    fm::cos(args.data(), yc.data(), static_cast<int64_t>(args.size()));
    for (size_t k = 0; k < args.size(); ++k) {
      EXPECT_LE(ulps(ys[k], std::sin(static_cast<double>(args[k]))), 1.0) << "sin " << args[k];
      EXPECT_LE(ulps(yc[k], std::cos(static_cast<double>(args[k]))), 1.0) << "cos " << args[k];
    }
    // Lengths that are not a multiple of the lanes: the tail is computed and nothing past n is written.
    std::vector<float> x = {0.5f, -1.f, 2.f, 3.f, -4.f, 0.25f, 1.5f, -0.1f, 7.f, 42.f, 42.f};
    std::vector<float> y(x.size(), 42.f);
    fm::erf(x.data(), y.data(), 9);
    for (size_t k = 0; k < 9; ++k) EXPECT_NEAR(y[k], std::erf(x[k]), 1e-6f) << k;
    EXPECT_EQ(y[9], 42.f);
    EXPECT_EQ(y[10], 42.f);
  }
  fm::allowLanes(16);
}

TEST(ExecFastMath, EveryLengthInPlaceAndNotEqualsTheElementByElementResult) {
  // Lengths past a whole number of vectors end with an overlapping last vector computed from the input
  // first: in place (a softmax row) the overlap must not be computed twice. Each element is checked
  // against the function of that element alone (a call of length 1, through the part-vector path).
  for (int lanes : fm::buildLanes()) {
    fm::allowLanes(lanes);
    for (int64_t n = 1; n <= 41; ++n) {
      std::vector<float> x(static_cast<size_t>(n) + 1, 42.f);
      for (int64_t k = 0; k < n; ++k) x[static_cast<size_t>(k)] = static_cast<float>(k % 11) * 0.37f - 1.9f;
      std::vector<float> out(x.size(), 42.f), inPlace = x;
      fm::exp(x.data(), out.data(), n);
      fm::exp(inPlace.data(), inPlace.data(), n);
      for (int64_t k = 0; k < n; ++k) {
        const float want = fm::exp(x[static_cast<size_t>(k)]);
        EXPECT_EQ(out[static_cast<size_t>(k)], want) << lanes << " lanes n=" << n << " k=" << k;
        EXPECT_EQ(inPlace[static_cast<size_t>(k)], want) << lanes << " lanes in place n=" << n << " k=" << k;
      }
      EXPECT_EQ(out[static_cast<size_t>(n)], 42.f) << "written past n=" << n;
      EXPECT_EQ(inPlace[static_cast<size_t>(n)], 42.f) << "written past n=" << n;
    }
  }
  fm::allowLanes(16);
}

TEST(ExecFastMath, ActivationOpsMatchTheLibraryFunctions) {
  const Tensor x = noise({3, 37}, 7);
  const std::vector<float> v = x.toFloats();
  struct Case {
    const char* op;
    double (*ref)(double);
  } cases[] = {{"Erf", [](double a) { return std::erf(3 * a); }},
               {"Tanh", [](double a) { return std::tanh(3 * a); }},
               {"Exp", [](double a) { return std::exp(3 * a); }},
               {"Sigmoid", [](double a) { return 1 / (1 + std::exp(-3 * a)); }},
               {"Sin", [](double a) { return std::sin(3 * a); }},
               {"Cos", [](double a) { return std::cos(3 * a); }},
               {"Softplus", [](double a) { return std::log1p(std::exp(3 * a)); }}};
  std::vector<float> scaled(v.size());
  for (size_t k = 0; k < v.size(); ++k) scaled[k] = 3 * v[k];
  for (const auto& c : cases) {
    auto out = runOne(c.op, {{"x", Tensor::floats({3, 37}, scaled)}});
    ASSERT_TRUE(out.ok()) << c.op << ": " << out.error().message;
    std::vector<float> want(v.size());
    for (size_t k = 0; k < v.size(); ++k) want[k] = static_cast<float>(c.ref(v[k]));
    expectNear((*out)[0], {3, 37}, want, 1e-6f);
  }
}

namespace {

// Every 4099th float bit pattern, NaNs and signed zeros and halfway cases included, through `f` against
// `ref` bit for bit (a NaN against a NaN).
void expectExact(void (*f)(const float*, float*, int64_t), float (*ref)(float), const std::string& what) {
  std::vector<float> xs = {0.0f,
                           -0.0f,
                           0.5f,
                           -0.5f,
                           1.5f,
                           2.5f,
                           -2.5f,
                           3.5f,
                           -3.5f,
                           1e30f,
                           -1e30f,
                           8388607.5f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::denorm_min()};
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4099)
    xs.push_back(std::bit_cast<float>(static_cast<uint32_t>(b)));
  std::vector<float> ys(xs.size());
  f(xs.data(), ys.data(), static_cast<int64_t>(xs.size()));
  size_t wrong = 0;
  for (size_t k = 0; k < xs.size(); ++k) {
    const float want = ref(xs[k]);
    const bool same = std::isnan(want) ? std::isnan(ys[k])
                                       : std::bit_cast<uint32_t>(ys[k]) == std::bit_cast<uint32_t>(want);
    if (!same && wrong++ < 5) ADD_FAILURE() << what << "(" << xs[k] << ") = " << ys[k] << ", want " << want;
  }
  EXPECT_EQ(wrong, 0u) << what;
}

}  // namespace

// Floor, Ceil and Round are exact: both builds give the library's results bit for bit, and so do the ops.
TEST(FastMath, RoundingIsTheLibrarysBitForBitOnBothBuilds) {
  for (int lanes : fm::buildLanes()) {
    fm::allowLanes(lanes);
    expectExact(
        fm::floor, [](float v) { return std::floor(v); }, "floor, " + std::to_string(lanes) + " lanes");
    expectExact(
        fm::ceil, [](float v) { return std::ceil(v); }, "ceil, " + std::to_string(lanes) + " lanes");
    expectExact(
        fm::nearbyint, [](float v) { return std::nearbyint(v); },
        "nearbyint, " + std::to_string(lanes) + " lanes");
  }
  fm::allowLanes(16);
  auto r = runOne("Round", {{"x", Tensor::floats({6}, {0.5f, 1.5f, 2.5f, -2.5f, -0.4f, 7.7f})}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {6}, {0.f, 2.f, 2.f, -2.f, -0.f, 8.f}, 0.f);
  auto f = runOne("Floor", {{"x", Tensor::floats({3}, {-1.5f, 1.5f, 2.0f})}});
  ASSERT_TRUE(f.ok()) << f.error().message;
  expectNear((*f)[0], {3}, {-2.f, 1.f, 2.f}, 0.f);
  auto c = runOne("Ceil", {{"x", Tensor::floats({3}, {-1.5f, 1.5f, 2.0f})}});
  ASSERT_TRUE(c.ok()) << c.error().message;
  expectNear((*c)[0], {3}, {-1.f, 2.f, 2.f}, 0.f);
}
