#pragma once
// One way to get a model from what a user typed: a file path or "zoo:NAME[?key=value&...]".
#include <string>

#include "core/ir/Model.h"
#include "core/onnx/OnnxIO.h"
#include "core/zoo/Zoo.h"

namespace fw {

struct LoadOptions {
  ImportOptions import;
  ZooParams zoo;  // defaults for zoo models; "?key=value" in the spec overrides
};

bool isZooSpec(const std::string& spec);
Result<Model> loadModel(const std::string& spec, const LoadOptions& opts = {},
                        ImportReport* report = nullptr);

}  // namespace fw
