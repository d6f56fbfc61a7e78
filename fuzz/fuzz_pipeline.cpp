// Import, validate, resolve shapes (no traced run: speed), fuse at every level and export.
#include "core/shape/ShapeResolve.h"
#include "fusion/Export.h"
#include "fusion/Pipeline.h"
#include "fuzz/FuzzCommon.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto m = fwfuzz::modelFrom(data, size);
  if (!m.ok() || fwfuzz::tooBig(*m)) return 0;
  fw::ResolveOptions ro;
  ro.traceIfNeeded = false;
  if (!fw::resolveShapes(*m, ro).ok()) return 0;
  for (int level = 0; level <= 3; ++level) {
    fw::fusion::FusionOptions o;
    o.optLevel = level;
    o.hw.ubBytes = 192 * 1024;
    auto r = fw::fusion::fuseModel(*m, o);
    if (!r.ok()) continue;
    auto e = fw::fusion::exportFused(*r);
    if (e.ok()) (void)fw::serializeOnnx(*e);
  }
  return 0;
}
