// fwb rules [--json]: the fusion rules and passes of the registry (id, level, phase, description).
#include <nlohmann/json.hpp>

#include "app/fwb/CliCommon.h"
#include "fusion/Registry.h"

namespace fwcli {

void addRulesCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("rules", "List the fusion rules: id, level (1-3), phase, description");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "print JSON: [{id, level, phase, description}]");
  setRunner(cmd, [=]() {
    std::string text;
    const auto infos = fw::fusion::ruleInfos();
    if (*json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& r : infos) j.push_back({{"id", r.id}, {"level", r.level}, {"phase", r.phase}, {"description", r.description}});
      text = j.dump(2) + "\n";
    } else {
      for (const auto& r : infos) {
        std::string id = r.id;
        id.resize(std::max<size_t>(id.size() + 1, 20), ' ');
        text += id + "O" + std::to_string(r.level) + "  " + (r.phase == "rewrite" ? "rewrite " : "group   ") + r.description + "\n";
      }
    }
    auto st = writeOutput("", text);
    if (!st.ok()) return fail(st.error());
    return kOk;
  });
}

}  // namespace fwcli
