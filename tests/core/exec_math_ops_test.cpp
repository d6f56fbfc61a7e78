// Hand-computed cases for the math kernels (core/exec/ops_math.cpp) that the ONNX node tests do not
// reach: older-opset semantics, integer wrapping, NaN handling, broadcasting einsum, error paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/exec/Executor.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::DType;
using fw::Tensor;

namespace {

template <class T>
std::vector<T> valuesOf(const Tensor& t) {
  auto s = t.data<T>();
  return std::vector<T>(s.begin(), s.end());
}

}  // namespace

TEST(ExecMathOps, HardmaxBeforeOpset13CoercesTo2D) {
  const Tensor x = Tensor::floats({2, 2, 2}, {1, 5, 3, 2, 0, 0, 7, 0});
  // Opset 11, default axis 1: rows [1,5,3,2] and [0,0,7,0].
  auto legacy = runOne("Hardmax", {{"x", x}}, 1, {}, 11);
  ASSERT_TRUE(legacy.ok()) << legacy.error().message;
  expectNear((*legacy)[0], {2, 2, 2}, {0, 1, 0, 0, 0, 0, 1, 0});
  // Opset 13, default axis -1: pairs along the last dim; a tie picks the first.
  auto now = runOne("Hardmax", {{"x", x}}, 1, {}, 13);
  ASSERT_TRUE(now.ok()) << now.error().message;
  expectNear((*now)[0], {2, 2, 2}, {0, 1, 1, 0, 1, 0, 1, 0});
}

TEST(ExecMathOps, ArgMaxArgMinNaNAndTies) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = Tensor::floats({4}, {1, nan, 3, nan});
  auto first = runOne("ArgMax", {{"x", x}}, 1, attrs({Attribute::makeInt("keepdims", 0)}));
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ((*first)[0].dtype(), DType::Int64);
  EXPECT_EQ((*first)[0].toInt64s(), std::vector<int64_t>{1});
  auto last = runOne("ArgMax", {{"x", x}}, 1,
                     attrs({Attribute::makeInt("keepdims", 0), Attribute::makeInt("select_last_index", 1)}));
  ASSERT_TRUE(last.ok()) << last.error().message;
  EXPECT_EQ((*last)[0].toInt64s(), std::vector<int64_t>{3});
  auto mn = runOne("ArgMin", {{"x", x}}, 1);
  ASSERT_TRUE(mn.ok()) << mn.error().message;
  EXPECT_EQ((*mn)[0].dims(), std::vector<int64_t>{1});
  EXPECT_EQ((*mn)[0].toInt64s(), std::vector<int64_t>{1});

  const Tensor ties = Tensor::floats({2, 3}, {2, 2, 1, 0, 5, 5});
  auto t1 = runOne("ArgMax", {{"x", ties}}, 1, attrs({Attribute::makeInt("axis", -1)}));
  ASSERT_TRUE(t1.ok()) << t1.error().message;
  EXPECT_EQ((*t1)[0].dims(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ((*t1)[0].toInt64s(), (std::vector<int64_t>{0, 1}));
  auto t2 = runOne("ArgMax", {{"x", ties}}, 1,
                   attrs({Attribute::makeInt("axis", -1), Attribute::makeInt("select_last_index", 1)}));
  ASSERT_TRUE(t2.ok()) << t2.error().message;
  EXPECT_EQ((*t2)[0].toInt64s(), (std::vector<int64_t>{1, 2}));
}

// Calls fn(first, stride, len) for each line of `dims` along `axis`: its first element's flat index, the
// stride between its elements and their count.
template <typename Fn>
void forEachLine(const std::vector<int64_t>& dims, int64_t axis, Fn fn) {
  int64_t n = 1, stride = 1;
  for (int64_t d : dims) n *= d;
  for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) stride *= dims[d];
  const int64_t len = dims[static_cast<size_t>(axis)];
  for (int64_t first = 0; first < n; ++first)
    if ((first / stride) % len == 0) fn(first, stride, len);
}

TEST(ExecMathOps, ArgMaxAndArgMinAlongEveryAxisMatchAScanWithTiesAndNaNs) {
  // [3, 5, 300] of few distinct values (many ties), a NaN in some lines, along each axis (rows; columns in
  // a block of 256 and one of 44), first and last index, float and int64: the index a scan in order picks,
  // a NaN above everything (the first or last NaN).
  const std::vector<int64_t> dims = {3, 5, 300};
  const int64_t n = 3 * 5 * 300;
  std::vector<float> fv(static_cast<size_t>(n));
  std::vector<int64_t> iv(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    iv[static_cast<size_t>(k)] = (k * 7919) % 5 - 2;
    fv[static_cast<size_t>(k)] = k % 97 == 3 ? std::numeric_limits<float>::quiet_NaN()
                                             : static_cast<float>(iv[static_cast<size_t>(k)]);
  }
  for (const bool isMax : {true, false})
    for (int64_t axis = 0; axis < 3; ++axis)
      for (const bool last : {false, true})
        for (const bool ints : {false, true}) {
          const Tensor x = ints ? Tensor::int64s(dims, iv) : Tensor::floats(dims, fv);
          auto r = runOne(
              isMax ? "ArgMax" : "ArgMin", {{"x", x}}, 1,
              attrs({Attribute::makeInt("axis", axis), Attribute::makeInt("select_last_index", last)}), 13);
          ASSERT_TRUE(r.ok()) << r.error().message;
          const auto got = (*r)[0].toInt64s();
          forEachLine(dims, axis, [&](int64_t start, int64_t stride, int64_t len) {
            auto val = [&](int64_t k) {
              const auto at = static_cast<size_t>(start + k * stride);
              return ints ? static_cast<double>(iv[at]) : static_cast<double>(fv[at]);
            };
            int64_t best = 0;
            for (int64_t k = 1; k < len; ++k) {
              const double v = val(k), b = val(best);
              const bool better = !std::isnan(b) && (std::isnan(v) || (isMax ? v > b : v < b));
              const bool asGood = std::isnan(v) || (!std::isnan(b) && (isMax ? v >= b : v <= b));
              if (last ? asGood : better) best = k;
            }
            const int64_t out = (start / (stride * len)) * stride + start % stride;
            ASSERT_EQ(got[static_cast<size_t>(out)], best)
                << (isMax ? "ArgMax" : "ArgMin") << " axis " << axis << (last ? " last" : " first")
                << (ints ? " int64" : " float") << " line " << out;
          });
        }
}

TEST(ExecMathOps, ArgMaxComparesUInt64AsUnsigned) {
  const Tensor x = Tensor::fromVector(DType::UInt64, {3}, std::vector<uint64_t>{7, ~uint64_t{0}, 9});
  auto r = runOne("ArgMax", {{"x", x}}, 1, attrs({Attribute::makeInt("keepdims", 0)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].toInt64s(), std::vector<int64_t>{1});
}

TEST(ExecMathOps, ArgMaxAxisOutOfRangeIsAnError) {
  auto r = runOne("ArgMax", {{"x", iota({2, 3})}}, 1, attrs({Attribute::makeInt("axis", 2)}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("axis"), std::string::npos) << r.error().message;
}

TEST(ExecMathOps, CumSumInt32WrapsAndKeepsItsType) {
  const Tensor x = Tensor::fromVector(DType::Int32, {2}, std::vector<int32_t>{2147483647, 1});
  auto r = runOne("CumSum", {{"x", x}, {"axis", Tensor::fromVector(DType::Int32, {}, std::vector<int32_t>{0})}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), DType::Int32);
  EXPECT_EQ(valuesOf<int32_t>((*r)[0]), (std::vector<int32_t>{2147483647, -2147483647 - 1}));
}

TEST(ExecMathOps, CumSumReverseExclusiveOnTheLastAxis) {
  // Rows [1,2,3] and [4,5,6], reverse exclusive: [5,3,0] and [11,6,0].
  const Tensor x = Tensor::int64s({2, 3}, {1, 2, 3, 4, 5, 6});
  auto r = runOne("CumSum", {{"x", x}, {"axis", Tensor::scalarInt64(-1)}}, 1,
                  attrs({Attribute::makeInt("reverse", 1), Attribute::makeInt("exclusive", 1)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), DType::Int64);
  EXPECT_EQ((*r)[0].toInt64s(), (std::vector<int64_t>{5, 3, 0, 11, 6, 0}));
}

TEST(ExecMathOps, CumSumAlongEveryAxisMatchesARunningSumInEachDirection) {
  // [2, 3, 300] (300 columns past axis 1: a block of 256 and one of 44) along axes 0, 1 and 2, forward and
  // reverse, inclusive and exclusive: floats equal to a float-rounded double running sum in that order, int64
  // exactly.
  const std::vector<int64_t> dims = {2, 3, 300};
  const int64_t n = 2 * 3 * 300;
  std::vector<float> fv(static_cast<size_t>(n));
  std::vector<int64_t> iv(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    fv[static_cast<size_t>(k)] = static_cast<float>(std::fmod(k * 0.37, 5.0) - 2.5);
    iv[static_cast<size_t>(k)] = (k * 7919) % 1000 - 500;
  }
  for (int64_t axis = 0; axis < 3; ++axis)
    for (int mode = 0; mode < 4; ++mode) {
      const bool reverse = mode & 1, exclusive = mode & 2;
      const auto a =
          attrs({Attribute::makeInt("reverse", reverse), Attribute::makeInt("exclusive", exclusive)});
      auto rf =
          runOne("CumSum", {{"x", Tensor::floats(dims, fv)}, {"axis", Tensor::scalarInt64(axis)}}, 1, a);
      auto ri =
          runOne("CumSum", {{"x", Tensor::int64s(dims, iv)}, {"axis", Tensor::scalarInt64(axis)}}, 1, a);
      ASSERT_TRUE(rf.ok() && ri.ok());
      const auto yf = (*rf)[0].toFloats();
      const auto yi = (*ri)[0].toInt64s();
      forEachLine(dims, axis, [&](int64_t start, int64_t stride, int64_t len) {
        double fs = 0;
        int64_t is = 0;
        for (int64_t k0 = 0; k0 < len; ++k0) {
          const int64_t at = start + (reverse ? len - 1 - k0 : k0) * stride;
          if (!exclusive) fs += fv[static_cast<size_t>(at)], is += iv[static_cast<size_t>(at)];
          ASSERT_EQ(yf[static_cast<size_t>(at)], static_cast<float>(fs))
              << "axis " << axis << " mode " << mode;
          ASSERT_EQ(yi[static_cast<size_t>(at)], is) << "axis " << axis << " mode " << mode;
          if (exclusive) fs += fv[static_cast<size_t>(at)], is += iv[static_cast<size_t>(at)];
        }
      });
    }
}

TEST(ExecMathOps, BitShiftWrapsToTheUnsignedWidth) {
  const Tensor x = Tensor::fromVector(DType::UInt8, {3}, std::vector<uint8_t>{255, 1, 16});
  const Tensor s = Tensor::fromVector(DType::UInt8, {3}, std::vector<uint8_t>{1, 8, 9});
  auto r = runOne("BitShift", {{"x", x}, {"s", s}}, 1, attrs({Attribute::makeString("direction", "LEFT")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), DType::UInt8);
  EXPECT_EQ(valuesOf<uint8_t>((*r)[0]), (std::vector<uint8_t>{254, 0, 0}));

  const Tensor big = Tensor::fromVector(DType::UInt64, {2}, std::vector<uint64_t>{~uint64_t{0}, ~uint64_t{0}});
  const Tensor sh = Tensor::fromVector(DType::UInt64, {2}, std::vector<uint64_t>{63, 64});
  auto rr = runOne("BitShift", {{"x", big}, {"s", sh}}, 1, attrs({Attribute::makeString("direction", "RIGHT")}));
  ASSERT_TRUE(rr.ok()) << rr.error().message;
  EXPECT_EQ(valuesOf<uint64_t>((*rr)[0]), (std::vector<uint64_t>{1, 0}));

  auto bad = runOne("BitShift", {{"x", x}, {"s", s}}, 1, attrs({Attribute::makeString("direction", "UP")}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("direction"), std::string::npos) << bad.error().message;
}

TEST(ExecMathOps, EinsumImplicitOutputIsSortedSingleLabels) {
  // "ij,jk" is a matmul [i,k]; "ba" alone is the transpose (output "ab").
  const Tensor a = Tensor::floats({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor b = Tensor::floats({3, 2}, {1, 0, 0, 1, 1, 1});
  auto mm = runOne("Einsum", {{"a", a}, {"b", b}}, 1, attrs({Attribute::makeString("equation", "ij,jk")}));
  ASSERT_TRUE(mm.ok()) << mm.error().message;
  expectNear((*mm)[0], {2, 2}, {4, 5, 10, 11});
  auto tr = runOne("Einsum", {{"a", a}}, 1, attrs({Attribute::makeString("equation", "ba")}));
  ASSERT_TRUE(tr.ok()) << tr.error().message;
  expectNear((*tr)[0], {3, 2}, {1, 4, 2, 5, 3, 6});
  // "ii->" is the trace.
  auto trace = runOne("Einsum", {{"m", iota({3, 3})}}, 1, attrs({Attribute::makeString("equation", "ii->")}));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  expectNear((*trace)[0], {}, {0 + 4 + 8});
}

TEST(ExecMathOps, EinsumBroadcastsEllipsisDims) {
  // a [2,1,2,2] and b [3,2,2]: batch dims [2,1] and [3] broadcast to [2,3].
  const Tensor a = iota({2, 1, 2, 2});
  const Tensor b = iota({3, 2, 2}, 1, 0.5f);
  auto r = runOne("Einsum", {{"a", a}, {"b", b}}, 1,
                  attrs({Attribute::makeString("equation", "...ij,...jk->...ik")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto av = a.toFloats(), bv = b.toFloats();
  std::vector<float> want;
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 3; ++q)
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k) {
          float s = 0;
          for (int j = 0; j < 2; ++j) s += av[p * 4 + i * 2 + j] * bv[q * 4 + j * 2 + k];
          want.push_back(s);
        }
  expectNear((*r)[0], {2, 3, 2, 2}, want);
}

// Two-operand equations that are one batched product (batch, M, N and summed labels in any order, the
// output permuted) run on the GEMM path; each must equal a direct sum over every label, as must the
// forms that still take the general loop (a label summed within one input, a diagonal).
TEST(ExecMathOps, EinsumProductsMatchADirectSum) {
  struct Case {
    std::string eq;
    std::vector<int64_t> a, b;
  };
  for (const Case& t :
       {Case{"bgid,bgjd->bgij", {2, 3, 4, 5}, {2, 3, 6, 5}},
        Case{"bgij,bgjd->bgid", {2, 3, 4, 6}, {2, 3, 6, 5}}, Case{"ikb,jk->bji", {4, 5, 3}, {6, 5}},
        Case{"ij,ij->", {3, 4}, {3, 4}}, Case{"ab,cd->dbca", {2, 3}, {4, 5}},
        Case{"kbi,bkj->jib", {7, 2, 3}, {2, 7, 4}}, Case{"ij,jk->i", {3, 4}, {4, 5}},
        Case{"ii,ij->j", {3, 3}, {3, 4}},
        // a shared first operand (experts), read transposed, with B moved; a label in all three
        Case{"nd,edh->enh", {5, 4}, {3, 4, 6}}, Case{"nd,ehd->enh", {5, 4}, {3, 6, 4}},
        Case{"nd,edh->ehn", {5, 4}, {3, 4, 6}}, Case{"bnd,bedh->benh", {2, 5, 4}, {2, 3, 4, 6}},
        Case{"bid,bjd->bij", {3, 1, 4}, {3, 5, 4}}}) {
    const fw::Tensor a = iota(t.a, -3.f, 0.25f), b = iota(t.b, 1.f, -0.125f);
    auto r = runOne("Einsum", {{"a", a}, {"b", b}}, 1, attrs({Attribute::makeString("equation", t.eq)}));
    ASSERT_TRUE(r.ok()) << t.eq << ": " << r.error().message;
    // The direct sum: every assignment of the labels, in the order they first appear.
    const std::string in = t.eq.substr(0, t.eq.find("->")), out = t.eq.substr(t.eq.find("->") + 2);
    const std::string ta = in.substr(0, in.find(',')), tb = in.substr(in.find(',') + 1);
    std::string labels;
    std::vector<int64_t> size;
    for (size_t p = 0; p < ta.size() + tb.size(); ++p) {
      const char l = p < ta.size() ? ta[p] : tb[p - ta.size()];
      const int64_t d = p < ta.size() ? t.a[p] : t.b[p - ta.size()];
      if (labels.find(l) == std::string::npos) labels += l, size.push_back(d);
    }
    std::vector<int64_t> outDims;
    for (char l : out) outDims.push_back(size[labels.find(l)]);
    int64_t outN = 1, all = 1;
    for (int64_t d : outDims) outN *= d;
    for (int64_t d : size) all *= d;
    std::vector<double> want(static_cast<size_t>(outN), 0.0);
    const auto av = a.toFloats(), bv = b.toFloats();
    auto flat = [&](const std::string& term, const std::vector<int64_t>& dims, const std::vector<int64_t>& idx) {
      int64_t f = 0;
      for (size_t p = 0; p < term.size(); ++p) f = f * dims[p] + idx[labels.find(term[p])];
      return f;
    };
    for (int64_t e = 0; e < all; ++e) {
      std::vector<int64_t> idx(labels.size());
      int64_t rem = e;
      for (size_t l = labels.size(); l-- > 0;) idx[l] = rem % size[l], rem /= size[l];
      want[static_cast<size_t>(flat(out, outDims, idx))] +=
          static_cast<double>(av[static_cast<size_t>(flat(ta, t.a, idx))]) * bv[static_cast<size_t>(flat(tb, t.b, idx))];
    }
    expectNear((*r)[0], outDims, std::vector<float>(want.begin(), want.end()), 1e-5f);
  }
}

TEST(ExecMathOps, EinsumMismatchedLabelSizeIsAnError) {
  auto r = runOne("Einsum", {{"a", iota({2, 3})}, {"b", iota({4, 2})}}, 1,
                  attrs({Attribute::makeString("equation", "ij,jk->ik")}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("label 'j'"), std::string::npos) << r.error().message;
  auto n = runOne("Einsum", {{"a", iota({2, 3})}}, 1, attrs({Attribute::makeString("equation", "ij,jk->ik")}));
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.error().message.find("operands"), std::string::npos) << n.error().message;
}

TEST(ExecMathOps, DetPivotsAndSingular) {
  // [[0,2,1],[1,0,0],[3,1,2]] needs a row swap: det = -2*(2-0) + 1*(1-0) = -3. [[1,2],[2,4]] is singular.
  auto r = runOne("Det", {{"x", Tensor::floats({3, 3}, {0, 2, 1, 1, 0, 0, 3, 1, 2})}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {}, {-3});
  auto s = runOne("Det", {{"x", Tensor::floats({1, 2, 2}, {1, 2, 2, 4})}});
  ASSERT_TRUE(s.ok()) << s.error().message;
  expectNear((*s)[0], {1}, {0});
  auto bad = runOne("Det", {{"x", iota({2, 3})}});
  ASSERT_FALSE(bad.ok());
}

TEST(ExecMathOps, OneHotOutOfRangeIndicesAreAllOff) {
  // depth 3: -4 and 3 are out of range, -1 wraps to 2.
  auto r = runOne("OneHot",
                  {{"i", Tensor::int64s({4}, {-4, 3, -1, 0})},
                   {"d", Tensor::scalarInt64(3)},
                   {"v", Tensor::floats({2}, {0, 5})}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear((*r)[0], {4, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 0, 0});
  auto bad = runOne("OneHot", {{"i", Tensor::int64s({1}, {0})}, {"d", Tensor::scalarInt64(0)},
                               {"v", Tensor::floats({2}, {0, 1})}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("depth"), std::string::npos) << bad.error().message;
}

TEST(ExecMathOps, NonZeroListsEveryNonZeroElementsCoordinatesInOrder) {
  // Ranks 0 to 4 (an axis of 1 among them), floats with a NaN and a -0 (NaN counts, -0 does not), int64 and
  // bool, dense and sparse: the coordinates of each non-zero element in row-major order, one row an axis.
  for (const std::vector<int64_t>& dims :
       std::vector<std::vector<int64_t>>{{}, {7}, {3, 5}, {2, 1, 4}, {2, 3, 1, 5}})
    for (int kind = 0; kind < 3; ++kind)
      for (const int64_t every : {1, 2, 5}) {
        int64_t n = 1;
        for (int64_t d : dims) n *= d;
        std::vector<float> fv(static_cast<size_t>(n));
        std::vector<int64_t> iv(static_cast<size_t>(n));
        std::vector<uint8_t> bv(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) {
          const bool on = (k * 7 + 3) % every == 0;
          iv[static_cast<size_t>(k)] = on ? k - 4 : 0;  // k = 4 is a zero among the ons
          fv[static_cast<size_t>(k)] = k == 3 ? std::numeric_limits<float>::quiet_NaN()
                                       : on   ? static_cast<float>(k - 4)
                                              : -0.f;
          bv[static_cast<size_t>(k)] = iv[static_cast<size_t>(k)] != 0;
        }
        const Tensor x = kind == 0   ? Tensor::floats(dims, fv)
                         : kind == 1 ? Tensor::int64s(dims, iv)
                                     : Tensor::fromVector(DType::Bool, dims, bv);
        auto r = runOne("NonZero", {{"x", x}}, 1, {}, 13);
        ASSERT_TRUE(r.ok()) << r.error().message;
        std::vector<int64_t> want;
        int64_t count = 0;
        for (int64_t k = 0; k < n; ++k)
          if (kind == 0 ? fv[static_cast<size_t>(k)] != 0.f : iv[static_cast<size_t>(k)] != 0) ++count;
        const auto rank = static_cast<int64_t>(dims.size());
        want.assign(static_cast<size_t>(std::max<int64_t>(rank, 1) * count), 0);
        int64_t j = 0;
        for (int64_t k = 0; k < n; ++k) {
          if (!(kind == 0 ? fv[static_cast<size_t>(k)] != 0.f : iv[static_cast<size_t>(k)] != 0)) continue;
          int64_t rem = k;
          for (int64_t a = rank - 1; a >= 0; --a) {
            want[static_cast<size_t>(a * count + j)] = rem % dims[static_cast<size_t>(a)];
            rem /= dims[static_cast<size_t>(a)];
          }
          ++j;
        }
        EXPECT_EQ((*r)[0].dims(), (std::vector<int64_t>{std::max<int64_t>(rank, 1), count}));
        EXPECT_EQ((*r)[0].toInt64s(), want) << "rank " << rank << " kind " << kind << " every " << every;
      }
}

TEST(ExecMathOps, TriluExtremeK) {
  const Tensor x = Tensor::int64s({2, 2}, {1, 2, 3, 4});
  const int64_t huge = std::numeric_limits<int64_t>::max();
  auto up = runOne("Trilu", {{"x", x}, {"k", Tensor::scalarInt64(huge)}});
  ASSERT_TRUE(up.ok()) << up.error().message;
  EXPECT_EQ((*up)[0].toInt64s(), (std::vector<int64_t>{0, 0, 0, 0}));
  auto low = runOne("Trilu", {{"x", x}, {"k", Tensor::scalarInt64(huge)}}, 1, attrs({Attribute::makeInt("upper", 0)}));
  ASSERT_TRUE(low.ok()) << low.error().message;
  EXPECT_EQ((*low)[0].toInt64s(), (std::vector<int64_t>{1, 2, 3, 4}));
  auto lowNeg = runOne("Trilu", {{"x", x}, {"k", Tensor::scalarInt64(std::numeric_limits<int64_t>::min())}}, 1,
                       attrs({Attribute::makeInt("upper", 0)}));
  ASSERT_TRUE(lowNeg.ok()) << lowNeg.error().message;
  EXPECT_EQ((*lowNeg)[0].toInt64s(), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST(ExecMathOps, EyeLikeNegativeKAndBoolType) {
  auto r = runOne("EyeLike", {{"x", iota({3, 2})}}, 1,
                  attrs({Attribute::makeInt("k", -1), Attribute::makeInt("dtype", 9)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), DType::Bool);
  EXPECT_EQ(valuesOf<uint8_t>((*r)[0]), (std::vector<uint8_t>{0, 0, 1, 0, 0, 1}));
}

TEST(ExecMathOps, ShrinkOnIntegers) {
  const Tensor x = Tensor::fromVector(DType::Int32, {3}, std::vector<int32_t>{-3, 0, 3});
  auto r = runOne("Shrink", {{"x", x}}, 1, attrs({Attribute::makeFloat("lambd", 1.5f), Attribute::makeFloat("bias", 1)}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].dtype(), DType::Int32);
  EXPECT_EQ(valuesOf<int32_t>((*r)[0]), (std::vector<int32_t>{-2, 0, 2}));
}
