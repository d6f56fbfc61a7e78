// fwb demo: the headless tour of the built-in ResNet-50. It grows as fusion, simulation and rendering land.
#include <cstdio>

#include "app/fwb/CliCommon.h"
#include "core/io/ModelInfo.h"

namespace fwcli {

void addDemoCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("demo", "Headless tour of the built-in ResNet-50");
  auto outDir = std::make_shared<std::string>("fwb-demo");
  cmd->add_option("--out-dir", *outDir, "folder for the demo's files (diagrams, trace)");
  setRunner(cmd, [=]() {
    ModelArgs a;
    a.model = "zoo:resnet50";
    auto m = loadModelFromArgs(a);
    if (!m.ok()) return fail(m.error());
    std::printf("== Fusion Workbench demo: ResNet-50 (built-in zoo, batch 1) ==\n\n");
    std::printf("%s", fw::toText(fw::summarizeModel(*m), false).c_str());
    return kOk;
  });
}

}  // namespace fwcli
