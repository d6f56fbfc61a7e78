// Fusion config JSON and MindSpore graph_kernel_flags: any text is options or a clear error.
#include <string>

#include "fusion/FusionConfig.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  fw::fusion::FusionOptions a;
  (void)fw::fusion::applyFusionConfig(a, text, "fuzz.json");
  fw::fusion::FusionOptions b;
  (void)fw::fusion::applyGraphKernelFlags(b, text);
  return 0;
}
