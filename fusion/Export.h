#pragma once
// The fused model as ONNX: every multi-node kernel becomes one node of domain "fwb.fused" whose
// op_type names a model-local function (IR >= 8) holding the kernel's member nodes - standard ops
// only. Single-node kernels stay plain nodes; folded weights are ordinary initializers. Any runtime
// that inlines functions computes the original results, and Netron shows a kernel as one node.
#include "core/ir/Model.h"
#include "core/util/Result.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

inline constexpr const char* kFusedDomain = "fwb.fused";

Result<Model> exportFused(const FusionResult& r);

// What a user would deploy, as a runtime sees it: exportFused, serialised to ONNX bytes and parsed
// back. Verification runs this (not the in-memory rewrite), so it checks the fusion, the exporter and
// the function bodies together. `label` names the model in errors ("m.onnx (fused -O2)").
Result<Model> exportedAndReimported(const FusionResult& r, const std::string& label);

}  // namespace fw::fusion
