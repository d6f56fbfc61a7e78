#include "core/exec/ConvPrimitive.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/exec/DirectConv.h"
#include "core/exec/Gemm.h"
#include "core/exec/OneDnn.h"
#include "core/exec/OpContext.h"
#include "core/exec/Transpose.h"

namespace fw::exec {

namespace {

using dnnl::memory;

memory::dims cat(memory::dims a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

struct Descs {
  memory::desc src, weights, bias, dst;  // the caller's plain layouts
  memory::dims strides, dilates, padL, padR;
};

Descs describe(const ConvProblem& p) {
  const ConvGeometry& g = p.geo;
  const size_t r = g.in.size();
  const int64_t G = p.group, Mg = p.M / G, Cg = p.C / G, kp = g.kernelSize();
  Descs d;
  const memory::dims src = cat({p.N, p.C}, g.in), dst = cat({p.N, p.M}, g.out);
  d.src = memory::desc(src, memory::data_type::f32, onednn::contiguousStrides(src));
  d.dst = memory::desc(dst, memory::data_type::f32, onednn::contiguousStrides(dst));
  d.bias = memory::desc({p.M}, memory::data_type::f32, memory::format_tag::a);
  // oneDNN's logical weights are [G,] OC/G, IC/G, k... for both primitives. Conv's ONNX layout is
  // exactly that; ConvTranspose's is [G, IC/G, OC/G, k...] in memory, so o and i swap strides.
  memory::dims wd = G > 1 ? memory::dims{G, Mg, Cg} : memory::dims{p.M, p.C};
  wd = cat(wd, g.kernel);
  memory::dims ws = onednn::contiguousStrides(wd);
  if (p.transposed) {
    const size_t o = G > 1 ? 1 : 0;
    ws[o] = kp;
    ws[o + 1] = Mg * kp;
    if (G > 1) ws[0] = Cg * Mg * kp;
  }
  d.weights = memory::desc(wd, memory::data_type::f32, ws);
  for (size_t k = 0; k < r; ++k) {
    d.strides.push_back(g.strides[k]);
    d.dilates.push_back(g.dilations[k] - 1);  // oneDNN counts the gaps
    d.padL.push_back(g.padsBegin[k]);
    int64_t padR = g.padsEnd[k];
    if (p.transposed) {
      // oneDNN checks the geometry as the convolution from output to input. Extra output positions
      // (output_padding, output_shape) lie outside every window: a negative right pad says so.
      const int64_t ke = (g.kernel[k] - 1) * g.dilations[k] + 1;
      if (floorDiv(g.out[k] - ke + g.padsBegin[k] + padR, g.strides[k]) + 1 != g.in[k])
        padR = g.strides[k] * (g.in[k] - 1) + ke - g.out[k] - g.padsBegin[k];
    }
    d.padR.push_back(padR);
  }
  return d;
}

std::string keyOf(const ConvProblem& p, bool hasBias, bool relu, int threads) {
  const ConvGeometry& g = p.geo;
  return std::string(p.transposed ? "deconv|" : "conv|") + std::to_string(p.N) + "," + std::to_string(p.C) + "," +
         std::to_string(p.M) + "," + std::to_string(p.group) + "|" + onednn::dimsKey(g.in) + "|" +
         onednn::dimsKey(g.out) + "|" + onednn::dimsKey(g.kernel) + "|" + onednn::dimsKey(g.strides) + "|" +
         onednn::dimsKey(g.dilations) + "|" + onednn::dimsKey(g.padsBegin) + "|" + onednn::dimsKey(g.padsEnd) +
         (hasBias ? "|b" : "|-") + (relu ? "|relu" : "") + "|t" + std::to_string(threads);
}

// Whether the primitive described by `pd` is oneDNN's reference implementation (a loop nest: 10^3 slower).
bool isReference(const dnnl::primitive_desc_base& pd) {
  const char* impl = pd.impl_info_str();
  return impl != nullptr && std::string(impl).rfind("ref", 0) == 0;
}

// Whether `pd` runs on oneDNN's GEMM path (im2col/col2im around a matrix product).
bool isGemm(const dnnl::primitive_desc_base& pd) {
  const char* impl = pd.impl_info_str();
  return impl != nullptr && std::string(impl).find("gemm") != std::string::npos;
}

// Whether `pd` is oneDNN's jit Conv kernel on channel blocks narrower than its vectors: its grouped kernel
// under AVX-512 on 4 or 8 channels a block (4 or 8 channels a group), whose ReLU post-op is a pass over
// partial vectors. 1 thread, the primitive alone (ONEDNN_VERBOSE), without and with it: [32, 440, 4, 4]
// in 55 groups, 3x3 stride 2, 197 and 315 us; [32, 208, 8, 8] in 26 groups 551 and 823; [8, 256, 16, 16]
// in 64 groups (4-channel blocks) 643 and 851; in 16 groups (16-channel blocks) 615 and 621; the depthwise
// kernel on 8-channel blocks 212 and 224; under AVX2, where 8 channels fill a vector, 1206 and 1230.
bool jitOnPartialVectors(const dnnl::primitive_desc_base& pd) {
  const char* implStr = pd.impl_info_str();
  if (implStr == nullptr) return false;
  const std::string impl(implStr);
  if (impl.rfind("jit:", 0) != 0) return false;
  const int64_t lanes = impl.find("avx512") != std::string::npos ? 16
                        : impl.find("avx") != std::string::npos  ? 8
                                                                 : 4;
  const dnnl_memory_desc_t& md = pd.query_md(dnnl::query::dst_md).data;
  if (md.format_kind != dnnl_blocked) return false;
  const dnnl_blocking_desc_t& b = md.format_desc.blocking;
  return b.inner_nblks == 1 && b.inner_idxs[0] == 1 && b.inner_blks[0] < lanes;
}

// `m` in floats channels-last (NWC, NHWC, NDHWC) or, `last` false, channels-first as the executor keeps
// activations (NCW, NCHW, NCDHW).
memory::desc activationLayout(const memory::desc& m, bool last) {
  using tag = memory::format_tag;
  const memory::dims dims = m.dims();
  const tag t = dims.size() == 3   ? (last ? tag::nwc : tag::ncw)
                : dims.size() == 4 ? (last ? tag::nhwc : tag::nchw)
                                   : (last ? tag::ndhwc : tag::ncdhw);
  return memory::desc(dims, memory::data_type::f32, t);
}
memory::desc channelsLast(const memory::desc& m) { return activationLayout(m, true); }

// A Conv with at most 4 input channels a group, not a depthwise one.
bool fewInputChannels(const ConvProblem& p) {
  return !p.transposed && p.C / p.group <= 4 && !(p.group > 1 && p.group == p.C);
}

// A 2-D depthwise Conv (one input channel a group) whose library layout `chosen` is channels-last (NHWC).
bool channelsLastDepthwise(const ConvProblem& p, const Descs& d, const memory::desc& chosen) {
  if (p.transposed || p.group <= 1 || p.group != p.C || p.geo.in.size() != 2) return false;
  return chosen == memory::desc(d.src.dims(), memory::data_type::f32, memory::format_tag::nhwc);
}

void runReorder(const dnnl::primitive& r, const dnnl::memory& from, const dnnl::memory& to);

// Seconds one call of the convolution `pd` takes on the caller's plain activations, its reorders in and out
// included: the better of two calls after a first, on scratch buffers of harmless values (no subnormals).
double timedCall(const dnnl::convolution_forward::primitive_desc& pd, const Descs& d, bool hasBias) {
  const auto floats = [](const memory::desc& md, float v) {
    return std::vector<float>(md.get_size() / sizeof(float), v);
  };
  std::vector<float> x = floats(d.src, 0.5f), y = floats(d.dst, 0.f), w = floats(d.weights, 0.01f),
                     b = floats(d.bias, 0.f);
  const memory src = onednn::wrap(d.src, x.data()), out = onednn::wrap(d.dst, y.data()),
               plainW = onednn::wrap(d.weights, w.data());
  memory weights = plainW;
  if (pd.weights_desc() != d.weights) {
    weights = memory(pd.weights_desc(), onednn::engine());
    runReorder(dnnl::reorder(plainW, weights), plainW, weights);
  }
  const bool srcIn = pd.src_desc() != d.src, dstOut = pd.dst_desc() != d.dst;
  const memory srcB = srcIn ? memory(pd.src_desc(), onednn::engine()) : src;
  const memory dstB = dstOut ? memory(pd.dst_desc(), onednn::engine()) : out;
  const dnnl::primitive in = srcIn ? dnnl::reorder(src, srcB) : dnnl::primitive(),
                        back = dstOut ? dnnl::reorder(dstB, out) : dnnl::primitive();
  const dnnl::convolution_forward prim(pd);
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, srcB}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dstB}};
  if (hasBias) args.emplace(DNNL_ARG_BIAS, onednn::wrap(d.bias, b.data()));
  double best = std::numeric_limits<double>::infinity();
  for (int run = 0; run < 3; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    if (srcIn) runReorder(in, src, srcB);
    onednn::execute(prim, pd, args);
    if (dstOut) runReorder(back, dstB, out);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (run > 0) best = std::min(best, sec);
  }
  return best;
}

// A choice between two ways of running the Conv shapes `key` (keyOf without bias or ReLU, and what is
// chosen): `time`'s answer the first time those shapes are asked about, kept for the process.
bool decidedOnce(const std::string& key, const std::function<bool()>& time) {
  static std::recursive_mutex mu;
  static std::unordered_map<std::string, bool> decided;
  std::lock_guard<std::recursive_mutex> lock(mu);
  auto it = decided.find(key);
  if (it == decided.end()) it = decided.emplace(key, time()).first;
  return it->second;
}

onednn::CachedPrimitive create(const ConvProblem& p, const Descs& d, bool hasBias, bool relu) {
  const auto any = [](const memory::desc& m) {
    return memory::desc(m.dims(), memory::data_type::f32, memory::format_tag::any);
  };
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (relu) {
    dnnl::post_ops po;
    po.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
    attr.set_post_ops(po);
  }
  const memory::desc noBias;
  dnnl::primitive_desc_base pd;
  dnnl::primitive prim;
  // The primitive `Prim` (convolution_forward or deconvolution_forward, by `alg`) on the given activation
  // layouts; allowEmpty: an empty descriptor, not dnnl::error, when no kernel takes these layouts.
  const auto describeWith = [&](auto prim, dnnl::algorithm alg, const memory::desc& src,
                                const memory::desc& dst, bool allowEmpty) {
    using Prim = decltype(prim);
    typename Prim::desc desc(dnnl::prop_kind::forward_inference, alg, src, any(d.weights),
                             hasBias ? d.bias : noBias, dst, d.strides, d.dilates, d.padL, d.padR);
    return typename Prim::primitive_desc(desc, attr, onednn::engine(), allowEmpty);
  };
  if (p.transposed) {
    const auto describeDeconv = [&](const memory::desc& src, const memory::desc& dst, bool allowEmpty) {
      return describeWith(dnnl::deconvolution_forward(), dnnl::algorithm::deconvolution_direct, src, dst,
                          allowEmpty);
    };
    dnnl::deconvolution_forward::primitive_desc cpd = describeDeconv(any(d.src), any(d.dst), false);
    const DeconvolutionLayout layout = deconvolutionLayout(p, isGemm(cpd));
    if (layout != DeconvolutionLayout::Library) {
      // oneDNN 2.6's choice for a deconvolution is often not its fastest (1 thread, AVX-512, reorders of
      // the activations included): with a few output channels its blocked jit kernel computes a whole
      // 16-channel block for each (1x32x112x112 -> 3, 4x4 stride 2: 945 us, against 538 on the plain
      // layout's GEMM; 16x64x32x32 -> 3: 2496 against 968; 1x64x2048 -> 1, k16 stride 2 1-D: 283 against
      // 54), and where the jit kernel refuses a shape (1-D, long kernels over long rows) its GEMM path on
      // NCW is 2-4x slower than the same path channels-last (2x128x1024 -> 32, k16 stride 2: 5173 against
      // 1414 us; 1x512x32 -> 256, k16 stride 8: 2155 against 1073). Under AVX2 and SSE41 likewise.
      const bool plain = layout == DeconvolutionLayout::Plain;
      auto other =
          describeDeconv(plain ? d.src : channelsLast(d.src), plain ? d.dst : channelsLast(d.dst), true);
      if (other && !isReference(other)) cpd = other;
    }
    prim = dnnl::deconvolution_forward(cpd);
    pd = cpd;
  } else {
    const auto describeConv = [&](const memory::desc& src, const memory::desc& dst, bool allowEmpty) {
      return describeWith(dnnl::convolution_forward(), dnnl::algorithm::convolution_direct, src, dst,
                          allowEmpty);
    };
    dnnl::convolution_forward::primitive_desc cpd = describeConv(any(d.src), any(d.dst), false);
    if (channelsLastDepthwise(p, d, cpd.src_desc())) {
      // oneDNN 2.6 on AVX-512 runs a depthwise Conv channels-last (brdgmm_dw), and the executor's NCHW
      // activations are transposed to it and back on every call: 4x128x64x64, 3x3, 1 thread, 1.23 +
      // 0.55 + 1.42 ms, against 0.19 + 0.40 + 0.50 ms on 16-channel blocks (jit_dw), 3.2 against 1.1 ms;
      // 4x728x16x16 1.05 against 0.35 ms on 8-channel blocks (728 is not a multiple of 16; 16-channel
      // blocks 0.50). Small ones gain less (16x384x4x4: 31 us either way). The blocked layout whose
      // block divides the channels, else the other; the channels-last one when neither has a kernel.
      const memory::format_tag tags[2] = {
          p.C % 16 == 0 ? memory::format_tag::nChw16c : memory::format_tag::nChw8c,
          p.C % 16 == 0 ? memory::format_tag::nChw8c : memory::format_tag::nChw16c};
      for (memory::format_tag tag : tags) {
        auto blocked = describeConv(memory::desc(d.src.dims(), memory::data_type::f32, tag),
                                    memory::desc(d.dst.dims(), memory::data_type::f32, tag), true);
        if (blocked && !isReference(blocked)) {
          cpd = blocked;
          break;
        }
      }
    }
    if (fewInputChannels(p)) {
      // A Conv of a few input channels a group (a first layer on an image's 3 channels, a filter bank
      // over one audio channel) runs on whichever of the library's choice and its GEMM path on the plain
      // layout is faster, timed once a shape: oneDNN 2.6's AVX-512 channels-last kernel took 16.3 ms for
      // SincNet's 129-tap filters (1 -> 40 over 4 x 8000 samples, reorders in and out included) where the
      // plain layout took 4.2, and 2.96 against 2.07 for a 3 -> 32 Conv at 64 x 64 on 16 images, but it
      // was 1.3-2.3x faster for 80 taps, 2 or 4 channels at 64-128 pixels, a 5x5 on 3 channels and a 7x7
      // stem of stride 2 (1 thread, session 39): no rule on the shape told them apart.
      auto plain = describeConv(d.src, d.dst, true);
      // (One input channel reads alike in either layout: the output's tells the two apart.)
      // The choice is made once for the shapes, whatever the bias and the fused ReLU, so that a run with
      // every node timed (the ReLU on its own) computes what a plain run does, bit for bit.
      if (plain && !isReference(plain) &&
          (plain.src_desc() != cpd.src_desc() || plain.dst_desc() != cpd.dst_desc()) &&
          decidedOnce(keyOf(p, false, false, onednn::useThreads()) + "|plain",
                      [&] { return timedCall(plain, d, hasBias) < timedCall(cpd, d, hasBias); }))
        cpd = plain;
    }
    prim = dnnl::convolution_forward(cpd);
    pd = cpd;
  }
  onednn::CachedPrimitive c{pd, prim, {}, {}};
  const memory::desc src = pd.query_md(dnnl::query::src_md), dst = pd.query_md(dnnl::query::dst_md);
  if (src != d.src) c.srcIn = dnnl::reorder(dnnl::reorder::primitive_desc(onednn::engine(), d.src, onednn::engine(), src));
  if (dst != d.dst) c.dstOut = dnnl::reorder(dnnl::reorder::primitive_desc(onednn::engine(), dst, onednn::engine(), d.dst));
  return c;
}

// Between the executor's channels-first activations and channels-last ones the executor's own tiles move
// them (Transpose.h: toChannelsLast); any other layout goes through the library's reorder. Wide grouped
// Convs on oneDNN's channels-last kernel, reorders included (1 thread, `fwb profile` of the node alone, old
// and new binaries alternating, session 72): 72 -> 72 in 3 groups, stride 2 over 64x64, 491 -> 322-326 us;
// 168 -> 168 in 7 groups, stride 2 over 4 x 64x64, 4.90 -> 3.26-3.34 ms; 72 -> 72 over 4 x 32x32 1146 ->
// 957 us; over planes that share no cache sets (66x66, 20x20, 24x24) 0.97-1.03x.
void runReorder(const dnnl::primitive& r, const dnnl::memory& from, const dnnl::memory& to) {
  const memory::desc a = from.get_desc(), b = to.get_desc();
  const memory::dims dims = a.dims();
  if (dims.size() >= 3 && dims.size() <= 5 && a.data_type() == memory::data_type::f32 && b.dims() == dims) {
    int64_t positions = 1;
    for (size_t k = 2; k < dims.size(); ++k) positions *= dims[k];
    const auto* x = static_cast<const float*>(from.get_data_handle());
    auto* y = static_cast<float*>(to.get_data_handle());
    if (a == activationLayout(a, false) && b == channelsLast(a)) {
      toChannelsLast(x, dims[0], dims[1], positions, y);
      return;
    }
    if (a == channelsLast(a) && b == activationLayout(a, false)) {
      toChannelsFirst(x, dims[0], dims[1], positions, y);
      return;
    }
  }
  dnnl::stream& s = onednn::threadStream();
  r.execute(s, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
  s.wait();
}

// No padding on either side of any spatial axis.
bool unpadded(const ConvGeometry& g) {
  for (size_t d = 0; d < g.in.size(); ++d)
    if (g.padsBegin[d] != 0 || g.padsEnd[d] != 0) return false;
  return true;
}

// xs[n, c, o...] = x[n, c, o * strides...]: the positions a 1x1 Conv without padding reads, in NC(spatial)
// order, a run of the last axis at a time. (Transpose.h's strided copier, whose tiles serve views with a
// stride-1 axis, took 366 us against 247 for 4x32x64x64 at stride 2, and 6.0 against 4.7 ms for
// 8x128x64x64, interleaved.)
void subsample(const ConvProblem& p, const float* x, float* xs, int64_t planeStride) {
  const ConvGeometry& g = p.geo;
  const size_t r = g.in.size();
  std::vector<int64_t> inStride(r, 1);
  for (size_t k = r - 1; k > 0; --k) inStride[k - 1] = inStride[k] * g.in[k];
  const int64_t inPlane = g.inSize(), outPlane = g.outSize(), len = g.out[r - 1], step = g.strides[r - 1];
  const int64_t rows = len > 0 ? outPlane / len : 0;
  parallelFor(p.N * p.C, outPlane, [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) {
      const float* src = x + plane * inPlane;
      float* dst = xs + plane * planeStride;
      for (int64_t row = 0; row < rows; ++row, dst += len) {
        int64_t off = 0;
        for (int64_t k = static_cast<int64_t>(r) - 2, rem = row; k >= 0; --k) {
          const auto d = static_cast<size_t>(k);
          off += (rem % g.out[d]) * g.strides[d] * inStride[d];
          rem /= g.out[d];
        }
        const float* in = src + off;
        if (step == 2) {  // a constant step: the compiler picks the even lanes with shuffles
          for (int64_t i = 0; i < len; ++i) dst[i] = in[2 * i];
        } else {
          for (int64_t i = 0; i < len; ++i) dst[i] = in[i * step];
        }
      }
    }
  });
}

// The executor's own product path, one product an image: a 1x1 Conv without padding in one group, over the
// input as it is at stride 1 and over the positions it reads, copied out, when strided.
bool onProductPath(const ConvProblem& p) {
  return !p.transposed && p.group == 1 && p.geo.kernelSize() == 1 && unpadded(p.geo);
}

// rowsAsChannels(p) as the pointwise 1-D Conv of [C * rows, last] per image, or nullopt. Dilations are
// 1 (a dilated kernel as long as its axis would have no output).
std::optional<ConvProblem> rowsAsChannelsProblem(const ConvProblem& p) {
  const ConvGeometry& g = p.geo;
  if (p.transposed || g.in.empty() ||
      !rowsAsChannels(g.in, g.kernel, p.group, g.strides.back(), !unpadded(g)) ||
      std::any_of(g.dilations.begin(), g.dilations.end(), [](int64_t d) { return d != 1; }))
    return std::nullopt;
  ConvProblem q = p;
  q.C = p.C * (g.inSize() / g.in.back());
  const int64_t len = g.in.back();
  q.geo = ConvGeometry{{len}, {len}, {1}, {1}, {1}, {0}, {0}};
  return q;
}

// Y[n,m,...] = Y + bias[m], then max(., 0) when `relu`; NaN stays NaN, as with oneDNN's post-op. Rows of
// output channels split over the executor's threads, as the Conv before it was.
void biasRelu(const ConvProblem& p, const float* bias, float* y, bool relu) {
  const int64_t inner = p.geo.outSize();
  parallelFor(p.N * p.M, inner, [&](int64_t begin, int64_t end) {
    for (int64_t nm = begin; nm < end; ++nm) {
      float* row = y + nm * inner;
      const float b = bias ? bias[nm % p.M] : 0.f;
      if (relu) {
        for (int64_t i = 0; i < inner; ++i) {
          const float v = row[i] + b;
          row[i] = v < 0.f ? 0.f : v;
        }
      } else {
        for (int64_t i = 0; i < inner; ++i) row[i] += b;
      }
    }
  });
}

// The Conv on its oneDNN primitive (cached per shape), activations reordered to and from its layout.
void onLibrary(const ConvProblem& p, const float* x, const float* w, const std::weak_ptr<const void>& wOwner,
               const float* bias, float* y, bool relu) {
  // oneDNN 2.6 adds a deconvolution's bias, and applies its post-ops, in a reference loop over the
  // blocked output after the product: a 4x4 stride-2 ConvTranspose 32->3 at 48x48 took 0.70 ms with
  // a bias and 0.33 ms without (ONEDNN_VERBOSE, 1 thread). Here the bias and the ReLU go on the plain
  // output in one pass instead.
  const bool ownEpilogue = p.transposed && (bias != nullptr || relu);
  const float* primBias = ownEpilogue ? nullptr : bias;
  bool primRelu = ownEpilogue ? false : relu;
  const int threads = onednn::useThreads();
  const Descs d = describe(p);
  std::string key = keyOf(p, primBias != nullptr, primRelu, threads);
  auto entry = onednn::cachedPrimitive(key, [&] { return create(p, d, primBias != nullptr, primRelu); });
  // Its GEMM path (im2col and a product on plain layouts) applies a ReLU post-op element by element after
  // the product: a Conv 3 -> 64, 3x3 stride 2 over [2, 3, 128, 128] took 13.0 ms with it, 0.34 without
  // (ONEDNN_VERBOSE, 1 thread, session 51; a deformable-attention model's -O2 ran 30 % slower than its
  // -O0 for it). Its grouped jit kernel on channel blocks narrower than a vector is 1.1-1.6x slower with it
  // (jitOnPartialVectors; a RegNetY-400MF at batch 32 ran 3 % slower at -O2 than at -O0 for it). There the
  // ReLU is a pass of its own over the plain output.
  const bool ownRelu = primRelu && (isGemm(entry->pd) || jitOnPartialVectors(entry->pd));
  if (ownRelu) {
    primRelu = false;
    key = keyOf(p, primBias != nullptr, false, threads);
    entry = onednn::cachedPrimitive(key, [&] { return create(p, d, primBias != nullptr, false); });
  }
  const dnnl::primitive_desc_base& pd = entry->pd;

  dnnl::memory src = onednn::wrap(d.src, x);
  if (entry->srcIn) {
    dnnl::memory blocked = onednn::staged(0, pd.query_md(dnnl::query::src_md));
    runReorder(entry->srcIn, src, blocked);
    src = blocked;
  }
  const memory::desc wmd = pd.query_md(dnnl::query::weights_md);
  dnnl::memory weights = wmd == d.weights ? onednn::wrap(d.weights, w)
                                          : onednn::reorderedWeights(key, w, wOwner, d.weights, wmd);
  dnnl::memory out = onednn::wrap(d.dst, y);
  dnnl::memory dst = entry->dstOut ? onednn::staged(1, pd.query_md(dnnl::query::dst_md)) : out;
  std::unordered_map<int, dnnl::memory> args{
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
  if (primBias) args.emplace(DNNL_ARG_BIAS, onednn::wrap(d.bias, primBias));
  onednn::execute(entry->prim, pd, std::move(args));
  if (entry->dstOut) runReorder(entry->dstOut, dst, out);
  if (ownEpilogue) biasRelu(p, bias, y, relu);
  if (ownRelu) biasRelu(p, nullptr, y, true);
}

// Whether a Conv of one input channel a group and several output channels each (a depth multiplier:
// EEGNet's spatial filters, a cellular automaton's Sobel perception), which oneDNN 2.6 runs on its GEMM
// path (one small product a group; under AVX-512, AVX2 and SSE4.1 alike), runs faster as a depthwise Conv
// over its input channels copied once an output channel, on the library's depthwise kernel: timed once a
// shape, both ways, three calls each on scratch buffers, the better of the last two. (1 thread, session 40,
// `fwb profile` of the node alone: 8x16x32x32 -> 48 at 3x3, 837 us on the GEMM path, ONNX Runtime 1.30 1.9
// ms, 618 with the copies; -> 64 at 5x5, 1274 against 726; but EEGNet's 8 -> 16 over 22 x 513 with a 22 x 1
// kernel 1141 against 2707, a stride-2 3x3 283 against 444, 8 -> 64 at 3x3 213 against 460: no rule on the
// shape held.)
// Seconds one call of `run` (onLibrary's signature) takes for `p`: three calls on scratch buffers of harmless
// values (no subnormals), the better of the last two.
template <class Run>
double secondsOf(const ConvProblem& p, Run run) {
  const std::vector<float> x(static_cast<size_t>(p.N * p.C * p.geo.inSize()), 0.5f),
      w(static_cast<size_t>(p.M * (p.C / p.group) * p.geo.kernelSize()), 0.01f);
  std::vector<float> y(static_cast<size_t>(p.N * p.M * p.geo.outSize()));
  const auto owner = std::make_shared<int>(0);  // the scratch weight's reordered copies go with it
  double best = std::numeric_limits<double>::infinity();
  for (int call = 0; call < 3; ++call) {
    const auto t0 = std::chrono::steady_clock::now();
    run(p, x.data(), w.data(), owner, nullptr, y.data(), false);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (call > 0) best = std::min(best, sec);
  }
  return best;
}

bool depthMultiplierCopies(const ConvProblem& p) {
  if (p.transposed || p.group <= 1 || p.C != p.group || p.M <= p.C || p.M % p.C != 0) return false;
  const Descs d = describe(p);
  const std::string key = keyOf(p, false, false, onednn::useThreads());
  const auto entry = onednn::cachedPrimitive(key, [&] { return create(p, d, false, false); });
  if (!isGemm(entry->pd)) return false;
  return decidedOnce(key + "|copies",
                     [&] { return secondsOf(p, convolutionOnCopies) < secondsOf(p, onLibrary); });
}

// Whether a filter bank (a few input channels a group, depthwise too, a long kernel along the last axis:
// directConvolutionApplies) runs on the executor's own direct loop (DirectConv.h), where that timed faster
// than the library's way once a shape (three calls each on scratch buffers, the better of the last two).
// 1 thread, AVX2 (session 41): EEGNet's 32 x 1 x 22 x 512 -> 8 with 1 x 64 taps, oneDNN's GEMM path 26.8 ms
// a call (ONEDNN_VERBOSE), the direct loop 6.2 ms (`fwb profile` of the node alone); a depthwise Conv1d of
// 128 taps over 8 x 64 x 512, which oneDNN also runs on its GEMM path, 61.2 against 2.4 ms. Checked before
// the depth multiplier's copies, as the simulator costs every such Conv as the loop.
bool onDirectLoop(const ConvProblem& p) {
  if (!directConvolutionApplies(p)) return false;
  return decidedOnce(keyOf(p, false, false, onednn::useThreads()) + "|direct", [&] {
    const auto direct = [](const ConvProblem& q, const float* x, const float* w,
                           const std::weak_ptr<const void>&, const float* bias, float* y,
                           bool relu) { directConvolution(q, x, w, bias, y, relu); };
    return secondsOf(p, direct) < secondsOf(p, onLibrary);
  });
}

// `p` over its input with the padding copied in (zeros around it), its own padding none.
ConvProblem prePaddedProblem(const ConvProblem& p) {
  ConvProblem q = p;
  for (size_t k = 0; k < q.geo.in.size(); ++k) {
    q.geo.in[k] += q.geo.padsBegin[k] + q.geo.padsEnd[k];
    q.geo.padsBegin[k] = q.geo.padsEnd[k] = 0;
  }
  return q;
}

// Whether a padded Conv that oneDNN runs on its GEMM path (im2col and a product) runs faster on an input
// padded first, which the library runs on a jit kernel: oneDNN 2.6's AVX2 kernel takes no left padding wider
// than the few output columns it computes a pass, so a long kernel's "same" padding sends the Conv to the
// GEMM path, whose columns for 32 -> 32 at 11 x 21 over [4, 32, 100, 40] are 59 MB an image. Timed once a
// shape, both ways, three calls each on scratch buffers, the better of the last two. (1 thread, session 47,
// `fwb profile` of the node alone, old and new binaries alternating, 3 rounds: that Conv of DeepSpeech2's,
// stride (1, 2), 153-202 ms on the GEMM path, 51-53 ms this way (jit:avx2; the copy about 0.5 ms); its first
// layer, 1 -> 32 at 11 x 41 stride 2 over [4, 1, 200, 80], 16.8-23.1 against 6.6-6.8 ms.)
bool prePadded(const ConvProblem& p) {
  if (p.transposed || unpadded(p.geo) ||
      std::any_of(p.geo.padsBegin.begin(), p.geo.padsBegin.end(), [](int64_t v) { return v < 0; }) ||
      std::any_of(p.geo.padsEnd.begin(), p.geo.padsEnd.end(), [](int64_t v) { return v < 0; }))
    return false;
  const int threads = onednn::useThreads();
  const std::string key = keyOf(p, false, false, threads);
  const auto entry = onednn::cachedPrimitive(key, [&] { return create(p, describe(p), false, false); });
  if (!isGemm(entry->pd)) return false;
  const ConvProblem q = prePaddedProblem(p);
  const auto padded = onednn::cachedPrimitive(keyOf(q, false, false, threads),
                                              [&] { return create(q, describe(q), false, false); });
  if (isGemm(padded->pd) || isReference(padded->pd)) return false;
  return decidedOnce(key + "|prepadded",
                     [&] { return secondsOf(p, convolutionPrePadded) < secondsOf(p, onLibrary); });
}

// The gathered pointwise product's copies over 2x2 planes move the channels of a tile of kGatherTile for
// every image in turn, 4 floats as one vector. Channel by channel over all the images, the gather's reads of
// 16 bytes each an image apart shared cache sets (an image's span a multiple of 4 KiB, or close), std::copy_n
// of 4 floats was a library call each, and the copy back's writes, an image apart, did the same. The copies
// alone, 1 thread, hot caches, best of 200 (session 76): the gather of [32, 960, 2, 2] 82.7 -> 21.2 us, [32,
// 784, 2, 2] 67.6 -> 17.2, [32, 256, 2, 2] 24.3 -> 6.0; the copy back to 256 channels 25.3 -> 8.8, to
// 784 31.5 -> 27.0. `fwb profile` of the Conv alone, old and new alternating, 1 thread: [32, 960, 2, 2] ->
// 160 309-312 -> 232-239 us, [32, 672, 2, 2] -> 160 227-234 -> 186-212. Over 3x3 planes the tiles were slower
// in the Conv ([16, 320, 3, 3] -> 1920 945-1065 against 989-1129 us, [32, 96, 3, 3] -> 384 with a ReLU 147-173
// against 162-187, five rounds) though faster alone: a channel at a time there.
constexpr int64_t kGatherTile = 16;
inline void copyPositions(const float* src, float* dst, int64_t hw) {
  if (hw == 4) {
    std::memcpy(dst, src, 4 * sizeof(float));
    return;
  }
  for (int64_t j = 0; j < hw; ++j) dst[j] = src[j];
}

// dst = src + v over hw positions, with a ReLU if `relu`; 4 positions as one vector (a loop of 4 with
// std::max compiled to a compare and branch a value: [32, 784, 2, 2] -> 784 Conv+Relu 0.81 -> 1.40 ms). The
// maximum's operands in std::max's order: a NaN stays NaN, as the Relu op keeps it.
inline void putPositions(const float* src, float* dst, int64_t hw, float v, bool relu) {
  if (hw == 4) {
    __m128 t = _mm_add_ps(_mm_loadu_ps(src), _mm_set1_ps(v));
    if (relu) t = _mm_max_ps(_mm_setzero_ps(), t);
    _mm_storeu_ps(dst, t);
    return;
  }
  if (relu)
    for (int64_t j = 0; j < hw; ++j) dst[j] = std::max(src[j] + v, 0.f);
  else
    for (int64_t j = 0; j < hw; ++j) dst[j] = src[j] + v;
}

}  // namespace

void convolution(const ConvProblem& p, const float* x, const float* w, const std::weak_ptr<const void>& wOwner,
                 const float* bias, float* y, bool relu) {
  const size_t r = p.geo.in.size();
  if (r < 1 || r > 3)
    throw std::invalid_argument("oneDNN convolutions have 1 to 3 spatial dims, this one has " + std::to_string(r));
  const ConvGeometry& g = p.geo;
  if (!p.transposed && p.group > 1 && p.C == p.group && r == 1) {
    // oneDNN 2.6 has no direct kernel for a depthwise 1-D convolution: it takes its GEMM path, one small
    // product per group. The same data read as [N, C, 1, W] takes the 2-D depthwise kernel (the bytes,
    // and the weights' [G, M/G, 1, 1, k], are laid out alike): a k=5 depthwise Conv over 256 channels of
    // length 4 took 51 us as 1-D and 5.9 us as 2-D; 32 channels of length 500, 61 and 20 us. Groups of
    // several input channels gained nothing measurable (64->128 in 8 groups, 16 channels times 2).
    ConvProblem q = p;
    for (auto* v : {&q.geo.in, &q.geo.out, &q.geo.kernel, &q.geo.strides, &q.geo.dilations})
      v->insert(v->begin(), 1);
    q.geo.padsBegin.insert(q.geo.padsBegin.begin(), 0);
    q.geo.padsEnd.insert(q.geo.padsEnd.begin(), 0);
    convolution(q, x, w, wOwner, bias, y, relu);
    return;
  }
  if (onDirectLoop(p)) {
    directConvolution(p, x, w, bias, y, relu);
    return;
  }
  if (const auto q = rowsAsChannelsProblem(p)) {  // the same bytes, read as the pointwise Conv's
    convolution(*q, x, w, wOwner, bias, y, relu);
    return;
  }
  if (depthMultiplierCopies(p)) {
    convolutionOnCopies(p, x, w, wOwner, bias, y, relu);
    return;
  }
  if (onProductPath(p)) {
    // A pointwise convolution on NC(HW) is one product per image, Y[M,HW] = W[M,C] X[C,HW]: no
    // reorder of the activations into the convolution's blocked layout and back. A strided one (a
    // residual stage's downsampling shortcut) reads every s-th position: those positions are copied out
    // first. On oneDNN's layout the whole input went to channels-last and the output back, both out of
    // cache for a batch (8x128x64x64 -> 256 at stride 2, 1 thread: 5.8 + 4.6 + 4.2 ms, reorder,
    // convolution, reorder; 11.9 ms a call).
    // Rows whose spacing shares cache sets are copied a little further apart (pointwiseRowsSpread).
    const int64_t hw = g.outSize();
    const bool strided = hw != g.inSize(), spread = pointwiseRowsSpread(hw);
    const int64_t ld = spread ? hw + kPointwiseRowPad : hw;
    const float* in = x;
    if (strided || spread) {
      const memory::dims dims{p.N * p.C * ld};
      float* xs = static_cast<float*>(
          onednn::staged(0, memory::desc(dims, memory::data_type::f32, memory::format_tag::a))
              .get_data_handle());
      if (strided)
        subsample(p, x, xs, ld);
      else
        parallelFor(p.N * p.C, hw, [&](int64_t b, int64_t e) {
          for (int64_t plane = b; plane < e; ++plane) std::copy_n(x + plane * hw, hw, xs + plane * ld);
        });
      in = xs;
    }
    if (pointwiseImagesAsOneProduct(p.N, hw)) {
      // One position an image (a squeeze-excitation's 1x1 Convs after a global pool): the batch is one
      // product Y[N, M] = X[N, C] W[M, C]^T on the weight's packed copy, read once, where a product an
      // image read all of it again per image. 1 thread, `fwb profile` of one Conv, old and new binaries
      // alternating, two rounds (session 73): [32, 96, 1, 1] -> 2304 587-974 -> 90-93 us, [32, 1024, 1, 1]
      // -> 1000 5.28-5.31 -> 0.53 ms, [8, 96, 1, 1] -> 2304 147-152 -> 25-26, [4, 58, 1, 1] -> 1392 38 ->
      // 8-9, [2, 64, 1, 1] -> 256 4.6 -> 3.3; one image unchanged ([1, 58, 1, 1] -> 1392 10.2-10.7).
      sgemmColumnBias(false, true, p.N, p.M, p.C, in, p.C, w, p.C, bias, y, p.M, wOwner, relu);
      return;
    }
    if (pointwiseImagesGathered(p.N, hw)) {
      // The images' columns side by side (ConvPrimitive.h says what was measured), then back with the bias.
      const int64_t cols = p.N * hw;
      float* xg =
          static_cast<float*>(onednn::staged(1, memory::desc(memory::dims{p.C * cols}, memory::data_type::f32,
                                                             memory::format_tag::a))
                                  .get_data_handle());
      float* yg =
          static_cast<float*>(onednn::staged(2, memory::desc(memory::dims{p.M * cols}, memory::data_type::f32,
                                                             memory::format_tag::a))
                                  .get_data_handle());
      // Both copies in tiles of channels over 2x2 planes only (kGatherTile says why and what was measured).
      const int64_t tile = hw == 4 ? kGatherTile : 1;
      parallelFor((p.C + tile - 1) / tile, tile * cols, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t c0 = t * tile, c1 = std::min(p.C, c0 + tile);
          for (int64_t n = 0; n < p.N; ++n)
            for (int64_t c = c0; c < c1; ++c)
              copyPositions(in + (n * p.C + c) * ld, xg + c * cols + n * hw, hw);
        }
      });
      sgemm(false, false, p.M, cols, p.C, 1.f, w, p.C, xg, cols, 0.f, yg, cols);
      // With a ReLU, a product row's bias and ReLU over its whole run of columns first (a loop the compiler
      // vectorizes), then each image's positions copied out: with the ReLU inside the copy of a few positions
      // a time, the copy back of [32, 96, 3, 3] -> 384 took 25 us more than without it, where a Relu pass
      // took 15 (the Conv+Relu 160-165 -> 137-142 us, 1 thread; [16, 320, 3, 3] -> 1920 992-1032 -> 894-904).
      // Positions in whole vectors of 4 (2x2 planes) and no ReLU keep it in the copy: a pass of its own first
      // took [32, 784, 2, 2] -> 784 with a ReLU 778-799 -> 814-826 us, [32, 96, 3, 3] -> 384 without 134 ->
      // 144.
      const bool rowFirst = relu && hw % 4 != 0;
      parallelFor((p.M + tile - 1) / tile, tile * cols, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t m0 = t * tile, m1 = std::min(p.M, m0 + tile);
          if (rowFirst)
            for (int64_t m = m0; m < m1; ++m) {
              const float v = bias ? bias[m] : 0.f;
              float* row = yg + m * cols;
              for (int64_t j = 0; j < cols; ++j) row[j] = std::max(row[j] + v, 0.f);
            }
          for (int64_t n = 0; n < p.N; ++n)
            for (int64_t m = m0; m < m1; ++m) {
              const float* src = yg + m * cols + n * hw;
              float* dst = y + (n * p.M + m) * hw;
              if (rowFirst)
                copyPositions(src, dst, hw);
              else
                putPositions(src, dst, hw, bias ? bias[m] : 0.f, relu);
            }
        }
      });
      return;
    }
    for (int64_t n = 0; n < p.N; ++n)
      sgemmRowBias(p.M, hw, p.C, w, in + n * p.C * ld, bias, y + n * p.M * hw, relu, ld);
    return;
  }
  if (prePadded(p)) {
    convolutionPrePadded(p, x, w, wOwner, bias, y, relu);
    return;
  }
  onLibrary(p, x, w, wOwner, bias, y, relu);
}

void convolutionPrePadded(const ConvProblem& p, const float* x, const float* w,
                          const std::weak_ptr<const void>& wOwner, const float* bias, float* y, bool relu) {
  const ConvProblem q = prePaddedProblem(p);
  const ConvGeometry &g = p.geo, &pg = q.geo;
  const size_t r = g.in.size();
  const int64_t len = g.in[r - 1], plen = pg.in[r - 1], left = g.padsBegin[r - 1];
  const int64_t plane = g.inSize(), pplane = pg.inSize(), prows = plen > 0 ? pplane / plen : 0;
  const memory::dims dims{p.N * p.C * pplane};
  float* xp = static_cast<float*>(
      onednn::staged(2, memory::desc(dims, memory::data_type::f32, memory::format_tag::a)).get_data_handle());
  parallelFor(p.N * p.C, pplane, [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; ++nc) {
      const float* src = x + nc * plane;
      float* dst = xp + nc * pplane;
      for (int64_t row = 0; row < prows; ++row, dst += plen) {
        // The input row this padded row holds (the leading spatial coordinates less their padding), if any.
        int64_t off = 0, stride = len;
        bool inside = true;
        for (int64_t k = static_cast<int64_t>(r) - 2, rem = row; k >= 0; --k) {
          const auto d = static_cast<size_t>(k);
          const int64_t c = rem % pg.in[d] - g.padsBegin[d];
          rem /= pg.in[d];
          inside = inside && c >= 0 && c < g.in[d];
          off += c * stride;
          stride *= g.in[d];
        }
        if (!inside) {
          std::fill_n(dst, plen, 0.f);
          continue;
        }
        std::fill_n(dst, left, 0.f);
        std::copy_n(src + off, len, dst + left);
        std::fill_n(dst + left + len, plen - left - len, 0.f);
      }
    }
  });
  // The library's call directly: the padded problem has no padding left for prePadded to take, and the
  // other paths of convolution() (the depth multiplier's copies) would reuse the staging buffer.
  onLibrary(q, xp, w, wOwner, bias, y, relu);
}

// Each input channel copied m times into the third staging buffer: output channel o reads input channel o /
// m.
void convolutionOnCopies(const ConvProblem& p, const float* x, const float* w,
                         const std::weak_ptr<const void>& wOwner, const float* bias, float* y, bool relu) {
  const int64_t m = p.M / p.C, plane = p.geo.inSize();
  const memory::dims dims{p.N * p.M * plane};
  float* xr = static_cast<float*>(
      onednn::staged(2, memory::desc(dims, memory::data_type::f32, memory::format_tag::a)).get_data_handle());
  parallelFor(p.N * p.C, plane * m, [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; ++nc)
      for (int64_t j = 0; j < m; ++j)
        std::copy(x + nc * plane, x + (nc + 1) * plane, xr + (nc * m + j) * plane);
  });
  ConvProblem q = p;
  q.C = p.M;
  q.group = p.M;
  convolution(q, xr, w, wOwner, bias, y, relu);
}

// The problem convolution() hands `p` to the library as, or nullopt where it runs on the executor's own
// loops (its reductions in turn, as convolution() takes them).
std::optional<ConvProblem> libraryProblem(const ConvProblem& p) {
  if (onDirectLoop(p)) return std::nullopt;
  if (const auto q = rowsAsChannelsProblem(p)) return libraryProblem(*q);
  if (depthMultiplierCopies(p)) {
    ConvProblem q = p;
    q.C = q.group = p.M;
    return libraryProblem(q);
  }
  if (onProductPath(p)) return std::nullopt;
  if (prePadded(p)) return libraryProblem(prePaddedProblem(p));
  return p;
}

bool convolutionReluOwnPass(const ConvProblem& problem) {
  const std::optional<ConvProblem> lp = libraryProblem(problem);
  if (!lp) return false;
  const ConvProblem& p = *lp;
  if (p.transposed) return true;
  const Descs d = describe(p);
  const auto entry = onednn::cachedPrimitive(keyOf(p, false, true, onednn::useThreads()),
                                             [&] { return create(p, d, false, true); });
  return isGemm(entry->pd) || jitOnPartialVectors(entry->pd);
}

std::string convolutionSourceLayout(const ConvProblem& problem) {
  const std::optional<ConvProblem> lp = libraryProblem(problem);
  if (!lp) return "plain";
  const ConvProblem& p = *lp;
  const Descs d = describe(p);
  const std::string key = keyOf(p, false, false, onednn::useThreads());
  const auto entry = onednn::cachedPrimitive(key, [&] { return create(p, d, false, false); });
  const memory::desc src = entry->pd.query_md(dnnl::query::src_md);
  if (src == d.src) return "plain";
  if (src == channelsLast(d.src)) return "channels-last";
  const auto is = [&](memory::format_tag tag) {
    return p.geo.in.size() == 2 && src == memory::desc(d.src.dims(), memory::data_type::f32, tag);
  };
  if (is(memory::format_tag::nChw16c)) return "blocked16";
  if (is(memory::format_tag::nChw8c)) return "blocked8";
  return "other";
}

}  // namespace fw::exec
