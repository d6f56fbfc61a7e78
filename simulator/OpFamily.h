#pragma once
// Which unit runs an operator and how the cost model treats it: the cost family of the one op table
// (core/ir/OpInfo.h). An op type missing from it is Unknown, costed as a one-pass vector op and
// reported as a warning; every ai.onnx op of opsets 1-17 has a row.
#include <string_view>

#include "core/ir/OpInfo.h"

namespace fw::sim {

using OpFamily = CostFamily;

OpFamily opFamily(std::string_view opType);
const char* opFamilyName(OpFamily f);
bool isVectorFamily(OpFamily f);

}  // namespace fw::sim
