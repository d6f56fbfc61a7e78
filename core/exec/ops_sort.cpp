// Sorting and selection: Unique, TopK, NonMaxSuppression.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "core/exec/IndexUtil.h"
#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

using namespace indexing;

// ---- Unique -------------------------------------------------------------------------------------

template <class T>
inline int cmpElem(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    // NaN sorts after every number; NaNs compare equal to each other.
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

Status opUnique(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x0 = c.input(0);
  const bool sorted = c.attrInt("sorted", 1) != 0;
  const bool hasAxis = c.attrs.getInt("axis").has_value();
  const RtTensor x = hasAxis ? x0 : x0.reshaped({x0.numel()});
  if (x.rank() == 0) return c.fail("input must have rank >= 1 when 'axis' is given");
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, 0, static_cast<int64_t>(x.rank())));
  const int64_t n = x.dims[static_cast<size_t>(axis)];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dims[d];

  // Slices along the axis: order them (stable, so the first occurrence leads its group), group equal
  // neighbours.
  std::vector<int64_t> order(static_cast<size_t>(n)), groupOf(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> firsts, counts;  // per group, in sorted order
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* v = dataOf<T>(x);
    auto cmpSlice = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const int r = cmpElem(v[(o * n + a) * inner + i], v[(o * n + b) * inner + i]);
          if (r) return r;
        }
      return 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cmpSlice(a, b) < 0; });
    for (size_t k = 0; k < order.size(); ++k) {
      if (k == 0 || cmpSlice(order[k - 1], order[k]) != 0) {
        firsts.push_back(order[k]);
        counts.push_back(0);
      }
      groupOf[static_cast<size_t>(order[k])] = static_cast<int64_t>(firsts.size()) - 1;
      ++counts.back();
    }
  });
  const int64_t g = static_cast<int64_t>(firsts.size());
  // Output position of each group: sorted order, or order of first occurrence.
  std::vector<int64_t> pos(static_cast<size_t>(g));
  std::iota(pos.begin(), pos.end(), 0);
  if (!sorted) {
    std::vector<int64_t> byFirst(static_cast<size_t>(g));
    std::iota(byFirst.begin(), byFirst.end(), 0);
    std::sort(byFirst.begin(), byFirst.end(), [&](int64_t a, int64_t b) { return firsts[static_cast<size_t>(a)] < firsts[static_cast<size_t>(b)]; });
    for (int64_t k = 0; k < g; ++k) pos[static_cast<size_t>(byFirst[static_cast<size_t>(k)])] = k;
  }
  std::vector<int64_t> yd = x.dims;
  yd[static_cast<size_t>(axis)] = g;
  RtTensor y = RtTensor::alloc(x.dtype, yd);
  RtTensor ind = RtTensor::alloc(DType::Int64, {g}), inv = RtTensor::alloc(DType::Int64, {n}),
           cnt = RtTensor::alloc(DType::Int64, {g});
  for (int64_t k = 0; k < g; ++k) {
    const size_t p = static_cast<size_t>(pos[static_cast<size_t>(k)]);
    ind.mi()[p] = firsts[static_cast<size_t>(k)];
    cnt.mi()[p] = counts[static_cast<size_t>(k)];
  }
  for (int64_t k = 0; k < n; ++k) inv.mi()[k] = pos[static_cast<size_t>(groupOf[static_cast<size_t>(k)])];
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = dataOf<T>(x);
    T* dst = mdataOf<T>(y);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < g; ++k) {
        const T* s = src + (o * n + ind.i()[k]) * inner;
        std::copy(s, s + inner, dst + (o * g + k) * inner);
      }
  });
  c.out[0] = std::move(y);
  if (c.out.size() > 1) c.out[1] = std::move(ind);
  if (c.out.size() > 2) c.out[2] = std::move(inv);
  if (c.out.size() > 3) c.out[3] = std::move(cnt);
  return {};
}

// ---- TopK ---------------------------------------------------------------------------------------

// Up to this k, TopK keeps its best k by insertion as it scans a line; beyond, it sorts (key, index) pairs.
constexpr int64_t kInsertTopK = 64;

// The indices of the k largest of n keys, largest first, into ord[0, k) (their keys into best): the best
// k so far kept in order as the keys come in index order, so a tie keeps the lower index first (as
// partial_sort ranks them). Past the first k, the keys go sixteen at a time against the k-th best, in one
// vector comparison for 32-bit keys: most blocks hold none better and cost no more. (partial_sort over the
// line's indices took 2.2 ms for the top 16 of 1024 lines of 256, a DGCNN's neighbours; insertion over 64-bit
// keys, a comparison and a branch a key, 1.48 ms, session 37; 32-bit keys, the k best's keys beside their
// indices, 1.29 ms, of which the insertions (some 60 a line, each shifting 7 on average) most: 1 thread,
// session 38.)
template <class K>
void topKeys(const K* key, int64_t n, int64_t k, int64_t* ord, K* best) {
  if (k == 0) return;
  int64_t m = 0, j = 0;
  auto insert = [&](int64_t at, K kj) {
    int64_t p = m < k ? m++ : k - 1;
    for (; p > 0 && kj > best[p - 1]; --p) {
      best[p] = best[p - 1];
      ord[p] = ord[p - 1];
    }
    best[p] = kj;
    ord[p] = at;
  };
  for (; j < n && m < k; ++j) insert(j, key[j]);
  constexpr int64_t kBlock = 16;
  for (; j + kBlock <= n; j += kBlock) {
    const K thr = best[k - 1];
    bool any = false;
    if constexpr (sizeof(K) == 4) {
      // Four 4-lane comparisons, their lanes met by shuffles: the scalar loop compiled to a chain of 16
      // conditional moves (the top 16 of 1024 lines of 256: 1.32 ms that way, 1.23 this way).
      using V4 = int32_t __attribute__((vector_size(16)));
      V4 v[4];
      std::memcpy(v, key + j, sizeof v);
      const V4 t = V4{} + thr;
      V4 m = (v[0] > t) | (v[1] > t) | (v[2] > t) | (v[3] > t);
      m |= __builtin_shufflevector(m, m, 2, 3, 0, 1);
      m |= __builtin_shufflevector(m, m, 1, 0, 3, 2);
      any = m[0] != 0;
    } else {
      for (int64_t q = 0; q < kBlock; ++q) any |= key[j + q] > thr;
    }
    if (!any) continue;
    for (int64_t q = j; q < j + kBlock; ++q)
      if (key[q] > best[k - 1]) insert(q, key[q]);
  }
  for (; j < n; ++j)
    if (key[j] > best[k - 1]) insert(j, key[j]);
}

Status opTopK(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input 'X'");
  const RtTensor& x = c.input(0);
  if (x.rank() == 0) return c.fail("input 'X' must have rank >= 1");
  if (x.store() != Store::F32 && x.store() != Store::I64) return c.fail("input 'X' must be numeric");
  FW_ASSIGN_OR_RETURN(const int64_t axis, axisAttr(c, -1, static_cast<int64_t>(x.rank())));
  int64_t k = 0;
  if (c.opset < 10) {
    auto ka = c.attrs.getInt("k");
    if (!ka) return c.fail("missing attribute 'k'");
    k = *ka;
  } else {
    if (!c.has(1)) return c.fail("missing input 'K'");
    if (c.input(1).numel() != 1) return c.fail("input 'K' must hold one value, got shape " + dimsStr(c.input(1).dims));
    k = c.input(1).getI(0);
  }
  const int64_t n = x.dims[static_cast<size_t>(axis)];
  if (k < 0 || k > n) return c.fail("k = " + str(k) + " out of range [0, " + str(n) + "] for axis size");
  const bool largest = c.opset < 11 || c.attrInt("largest", 1) != 0;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dims[d];
  std::vector<int64_t> od = x.dims;
  od[static_cast<size_t>(axis)] = k;
  RtTensor vals = RtTensor::alloc(x.dtype, od), idx = RtTensor::alloc(DType::Int64, od);
  // The output is always sorted (allowed for sorted=0); equal values keep the lower index first.
  byStore(x.store(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T>) {
      const T* src = dataOf<T>(x);
      T* vo = mdataOf<T>(vals);
      int64_t* io = idx.mi();
      const int64_t lines = outer * inner;
      const int64_t cost = n * std::max<int64_t>(1, static_cast<int64_t>(std::log2(static_cast<double>(k + 1))));
      parallelFor(lines, cost, [&](int64_t b, int64_t e) {
        std::vector<T> buf(static_cast<size_t>(n));
        using Key = std::conditional_t<std::is_floating_point_v<T>, int32_t, int64_t>;
        std::vector<int64_t> ord(static_cast<size_t>(n));
        std::vector<Key> key(static_cast<size_t>(n)), best(static_cast<size_t>(k));
        std::vector<std::pair<Key, int64_t>> pairs(k > kInsertTopK ? static_cast<size_t>(n) : 0);
        for (int64_t line = b; line < e; ++line) {
          const int64_t o = line / inner, i = line % inner;
          const T* s = src + o * n * inner + i;
          for (int64_t j = 0; j < n; ++j) buf[static_cast<size_t>(j)] = s[j * inner];
          // Each element's rank is an integer key (a float's bits in order, both zeros alike, every NaN above
          // every number; complemented for the smallest), so a comparison is one instruction.
          for (int64_t j = 0; j < n; ++j) {
            const T v = buf[static_cast<size_t>(j)];
            if constexpr (std::is_floating_point_v<T>) {
              int32_t bits;
              const float f = static_cast<float>(v);
              std::memcpy(&bits, &f, sizeof bits);
              int32_t r = bits >= 0 ? bits : bits ^ 0x7fffffff;
              if (f == 0) r = 0;
              if (f != f) r = std::numeric_limits<int32_t>::max();
              key[static_cast<size_t>(j)] = largest ? r : ~r;
            } else {
              key[static_cast<size_t>(j)] = largest ? v : ~v;
            }
          }
          if (k <= kInsertTopK) {
            topKeys(key.data(), n, k, ord.data(), best.data());
          } else {
            // Beyond, the (key, index) pairs sorted, larger keys first and the lower index first among equal
            // keys: whole when k is a quarter of the line or more, else partially. partial_sort over the
            // line's indices, comparing the values through a closure, took 138-154 us for a Reformer's
            // argsort, TopK of all 256 of 8 lines (set 65, session 54).
            for (int64_t j = 0; j < n; ++j) pairs[static_cast<size_t>(j)] = {key[static_cast<size_t>(j)], j};
            auto first = [](const std::pair<Key, int64_t>& a, const std::pair<Key, int64_t>& b) {
              return a.first != b.first ? a.first > b.first : a.second < b.second;
            };
            if (k * 4 >= n)
              std::sort(pairs.begin(), pairs.end(), first);
            else
              std::partial_sort(pairs.begin(), pairs.begin() + k, pairs.end(), first);
            for (int64_t j = 0; j < k; ++j)
              ord[static_cast<size_t>(j)] = pairs[static_cast<size_t>(j)].second;
          }
          const int64_t ob = o * k * inner + i;
          for (int64_t j = 0; j < k; ++j) {
            vo[ob + j * inner] = buf[static_cast<size_t>(ord[static_cast<size_t>(j)])];
            io[ob + j * inner] = ord[static_cast<size_t>(j)];
          }
        }
      });
    }
  });
  c.out[0] = std::move(vals);
  if (c.out.size() > 1) c.out[1] = std::move(idx);
  return {};
}

// ---- NonMaxSuppression --------------------------------------------------------------------------

struct Box {
  float y0, x0, y1, x1, area;
};

inline Box makeBox(const float* b, bool centerPoint) {
  Box r{};
  if (centerPoint) {  // [x_center, y_center, width, height]
    r.x0 = b[0] - b[2] / 2;
    r.x1 = b[0] + b[2] / 2;
    r.y0 = b[1] - b[3] / 2;
    r.y1 = b[1] + b[3] / 2;
  } else {  // [y1, x1, y2, x2], either corner pair
    r.y0 = std::min(b[0], b[2]);
    r.y1 = std::max(b[0], b[2]);
    r.x0 = std::min(b[1], b[3]);
    r.x1 = std::max(b[1], b[3]);
  }
  r.area = (r.x1 - r.x0) * (r.y1 - r.y0);
  return r;
}

// The boxes a (batch, class) list has kept, a field an array. A kept box suppresses a candidate when they
// overlap (a non-empty intersection), both have a positive area, and intersection over union exceeds the
// threshold; a NaN fails a comparison and suppresses nothing. A candidate is tested against all kept boxes
// a block at a time, without branches, so the compiler runs a block on vector lanes. One
// class of 1600 boxes, all kept, 1.28M pairs: 1.42 ms one pair at a time (set 66's anchor-free detector).
struct KeptBoxes {
  std::vector<float> y0, x0, y1, x1, area;
  void clear() {
    for (auto* v : {&y0, &x0, &y1, &x1, &area}) v->clear();
  }
  void push(const Box& b) {
    y0.push_back(b.y0);
    x0.push_back(b.x0);
    y1.push_back(b.y1);
    x1.push_back(b.x1);
    area.push_back(b.area);
  }
};

template <int kBlock>
inline bool anyKeptSuppresses(const KeptBoxes& k, const Box& b, float iouThreshold) {
  const size_t n = k.area.size();
  for (size_t s = 0; s < n; s += kBlock) {
    const size_t e = std::min(n, s + kBlock);
    int hit = 0;
    for (size_t j = s; j < e; ++j) {
      const float ix0 = std::max(k.x0[j], b.x0), ix1 = std::min(k.x1[j], b.x1);
      const float iy0 = std::max(k.y0[j], b.y0), iy1 = std::min(k.y1[j], b.y1);
      const float inter = (ix1 - ix0) * (iy1 - iy0);
      const float uni = k.area[j] + b.area - inter;
      hit |= static_cast<int>(ix1 > ix0) & static_cast<int>(iy1 > iy0) & static_cast<int>(k.area[j] > 0) &
             static_cast<int>(b.area > 0) & static_cast<int>(uni > 0) &
             static_cast<int>(inter / uni > iouThreshold);
    }
    if (hit) return true;
  }
  return false;
}

__attribute__((target("avx2"))) bool anyKeptSuppressesAvx2(const KeptBoxes& k, const Box& b, float thr) {
  return anyKeptSuppresses<32>(k, b, thr);
}

Status opNonMaxSuppression(OpContext& c) {
  if (!c.has(0) || !c.has(1)) return c.fail("expects boxes and scores");
  const RtTensor boxes = asFloat(c.input(0)), scores = asFloat(c.input(1));
  if (boxes.rank() != 3 || boxes.dims[2] != 4) return c.fail("input 'boxes' must be [batch, boxes, 4], got " + dimsStr(boxes.dims));
  if (scores.rank() != 3) return c.fail("input 'scores' must be [batch, classes, boxes], got " + dimsStr(scores.dims));
  const int64_t B = boxes.dims[0], N = boxes.dims[1], C = scores.dims[1];
  if (scores.dims[0] != B || scores.dims[2] != N)
    return c.fail("input 'scores' " + dimsStr(scores.dims) + " does not match boxes " + dimsStr(boxes.dims));
  const int64_t maxOut = c.has(2) && c.input(2).numel() > 0 ? c.input(2).getI(0) : 0;
  const float iouThr = c.has(3) && c.input(3).numel() > 0 ? static_cast<float>(c.input(3).getD(0)) : 0.f;
  const bool hasScoreThr = c.has(4) && c.input(4).numel() > 0;
  const float scoreThr = hasScoreThr ? static_cast<float>(c.input(4).getD(0)) : 0.f;
  if (iouThr < 0 || iouThr > 1) return c.fail("input 'iou_threshold' must be in [0, 1], got " + std::to_string(iouThr));
  const int64_t cpb = c.attrInt("center_point_box", 0);
  if (cpb != 0 && cpb != 1) return c.fail("attribute 'center_point_box' must be 0 or 1");

  std::vector<Box> bx(static_cast<size_t>(B * N));
  for (int64_t k = 0; k < B * N; ++k) bx[static_cast<size_t>(k)] = makeBox(boxes.f() + k * 4, cpb == 1);
  // One selection list per (batch, class), run in parallel and concatenated in order.
  std::vector<std::vector<int64_t>> picked(static_cast<size_t>(B * C));
  if (maxOut > 0)
    parallelFor(B * C, N * 8, [&](int64_t b, int64_t e) {
      static const bool avx2 = __builtin_cpu_supports("avx2");
      std::vector<int64_t> cand;
      KeptBoxes kept;
      for (int64_t bc = b; bc < e; ++bc) {
        const int64_t batch = bc / C;
        const float* sc = scores.f() + bc * N;
        cand.clear();
        for (int64_t j = 0; j < N; ++j)
          if (!hasScoreThr || sc[j] > scoreThr) cand.push_back(j);
        std::stable_sort(cand.begin(), cand.end(), [&](int64_t a, int64_t bb) { return sc[a] > sc[bb]; });
        kept.clear();
        auto& out = picked[static_cast<size_t>(bc)];
        for (int64_t j : cand) {
          if (static_cast<int64_t>(out.size()) >= maxOut) break;
          const Box& cb = bx[static_cast<size_t>(batch * N + j)];
          if (avx2 ? anyKeptSuppressesAvx2(kept, cb, iouThr) : anyKeptSuppresses<16>(kept, cb, iouThr))
            continue;
          kept.push(cb);
          out.push_back(j);
        }
      }
    });
  int64_t total = 0;
  for (const auto& p : picked) total += static_cast<int64_t>(p.size());
  RtTensor y = RtTensor::alloc(DType::Int64, {total, 3});
  int64_t row = 0;
  for (int64_t bc = 0; bc < B * C; ++bc)
    for (int64_t j : picked[static_cast<size_t>(bc)]) {
      y.mi()[row * 3] = bc / C;
      y.mi()[row * 3 + 1] = bc % C;
      y.mi()[row * 3 + 2] = j;
      ++row;
    }
  c.out[0] = std::move(y);
  return {};
}


}  // namespace

std::vector<OpEntry> sortOps() {
  return {
      {"Unique", opUnique},
      {"TopK", opTopK},
      {"NonMaxSuppression", opNonMaxSuppression},
  };
}

}  // namespace fw::exec
