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

// One integer parameter of a zoo model: its default and the closed range the builder accepts. `note` names
// any further condition ("multiple of 32", "divides --hidden"). `fwb zoo list` prints exactly these.
struct ZooParamSpec {
  std::string name;  // "layers"
  int64_t def = 0;
  int64_t lo = 0, hi = 0;
  std::string note;
};

struct ZooEntry {
  std::string name;         // "resnet50"
  std::string description;  // one line
  std::vector<std::string> params;  // which of batch/layers/hidden/seq/image/heads apply
  std::vector<ZooParamSpec> specs;  // one per entry of `params`, same order
  std::string limits;               // size limits across parameters (weights per .onnx file), or ""
};

const std::vector<ZooEntry>& zooEntries();
// Builds the model (ai.onnx opset 17, IR 8) with every value's dtype and static shape inferred. Unknown
// name or a bad parameter: BadInput naming it; a parameter the model does not take (e.g. --image for bert)
// is BadInput too. Defaults and ranges are the entries' `specs` (batch 1..1024 everywhere):
//   resnet50, mobilenetv2  image 224 (32..4096)            input "input" [b,3,image,image], output [b,1000]
//   yolov5s                image 320 (32..4096, multiple of 32; upstream exports 640)    output [b,boxes,85]
//   deeplabv3plus          image 256 (64..4096, multiple of 16)                 output [b,21,image,image]
//   bert                   layers 12 (1..2000), hidden 768 (8..4096), heads 12 (1..128, divides hidden),
//                          seq 128 (1..512), vocab 1024; inputs input_ids, attention_mask int64 [b,seq]
//   lstm                   layers 2 (1..16), hidden 256 (1..4096), seq 16 (1..2000), input size 128;
//                          input [seq,b,128]
// Weights must fit one .onnx file (at most 400M): a request over that is BadInput saying how far to lower
// which parameter (e.g. 1,500 BERT layers fit with hidden <= 149). Graphs grow linearly with layers/seq.
// Weights are deterministic in (seed, weight name): changing batch or image does not change them.
Result<Model> buildZooModel(const std::string& name, const ZooParams& params = {});

}  // namespace fw
