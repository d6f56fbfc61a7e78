// Math and bitwise ops beyond the basic elementwise set.
#include "core/exec/Kernel.h"

namespace fw::exec {

std::vector<OpEntry> mathOps() { return {}; }

}  // namespace fw::exec
