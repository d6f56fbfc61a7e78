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
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "core/exec/Gemm.h"
#include "core/exec/OpContext.h"
#include "core/exec/ThreadPool.h"
#include "tests/common/ErrorBound.h"
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

// y, nb products of M x K by K x N one after the other, against a double loop within any summation order's
// bound: `aAt(p, i, k)` and `bAt(p, k, j)` are the flat indices of product p's operands in `av` and `bv`.
template <class AAt, class BAt>
void expectProductsNear(const std::vector<float>& yv, const std::vector<float>& av,
                        const std::vector<float>& bv, int64_t nb, int64_t M, int64_t K, int64_t N, AAt aAt,
                        BAt bAt, const std::string& what) {
  for (int64_t p = 0; p < nb; ++p)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double sum = 0, mag = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double t = static_cast<double>(av[static_cast<size_t>(aAt(p, i, k))]) *
                           bv[static_cast<size_t>(bAt(p, k, j))];
          sum += t, mag += std::fabs(t);
        }
        ASSERT_NEAR(yv[static_cast<size_t>((p * M + i) * N + j)], sum, fwtest::dotBound(K, mag))
            << what << " at " << p << "," << i << "," << j;
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

TEST(ExecThreads, SmallBatchedMatMulsAreCorrectForAnyThreadCount) {
  // Batches of products of at most 16 rows and 2048 multiply-adds run on the executor's row loop
  // (core/exec/Gemm.cpp), the others on oneDNN: both sides of each bound, odd sizes, one row.
  for (auto [nb, M, K, N, rowLoop] : std::vector<std::array<int64_t, 5>>{{64, 1, 64, 8, 1},
                                                                         {33, 16, 8, 16, 1},
                                                                         {10, 17, 8, 8, 0},
                                                                         {7, 3, 5, 7, 1},
                                                                         {9, 4, 33, 16, 0},
                                                                         {5, 16, 16, 16, 0}}) {
    EXPECT_EQ(fw::exec::smallProductsOnRowLoop(nb, false, false, M, N, K), rowLoop != 0)
        << nb << "x" << M << "x" << K << "x" << N;
    EXPECT_FALSE(fw::exec::smallProductsOnRowLoop(nb, false, true, M, N, K));  // B transposed: oneDNN
    const Tensor a = noise({nb, M, K}, 11), b = noise({nb, K, N}, 12);
    auto m = oneNode("MatMul", {{"a", a}, {"b", b}}, 1);
    expectSameForAnyThreadCount(m, {a, b});
    const auto y = runWith(m, {a, b}, 1);
    ASSERT_EQ(y.size(), 1u);
    expectProductsNear(
        y[0].toFloats(), a.toFloats(), b.toFloats(), nb, M, K, N,
        [M = M, K = K](int64_t p, int64_t i, int64_t k) { return (p * M + i) * K + k; },
        [K = K, N = N](int64_t p, int64_t k, int64_t j) { return (p * K + k) * N + j; },
        std::to_string(nb) + "x" + std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N));
  }
}

TEST(ExecThreads, BatchedMatrixVectorProductsAreCorrectAndAlikeForAnyThreadCount) {
  // Products of one column each beyond the row loop's bound (a solver's A p over a batch of systems) run on
  // the rows-dot-vector loop, a matrix at a time: each row's sum in that loop's fixed order, the same bits
  // for any thread count, within a dot product's bound of a double loop. Odd sizes, a tail of the 16 lanes.
  for (auto [nb, M, K] : std::vector<std::array<int64_t, 3>>{
           {64, 48, 48}, {7, 17, 33}, {3, 40, 5}, {5, 1, 300}, {256, 16, 64}}) {
    EXPECT_FALSE(fw::exec::smallProductsOnRowLoop(nb, false, false, M, 1, K));
    const Tensor a = noise({nb, M, K}, 31), b = noise({nb, K, 1}, 32);
    auto m = oneNode("MatMul", {{"a", a}, {"b", b}}, 1);
    expectSameForAnyThreadCount(m, {a, b});
    const auto y = runWith(m, {a, b}, 1);
    ASSERT_EQ(y.size(), 1u);
    expectProductsNear(
        y[0].toFloats(), a.toFloats(), b.toFloats(), nb, M, K, 1,
        [M = M, K = K](int64_t p, int64_t i, int64_t k) { return (p * M + i) * K + k; },
        [K = K](int64_t p, int64_t k, int64_t) { return p * K + k; },
        std::to_string(nb) + "x" + std::to_string(M) + "x" + std::to_string(K) + "x1");
    // The loop's own order, bit for bit (oneDNN's batched matmul sums otherwise): sixteen partial sums, lane
    // l taking k = l mod 16, the last K mod 16 terms into the first lanes, then halves added pairwise.
    const auto av = a.toFloats(), bv = b.toFloats(), yv = y[0].toFloats();
    for (int64_t p = 0; p < nb; ++p)
      for (int64_t i = 0; i < M; ++i) {
        const float* row = av.data() + (p * M + i) * K;
        const float* col = bv.data() + p * K;
        float acc[16] = {};
        int64_t k = 0;
        for (; k + 16 <= K; k += 16)
          for (int64_t l = 0; l < 16; ++l) acc[l] = acc[l] + row[k + l] * col[k + l];
        for (int64_t l = 0; k + l < K; ++l) acc[l] = acc[l] + row[k + l] * col[k + l];
        for (int64_t w = 8; w > 0; w /= 2)
          for (int64_t l = 0; l < w; ++l) acc[l] = acc[l] + acc[l + w];
        ASSERT_EQ(yv[static_cast<size_t>(p * M + i)], acc[0])
            << nb << "x" << M << "x" << K << " at " << p << "," << i;
      }
  }
}

TEST(ExecThreads, BroadcastMatMulsRunInBatchedRunsAndMatchADoubleLoop) {
  // Broadcast batch axes: the output matrices in runs that both operands walk at a fixed step, each run
  // one batched product (MatMulShape::batchRun), on the row loop or oneDNN (a shared A as a broadcast
  // batch axis of 1), for any thread count.
  struct Case {
    std::vector<int64_t> a, b;
    std::array<int64_t, 3> run;  // {run, stepA, stepB}
  };
  for (const Case& c :
       {Case{{8, 8}, {5, 3, 8, 8}, {15, 0, 1}}, Case{{64, 48}, {6, 48, 32}, {6, 0, 1}},
        Case{{3, 1, 20, 30}, {1, 5, 30, 40}, {5, 0, 1}}, Case{{2, 4, 1, 16, 24}, {4, 6, 24, 20}, {6, 0, 1}},
        Case{{1, 7, 16, 24}, {3, 7, 24, 20}, {7, 1, 1}}, Case{{4, 2, 3, 5}, {2, 5, 7}, {2, 1, 1}},
        Case{{3, 1, 4, 8}, {1, 5, 8, 8}, {5, 0, 1}}}) {
    auto ms = fw::exec::matmulShape(c.a, c.b);
    ASSERT_TRUE(ms.ok()) << ms.error().message;
    EXPECT_EQ(ms->batchRun(), c.run) << c.a.size() << "-d x " << c.b.size() << "-d";
    const Tensor a = noise(c.a, 31), b = noise(c.b, 32);
    auto m = oneNode("MatMul", {{"a", a}, {"b", b}}, 1);
    expectSameForAnyThreadCount(m, {a, b});
    const auto y = runWith(m, {a, b}, 1);
    ASSERT_EQ(y.size(), 1u);
    ASSERT_EQ(y[0].dims(), ms->out);
    const int64_t M = ms->M, K = ms->K, N = ms->N;
    expectProductsNear(
        y[0].toFloats(), a.toFloats(), b.toFloats(), ms->batches(), M, K, N,
        [&](int64_t p, int64_t i, int64_t k) { return (ms->aMatrix(p) * M + i) * K + k; },
        [&](int64_t p, int64_t k, int64_t j) { return (ms->bMatrix(p) * K + k) * N + j; },
        std::to_string(c.a.size()) + "-d x " + std::to_string(c.b.size()) + "-d");
  }
}

TEST(ExecThreads, EinsumsWithASharedFirstOperandMatchADoubleLoop) {
  // 'ij,bjk->bik' (and B read transposed, 'ij,bkj->bik'): one batched product when B is computed or the
  // products are small (the row loop), one packed product a batch against a model's weights; B as an
  // initializer and as a graph input, for any thread count.
  for (const auto& [eq, M, K, N, nb, transB] :
       std::vector<std::tuple<std::string, int64_t, int64_t, int64_t, int64_t, bool>>{
           {"ij,bjk->bik", 8, 8, 8, 50, false},
           {"ij,bjk->bik", 24, 40, 36, 5, false},
           {"ij,bkj->bik", 24, 40, 36, 5, true}}) {
    for (const bool constantB : {false, true}) {
      const Tensor a = noise({M, K}, 41),
                   b = noise(transB ? std::vector<int64_t>{nb, N, K} : std::vector<int64_t>{nb, K, N}, 42);
      auto m = oneNode("Einsum", {{"a", a}, {"b", b, constantB}}, 1,
                       attrs({Attribute::makeString("equation", eq)}));
      const std::vector<Tensor> in = constantB ? std::vector<Tensor>{a} : std::vector<Tensor>{a, b};
      expectSameForAnyThreadCount(m, in);
      const auto y = runWith(m, in, 1);
      ASSERT_EQ(y.size(), 1u);
      ASSERT_EQ(y[0].dims(), (std::vector<int64_t>{nb, M, N}));
      expectProductsNear(
          y[0].toFloats(), a.toFloats(), b.toFloats(), nb, M, K, N,
          [K = K](int64_t, int64_t i, int64_t k) { return i * K + k; },
          [K = K, N = N, transB = transB](int64_t p, int64_t k, int64_t j) {
            return transB ? (p * N + j) * K + k : (p * K + k) * N + j;
          },
          eq + (constantB ? " constant B" : " B an input"));
    }
  }
}

TEST(ExecThreads, SmallBatchedMatMulsAddTheirTermsInOrder) {
  // The row loop's sums are each k's product added in order to a float from 0, whichever vector width,
  // register block of rows or masked tail of columns computes them: the same bits as that loop written out
  // (a reordered or fused term would differ in some of these elements).
  for (auto [M, K, N] : std::vector<std::array<int64_t, 3>>{
           {1, 5, 2}, {3, 7, 9}, {4, 8, 16}, {5, 6, 17}, {16, 4, 31}, {8, 3, 40}, {13, 9, 15}, {2, 1, 8}}) {
    const int64_t nb = 3;
    ASSERT_TRUE(fw::exec::smallProductsOnRowLoop(nb, false, false, M, N, K)) << M << "x" << K << "x" << N;
    const Tensor a = noise({nb, M, K}, 21), b = noise({nb, K, N}, 22);
    const auto y = runWith(oneNode("MatMul", {{"a", a}, {"b", b}}, 1), {a, b}, 1);
    ASSERT_EQ(y.size(), 1u);
    const auto av = a.toFloats(), bv = b.toFloats(), yv = y[0].toFloats();
    for (int64_t p = 0; p < nb; ++p)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          volatile float c = 0.f;  // each step rounded to float, as the loop's
          for (int64_t k = 0; k < K; ++k) {
            const float t =
                av[static_cast<size_t>((p * M + i) * K + k)] * bv[static_cast<size_t>((p * K + k) * N + j)];
            c = c + t;
          }
          ASSERT_EQ(yv[static_cast<size_t>((p * M + i) * N + j)], c)
              << M << "x" << K << "x" << N << " at " << p << "," << i << "," << j;
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

TEST(ExecThreads, GemmColumnBiasMatchesADoubleLoopForEveryLayout) {
  // A Linear's bias ([N] or [1, N], alpha = beta = 1) runs as the product's own bias; a scaled one, a
  // one-column output and a full [M, N] C take C as beta. Each against a double loop, on any thread count.
  struct Case {
    int64_t M, K, N;
    std::vector<int64_t> cDims;
    float alpha, beta;
  };
  const std::vector<Case> cases = {
      {37, 29, 19, {19}, 1.f, 1.f},  {37, 29, 19, {1, 19}, 1.f, 1.f},  {1, 64, 128, {128}, 1.f, 1.f},
      {300, 64, 64, {64}, 1.f, 1.f}, {37, 29, 19, {19}, 0.5f, 1.f},    {37, 29, 19, {19}, 1.f, 2.f},
      {37, 29, 1, {1}, 1.f, 1.f},    {37, 29, 19, {37, 19}, 1.f, 1.f}, {37, 29, 19, {37, 1}, 1.f, 1.f}};
  uint64_t seed = 20;
  for (const Case& cs : cases)
    for (int layout = 0; layout < 8; ++layout) {
      const bool tA = layout & 1, tB = layout & 2, constantB = layout & 4;
      const Tensor a =
          noise(tA ? std::vector<int64_t>{cs.K, cs.M} : std::vector<int64_t>{cs.M, cs.K}, seed++);
      const Tensor b =
          noise(tB ? std::vector<int64_t>{cs.N, cs.K} : std::vector<int64_t>{cs.K, cs.N}, seed++);
      const Tensor c = noise(cs.cDims, seed++);
      auto m =
          oneNode("Gemm", {{"a", a}, {"b", b, constantB}, {"c", c, true}}, 1,
                  attrs({Attribute::makeInt("transA", tA), Attribute::makeInt("transB", tB),
                         Attribute::makeFloat("alpha", cs.alpha), Attribute::makeFloat("beta", cs.beta)}));
      const std::vector<Tensor> in = constantB ? std::vector<Tensor>{a} : std::vector<Tensor>{a, b};
      expectSameForAnyThreadCount(m, in);
      const auto y = runWith(m, in, 1);
      ASSERT_EQ(y.size(), 1u);
      ASSERT_EQ(y[0].dims(), (std::vector<int64_t>{cs.M, cs.N}));
      const auto av = a.toFloats(), bv = b.toFloats(), cv = c.toFloats(), yv = y[0].toFloats();
      const bool cRows = cs.cDims.size() == 2 && cs.cDims[0] == cs.M, cCols = cs.cDims.back() == cs.N;
      for (int64_t i = 0; i < cs.M; ++i)
        for (int64_t j = 0; j < cs.N; ++j) {
          double s = 0, mag = 0;
          for (int64_t k = 0; k < cs.K; ++k) {
            const double x = av[static_cast<size_t>(tA ? k * cs.M + i : i * cs.K + k)] *
                             static_cast<double>(bv[static_cast<size_t>(tB ? j * cs.K + k : k * cs.N + j)]);
            s += x;
            mag += std::fabs(x);
          }
          const double cij = cv[static_cast<size_t>((cRows ? i * (cCols ? cs.N : 1) : 0) + (cCols ? j : 0))];
          const double want = cs.alpha * s + cs.beta * cij;
          EXPECT_NEAR(yv[static_cast<size_t>(i * cs.N + j)], want,
                      fwtest::dotBound(cs.K + 1, std::fabs(cs.alpha) * mag + std::fabs(cs.beta * cij)))
              << cs.M << "x" << cs.K << "x" << cs.N << " layout " << layout << " at " << i << "," << j;
        }
    }
}
