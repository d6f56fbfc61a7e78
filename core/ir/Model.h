#pragma once
// A model: the main graph (shared, immutable once built), opset imports, model-local functions and
// metadata. Stages of the pipeline take a Model and return a new one; the Graph is copied only when a
// stage changes it (copy-on-write through GraphPtr).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/Graph.h"

namespace fw {

// A model-local ONNX function (FunctionProto). The body is a Graph whose inputs/outputs are the
// function's formal parameters; attribute parameters are listed by name.
struct Function {
  std::string name;
  std::string domain;
  std::vector<std::string> attributeNames;
  std::map<std::string, int64_t> opsetImports;
  std::string docString;
  GraphPtr body;
};

struct Model {
  int64_t irVersion = 8;
  std::string producerName = "fusion-workbench";
  std::string producerVersion;
  std::string domain;
  int64_t modelVersion = 0;
  std::string docString;
  std::map<std::string, int64_t> opsetImports{{"", 17}};  // "" = ai.onnx
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<Function> functions;
  GraphPtr graph = std::make_shared<const Graph>();
  int64_t storedNodeCount = -1;  // nodes of the main graph as stored in the file (-1: built in code)
  std::string sourcePath;  // where it was read from ("zoo:resnet50", a file path); for messages

  int64_t opset(const std::string& domain = "") const {
    auto it = opsetImports.find(domain == "ai.onnx" ? std::string() : domain);
    return it == opsetImports.end() ? 0 : it->second;
  }
  const Function* findFunction(const std::string& domain, const std::string& name) const {
    for (const auto& f : functions)
      if (f.name == name && f.domain == domain) return &f;
    return nullptr;
  }
  // Copy-on-write access for a stage that changes the graph.
  Graph& mutableGraph() {
    if (graph.use_count() != 1) graph = std::make_shared<const Graph>(*graph);
    return const_cast<Graph&>(*graph);
  }
};

}  // namespace fw
