// The executor's Conv on oneDNN: the layout a depthwise Conv runs in, and the staging buffers a Conv's
// activations take in the library's layout (core/exec/ConvPrimitive.cpp, core/exec/OneDnn.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/exec/ConvPrimitive.h"
#include "core/exec/DirectConv.h"
#include "core/exec/FastMath.h"
#include "core/exec/OneDnn.h"
#include "core/exec/Transpose.h"

namespace {

using fw::exec::ConvGeometry;
using fw::exec::ConvProblem;

// A 3x3 Conv, pads 1, stride 1, over N x C x hw x hw into M channels in `group` groups.
ConvProblem conv3x3(int64_t n, int64_t c, int64_t m, int64_t hw, int64_t group) {
  ConvProblem p;
  p.N = n, p.C = c, p.M = m, p.group = group;
  p.geo.in = {hw, hw};
  p.geo.out = {hw, hw};
  p.geo.kernel = {3, 3};
  p.geo.strides = {1, 1};
  p.geo.dilations = {1, 1};
  p.geo.padsBegin = {1, 1};
  p.geo.padsEnd = {1, 1};
  return p;
}

// A Conv over N x C x in... into M channels in `group` groups, a kernel of k along every axis, stride 1,
// dilation 1, `pad` each side.
ConvProblem stride1(int64_t n, int64_t c, int64_t m, int64_t group, std::vector<int64_t> in, int64_t k,
                    int64_t pad) {
  ConvProblem p;
  p.N = n, p.C = c, p.M = m, p.group = group;
  p.geo.in = in;
  for (int64_t len : in) {
    p.geo.out.push_back(len + 2 * pad - k + 1);
    p.geo.kernel.push_back(k);
    p.geo.strides.push_back(1);
    p.geo.dilations.push_back(1);
    p.geo.padsBegin.push_back(pad);
    p.geo.padsEnd.push_back(pad);
  }
  return p;
}

// A ConvTranspose over N x C x in... into M channels, kernel k, stride s, pads p each side, and
// `extra` output positions past the last window at the end of each axis (output_padding).
ConvProblem deconv(int64_t n, int64_t c, int64_t m, std::vector<int64_t> in, int64_t k, int64_t s, int64_t p,
                   int64_t extra = 0) {
  ConvProblem q;
  q.transposed = true;
  q.N = n, q.C = c, q.M = m;
  q.geo.in = in;
  for (int64_t len : in) {
    q.geo.out.push_back((len - 1) * s - 2 * p + k + extra);
    q.geo.kernel.push_back(k);
    q.geo.strides.push_back(s);
    q.geo.dilations.push_back(1);
    q.geo.padsBegin.push_back(p);
    q.geo.padsEnd.push_back(p);
  }
  return q;
}

std::vector<float> uniform(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

// The largest difference between `run` (fw::exec::convolution unless given) of `q` (2-D or 1-D, the last
// axis's stride along both, dilation 1; a bias, and a fused ReLU when `relu`) on uniform data and a direct
// float64 loop over the same data.
double worstAgainstDirectLoop(const ConvProblem& q, bool relu,
                              decltype(&fw::exec::convolution) run = &fw::exec::convolution) {
  const bool twoD = q.geo.in.size() == 2;
  const int64_t ih = twoD ? q.geo.in[0] : 1, iw = q.geo.in.back(), oh = twoD ? q.geo.out[0] : 1,
                ow = q.geo.out.back(), k = q.geo.kernel.back(), kh = twoD ? k : 1, p = q.geo.padsBegin.back();
  const int64_t cg = q.C / q.group, mg = q.M / q.group;
  const std::vector<float> x = uniform(static_cast<size_t>(q.N * q.C * ih * iw), 4),
                           w = uniform(static_cast<size_t>(q.M * cg * kh * k), 5),
                           b = uniform(static_cast<size_t>(q.M), 6);
  std::vector<float> y(static_cast<size_t>(q.N * q.M * oh * ow));
  const auto owner = std::make_shared<int>(0);
  run(q, x.data(), w.data(), owner, b.data(), y.data(), relu);
  double worst = 0;
  for (int64_t n = 0; n < q.N; ++n)
    for (int64_t m = 0; m < q.M; ++m)
      for (int64_t yo = 0; yo < oh; ++yo)
        for (int64_t xo = 0; xo < ow; ++xo) {
          double acc = b[static_cast<size_t>(m)];
          for (int64_t c = 0; c < cg; ++c)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t e = 0; e < k; ++e) {
                const int64_t st = q.geo.strides.back();
                const int64_t ty = twoD ? yo * st + a - p : 0, tx = xo * st + e - p;
                if (ty < 0 || tx < 0 || ty >= ih || tx >= iw) continue;
                const int64_t ch = (m / mg) * cg + c;
                acc += static_cast<double>(x[static_cast<size_t>(((n * q.C + ch) * ih + ty) * iw + tx)]) *
                       w[static_cast<size_t>(((m * cg + c) * kh + a) * k + e)];
              }
          if (relu) acc = std::max(acc, 0.0);
          worst =
              std::max(worst, std::abs(acc - y[static_cast<size_t>(((n * q.M + m) * oh + yo) * ow + xo)]));
        }
  return worst;
}

// The executor's ConvTranspose of `q` (bias added) against a direct float64 loop over 1-D or 2-D
// problems; returns the largest absolute difference.
double deconvError(const ConvProblem& q) {
  const bool twoD = q.geo.in.size() == 2;
  const int64_t ih = twoD ? q.geo.in[0] : 1, iw = q.geo.in.back(), oh = twoD ? q.geo.out[0] : 1,
                ow = q.geo.out.back(), kh = twoD ? q.geo.kernel[0] : 1, kw = q.geo.kernel.back();
  const int64_t s = q.geo.strides.back(), p = q.geo.padsBegin.back();
  const std::vector<float> x = uniform(static_cast<size_t>(q.N * q.C * ih * iw), 1),
                           w = uniform(static_cast<size_t>(q.C * q.M * kh * kw), 2),
                           b = uniform(static_cast<size_t>(q.M), 3);
  std::vector<float> y(static_cast<size_t>(q.N * q.M * oh * ow));
  const auto owner = std::make_shared<int>(0);
  fw::exec::convolution(q, x.data(), w.data(), owner, b.data(), y.data());
  double worst = 0;
  for (int64_t n = 0; n < q.N; ++n)
    for (int64_t m = 0; m < q.M; ++m)
      for (int64_t yo = 0; yo < oh; ++yo)
        for (int64_t xo = 0; xo < ow; ++xo) {
          double acc = b[m];
          for (int64_t c = 0; c < q.C; ++c)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t e = 0; e < kw; ++e) {
                const int64_t ty = twoD ? yo + p - a : 0, tx = xo + p - e;
                if (ty < 0 || tx < 0 || ty % s != 0 || tx % s != 0 || ty / s >= ih || tx / s >= iw) continue;
                acc += static_cast<double>(x[((n * q.C + c) * ih + ty / s) * iw + tx / s]) *
                       w[((c * q.M + m) * kh + a) * kw + e];
              }
          worst = std::max(worst, std::abs(acc - y[((n * q.M + m) * oh + yo) * ow + xo]));
        }
  return worst;
}

}  // namespace

// A ConvTranspose of a few output channels runs on the plain layout (oneDNN's GEMM path), as the
// blocked jit kernel computes a 16-channel block for each; one the jit kernel refuses (a 1-D one of 16
// channels over 512 positions) runs channels-last rather than on NCW; one the jit kernel takes keeps it.
// Results equal a direct loop on each, with a bias, a batch, and output positions past the last window.
TEST(ExecConvLayout, ConvTransposeRunsOnItsFastestLayoutAndMatchesADirectLoop) {
  const ConvProblem few2d = deconv(2, 8, 3, {12, 12}, 4, 2, 1), few1d = deconv(1, 16, 1, {200}, 16, 2, 7, 1),
                    refused = deconv(1, 32, 16, {512}, 4, 2, 1), wide = deconv(2, 32, 32, {8, 8}, 4, 2, 1, 1);
  EXPECT_EQ(fw::exec::convolutionSourceLayout(few2d), "plain");
  EXPECT_EQ(fw::exec::convolutionSourceLayout(few1d), "plain");
  EXPECT_EQ(fw::exec::convolutionSourceLayout(refused), "channels-last");
  for (const ConvProblem& q : {few2d, few1d, refused, wide})
    EXPECT_LT(deconvError(q), 1e-4) << fw::exec::convolutionSourceLayout(q);
}

// oneDNN 2.6 on AVX-512 would run a depthwise Conv channels-last and the executor would transpose its
// NCHW activations to and from it on every call; it runs on channel blocks instead, on every ISA (under
// ONEDNN_MAX_CPU_ISA=AVX2 or SSE41 the library itself picks 8-channel blocks). Channels that are a
// multiple of 8 but not of 16 take 8-channel blocks everywhere.
TEST(ExecConvLayout, DepthwiseConvRunsOnChannelBlocksNotChannelsLast) {
  for (int64_t c : {32, 128, 24, 72}) {
    const std::string layout = fw::exec::convolutionSourceLayout(conv3x3(2, c, c, 16, c));
    EXPECT_TRUE(layout == "blocked16" || layout == "blocked8") << c << " channels: " << layout;
    if (c % 16 != 0) {
      EXPECT_EQ(layout, "blocked8") << c << " channels";
    }
  }
  // A dense Conv keeps the library's choice: on AVX-512 channels-last brgconv ran from 19 % faster to 13 %
  // slower than 16-channel blocks over eight dense shapes, reorders included, and a first Conv on 3
  // channels has no blocked kernel but the reference one.
  EXPECT_NE(fw::exec::convolutionSourceLayout(conv3x3(1, 64, 64, 16, 1)), "other");
}

// Activations move between the executor's channels-first layout and channels-last by its own tiles
// (Transpose.h), element for element: odd sizes (edges of the 8 x 8 blocks and the 32 x 32 tiles), a plane of
// 4 KiB, one channel, one position.
TEST(ExecConvLayout, ChannelsLastAndBackMoveEveryElementToItsPlace) {
  struct Shape {
    int64_t n, c, s;
  };
  for (const Shape& sh :
       {Shape{2, 13, 37}, Shape{1, 72, 1024}, Shape{3, 1, 9}, Shape{2, 40, 1}, Shape{1, 33, 65}}) {
    const std::vector<float> x = uniform(static_cast<size_t>(sh.n * sh.c * sh.s), 7);
    std::vector<float> last(x.size(), -9.f), back(x.size(), -9.f);
    fw::exec::toChannelsLast(x.data(), sh.n, sh.c, sh.s, last.data());
    for (int64_t n = 0; n < sh.n; ++n)
      for (int64_t c = 0; c < sh.c; ++c)
        for (int64_t i = 0; i < sh.s; ++i)
          ASSERT_EQ(last[static_cast<size_t>((n * sh.s + i) * sh.c + c)],
                    x[static_cast<size_t>((n * sh.c + c) * sh.s + i)])
              << sh.n << "x" << sh.c << "x" << sh.s << " at " << n << "," << c << "," << i;
    fw::exec::toChannelsFirst(last.data(), sh.n, sh.c, sh.s, back.data());
    EXPECT_EQ(back, x) << sh.n << "x" << sh.c << "x" << sh.s;
  }
}

// A wide grouped Conv (24 input channels a group), which oneDNN 2.6 on AVX-512 runs channels-last, over
// planes of 4 KiB and 1 KiB, stride 1 and 2, its activations moved by the executor's tiles: equal to a direct
// loop.
TEST(ExecConvLayout, AWideGroupedConvOverAlignedPlanesMatchesADirectLoop) {
  ConvProblem strided = conv3x3(2, 72, 72, 32, 3);
  strided.geo.strides = {2, 2};
  strided.geo.out = {16, 16};
  for (const ConvProblem& q : {conv3x3(2, 72, 72, 32, 3), conv3x3(1, 48, 96, 16, 2), strided})
    for (const bool relu : {false, true})
      EXPECT_LT(worstAgainstDirectLoop(q, relu), 1e-4)
          << q.C << " -> " << q.M << " at " << q.geo.in[0] << ", stride " << q.geo.strides[0] << ", "
          << fw::exec::convolutionSourceLayout(q);
}

// oneDNN 2.6's grouped jit kernel under AVX-512 on blocks of 8 or 4 channels (8 or 4 channels a group)
// applies a ReLU post-op over partial vectors, 1.1-1.6x the kernel's time without it: the executor applies
// the ReLU in a pass of its own there, and keeps the post-op on 16-channel blocks (free there) and under
// AVX2, where 8 channels fill a vector. Either way the output equals a direct float64 loop.
TEST(ExecConvLayout, AGroupedConvTakesItsReluAsAPassOfItsOwnOnlyOnBlocksNarrowerThanAVector) {
  const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
  const bool avx512 = isa == dnnl::cpu_isa::avx512_core || isa == dnnl::cpu_isa::avx512_core_vnni ||
                      isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
  const ConvProblem eight = conv3x3(4, 208, 208, 8, 26), sixteen = conv3x3(2, 256, 256, 8, 16);
  ConvProblem strided = conv3x3(4, 440, 440, 4, 55);
  strided.geo.strides = {2, 2};
  strided.geo.out = {2, 2};
  for (const ConvProblem& q : {eight, strided}) {
    const std::string layout = fw::exec::convolutionSourceLayout(q);
    EXPECT_EQ(layout, "blocked8") << q.C << " channels in " << q.group << " groups";
    EXPECT_EQ(fw::exec::convolutionReluOwnPass(q), avx512 && layout == "blocked8")
        << q.C << " channels in " << q.group << " groups, " << layout;
  }
  EXPECT_FALSE(fw::exec::convolutionReluOwnPass(sixteen)) << fw::exec::convolutionSourceLayout(sixteen);
  for (const ConvProblem& q : {eight, strided, sixteen})
    for (const bool relu : {false, true})
      EXPECT_LT(worstAgainstDirectLoop(q, relu), 1e-4)
          << q.C << " channels in " << q.group << " groups" << (relu ? ", ReLU" : "");
}

// A Conv of a few input channels a group runs on whichever of the library's layout and the plain one (the
// library's GEMM path) it times faster, once a shape (core/exec/ConvPrimitive.cpp): on AVX-512 a SincNet-like
// filter bank (1 -> 40 channels, 129 taps, 2 x 2000 samples) takes the plain layout (0.52 against 1.8 ms),
// and a 3-channel first layer or 2 channels a group may take either. Whichever it took, with a bias and
// with a fused ReLU, the output equals a direct float64 loop.
TEST(ExecConvLayout, AConvOfFewInputChannelsMatchesADirectLoopOnTheLayoutItTimedFaster) {
  const ConvProblem sinc = stride1(2, 1, 40, 1, {2000}, 129, 64), rgb = stride1(2, 3, 8, 1, {20, 20}, 3, 1),
                    pairs = stride1(1, 4, 6, 2, {12, 12}, 3, 1);
  for (const ConvProblem& q : {sinc, rgb, pairs})
    for (const bool relu : {false, true})
      EXPECT_LT(worstAgainstDirectLoop(q, relu), 1e-4)
          << q.C << " channels, " << (q.geo.in.size() == 2 ? "2-D" : "1-D") << (relu ? ", ReLU" : "") << ", "
          << fw::exec::convolutionSourceLayout(q);
}

// A Conv of one input channel a group and several output channels each (a depth multiplier), which oneDNN
// runs on its GEMM path, runs on that path or as a depthwise Conv over its input channels copied once an
// output channel, whichever timed faster (core/exec/ConvPrimitive.cpp): either way, and the copies' way
// itself, the output with a bias and with a fused ReLU, 1-D and 2-D, equals a direct float64 loop; the
// layout it reports is the GEMM path's (plain) or the depthwise Conv's on the copies.
TEST(ExecConvLayout, ADepthMultiplierConvMatchesADirectLoop) {
  auto problem = [](int64_t c, int64_t m, std::vector<int64_t> in, int64_t k, int64_t pad) {
    return stride1(2, c, m, c, std::move(in), k, pad);
  };
  for (const ConvProblem& q : {problem(16, 48, {12, 12}, 3, 1), problem(8, 16, {9, 7}, 3, 0),
                               problem(4, 8, {50}, 5, 2), problem(3, 12, {10, 10}, 1, 0)}) {
    for (const bool relu : {false, true}) {
      EXPECT_LT(worstAgainstDirectLoop(q, relu), 1e-4)
          << q.C << " -> " << q.M << (q.geo.in.size() == 2 ? ", 2-D" : ", 1-D") << (relu ? ", ReLU" : "");
      EXPECT_LT(worstAgainstDirectLoop(q, relu, &fw::exec::convolutionOnCopies), 1e-4)
          << q.C << " -> " << q.M << " on copies" << (q.geo.in.size() == 2 ? ", 2-D" : ", 1-D")
          << (relu ? ", ReLU" : "");
    }
    if (q.geo.in.size() != 2) continue;
    ConvProblem depthwise = q;
    depthwise.C = depthwise.group = q.M;
    const std::string layout = fw::exec::convolutionSourceLayout(q);
    EXPECT_TRUE(layout == "plain" || layout == fw::exec::convolutionSourceLayout(depthwise)) << layout;
  }
}

// A Conv over N x C x in... into M channels in `group` groups with any kernel, strides, dilations and pads.
ConvProblem general(int64_t n, int64_t c, int64_t m, int64_t group, std::vector<int64_t> in,
                    std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> dilations,
                    std::vector<int64_t> padsBegin, std::vector<int64_t> padsEnd) {
  ConvProblem p;
  p.N = n, p.C = c, p.M = m, p.group = group;
  p.geo = {in, {}, kernel, strides, dilations, padsBegin, padsEnd};
  for (size_t d = 0; d < in.size(); ++d)
    p.geo.out.push_back(
        (in[d] + padsBegin[d] + padsEnd[d] - dilations[d] * (kernel[d] - 1) - 1) / strides[d] + 1);
  return p;
}

// The largest difference between `run` of `q` (any geometry; a bias, a fused ReLU when `relu`) on uniform
// data, with a NaN at input position `nanAt` when it is not negative, and a float64 loop over the same data;
// a NaN where the loop has one counts as equal, anywhere else as infinitely far.
template <class Run>
double worstAgainstGeneralLoop(const ConvProblem& q, bool relu, int64_t nanAt, Run run) {
  const ConvGeometry& g = q.geo;
  const int64_t cg = q.C / q.group, mg = q.M / q.group, inSize = g.inSize(), outSize = g.outSize(),
                kSize = g.kernelSize();
  std::vector<float> x = uniform(static_cast<size_t>(q.N * q.C * inSize), 7);
  if (nanAt >= 0) x[static_cast<size_t>(nanAt)] = std::nanf("");
  const std::vector<float> w = uniform(static_cast<size_t>(q.M * cg * kSize), 8),
                           b = uniform(static_cast<size_t>(q.M), 9);
  std::vector<float> y(static_cast<size_t>(q.N * q.M * outSize));
  run(q, x.data(), w.data(), b.data(), y.data(), relu);
  const size_t r = g.in.size();
  std::vector<int64_t> o(r), k(r);
  double worst = 0;
  for (int64_t n = 0; n < q.N; ++n)
    for (int64_t m = 0; m < q.M; ++m)
      for (int64_t op = 0; op < outSize; ++op) {
        for (size_t d = r, rem = static_cast<size_t>(op); d-- > 0; rem /= static_cast<size_t>(g.out[d]))
          o[d] = static_cast<int64_t>(rem) % g.out[d];
        double acc = b[static_cast<size_t>(m)];
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t kp = 0; kp < kSize; ++kp) {
            for (size_t d = r, rem = static_cast<size_t>(kp); d-- > 0;
                 rem /= static_cast<size_t>(g.kernel[d]))
              k[d] = static_cast<int64_t>(rem) % g.kernel[d];
            int64_t at = 0;
            bool inside = true;
            for (size_t d = 0; d < r; ++d) {
              const int64_t i = o[d] * g.strides[d] + k[d] * g.dilations[d] - g.padsBegin[d];
              inside = inside && i >= 0 && i < g.in[d];
              at = at * g.in[d] + i;
            }
            if (!inside) continue;
            const int64_t ch = (m / mg) * cg + c;
            acc += static_cast<double>(x[static_cast<size_t>((n * q.C + ch) * inSize + at)]) *
                   w[static_cast<size_t>((m * cg + c) * kSize + kp)];
          }
        if (relu && acc < 0) acc = 0;
        const float got = y[static_cast<size_t>((n * q.M + m) * outSize + op)];
        if (std::isnan(acc) != std::isnan(got)) return std::numeric_limits<double>::infinity();
        if (!std::isnan(acc)) worst = std::max(worst, std::abs(acc - got));
      }
  return worst;
}

// A filter bank (a few input channels a group, a kernel of at least 8 taps along the last axis, stride 1
// along it, and a few input rows an output row along the others; or over rows, 8 or more taps along the
// others and 1 along it) runs on the executor's own direct loop where that timed faster than the
// library (core/exec/DirectConv.h). The loop itself, on each vector width this CPU runs (8 and 4 lanes),
// and whichever way convolution() took, with a bias, with a fused ReLU and with a NaN in the input, equal
// a float64 loop: 1-D and 3-D, dilated, grouped, depthwise (a causal 40-tap one) and a depth multiplier,
// output channels not a multiple of the loop's block, output rows in the padding of an earlier axis, and a
// strided earlier axis.
TEST(ExecConvLayout, AFilterBankOnTheDirectLoopMatchesAFloat64Loop) {
  const ConvProblem banks[] = {
      general(2, 1, 6, 1, {300}, {17}, {1}, {1}, {8}, {5}),
      general(1, 2, 8, 1, {200}, {9}, {1}, {3}, {12}, {12}),
      general(2, 1, 5, 1, {7, 100}, {1, 12}, {2, 1}, {1, 1}, {1, 6}, {0, 5}),
      general(1, 4, 8, 2, {64}, {8}, {1}, {1}, {0}, {0}),
      general(1, 3, 4, 1, {2, 3, 40}, {1, 1, 10}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}),
      general(2, 5, 5, 5, {1, 150}, {1, 40}, {1, 1}, {1, 1}, {0, 39}, {0, 0}),
      general(1, 3, 6, 3, {90}, {11}, {1}, {2}, {5}, {7}),
      // Banks over rows (taps along the axes before the last, 1 along it): a depth multiplier over every
      // row at once, rows strided, dilated and padded with 2 channels a group, taps along two axes, rows
      // shorter than a block of vectors.
      general(2, 8, 16, 8, {22, 53}, {22, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
      general(1, 2, 5, 1, {30, 37}, {9, 1}, {2, 1}, {2, 1}, {4, 0}, {3, 0}),
      general(1, 3, 6, 3, {4, 10, 19}, {3, 3, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}),
      general(2, 4, 4, 4, {16, 5}, {8, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
      // Kernels long along the last axis and along others (large-kernel depthwise Convs): 31x31 over rows
      // of 20 (most taps in the padding), 3x16 in one group, strided and dilated along the earlier axis, 3-D,
      // and 2 channels a group with 2 output channels each.
      general(2, 3, 3, 3, {20, 20}, {31, 31}, {1, 1}, {1, 1}, {15, 15}, {15, 15}),
      general(1, 1, 8, 1, {5, 100}, {3, 16}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
      general(1, 2, 5, 1, {23, 41}, {5, 9}, {2, 1}, {2, 2}, {3, 8}, {2, 8}),
      general(1, 2, 2, 2, {4, 6, 30}, {3, 2, 8}, {1, 1, 1}, {1, 1, 1}, {1, 0, 4}, {1, 1, 3}),
      general(1, 4, 4, 2, {12, 50}, {13, 13}, {1, 1}, {1, 1}, {6, 6}, {6, 6}),
      // Depthwise with a few taps along the last axis alone (kDirectConvMinTapsDepthwise): 3 taps padded,
      // 2 taps, 4 taps dilated and causally padded, a depth multiplier of 2, 1 x 3 over rows of an image.
      general(2, 16, 16, 16, {300}, {3}, {1}, {1}, {1}, {1}),
      general(1, 8, 8, 8, {33}, {2}, {1}, {1}, {0}, {0}),
      general(1, 12, 12, 12, {200}, {4}, {1}, {2}, {6}, {0}),
      general(2, 6, 12, 6, {64}, {5}, {1}, {1}, {2}, {2}),
      general(1, 8, 8, 8, {9, 40}, {1, 3}, {1, 1}, {1, 1}, {0, 1}, {0, 1}),
      // One output channel a group over rows of 8 vectors or more (kWideVectors a block): a Hyena-style 127
      // taps over 1030 positions (a partial last block), exactly one wide block of 64 positions dilated, and
      // a 3 x 9 depthwise over rows of 70.
      general(1, 4, 4, 4, {1030}, {127}, {1}, {1}, {63}, {63}),
      general(2, 4, 4, 4, {64}, {5}, {1}, {2}, {4}, {4}),
      general(2, 3, 3, 3, {8, 70}, {3, 9}, {1, 1}, {1, 1}, {1, 4}, {1, 4}),
  };
  const auto direct = [](const ConvProblem& q, const float* x, const float* w, const float* b, float* y,
                         bool relu) { fw::exec::directConvolution(q, x, w, b, y, relu); };
  const auto executor = [](const ConvProblem& q, const float* x, const float* w, const float* b, float* y,
                           bool relu) {
    fw::exec::convolution(q, x, w, std::make_shared<int>(0), b, y, relu);
  };
  for (const ConvProblem& q : banks) {
    ASSERT_TRUE(fw::exec::directConvolutionApplies(q)) << q.C << " -> " << q.M;
    const std::string what = std::to_string(q.C) + " -> " + std::to_string(q.M) + ", " +
                             std::to_string(q.geo.in.size()) + "-D, " + std::to_string(q.geo.kernel.back()) +
                             " taps";
    for (const int lanes : fw::exec::fastmath::buildLanes()) {
      if (lanes > 8) continue;
      fw::exec::fastmath::allowLanes(lanes);
      for (const bool relu : {false, true}) {
        EXPECT_LT(worstAgainstGeneralLoop(q, relu, -1, direct), 1e-4) << what << ", " << lanes << " lanes";
        EXPECT_LT(worstAgainstGeneralLoop(q, relu, q.geo.in.back() / 2, direct), 1e-4)
            << what << ", a NaN, " << lanes << " lanes" << (relu ? ", ReLU" : "");
      }
    }
    fw::exec::fastmath::allowLanes(16);
    for (const bool relu : {false, true})
      EXPECT_LT(worstAgainstGeneralLoop(q, relu, -1, executor), 1e-4)
          << what << (relu ? ", ReLU" : "") << ", " << fw::exec::convolutionSourceLayout(q);
  }
  // Not filter banks: stride 2 along the last axis, 7 taps, 5 channels a group, 4 channels by 17 taps along
  // an earlier axis (68 input rows an output row), 7x7; over rows: padding along the last axis, 4 taps, 68
  // input rows an output row; 3 taps over 2 channels a group, and a depthwise 3x3.
  for (const ConvProblem& q : {general(1, 1, 8, 1, {100}, {16}, {2}, {1}, {0}, {0}),
                               general(1, 1, 8, 1, {100}, {7}, {1}, {1}, {0}, {0}),
                               general(1, 5, 8, 1, {100}, {16}, {1}, {1}, {0}, {0}),
                               general(1, 4, 8, 1, {20, 100}, {17, 16}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
                               general(1, 8, 8, 8, {20, 20}, {7, 7}, {1, 1}, {1, 1}, {3, 3}, {3, 3}),
                               general(1, 1, 8, 1, {20, 100}, {8, 1}, {1, 1}, {1, 1}, {0, 1}, {0, 1}),
                               general(1, 1, 8, 1, {20, 100}, {4, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
                               general(1, 4, 8, 1, {20, 100}, {17, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
                               general(1, 8, 8, 4, {100}, {3}, {1}, {1}, {1}, {1}),
                               general(1, 8, 8, 8, {20, 20}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1})})
    EXPECT_FALSE(fw::exec::directConvolutionApplies(q)) << q.C << " -> " << q.M;
}

// A Conv's staging buffer is grown and kept: a smaller layout after a larger one reuses the storage, and
// the three slots are distinct (a Conv's source and destination are staged at once, and a depth
// multiplier's copied input before them).
TEST(ExecConvLayout, StagingBuffersAreReusedPerSlot) {
  using dnnl::memory;
  const memory::desc big({4, 64, 32, 32}, memory::data_type::f32, memory::format_tag::nChw16c);
  const memory::desc small({1, 16, 8, 8}, memory::data_type::f32, memory::format_tag::nChw16c);
  void* first = fw::exec::onednn::staged(0, big).get_data_handle();
  EXPECT_EQ(fw::exec::onednn::staged(0, small).get_data_handle(), first);
  EXPECT_EQ(fw::exec::onednn::staged(0, big).get_data_handle(), first);
  EXPECT_NE(fw::exec::onednn::staged(1, small).get_data_handle(), first);
  EXPECT_NE(fw::exec::onednn::staged(2, small).get_data_handle(), first);
  EXPECT_NE(fw::exec::onednn::staged(2, small).get_data_handle(),
            fw::exec::onednn::staged(1, small).get_data_handle());
  EXPECT_THROW(fw::exec::onednn::staged(3, small), std::invalid_argument);
}

// A 1x1 Conv without padding in one group runs on the executor's own product over NC(spatial) as given,
// strided too (the positions it reads copied out), whatever the CPU. Before, a strided one went to oneDNN,
// which on AVX-512 takes channels-last and two reorders. (A padded one stays with oneDNN, whose layout
// depends on the ISA: plain under AVX2, channels-last under AVX-512, so it is not checked here.)
TEST(ExecConvLayout, UnpaddedPointwiseConvsStridedOrNotRunOnThePlainLayout) {
  auto pointwise = [](int64_t hw, int64_t stride) {
    ConvProblem p;
    p.N = 2, p.C = 64, p.M = 128, p.group = 1;
    p.geo.in = {hw, hw};
    const int64_t out = (hw - 1) / stride + 1;
    p.geo.out = {out, out};
    p.geo.kernel = {1, 1};
    p.geo.strides = {stride, stride};
    p.geo.dilations = {1, 1};
    p.geo.padsBegin = {0, 0};
    p.geo.padsEnd = {0, 0};
    return p;
  };
  EXPECT_EQ(fw::exec::convolutionSourceLayout(pointwise(28, 1)), "plain");
  EXPECT_EQ(fw::exec::convolutionSourceLayout(pointwise(28, 2)), "plain");
  EXPECT_EQ(fw::exec::convolutionSourceLayout(pointwise(27, 3)), "plain");
}

// A Conv in one group whose kernel covers every spatial axis but the last whole and is 1 along the last,
// unpadded (EEG spatial filters), runs as the pointwise Conv of its rows (rowsAsChannels) on the plain
// layout: with a bias and a fused ReLU, 2-D and 3-D, its output equals a float64 loop; with padding, in
// groups, or with a shorter kernel it is not taken. (The shapes are not filter banks, which the direct loop
// may take first: more than 4 input channels or fewer than 8 taps.)
TEST(ExecConvLayout, AKernelOverTheLeadingAxesWholeRunsAsThePointwiseConvOfItsRows) {
  auto problem = [](int64_t n, int64_t c, int64_t m, std::vector<int64_t> in) {
    ConvProblem p;
    p.N = n, p.C = c, p.M = m, p.group = 1;
    p.geo.in = in;
    p.geo.kernel = in;
    p.geo.kernel.back() = 1;
    p.geo.out.assign(in.size(), 1);
    p.geo.out.back() = in.back();
    p.geo.strides.assign(in.size(), 1);
    p.geo.dilations.assign(in.size(), 1);
    p.geo.padsBegin.assign(in.size(), 0);
    p.geo.padsEnd.assign(in.size(), 0);
    return p;
  };
  for (const ConvProblem& q :
       {problem(2, 6, 10, {22, 37}), problem(3, 8, 8, {3, 5, 33}), problem(1, 2, 5, {7, 512})}) {
    const int64_t rows = q.geo.inSize() / q.geo.in.back(), len = q.geo.in.back();
    EXPECT_TRUE(fw::exec::rowsAsChannels(q.geo.in, q.geo.kernel, 1, 1, false));
    EXPECT_EQ(fw::exec::convolutionSourceLayout(q), "plain");
    const std::vector<float> x = uniform(static_cast<size_t>(q.N * q.C * rows * len), 11),
                             w = uniform(static_cast<size_t>(q.M * q.C * rows), 12),
                             b = uniform(static_cast<size_t>(q.M), 13);
    for (const bool relu : {false, true}) {
      std::vector<float> y(static_cast<size_t>(q.N * q.M * len));
      fw::exec::convolution(q, x.data(), w.data(), std::make_shared<int>(0), b.data(), y.data(), relu);
      double worst = 0;
      for (int64_t n = 0; n < q.N; ++n)
        for (int64_t m = 0; m < q.M; ++m)
          for (int64_t j = 0; j < len; ++j) {
            double acc = b[static_cast<size_t>(m)];
            for (int64_t c = 0; c < q.C; ++c)
              for (int64_t r = 0; r < rows; ++r)
                acc += static_cast<double>(x[static_cast<size_t>(((n * q.C + c) * rows + r) * len + j)]) *
                       w[static_cast<size_t>((m * q.C + c) * rows + r)];
            if (relu) acc = std::max(acc, 0.0);
            worst = std::max(worst, std::abs(acc - y[static_cast<size_t>((n * q.M + m) * len + j)]));
          }
      EXPECT_LT(worst, 1e-4) << q.geo.in.size() << "-D over " << rows << " rows" << (relu ? ", ReLU" : "");
      // Bit for bit the pointwise Conv of C * rows channels over the last axis (the library's kernel sums
      // in another order).
      const ConvProblem pw = problem(q.N, q.C * rows, q.M, {len});
      std::vector<float> ypw(y.size());
      fw::exec::convolution(pw, x.data(), w.data(), std::make_shared<int>(0), b.data(), ypw.data(), relu);
      EXPECT_EQ(y, ypw) << q.geo.in.size() << "-D over " << rows << " rows";
    }
  }
  EXPECT_FALSE(fw::exec::rowsAsChannels({22, 37}, {22, 1}, 1, 1, true));   // padded
  EXPECT_FALSE(fw::exec::rowsAsChannels({22, 37}, {22, 1}, 2, 1, false));  // in groups
  EXPECT_FALSE(fw::exec::rowsAsChannels({22, 37}, {21, 1}, 1, 1, false));  // shorter than the axis
  EXPECT_FALSE(fw::exec::rowsAsChannels({22, 37}, {22, 1}, 1, 2, false));  // strided along the last
  EXPECT_FALSE(fw::exec::rowsAsChannels({1, 37}, {1, 1}, 1, 1, false));    // the pointwise Conv itself
  EXPECT_FALSE(fw::exec::rowsAsChannels({37}, {1}, 1, 1, false));          // 1-D
}

// A pointwise Conv whose positions make the product's rows 2 KiB apart or a multiple (pointwiseRowsSpread)
// runs on a copy of its input with the rows further apart: its output, with a bias and a fused ReLU, 1-D and
// 2-D, equals a direct float64 loop, as one that is not spread does; strided, it equals the stride-1 Conv of
// the positions it reads.
TEST(ExecConvLayout, APointwiseConvOnSpreadRowsMatchesADirectLoop) {
  EXPECT_TRUE(fw::exec::pointwiseRowsSpread(512));
  EXPECT_TRUE(fw::exec::pointwiseRowsSpread(32 * 32));
  EXPECT_FALSE(fw::exec::pointwiseRowsSpread(520));
  EXPECT_FALSE(fw::exec::pointwiseRowsSpread(256));
  for (const ConvProblem& q : {stride1(2, 24, 40, 1, {1024}, 1, 0), stride1(3, 16, 8, 1, {512}, 1, 0),
                               stride1(2, 8, 12, 1, {32, 32}, 1, 0), stride1(2, 16, 8, 1, {520}, 1, 0)})
    for (const bool relu : {false, true})
      EXPECT_LT(worstAgainstDirectLoop(q, relu), 1e-4)
          << q.geo.outSize() << " positions" << (relu ? ", ReLU" : "");
  ConvProblem strided = stride1(2, 16, 24, 1, {64, 64}, 1, 0);
  strided.geo.strides = {2, 2};
  strided.geo.out = {32, 32};
  const ConvProblem dense = stride1(2, 16, 24, 1, {32, 32}, 1, 0);
  const std::vector<float> x = uniform(2 * 16 * 64 * 64, 7), w = uniform(24 * 16, 8), b = uniform(24, 9);
  std::vector<float> xs(2 * 16 * 32 * 32), ys(2 * 24 * 32 * 32), yd(ys.size());
  for (size_t plane = 0; plane < 2 * 16; ++plane)
    for (size_t r = 0; r < 32; ++r)
      for (size_t c = 0; c < 32; ++c) xs[(plane * 32 + r) * 32 + c] = x[(plane * 64 + 2 * r) * 64 + 2 * c];
  const auto owner = std::make_shared<int>(0);
  fw::exec::convolution(strided, x.data(), w.data(), owner, b.data(), ys.data(), true);
  fw::exec::convolution(dense, xs.data(), w.data(), owner, b.data(), yd.data(), true);
  EXPECT_EQ(ys, yd);
}

// A 1x1 Conv over one position an image (a squeeze-excitation's after its pool) runs the batch as one
// product on the weight's packed copy: with a bias or none, a fused ReLU or none, over 1 to 33 images,
// 2-D and 1-D, and strided (one position read of 3x3), its output equals a float64 loop.
TEST(ExecConvLayout, APointwiseConvOfOnePositionAnImageMatchesAFloat64LoopOverABatch) {
  for (const int64_t n : {1, 2, 5, 33})
    for (const bool relu : {false, true}) {
      EXPECT_LT(worstAgainstDirectLoop(stride1(n, 58, 139, 1, {1, 1}, 1, 0), relu), 1e-4) << n << " images";
      EXPECT_LT(worstAgainstDirectLoop(stride1(n, 17, 40, 1, {1}, 1, 0), relu), 1e-4) << n << " images, 1-D";
      ConvProblem strided = stride1(n, 24, 36, 1, {3}, 1, 0);
      strided.geo.strides = {3};
      strided.geo.out = {1};
      EXPECT_LT(worstAgainstDirectLoop(strided, relu), 1e-4) << n << " images, stride 3";
    }
  // No bias: the product alone (and its ReLU), against the same loop.
  const ConvProblem q = stride1(6, 40, 24, 1, {1, 1}, 1, 0);
  const std::vector<float> x = uniform(6 * 40, 11), w = uniform(24 * 40, 12);
  const auto owner = std::make_shared<int>(0);
  for (const bool relu : {false, true}) {
    std::vector<float> y(6 * 24, -7.f);
    fw::exec::convolution(q, x.data(), w.data(), owner, nullptr, y.data(), relu);
    for (size_t n = 0; n < 6; ++n)
      for (size_t m = 0; m < 24; ++m) {
        double acc = 0;
        for (size_t c = 0; c < 40; ++c) acc += static_cast<double>(x[n * 40 + c]) * w[m * 40 + c];
        if (relu) acc = std::max(acc, 0.0);
        EXPECT_NEAR(y[n * 24 + m], acc, 1e-4) << "image " << n << ", channel " << m << (relu ? ", ReLU" : "");
      }
  }
}

// A 1x1 Conv over a few positions an image, not a whole number of the library's blocks, over a batch runs
// as one product over the images' columns gathered (pointwiseImagesGathered): with a bias or none, a fused
// ReLU or none, over 2, 5 and 33 images, 2-D (2x2, 3x3, 7x7) and 1-D, and strided (7x7 read of 14x14), its
// output equals a float64 loop; one image, and positions in whole blocks, take the product an image.
TEST(ExecConvLayout, APointwiseConvOfFewPositionsOverABatchMatchesAFloat64Loop) {
  EXPECT_TRUE(fw::exec::pointwiseImagesGathered(2, 4));
  EXPECT_TRUE(fw::exec::pointwiseImagesGathered(32, 49));
  EXPECT_TRUE(fw::exec::pointwiseImagesGathered(8, 100));
  EXPECT_FALSE(fw::exec::pointwiseImagesGathered(1, 9));    // one image
  EXPECT_FALSE(fw::exec::pointwiseImagesGathered(8, 1));    // one position: pointwiseImagesAsOneProduct
  EXPECT_FALSE(fw::exec::pointwiseImagesGathered(16, 16));  // whole blocks
  EXPECT_FALSE(fw::exec::pointwiseImagesGathered(16, 64));
  EXPECT_FALSE(fw::exec::pointwiseImagesGathered(8, 196));  // many positions
  for (const int64_t n : {1, 2, 5, 33})
    for (const bool relu : {false, true}) {
      for (const std::vector<int64_t>& in :
           std::vector<std::vector<int64_t>>{{2, 2}, {3, 3}, {7, 7}, {4, 4}, {5}})
        EXPECT_LT(worstAgainstDirectLoop(stride1(n, 37, 45, 1, in, 1, 0), relu), 1e-4)
            << n << " images over " << in.size() << "-D " << in.back() << (relu ? ", ReLU" : "");
      ConvProblem strided = stride1(n, 24, 36, 1, {14, 14}, 1, 0);
      strided.geo.strides = {2, 2};
      strided.geo.out = {7, 7};
      EXPECT_LT(worstAgainstDirectLoop(strided, relu), 1e-4) << n << " images, stride 2";
    }
  // No bias: the product alone (and its ReLU), against the same loop; every output written.
  const ConvProblem q = stride1(6, 40, 24, 1, {3, 3}, 1, 0);
  const std::vector<float> x = uniform(6 * 40 * 9, 11), w = uniform(24 * 40, 12);
  const auto owner = std::make_shared<int>(0);
  for (const bool relu : {false, true}) {
    std::vector<float> y(6 * 24 * 9, -7.f);
    fw::exec::convolution(q, x.data(), w.data(), owner, nullptr, y.data(), relu);
    for (size_t n = 0; n < 6; ++n)
      for (size_t m = 0; m < 24; ++m)
        for (size_t j = 0; j < 9; ++j) {
          double acc = 0;
          for (size_t c = 0; c < 40; ++c) acc += static_cast<double>(x[(n * 40 + c) * 9 + j]) * w[m * 40 + c];
          if (relu) acc = std::max(acc, 0.0);
          EXPECT_NEAR(y[(n * 24 + m) * 9 + j], acc, 1e-4)
              << "image " << n << ", channel " << m << ", position " << j;
        }
  }
  // Over 2x2 planes a position's bias and ReLU go as one vector of 4: a NaN in the input stays NaN through
  // the ReLU, as the Relu op keeps it, in every channel at its position; every other value is the ReLU's.
  const ConvProblem r = stride1(3, 20, 18, 1, {2, 2}, 1, 0);
  std::vector<float> xr = uniform(3 * 20 * 4, 13);
  const std::vector<float> wr = uniform(18 * 20, 14), br = uniform(18, 15);
  xr[(1 * 20 + 5) * 4 + 2] = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> yr(3 * 18 * 4, -7.f);
  fw::exec::convolution(r, xr.data(), wr.data(), owner, br.data(), yr.data(), true);
  for (size_t n = 0; n < 3; ++n)
    for (size_t m = 0; m < 18; ++m)
      for (size_t j = 0; j < 4; ++j) {
        const float v = yr[(n * 18 + m) * 4 + j];
        if (n == 1 && j == 2)
          EXPECT_TRUE(std::isnan(v)) << "channel " << m;
        else
          EXPECT_GE(v, 0.f) << "image " << n << ", channel " << m << ", position " << j;
      }
}

// A padded Conv that oneDNN runs on its GEMM path runs, where that timed faster, on the library's jit kernel
// over its input padded first (core/exec/ConvPrimitive.cpp, convolutionPrePadded): the copy's way itself and
// whichever way convolution() took, with a bias, a fused ReLU and a NaN in the input, equal a float64 loop:
// DeepSpeech2-like long kernels (11 x 21 "same" at stride (1, 2), 11 x 41 on one channel at stride 2),
// uneven padding, a dilated 1-D Conv and a 3-D one, grouped.
TEST(ExecConvLayout, APrePaddedConvMatchesAFloat64Loop) {
  const ConvProblem convs[] = {
      general(2, 8, 8, 1, {14, 30}, {11, 21}, {1, 2}, {1, 1}, {5, 10}, {5, 10}),
      general(1, 1, 8, 1, {30, 50}, {11, 41}, {2, 2}, {1, 1}, {5, 20}, {5, 20}),
      general(1, 4, 6, 2, {9, 17}, {3, 7}, {1, 1}, {1, 1}, {0, 6}, {2, 1}),
      general(2, 3, 5, 1, {60}, {9}, {1}, {2}, {8}, {8}),
      general(1, 4, 4, 2, {5, 6, 12}, {3, 3, 7}, {1, 1, 2}, {1, 1, 1}, {1, 0, 3}, {1, 2, 3}),
  };
  const auto prePadded = [](const ConvProblem& q, const float* x, const float* w, const float* b, float* y,
                            bool relu) {
    fw::exec::convolutionPrePadded(q, x, w, std::make_shared<int>(0), b, y, relu);
  };
  const auto executor = [](const ConvProblem& q, const float* x, const float* w, const float* b, float* y,
                           bool relu) {
    fw::exec::convolution(q, x, w, std::make_shared<int>(0), b, y, relu);
  };
  for (const ConvProblem& q : convs) {
    const std::string what = std::to_string(q.C) + " -> " + std::to_string(q.M) + ", " +
                             std::to_string(q.geo.in.size()) + "-D, " + std::to_string(q.geo.kernel.back()) +
                             " taps along the last axis";
    for (const bool relu : {false, true}) {
      EXPECT_LT(worstAgainstGeneralLoop(q, relu, -1, prePadded), 1e-4) << what << (relu ? ", ReLU" : "");
      // (Without the ReLU: oneDNN's jit kernels' ReLU post-op makes a NaN 0, the padded input's as any other
      // Conv's on them, e.g. a 3x3 16 -> 16 on 8-channel blocks; its GEMM path keeps it.)
      if (!relu) {
        EXPECT_LT(worstAgainstGeneralLoop(q, relu, q.geo.in.back() + 1, prePadded), 1e-4)
            << what << ", a NaN";
      }
      EXPECT_LT(worstAgainstGeneralLoop(q, relu, -1, executor), 1e-4)
          << what << (relu ? ", ReLU" : "") << ", " << fw::exec::convolutionSourceLayout(q);
    }
  }
}
