// Helpers kernels share: errors naming the node, broadcasting, strides, MatMul shapes, casts, the
// thread pool's parallelFor.
#include "core/exec/OpContext.h"

#include <cpuid.h>
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "core/exec/ThreadPool.h"

namespace fw::exec {

Error OpContext::fail(const std::string& msg) const {
  return Error::badInput("node '" + node.name + "' (" + node.opType + "): " + msg);
}

std::string dimsStr(const std::vector<int64_t>& d) {
  std::ostringstream os;
  os << "[";
  for (size_t k = 0; k < d.size(); ++k) os << (k ? "," : "") << d[k];
  os << "]";
  return os.str();
}

Result<std::vector<int64_t>> broadcastShapes(const std::vector<std::vector<int64_t>>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto& s : shapes) {
    const size_t off = rank - s.size();
    for (size_t k = 0; k < s.size(); ++k) {
      int64_t& o = out[off + k];
      const int64_t d = s[k];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string all;
      for (const auto& x : shapes) all += (all.empty() ? "" : " vs ") + dimsStr(x);
      return Error::badInput("shapes cannot be broadcast: " + all);
    }
  }
  return out;
}

Status unaryFloatArray(OpContext& c, const std::function<void(const float*, float*, int64_t)>& f, int64_t costPerItem) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  if (x.store() != Store::F32) return c.fail("expects a floating-point input, got " + std::string(dtypeName(x.dtype)));
  RtTensor y = RtTensor::alloc(x.dtype, x.dims);
  const float* a = x.f();
  float* o = y.mf();
  parallelFor(x.numel(), costPerItem, [&](int64_t b, int64_t e) { f(a + b, o + b, e - b); });
  c.out[0] = std::move(y);
  return {};
}

std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t k = dims.size(); k-- > 1;) s[k - 1] = s[k] * dims[k];
  return s;
}

int64_t MatMulShape::offsetOf(int64_t b, const std::vector<int64_t>& st) const {
  int64_t off = 0;
  for (size_t d = batch.size(); d-- > 0;) {
    off += (b % batch[d]) * st[d];
    b /= batch[d];
  }
  return off;
}

std::array<int64_t, 3> MatMulShape::batchRun() const {
  int64_t run = 1, stepA = 0, stepB = 0;
  for (size_t d = batch.size(); d-- > 0;) {
    const int64_t n = batch[d];
    if (n == 1) continue;
    if (run == 1) {
      stepA = aStrides[d], stepB = bStrides[d];
    } else if (aStrides[d] != stepA * run || bStrides[d] != stepB * run) {
      break;
    }
    run *= n;
  }
  return {run, stepA, stepB};
}

Result<MatMulShape> matmulShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.empty() || b.empty()) return Error::badInput("inputs must not be scalars");
  std::vector<int64_t> ad = a, bd = b;
  const bool aVec = ad.size() == 1, bVec = bd.size() == 1;
  if (aVec) ad.insert(ad.begin(), 1);
  if (bVec) bd.push_back(1);
  MatMulShape s;
  s.M = ad[ad.size() - 2];
  s.K = ad.back();
  s.N = bd.back();
  if (bd[bd.size() - 2] != s.K) return Error::badInput("inner dims differ: " + dimsStr(a) + " x " + dimsStr(b));
  s.aBatch.assign(ad.begin(), ad.end() - 2);
  s.bBatch.assign(bd.begin(), bd.end() - 2);
  auto batch = broadcastShapes({s.aBatch, s.bBatch});
  if (!batch.ok()) return batch.error();
  s.batch = std::move(batch).value();
  s.out = s.batch;
  if (!aVec) s.out.push_back(s.M);
  if (!bVec) s.out.push_back(s.N);
  s.aStrides = broadcastStrides(s.aBatch, s.batch);
  s.bStrides = broadcastStrides(s.bBatch, s.batch);
  return s;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& out) {
  std::vector<int64_t> s(out.size(), 0);
  const auto own = stridesOf(dims);
  const size_t off = out.size() - dims.size();
  for (size_t k = 0; k < dims.size(); ++k) s[off + k] = dims[k] == 1 ? 0 : own[k];
  return s;
}

int64_t normAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

namespace {

// Each float rounded to the nearest float16 (ties to even), as floatToHalf then halfToFloat do (core/ir):
// with F16C eight at a time (the instruction rounds alike; a NaN stays a NaN), the rest one at a time.
// Element by element, [8, 64, 32, 32] took 9.4 ms (1 thread, session 37).
__attribute__((target("avx,f16c"))) int64_t roundToHalfF16c(const float* x, float* y, int64_t n) {
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + k), _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_ps(y + k, _mm256_cvtph_ps(h));
  }
  return k;
}
void roundToHalf(const float* x, float* y, int64_t n) {
  // AVX as the compiler's runtime check has it (with the OS saving its registers); F16C from CPUID leaf 1
  // (clang's __builtin_cpu_supports has no "f16c").
  static const bool f16c = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
  }();
  const int64_t done = f16c ? roundToHalfF16c(x, y, n) : 0;
  for (int64_t k = done; k < n; ++k) y[k] = halfToFloat(floatToHalf(x[k]));
}

// y[k] = x[k] truncated to an integer, eight at a time while all eight are within [-2^31, 2^31); returns the
// count done (the loop's caller does the rest, and everything without AVX2).
__attribute__((target("avx2"))) int64_t floatsToInt64Avx2Body(const float* x, int64_t* y, int64_t n) {
  const __m256 lo = _mm256_set1_ps(-2147483648.f), hi = _mm256_set1_ps(2147483648.f);
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256 v = _mm256_loadu_ps(x + k);
    const __m256 in = _mm256_and_ps(_mm256_cmp_ps(v, lo, _CMP_GE_OQ), _mm256_cmp_ps(v, hi, _CMP_LT_OQ));
    if (_mm256_movemask_ps(in) != 0xff) break;  // a NaN, an infinity or a value beyond int32: the scalar loop
    const __m256i i = _mm256_cvttps_epi32(v);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + k), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + k + 4),
                        _mm256_cvtepi32_epi64(_mm256_extracti128_si256(i, 1)));
  }
  return k;
}
int64_t floatsToInt64Avx2(const float* x, int64_t* y, int64_t n) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2 ? floatsToInt64Avx2Body(x, y, n) : 0;
}

float roundToBFloat16(float v) {
  if (std::isnan(v)) return v;
  uint32_t x;
  std::memcpy(&x, &v, 4);
  x = (x + 0x7fffu + ((x >> 16) & 1u)) & 0xffff0000u;
  float y;
  std::memcpy(&y, &x, 4);
  return y;
}

}  // namespace

RtTensor castTo(const RtTensor& src, DType to) {
  if (src.dtype == to) return src;
  const Store from = src.store();
  const Store dst = storeOf(to);
  const int64_t n = src.numel();
  RtTensor r = RtTensor::alloc(to, src.dims);
  // A loop for each pair of stores (through getD/getI, a switch an element, a Cast of [8, 64, 32, 32]
  // from bool took 635 us, from int64 607, 1 thread, session 37); values as getD gives them, a float
  // destination rounded to the target's precision.
  if (dst == Store::F32) {
    float* y = r.mf();
    if (from == Store::F32)
      std::copy(src.f(), src.f() + n, y);
    else if (from == Store::I64)
      for (int64_t k = 0; k < n; ++k) y[k] = static_cast<float>(static_cast<double>(src.i()[k]));
    else if (from == Store::U8)
      for (int64_t k = 0; k < n; ++k) y[k] = static_cast<float>(src.b()[k]);
    else
      for (int64_t k = 0; k < n; ++k) y[k] = static_cast<float>(src.getD(k));
    if (to == DType::Float16) roundToHalf(y, y, n);
    if (to == DType::BFloat16)
      for (int64_t k = 0; k < n; ++k) y[k] = roundToBFloat16(y[k]);
  } else if (dst == Store::I64) {
    int64_t* y = r.mi();
    if (from == Store::F32) {
      // To int64 or int32, eight values at a time where all eight lie within int32 (truncated as a scalar
      // cast truncates): element by element, the target's width looked up for each, a Cast of [8192, 8, 8, 3]
      // (a hash grid's cell corners) took 1248 us, where a Relu over it takes 316 (1 thread, session 54).
      // A block the vector loop leaves (a NaN, an infinity, a value beyond int32) goes element by element.
      const bool vec = to == DType::Int64 || to == DType::Int32;
      for (int64_t k = 0; k < n;) {
        if (vec) k += floatsToInt64Avx2(src.f() + k, y + k, n - k);
        for (const int64_t e = vec ? std::min(n, k + 8) : n; k < e; ++k) {
          const float v = src.f()[k];
          y[k] = std::isfinite(v) ? wrapInt(to, static_cast<uint64_t>(static_cast<int64_t>(v)))
                                  : std::numeric_limits<int64_t>::min();
        }
      }
    } else if (from == Store::I64) {
      for (int64_t k = 0; k < n; ++k) y[k] = wrapInt(to, static_cast<uint64_t>(src.i()[k]));
    } else if (from == Store::U8) {
      for (int64_t k = 0; k < n; ++k) y[k] = wrapInt(to, static_cast<uint64_t>(src.b()[k]));
    } else {
      for (int64_t k = 0; k < n; ++k) y[k] = wrapInt(to, static_cast<uint64_t>(src.getI(k)));
    }
  } else if (dst == Store::U8) {
    uint8_t* y = r.mb();
    if (from == Store::F32)
      for (int64_t k = 0; k < n; ++k) y[k] = src.f()[k] != 0.f ? 1 : 0;
    else if (from == Store::I64)
      for (int64_t k = 0; k < n; ++k) y[k] = src.i()[k] != 0 ? 1 : 0;
    else if (from == Store::U8)
      for (int64_t k = 0; k < n; ++k) y[k] = src.b()[k] != 0 ? 1 : 0;
    else
      for (int64_t k = 0; k < n; ++k) y[k] = src.getD(k) != 0 ? 1 : 0;
  }
  return r;
}

RtTensor asFloat(const RtTensor& t) {
  if (t.store() == Store::F32) return t;
  return castTo(t, DType::Float32);
}
RtTensor asInt(const RtTensor& t) {
  if (t.store() == Store::I64) return t;
  return castTo(t, DType::Int64);
}

void parallelFor(int64_t n, int64_t costPerItem, const std::function<void(int64_t, int64_t)>& fn) {
  // At least kMinWork cost units per thread: waking a sleeping worker costs a few microseconds, and
  // smaller pieces are not worth it (nor worth the risk of waiting for a descheduled worker).
  constexpr int64_t kMinWork = 32768;
  const int64_t total = n * std::max<int64_t>(1, costPerItem);
  const int64_t threads = std::min<int64_t>({parallelThreads(), n, total / kMinWork});
  if (threads <= 1) {
    fn(0, n);
    return;
  }
  parallelChunks(threads, [&](int64_t t) {
    const int64_t b = n * t / threads, e = n * (t + 1) / threads;
    if (b < e) fn(b, e);
  });
}

}  // namespace fw::exec
