// Zoo models at every level: kernels never rise with the level, exports pass onnx.checker and the
// reference executor computes the original results; ResNet-50 at -O2 keeps <= 35% of its nodes.
#include "core/onnx/OnnxIO.h"
#include "core/zoo/Zoo.h"
#include "tests/fusion/FusionTestUtil.h"

namespace fwtest {
namespace {

ZooParams smallParams(const std::string& name) {
  ZooParams p;
  if (name == "bert") {
    p.layers = 1;
    p.seq = 16;
  } else if (name == "lstm") {
    p.seq = 4;
  } else {
    p.image = 64;
  }
  return p;
}

class ZooFusion : public ::testing::TestWithParam<std::string> {};

TEST_P(ZooFusion, KernelsFallWithLevelAndExportsRunEqual) {
  auto m = buildZooModel(GetParam(), smallParams(GetParam()));
  ASSERT_TRUE(m.ok()) << m.error().message;
  size_t prev = SIZE_MAX;
  for (int level = 0; level <= 3; ++level) {
    fusion::FusionOptions o;
    o.optLevel = level;
    o.hw.ubBytes = 192 * 1024;  // the shape of a real profile; the CLI reads it from resources/hw
    o.hw.elemBytes = 2;
    auto r = fusion::fuseModel(*m, o);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_LE(r->kernels.size(), prev) << GetParam() << " -O" << level;
    prev = r->kernels.size();
    auto e = fusion::exportFused(*r);
    ASSERT_TRUE(e.ok()) << e.error().message;
    auto chk = checkOnnx(*e);
    EXPECT_TRUE(chk.ok()) << GetParam() << " -O" << level << ": " << (chk.ok() ? "" : chk.error().message);
    // Element-wise within the error bound of the computation (tests/common/ErrorBound.h): the
    // convolutions' rounding after BN folding depends on which oneDNN kernel runs
    // (ONEDNN_MAX_CPU_ISA=SSE41/AVX2/AVX512_CORE); the bound allows every summation order.
    EXPECT_LE(boundRatio(*m, *e, 3, &r->rewritten), 1.0) << GetParam() << " -O" << level;
    std::printf("[zoo] %s -O%d: %zu nodes -> %zu kernels\n", GetParam().c_str(), level, r->nodesBefore, r->kernels.size());
  }
}

INSTANTIATE_TEST_SUITE_P(All, ZooFusion,
                         ::testing::Values("resnet50", "mobilenetv2", "bert", "yolov5s", "deeplabv3plus", "lstm"));

TEST(ZooFusion, ResNet50AtO2KeepsAtMost35PercentOfNodes) {
  auto m = buildZooModel("resnet50", smallParams("resnet50"));
  ASSERT_TRUE(m.ok());
  fusion::FusionOptions o;
  o.optLevel = 2;
  o.hw.ubBytes = 192 * 1024;
  o.hw.elemBytes = 2;
  auto r = fusion::fuseModel(*m, o);
  ASSERT_TRUE(r.ok());
  EXPECT_LE(static_cast<double>(r->kernels.size()), 0.35 * static_cast<double>(r->nodesBefore))
      << r->kernels.size() << " kernels of " << r->nodesBefore << " nodes";
}

}  // namespace
}  // namespace fwtest
