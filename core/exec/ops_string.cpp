// String ops.
#include "core/exec/Kernel.h"

namespace fw::exec {

std::vector<OpEntry> stringOps() { return {}; }

}  // namespace fw::exec
