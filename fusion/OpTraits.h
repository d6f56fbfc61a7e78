#pragma once
// The op pattern kinds that drive generic grouping, read from the one op table (core/ir/OpInfo.h),
// after TVM's op kinds: elementwise and broadcast ops chain freely; injective ops (pure data
// movement) may be absorbed into a neighbour; reductions fuse with the elementwise ops around them;
// cube ops take elementwise epilogues; opaque ops and control flow stand alone. An op of another
// domain than ai.onnx is opaque.
#include <set>
#include <string>
#include <string_view>

#include "core/ir/Graph.h"
#include "core/ir/OpInfo.h"

namespace fw::fusion {

using OpKind = OpPattern;

OpKind opKind(std::string_view opType, std::string_view domain = {});
const char* opKindName(OpKind k);
bool isCubeOp(std::string_view opType);
bool isControlFlow(std::string_view opType);
bool isActivation(std::string_view opType);  // single-node activations a cube epilogue takes
bool isViewOp(std::string_view opType);       // no data movement on the device (Reshape, Squeeze…)

// Kind of a node, honouring --enable_cluster_ops (opaque ops treated as elementwise).
OpKind nodeKind(const Node& n, const std::set<std::string>& clusterOpsEnabled);

}  // namespace fw::fusion
