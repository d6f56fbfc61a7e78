// core/exec/Transpose.h through the ops that use it: Transpose (every permutation, tiles with partial
// edges) and Slice (starts, negative steps, several axes) against index-by-index references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::Tensor;

// Tiles with partial edges and a size-1 axis to drop; 300 along an axis: output rows of many whole tiles
// and a partial one after them.
TEST(ExecTranspose, EveryPermutationOfARank4TensorMatchesIndexByIndex) {
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{3, 40, 1, 37}, std::vector<int64_t>{2, 300, 1, 37}}) {
    const Tensor x = iota(dims);
    std::vector<int64_t> perm = {0, 1, 2, 3};
    int checked = 0;
    do {
      auto out = runOne("Transpose", {{"x", x}}, 1, attrs({Attribute::makeInts("perm", perm)}));
      ASSERT_TRUE(out.ok()) << out.error().message;
      std::vector<int64_t> od(4), st(4), in = {dims[1] * 37, 37, 37, 1};
      for (size_t k = 0; k < 4; ++k)
        od[k] = dims[static_cast<size_t>(perm[k])], st[k] = in[static_cast<size_t>(perm[k])];
      std::vector<float> want;
      for (int64_t a = 0; a < od[0]; ++a)
        for (int64_t b = 0; b < od[1]; ++b)
          for (int64_t c = 0; c < od[2]; ++c)
            for (int64_t d = 0; d < od[3]; ++d)
              want.push_back(static_cast<float>(a * st[0] + b * st[1] + c * st[2] + d * st[3]));
      expectNear((*out)[0], od, want, 0.f);
      ++checked;
    } while (std::next_permutation(perm.begin(), perm.end()));
    EXPECT_EQ(checked, 24);
  }
}

TEST(ExecTranspose, ARank5PermuteOfRowsMatchesIndexByIndexOnEveryThreadCount) {
  // Swin's q/k/v split: [windows, tokens, 3, heads, dim] -> [3, windows, heads, tokens, dim]. The last
  // axis stays: rows copied in output order, the input offset carried across four row axes, from any
  // chunk start.
  const std::vector<int64_t> dims = {16, 49, 3, 3, 32}, perm = {2, 0, 3, 1, 4};  // 7056 rows: 3 threads split it
  const Tensor x = iota(dims);
  std::vector<int64_t> in(5, 1), od(5), st(5);
  for (size_t k = 4; k-- > 0;) in[k] = in[k + 1] * dims[k + 1];
  for (size_t k = 0; k < 5; ++k) od[k] = dims[static_cast<size_t>(perm[k])], st[k] = in[static_cast<size_t>(perm[k])];
  std::vector<float> want;
  for (int64_t a = 0; a < od[0]; ++a)
    for (int64_t b = 0; b < od[1]; ++b)
      for (int64_t c = 0; c < od[2]; ++c)
        for (int64_t d = 0; d < od[3]; ++d)
          for (int64_t e = 0; e < od[4]; ++e)
            want.push_back(static_cast<float>(a * st[0] + b * st[1] + c * st[2] + d * st[3] + e * st[4]));
  const fw::Model m = oneNode("Transpose", {{"x", x}}, 1, attrs({Attribute::makeInts("perm", perm)}));
  for (int threads : {1, 2, 3}) {
    fw::ExecOptions o;
    o.threads = threads;
    auto out = fw::runGraph(m, {x}, o);
    ASSERT_TRUE(out.ok()) << out.error().message;
    expectNear((*out)[0], od, want, 0.f);
  }
}

TEST(ExecTranspose, IntegersMoveAndARepeatedAxisIsRefused) {
  auto ints = runOne("Transpose", {{"x", Tensor::int64s({2, 3}, {1, 2, 3, 4, 5, 6})}}, 1);
  ASSERT_TRUE(ints.ok()) << ints.error().message;
  auto got = ints->front().data<int64_t>();
  EXPECT_EQ(std::vector<int64_t>(got.begin(), got.end()), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  auto bad = runOne("Transpose", {{"x", iota({2, 3})}}, 1, attrs({Attribute::makeInts("perm", {0, 0})}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("perm names axis 0 twice"), std::string::npos) << bad.error().message;
}

TEST(ExecSlice, StartsStepsAndSeveralAxesMatchIndexByIndex) {
  const std::vector<int64_t> dims = {2, 40, 9, 37};
  const Tensor x = iota(dims);
  const std::vector<int64_t> is = {40 * 9 * 37, 9 * 37, 37, 1};
  struct Case {
    std::vector<int64_t> starts, ends, axes, steps;
  } cases[] = {
      {{3}, {31}, {1}, {1}},                         // a channel range: one contiguous run per image
      {{0, 2}, {1, 9}, {0, 2}, {1, 3}},              // a step on a middle axis
      {{35, -1}, {-100, 0}, {3, 1}, {-2, -3}},       // negative steps, clamped ends
      {{1, 5, 0, 4}, {2, 6, 9, 30}, {0, 1, 2, 3}, {1, 1, 2, 5}},
  };
  for (const auto& c : cases) {
    const int64_t k = static_cast<int64_t>(c.starts.size());
    auto out = runOne("Slice", {{"x", x}, {"s", Tensor::int64s({k}, c.starts), true}, {"e", Tensor::int64s({k}, c.ends), true},
                                {"a", Tensor::int64s({k}, c.axes), true}, {"p", Tensor::int64s({k}, c.steps), true}});
    ASSERT_TRUE(out.ok()) << out.error().message;
    // The reference: per axis the list of source indices, as numpy's slicing gives them.
    std::vector<std::vector<int64_t>> idx(4);
    for (size_t d = 0; d < 4; ++d)
      for (int64_t i = 0; i < dims[d]; ++i) idx[d].push_back(i);
    for (size_t j = 0; j < c.starts.size(); ++j) {
      const size_t d = static_cast<size_t>(c.axes[j]);
      const int64_t n = dims[d], step = c.steps[j];
      int64_t s = c.starts[j] < 0 ? c.starts[j] + n : c.starts[j], e = c.ends[j] < 0 ? c.ends[j] + n : c.ends[j];
      std::vector<int64_t> v;
      if (step > 0) {
        s = std::clamp<int64_t>(s, 0, n), e = std::clamp<int64_t>(e, 0, n);
        for (int64_t i = s; i < e; i += step) v.push_back(i);
      } else {
        s = std::clamp<int64_t>(s, 0, n - 1), e = std::clamp<int64_t>(e, -1, n - 1);
        for (int64_t i = s; i > e; i += step) v.push_back(i);
      }
      idx[d] = v;
    }
    std::vector<float> want;
    for (int64_t a : idx[0])
      for (int64_t b : idx[1])
        for (int64_t cc : idx[2])
          for (int64_t d : idx[3]) want.push_back(static_cast<float>(a * is[0] + b * is[1] + cc * is[2] + d * is[3]));
    const std::vector<int64_t> od = {static_cast<int64_t>(idx[0].size()), static_cast<int64_t>(idx[1].size()),
                                     static_cast<int64_t>(idx[2].size()), static_cast<int64_t>(idx[3].size())};
    expectNear((*out)[0], od, want, 0.f);
  }
}
