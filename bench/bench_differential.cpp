// Long differential campaign (tests/fusion/DiffGen.h): random graphs fused with random levels, rule
// subsets, exclusions and UB sizes, checked by the reference executor.
//   bench_differential [COUNT=100000] [FIRST_SEED=1] [--export DIR K]
// --export writes the first K cases as DIR/case_SEED/{original,fused}.onnx for an ONNX Runtime pass
// (bench/differential_ort.sh). Prints one line per mismatch and a summary; exit 1 on a mismatch.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <spdlog/spdlog.h>

#include "core/onnx/OnnxIO.h"
#include "tests/fusion/DiffGen.h"

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);
  uint32_t count = argc > 1 ? static_cast<uint32_t>(std::atol(argv[1])) : 100000;
  const uint32_t first = argc > 2 ? static_cast<uint32_t>(std::atol(argv[2])) : 1;
  std::string exportDir;
  uint32_t exportCount = 0;
  for (int i = 3; i + 2 < argc + 0 && i < argc; ++i)
    if (std::string(argv[i]) == "--export" && i + 2 < argc) {
      exportDir = argv[i + 1];
      exportCount = static_cast<uint32_t>(std::atol(argv[i + 2]));
    }
  const auto t0 = std::chrono::steady_clock::now();
  uint32_t mismatches = 0;
  size_t nodes = 0;
  for (uint32_t seed = first; seed < first + count; ++seed) {
    const std::string why = fwdiff::check(seed);
    if (!why.empty()) {
      ++mismatches;
      std::printf("MISMATCH %s\n", why.c_str());
    }
    if (seed - first < exportCount) {
      auto c = fwdiff::Generator(seed).make();
      nodes += c.model.graph->liveNodeCount();
      auto r = fw::fusion::fuseModel(c.model, c.options);
      if (!r.ok()) continue;
      auto e = fw::fusion::exportFused(*r);
      if (!e.ok()) continue;
      const auto dir = std::filesystem::path(exportDir) / ("case_" + std::to_string(seed));
      std::filesystem::create_directories(dir);
      (void)fw::saveOnnxFile(c.model, (dir / "original.onnx").string());
      (void)fw::saveOnnxFile(*e, (dir / "fused.onnx").string());
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("differential: %u random graphs (seeds %u..%u), %u mismatches, %.1f s (%.0f graphs/s)\n", count, first,
              first + count - 1, mismatches, s, count / std::max(s, 1e-9));
  return mismatches ? 1 : 0;
}
