#include "core/util/FileUtil.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace fw {

Result<std::string> readFileBytes(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Error::badInput(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) return Error::badInput(path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::badInput(path + ": cannot open: " + std::strerror(errno));
  // One buffer of the file's size, read into once (a 255 MB model: no growing stream buffer and no
  // second copy); a file that grows meanwhile is read to its end.
  const auto size = std::filesystem::file_size(path, ec);
  std::string bytes;
  if (!ec) {
    bytes.resize(static_cast<size_t>(size));
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<size_t>(in.gcount()));
    if (in.bad()) return Error::badInput(path + ": read error");
    if (!in.eof()) {
      char buf[65536];
      while (in.read(buf, sizeof buf) || in.gcount() > 0) bytes.append(buf, static_cast<size_t>(in.gcount()));
      if (in.bad()) return Error::badInput(path + ": read error");
    }
    return bytes;
  }
  std::ostringstream ss;  // no size (a pipe, a special file): stream it
  ss << in.rdbuf();
  if (in.bad()) return Error::badInput(path + ": read error");
  return ss.str();
}

Status writeFileAtomic(const std::string& path, const std::string& bytes) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Error::badInput(path + ": folder " + dir.string() + " does not exist");
  std::random_device rd;
  fs::path tmp = dir / (target.filename().string() + ".tmp." + std::to_string(rd() % 1000000));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error::badInput(path + ": cannot write: " + std::strerror(errno));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      return Error::badInput(path + ": write failed (disk full?)");
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error::badInput(path + ": cannot replace: " + ec.message());
  }
  return {};
}

}  // namespace fw
