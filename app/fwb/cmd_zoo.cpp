// fwb zoo list [--json] | fwb zoo export NAME [--batch --layers --hidden --heads --seq --image] -o FILE.onnx
#include <nlohmann/json.hpp>

#include <cstdio>

#include "app/fwb/CliCommon.h"
#include "core/onnx/OnnxIO.h"

namespace fwcli {

void addZooCommand(CLI::App& app) {
  auto* zoo = app.add_subcommand("zoo", "The built-in model zoo");
  zoo->require_subcommand(1);

  auto* list = zoo->add_subcommand("list", "List the built-in models and their parameters");
  auto json = std::make_shared<bool>(false);
  list->add_flag("--json", *json, "print JSON");
  setRunner(list, [=]() {
    if (*json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& e : fw::zooEntries()) {
        nlohmann::json ranges = nlohmann::json::object();
        for (const auto& s : e.specs) {
          ranges[s.name] = {{"default", s.def}, {"min", s.lo}, {"max", s.hi}};
          if (!s.note.empty()) ranges[s.name]["note"] = s.note;
        }
        j.push_back({{"name", e.name}, {"description", e.description}, {"params", e.params}, {"ranges", ranges}});
        if (!e.limits.empty()) j.back()["limits"] = e.limits;
      }
      std::printf("%s\n", j.dump(2).c_str());
      return kOk;
    }
    for (const auto& e : fw::zooEntries()) {
      std::string params;
      for (const auto& s : e.specs) {
        params += (params.empty() ? "" : "  ") + ("--" + s.name) + " " + std::to_string(s.def) + " (" +
                  std::to_string(s.lo) + ".." + std::to_string(s.hi) + (s.note.empty() ? "" : ", " + s.note) + ")";
      }
      std::printf("%-14s %s\n%-14s params: %s\n", e.name.c_str(), e.description.c_str(), "", params.c_str());
      if (!e.limits.empty()) std::printf("%-14s limits: %s\n", "", e.limits.c_str());
    }
    std::printf("\nparams: --NAME default (min..max). Use anywhere a model is taken as zoo:NAME, with the params\n"
                "as options or in the spec, e.g. `fwb info zoo:resnet50 --batch 4` or\n"
                "`fwb info 'zoo:bert?layers=1500&hidden=64&heads=2&seq=32'`.\n");
    return kOk;
  });

  auto* exp = zoo->add_subcommand("export", "Write a zoo model as an ONNX file");
  auto args = std::make_shared<ModelArgs>();
  auto out = std::make_shared<std::string>();
  addModelArgs(exp, *args);
  exp->add_option("-o,--output", *out, "output .onnx file")->required();
  setRunner(exp, [=]() {
    ModelArgs a = *args;
    if (!fw::isZooSpec(a.model)) a.model = "zoo:" + a.model;
    auto m = loadModelFromArgs(a);
    if (!m.ok()) return fail(m.error());
    auto st = fw::saveOnnxFile(*m, *out);
    if (!st.ok()) return fail(st.error());
    std::fprintf(stderr, "wrote %s (%zu nodes)\n", out->c_str(), m->graph->liveNodeCount());
    return kOk;
  });
}

}  // namespace fwcli
