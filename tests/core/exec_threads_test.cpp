// The executor's thread pool: results do not depend on the thread count (bit for bit), concurrent
// runs from several threads agree, and the pool's chunk runner behaves (every chunk once, nested calls
// serial, exceptions propagate, a budget of 1 stays on the calling thread).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tests/common/ErrorBound.h"
#include "core/exec/ThreadPool.h"
#include "tests/core/exec_test_util.h"

using namespace fwtest;
using fw::Attribute;
using fw::Tensor;

namespace {

std::vector<Tensor> runWith(const fw::Model& m, const std::vector<Tensor>& in, int threads) {
  fw::ExecOptions o;
  o.threads = threads;
  auto r = fw::runGraph(m, in, o);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? *r : std::vector<Tensor>{};
}

void expectSameForAnyThreadCount(const fw::Model& m, const std::vector<Tensor>& in) {
  const auto one = runWith(m, in, 1);
  ASSERT_EQ(one.size(), 1u);
  for (int t : {2, 3, 4, 0}) {
    const auto many = runWith(m, in, t);
    ASSERT_EQ(many.size(), 1u);
    EXPECT_TRUE(many[0].sameContent(one[0])) << "threads " << t;
  }
}

}  // namespace

TEST(ExecThreads, MatMulBitIdenticalAndCorrectForAnyThreadCount) {
  // Tall (rows split), wide (columns split, K over several 256-blocks) and one-row shapes.
  for (auto [M, K, N] : std::vector<std::array<int64_t, 3>>{{130, 300, 50}, {20, 520, 400}, {1, 64, 1000}}) {
    const Tensor a = noise({M, K}, 1), b = noise({K, N}, 2);
    auto m = oneNode("MatMul", {{"a", a}, {"b", b}}, 1);
    expectSameForAnyThreadCount(m, {a, b});
    const auto y = runWith(m, {a, b}, 2);
    ASSERT_EQ(y.size(), 1u);
    const auto av = a.toFloats(), bv = b.toFloats(), yv = y[0].toFloats();
    for (int64_t i = 0; i < M; i += 7)
      for (int64_t j = 0; j < N; j += 5) {
        double s = 0, mag = 0;
        for (int64_t k = 0; k < K; ++k) {
          s += static_cast<double>(av[static_cast<size_t>(i * K + k)]) * bv[static_cast<size_t>(k * N + j)];
          mag += std::fabs(static_cast<double>(av[static_cast<size_t>(i * K + k)]) * bv[static_cast<size_t>(k * N + j)]);
        }
        // Any summation order of a length-K dot product (tests/common/ErrorBound.h).
        EXPECT_NEAR(yv[static_cast<size_t>(i * N + j)], s, fwtest::dotBound(K, mag)) << M << "x" << K << "x" << N;
      }
  }
}

TEST(ExecThreads, GemmTransposedWithBetaBitIdentical) {
  const Tensor a = noise({300, 90}, 3), b = noise({200, 300}, 4), c = noise({90, 200}, 5);
  auto m = oneNode("Gemm", {{"a", a}, {"b", b}, {"c", c}}, 1,
                   attrs({Attribute::makeInt("transA", 1), Attribute::makeInt("transB", 1),
                          Attribute::makeFloat("alpha", 0.5f), Attribute::makeFloat("beta", 2.f)}));
  expectSameForAnyThreadCount(m, {a, b, c});
}

TEST(ExecThreads, ConvAndElementwiseBitIdentical) {
  const Tensor x = noise({1, 16, 40, 40}, 6), w = noise({32, 16, 3, 3}, 7), bias = noise({32}, 8);
  auto m = oneNode("Conv", {{"x", x}, {"w", w, true}, {"b", bias, true}}, 1,
                   attrs({Attribute::makeInts("pads", {1, 1, 1, 1})}));
  expectSameForAnyThreadCount(m, {x});
  auto relu = oneNode("Relu", {{"x", x}}, 1);
  expectSameForAnyThreadCount(relu, {x});
}

TEST(ExecThreads, ConcurrentRunsAgree) {
  const Tensor a = noise({96, 256}, 9), b = noise({256, 160}, 10);
  auto m = oneNode("MatMul", {{"a", a}, {"b", b}}, 1);
  const auto want = runWith(m, {a, b}, 1);
  ASSERT_EQ(want.size(), 1u);
  std::atomic<int> bad{0};
  std::vector<std::thread> ts;
  for (int k = 0; k < 4; ++k)
    ts.emplace_back([&] {
      for (int rep = 0; rep < 5; ++rep) {
        fw::ExecOptions o;
        o.threads = 2;
        auto r = fw::runGraph(m, {a, b}, o);
        if (!r.ok() || r->size() != 1 || !(*r)[0].sameContent(want[0])) ++bad;
      }
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(ExecThreads, ChunkRunnerRunsEveryChunkOnceNestsSeriallyAndRethrows) {
  using namespace fw::exec;
  {
    ThreadBudget budget(3);
    std::vector<std::atomic<int>> hits(37);
    std::atomic<int> nestedParallel{0};
    parallelChunks(37, [&](int64_t i) {
      ++hits[static_cast<size_t>(i)];
      if (parallelThreads() != 1) ++nestedParallel;
      parallelChunks(2, [](int64_t) {});  // nested: runs inline
    });
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
    EXPECT_EQ(nestedParallel.load(), 0);
    EXPECT_THROW(parallelChunks(8,
                                [](int64_t i) {
                                  if (i == 5) throw std::runtime_error("chunk 5");
                                }),
                 std::runtime_error);
    EXPECT_EQ(parallelThreads(), 3);  // still usable after an exception
  }
  {
    ThreadBudget budget(1);
    std::mutex mu;
    std::set<std::thread::id> ids;
    parallelChunks(16, [&](int64_t) {
      std::lock_guard<std::mutex> lk(mu);
      ids.insert(std::this_thread::get_id());
    });
    EXPECT_EQ(ids, std::set<std::thread::id>{std::this_thread::get_id()});
  }
}
