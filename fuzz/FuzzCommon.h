#pragma once
// Shared by the fuzz targets: bytes -> model, with limits small enough to keep each input fast.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/check/Validate.h"
#include "core/onnx/OnnxIO.h"

namespace fwfuzz {

// A model that imports and passes validation, or nothing. Never throws, never aborts.
inline fw::Result<fw::Model> modelFrom(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto m = fw::parseOnnxBytes(bytes, "fuzz.onnx", "");
  if (!m.ok()) return m.error();
  auto v = fw::validateModel(*m);
  if (!v.ok()) return v.error("fuzz.onnx");
  return m;
}

// Inputs above this many nodes are skipped: the fuzzer looks for crashes, not for slow big graphs.
inline bool tooBig(const fw::Model& m) { return m.graph->liveNodeCount() > 4000; }

}  // namespace fwfuzz
