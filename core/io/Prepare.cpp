#include "core/io/Prepare.h"

#include <atomic>

#include "core/check/Validate.h"

namespace fw {

namespace {
std::atomic<size_t> gBindCalls{0};
}  // namespace

size_t bindShapesCalls() { return gBindCalls.load(); }

Result<LoadedSource> loadChecked(const std::string& source, const LoadOptions& opts) {
  LoadedSource out;
  FW_ASSIGN_OR_RETURN(out.model, loadModel(source, opts, &out.report));
  if (auto v = validateModel(out.model, !out.report.strictShapesOk); !v.ok()) return v.error(out.model.sourcePath);
  return out;
}

Result<PreparedModel> bindShapes(const LoadedSource& loaded, const std::vector<ShapeOverride>& bind,
                                 const ResolveOptions& resolve) {
  ++gBindCalls;
  PreparedModel p;
  p.model = loaded.model;  // copy-on-write: the graph is copied when shapes are written
  p.report = loaded.report;
  if (!bind.empty()) FW_TRY_STATUS(inferShapes(p.model, bind, false, &p.report.warnings));
  auto r = resolveShapes(p.model, resolve);
  if (!r.ok()) return r.error().context(p.model.sourcePath);
  p.shapes = std::move(r).value();
  return p;
}

Result<PreparedModel> prepareModel(const std::string& source, const LoadOptions& opts,
                                   const std::vector<ShapeOverride>& bind, const ResolveOptions& resolve) {
  FW_ASSIGN_OR_RETURN(auto loaded, loadChecked(source, opts));
  return bindShapes(loaded, bind, resolve);
}

}  // namespace fw
