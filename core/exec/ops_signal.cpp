// Signal processing: DFT, STFT, the Hann/Hamming/Blackman windows and MelWeightMatrix (opset 17).
//
// The FFT is our own (class FftPlan below): an iterative radix-2 transform for powers of two and
// Bluestein's chirp-z algorithm (one radix-2 convolution of the next power of two >= 2n-1) for any
// other length, so every length is O(n log n). All arithmetic is in double and the results are
// rounded to float32 once: against a long-double direct DFT the max |error| / max |X| is about 6e-16
// for n = 512 and 4096 and 1e-15 for the Bluestein lengths 1000 and 4095 (the unit tests check the
// ops against a direct DFT, tests/core/exec_signal_ops_test.cpp).
// Why not a library: the candidate in Debian, FFTW (libfftw3-dev), is GPL-2+, which a linked binary
// would inherit, and it is not among the project's packages (scripts/common.sh); no other FFT library
// is installed. Measured on this machine (-O2, one thread, one complex transform): 11 us for n = 512,
// 45 us for 4096, 43 us for 1000 and 220 us for 4095, against 3 / 20 / 6 / 33 us for numpy's
// pocketfft. These ops sit at the front of audio models (a few thousand frames of a few hundred
// samples, split over the thread pool), so a factor of 2-6 there is not worth a dependency.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

using cd = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;
// Longest transform accepted (a dft_length or frame length above this is a malformed model).
constexpr int64_t kMaxFftLen = int64_t{1} << 28;

bool isPow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// In-place forward radix-2 FFT of a fixed power-of-two length.
class Radix2 {
 public:
  explicit Radix2(int64_t n) : n_(n), tw_(static_cast<size_t>(n / 2)), rev_(static_cast<size_t>(n)) {
    for (int64_t k = 0; k < n / 2; ++k) tw_[static_cast<size_t>(k)] = std::polar(1.0, -2.0 * kPi * double(k) / double(n));
    int bits = 0;
    while ((int64_t{1} << bits) < n) ++bits;
    for (int64_t i = 0; i < n; ++i) {
      int64_t r = 0;
      for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
      rev_[static_cast<size_t>(i)] = r;
    }
  }
  int64_t size() const { return n_; }
  void run(cd* a) const {
    for (int64_t i = 0; i < n_; ++i) {
      const int64_t r = rev_[static_cast<size_t>(i)];
      if (i < r) std::swap(a[i], a[r]);
    }
    for (int64_t len = 2; len <= n_; len <<= 1) {
      const int64_t half = len / 2, step = n_ / len;
      for (int64_t i = 0; i < n_; i += len) {
        for (int64_t j = 0; j < half; ++j) {
          const cd u = a[i + j];
          const cd v = a[i + j + half] * tw_[static_cast<size_t>(j * step)];
          a[i + j] = u + v;
          a[i + j + half] = u - v;
        }
      }
    }
  }

 private:
  int64_t n_;
  std::vector<cd> tw_;
  std::vector<int64_t> rev_;
};

int64_t nextPow2(int64_t n) {
  int64_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

// Forward DFT of one length, X[k] = sum_j x[j] e^{-2 pi i jk/n}. Read-only after construction, so one
// plan serves every thread; each thread brings its own scratch (scratchSize() values).
class FftPlan {
 public:
  explicit FftPlan(int64_t n) : n_(n), pow2_(isPow2(n)), core_(pow2_ ? n : nextPow2(2 * n - 1)) {
    if (pow2_) return;
    // Bluestein: jk = (j^2 + k^2 - (k-j)^2) / 2, so X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k-j]) with
    // c[k] = e^{-i pi k^2 / n}: a convolution, done as a product of radix-2 transforms of length m.
    // k^2 is reduced mod 2n in integers so the chirp angle stays exact for large k.
    const int64_t m = core_.size();
    chirp_.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
      const int64_t k2 = (k * k) % (2 * n);
      chirp_[static_cast<size_t>(k)] = std::polar(1.0, -kPi * double(k2) / double(n));
    }
    kernel_.assign(static_cast<size_t>(m), cd(0, 0));
    kernel_[0] = std::conj(chirp_[0]);
    for (int64_t k = 1; k < n; ++k) {
      kernel_[static_cast<size_t>(k)] = std::conj(chirp_[static_cast<size_t>(k)]);
      kernel_[static_cast<size_t>(m - k)] = std::conj(chirp_[static_cast<size_t>(k)]);
    }
    core_.run(kernel_.data());
  }
  int64_t size() const { return n_; }
  size_t scratchSize() const { return pow2_ ? 0 : static_cast<size_t>(core_.size()); }

  // Transforms a[0..n) in place; inverse uses e^{+2 pi i jk/n} and divides by n.
  void run(cd* a, std::vector<cd>& scratch, bool inverse) const {
    if (inverse)
      for (int64_t k = 0; k < n_; ++k) a[k] = std::conj(a[k]);
    if (pow2_) {
      core_.run(a);
    } else {
      const int64_t m = core_.size();
      scratch.assign(static_cast<size_t>(m), cd(0, 0));
      for (int64_t k = 0; k < n_; ++k) scratch[static_cast<size_t>(k)] = a[k] * chirp_[static_cast<size_t>(k)];
      core_.run(scratch.data());
      // Inverse transform of the product via conj(FFT(conj(.))) / m.
      for (int64_t k = 0; k < m; ++k) scratch[static_cast<size_t>(k)] = std::conj(scratch[static_cast<size_t>(k)] * kernel_[static_cast<size_t>(k)]);
      core_.run(scratch.data());
      const double inv = 1.0 / double(m);
      for (int64_t k = 0; k < n_; ++k) a[k] = std::conj(scratch[static_cast<size_t>(k)]) * inv * chirp_[static_cast<size_t>(k)];
    }
    if (inverse) {
      const double inv = 1.0 / double(n_);
      for (int64_t k = 0; k < n_; ++k) a[k] = std::conj(a[k]) * inv;
    }
  }

 private:
  int64_t n_;
  bool pow2_;
  Radix2 core_;
  std::vector<cd> chirp_, kernel_;
};

// Cost hint for parallelFor: about 5 n log2 n flops per transform (4x that for Bluestein).
int64_t fftCost(int64_t n) {
  int64_t lg = 1;
  while ((int64_t{1} << lg) < n) ++lg;
  return std::max<int64_t>(1, (isPow2(n) ? 5 : 20) * n * lg);
}

// A scalar (or one-element) integer input, e.g. dft_length or frame_step.
Result<int64_t> scalarInt(const OpContext& c, size_t k, const char* name) {
  const RtTensor& t = c.input(k);
  if (t.store() != Store::I64 || t.numel() != 1)
    return c.fail(std::string(name) + " must be a scalar int32/int64, got " + std::string(dtypeName(t.dtype)) + " " + dimsStr(t.dims));
  return t.i()[0];
}

// A float signal tensor whose last dim is 1 (real) or 2 (complex).
Status checkSignal(const OpContext& c, const RtTensor& x, size_t minRank, const char* what) {
  if (x.store() != Store::F32) return c.fail(std::string(what) + " must be a float tensor, got " + std::string(dtypeName(x.dtype)));
  if (x.rank() < minRank) return c.fail(std::string(what) + " must have rank >= " + std::to_string(minRank) + ", got " + dimsStr(x.dims));
  if (x.dims.back() != 1 && x.dims.back() != 2)
    return c.fail(std::string(what) + " last dim must be 1 (real) or 2 (complex), got " + dimsStr(x.dims));
  return {};
}

// DFT: transform along `axis` of [batch, signal dims..., 1|2]; dft_length zero-pads or truncates;
// onesided keeps bins [0, n/2] (for an inverse transform too: it slices the inverse's result).
Status opDFT(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  if (auto st = checkSignal(c, x, 3, "input"); !st.ok()) return st;
  const int64_t r = static_cast<int64_t>(x.rank());
  const int64_t axisAttr = c.attrInt("axis", 1);
  const int64_t axis = axisAttr < 0 ? axisAttr + r : axisAttr;
  if (axis < 0 || axis > r - 2)
    return c.fail("axis " + std::to_string(axisAttr) + " out of range for input " + dimsStr(x.dims) +
                  " (the last dim holds the real/imaginary parts)");
  const bool inverse = c.attrInt("inverse", 0) != 0;
  const bool onesided = c.attrInt("onesided", 0) != 0;
  const int64_t nIn = x.dims[static_cast<size_t>(axis)];
  int64_t n = nIn;
  if (c.has(1)) {
    auto len = scalarInt(c, 1, "dft_length");
    if (!len.ok()) return len.error();
    n = *len;
    if (n < 1 || n > kMaxFftLen) return c.fail("dft_length " + std::to_string(n) + " must be in [1, 2^28]");
  }
  if (n == 0) return c.fail("the transformed axis " + std::to_string(axis) + " of " + dimsStr(x.dims) + " is empty");
  if (n > kMaxFftLen) return c.fail("transform length " + std::to_string(n) + " above 2^28");
  const int64_t outLen = onesided ? n / 2 + 1 : n;
  const int64_t comps = x.dims.back();
  std::vector<int64_t> od = x.dims;
  od[static_cast<size_t>(axis)] = outLen;
  od.back() = 2;
  RtTensor y = RtTensor::alloc(x.dtype, od);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  for (int64_t d = axis + 1; d < r - 1; ++d) inner *= x.dims[static_cast<size_t>(d)];
  const FftPlan plan(n);
  const int64_t take = std::min(nIn, n);
  const float* px = x.f();
  float* py = y.mf();
  parallelFor(outer * inner, fftCost(n), [&](int64_t b, int64_t e) {
    std::vector<cd> buf(static_cast<size_t>(n)), scratch(plan.scratchSize());
    for (int64_t line = b; line < e; ++line) {
      const int64_t o = line / inner, i = line % inner;
      const float* src = px + (o * nIn * inner + i) * comps;
      for (int64_t k = 0; k < n; ++k) {
        if (k >= take) {
          buf[static_cast<size_t>(k)] = cd(0, 0);
        } else {
          const float* s = src + k * inner * comps;
          buf[static_cast<size_t>(k)] = cd(s[0], comps == 2 ? s[1] : 0.f);
        }
      }
      plan.run(buf.data(), scratch, inverse);
      float* dst = py + (o * outLen * inner + i) * 2;
      for (int64_t k = 0; k < outLen; ++k) {
        dst[k * inner * 2] = static_cast<float>(buf[static_cast<size_t>(k)].real());
        dst[k * inner * 2 + 1] = static_cast<float>(buf[static_cast<size_t>(k)].imag());
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// STFT: signal [batch, length, 1|2], frame_step, optional window [W], optional frame_length; output
// [batch, frames, bins, 2] with frames = (length - frame_length) / frame_step + 1 (0 when the signal is
// shorter than one frame) and bins = frame_length / 2 + 1 when onesided (the default), else frame_length.
Status opSTFT(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects signal and frame_step");
  const RtTensor& x = c.input(0);
  if (auto st = checkSignal(c, x, 3, "signal"); !st.ok()) return st;
  if (x.rank() != 3) return c.fail("signal must be [batch, length, 1|2], got " + dimsStr(x.dims));
  auto step = scalarInt(c, 1, "frame_step");
  if (!step.ok()) return step.error();
  if (*step < 1) return c.fail("frame_step must be >= 1, got " + std::to_string(*step));
  RtTensor window;
  int64_t len = -1;
  if (c.has(2)) {
    window = asFloat(c.input(2));
    if (window.rank() != 1) return c.fail("window must be 1-D, got " + dimsStr(window.dims));
    len = window.dims[0];
  }
  if (c.has(3)) {
    auto fl = scalarInt(c, 3, "frame_length");
    if (!fl.ok()) return fl.error();
    if (len >= 0 && *fl != len)
      return c.fail("frame_length " + std::to_string(*fl) + " differs from the window length " + std::to_string(len));
    len = *fl;
  }
  if (len < 0) return c.fail("needs a window or a frame_length");
  if (len < 1 || len > kMaxFftLen) return c.fail("frame length " + std::to_string(len) + " must be in [1, 2^28]");
  const bool onesided = c.attrInt("onesided", 1) != 0;
  const int64_t batch = x.dims[0], sigLen = x.dims[1], comps = x.dims[2];
  const int64_t frames = sigLen >= len ? (sigLen - len) / *step + 1 : 0;
  const int64_t bins = onesided ? len / 2 + 1 : len;
  RtTensor y = RtTensor::alloc(x.dtype, {batch, frames, bins, 2});
  const FftPlan plan(len);
  const float* px = x.f();
  const float* pw = window.defined() ? window.f() : nullptr;
  float* py = y.mf();
  const int64_t stride = *step;
  parallelFor(batch * frames, fftCost(len), [&](int64_t b, int64_t e) {
    std::vector<cd> buf(static_cast<size_t>(len)), scratch(plan.scratchSize());
    for (int64_t bf = b; bf < e; ++bf) {
      const int64_t bi = bf / frames, f = bf % frames;
      const float* src = px + (bi * sigLen + f * stride) * comps;
      for (int64_t k = 0; k < len; ++k) {
        const double w = pw ? pw[k] : 1.0;
        buf[static_cast<size_t>(k)] = cd(src[k * comps] * w, comps == 2 ? src[k * comps + 1] * w : 0.0);
      }
      plan.run(buf.data(), scratch, false);
      float* dst = py + bf * bins * 2;
      for (int64_t k = 0; k < bins; ++k) {
        dst[2 * k] = static_cast<float>(buf[static_cast<size_t>(k)].real());
        dst[2 * k + 1] = static_cast<float>(buf[static_cast<size_t>(k)].imag());
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

// The output_datatype attribute (default float32) as a numeric dtype.
Result<DType> outputDtype(const OpContext& c) {
  const int64_t v = c.attrInt("output_datatype", 1);
  const auto dt = dtypeFromInt(static_cast<int32_t>(v));
  if (!dt || (storeOf(*dt) != Store::F32 && storeOf(*dt) != Store::I64))
    return c.fail("output_datatype " + std::to_string(v) + " is not a numeric tensor type");
  return *dt;
}

// Generalised cosine window w[k] = a0 - a1 cos(2 pi k / N) + a2 cos(4 pi k / N), N = size when periodic
// else size - 1 (a symmetric window of size 1 is the k = 0 term, a0 - a1 + a2).
template <int kind>
Status opWindow(OpContext& c) {
  // 0 Hann, 1 Hamming (a0 = 25/46 as in the spec's function body), 2 Blackman.
  constexpr double a0 = kind == 0 ? 0.5 : kind == 1 ? 25.0 / 46.0 : 0.42;
  constexpr double a1 = kind == 0 ? 0.5 : kind == 1 ? 21.0 / 46.0 : 0.5;
  constexpr double a2 = kind == 2 ? 0.08 : 0.0;
  if (!c.has(0)) return c.fail("missing input size");
  auto size = scalarInt(c, 0, "size");
  if (!size.ok()) return size.error();
  if (*size < 0) return c.fail("size must be >= 0, got " + std::to_string(*size));
  auto dt = outputDtype(c);
  if (!dt.ok()) return dt.error();
  const bool periodic = c.attrInt("periodic", 1) != 0;
  const int64_t n = *size;
  const double denom = double(periodic ? n : n - 1);
  RtTensor w = RtTensor::alloc(DType::Float32, {n});
  for (int64_t k = 0; k < n; ++k) {
    const double ang = denom > 0 ? 2.0 * kPi * double(k) / denom : 0.0;
    w.mf()[k] = static_cast<float>(a0 - a1 * std::cos(ang) + a2 * std::cos(2.0 * ang));
  }
  c.out[0] = castTo(w, *dt);
  return {};
}

// MelWeightMatrix [dft_length/2 + 1, num_mel_bins]: triangular filters, peak 1, between mel-spaced
// edges. Edges follow the ONNX reference exactly: num_mel_bins + 2 points spaced (high - low) /
// (num_mel_bins + 2) mels apart, mapped to bin floor((dft_length + 1) * hz / sample_rate). Filter
// rows past the last spectrogram bin (an upper edge above Nyquist) are dropped.
Status opMelWeightMatrix(OpContext& c) {
  for (size_t k = 0; k < 5; ++k)
    if (!c.has(k)) return c.fail("expects num_mel_bins, dft_length, sample_rate, lower_edge_hertz, upper_edge_hertz");
  auto mels = scalarInt(c, 0, "num_mel_bins");
  if (!mels.ok()) return mels.error();
  auto dftLen = scalarInt(c, 1, "dft_length");
  if (!dftLen.ok()) return dftLen.error();
  auto rate = scalarInt(c, 2, "sample_rate");
  if (!rate.ok()) return rate.error();
  const RtTensor& lo = c.input(3);
  const RtTensor& hi = c.input(4);
  if (lo.store() != Store::F32 || lo.numel() != 1 || hi.store() != Store::F32 || hi.numel() != 1)
    return c.fail("lower_edge_hertz and upper_edge_hertz must be float scalars");
  if (*mels < 1 || *mels > kMaxFftLen) return c.fail("num_mel_bins must be >= 1, got " + std::to_string(*mels));
  if (*dftLen < 1 || *dftLen > kMaxFftLen) return c.fail("dft_length must be in [1, 2^28], got " + std::to_string(*dftLen));
  if (*rate < 1) return c.fail("sample_rate must be >= 1, got " + std::to_string(*rate));
  const double lower = lo.f()[0], upper = hi.f()[0];
  if (!(lower >= 0) || !(upper > lower) || !std::isfinite(upper))
    return c.fail("needs 0 <= lower_edge_hertz < upper_edge_hertz, got " + std::to_string(lower) + " and " + std::to_string(upper));
  auto dt = outputDtype(c);
  if (!dt.ok()) return dt.error();
  const int64_t nMel = *mels, nBins = *dftLen / 2 + 1;
  const double loMel = 2595.0 * std::log10(1.0 + lower / 700.0);
  const double hiMel = 2595.0 * std::log10(1.0 + upper / 700.0);
  const double melStep = (hiMel - loMel) / double(nMel + 2);
  // Edge bins (clamped to 2^50 so an absurd upper edge cannot overflow int64); the loops below
  // only visit rows that exist.
  std::vector<int64_t> edge(static_cast<size_t>(nMel + 2));
  for (int64_t k = 0; k < nMel + 2; ++k) {
    const double hz = 700.0 * (std::pow(10.0, (double(k) * melStep + loMel) / 2595.0) - 1.0);
    const double bin = std::floor(double(*dftLen + 1) * hz / double(*rate));
    edge[static_cast<size_t>(k)] = static_cast<int64_t>(std::clamp(bin, 0.0, 1125899906842624.0));
  }
  RtTensor m = RtTensor::zeros(DType::Float32, {nBins, nMel});
  float* pm = m.mf();
  for (int64_t i = 0; i < nMel; ++i) {
    const int64_t left = edge[static_cast<size_t>(i)], center = edge[static_cast<size_t>(i + 1)],
                  right = edge[static_cast<size_t>(i + 2)];
    if (center == left) {
      if (center >= 0 && center < nBins) pm[center * nMel + i] = 1.f;
    } else {
      for (int64_t j = std::max<int64_t>(left, 0); j <= std::min(center, nBins - 1); ++j)
        pm[j * nMel + i] = static_cast<float>(double(j - left) / double(center - left));
    }
    for (int64_t j = std::max<int64_t>(center, 0); j < std::min(right, nBins); ++j)
      pm[j * nMel + i] = static_cast<float>(double(right - j) / double(right - center));
  }
  c.out[0] = castTo(m, *dt);
  return {};
}

}  // namespace

std::vector<OpEntry> signalOps() {
  return {{"DFT", opDFT},
          {"STFT", opSTFT},
          {"HannWindow", opWindow<0>},
          {"HammingWindow", opWindow<1>},
          {"BlackmanWindow", opWindow<2>},
          {"MelWeightMatrix", opMelWeightMatrix}};
}

}  // namespace fw::exec
