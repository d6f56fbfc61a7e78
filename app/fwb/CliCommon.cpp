#include "app/fwb/CliCommon.h"

#include <cstdio>
#include <iostream>

#include "core/util/FileUtil.h"

namespace fwcli {

void addModelArgs(CLI::App* cmd, ModelArgs& a, bool withBatch) {
  cmd->add_option("model", a.model, "ONNX file or zoo:NAME (see `fwb zoo list`)")->required();
  cmd->add_option("--input-shape", a.inputShapes,
                  "NAME=d0,d1,... for a graph input, or SYMBOL=N to bind a symbolic dim; repeatable");
  if (withBatch) cmd->add_option("--batch", a.batch, "batch size (binds the batch dim)");
  cmd->add_option("--layers", a.layers, "zoo: encoder/LSTM layers");
  cmd->add_option("--hidden", a.hidden, "zoo: hidden size");
  cmd->add_option("--seq", a.seq, "zoo: sequence length");
  cmd->add_option("--image", a.image, "zoo: image height = width");
}

fw::Result<fw::Model> loadModelFromArgs(const ModelArgs& a, fw::ImportReport* report) {
  fw::LoadOptions opts;
  for (const auto& s : a.inputShapes) {
    auto o = fw::parseShapeOverride(s);
    if (!o.ok()) return o.error();
    opts.import.shapeOverrides.push_back(*o);
  }
  if (a.batch < 0) return fw::Error::badInput("--batch must be positive");
  if (a.batch > 0) {
    opts.zoo.batch = a.batch;
    if (!fw::isZooSpec(a.model)) {
      // For files, --batch binds the first dim of every input whose first dim is symbolic.
      opts.import.shapeOverrides.push_back({"@batch", {fw::Dim(a.batch)}});
    }
  }
  if (a.layers) opts.zoo.layers = a.layers;
  if (a.hidden) opts.zoo.hidden = a.hidden;
  if (a.seq) opts.zoo.seq = a.seq;
  if (a.image) opts.zoo.image = a.image;
  return fw::loadModel(a.model, opts, report);
}

int fail(const fw::Error& e) {
  std::fprintf(stderr, "fwb: error: %s\n", e.message.c_str());
  return static_cast<int>(e.code);
}

int failUsage(const std::string& message) {
  std::fprintf(stderr, "fwb: error: %s\n", message.c_str());
  return kBadInput;
}

int& exitCodeSlot() {
  static int code = 0;
  return code;
}

void setRunner(CLI::App* cmd, Runner r) {
  cmd->callback([r = std::move(r)]() { exitCodeSlot() = r(); });
}

fw::Status writeOutput(const std::string& file, const std::string& text) {
  if (file.empty() || file == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return {};
  }
  return fw::writeFileAtomic(file, text);
}

}  // namespace fwcli
