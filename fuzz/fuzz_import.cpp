// ONNX import + validation + the summary `fwb info` prints: any bytes, no crash.
#include "core/io/ModelInfo.h"
#include "fuzz/FuzzCommon.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto m = fw::parseOnnxBytes(bytes, "fuzz.onnx", "");
  if (!m.ok()) return 0;
  (void)fw::validateModel(*m);
  (void)fw::toText(fw::summarizeModel(*m), true);
  (void)fw::serializeOnnx(*m);
  return 0;
}
