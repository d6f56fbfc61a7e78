// Elementwise kernels: unary math and activations, broadcasting binary arithmetic, comparisons,
// logic, Where, variadic Min/Max/Sum/Mean, Clip, Cast.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/exec/Broadcast.h"
#include "core/exec/FastMath.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

// ---- unary -------------------------------------------------------------------------------------


// Unary ops defined for both floats and integers.
template <class F, class G>
Status unaryNumeric(OpContext& c, F ff, G fi) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  RtTensor y = RtTensor::alloc(x.dtype, x.dims);
  const int64_t n = x.numel();
  if (x.store() == Store::F32) {
    for (int64_t i = 0; i < n; ++i) y.mf()[i] = ff(x.f()[i]);
  } else if (x.store() == Store::I64) {
    for (int64_t i = 0; i < n; ++i) y.mi()[i] = fi(x.i()[i]);
  } else {
    return c.fail("unsupported input type " + std::string(dtypeName(x.dtype)));
  }
  c.out[0] = std::move(y);
  return {};
}

// A NaN stays NaN, as in the ONNX reference (np.clip(x, 0, inf)) and in oneDNN's relu post-op.
Status opRelu(OpContext& c) {
  if (c.has(0) && c.input(0).store() == Store::F32) return unaryFloat(c, [](float v) { return v < 0 ? 0.f : v; });
  return unaryNumeric(c, [](float v) { return v < 0 ? 0.f : v; }, [](int64_t v) { return v > 0 ? v : int64_t{0}; });
}
Status opNeg(OpContext& c) {
  return unaryNumeric(c, [](float v) { return -v; }, [](int64_t v) { return -v; });
}
Status opAbs(OpContext& c) {
  return unaryNumeric(c, [](float v) { return std::fabs(v); }, [](int64_t v) { return v < 0 ? -v : v; });
}
Status opSign(OpContext& c) {
  return unaryNumeric(c, [](float v) { return v > 0 ? 1.f : (v < 0 ? -1.f : 0.f); },
                      [](int64_t v) { return int64_t{v > 0} - int64_t{v < 0}; });
}
// Vector approximations within 4 ulp whose speed does not depend on the data (FastMath.h).
using ArrayFn = void (*)(const float*, float*, int64_t);
Status opSigmoid(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::sigmoid}); }
Status opTanh(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::tanh}); }
Status opErf(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::erf}); }
Status opExp(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::exp}); }
Status opLog(OpContext& c) { return unaryFloat(c, [](float v) { return std::log(v); }); }
Status opSqrt(OpContext& c) { return unaryFloat(c, [](float v) { return std::sqrt(v); }); }
Status opReciprocal(OpContext& c) { return unaryFloat(c, [](float v) { return 1.f / v; }); }
Status opFloor(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::floor}); }
Status opCeil(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::ceil}); }
Status opRound(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::nearbyint}); }
Status opSin(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::sin}); }
Status opCos(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::cos}); }
Status opSoftsign(OpContext& c) { return unaryFloat(c, [](float v) { return v / (1.f + std::fabs(v)); }); }
Status opSoftplus(OpContext& c) { return unaryFloatArray(c, ArrayFn{fastmath::softplus}); }
Status opLeakyRelu(OpContext& c) {
  const float a = c.attrFloat("alpha", 0.01f);
  // max(v, 0) + min(v, 0) * alpha: the same value for every v (signed zeros and NaN included) without
  // a branch, so the loop vectorises; a select on the sign stayed a scalar, mispredicted branch on
  // activations of both signs (4 ns an element).
  return unaryFloat(c, [a](float v) { return std::max(v, 0.f) + std::min(v, 0.f) * a; });
}
// ELU, CELU and SELU: the exponential of each element's negative part on vector lanes (FastMath.h), then
// the output without a branch on the sign (as LeakyRelu). std::exp a call an element behind such a branch
// took 5.6 ns an element (Elu over 32 x 64 x 32 x 32 normal values: 11.8 ms, 1 thread; a Relu over the same
// 0.64 ms); fast exp behind the branch still 11.5. `negative(x)` is the exponential's argument (0 where it
// is not needed), `pick(x, e)` the output from x and e = exp(that). Signed zeros and NaN come out as the
// definitions' selects give them: std::min(-0.f, n) is -0 for n = ±0, std::min(0.f, n) +0.
template <class Negative, class Pick>
Status expUnit(OpContext& c, Negative negative, Pick pick) {
  return unaryFloatArray(c, [negative, pick](const float* x, float* y, int64_t n) {
    // Local copies and restrict pointers, as unaryFloat's (OpContext.h): otherwise each store to y may
    // alias the captured alpha, which is reloaded every element and keeps the loop scalar and branching.
    const Negative neg = negative;
    const Pick pk = pick;
    const float* __restrict in = x;
    float* __restrict out = y;
    for (int64_t i = 0; i < n; ++i) out[i] = neg(in[i]);
    fastmath::exp(out, out, n);
    for (int64_t i = 0; i < n; ++i) out[i] = pk(in[i], out[i]);
  });
}
Status opElu(OpContext& c) {
  const float a = c.attrFloat("alpha", 1.0f);
  auto negative = [](float v) { return std::min(v, 0.f); };
  // v >= 0 ? v : a * (e - 1), as a blend of the two values' bits: the compiler kept the select (and
  // some max/min forms of it) a branch an element, 12-14 ms over the 2M values above.
  return expUnit(c, negative, [a](float v, float e) {
    const uint32_t keep = 0u - static_cast<uint32_t>(v >= 0.f);
    return std::bit_cast<float>((std::bit_cast<uint32_t>(v) & keep) |
                                (std::bit_cast<uint32_t>(a * (e - 1.f)) & ~keep));
  });
}
Status opCelu(OpContext& c) {
  const float a = c.attrFloat("alpha", 1.0f);
  return expUnit(
      c, [a](float v) { return std::min(v / a, 0.f); },
      [a](float v, float e) { return std::max(0.f, v) + std::min(0.f, a * (e - 1.f)); });
}
Status opSelu(OpContext& c) {
  const float a = c.attrFloat("alpha", 1.67326319217681884765625f);
  const float g = c.attrFloat("gamma", 1.05070102214813232421875f);
  auto negative = [](float v) { return std::min(v, 0.f); };
  if (a >= 0)
    return expUnit(c, negative,
                   [a, g](float v, float e) { return g * (std::max(v, 0.f) + std::min(0.f, a * e - a)); });
  return expUnit(c, negative, [a, g](float v, float e) { return v > 0 ? g * v : g * (a * e - a); });
}
Status opHardSigmoid(OpContext& c) {
  const float a = c.attrFloat("alpha", 0.2f), b = c.attrFloat("beta", 0.5f);
  return unaryFloat(c, [a, b](float v) { return std::max(0.f, std::min(1.f, a * v + b)); });
}
Status opHardSwish(OpContext& c) {
  return unaryFloat(c, [](float v) { return v * std::max(0.f, std::min(1.f, v / 6.f + 0.5f)); });
}

// ---- binary ------------------------------------------------------------------------------------

enum class Bin { Add, Sub, Mul, Div, Min, Max, Pow, PRelu, Sum, Mod };

template <class T>
T applyBin(Bin op, T a, T b) {
  switch (op) {
    case Bin::Add:
    case Bin::Sum: return a + b;
    case Bin::Sub: return a - b;
    case Bin::Mul: return a * b;
    case Bin::Div:
      if constexpr (std::is_integral_v<T>) return b == 0 ? T{0} : a / b;
      else return a / b;
    case Bin::Min:
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
      return a < b ? a : b;
    case Bin::Max:
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
      return a > b ? a : b;
    case Bin::PRelu: return a < 0 ? a * b : a;
    default: return a;
  }
}

Result<RtTensor> binary(OpContext& c, const RtTensor& a, const RtTensor& b, Bin op) {
  auto od = broadcastShapes({a.dims, b.dims});
  if (!od.ok()) return c.fail(od.error().message);
  if (op == Bin::Pow) {
    // Result has the base's type; exponent may be of another numeric type.
    RtTensor y = RtTensor::alloc(a.dtype, *od);
    if (a.store() == Store::F32) {
      RtTensor e = asFloat(b);
      binaryLoop(a.f(), a.dims, e.f(), e.dims, y.mf(), *od, [](float x, float p) {
        if (p == 2.f) return x * x;
        return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(p)));
      });
    } else if (a.store() == Store::I64) {
      if (b.store() == Store::F32) {
        binaryLoop(a.i(), a.dims, b.f(), b.dims, y.mi(), *od, [](int64_t x, float p) {
          return static_cast<int64_t>(std::pow(static_cast<double>(x), static_cast<double>(p)));
        });
      } else {
        RtTensor e = asInt(b);
        binaryLoop(a.i(), a.dims, e.i(), e.dims, y.mi(), *od, [](int64_t x, int64_t p) {
          int64_t r = 1;
          for (int64_t k = 0; k < p; ++k) r *= x;
          return r;
        });
      }
    } else {
      return c.fail("unsupported base type " + std::string(dtypeName(a.dtype)));
    }
    return y;
  }
  if (op == Bin::Mod) {
    RtTensor y = RtTensor::alloc(a.dtype, *od);
    const bool fmod = c.attrInt("fmod", 0) != 0;
    if (a.store() == Store::F32) {
      RtTensor bb = asFloat(b);
      binaryLoop(a.f(), a.dims, bb.f(), bb.dims, y.mf(), *od, [fmod](float x, float m) {
        float r = std::fmod(x, m);
        if (!fmod && r != 0 && ((r < 0) != (m < 0))) r += m;
        return r;
      });
    } else {
      RtTensor bb = asInt(b);
      // By a positive power of two (a hash table's size), Python's modulo (the sign of the divisor) is the
      // low bits of x in two's complement, for negative x too: a mask where a division took 2.2 ns an element
      // (a hash grid's indices, [8192, 8, 8] % 2^14: 1.1 ms, 1 thread, set 65, session 54).
      if (!fmod && bb.numel() == 1 && a.dims == *od && bb.i()[0] > 0 && (bb.i()[0] & (bb.i()[0] - 1)) == 0) {
        const int64_t mask = bb.i()[0] - 1, n = y.numel();
        const int64_t* px = a.i();
        int64_t* py = y.mi();
        parallelFor(n, 1, [&](int64_t s, int64_t e) {
          for (int64_t i = s; i < e; ++i) py[i] = px[i] & mask;
        });
        return y;
      }
      binaryLoop(a.i(), a.dims, bb.i(), bb.dims, y.mi(), *od, [fmod](int64_t x, int64_t m) {
        if (m == 0) return int64_t{0};
        int64_t r = x % m;
        if (!fmod && r != 0 && ((r < 0) != (m < 0))) r += m;
        return r;
      });
    }
    return y;
  }
  if (a.store() != b.store())
    return c.fail("input types differ: " + std::string(dtypeName(a.dtype)) + " and " + std::string(dtypeName(b.dtype)));
  RtTensor y = RtTensor::alloc(a.dtype, *od);
  if (a.store() == Store::F32) {
    switch (op) {
      case Bin::Add:
        if (c.fuseRelu) {  // the Relu that reads only this Add (residual blocks), in the same pass
          binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) {
            const float s = x + z;
            return s < 0 ? 0.f : s;
          });
          c.reluApplied = true;
          break;
        }
        [[fallthrough]];
      case Bin::Sum: binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) { return x + z; }); break;
      case Bin::Sub: binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) { return x - z; }); break;
      case Bin::Mul: binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) { return x * z; }); break;
      case Bin::Div: binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) { return x / z; }); break;
      // Both sides computed, then a select on the bits: no branch on the sign, which the compiler keeps
      // for a float select whose product may trap (a PReLU over [256, 128] with one slope took 120 us so,
      // its branch mispredicted on random signs).
      case Bin::PRelu:
        binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) {
          const uint32_t m = 0u - static_cast<uint32_t>(x < 0);
          return std::bit_cast<float>((std::bit_cast<uint32_t>(x * z) & m) |
                                      (std::bit_cast<uint32_t>(x) & ~m));
        });
        break;
      // Min/Max as selects on values already computed (NaN propagated as applyBin does), so the loop
      // vectorises instead of branching per element.
      case Bin::Max:
        binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) {
          const float m = x > z ? x : z;
          return (x != x || z != z) ? std::numeric_limits<float>::quiet_NaN() : m;
        });
        break;
      case Bin::Min:
        binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [](float x, float z) {
          const float m = x < z ? x : z;
          return (x != x || z != z) ? std::numeric_limits<float>::quiet_NaN() : m;
        });
        break;
      default:
        binaryLoop(a.f(), a.dims, b.f(), b.dims, y.mf(), *od, [op](float x, float z) { return applyBin(op, x, z); });
    }
  } else if (a.store() == Store::I64) {
    // Index arithmetic (ids plus a table's offsets, a position times a stride): the op chosen once, not
    // an element at a time ([256, 12] + [12] took 2.9 us, the float Add 0.8).
    switch (op) {
      case Bin::Add:
      case Bin::Sum:
        binaryLoop(a.i(), a.dims, b.i(), b.dims, y.mi(), *od, [](int64_t x, int64_t z) { return x + z; });
        break;
      case Bin::Sub:
        binaryLoop(a.i(), a.dims, b.i(), b.dims, y.mi(), *od, [](int64_t x, int64_t z) { return x - z; });
        break;
      case Bin::Mul:
        binaryLoop(a.i(), a.dims, b.i(), b.dims, y.mi(), *od, [](int64_t x, int64_t z) { return x * z; });
        break;
      default:
        binaryLoop(a.i(), a.dims, b.i(), b.dims, y.mi(), *od,
                   [op](int64_t x, int64_t z) { return applyBin(op, x, z); });
    }
  } else {
    return c.fail("unsupported input type " + std::string(dtypeName(a.dtype)));
  }
  return y;
}

template <Bin op>
Status opBinary(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects two inputs");
  auto r = binary(c, c.input(0), c.input(1), op);
  if (!r.ok()) return r.error();
  c.out[0] = std::move(r).value();
  return {};
}

template <Bin op>
Status opVariadic(OpContext& c) {
  if (!c.has(0)) return c.fail("expects at least one input");
  RtTensor acc = c.input(0);
  for (size_t k = 1; k < c.numIn(); ++k) {
    if (!c.has(k)) continue;
    auto r = binary(c, acc, c.input(k), op);
    if (!r.ok()) return r.error();
    acc = std::move(r).value();
  }
  c.out[0] = acc;
  return {};
}

Status opMean(OpContext& c) {
  FW_TRY_STATUS(opVariadic<Bin::Sum>(c));
  RtTensor s = c.out[0];
  if (s.store() != Store::F32) return c.fail("expects floating-point inputs");
  RtTensor y = RtTensor::alloc(s.dtype, s.dims);
  const float inv = 1.f / static_cast<float>(c.numIn());
  for (int64_t i = 0; i < s.numel(); ++i) y.mf()[i] = s.f()[i] * inv;
  c.out[0] = std::move(y);
  return {};
}

// ---- comparisons and logic ---------------------------------------------------------------------

enum class Cmp { Eq, Lt, Gt, Le, Ge };

template <Cmp op>
Status opCompare(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects two inputs");
  const RtTensor& a = c.input(0);
  const RtTensor& b = c.input(1);
  auto od = broadcastShapes({a.dims, b.dims});
  if (!od.ok()) return c.fail(od.error().message);
  RtTensor y = RtTensor::alloc(DType::Bool, *od);
  auto cmp = [](auto x, auto z) -> uint8_t {
    switch (op) {
      case Cmp::Eq: return x == z;
      case Cmp::Lt: return x < z;
      case Cmp::Gt: return x > z;
      case Cmp::Le: return x <= z;
      case Cmp::Ge: return x >= z;
    }
    return 0;
  };
  if (a.store() == Store::F32 || b.store() == Store::F32) {
    RtTensor fa = asFloat(a), fb = asFloat(b);
    binaryLoop(fa.f(), fa.dims, fb.f(), fb.dims, y.mb(), *od, cmp);
  } else if (a.store() == Store::Str && b.store() == Store::Str && op == Cmp::Eq) {
    binaryLoop(a.s(), a.dims, b.s(), b.dims, y.mb(), *od, cmp);
  } else {
    RtTensor ia = asInt(a), ib = asInt(b);
    binaryLoop(ia.i(), ia.dims, ib.i(), ib.dims, y.mb(), *od, cmp);
  }
  c.out[0] = std::move(y);
  return {};
}

template <int op>  // 0 and, 1 or, 2 xor
Status opLogic(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects two inputs");
  const RtTensor& a = c.input(0);
  const RtTensor& b = c.input(1);
  if (a.store() != Store::U8 || b.store() != Store::U8) return c.fail("expects bool inputs");
  auto od = broadcastShapes({a.dims, b.dims});
  if (!od.ok()) return c.fail(od.error().message);
  RtTensor y = RtTensor::alloc(DType::Bool, *od);
  binaryLoop(a.b(), a.dims, b.b(), b.dims, y.mb(), *od, [](uint8_t x, uint8_t z) -> uint8_t {
    if (op == 0) return x && z;
    if (op == 1) return x || z;
    return (x != 0) != (z != 0);
  });
  c.out[0] = std::move(y);
  return {};
}

Status opNot(OpContext& c) {
  if (!c.has(0) || c.input(0).store() != Store::U8) return c.fail("expects a bool input");
  const RtTensor& x = c.input(0);
  RtTensor y = RtTensor::alloc(DType::Bool, x.dims);
  const int64_t n = x.numel();
  const uint8_t* in = x.b();
  uint8_t* out = y.mb();
  FW_IVDEP
  for (int64_t i = 0; i < n; ++i) out[i] = in[i] == 0;
  c.out[0] = std::move(y);
  return {};
}

// out = cond ? x : y over broadcast rows, for one storage type. For numbers both sides are read
// unconditionally, so the loop is a select the vectorizer can use (a conditional read is a branch per
// element on data: Where over 60K random conditions took 132 us).
template <class T>
void whereRows(const std::vector<int64_t>& od, const RtTensor& cond, const RtTensor& x, const RtTensor& y,
               const T* xs, const T* ys, T* out) {
  const uint8_t* cs = cond.b();
  // Short rows (under 16 elements) a plane of them at a time, [m, len] with each input's two strides: row by
  // row, each row cost the odometer's step and the loop's set-up; a hash grid's trilinear weights, Where over
  // [1, 1, 8, 3], [8192, 8, 1, 3] and [8192, 8, 1, 3] in rows of 3, took 2.8 ms (1 thread, set 65, session
  // 54).
  if constexpr (std::is_arithmetic_v<T>) {
    const MergedDims<3> md = mergeBroadcastDims<3>(od, {cond.dims, x.dims, y.dims});
    const size_t r = md.out.size();
    if (r >= 2 && md.out[r - 1] < 16 && md.out[r - 2] > 1) {
      const int64_t len = md.out[r - 1], m = md.out[r - 2];
      const int64_t c0 = md.strides[0][r - 1], c1 = md.strides[0][r - 2], x0 = md.strides[1][r - 1],
                    x1 = md.strides[1][r - 2], y0 = md.strides[2][r - 1], y1 = md.strides[2][r - 2];
      byShortLength(len, [&](auto k) {
        constexpr int K = decltype(k)::value;
        const int64_t n = K > 0 ? K : len;
        walkOuterDims(md, 2, [&](int64_t o, const std::array<int64_t, 3>& off) {
          const uint8_t* pc = cs + off[0];
          const T* px = xs + off[1];
          const T* py = ys + off[2];
          T* po = out + o;
          if (c0 == 1 && x0 == 1 && y0 == 1)  // every input dense along the row: no index arithmetic
            for (int64_t j = 0; j < m; ++j, pc += c1, px += x1, py += y1, po += n)
              for (int64_t i = 0; i < n; ++i) {
                const T a = px[i], b = py[i];
                po[i] = pc[i] ? a : b;
              }
          else
            for (int64_t j = 0; j < m; ++j, pc += c1, px += x1, py += y1, po += n)
              for (int64_t i = 0; i < n; ++i) {
                const T a = px[i * x0], b = py[i * y0];
                po[i] = pc[i * c0] ? a : b;
              }
        });
      });
      return;
    }
  }
  broadcastRows<3>(
      od, {cond.dims, x.dims, y.dims},
      [&](int64_t o, const std::array<int64_t, 3>& off, int64_t len, const std::array<int64_t, 3>& st) {
        const uint8_t* pc = cs + off[0];
        const T* px = xs + off[1];
        const T* py = ys + off[2];
        T* po = out + o;
        const int64_t s0 = st[0], s1 = st[1], s2 = st[2];
        if constexpr (std::is_arithmetic_v<T>) {
          if (s0 == 1 && s1 == 1 && s2 == 1) {
            FW_IVDEP
            for (int64_t i = 0; i < len; ++i) {
              const T a = px[i], b = py[i];
              po[i] = pc[i] ? a : b;
            }
            return;
          }
          if (s0 == 1 && s1 == 1 && s2 == 0) {
            const T b = *py;
            FW_IVDEP
            for (int64_t i = 0; i < len; ++i) {
              const T a = px[i];
              po[i] = pc[i] ? a : b;
            }
            return;
          }
          if (s0 == 1 && s1 == 0 && s2 == 1) {
            const T a = *px;
            FW_IVDEP
            for (int64_t i = 0; i < len; ++i) {
              const T b = py[i];
              po[i] = pc[i] ? a : b;
            }
            return;
          }
        }
        for (int64_t i = 0; i < len; ++i) po[i] = pc[i * s0] ? px[i * s1] : py[i * s2];
      });
}

Status opWhere(OpContext& c) {
  if (!c.has(0) || !c.has(1) || !c.has(2)) return c.fail("expects three inputs");
  const RtTensor cond = castTo(c.input(0), DType::Bool);
  const RtTensor& x = c.input(1);
  const RtTensor& y = c.input(2);
  if (x.store() != y.store()) return c.fail("X and Y types differ");
  auto od = broadcastShapes({cond.dims, x.dims, y.dims});
  if (!od.ok()) return c.fail(od.error().message);
  RtTensor out = RtTensor::alloc(x.dtype, *od);
  switch (x.store()) {
    case Store::F32:
      whereRows(*od, cond, x, y, x.f(), y.f(), out.mf());
      break;
    case Store::I64:
      whereRows(*od, cond, x, y, x.i(), y.i(), out.mi());
      break;
    case Store::U8:
      whereRows(*od, cond, x, y, x.b(), y.b(), out.mb());
      break;
    case Store::Str:
      whereRows(*od, cond, x, y, x.s(), y.s(), out.ms());
      break;
    default:
      return c.fail("unsupported type");
  }
  c.out[0] = std::move(out);
  return {};
}

Status opClip(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  RtTensor y = RtTensor::alloc(x.dtype, x.dims);
  const int64_t n = x.numel();
  if (x.store() == Store::F32) {
    float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
    if (c.has(1)) lo = static_cast<float>(c.input(1).getD(0));
    else if (auto v = c.attrs.getFloat("min")) lo = *v;
    if (c.has(2)) hi = static_cast<float>(c.input(2).getD(0));
    else if (auto v = c.attrs.getFloat("max")) hi = *v;
    for (int64_t i = 0; i < n; ++i) y.mf()[i] = std::min(hi, std::max(lo, x.f()[i]));
  } else if (x.store() == Store::I64) {
    int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
    if (c.has(1)) lo = c.input(1).getI(0);
    if (c.has(2)) hi = c.input(2).getI(0);
    for (int64_t i = 0; i < n; ++i) y.mi()[i] = std::min(hi, std::max(lo, x.i()[i]));
  } else {
    return c.fail("unsupported type " + std::string(dtypeName(x.dtype)));
  }
  c.out[0] = std::move(y);
  return {};
}

Status castImpl(OpContext& c, DType to) {
  const RtTensor& x = c.input(0);
  if (storeOf(to) == Store::None) return c.fail("unsupported target type " + std::to_string(static_cast<int>(to)));
  if (x.store() == Store::Str && to != DType::String) {
    RtTensor y = RtTensor::alloc(DType::Float32, x.dims);
    for (int64_t i = 0; i < x.numel(); ++i) {
      const std::string& s = x.s()[i];
      char* end = nullptr;
      y.mf()[i] = std::strtof(s.c_str(), &end);
      if (end == s.c_str()) return c.fail("cannot convert string '" + s + "' to a number");
    }
    c.out[0] = castTo(y, to);
    return {};
  }
  if (to == DType::String) {
    if (x.store() == Store::Str) {
      c.out[0] = x;
      return {};
    }
    RtTensor y = RtTensor::alloc(DType::String, x.dims);
    for (int64_t i = 0; i < x.numel(); ++i) {
      char buf[64];
      if (x.store() == Store::F32) {
        const float v = x.f()[i];
        if (std::isnan(v)) {
          y.ms()[i] = "NaN";
          continue;
        }
        if (std::isinf(v)) {
          y.ms()[i] = v > 0 ? "INF" : "-INF";
          continue;
        }
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        y.ms()[i] = std::string(buf, r.ptr);
      } else {
        y.ms()[i] = std::to_string(x.getI(i));
      }
    }
    c.out[0] = std::move(y);
    return {};
  }
  c.out[0] = castTo(x, to);
  return {};
}

Status opCast(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  auto to = c.attrs.getInt("to");
  if (!to) return c.fail("missing attribute 'to'");
  auto dt = dtypeFromInt(static_cast<int32_t>(*to));
  if (!dt) return c.fail("unknown target type " + std::to_string(*to));
  return castImpl(c, *dt);
}

Status opCastLike(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects two inputs");
  return castImpl(c, c.input(1).dtype);
}

}  // namespace

std::vector<OpEntry> elementwiseOps() {
  return {
      {"Relu", opRelu},           {"Neg", opNeg},
      {"Abs", opAbs},             {"Sign", opSign},
      {"Sigmoid", opSigmoid},     {"Tanh", opTanh},
      {"Erf", opErf},             {"Exp", opExp},
      {"Log", opLog},             {"Sqrt", opSqrt},
      {"Reciprocal", opReciprocal}, {"Floor", opFloor},
      {"Ceil", opCeil},           {"Round", opRound},
      {"Sin", opSin},             {"Cos", opCos},
      {"Softsign", opSoftsign},   {"Softplus", opSoftplus},
      {"LeakyRelu", opLeakyRelu}, {"Elu", opElu},
      {"Celu", opCelu},           {"Selu", opSelu},
      {"HardSigmoid", opHardSigmoid}, {"HardSwish", opHardSwish},
      {"Add", opBinary<Bin::Add>}, {"Sub", opBinary<Bin::Sub>},
      {"Mul", opBinary<Bin::Mul>}, {"Div", opBinary<Bin::Div>},
      {"Pow", opBinary<Bin::Pow>}, {"PRelu", opBinary<Bin::PRelu>},
      {"Mod", opBinary<Bin::Mod>},
      {"Min", opVariadic<Bin::Min>}, {"Max", opVariadic<Bin::Max>},
      {"Sum", opVariadic<Bin::Sum>}, {"Mean", opMean},
      {"Equal", opCompare<Cmp::Eq>}, {"Less", opCompare<Cmp::Lt>},
      {"Greater", opCompare<Cmp::Gt>}, {"LessOrEqual", opCompare<Cmp::Le>},
      {"GreaterOrEqual", opCompare<Cmp::Ge>},
      {"And", opLogic<0>},        {"Or", opLogic<1>},
      {"Xor", opLogic<2>},        {"Not", opNot},
      {"Where", opWhere},         {"Clip", opClip},
      {"Cast", opCast},           {"CastLike", opCastLike},
  };
}

}  // namespace fw::exec
