#pragma once
// Which values of a graph have a shape that only the input data can tell (used by ShapeResolve.cpp to
// mark shapes taken from a traced run).
#include <vector>

#include "core/ir/Graph.h"

namespace fw {

// Which values of `g` have a shape that depends on the input DATA (not only on the bound input
// shapes): outputs of NonZero, NonMaxSuppression, Unique, Compress, control flow on data, and of any
// op whose shape operand (Reshape's shape, Slice's starts, TopK's k, ...) carries data-dependent
// content; and everything computed from such a value. A value the traced run shapes is marked
// shapeFromTrace only when it is one of these: a shape ONNX inference merely failed to derive is a
// shape of the binding, and may be folded.
std::vector<char> dataDependentShapes(const Graph& g);

}  // namespace fw
