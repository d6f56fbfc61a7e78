// fwb demo: the headless tour of the built-in ResNet-50 — model summary, fusion at -O2 against -O0,
// the simulated side-by-side timing, and the diagrams and trace written to --out-dir.
#include <cstdio>
#include <filesystem>

#include "app/fwb/CliCommon.h"
#include "core/io/ModelInfo.h"
#include "fusion/Report.h"
#include "simulator/SimReport.h"
#include "ui/analysis/Analysis.h"
#include "ui/analysis/Diagrams.h"
#include "ui/diagram/Graphviz.h"

namespace fwcli {

void addDemoCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("demo", "Headless tour: ResNet-50 summary, -O0 vs -O2 fusion, simulated timing, diagrams");
  auto outDir = std::make_shared<std::string>("fwb-demo");
  auto level = std::make_shared<int>(2);
  auto hw = std::make_shared<std::string>();
  auto rows = std::make_shared<size_t>(25);
  cmd->add_option("--out-dir", *outDir, "folder for the diagrams and the trace (created)");
  cmd->add_option("-O,--opt-level", *level, "fusion level to compare with -O0")->check(CLI::Range(0, 3));
  cmd->add_option("--hw", *hw, "hardware profile (default ascend910b2)");
  cmd->add_option("--rows", *rows, "kernels shown in the table (0 = all)");
  setRunner(cmd, [=]() {
    ModelArgs a;
    a.model = "zoo:resnet50";
    auto m = loadModelFromArgs(a);
    if (!m.ok()) return fail(m.error());
    std::printf("== Fusion Workbench demo: ResNet-50 (built-in zoo, batch 1) ==\n\n");
    std::printf("%s\n", fw::toText(fw::summarizeModel(*m), false).c_str());

    fw::AnalysisOptions opts;
    opts.fusion.optLevel = *level;
    opts.hw = *hw;
    auto an = fw::analyze(*m, opts);
    if (!an.ok()) return fail(an.error());
    std::printf("== Fusion at -O%d ==\n%s\n", *level, fw::fusion::summaryText(an->fused).c_str());
    if (an->simulated) {
      std::printf("== Simulated timing: -O0 (one kernel per operator) vs -O%d ==\n%s\n", *level,
                  fw::sim::formatComparisonTable(an->before, an->after, an->hw, *rows).c_str());
    }
    for (const auto& w : an->warnings) std::printf("warning: %s\n", w.c_str());

    std::error_code ec;
    std::filesystem::create_directories(*outDir, ec);
    if (ec) return fail(fw::Error::badInput("cannot create " + *outDir + ": " + ec.message()));
    const std::filesystem::path dir(*outDir);
    struct Out {
      fw::DiagramSide side;
      const char* file;
    };
    for (const Out& o : {Out{fw::DiagramSide::Before, "before.svg"}, Out{fw::DiagramSide::After, "after.svg"},
                         Out{fw::DiagramSide::SideBySide, "side_by_side.svg"}}) {
      auto dot = fw::analysisDot(*an, o.side);
      if (!dot.ok()) return fail(dot.error());
      auto st = fw::diagram::renderDotToFile(*dot, (dir / o.file).string());
      if (!st.ok()) return fail(st.error());
    }
    if (an->simulated) {
      auto st = fw::sim::writeChromeTrace((dir / "trace.json").string(), an->after);
      if (!st.ok()) return fail(st.error());
    }
    std::printf("wrote %s/{before,after,side_by_side}.svg%s\n", outDir->c_str(),
                an->simulated ? " and trace.json (open in https://ui.perfetto.dev)" : "");
    return kOk;
  });
}

}  // namespace fwcli
