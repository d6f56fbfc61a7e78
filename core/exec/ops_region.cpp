// Sampling image regions: RoiAlign, MaxRoiPool, MaxUnpool, GridSample.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/exec/IndexUtil.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

using namespace indexing;

// ---- RoiAlign / MaxRoiPool ----------------------------------------------------------------------

// One bilinear sample: four corner offsets within a plane and their weights (all zero outside).
struct Sample {
  int64_t o[4];
  float w[4];
};

Sample bilinearSample(float y, float x, int64_t H, int64_t W) {
  Sample s{};
  if (!(y >= -1.f && y <= static_cast<float>(H) && x >= -1.f && x <= static_cast<float>(W))) return s;  // NaN too
  y = std::max(y, 0.f);
  x = std::max(x, 0.f);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= H - 1) {
    y0 = y1 = H - 1;
    y = static_cast<float>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= W - 1) {
    x0 = x1 = W - 1;
    x = static_cast<float>(x0);
  } else {
    x1 = x0 + 1;
  }
  const float ly = y - static_cast<float>(y0), lx = x - static_cast<float>(x0), hy = 1.f - ly, hx = 1.f - lx;
  s.o[0] = y0 * W + x0;
  s.o[1] = y0 * W + x1;
  s.o[2] = y1 * W + x0;
  s.o[3] = y1 * W + x1;
  s.w[0] = hy * hx;
  s.w[1] = hy * lx;
  s.w[2] = ly * hx;
  s.w[3] = ly * lx;
  return s;
}

// A roi's box in the map's coordinates, its bins' size and its samples a bin side (sampling_ratio, or the
// adaptive count): what opRoiAlign samples, and what decides its layout.
struct RoiBox {
  float sw, sh, binH, binW;
  int64_t gh, gw;
  int64_t perBin() const { return std::max<int64_t>(gh, 0) * std::max<int64_t>(gw, 0); }
};
RoiBox roiBox(const float* roi, float scale, float off, bool halfPixel, int64_t PH, int64_t PW,
              int64_t ratio) {
  RoiBox b{};
  b.sw = roi[0] * scale - off;
  b.sh = roi[1] * scale - off;
  float rw = roi[2] * scale - off - b.sw, rh = roi[3] * scale - off - b.sh;
  if (!halfPixel) {
    rw = std::max(rw, 1.f);
    rh = std::max(rh, 1.f);
  }
  b.binH = rh / static_cast<float>(PH);
  b.binW = rw / static_cast<float>(PW);
  b.gh = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rh / static_cast<float>(PH)));
  b.gw = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rw / static_cast<float>(PW)));
  return b;
}

// One sample's term for C channels of a channels-last map: acc[c] += (or, for max, the larger of acc[c] and)
// the four weighted corners, in the planes' loop's order. `first`: the bin's first sample (max: taken as is).
void roiSampleChannels(float* __restrict acc, const float* __restrict map, const Sample& p, int64_t C,
                       bool isMax, bool first) {
  const float* __restrict a = map + p.o[0] * C;
  const float* __restrict b = map + p.o[1] * C;
  const float* __restrict c = map + p.o[2] * C;
  const float* __restrict d = map + p.o[3] * C;
  const float w0 = p.w[0], w1 = p.w[1], w2 = p.w[2], w3 = p.w[3];
  if (!isMax) {
    for (int64_t ch = 0; ch < C; ++ch) acc[ch] += w0 * a[ch] + w1 * b[ch] + w2 * c[ch] + w3 * d[ch];
  } else if (first) {
    for (int64_t ch = 0; ch < C; ++ch)
      acc[ch] = std::max(std::max(w0 * a[ch], w1 * b[ch]), std::max(w2 * c[ch], w3 * d[ch]));
  } else {
    for (int64_t ch = 0; ch < C; ++ch)
      acc[ch] =
          std::max(acc[ch], std::max(std::max(w0 * a[ch], w1 * b[ch]), std::max(w2 * c[ch], w3 * d[ch])));
  }
}

Result<std::vector<int64_t>> roiBatchIndices(const OpContext& c, size_t k, int64_t rois, int64_t batch) {
  FW_ASSIGN_OR_RETURN(const RtTensor* bi, indexInput(c, k, "batch_indices"));
  if (bi->numel() != rois) return c.fail("input 'batch_indices' has " + str(bi->numel()) + " entries for " + str(rois) + " rois");
  std::vector<int64_t> v(bi->i(), bi->i() + rois);
  for (int64_t r = 0; r < rois; ++r)
    if (v[static_cast<size_t>(r)] < 0 || v[static_cast<size_t>(r)] >= batch)
      return c.fail("input 'batch_indices' has index " + str(v[static_cast<size_t>(r)]) + " at position " + str(r) +
                    ", out of range [0, " + str(batch) + ")");
  return v;
}

Status opRoiAlign(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X, rois and batch_indices");
  const RtTensor x = asFloat(c.input(0)), rois = asFloat(c.input(1));
  if (x.rank() != 4) return c.fail("input 'X' must be 4-D (N, C, H, W), got " + dimsStr(x.dims));
  if (rois.rank() != 2 || rois.dims[1] != 4) return c.fail("input 'rois' must be [num_rois, 4], got " + dimsStr(rois.dims));
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3], R = rois.dims[0];
  FW_ASSIGN_OR_RETURN(const std::vector<int64_t> bidx, roiBatchIndices(c, 2, R, N));
  const std::string mode = c.attrStr("mode", "avg");
  if (mode != "avg" && mode != "max") return c.fail("attribute 'mode' must be avg or max, got '" + mode + "'");
  const std::string ctm = c.attrStr("coordinate_transformation_mode", c.opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (ctm != "half_pixel" && ctm != "output_half_pixel")
    return c.fail("attribute 'coordinate_transformation_mode' must be half_pixel or output_half_pixel, got '" + ctm + "'");
  const bool halfPixel = ctm == "half_pixel";
  const int64_t PH = c.attrInt("output_height", 1), PW = c.attrInt("output_width", 1), ratio = c.attrInt("sampling_ratio", 0);
  const float scale = c.attrFloat("spatial_scale", 1.f);
  if (PH <= 0 || PW <= 0) return c.fail("attributes 'output_height' and 'output_width' must be positive");
  if (ratio < 0 || ratio > 4096) return c.fail("attribute 'sampling_ratio' must be in [0, 4096], got " + str(ratio));
  if (PH * PW > (1 << 26)) return c.fail("output_height x output_width too large");
  for (int64_t k = 0; k < R * 4; ++k)
    if (!std::isfinite(rois.f()[k])) return c.fail("input 'rois' has a non-finite coordinate in row " + str(k / 4));
  // Adaptive sampling (sampling_ratio 0) takes ceil(roi size / output size) samples per bin side; a
  // huge roi must not turn into billions of samples.
  if (ratio == 0)
    for (int64_t r = 0; r < R; ++r) {
      const float* roi = rois.f() + r * 4;
      const double gh = std::ceil(std::fabs(static_cast<double>(roi[3] - roi[1]) * scale) / static_cast<double>(PH));
      const double gw = std::ceil(std::fabs(static_cast<double>(roi[2] - roi[0]) * scale) / static_cast<double>(PW));
      if (gh * gw * static_cast<double>(PH * PW) > static_cast<double>(1 << 28))
        return c.fail("roi " + str(r) + " needs " + std::to_string(gh * gw) + " samples per bin (adaptive sampling_ratio); too many");
    }
  RtTensor y = RtTensor::alloc(x.dtype, {R, C, PH, PW});
  const bool isMax = mode == "max";
  const float off = halfPixel ? 0.5f : 0.f;
  // The samples' corner reads against the map's size: many rois over a small map read it channels-last
  // (a copy of it, once), a sample's four corners then C contiguous values each, on vector lanes; a few
  // rois over a large map keep the planes as they are. The same terms in the same order either way.
  double corners = 0;  // in doubles: a sampling_ratio up to 4096 over many rois and bins overflows int64
  for (int64_t r = 0; r < R; ++r)
    corners += 4.0 *
               static_cast<double>(roiBox(rois.f() + r * 4, scale, off, halfPixel, PH, PW, ratio).perBin()) *
               static_cast<double>(PH * PW);
  const bool channelsLast = C >= 4 && corners >= static_cast<double>(N * H * W);
  std::vector<float> xt;
  if (channelsLast) {
    xt.resize(static_cast<size_t>(N * H * W * C));
    parallelFor(N * H, W * C, [&](int64_t b, int64_t e) {
      for (int64_t nh = b; nh < e; ++nh) {
        const int64_t n = nh / H, h = nh % H;
        for (int64_t ch = 0; ch < C; ++ch) {
          const float* src = x.f() + ((n * C + ch) * H + h) * W;
          float* dst = xt.data() + nh * W * C + ch;
          for (int64_t w = 0; w < W; ++w) dst[w * C] = src[w];
        }
      }
    });
  }
  parallelFor(R, C * PH * PW * 16, [&](int64_t rb, int64_t re) {
    std::vector<Sample> samples;
    std::vector<float> acc(channelsLast ? static_cast<size_t>(C) : 0);
    for (int64_t r = rb; r < re; ++r) {
      const RoiBox box = roiBox(rois.f() + r * 4, scale, off, halfPixel, PH, PW, ratio);
      const float sw = box.sw, sh = box.sh, binH = box.binH, binW = box.binW;
      const int64_t gh = box.gh, gw = box.gw, per = box.perBin();
      const float count = static_cast<float>(std::max<int64_t>(per, 1));
      // Samples of every bin, shared by all channels.
      samples.clear();
      for (int64_t ph = 0; ph < PH; ++ph)
        for (int64_t pw = 0; pw < PW; ++pw)
          for (int64_t iy = 0; iy < gh; ++iy) {
            const float yy = sh + static_cast<float>(ph) * binH + (static_cast<float>(iy) + .5f) * binH / static_cast<float>(gh);
            for (int64_t ix = 0; ix < gw; ++ix) {
              const float xx = sw + static_cast<float>(pw) * binW + (static_cast<float>(ix) + .5f) * binW / static_cast<float>(gw);
              samples.push_back(bilinearSample(yy, xx, H, W));
            }
          }
      if (channelsLast) {
        const float* map = xt.data() + bidx[static_cast<size_t>(r)] * H * W * C;
        float* out = y.mf() + r * C * PH * PW;
        for (int64_t bin = 0; bin < PH * PW; ++bin) {
          std::fill(acc.begin(), acc.end(), 0.f);
          const Sample* s = samples.data() + bin * per;
          for (int64_t k = 0; k < per; ++k) roiSampleChannels(acc.data(), map, s[k], C, isMax, k == 0);
          for (int64_t ch = 0; ch < C; ++ch)
            out[ch * PH * PW + bin] =
                isMax ? acc[static_cast<size_t>(ch)] : acc[static_cast<size_t>(ch)] / count;
        }
        continue;
      }
      for (int64_t ch = 0; ch < C; ++ch) {
        const float* plane = x.f() + (bidx[static_cast<size_t>(r)] * C + ch) * H * W;
        float* out = y.mf() + (r * C + ch) * PH * PW;
        for (int64_t bin = 0; bin < PH * PW; ++bin) {
          const Sample* s = samples.data() + bin * per;
          float acc = 0.f;
          for (int64_t k = 0; k < per; ++k) {
            const Sample& p = s[k];
            if (isMax) {
              // As the ONNX reference: the largest weighted corner term.
              const float v = std::max(std::max(p.w[0] * plane[p.o[0]], p.w[1] * plane[p.o[1]]),
                                       std::max(p.w[2] * plane[p.o[2]], p.w[3] * plane[p.o[3]]));
              acc = k == 0 ? v : std::max(acc, v);
            } else {
              acc += p.w[0] * plane[p.o[0]] + p.w[1] * plane[p.o[1]] + p.w[2] * plane[p.o[2]] + p.w[3] * plane[p.o[3]];
            }
          }
          out[bin] = isMax ? acc : acc / count;
        }
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

Status opMaxRoiPool(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X and rois");
  const RtTensor x = asFloat(c.input(0)), rois = asFloat(c.input(1));
  if (x.rank() != 4) return c.fail("input 'X' must be 4-D (N, C, H, W), got " + dimsStr(x.dims));
  if (rois.rank() != 2 || rois.dims[1] != 5)
    return c.fail("input 'rois' must be [num_rois, 5] (batch_id, x1, y1, x2, y2), got " + dimsStr(rois.dims));
  const std::vector<int64_t> pooled = c.attrInts("pooled_shape");
  if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0) return c.fail("attribute 'pooled_shape' must be two positive ints");
  const float scale = c.attrFloat("spatial_scale", 1.f);
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3], R = rois.dims[0];
  const int64_t PH = pooled[0], PW = pooled[1];
  for (int64_t r = 0; r < R; ++r) {
    const float b = rois.f()[r * 5];
    if (!(b >= 0) || b >= static_cast<float>(N) || b != std::floor(b))
      return c.fail("input 'rois' has batch index " + std::to_string(b) + " in row " + str(r) + ", out of range [0, " + str(N) + ")");
    for (int k = 1; k < 5; ++k)
      if (!std::isfinite(rois.f()[r * 5 + k])) return c.fail("input 'rois' has a non-finite coordinate in row " + str(r));
  }
  RtTensor y = RtTensor::alloc(x.dtype, {R, C, PH, PW});
  parallelFor(R * C, PH * PW * 8, [&](int64_t b, int64_t e) {
    for (int64_t rc = b; rc < e; ++rc) {
      const int64_t r = rc / C, ch = rc % C;
      const float* roi = rois.f() + r * 5;
      auto px = [&](float v) {  // scaled, rounded, kept well inside int64
        return static_cast<int64_t>(std::round(std::clamp(v * scale, -1e12f, 1e12f)));
      };
      const int64_t x0 = px(roi[1]), y0 = px(roi[2]), x1 = px(roi[3]), y1 = px(roi[4]);
      const int64_t rh = std::max<int64_t>(y1 - y0 + 1, 1), rw = std::max<int64_t>(x1 - x0 + 1, 1);
      const float bh = static_cast<float>(rh) / static_cast<float>(PH), bw = static_cast<float>(rw) / static_cast<float>(PW);
      const float* plane = x.f() + (static_cast<int64_t>(roi[0]) * C + ch) * H * W;
      float* out = y.mf() + rc * PH * PW;
      for (int64_t ph = 0; ph < PH; ++ph) {
        const int64_t hs = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<float>(ph) * bh)) + y0, 0, H);
        const int64_t he = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<float>(ph + 1) * bh)) + y0, 0, H);
        for (int64_t pw = 0; pw < PW; ++pw) {
          const int64_t ws = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<float>(pw) * bw)) + x0, 0, W);
          const int64_t we = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<float>(pw + 1) * bw)) + x0, 0, W);
          float m = 0.f;
          if (he > hs && we > ws) {
            m = -std::numeric_limits<float>::infinity();
            for (int64_t h = hs; h < he; ++h)
              for (int64_t w = ws; w < we; ++w) m = std::max(m, plane[h * W + w]);
          }
          out[ph * PW + pw] = m;
        }
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- MaxUnpool ----------------------------------------------------------------------------------

Status opMaxUnpool(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input 'X'");
  FW_ASSIGN_OR_RETURN(const RtTensor* I, indexInput(c, 1, "I"));
  const RtTensor& x = c.input(0);
  if (x.rank() < 3) return c.fail("input 'X' must be (N, C, D1, ...), got " + dimsStr(x.dims));
  if (I->dims != x.dims) return c.fail("input 'I' shape " + dimsStr(I->dims) + " differs from X " + dimsStr(x.dims));
  const size_t sp = x.rank() - 2;
  const std::vector<int64_t> kernel = c.attrInts("kernel_shape");
  std::vector<int64_t> strides = c.attrInts("strides"), pads = c.attrInts("pads");
  if (kernel.size() != sp) return c.fail("attribute 'kernel_shape' must have " + str(static_cast<int64_t>(sp)) + " entries");
  if (strides.empty()) strides.assign(sp, 1);
  if (pads.empty()) pads.assign(2 * sp, 0);
  if (strides.size() != sp || pads.size() != 2 * sp) return c.fail("attributes 'strides'/'pads' do not match the spatial rank");
  for (size_t d = 0; d < sp; ++d)
    if (kernel[d] <= 0 || strides[d] <= 0 || kernel[d] > (1 << 30) || strides[d] > (1 << 30) || pads[d] < 0 || pads[d + sp] < 0)
      return c.fail("attributes 'kernel_shape'/'strides' must be positive and 'pads' non-negative");
  std::vector<int64_t> inferred = {x.dims[0], x.dims[1]};
  for (size_t d = 0; d < sp; ++d) {
    const int64_t v = (x.dims[d + 2] - 1) * strides[d] - pads[d] - pads[d + sp] + kernel[d];
    if (v < 0) return c.fail("attributes give a negative output size on spatial axis " + str(static_cast<int64_t>(d)));
    inferred.push_back(v);
  }
  std::vector<int64_t> od = inferred;
  if (c.has(2)) {
    od = c.input(2).toInts();
    if (od.size() != x.rank()) return c.fail("input 'output_shape' must have " + str(static_cast<int64_t>(x.rank())) + " entries, got " + dimsStr(od));
    for (int64_t v : od)
      if (v < 0) return c.fail("input 'output_shape' has a negative dim: " + dimsStr(od));
    if (od[0] != x.dims[0] || od[1] != x.dims[1]) return c.fail("input 'output_shape' " + dimsStr(od) + " differs from X in N or C");
  }
  // Indices are linear over the unpadded (inferred) shape; an explicit output_shape pads at the end.
  const int64_t total = numelOf(inferred);
  const std::vector<int64_t> ost = stridesOf(od);
  std::vector<int64_t> where(static_cast<size_t>(x.numel()));
  for (int64_t k = 0; k < x.numel(); ++k) {
    int64_t v = I->i()[k];
    if (v < 0 || v >= total) return c.fail("input 'I' has index " + str(v) + " at position " + str(k) + ", out of range [0, " + str(total) + ")");
    int64_t off = 0;
    for (size_t d = x.rank(); d-- > 0;) {
      const int64_t coord = v % inferred[d];
      v /= inferred[d];
      if (coord >= od[d]) return c.fail("input 'I' index " + str(I->i()[k]) + " falls outside output_shape " + dimsStr(od));
      off += coord * ost[d];
    }
    where[static_cast<size_t>(k)] = off;
  }
  RtTensor y = RtTensor::zeros(x.dtype, od);
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T>) {
      const T* src = dataOf<T>(x);
      T* dst = mdataOf<T>(y);
      for (int64_t k = 0; k < x.numel(); ++k) dst[where[static_cast<size_t>(k)]] = src[k];
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// ---- GridSample ---------------------------------------------------------------------------------

enum class Pad { Zeros, Border, Reflection };

// Grid coordinate in [-1, 1] to a pixel coordinate on an axis of `size`.
inline float unnormalize(float v, int64_t size, bool alignCorners) {
  const float s = static_cast<float>(size);
  return alignCorners ? (v + 1.f) / 2.f * (s - 1.f) : ((v + 1.f) * s - 1.f) / 2.f;
}

inline float reflect(float v, float twiceLow, float twiceHigh) {
  if (twiceLow == twiceHigh) return 0.f;
  const float lo = twiceLow / 2.f, span = (twiceHigh - twiceLow) / 2.f;
  v = std::fabs(v - lo);
  const float extra = std::fmod(v, span);
  // The parity of the number of flips, without converting it to an integer (it can exceed int64).
  const bool even = std::fmod(std::floor(v / span), 2.f) == 0.f;
  return even ? extra + lo : span - extra + lo;
}

// Keeps a pixel coordinate castable to int64: non-finite values and (except under reflection, which
// folds any finite value back) values far outside the image move to just outside it, which reads the
// same zeros / border values.
inline float safeCoord(float v, int64_t size, Pad pad) {
  const float lo = -4.f, hi = static_cast<float>(size) + 4.f;
  if (!std::isfinite(v)) return std::isnan(v) || v < 0 ? lo : hi;
  return pad == Pad::Reflection ? v : std::clamp(v, lo, hi);
}

// Applies the padding mode to a pixel coordinate (zeros: unchanged, reads outside give 0).
inline float padCoord(float v, int64_t size, Pad pad, bool alignCorners) {
  const float hi = static_cast<float>(size - 1);
  if (pad == Pad::Border) return std::clamp(v, 0.f, hi);
  if (pad == Pad::Reflection) {
    v = alignCorners ? reflect(v, 0.f, 2.f * hi) : reflect(v, -1.f, 2.f * static_cast<float>(size) - 1.f);
    return std::clamp(v, 0.f, hi);
  }
  return v;
}

inline float pixelAt(const float* plane, int64_t y, int64_t x, int64_t H, int64_t W) {
  return (y >= 0 && y < H && x >= 0 && x < W) ? plane[y * W + x] : 0.f;
}

inline void cubicWeights(float t, float w[4]) {
  const float A = -0.75f;
  auto near = [&](float d) { return ((A + 2.f) * d - (A + 3.f)) * d * d + 1.f; };
  auto far = [&](float d) { return ((A * d - 5.f * A) * d + 8.f * A) * d - 4.f * A; };
  w[0] = far(t + 1.f);
  w[1] = near(t);
  w[2] = near(1.f - t);
  w[3] = far(2.f - t);
}

Status opGridSample(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects X and grid");
  const RtTensor x = asFloat(c.input(0)), grid = asFloat(c.input(1));
  if (x.rank() != 4) return c.fail("input 'X' must be 4-D (N, C, H, W), got " + dimsStr(x.dims));
  if (grid.rank() != 4 || grid.dims[3] != 2 || grid.dims[0] != x.dims[0])
    return c.fail("input 'grid' must be [N, H_out, W_out, 2] with N = " + str(x.dims[0]) + ", got " + dimsStr(grid.dims));
  const std::string mode = c.attrStr("mode", "bilinear"), padS = c.attrStr("padding_mode", "zeros");
  const int m = mode == "bilinear" || mode == "linear" ? 0 : mode == "nearest" ? 1 : mode == "bicubic" || mode == "cubic" ? 2 : -1;
  if (m < 0) return c.fail("attribute 'mode' must be bilinear, nearest or bicubic, got '" + mode + "'");
  Pad pad;
  if (padS == "zeros") pad = Pad::Zeros;
  else if (padS == "border") pad = Pad::Border;
  else if (padS == "reflection") pad = Pad::Reflection;
  else return c.fail("attribute 'padding_mode' must be zeros, border or reflection, got '" + padS + "'");
  const bool ac = c.attrInt("align_corners", 0) != 0;
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3], Ho = grid.dims[1], Wo = grid.dims[2];
  RtTensor y = RtTensor::alloc(x.dtype, {N, C, Ho, Wo});
  struct Taps {
    int64_t x0, y0;
    float lx, ly;
  };
  parallelFor(N * Ho, Wo * C * (m == 2 ? 16 : 4), [&](int64_t b, int64_t e) {
    std::vector<Taps> taps(m == 0 ? static_cast<size_t>(Wo) : 0);
    for (int64_t row = b; row < e; ++row) {
      const int64_t n = row / Ho, ho = row % Ho;
      const float* xn = x.f() + n * C * H * W;
      float* yn = y.mf() + n * C * Ho * Wo + ho * Wo;
      for (int64_t wo = 0; wo < Wo; ++wo) {
        const float* g = grid.f() + (row * Wo + wo) * 2;
        float ix = safeCoord(unnormalize(g[0], W, ac), W, pad), iy = safeCoord(unnormalize(g[1], H, ac), H, pad);
        if (m == 2) {  // bicubic: padding applies to each of the 16 taps
          const float fx = std::floor(ix), fy = std::floor(iy);
          float wx[4], wy[4];
          cubicWeights(ix - fx, wx);
          cubicWeights(iy - fy, wy);
          int64_t tx[4], ty[4];
          for (int k = 0; k < 4; ++k) {
            tx[k] = static_cast<int64_t>(padCoord(fx - 1.f + static_cast<float>(k), W, pad, ac));
            ty[k] = static_cast<int64_t>(padCoord(fy - 1.f + static_cast<float>(k), H, pad, ac));
          }
          for (int64_t ch = 0; ch < C; ++ch) {
            const float* p = xn + ch * H * W;
            float acc = 0.f;
            for (int r = 0; r < 4; ++r) {
              float line = 0.f;
              for (int k = 0; k < 4; ++k) line += wx[k] * pixelAt(p, ty[r], tx[k], H, W);
              acc += wy[r] * line;
            }
            yn[ch * Ho * Wo + wo] = acc;
          }
          continue;
        }
        ix = padCoord(ix, W, pad, ac);
        iy = padCoord(iy, H, pad, ac);
        if (m == 0) {  // bilinear: the row's taps now, its channels below
          const float fx = std::floor(ix), fy = std::floor(iy);
          Taps& t = taps[static_cast<size_t>(wo)];
          t.x0 = static_cast<int64_t>(fx);
          t.y0 = static_cast<int64_t>(fy);
          t.lx = ix - fx;
          t.ly = iy - fy;
          continue;
        }
        if (m == 1) {
          const int64_t nx = static_cast<int64_t>(std::nearbyint(ix)), ny = static_cast<int64_t>(std::nearbyint(iy));
          for (int64_t ch = 0; ch < C; ++ch) yn[ch * Ho * Wo + wo] = pixelAt(xn + ch * H * W, ny, nx, H, W);
          continue;
        }
      }
      if (m != 0) continue;
      // A channel at a time along the row: its plane read and its output row written in place of one
      // element a plane for each position, planes apart (32 channels of 32 x 32: a 4 KiB stride on both,
      // each position's 32 reads and writes in one cache set; 7.4-9.2 ns a value, where 8 images' 300 x 4
      // positions over the same planes took 3.5-3.7, session 51).
      for (int64_t ch = 0; ch < C; ++ch) {
        const float* p = xn + ch * H * W;
        float* out = yn + ch * Ho * Wo;
        for (int64_t wo = 0; wo < Wo; ++wo) {
          const Taps& t = taps[static_cast<size_t>(wo)];
          const int64_t x0 = t.x0, y0 = t.y0;
          const float lx = t.lx, ly = t.ly;
          out[wo] = (1.f - ly) * ((1.f - lx) * pixelAt(p, y0, x0, H, W) + lx * pixelAt(p, y0, x0 + 1, H, W)) +
                    ly * ((1.f - lx) * pixelAt(p, y0 + 1, x0, H, W) + lx * pixelAt(p, y0 + 1, x0 + 1, H, W));
        }
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

}  // namespace

std::vector<OpEntry> regionOps() {
  return {
      {"RoiAlign", opRoiAlign},
      {"MaxRoiPool", opMaxRoiPool},
      {"MaxUnpool", opMaxUnpool},
      {"GridSample", opGridSample},
  };
}

}  // namespace fw::exec
