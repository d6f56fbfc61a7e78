#pragma once
// The fusion pipeline: rewrites (to a fixpoint) produce a graph of standard ops, then grouping rules
// assign its nodes to kernels. Each If/Loop/Scan body is fused on its own, recursively (rewrites to a
// fixpoint, then grouping; FusionResult::subgraphs holds its kernels): the control-flow node stays one
// kernel of its enclosing graph and nothing is fused across the boundary.
#include "core/ir/Model.h"
#include "core/util/Result.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

Result<FusionResult> fuseModel(const Model& model, const FusionOptions& opts);

}  // namespace fw::fusion
