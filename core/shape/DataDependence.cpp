// The data-dependence analysis of shapes (DataDependence.h): which values' shapes depend on input data.
#include "core/shape/DataDependence.h"

#include <map>
#include <set>
#include <string>

namespace fw {

std::vector<char> dataDependentShapes(const Graph& g) {
  static const std::set<std::string> alwaysData{"NonZero", "NonMaxSuppression", "Unique", "Compress", "Loop",
                                                "Scan", "If", "SequenceMap", "SplitToSequence", "SequenceAt"};
  // Shape operands: op type -> input indices whose CONTENT sets the output shape.
  static const std::map<std::string, std::vector<size_t>> shapeOperands{
      {"Reshape", {1}}, {"Expand", {1}}, {"Tile", {1}}, {"ConstantOfShape", {0}}, {"Range", {0, 1, 2}},
      {"Slice", {1, 2, 3, 4}}, {"Resize", {1, 2, 3}}, {"Upsample", {1}}, {"OneHot", {1}}, {"Pad", {1, 3}},
      {"Squeeze", {1}}, {"Unsqueeze", {1}}, {"Split", {1}}, {"TopK", {1}}, {"ReduceSum", {1}},
      {"ReduceMean", {1}}, {"ReduceMax", {1}}, {"ReduceMin", {1}}, {"ReduceProd", {1}}, {"EyeLike", {}},
      {"RandomNormal", {}}, {"Trilu", {}}, {"CenterCropPad", {1}}, {"MaxUnpool", {2}}, {"STFT", {1, 3}},
      {"DFT", {1}}, {"HannWindow", {0}}, {"HammingWindow", {0}}, {"BlackmanWindow", {0}}, {"MelWeightMatrix", {0, 1}}};
  const size_t nv = g.values().size();
  std::vector<char> shapeDep(nv, 0), contentDep(nv, 0);
  for (ValueId in : g.inputs())
    if (!g.value(in).initializer) contentDep[static_cast<size_t>(in)] = 1;
  for (const auto& v : g.values())
    if (v.isOuterRef()) contentDep[static_cast<size_t>(v.id)] = shapeDep[static_cast<size_t>(v.id)] = 1;
  auto order = g.topoOrder();
  if (!order.ok()) return std::vector<char>(nv, 1);
  for (NodeId id : *order) {
    const Node& n = g.node(id);
    bool anyShape = false, anyContent = false;
    for (ValueId v : n.inputs) {
      if (v == kNoId) continue;
      anyShape |= shapeDep[static_cast<size_t>(v)] != 0;
      anyContent |= contentDep[static_cast<size_t>(v)] != 0;
    }
    for (ValueId v : n.implicitInputs) {
      if (v == kNoId) continue;
      anyShape |= shapeDep[static_cast<size_t>(v)] != 0;
      anyContent |= contentDep[static_cast<size_t>(v)] != 0;
    }
    bool outShape = anyShape || (alwaysData.count(n.opType) && anyContent);
    if (auto it = shapeOperands.find(n.opType); it != shapeOperands.end())
      for (size_t k : it->second)
        if (k < n.inputs.size() && n.inputs[k] != kNoId && contentDep[static_cast<size_t>(n.inputs[k])]) outShape = true;
    // Shape and Size read only the shape; everything else passes its inputs' content on.
    const bool outContent = (n.opType == "Shape" || n.opType == "Size") ? anyShape : anyContent;
    for (ValueId o : n.outputs) {
      if (o == kNoId) continue;
      shapeDep[static_cast<size_t>(o)] = outShape;
      contentDep[static_cast<size_t>(o)] = outContent;
    }
  }
  return shapeDep;
}

}  // namespace fw
