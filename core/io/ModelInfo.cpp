#include "core/io/ModelInfo.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace fw {

std::string describeValue(const Graph& g, ValueId v) {
  if (v == kNoId) return "(none)";
  const Value& val = g.value(v);
  if (!val.opaqueType.empty()) return val.name + ": <non-tensor>";
  return val.name + ": " + std::string(dtypeName(val.dtype)) + val.shape.str();
}

namespace {

size_t countNested(const Graph& g) {
  size_t n = g.liveNodeCount();
  for (const auto& node : g.nodes()) {
    if (node.dead) continue;
    for (const auto& sg : node.subgraphs()) n += countNested(*sg);
  }
  return n;
}

std::string human(double v) {
  char buf[64];
  const char* units[] = {"", "K", "M", "G", "T", "P"};
  int u = 0;
  while (v >= 1000.0 && u < 5) {
    v /= 1000.0;
    ++u;
  }
  std::snprintf(buf, sizeof buf, u ? "%.2f %s" : "%.0f %s", v, units[u]);
  std::string s(buf);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

ModelInfo summarizeModel(const Model& m) {
  ModelInfo info;
  const Graph& g = *m.graph;
  info.source = m.sourcePath;
  info.irVersion = m.irVersion;
  info.producer = m.producerName + (m.producerVersion.empty() ? "" : " " + m.producerVersion);
  info.opsets = m.opsetImports;
  info.liveNodes = g.liveNodeCount();
  info.storedNodes = m.storedNodeCount >= 0 ? m.storedNodeCount : static_cast<int64_t>(info.liveNodes);
  for (const auto& v : g.values()) {
    if (!v.initializer) continue;
    ++info.initializers;
    info.params += v.initializer->numel();
    info.paramBytes += static_cast<int64_t>(v.initializer->byteSize());
  }
  for (ValueId v : g.inputs()) info.inputs.push_back(describeValue(g, v));
  for (ValueId v : g.outputs()) info.outputs.push_back(describeValue(g, v));
  for (const auto& f : m.functions) info.functions.push_back(f.domain + "." + f.name);
  for (const auto& n : g.nodes()) {
    if (n.dead) continue;
    ++info.ops[n.domain.empty() ? n.opType : n.domain + "." + n.opType];
    NodeInfo ni;
    ni.id = n.id;
    ni.name = n.name;
    ni.opType = n.opType;
    ni.domain = n.domain;
    for (ValueId v : n.inputs) ni.inputs.push_back(describeValue(g, v));
    for (ValueId v : n.outputs) ni.outputs.push_back(describeValue(g, v));
    ni.cost = nodeCost(g, n.id);
    info.flops += ni.cost.flops;
    info.bytes += ni.cost.bytesIn + ni.cost.bytesOut + ni.cost.weightBytes;
    if (!ni.cost.known) ++info.unknownCostNodes;
    for (const auto& a : n.attrs.all()) {
      if (a.kind == AttrKind::Graph && a.g) info.subgraphs.push_back({n.name, a.name, countNested(*a.g)});
      if (a.kind == AttrKind::Graphs)
        for (const auto& sg : a.graphs) info.subgraphs.push_back({n.name, a.name, countNested(*sg)});
    }
    info.nodeList.push_back(std::move(ni));
  }
  if (info.unknownCostNodes)
    info.warnings.push_back(std::to_string(info.unknownCostNodes) +
                            " nodes have unknown shapes; FLOPs and bytes are lower bounds "
                            "(bind shapes with --input-shape)");
  return info;
}

nlohmann::json toJson(const ModelInfo& info, bool withNodes) {
  nlohmann::json j;
  j["source"] = info.source;
  j["ir_version"] = info.irVersion;
  j["producer"] = info.producer;
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [d, v] : info.opsets) ops[d.empty() ? "ai.onnx" : d] = v;
  j["opsets"] = ops;
  j["nodes"] = info.storedNodes;
  j["nodes_after_import"] = info.liveNodes;
  j["ops"] = info.ops;
  j["initializers"] = info.initializers;
  j["params"] = info.params;
  j["param_bytes"] = info.paramBytes;
  j["flops"] = info.flops;
  j["bytes"] = info.bytes;
  j["inputs"] = info.inputs;
  j["outputs"] = info.outputs;
  nlohmann::json subs = nlohmann::json::array();
  for (const auto& s : info.subgraphs) subs.push_back({{"node", s.node}, {"attribute", s.attribute}, {"nodes", s.nodes}});
  j["subgraphs"] = subs;
  j["functions"] = info.functions;
  j["warnings"] = info.warnings;
  if (withNodes) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& n : info.nodeList) {
      nlohmann::json jn{{"name", n.name}, {"op", n.opType}, {"inputs", n.inputs}, {"outputs", n.outputs},
                        {"flops", n.cost.flops},
                        {"bytes", n.cost.bytesIn + n.cost.bytesOut + n.cost.weightBytes},
                        {"weight_bytes", n.cost.weightBytes}};
      if (!n.domain.empty()) jn["domain"] = n.domain;
      if (!n.cost.known) jn["cost_problem"] = n.cost.problem;
      nodes.push_back(std::move(jn));
    }
    j["node_list"] = nodes;
  }
  return j;
}

std::string toText(const ModelInfo& info, bool withNodes) {
  std::ostringstream os;
  os << "Model        " << info.source << "\n";
  os << "IR version   " << info.irVersion << (info.producer.empty() ? "" : "   producer: " + info.producer) << "\n";
  os << "Opsets       ";
  for (const auto& [d, v] : info.opsets) os << (d.empty() ? "ai.onnx" : d) << "=" << v << " ";
  os << "\n";
  os << "Nodes        " << info.storedNodes << " stored";
  if (static_cast<int64_t>(info.liveNodes) != info.storedNodes)
    os << ", " << info.liveNodes << " after import (Constant nodes became initializers)";
  os << "\n";
  os << "Parameters   " << human(static_cast<double>(info.params)) << " in " << info.initializers
     << " initializers (" << human(static_cast<double>(info.paramBytes)) << "B)\n";
  os << "FLOPs        " << human(info.flops) << "\n";
  os << "Bytes moved  " << human(info.bytes) << "B (sum over nodes of inputs, weights, outputs)\n";
  os << "Inputs\n";
  for (const auto& s : info.inputs) os << "  " << s << "\n";
  os << "Outputs\n";
  for (const auto& s : info.outputs) os << "  " << s << "\n";
  std::vector<std::pair<std::string, size_t>> hist(info.ops.begin(), info.ops.end());
  std::sort(hist.begin(), hist.end(), [](auto& a, auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  os << "Operators (" << hist.size() << " types)\n";
  for (const auto& [op, c] : hist) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "  %-28s %6zu\n", op.c_str(), c);
    os << buf;
  }
  if (!info.subgraphs.empty()) {
    os << "Subgraphs\n";
    for (const auto& s : info.subgraphs) os << "  " << s.node << "." << s.attribute << ": " << s.nodes << " nodes\n";
  }
  if (!info.functions.empty()) {
    os << "Functions\n";
    for (const auto& f : info.functions) os << "  " << f << "\n";
  }
  for (const auto& w : info.warnings) os << "warning: " << w << "\n";
  if (withNodes) {
    os << "\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-40s %-22s %14s %14s  %s\n", "node", "op", "FLOPs", "bytes", "output");
    os << buf;
    for (const auto& n : info.nodeList) {
      std::snprintf(buf, sizeof buf, "%-40s %-22s %14.0f %14.0f  %s\n", n.name.substr(0, 40).c_str(),
                    n.opType.substr(0, 22).c_str(), n.cost.flops,
                    n.cost.bytesIn + n.cost.bytesOut + n.cost.weightBytes,
                    n.outputs.empty() ? "" : n.outputs[0].c_str());
      os << buf;
    }
  }
  return os.str();
}

}  // namespace fw
