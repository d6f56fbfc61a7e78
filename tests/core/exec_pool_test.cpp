// core/exec/ops_pool.cpp: MaxPool (without indices) and AveragePool run as one 1-D pass per spatial dim.
// Each case here is checked against a direct loop over the whole box window, in double, for 1-, 2- and
// 3-D pools with strides, padding, dilations, ceil_mode and count_include_pad, on one and two threads,
// and for an int64 MaxPool beyond float's exact integers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/core/exec_test_util.h"

namespace {

using fw::Attribute;
using fwtest::attrs;
using fwtest::noise;

struct PoolCase {
  std::vector<int64_t> dims, kernel, strides, pads, dilations;
  bool ceil = false, countPad = false;
};

std::vector<int64_t> outDims(const PoolCase& c) {
  const size_t r = c.kernel.size();
  std::vector<int64_t> out{c.dims[0], c.dims[1]};
  for (size_t d = 0; d < r; ++d) {
    const int64_t in = c.dims[2 + d], pb = c.pads[d], pe = c.pads[r + d];
    const int64_t span = (c.kernel[d] - 1) * c.dilations[d] + 1, room = in + pb + pe - span;
    int64_t o = (c.ceil ? (room + c.strides[d] - 1) / c.strides[d] : room / c.strides[d]) + 1;
    if (c.ceil && (o - 1) * c.strides[d] >= in + pb) --o;  // the last window must start inside
    out.push_back(o);
  }
  return out;
}

// The pool over the whole box window of every output, index by index.
std::vector<double> boxPool(const std::vector<double>& x, const PoolCase& c, bool isMax) {
  const size_t r = c.kernel.size();
  const auto od = outDims(c);
  int64_t planes = c.dims[0] * c.dims[1], ip = 1, op = 1, kp = 1;
  for (size_t d = 0; d < r; ++d) ip *= c.dims[2 + d], op *= od[2 + d], kp *= c.kernel[d];
  std::vector<double> y(static_cast<size_t>(planes * op));
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t o = 0; o < op; ++o) {
      std::vector<int64_t> oi(r);
      for (int64_t rest = o, d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
        oi[static_cast<size_t>(d)] = rest % od[2 + static_cast<size_t>(d)];
        rest /= od[2 + static_cast<size_t>(d)];
      }
      double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
      int64_t inside = 0, padded = 0;
      for (int64_t k = 0; k < kp; ++k) {
        int64_t off = 0, rest = k;
        bool in = true, inPad = true;
        std::vector<int64_t> ki(r);
        for (int64_t d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
          ki[static_cast<size_t>(d)] = rest % c.kernel[static_cast<size_t>(d)];
          rest /= c.kernel[static_cast<size_t>(d)];
        }
        for (size_t d = 0; d < r; ++d) {
          const int64_t i = oi[d] * c.strides[d] - c.pads[d] + ki[d] * c.dilations[d];
          if (i < -c.pads[d] || i >= c.dims[2 + d] + c.pads[r + d]) inPad = false;
          if (i < 0 || i >= c.dims[2 + d]) in = false;
          off = off * c.dims[2 + d] + std::clamp<int64_t>(i, 0, c.dims[2 + d] - 1);
        }
        padded += inPad;
        if (!in) continue;
        ++inside;
        const double v = x[static_cast<size_t>(p * ip + off)];
        acc = isMax ? std::max(acc, v) : acc + v;
      }
      const int64_t div = c.countPad ? padded : inside;
      y[static_cast<size_t>(p * op + o)] = isMax ? acc : acc / static_cast<double>(div);
    }
  return y;
}

fw::Attributes poolAttrs(const PoolCase& c, bool isMax) {
  auto a = attrs({Attribute::makeInts("kernel_shape", c.kernel), Attribute::makeInts("strides", c.strides),
                  Attribute::makeInts("pads", c.pads), Attribute::makeInt("ceil_mode", c.ceil ? 1 : 0)});
  if (isMax)
    a.set(Attribute::makeInts("dilations", c.dilations));
  else
    a.set(Attribute::makeInt("count_include_pad", c.countPad ? 1 : 0));
  return a;
}

const std::vector<PoolCase>& cases() {
  static const std::vector<PoolCase> v = {
      {{2, 3, 17}, {3}, {2}, {1, 1}, {1}},
      {{1, 2, 12}, {4}, {3}, {2, 0}, {2}, true},
      {{1, 4, 9, 11}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}},
      {{2, 3, 8, 7}, {2, 3}, {1, 2}, {0, 1, 1, 0}, {2, 1}, true, true},
      {{1, 2, 10, 10}, {3, 1}, {1, 1}, {1, 0, 1, 0}, {1, 1}, false, true},
      {{1, 3, 5, 9, 9}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1}},
      {{1, 2, 4, 12, 12}, {1, 3, 3}, {1, 2, 2}, {0, 1, 1, 0, 1, 1}, {1, 1, 1}},
      {{2, 2, 5, 6, 7}, {2, 2, 3}, {2, 2, 2}, {0, 1, 1, 1, 0, 1}, {1, 2, 1}, true, true},
      {{1, 1, 6, 6}, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}},  // every dim one tap: the plane as it is
      // The last dim's windows wholly inside the input run tap by tap over all of them: long rows with a
      // remainder, stride 1 with dilation, stride 3, a kernel wider than the padded row's inside (none
      // wholly inside), and padding on one side only.
      {{1, 2, 3, 37}, {1, 5}, {1, 1}, {0, 2, 0, 2}, {1, 2}},
      {{1, 2, 4, 40}, {2, 4}, {1, 3}, {0, 0, 1, 2}, {1, 1}, true},
      {{1, 1, 2, 5}, {1, 7}, {1, 1}, {0, 3, 0, 3}, {1, 1}},
      {{2, 1, 3, 29}, {3, 3}, {1, 1}, {1, 0, 1, 2}, {1, 1}, false, true},
      // A 2x2 window at stride 2 without padding (MaxPool's own loop, ops_pool.cpp): odd height and width
      // (the last row and column left out), rows of outputs with a remainder after 4 at a time, and even.
      {{2, 3, 9, 21}, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}},
      {{1, 2, 8, 16}, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}},
      // "Same" windows at stride 1 (as many outputs as inputs): the inside outputs of every row run as one
      // flat loop over the plane and the borders after (GoogLeNet's branch pools over 7x7 planes), with
      // dilation, with more padding at the end than the start, and a first dim with no window wholly inside.
      {{2, 3, 7, 7}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},
      {{1, 2, 9, 6}, {3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}},
      {{1, 2, 6, 5}, {4, 4}, {1, 1}, {1, 1, 2, 2}, {1, 1}, false, true},
      {{1, 2, 3, 6}, {5, 3}, {1, 1}, {2, 1, 2, 1}, {1, 1}},
      {{1, 2, 4, 5, 6}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1}, false, true},
  };
  return v;
}

std::string label(const PoolCase& c, const char* op, int threads) {
  std::string s = std::string(op) + " in [";
  for (auto d : c.dims) s += std::to_string(d) + " ";
  s += "] kernel [";
  for (auto k : c.kernel) s += std::to_string(k) + " ";
  return s + "] ceil " + std::to_string(c.ceil) + " countPad " + std::to_string(c.countPad) + " threads " +
         std::to_string(threads);
}

}  // namespace

TEST(ExecPool, SeparablePassesEqualTheBoxWindow) {
  uint64_t seed = 1;
  for (const auto& mc : cases())
    for (const char* op : {"MaxPool", "AveragePool"}) {
      const bool isMax = std::string(op) == "MaxPool";
      PoolCase c = mc;
      if (!isMax)
        std::fill(c.dilations.begin(), c.dilations.end(), 1);  // AveragePool has dilations from opset 19
      const fw::Tensor x = noise(c.dims, seed++);
      const auto xf = x.toFloats();
      const std::vector<double> xd(xf.begin(), xf.end());
      const auto want = boxPool(xd, c, isMax);
      for (int threads : {1, 2}) {
        fw::ExecOptions o;
        o.threads = threads;
        auto r = fw::runGraph(fwtest::oneNode(op, {{"x", x}}, 1, poolAttrs(c, isMax)), {x}, o);
        ASSERT_TRUE(r.ok()) << label(c, op, threads) << ": " << r.error().message;
        ASSERT_EQ((*r)[0].dims(), outDims(c)) << label(c, op, threads);
        const auto got = (*r)[0].toFloats();
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i)
          ASSERT_NEAR(got[i], want[i], 1e-6 * std::max(1.0, std::fabs(want[i])))
              << label(c, op, threads) << " at " << i;
      }
    }
}

// The 2x2 stride-2 MaxPool's own loop against the separable passes it stands for (the same pool over
// [N, C, 1, H, W] with a 1-tap first dim), bit for bit, NaNs in either tap of either row included: each row
// below against the row above, then the right column against the left, as the passes take them.
TEST(ExecPool, TwoByTwoMaxPoolEqualsTheSeparablePassesNaNsIncluded) {
  const int64_t n = 2, ch = 3, h = 7, w = 19;
  fw::Tensor x = noise({n, ch, h, w}, 7);
  std::vector<float> v = x.toFloats();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (size_t i = 0; i < v.size(); i += 5) v[i] = nan;  // every 5th: each tap position of some window
  for (size_t i = 3; i < v.size(); i += 11) v[i] = -std::numeric_limits<float>::infinity();
  const fw::Tensor x2 = fw::Tensor::floats({n, ch, h, w}, v), x3 = fw::Tensor::floats({n, ch, 1, h, w}, v);
  const PoolCase c2{{n, ch, h, w}, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}};
  const PoolCase c3{{n, ch, 1, h, w}, {1, 2, 2}, {1, 2, 2}, {0, 0, 0, 0, 0, 0}, {1, 1, 1}};
  auto r2 = fw::runGraph(fwtest::oneNode("MaxPool", {{"x", x2}}, 1, poolAttrs(c2, true)), {x2});
  auto r3 = fw::runGraph(fwtest::oneNode("MaxPool", {{"x", x3}}, 1, poolAttrs(c3, true)), {x3});
  ASSERT_TRUE(r2.ok() && r3.ok());
  const auto a = (*r2)[0].toFloats(), b = (*r3)[0].toFloats();
  ASSERT_EQ(a.size(), static_cast<size_t>(n * ch * (h / 2) * (w / 2)));
  ASSERT_EQ(a.size(), b.size());
  size_t nans = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    nans += std::isnan(b[i]);
    EXPECT_EQ(std::isnan(a[i]), std::isnan(b[i])) << "at " << i;
    if (!std::isnan(b[i])) EXPECT_EQ(a[i], b[i]) << "at " << i;
  }
  EXPECT_GT(nans, 0u);  // some NaNs kept (a first tap's) and some passed over
  EXPECT_LT(nans, a.size());
}

TEST(ExecPool, Int64MaxPoolKeepsLargeIntegersExact) {
  // Values 2^53 + k: a double or float intermediate would merge neighbours.
  const int64_t base = int64_t{1} << 53;
  std::vector<int64_t> v(2 * 4 * 5 * 6);
  for (size_t i = 0; i < v.size(); ++i) v[i] = base + static_cast<int64_t>((i * 37) % 101);
  const fw::Tensor x = fw::Tensor::int64s({2, 4, 5, 6}, v);
  const PoolCase c{{2, 4, 5, 6}, {2, 3}, {1, 2}, {1, 1, 0, 1}, {1, 1}};
  auto r = fw::runGraph(fwtest::oneNode("MaxPool", {{"x", x}}, 1, poolAttrs(c, true)), {x});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ((*r)[0].dims(), outDims(c));
  const auto got = (*r)[0].toInt64s();
  const auto od = outDims(c);
  for (int64_t p = 0; p < 8; ++p)
    for (int64_t oh = 0; oh < od[2]; ++oh)
      for (int64_t ow = 0; ow < od[3]; ++ow) {
        int64_t best = std::numeric_limits<int64_t>::min();
        for (int64_t kh = 0; kh < 2; ++kh)
          for (int64_t kw = 0; kw < 3; ++kw) {
            const int64_t ih = oh - 1 + kh, iw = ow * 2 - 1 + kw;
            if (ih < 0 || ih >= 5 || iw < 0 || iw >= 6) continue;
            best = std::max(best, v[static_cast<size_t>((p * 5 + ih) * 6 + iw)]);
          }
        EXPECT_EQ(got[static_cast<size_t>((p * od[2] + oh) * od[3] + ow)], best)
            << p << " " << oh << " " << ow;
      }
}
