#pragma once
// The fusion pipeline: rewrites (to a fixpoint) produce a graph of standard ops, then grouping rules
// assign its nodes to kernels. Subgraphs of If/Loop/Scan are left as they are and their nodes are
// one kernel each: nothing is fused across control flow.
#include "core/ir/Model.h"
#include "core/util/Result.h"
#include "fusion/FusionTypes.h"

namespace fw::fusion {

Result<FusionResult> fuseModel(const Model& model, const FusionOptions& opts);

}  // namespace fw::fusion
