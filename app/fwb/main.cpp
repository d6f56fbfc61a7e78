// fwb: the Fusion Workbench command line. Every verb is one file; this list is the whole CLI.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>

#include "core/exec/Executor.h"
#include "app/fwb/CliCommon.h"

int main(int argc, char** argv) {
  fw::setProcessEnvironment(argv);
  fw::tuneAllocatorForTensors();
  CLI::App app{"fwb — Fusion Workbench: inspect, fuse, verify and simulate ONNX models for NPUs"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every verb");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "debug logging on stderr");
  app.parse_complete_callback([&]() { spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn); });
  spdlog::set_level(spdlog::level::warn);

  fwcli::addInfoCommand(app);
  fwcli::addZooCommand(app);
  fwcli::addDemoCommand(app);
  fwcli::addSimulateCommand(app);
  fwcli::addRulesCommand(app);
  fwcli::addFuseCommand(app);
  fwcli::addRenderCommand(app);
  fwcli::addRunCommand(app);
  fwcli::addVerifyCommand(app);
  fwcli::addTuneCommand(app);
  fwcli::addCompareCommand(app);
  fwcli::addProfileCommand(app);
  fwcli::addCalibrateCommand(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return fwcli::kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fwb: internal error: %s\n", e.what());
    return fwcli::kInternal;
  }
  return fwcli::exitCodeSlot();
}
