// Hardware-profile JSON: any text is a profile or a clear error.
#include <string>

#include "simulator/HwProfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto p = fw::sim::parseHwProfileText(text, "fuzz.json");
  if (p.ok() && (p->peakFlops() <= 0 || p->hbmBandwidth <= 0)) __builtin_trap();  // validated profiles are physical
  return 0;
}
