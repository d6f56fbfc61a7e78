// Property test: random small graphs (chains and diamonds of Conv/MatMul/Add/Mul/Relu/Sigmoid/BN/
// Reshape...) fused at every level; each export must compute what the original computes, and the
// kernel count must not rise with the level.
#include "tests/fusion/FusionTestUtil.h"

namespace fwtest {
namespace {

}  // namespace
Model randomGraph(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  GraphBuilder b;
  const int64_t c = 2 + pick(3), hw = 3;
  const bool conv = pick(2) == 0;
  std::vector<int64_t> dims = conv ? std::vector<int64_t>{1, c, hw, hw} : std::vector<int64_t>{2, 3, c};
  std::vector<ValueId> vals{b.input("x", dims)};
  const int steps = 3 + pick(6);
  for (int i = 0; i < steps; ++i) {
    ValueId a = vals[static_cast<size_t>(pick(static_cast<int>(vals.size())))];
    ValueId last = vals.back();
    const std::string s = std::to_string(i);
    ValueId out;
    switch (pick(10)) {
      case 0:
        out = conv ? b.op("Conv", {last, b.constant("w" + s, {c, c, 1, 1}), b.constant("cb" + s, {c})}, dims)
                   : b.op("MatMul", {last, b.constant("w" + s, {c, c})}, dims);
        break;
      case 1: out = b.op("Add", {last, a}, dims); break;
      case 2: out = b.op("Mul", {last, b.constant("k" + s, conv ? std::vector<int64_t>{c, 1, 1} : std::vector<int64_t>{c})}, dims); break;
      case 3: out = b.op("Relu", {last}, dims); break;
      case 4: out = b.op("Sigmoid", {last}, dims); break;
      case 5:
        out = conv ? b.op("BatchNormalization", {last, b.constant("g" + s, {c}, 0.5f, 1.5f), b.constant("be" + s, {c}),
                                                 b.constant("mu" + s, {c}), b.constant("v" + s, {c}, 0.5f, 2.f)}, dims)
                   : b.op("Add", {last, b.constant("bias" + s, {c})}, dims);
        break;
      case 6: {
        std::vector<int64_t> flat{dims[0], -1};
        int64_t rest = 1;
        for (size_t k = 1; k < dims.size(); ++k) rest *= dims[k];
        auto r = b.op("Reshape", {last, b.ints("shape", flat)}, {dims[0], rest});
        std::vector<int64_t> back(dims.begin(), dims.end());
        out = b.op("Reshape", {b.op("Tanh", {r}, {dims[0], rest}), b.ints("back", back)}, dims);
        break;
      }
      case 7: out = b.op("Mul", {last, b.op("Sigmoid", {last}, dims)}, dims); break;
      case 8: out = b.op("Identity", {last}, dims); break;
      default: out = b.op("Sub", {a, last}, dims); break;
    }
    vals.push_back(out);
  }
  b.output(vals.back());
  if (pick(3) == 0 && vals.size() > 3) b.output(vals[vals.size() / 2]);
  return b.model();
}
namespace {

TEST(Property, RandomGraphsFuseEqualAtEveryLevel) {
  int checked = 0;
  for (uint32_t seed = 1; seed <= 520; ++seed) {
    Model m = randomGraph(seed);
    size_t prev = SIZE_MAX;
    for (int level = 0; level <= 3; ++level) {
      fusion::FusionOptions o;
      o.optLevel = level;
      o.hw.ubBytes = 192 * 1024;
      auto r = fusion::fuseModel(m, o);
      ASSERT_TRUE(r.ok()) << "seed " << seed << ": " << r.error().message;
      auto e = fusion::exportFused(*r);
      ASSERT_TRUE(e.ok()) << "seed " << seed << ": " << e.error().message;
      double d = boundRatio(m, *e, seed, &r->rewritten);
      ASSERT_LE(d, 1.0) << "seed " << seed << " -O" << level;
      EXPECT_LE(r->kernels.size(), prev) << "seed " << seed << " -O" << level;
      prev = r->kernels.size();
      ++checked;
    }
  }
  EXPECT_GE(checked, 2000);
}

}  // namespace
}  // namespace fwtest
