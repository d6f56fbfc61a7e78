#include "core/io/ModelSource.h"

namespace fw {

bool isZooSpec(const std::string& spec) { return spec.rfind("zoo:", 0) == 0; }

namespace {

Result<int64_t> parsePositive(const std::string& key, const std::string& val) {
  try {
    size_t used = 0;
    long long v = std::stoll(val, &used);
    if (used != val.size() || v <= 0) throw std::invalid_argument("not positive");
    return static_cast<int64_t>(v);
  } catch (const std::exception&) {
    return Error::badInput("zoo parameter '" + key + "=" + val + "': expected a positive integer");
  }
}

Result<Model> loadZoo(const std::string& spec, const LoadOptions& opts) {
  std::string rest = spec.substr(4);
  std::string name = rest.substr(0, rest.find('?'));
  ZooParams p = opts.zoo;
  if (auto q = rest.find('?'); q != std::string::npos) {
    std::string query = rest.substr(q + 1);
    size_t pos = 0;
    while (pos < query.size()) {
      size_t amp = query.find('&', pos);
      std::string kv = query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
      pos = amp == std::string::npos ? query.size() : amp + 1;
      auto eq = kv.find('=');
      if (eq == std::string::npos) return Error::badInput("zoo parameter '" + kv + "': expected key=value");
      std::string key = kv.substr(0, eq), val = kv.substr(eq + 1);
      auto v = parsePositive(key, val);
      if (!v.ok()) return v.error();
      if (key == "batch") p.batch = *v;
      else if (key == "layers") p.layers = *v;
      else if (key == "hidden") p.hidden = *v;
      else if (key == "seq") p.seq = *v;
      else if (key == "image") p.image = *v;
      else if (key == "heads") p.heads = *v;
      else if (key == "seed") p.seed = static_cast<uint64_t>(*v);
      else
        return Error::badInput("zoo parameter '" + key +
                               "' is unknown (batch, layers, hidden, heads, seq, image, seed)");
    }
  }
  auto m = buildZooModel(name, p);
  if (!m.ok()) return m.error();
  if (!opts.import.shapeOverrides.empty()) {
    auto st = inferShapes(*m, opts.import.shapeOverrides, opts.import.strictShapeInference);
    if (!st.ok()) return st.error().context(spec);
  }
  m->sourcePath = spec;
  return m;
}

}  // namespace

Result<Model> loadModel(const std::string& spec, const LoadOptions& opts, ImportReport* report) {
  if (spec.empty()) return Error::badInput("no model given");
  if (isZooSpec(spec)) return loadZoo(spec, opts);
  return loadOnnxFile(spec, opts.import, report);
}

}  // namespace fw
