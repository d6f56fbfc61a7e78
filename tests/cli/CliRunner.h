#pragma once
// Runs the real `fwb` binary for end-to-end CLI tests.
#include <sys/wait.h>

#include <array>
#include <cstdio>
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
