#include "fusion/FusionConfig.h"

#include <nlohmann/json.hpp>

#include <sstream>

#include "fusion/Registry.h"

namespace fw::fusion {

std::set<std::string> splitList(const std::string& s) {
  std::set<std::string> out;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',') {
      if (!cur.empty()) out.insert(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  return out;
}

Status checkRuleIds(const std::set<std::string>& ids, const std::string& flag) {
  for (const auto& id : ids)
    if (!findRule(id)) return Error::badInput(flag + ": unknown rule '" + id + "' (see `fwb rules`)");
  return {};
}

Status applyGraphKernelFlags(FusionOptions& o, const std::string& flags) {
  std::istringstream in(flags);
  std::string tok;
  while (in >> tok) {
    if (tok.rfind("--", 0) != 0) return Error::badInput("--flags: '" + tok + "' does not start with --");
    auto eq = tok.find('=');
    if (eq == std::string::npos) return Error::badInput("--flags: '" + tok + "' has no =VALUE");
    const std::string key = tok.substr(2, eq - 2), val = tok.substr(eq + 1);
    if (key == "opt_level") {
      if (val.size() != 1 || val[0] < '0' || val[0] > '3')
        return Error::badInput("--flags: --opt_level must be 0..3, got '" + val + "'");
      o.optLevel = val[0] - '0';
    } else if (key == "enable_pass" || key == "disable_pass") {
      auto ids = splitList(val);
      FW_TRY_STATUS(checkRuleIds(ids, "--flags --" + key));
      auto& dst = key == "enable_pass" ? o.enabled : o.disabled;
      dst.insert(ids.begin(), ids.end());
    } else if (key == "enable_cluster_ops") {
      auto ops = splitList(val);
      o.clusterOpsEnabled.insert(ops.begin(), ops.end());
    } else if (key == "disable_cluster_ops") {
      auto ops = splitList(val);
      o.clusterOpsDisabled.insert(ops.begin(), ops.end());
    } else {
      return Error::badInput("--flags: unknown flag '--" + key +
                             "' (known: --opt_level, --enable_pass, --disable_pass, --enable_cluster_ops, --disable_cluster_ops)");
    }
  }
  return {};
}

namespace {

Result<std::set<std::string>> stringList(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array()) return Error::badInput(path + ": must be an array of strings");
  std::set<std::string> out;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) return Error::badInput(path + "[" + std::to_string(i) + "]: must be a string");
    out.insert(j[i].get<std::string>());
  }
  return out;
}

Result<UserRule> parseUserRule(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) return Error::badInput(path + ": must be an object");
  UserRule r;
  if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty())
    return Error::badInput(path + ".name: must be a non-empty string");
  r.name = j["name"].get<std::string>();
  if (!j.contains("ops") || !j["ops"].is_array() || j["ops"].size() < 2)
    return Error::badInput(path + ".ops: must be an array of at least 2 op types");
  for (size_t i = 0; i < j["ops"].size(); ++i) {
    const auto& s = j["ops"][i];
    const std::string sp = path + ".ops[" + std::to_string(i) + "]";
    UserRuleStep step;
    if (s.is_string()) {
      step.opType = s.get<std::string>();
    } else if (s.is_object() && s.contains("op") && s["op"].is_string()) {
      step.opType = s["op"].get<std::string>();
      if (s.contains("attrs")) {
        if (!s["attrs"].is_object()) return Error::badInput(sp + ".attrs: must be an object");
        for (const auto& [k, v] : s["attrs"].items()) {
          if (!v.is_number_integer()) return Error::badInput(sp + ".attrs." + k + ": must be an integer");
          step.intAttrs[k] = v.get<int64_t>();
        }
      }
      for (const auto& [k, v] : s.items())
        if (k != "op" && k != "attrs") return Error::badInput(sp + "." + k + ": unknown key");
    } else {
      return Error::badInput(sp + ": must be an op type or {\"op\": ..., \"attrs\": {...}}");
    }
    r.steps.push_back(std::move(step));
  }
  return r;
}

}  // namespace

Status applyFusionConfig(FusionOptions& o, const std::string& text, const std::string& source) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    return Error::badInput(source + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) return Error::badInput(source + ": $: must be an object");
  for (const auto& [key, v] : j.items()) {
    const std::string path = source + ": $." + key;
    if (key == "opt_level" || key == "level") {
      if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() > 3) return Error::badInput(path + ": must be 0..3");
      o.optLevel = v.get<int>();
    } else if (key == "rules") {
      if (!v.is_object()) return Error::badInput(path + ": must be an object {rule: true|false}");
      for (const auto& [id, on] : v.items()) {
        if (!findRule(id)) return Error::badInput(path + "." + id + ": unknown rule (see `fwb rules`)");
        if (!on.is_boolean()) return Error::badInput(path + "." + id + ": must be true or false");
        (on.get<bool>() ? o.enabled : o.disabled).insert(id);
      }
    } else if (key == "enable" || key == "disable") {
      FW_ASSIGN_OR_RETURN(auto ids, stringList(v, path));
      FW_TRY_STATUS(checkRuleIds(ids, path));
      (key == "enable" ? o.enabled : o.disabled).insert(ids.begin(), ids.end());
    } else if (key == "exclude_nodes") {
      FW_ASSIGN_OR_RETURN(auto names, stringList(v, path));
      o.excludedNodes.insert(names.begin(), names.end());
    } else if (key == "enable_cluster_ops" || key == "disable_cluster_ops") {
      FW_ASSIGN_OR_RETURN(auto ops, stringList(v, path));
      (key == "enable_cluster_ops" ? o.clusterOpsEnabled : o.clusterOpsDisabled).insert(ops.begin(), ops.end());
    } else if (key == "min_traffic_saving") {
      if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1) return Error::badInput(path + ": must be a number in [0, 1]");
      o.hw.minTrafficSaving = v.get<double>();
    } else if (key == "ub_fraction") {
      if (!v.is_number() || v.get<double>() <= 0 || v.get<double>() > 1) return Error::badInput(path + ": must be a number in (0, 1]");
      o.hw.ubFraction = v.get<double>();
    } else if (key == "tuned") {
      // written by `fwb tune`: what the config was tuned for (informational, not an option)
      if (!v.is_object()) return Error::badInput(path + ": must be an object");
    } else if (key == "user_rules") {
      if (!v.is_array()) return Error::badInput(path + ": must be an array");
      for (size_t i = 0; i < v.size(); ++i) {
        FW_ASSIGN_OR_RETURN(auto r, parseUserRule(v[i], path + "[" + std::to_string(i) + "]"));
        o.userRules.push_back(std::move(r));
      }
    } else {
      return Error::badInput(path + ": unknown key");
    }
  }
  return {};
}

}  // namespace fw::fusion
