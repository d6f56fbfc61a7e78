#pragma once
// The built-in model zoo: unfused models as a framework exports them, with deterministic weights.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/Model.h"
#include "core/util/Result.h"

namespace fw {

struct ZooParams {
  int64_t batch = 1;
  std::optional<int64_t> layers;  // BERT encoder layers, LSTM layers
  std::optional<int64_t> hidden;  // BERT/LSTM hidden size
  std::optional<int64_t> seq;     // BERT/LSTM sequence length
  std::optional<int64_t> image;   // CNN input height = width
  std::optional<int64_t> heads;   // BERT attention heads (hidden must be divisible by it)
  uint64_t seed = 20261121;
};

struct ZooEntry {
  std::string name;         // "resnet50"
  std::string description;  // one line
  std::vector<std::string> params;  // which of batch/layers/hidden/seq/image apply
};

const std::vector<ZooEntry>& zooEntries();
// Builds the model with shapes inferred. Unknown name or a bad parameter: BadInput naming it. A parameter
// the model does not take (e.g. --image for bert) is BadInput too. Defaults and limits: Zoo.cpp / README.
Result<Model> buildZooModel(const std::string& name, const ZooParams& params = {});

}  // namespace fw
