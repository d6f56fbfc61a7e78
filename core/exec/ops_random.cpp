// Seeded random generators: RandomNormal, RandomUniform, RandomNormalLike, RandomUniformLike,
// Bernoulli, Multinomial.
//
// Generator: one std::mt19937_64 per kernel call, seeded as follows:
//   - with a `seed` attribute: splitmix64 of the float attribute's IEEE-754 bit pattern (so seed=1.0
//     and seed=1.5 differ); the same seed gives the same tensor on every run and every machine;
//   - without one: splitmix64 of kDefaultSeed (0x5EEDF00DC0FFEE01) xor the FNV-1a hash of the node's
//     name: a model's runs are reproducible, and two nodes of one model draw different values when
//     their names differ (nodes with the same name, e.g. two unnamed ones, draw alike).
// Each call starts a fresh generator: a node inside a Loop body draws the same values every trip.
// The distributions are written here rather than taken from std::*_distribution (whose algorithms
// differ between standard libraries), so a seed means the same values everywhere:
//   uniform u in [0, 1): the top 53 bits of one draw times 2^-53;
//   normal: Box-Muller on two uniforms (both outputs of a pair used in turn);
//   Bernoulli: 1 when u < p;
//   Multinomial: softmax of the row's log-probabilities, then the first class whose cumulative
//   probability exceeds u * total (binary search).
// Values are computed in double and stored in the output's storage class; a float16 output is
// rounded to float16.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

constexpr uint64_t kDefaultSeed = 0x5EEDF00DC0FFEE01ull;

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class Rng {
 public:
  explicit Rng(const OpContext& c) {
    uint64_t s;
    if (c.attrs.has("seed")) {
      const float f = c.attrFloat("seed", 0.f);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      s = splitmix64(bits);
    } else {
      uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
      for (unsigned char ch : c.node.name) h = (h ^ ch) * 0x100000001b3ull;
      s = splitmix64(kDefaultSeed ^ h);
    }
    gen_.seed(s);
  }
  double uniform() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
  double normal() {
    if (haveSpare_) {
      haveSpare_ = false;
      return spare_;
    }
    double u1 = uniform();
    while (u1 <= 0.0) u1 = uniform();
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1)), a = 2.0 * M_PI * u2;
    spare_ = r * std::sin(a);
    haveSpare_ = true;
    return r * std::cos(a);
  }

 private:
  std::mt19937_64 gen_;
  double spare_ = 0;
  bool haveSpare_ = false;
};

bool isFloatOut(DType t) { return t == DType::Float32 || t == DType::Float64 || t == DType::Float16; }

float stored(double v, DType t) {
  const float f = static_cast<float>(v);
  return t == DType::Float16 ? halfToFloat(floatToHalf(f)) : f;
}

// The output dtype from attribute `dtype`, else `fallback`; must be float16, float or double.
Result<DType> floatDtype(const OpContext& c, DType fallback) {
  DType t = fallback;
  if (c.attrs.has("dtype")) {
    auto d = dtypeFromInt(static_cast<int32_t>(c.attrInt("dtype", 1)));
    if (!d) return c.fail("dtype " + std::to_string(c.attrInt("dtype", 1)) + " is not an ONNX type");
    t = *d;
  }
  if (!isFloatOut(t))
    return c.fail("output dtype must be float16, float or double, got " + std::string(dtypeName(t)) +
                  (c.attrs.has("dtype") ? "" : " (from the input; set the dtype attribute)"));
  return t;
}

template <bool Normal>
Status fill(OpContext& c, DType dt, std::vector<int64_t> dims) {
  RtTensor y = RtTensor::alloc(dt, std::move(dims));
  Rng rng(c);
  const int64_t n = y.numel();
  if (Normal) {
    const double mean = c.attrFloat("mean", 0.f), scale = c.attrFloat("scale", 1.f);
    for (int64_t k = 0; k < n; ++k) y.mf()[k] = stored(mean + scale * rng.normal(), dt);
  } else {
    const double low = c.attrFloat("low", 0.f), high = c.attrFloat("high", 1.f);
    if (!(high >= low)) return c.fail("high must not be below low");
    for (int64_t k = 0; k < n; ++k) y.mf()[k] = stored(low + (high - low) * rng.uniform(), dt);
  }
  c.out[0] = y;
  return {};
}

template <bool Normal>
Status opRandom(OpContext& c) {
  auto dt = floatDtype(c, DType::Float32);
  if (!dt.ok()) return dt.error();
  if (!c.attrs.has("shape")) return c.fail("missing attribute 'shape'");
  const auto shape = c.attrInts("shape");
  for (int64_t d : shape)
    if (d < 0) return c.fail("shape " + dimsStr(shape) + " has a negative dimension");
  if (!checkedBytes(shape, 4)) return c.fail("shape " + dimsStr(shape) + " is too large");
  return fill<Normal>(c, *dt, shape);
}

template <bool Normal>
Status opRandomLike(OpContext& c) {
  if (!c.has(0) || !c.input(0).isTensor()) return c.fail("expects an input tensor");
  auto dt = floatDtype(c, c.input(0).dtype);
  if (!dt.ok()) return dt.error();
  return fill<Normal>(c, *dt, c.input(0).dims);
}

Status opBernoulli(OpContext& c) {
  if (!c.has(0) || c.input(0).store() != Store::F32) return c.fail("expects a float input of probabilities");
  const RtTensor& p = c.input(0);
  DType dt = p.dtype;
  if (c.attrs.has("dtype")) {
    auto d = dtypeFromInt(static_cast<int32_t>(c.attrInt("dtype", 0)));
    if (!d || (storeOf(*d) != Store::F32 && storeOf(*d) != Store::I64 && *d != DType::Bool))
      return c.fail("dtype " + std::to_string(c.attrInt("dtype", 0)) + " is not a numeric or bool type");
    dt = *d;
  }
  RtTensor y = RtTensor::alloc(dt, p.dims);
  Rng rng(c);
  const int64_t n = p.numel();
  for (int64_t k = 0; k < n; ++k) {
    const float pk = p.f()[k];
    if (!(pk >= 0.f && pk <= 1.f))
      return c.fail("probability " + std::to_string(pk) + " at index " + std::to_string(k) + " is outside [0, 1]");
    const bool one = rng.uniform() < pk;
    switch (y.store()) {
      case Store::F32: y.mf()[k] = one ? 1.f : 0.f; break;
      case Store::I64: y.mi()[k] = one ? 1 : 0; break;
      default: y.mb()[k] = one ? 1 : 0; break;
    }
  }
  c.out[0] = y;
  return {};
}

Status opMultinomial(OpContext& c) {
  if (!c.has(0) || c.input(0).store() != Store::F32) return c.fail("expects a float input of log-probabilities");
  const RtTensor& x = c.input(0);
  if (x.rank() != 2) return c.fail("input must be [batch_size, class_size], got " + dimsStr(x.dims));
  const int64_t batch = x.dims[0], classes = x.dims[1];
  const int64_t samples = c.attrInt("sample_size", 1);
  if (samples < 0) return c.fail("sample_size must not be negative");
  auto d = dtypeFromInt(static_cast<int32_t>(c.attrInt("dtype", 6)));
  if (!d || (*d != DType::Int32 && *d != DType::Int64)) return c.fail("dtype must be int32 or int64");
  if (classes == 0 && batch > 0 && samples > 0) return c.fail("class_size is 0");
  if (!checkedBytes({batch, samples}, 8)) return c.fail("batch_size x sample_size is too large");
  RtTensor y = RtTensor::alloc(*d, {batch, samples});
  Rng rng(c);
  std::vector<double> cum(static_cast<size_t>(classes));
  for (int64_t b = 0; b < batch && samples > 0; ++b) {
    const float* row = x.f() + b * classes;
    const double mx = *std::max_element(row, row + classes);
    double total = 0;
    for (int64_t k = 0; k < classes; ++k) cum[static_cast<size_t>(k)] = total += std::exp(row[k] - mx);
    if (!std::isfinite(total) || total <= 0)
      return c.fail("row " + std::to_string(b) + " has no finite log-probability to sample from");
    for (int64_t s = 0; s < samples; ++s) {
      const double u = rng.uniform() * total;
      const auto it = std::upper_bound(cum.begin(), cum.end(), u);
      y.mi()[b * samples + s] = std::min<int64_t>(it - cum.begin(), classes - 1);
    }
  }
  c.out[0] = y;
  return {};
}

}  // namespace

std::vector<OpEntry> randomOps() {
  return {{"RandomNormal", opRandom<true>},          {"RandomUniform", opRandom<false>},
          {"RandomNormalLike", opRandomLike<true>},  {"RandomUniformLike", opRandomLike<false>},
          {"Bernoulli", opBernoulli},                {"Multinomial", opMultinomial}};
}

}  // namespace fw::exec
