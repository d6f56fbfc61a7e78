// Index, region and sampling ops of the reference executor (core/exec/ops_gather_scatter.cpp, ops_sort.cpp, ops_region.cpp, ops_layout.cpp) beyond what the
// ONNX node tests cover: MaxRoiPool (no node test), RoiAlign with other rois / adaptive sampling,
// GridSample in every mode x padding x align_corners, TopK's opset-1 attribute and ties, index range
// errors, and NonMaxSuppression / TopK on thousands of elements. Expected numbers marked "torch" come
// from torch 1.13 / torchvision 0.14 (grid_sample, roi_align, roi_pool) on the same inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "core/exec/Executor.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::DType;
using fw::Tensor;

namespace {

Tensor i64(std::vector<int64_t> dims, const std::vector<int64_t>& v) { return Tensor::int64s(std::move(dims), v); }

void expectInts(const Tensor& t, const std::vector<int64_t>& dims, const std::vector<int64_t>& want) {
  EXPECT_EQ(t.dtype(), DType::Int64);
  ASSERT_EQ(t.dims(), dims);
  EXPECT_EQ(t.toInt64s(), want);
}

void expectFailsWith(const fw::Result<std::vector<Tensor>>& r, const std::vector<std::string>& parts) {
  ASSERT_FALSE(r.ok());
  for (const auto& p : parts) EXPECT_NE(r.error().message.find(p), std::string::npos) << r.error().message;
}

// X = x*x*0.1 - x for x = 0..11, shape [1,1,3,4]; grid points partly outside [-1, 1].
Tensor gridX() {
  std::vector<float> v(12);
  for (int k = 0; k < 12; ++k) v[k] = static_cast<float>(k) * static_cast<float>(k) * 0.1f - static_cast<float>(k);
  return Tensor::floats({1, 1, 3, 4}, v);
}
Tensor gridG() {
  return Tensor::floats({1, 2, 3, 2}, {-1.7f, -1.2f, -0.3f, 0.45f, 0.9f, 1.3f, 1.5f, -0.6f, 0.1f, -0.95f, -0.8f, 0.2f});
}

// sin(0.7 k) * 3, shape [2,2,5,6] (the RoiAlign / MaxRoiPool feature map).
Tensor roiX() {
  std::vector<float> v(120);
  for (int k = 0; k < 120; ++k) v[k] = std::sin(static_cast<float>(k) * 0.7f) * 3.f;
  return Tensor::floats({2, 2, 5, 6}, v);
}

}  // namespace

TEST(IndexOps, GridSampleAllModesPaddingsAndAlignCorners) {
  struct Case {
    const char* mode;
    const char* pad;
    int ac;
    std::vector<float> want;  // torch grid_sample
  };
  const std::vector<Case> cases = {
      {"bilinear", "zeros", 0, {0, -1.464f, 0.0385002f, 0, -0.79925f, -1.944f}},
      {"bilinear", "zeros", 1, {0, -1.757f, 0.6545f, -0.525f, -1.409f, -2.222f}},
      {"bilinear", "border", 0, {0, -1.464f, 1.1f, -2.1f, -1.39f, -2.16f}},
      {"bilinear", "border", 1, {0, -1.757f, 0.935f, -2.1f, -1.409f, -2.222f}},
      {"bilinear", "reflection", 0, {-0.81f, -1.464f, 1.1f, -1.89f, -1.39f, -2.16f}},
      {"bilinear", "reflection", 1, {-1.247f, -1.757f, 0.0110003f, -1.965f, -1.409f, -2.222f}},
      {"nearest", "zeros", 0, {0, -0.9f, 0, 0, -1.6f, -2.4f}},
      {"nearest", "zeros", 1, {0, -2.5f, 1.1f, 0, -1.6f, -2.4f}},
      {"nearest", "border", 0, {0, -0.9f, 1.1f, -2.1f, -1.6f, -2.4f}},
      {"nearest", "border", 1, {0, -2.5f, 1.1f, -2.1f, -1.6f, -2.4f}},
      {"nearest", "reflection", 0, {-0.9f, -0.9f, 1.1f, -1.6f, -1.6f, -2.4f}},
      {"nearest", "reflection", 1, {-0.9f, -2.5f, 1.1f, -1.6f, -1.6f, -2.4f}},
      {"bicubic", "zeros", 0, {-0.000388805f, -1.68502f, 0.0402137f, 0.21086f, -0.700072f, -2.32546f}},
      {"bicubic", "zeros", 1, {-0.0077976f, -1.99247f, 1.13708f, -0.589955f, -1.4587f, -2.78524f}},
      {"bicubic", "border", 0, {0.0575998f, -1.5581f, 1.22713f, -2.1216f, -1.27896f, -2.45424f}},
      {"bicubic", "border", 1, {0.2304f, -1.92207f, 1.31526f, -2.33909f, -1.4125f, -2.4718f}},
      {"bicubic", "reflection", 0, {-0.577971f, -1.5581f, 1.39174f, -1.96168f, -1.19533f, -2.45567f}},
      {"bicubic", "reflection", 1, {-1.12029f, -1.78365f, 0.524979f, -2.14039f, -1.37502f, -2.46323f}},
  };
  for (const auto& cs : cases) {
    SCOPED_TRACE(std::string(cs.mode) + " " + cs.pad + " align_corners=" + std::to_string(cs.ac));
    auto r = runOne("GridSample", {{"x", gridX()}, {"g", gridG()}}, 1,
                    attrs({Attribute::makeString("mode", cs.mode), Attribute::makeString("padding_mode", cs.pad),
                           Attribute::makeInt("align_corners", cs.ac)}),
                    16);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectNear((*r)[0], {1, 1, 2, 3}, cs.want, 1e-4f);
  }
}

// Bilinear sampling runs a channel at a time along each output row: over 2 images x 3 channels, plane (n, c)
// gridX() x (1 + c + 3n), the same grid for both images, every plane's output is the one-plane result
// (torch's, above) times its factor.
TEST(IndexOps, GridSampleBilinearOverImagesAndChannelsIsEachPlanesOwn) {
  const std::vector<float> one = gridX().toFloats(), g = gridG().toFloats();
  std::vector<float> xv, gv;
  for (int plane = 0; plane < 6; ++plane)
    for (float v : one) xv.push_back(v * static_cast<float>(1 + plane));
  for (int n = 0; n < 2; ++n) gv.insert(gv.end(), g.begin(), g.end());
  struct Case {
    const char* pad;
    int ac;
    std::vector<float> want;  // the one-plane case's, torch grid_sample
  };
  for (const Case& cs : {Case{"zeros", 0, {0, -1.464f, 0.0385002f, 0, -0.79925f, -1.944f}},
                         Case{"border", 1, {0, -1.757f, 0.935f, -2.1f, -1.409f, -2.222f}},
                         Case{"reflection", 0, {-0.81f, -1.464f, 1.1f, -1.89f, -1.39f, -2.16f}}}) {
    SCOPED_TRACE(std::string(cs.pad) + " align_corners=" + std::to_string(cs.ac));
    auto r = runOne(
        "GridSample", {{"x", Tensor::floats({2, 3, 3, 4}, xv)}, {"g", Tensor::floats({2, 2, 3, 2}, gv)}}, 1,
        attrs({Attribute::makeString("mode", "bilinear"), Attribute::makeString("padding_mode", cs.pad),
               Attribute::makeInt("align_corners", cs.ac)}),
        16);
    ASSERT_TRUE(r.ok()) << r.error().message;
    std::vector<float> want;
    for (int plane = 0; plane < 6; ++plane)
      for (float v : cs.want) want.push_back(v * static_cast<float>(1 + plane));
    expectNear((*r)[0], {2, 3, 2, 3}, want, 6e-4f);
  }
}

TEST(IndexOps, GridSampleNonFiniteGridIsClean) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  auto r = runOne("GridSample",
                  {{"x", gridX()}, {"g", Tensor::floats({1, 1, 3, 2}, {nan, 0, inf, -inf, 1e30f, -1e30f})}}, 1,
                  attrs({Attribute::makeString("mode", "bicubic"), Attribute::makeString("padding_mode", "reflection")}), 16);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dims(), (std::vector<int64_t>{1, 1, 1, 3}));
}

TEST(IndexOps, RoiAlignMatchesTorchvision) {
  // rois in (x1, y1, x2, y2) with batch indices; spatial_scale 0.8, output 2x3.
  const Tensor rois = Tensor::floats({3, 4}, {0.5f, 0.7f, 4.6f, 3.9f, -1.2f, 1.0f, 2.0f, 6.5f, 2.2f, 2.1f, 2.4f, 2.3f});
  const Tensor bi = i64({3}, {1, 0, 1});
  struct Case {
    const char* ctm;
    int64_t ratio;
    std::vector<float> want;  // torchvision roi_align(aligned = ctm == half_pixel)
  };
  const std::vector<Case> cases = {
      {"output_half_pixel", 0, {0.851744f, -0.280246f, -1.26072f, -0.248175f, 0.789126f, 1.3927f, -1.5489f, -1.12062f, -0.0701644f,
                                1.30693f, 0.556529f, -0.504647f, 0.432749f, 0.282903f, -0.113791f, -2.07928f, -2.01709f, -1.69757f,
                                -0.713016f, -0.669761f, -0.507309f, 0.756281f, 1.10963f, 1.90023f, 2.64953f, 2.51302f, 2.28366f,
                                0.96328f, 1.16747f, 1.33593f, -1.41507f, -1.8208f, -2.17321f, 0.469326f, 0.128639f, -0.226027f}},
      {"output_half_pixel", 2, {0.851744f, -0.280246f, -1.26072f, -0.248175f, 0.789126f, 1.3927f, -1.5489f, -1.12062f, -0.0701644f,
                                1.30693f, 0.556529f, -0.504647f, 0.326618f, 0.198053f, -0.137955f, -2.0409f, -1.96905f, -1.61229f,
                                -0.600929f, -0.555085f, -0.391222f, 0.786158f, 1.12377f, 1.85666f, 2.40271f, 2.28082f, 2.06881f,
                                0.960843f, 1.16747f, 1.33593f, -1.29674f, -1.66619f, -1.98337f, 0.468373f, 0.128639f, -0.226027f}},
      {"half_pixel", 0, {0.245319f, -0.956428f, -1.6279f, 0.680221f, 1.39898f, 1.33826f, -1.49896f, -0.59981f, 0.63798f,
                         0.723499f, -0.373467f, -1.26569f, 0, -0.0170205f, -0.366623f, 0, -1.26357f, -0.864124f,
                         0, -0.670186f, -0.364927f, 0, 1.07664f, 1.25554f, 0.601087f, 0.525274f, 0.449461f,
                         0.790218f, 0.726421f, 0.662623f, -1.91947f, -1.88765f, -1.85583f, -1.73397f, -1.71645f, -1.69894f}},
      {"half_pixel", 2, {0.245319f, -0.956428f, -1.6279f, 0.680221f, 1.39898f, 1.33826f, -1.49896f, -0.59981f, 0.63798f,
                         0.723499f, -0.373467f, -1.26569f, 0.0205884f, 0.0283797f, -0.475824f, -0.675003f, -1.33721f, -0.833201f,
                         -0.503582f, -0.996665f, -0.583027f, 0.661973f, 1.32678f, 1.43827f, 0.601087f, 0.525274f, 0.449461f,
                         0.790218f, 0.726421f, 0.662623f, -1.91947f, -1.88765f, -1.85583f, -1.73397f, -1.71645f, -1.69894f}},
  };
  for (const auto& cs : cases) {
    SCOPED_TRACE(std::string(cs.ctm) + " sampling_ratio=" + std::to_string(cs.ratio));
    auto r = runOne("RoiAlign", {{"x", roiX()}, {"rois", rois}, {"bi", bi}}, 1,
                    attrs({Attribute::makeString("coordinate_transformation_mode", cs.ctm), Attribute::makeInt("output_height", 2),
                           Attribute::makeInt("output_width", 3), Attribute::makeInt("sampling_ratio", cs.ratio),
                           Attribute::makeFloat("spatial_scale", 0.8f)}),
                    16);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectNear((*r)[0], {3, 2, 2, 3}, cs.want, 2e-4f);
  }
}

// Many rois over a small map read it channels-last (8 channels here); one channel at a time keeps the
// planes' loop. Every mode, both coordinate modes and adaptive sampling give the same numbers, bit for bit,
// rois partly outside the map included.
TEST(IndexOps, RoiAlignChannelsLastEqualsThePlanesLoopBitForBit) {
  const int64_t C = 8;
  std::vector<float> v(static_cast<size_t>(2 * C * 5 * 6));
  for (size_t k = 0; k < v.size(); ++k) v[k] = std::sin(static_cast<float>(k) * 0.37f) * 3.f;
  const Tensor x = Tensor::floats({2, C, 5, 6}, v);
  const Tensor rois = Tensor::floats({4, 4}, {0.5f, 0.7f, 4.6f, 3.9f, -1.2f, 1.0f, 2.0f, 6.5f, 2.2f, 2.1f,
                                              2.4f, 2.3f, 3.0f, -2.0f, 9.0f, 4.0f});
  const Tensor bi = i64({4}, {1, 0, 1, 0});
  for (const char* mode : {"avg", "max"})
    for (const char* ctm : {"half_pixel", "output_half_pixel"})
      for (int64_t ratio : {0, 2}) {
        SCOPED_TRACE(std::string(mode) + " " + ctm + " sampling_ratio=" + std::to_string(ratio));
        auto a =
            attrs({Attribute::makeString("mode", mode),
                   Attribute::makeString("coordinate_transformation_mode", ctm),
                   Attribute::makeInt("output_height", 2), Attribute::makeInt("output_width", 3),
                   Attribute::makeInt("sampling_ratio", ratio), Attribute::makeFloat("spatial_scale", 0.8f)});
        auto all = runOne("RoiAlign", {{"x", x}, {"rois", rois}, {"bi", bi}}, 1, a, 16);
        ASSERT_TRUE(all.ok()) << all.error().message;
        const std::vector<float> got = (*all)[0].toFloats();
        ASSERT_EQ((*all)[0].dims(), (std::vector<int64_t>{4, C, 2, 3}));
        for (int64_t ch = 0; ch < C; ++ch) {
          std::vector<float> one;
          for (int64_t n = 0; n < 2; ++n)
            one.insert(one.end(), v.begin() + (n * C + ch) * 30, v.begin() + (n * C + ch + 1) * 30);
          auto single = runOne(
              "RoiAlign", {{"x", Tensor::floats({2, 1, 5, 6}, one)}, {"rois", rois}, {"bi", bi}}, 1, a, 16);
          ASSERT_TRUE(single.ok()) << single.error().message;
          const std::vector<float> want = (*single)[0].toFloats();
          for (int64_t r = 0; r < 4; ++r)
            for (int64_t bin = 0; bin < 6; ++bin) {
              const float g = got[static_cast<size_t>((r * C + ch) * 6 + bin)],
                          w = want[static_cast<size_t>(r * 6 + bin)];
              EXPECT_EQ(std::memcmp(&g, &w, sizeof g), 0)
                  << "roi " << r << " channel " << ch << " bin " << bin << ": " << g << " vs " << w;
            }
        }
      }
}

TEST(IndexOps, RoiAlignMaxOnConstantMapTakesLargestWeightedCorner) {
  // Every sample of a constant map c has weights summing to 1; max mode (as the ONNX reference)
  // keeps the largest single weighted corner. One bin, one sample at (0.5, 0.5) (no half-pixel
  // shift): all weights 0.25.
  auto r = runOne("RoiAlign",
                  {{"x", Tensor::floats({1, 1, 2, 2}, {4, 4, 4, 4})}, {"rois", Tensor::floats({1, 4}, {0, 0, 1, 1})},
                   {"bi", i64({1}, {0})}},
                  1, attrs({Attribute::makeString("mode", "max"), Attribute::makeInt("sampling_ratio", 1),
                         Attribute::makeString("coordinate_transformation_mode", "output_half_pixel")}),
                  16);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {1, 1, 1, 1}, {1.f});
}

TEST(IndexOps, RoiAlignRejectsBadBatchIndex) {
  auto r = runOne("RoiAlign",
                  {{"x", roiX()}, {"rois", Tensor::floats({1, 4}, {0, 0, 1, 1})}, {"bi", i64({1}, {2})}}, 1, {}, 16);
  expectFailsWith(r, {"batch_indices", "2"});
}

TEST(IndexOps, MaxRoiPoolMatchesTorchvision) {
  // rois (batch, x1, y1, x2, y2), spatial_scale 0.8, pooled 2x3; torchvision roi_pool.
  auto r = runOne("MaxRoiPool",
                  {{"x", roiX()},
                   {"rois", Tensor::floats({3, 5}, {1, 0.5f, 0.7f, 4.6f, 3.9f, 0, -1.2f, 1.0f, 2.0f, 6.5f, 1, 2.2f, 2.1f, 2.4f, 2.3f})}},
                  1, attrs({Attribute::makeInts("pooled_shape", {2, 3}), Attribute::makeFloat("spatial_scale", 0.8f)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {3, 2, 2, 3},
             {2.39385f, 2.99803f, 2.36312f, 2.22291f, 2.99803f, 2.36312f, 2.26692f, 0.551713f, 2.32167f, 2.35328f, 2.99856f, 2.23357f,
              2.5638f, 2.5638f, 2.97182f, 0.100867f, 2.00871f, 2.97182f, 2.4533f, 2.4533f, 2.98393f, 2.4533f, 2.4533f, 2.99267f,
              2.99803f, 2.99803f, 2.99803f, 2.99803f, 2.99803f, 2.99803f, -1.55106f, -1.55106f, -1.55106f, -1.55106f, -1.55106f, -1.55106f},
             1e-4f);
}

TEST(IndexOps, MaxRoiPoolRejectsBadBatchIndex) {
  auto r = runOne("MaxRoiPool", {{"x", roiX()}, {"rois", Tensor::floats({1, 5}, {5, 0, 0, 1, 1})}}, 1,
                  attrs({Attribute::makeInts("pooled_shape", {1, 1})}));
  expectFailsWith(r, {"rois", "batch index"});
}

TEST(IndexOps, TopKOpset1AttributeAndTiesLowerIndexFirst) {
  auto r = runOne("TopK", {{"x", Tensor::floats({2, 5}, {3, 1, 3, 2, 3, 0, 0, 5, 0, 5})}}, 2, attrs({Attribute::makeInt("k", 3)}), 1);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {2, 3}, {3, 3, 3, 5, 5, 0});
  expectInts((*r)[1], {2, 3}, {0, 2, 4, 2, 4, 0});
}

TEST(IndexOps, TopKSmallestOnIntsAlongAxis0) {
  auto r = runOne("TopK", {{"x", i64({3, 2}, {7, -1, 2, -1, 2, 9})}, {"k", i64({1}, {2})}}, 2,
                  attrs({Attribute::makeInt("axis", 0), Attribute::makeInt("largest", 0)}), 11);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], {2, 2}, {2, -1, 2, -1});
  expectInts((*r)[1], {2, 2}, {1, 0, 2, 1});
}

TEST(IndexOps, TopKMatchesAStableSortOfEachLineForEveryK) {
  // [3, 70, 4] along axis 1 (a line of 70, strided) and [5, 70] along its last axis, values with many ties
  // (negative and positive, both zeros alike, both infinities) and a NaN in some lines (NaN ranks above
  // every number when largest, below when smallest), k from 0 to 70
  // on both sides of the insertion path's limit (64), beyond it a whole sort (k at least a quarter of the
  // line) or a partial one (lines of 300): values and indices equal a stable sort's first k.
  for (auto [dims, axis] :
       std::vector<std::pair<std::vector<int64_t>, int64_t>>{{{3, 70, 4}, 1}, {{5, 70}, 1}, {{2, 300}, 1}}) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t q = 0; q < n; ++q)
      v[static_cast<size_t>(q)] = q % 53 == 7   ? std::numeric_limits<float>::quiet_NaN()
                                  : q % 29 == 3 ? -0.0f
                                  : q % 31 == 5 ? -std::numeric_limits<float>::infinity()
                                  : q % 41 == 9 ? std::numeric_limits<float>::infinity()
                                                : static_cast<float>((q * 37) % 11 - 5);
    const int64_t inner = dims.size() == 3 ? dims[2] : 1, len = dims[static_cast<size_t>(axis)];
    for (const int64_t k : {0, 1, 5, 16, 64, 65, 70})
      for (const bool largest : {true, false}) {
        auto r =
            runOne("TopK", {{"x", Tensor::floats(dims, v)}, {"k", i64({1}, {k})}}, 2,
                   attrs({Attribute::makeInt("axis", axis), Attribute::makeInt("largest", largest)}), 11);
        ASSERT_TRUE(r.ok()) << r.error().message;
        const auto vals = (*r)[0].toFloats();
        const auto idx = (*r)[1].toInt64s();
        for (int64_t line = 0; line < n / len; ++line) {
          const int64_t o = line / inner, i = line % inner;
          auto at = [&](int64_t j) { return v[static_cast<size_t>((o * len + j) * inner + i)]; };
          std::vector<int64_t> ord(static_cast<size_t>(len));
          std::iota(ord.begin(), ord.end(), 0);
          std::stable_sort(ord.begin(), ord.end(), [&](int64_t a, int64_t b) {
            const float x = at(a), y = at(b);
            if (std::isnan(x) || std::isnan(y))
              return std::isnan(x) && !std::isnan(y) ? largest : !std::isnan(x) && !largest;
            return largest ? x > y : x < y;
          });
          for (int64_t j = 0; j < k; ++j) {
            const auto out = static_cast<size_t>((o * k + j) * inner + i);
            ASSERT_EQ(idx[out], ord[static_cast<size_t>(j)])
                << "k " << k << (largest ? " largest" : " smallest") << " line " << line << " rank " << j;
            const float want = at(ord[static_cast<size_t>(j)]);
            ASSERT_TRUE(std::isnan(want) ? std::isnan(vals[out]) : vals[out] == want);
          }
        }
      }
  }
}

TEST(IndexOps, TopKRejectsKAboveAxis) {
  auto r = runOne("TopK", {{"x", Tensor::floats({3}, {1, 2, 3})}, {"k", i64({1}, {4})}}, 2, {}, 11);
  expectFailsWith(r, {"k = 4"});
}

TEST(IndexOps, TopKLargeRowsIsFast) {
  const Tensor x = noise({8, 200000}, 7);
  const auto t0 = std::chrono::steady_clock::now();
  auto r = runOne("TopK", {{"x", x}, {"k", i64({1}, {100})}}, 2, {}, 11);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LT(s, 5.0);
  const auto v = (*r)[0].toFloats();
  const auto in = x.toFloats();
  const auto idx = (*r)[1].toInt64s();
  for (size_t k = 1; k < 100; ++k) EXPECT_GE(v[k - 1], v[k]);
  for (size_t k = 0; k < 100; ++k) EXPECT_EQ(v[k], in[static_cast<size_t>(idx[k])]);
}

// Gather copies a row of `inner` elements a pick (ops_tensor.cpp): rows of 4 and 8 bytes, short rows in
// 16-byte moves, other widths, an axis past 0 (several outer blocks), negative indices; each against an
// index loop over the same table.
TEST(IndexOps, GatherRowsOfEveryWidthMatchAnIndexLoop) {
  struct Case {
    std::vector<int64_t> dims;
    int64_t axis;
    std::vector<int64_t> picks;
    std::vector<int64_t> pickDims;
  };
  for (const Case& c : {Case{{5, 1}, 0, {4, 0, -1, 2}, {4}}, Case{{5, 12}, 0, {1, -5, 3}, {3}},
                        Case{{7, 16}, 0, {6, 6, 0, -2, 3, 1}, {2, 3}}, Case{{4, 68}, 0, {3, 0}, {2}},
                        Case{{2, 5, 3}, 1, {4, -1, 0}, {3}}, Case{{3, 6}, 1, {2}, {}}}) {
    const Tensor x = noise(c.dims, 11);
    const std::vector<float> xv = x.toFloats();
    auto r = runOne("Gather", {{"x", x}, {"i", i64(c.pickDims, c.picks)}}, 1,
                    attrs({Attribute::makeInt("axis", c.axis)}), 13);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto ax = static_cast<size_t>(c.axis);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < ax; ++d) outer *= c.dims[d];
    for (size_t d = ax + 1; d < c.dims.size(); ++d) inner *= c.dims[d];
    const int64_t dim = c.dims[ax];
    std::vector<float> want;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t p : c.picks)
        for (int64_t e = 0; e < inner; ++e)
          want.push_back(xv[static_cast<size_t>((o * dim + (p < 0 ? p + dim : p)) * inner + e)]);
    std::vector<int64_t> dims(c.dims.begin(), c.dims.begin() + c.axis);
    dims.insert(dims.end(), c.pickDims.begin(), c.pickDims.end());
    dims.insert(dims.end(), c.dims.begin() + c.axis + 1, c.dims.end());
    EXPECT_EQ((*r)[0].dims(), dims);
    EXPECT_EQ((*r)[0].toFloats(), want) << "table of " << c.dims.size() << " dims, axis " << c.axis;
  }
  // int64 rows of one element (a column of a table of ids).
  auto r = runOne(
      "Gather", {{"x", i64({3, 4}, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23})}, {"i", i64({2}, {3, -4})}},
      1, attrs({Attribute::makeInt("axis", 1)}), 13);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], {3, 2}, {3, 0, 13, 10, 23, 20});
}

TEST(IndexOps, GatherOutOfRangeNamesTheIndexAndWritesNothing) {
  auto r = runOne("Gather", {{"x", iota({4, 2})}, {"i", i64({3}, {1, 4, 0})}}, 1,
                  attrs({Attribute::makeInt("axis", 0)}), 13);
  expectFailsWith(r, {"index 4", "[-4, 4)"});
}

TEST(IndexOps, GatherElementsOutOfRangeNamesInputAndIndex) {
  auto r = runOne("GatherElements", {{"x", Tensor::floats({2, 2}, {1, 2, 3, 4})}, {"i", i64({2, 2}, {0, 1, 2, 0})}}, 1,
                  attrs({Attribute::makeInt("axis", 1)}), 13);
  expectFailsWith(r, {"'indices'", "index 2", "[-2, 2)"});
}

TEST(IndexOps, GatherElementsSmallerIndexShape) {
  // indices [2,1] on data [2,3] along axis 1: out[i][0] = data[i][idx[i][0]].
  auto r = runOne("GatherElements", {{"x", iota({2, 3})}, {"i", i64({2, 1}, {-1, 1})}}, 1, attrs({Attribute::makeInt("axis", 1)}), 13);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {2, 1}, {2, 4});
}

TEST(IndexOps, GatherElementsMatchesALoopAlongEveryAxisForAnyThreadCount) {
  // data [4, 6, 64, 24]; indices smaller off the axis on two axes, 16 long on the axis, negative ones
  // among them: out[p] = data[p with its axis coordinate replaced by idx[p]], with 1 to 4 threads (the
  // rows' blocks start their coordinates mid-tensor).
  const std::vector<int64_t> dd{4, 6, 64, 24};
  const Tensor data = noise(dd, 3);
  const auto dv = data.toFloats();
  for (int64_t axis = 0; axis < 4; ++axis) {
    std::vector<int64_t> id{3, 5, 64, 20};
    id[static_cast<size_t>(axis)] = 16;
    int64_t n = 1;
    for (int64_t d : id) n *= d;
    const int64_t dim = dd[static_cast<size_t>(axis)];
    std::vector<int64_t> iv(static_cast<size_t>(n));
    for (int64_t q = 0; q < n; ++q) iv[static_cast<size_t>(q)] = (q * 7919 + q / 3) % (2 * dim) - dim;
    for (int threads : {1, 2, 3, 4}) {
      fw::ExecOptions o;
      o.threads = threads;
      auto r = fw::runGraph(oneNode("GatherElements", {{"x", data}, {"i", i64(id, iv)}}, 1,
                                    attrs({Attribute::makeInt("axis", axis)}), 13),
                            {data, i64(id, iv)}, o);
      ASSERT_TRUE(r.ok()) << r.error().message;
      ASSERT_EQ((*r)[0].dims(), id);
      const auto got = (*r)[0].toFloats();
      std::vector<int64_t> at(4);
      for (int64_t q = 0; q < n; ++q) {
        for (int64_t d = 3, rem = q; d >= 0; --d) {
          at[static_cast<size_t>(d)] = rem % id[static_cast<size_t>(d)];
          rem /= id[static_cast<size_t>(d)];
        }
        const int64_t v = iv[static_cast<size_t>(q)];
        at[static_cast<size_t>(axis)] = v < 0 ? v + dim : v;
        const int64_t src = ((at[0] * dd[1] + at[1]) * dd[2] + at[2]) * dd[3] + at[3];
        ASSERT_EQ(got[static_cast<size_t>(q)], dv[static_cast<size_t>(src)])
            << "axis " << axis << ", " << threads << " threads, element " << q;
      }
    }
  }
  // A bad index far into the tensor is named as the serial check names it, from the parallel copy.
  std::vector<int64_t> id{4, 6, 64, 16}, iv(4 * 6 * 64 * 16, 1);
  iv[20000] = 24;
  auto r = runOne("GatherElements", {{"x", data}, {"i", i64(id, iv)}}, 1,
                  attrs({Attribute::makeInt("axis", 3)}), 13);
  expectFailsWith(r, {"'indices'", "index 24 at position 20000", "[-24, 24)"});
}

TEST(IndexOps, ScatterElementsMulReductionAndNegativeAxis) {
  auto r = runOne("ScatterElements",
                  {{"x", Tensor::floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"i", i64({2, 2}, {0, 0, 2, -1})},
                   {"u", Tensor::floats({2, 2}, {2, 3, 10, 0.5f})}},
                  1, attrs({Attribute::makeInt("axis", -1), Attribute::makeString("reduction", "mul")}), 16);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {2, 3}, {6, 2, 3, 4, 5, 30});
}

TEST(IndexOps, ScatterElementsOutOfRange) {
  auto r = runOne("ScatterElements",
                  {{"x", Tensor::floats({3}, {1, 2, 3})}, {"i", i64({1}, {-4})}, {"u", Tensor::floats({1}, {9})}}, 1, {}, 13);
  expectFailsWith(r, {"'indices'", "index -4"});
}

// Every reduction, along the first, a middle and the last axis of [5, 6, 7] data, from [9, 4, 7] indices
// (more rows than the data has along the axis: duplicates accumulate in index order; negative ones count from
// the end) against a loop over the elements; a bad index deep in the tensor is named with its position.
TEST(IndexOps, ScatterElementsEveryReductionAlongEveryAxisMatchesALoop) {
  const std::vector<int64_t> dd{5, 6, 7};
  std::vector<float> dv(5 * 6 * 7);
  for (size_t k = 0; k < dv.size(); ++k) dv[k] = 0.5f + static_cast<float>(k % 11) * 0.25f;
  for (int64_t axis = 0; axis < 3; ++axis) {
    std::vector<int64_t> id = dd;
    id[static_cast<size_t>(axis)] = 9;
    if (axis != 1) id[1] = 4;  // smaller than the data off the axis
    const int64_t n = id[0] * id[1] * id[2], dim = dd[static_cast<size_t>(axis)];
    std::vector<int64_t> iv(static_cast<size_t>(n));
    std::vector<float> uv(static_cast<size_t>(n));
    for (int64_t q = 0; q < n; ++q) {
      iv[static_cast<size_t>(q)] = (q * 7 + q / 5) % (2 * dim) - dim;  // in [-dim, dim)
      uv[static_cast<size_t>(q)] = 1.0f + static_cast<float>(q % 5) * 0.5f;
    }
    for (const char* red : {"none", "add", "mul", "max", "min"}) {
      std::vector<float> want = dv;
      for (int64_t q = 0; q < n; ++q) {
        int64_t at[3] = {q / (id[1] * id[2]), q / id[2] % id[1], q % id[2]};
        const int64_t v = iv[static_cast<size_t>(q)];
        at[axis] = v < 0 ? v + dim : v;
        float& w = want[static_cast<size_t>((at[0] * dd[1] + at[1]) * dd[2] + at[2])];
        const float u = uv[static_cast<size_t>(q)];
        const std::string r = red;
        w = r == "none"  ? u
            : r == "add" ? w + u
            : r == "mul" ? w * u
            : r == "max" ? std::max(w, u)
                         : std::min(w, u);
      }
      auto r = runOne("ScatterElements",
                      {{"x", Tensor::floats(dd, dv)}, {"i", i64(id, iv)}, {"u", Tensor::floats(id, uv)}}, 1,
                      attrs({Attribute::makeInt("axis", axis), Attribute::makeString("reduction", red)}), 16);
      ASSERT_TRUE(r.ok()) << r.error().message;
      ASSERT_EQ((*r)[0].dims(), dd);
      EXPECT_EQ((*r)[0].toFloats(), want) << "axis " << axis << ", reduction " << red;
    }
    iv[static_cast<size_t>(n - 3)] = dim;
    auto bad = runOne(
        "ScatterElements", {{"x", Tensor::floats(dd, dv)}, {"i", i64(id, iv)}, {"u", Tensor::floats(id, uv)}},
        1, attrs({Attribute::makeInt("axis", axis), Attribute::makeString("reduction", "add")}), 16);
    expectFailsWith(bad,
                    {"'indices'", "index " + std::to_string(dim) + " at position " + std::to_string(n - 3)});
  }
}

TEST(IndexOps, GatherNDBatchDims2) {
  // data [2,2,3], indices [2,2,1] with batch_dims 2: out[b0][b1] = data[b0][b1][idx].
  auto r = runOne("GatherND", {{"x", iota({2, 2, 3})}, {"i", i64({2, 2, 1}, {2, 0, -1, 1})}}, 1,
                  attrs({Attribute::makeInt("batch_dims", 2)}), 13);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {2, 2}, {2, 3, 8, 10});
}

TEST(IndexOps, ScatterNDOutOfRangeNamesIndex) {
  auto r = runOne("ScatterND",
                  {{"x", iota({2, 2})}, {"i", i64({1, 2}, {1, 5})}, {"u", Tensor::floats({1}, {9})}}, 1, {}, 16);
  expectFailsWith(r, {"'indices'", "index 5"});
}

TEST(IndexOps, CompressShortConditionAndErrorBeyondAxis) {
  auto r = runOne("Compress", {{"x", iota({3, 2})}, {"c", Tensor::fromVector(DType::Bool, {2}, std::vector<uint8_t>{0, 1})}}, 1,
                  attrs({Attribute::makeInt("axis", 0)}), 11);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {1, 2}, {2, 3});
  auto bad = runOne("Compress", {{"x", iota({2})}, {"c", Tensor::fromVector(DType::Bool, {3}, std::vector<uint8_t>{0, 0, 1})}}, 1,
                    {}, 11);
  expectFailsWith(bad, {"condition", "index 2"});
}

TEST(IndexOps, UniqueUnsortedInts) {
  auto r = runOne("Unique", {{"x", i64({7}, {5, 3, 5, -2, 3, 3, 9})}}, 4, attrs({Attribute::makeInt("sorted", 0)}), 11);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectInts((*r)[0], {4}, {5, 3, -2, 9});
  expectInts((*r)[1], {4}, {0, 1, 3, 6});
  expectInts((*r)[2], {7}, {0, 1, 0, 2, 1, 1, 3});
  expectInts((*r)[3], {4}, {2, 3, 1, 1});
}

TEST(IndexOps, ReverseSequenceWithZeroAndFullLengths) {
  // [time=3, batch=3, 1], lens 0, 3, 2.
  auto r = runOne("ReverseSequence", {{"x", iota({3, 3, 1})}, {"l", i64({3}, {0, 3, 2})}}, 1,
                  attrs({Attribute::makeInt("batch_axis", 1), Attribute::makeInt("time_axis", 0)}), 10);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {3, 3, 1}, {0, 7, 5, 3, 4, 2, 6, 1, 8});
  auto bad = runOne("ReverseSequence", {{"x", iota({3, 3, 1})}, {"l", i64({3}, {0, 4, 2})}}, 1,
                    attrs({Attribute::makeInt("batch_axis", 1), Attribute::makeInt("time_axis", 0)}), 10);
  expectFailsWith(bad, {"sequence_lens", "4"});
}

TEST(IndexOps, MaxUnpool1DWithPadsAndBadIndex) {
  // X [1,2,2], kernel 2, stride 2, pads 1/1: output length (2-1)*2 - 2 + 2 = 2; indices per whole tensor.
  auto r = runOne("MaxUnpool", {{"x", Tensor::floats({1, 2, 2}, {1, 2, 3, 4})}, {"i", i64({1, 2, 2}, {1, 0, 3, 2})}}, 1,
                  attrs({Attribute::makeInts("kernel_shape", {2}), Attribute::makeInts("strides", {2}), Attribute::makeInts("pads", {1, 1})}),
                  11);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {1, 2, 2}, {2, 1, 4, 3});
  auto bad = runOne("MaxUnpool", {{"x", Tensor::floats({1, 1, 2}, {1, 2})}, {"i", i64({1, 1, 2}, {0, 4})}}, 1,
                    attrs({Attribute::makeInts("kernel_shape", {2}), Attribute::makeInts("strides", {2})}), 11);
  expectFailsWith(bad, {"'I'", "index 4"});
}

TEST(IndexOps, SpaceToDepthThenDepthToSpaceDcrIsIdentity) {
  const Tensor x = noise({2, 3, 4, 6}, 3);
  auto s = runOne("SpaceToDepth", {{"x", x}}, 1, attrs({Attribute::makeInt("blocksize", 2)}), 13);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ((*s)[0].dims(), (std::vector<int64_t>{2, 12, 2, 3}));
  auto d = runOne("DepthToSpace", {{"y", (*s)[0]}}, 1, attrs({Attribute::makeInt("blocksize", 2)}), 13);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ((*d)[0].toFloats(), x.toFloats());
}

TEST(IndexOps, DepthToSpaceMatchesItsIndexDefinitionForEveryBlockSizeAndMode) {
  // y[n, c, h*b + i, w*b + j] = x[n, ch, h, w] with ch = (i*b + j)*Co + c (DCR) or c*b*b + i*b + j (CRD),
  // for the block sizes the executor unrolls (2-4) and others, on floats and on int64.
  for (int64_t bs = 1; bs <= 5; ++bs)
    for (const std::string mode : {"DCR", "CRD"})
      for (const bool ints : {false, true}) {
        const int64_t N = 2, Co = 3, C = Co * bs * bs, H = 3, W = 5;
        const Tensor xf = noise({N, C, H, W}, static_cast<uint64_t>(bs));
        std::vector<int64_t> iv(static_cast<size_t>(N * C * H * W));
        for (size_t k = 0; k < iv.size(); ++k) iv[k] = static_cast<int64_t>(k) * 7 - 40;
        const Tensor x = ints ? Tensor::int64s({N, C, H, W}, iv) : xf;
        auto r =
            runOne("DepthToSpace", {{"x", x}}, 1,
                   attrs({Attribute::makeInt("blocksize", bs), Attribute::makeString("mode", mode)}), 13);
        ASSERT_TRUE(r.ok()) << r.error().message;
        ASSERT_EQ((*r)[0].dims(), (std::vector<int64_t>{N, Co, H * bs, W * bs}));
        const auto xv = x.toFloats(), yv = (*r)[0].toFloats();
        for (int64_t n = 0; n < N; ++n)
          for (int64_t c = 0; c < Co; ++c)
            for (int64_t h = 0; h < H; ++h)
              for (int64_t i = 0; i < bs; ++i)
                for (int64_t w = 0; w < W; ++w)
                  for (int64_t j = 0; j < bs; ++j) {
                    const int64_t ch = mode == "DCR" ? (i * bs + j) * Co + c : c * bs * bs + i * bs + j;
                    const auto at =
                        static_cast<size_t>(((n * Co + c) * H * bs + h * bs + i) * W * bs + w * bs + j);
                    ASSERT_EQ(yv[at], xv[static_cast<size_t>(((n * C + ch) * H + h) * W + w)])
                        << "block " << bs << " " << mode << (ints ? " int64" : " float");
                  }
      }
}

// Thousands of boxes: the selection must be greedy NMS (checked by its defining properties) and fast.
TEST(IndexOps, NonMaxSuppressionThousandsOfBoxes) {
  const int64_t B = 2, C = 3, N = 3000;
  std::vector<float> boxes(static_cast<size_t>(B * N * 4)), scores(static_cast<size_t>(B * C * N));
  uint64_t s = 12345;
  auto rnd = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>((s >> 40) % 100000) / 100000.f;
  };
  for (int64_t k = 0; k < B * N; ++k) {
    const float y = rnd() * 500, x = rnd() * 500, h = 5 + rnd() * 60, w = 5 + rnd() * 60;
    boxes[static_cast<size_t>(k * 4)] = y;
    boxes[static_cast<size_t>(k * 4 + 1)] = x;
    boxes[static_cast<size_t>(k * 4 + 2)] = y + h;
    boxes[static_cast<size_t>(k * 4 + 3)] = x + w;
  }
  for (auto& v : scores) v = rnd();
  const float iouThr = 0.5f, scoreThr = 0.05f;
  const int64_t maxOut = 200;
  const auto t0 = std::chrono::steady_clock::now();
  auto r = runOne("NonMaxSuppression",
                  {{"b", Tensor::floats({B, N, 4}, boxes)}, {"s", Tensor::floats({B, C, N}, scores)},
                   {"m", i64({1}, {maxOut})}, {"iou", Tensor::floats({1}, {iouThr})}, {"st", Tensor::floats({1}, {scoreThr})}},
                  1, {}, 11);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LT(secs, 5.0);
  const auto sel = (*r)[0].toInt64s();
  ASSERT_EQ((*r)[0].dims().size(), 2u);
  auto iou = [&](int64_t b, int64_t i, int64_t j) {
    const float* p = &boxes[static_cast<size_t>((b * N + i) * 4)];
    const float* q = &boxes[static_cast<size_t>((b * N + j) * 4)];
    const float ih = std::max(0.f, std::min(p[2], q[2]) - std::max(p[0], q[0]));
    const float iw = std::max(0.f, std::min(p[3], q[3]) - std::max(p[1], q[1]));
    const float inter = ih * iw;
    return inter / ((p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter);
  };
  const int64_t rows = (*r)[0].dims()[0];
  int64_t row = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t c = 0; c < C; ++c) {
      std::vector<int64_t> picked;
      while (row < rows && sel[static_cast<size_t>(row * 3)] == b && sel[static_cast<size_t>(row * 3 + 1)] == c)
        picked.push_back(sel[static_cast<size_t>(row++ * 3 + 2)]);
      ASSERT_LE(static_cast<int64_t>(picked.size()), maxOut);
      const float* sc = &scores[static_cast<size_t>((b * C + c) * N)];
      for (size_t k = 0; k < picked.size(); ++k) {
        EXPECT_GT(sc[picked[k]], scoreThr);
        if (k) {
          EXPECT_GE(sc[picked[k - 1]], sc[picked[k]]);
        }
        for (size_t j = 0; j < k; ++j) EXPECT_LE(iou(b, picked[j], picked[k]), iouThr);
      }
      // Every box scoring above the last pick that was not picked is suppressed by a higher pick.
      const float last = picked.empty() ? 2.f : sc[picked.back()];
      std::vector<char> isPicked(static_cast<size_t>(N), 0);
      for (int64_t p : picked) isPicked[static_cast<size_t>(p)] = 1;
      for (int64_t j = 0; j < N; ++j) {
        if (isPicked[static_cast<size_t>(j)] || sc[j] <= scoreThr || sc[j] < last) continue;
        bool suppressed = false;
        for (int64_t p : picked)
          if (sc[p] >= sc[j] && iou(b, p, j) > iouThr) suppressed = true;
        EXPECT_TRUE(suppressed) << "box " << j << " of batch " << b << " class " << c;
      }
    }
  EXPECT_EQ(row, rows);
}

// The kept boxes are tested a block at a time on vector lanes: the selection must be the greedy one of a pair
// at a time, exactly, with lists of hundreds of kept boxes (past a block's end), boxes of no area, corners in
// either order, NaN coordinates and scores tied, in both box layouts.
TEST(IndexOps, NonMaxSuppressionKeepsWhatAPairAtATimeKeeps) {
  const int64_t N = 700;
  uint64_t s = 777;
  auto rnd = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>((s >> 40) % 100000) / 100000.f;
  };
  std::vector<float> boxes(static_cast<size_t>(N * 4)), scores(static_cast<size_t>(N));
  for (int64_t k = 0; k < N; ++k) {
    float* b = &boxes[static_cast<size_t>(k * 4)];
    const float y = rnd() * 300, x = rnd() * 300, h = 2 + rnd() * 40, w = 2 + rnd() * 40;
    b[0] = y, b[1] = x, b[2] = y + h, b[3] = x + w;
    if (k % 7 == 0) std::swap(b[0], b[2]);  // corners in the other order
    if (k % 29 == 0) b[2] = b[0];           // no area
    if (k % 53 == 0) b[1] = std::nanf("");
    scores[static_cast<size_t>(k)] = k % 11 == 0 ? 0.5f : rnd();  // ties
  }
  // The same boxes as [x_center, y_center, width, height] (center_point_box 1): corners swapped give a
  // negative height.
  std::vector<float> centered(boxes.size());
  for (int64_t k = 0; k < N; ++k) {
    const float* b = &boxes[static_cast<size_t>(k * 4)];
    float* c = &centered[static_cast<size_t>(k * 4)];
    c[0] = (b[1] + b[3]) / 2, c[1] = (b[0] + b[2]) / 2, c[2] = b[3] - b[1], c[3] = b[2] - b[0];
  }
  for (int64_t cpb : {0, 1}) {
    const std::vector<float>& given = cpb ? centered : boxes;
    // The greedy selection, a pair at a time (the operator's definition).
    struct Bx {
      float y0, x0, y1, x1, area;
    };
    std::vector<Bx> bx(static_cast<size_t>(N));
    for (int64_t k = 0; k < N; ++k) {
      const float* b = &given[static_cast<size_t>(k * 4)];
      Bx& r = bx[static_cast<size_t>(k)];
      if (cpb) {
        r = {b[1] - b[3] / 2, b[0] - b[2] / 2, b[1] + b[3] / 2, b[0] + b[2] / 2, 0};
      } else {
        r = {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3]), 0};
      }
      r.area = (r.x1 - r.x0) * (r.y1 - r.y0);
    }
    auto suppresses = [](const Bx& a, const Bx& b) {
      const float ix0 = std::max(a.x0, b.x0), ix1 = std::min(a.x1, b.x1);
      if (ix1 <= ix0) return false;
      const float iy0 = std::max(a.y0, b.y0), iy1 = std::min(a.y1, b.y1);
      if (iy1 <= iy0) return false;
      if (a.area <= 0 || b.area <= 0) return false;
      const float inter = (ix1 - ix0) * (iy1 - iy0);
      const float uni = a.area + b.area - inter;
      if (uni <= 0) return false;
      return inter / uni > 0.3f;
    };
    std::vector<int64_t> order(static_cast<size_t>(N));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return scores[static_cast<size_t>(a)] > scores[static_cast<size_t>(b)];
    });
    std::vector<int64_t> want;
    for (int64_t j : order) {
      bool drop = false;
      for (int64_t k : want)
        drop = drop || suppresses(bx[static_cast<size_t>(k)], bx[static_cast<size_t>(j)]);
      if (!drop) want.push_back(j);
    }
    ASSERT_GT(want.size(), 200u);                         // long kept lists
    ASSERT_LT(want.size(), static_cast<size_t>(N - 50));  // and many suppressed
    auto r = runOne("NonMaxSuppression",
                    {{"b", Tensor::floats({1, N, 4}, given)},
                     {"s", Tensor::floats({1, 1, N}, scores)},
                     {"m", i64({1}, {N})},
                     {"iou", Tensor::floats({1}, {0.3f})}},
                    1, attrs({Attribute::makeInt("center_point_box", cpb)}), 11);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto sel = (*r)[0].toInt64s();
    ASSERT_EQ(sel.size(), want.size() * 3) << "center_point_box " << cpb;
    for (size_t k = 0; k < want.size(); ++k)
      EXPECT_EQ(sel[k * 3 + 2], want[k]) << "pick " << k << ", center_point_box " << cpb;
  }
}

TEST(IndexOps, RoiAlignRejectsNonFiniteRoi) {
  auto r = runOne("RoiAlign",
                  {{"x", roiX()}, {"rois", Tensor::floats({1, 4}, {0, std::nanf(""), 1, 1})}, {"bi", i64({1}, {0})}}, 1, {}, 16);
  expectFailsWith(r, {"rois", "non-finite"});
}
