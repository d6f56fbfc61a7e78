// Seeded random generators.
#include "core/exec/Kernel.h"

namespace fw::exec {

std::vector<OpEntry> randomOps() { return {}; }

}  // namespace fw::exec
