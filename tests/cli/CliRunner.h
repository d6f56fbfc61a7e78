#pragma once
// Runs the real `fwb` binary for end-to-end CLI tests.
#include <sys/wait.h>

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

struct CliRun {
  int exitCode = -1;
  std::string out;  // stdout and stderr, interleaved
};

inline CliRun runFwb(const std::string& args) {
  CliRun r;
  std::string cmd = std::string(FW_BIN_DIR) + "/fwb " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A fresh scratch folder for one test: <tmp>/fw_cli_<suite>[_<tag>]_<pid>.
inline std::filesystem::path cliScratchDir(const std::string& suite, const std::string& tag = "") {
  std::filesystem::path p = std::filesystem::temp_directory_path() /
                            ("fw_cli_" + suite + (tag.empty() ? "" : "_" + tag) + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(p);
  return p;
}

// A whole file as bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
