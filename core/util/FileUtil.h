#pragma once
#include <string>

#include "core/util/Result.h"

namespace fw {

Result<std::string> readFileBytes(const std::string& path);
// Writes to PATH.tmp.XXXX in the same folder, then renames over PATH: readers never see half a file.
Status writeFileAtomic(const std::string& path, const std::string& bytes);

}  // namespace fw
