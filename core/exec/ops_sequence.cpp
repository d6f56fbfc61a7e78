// Sequences and optionals as values.
#include "core/exec/Kernel.h"

namespace fw::exec {

std::vector<OpEntry> sequenceOps() { return {}; }

}  // namespace fw::exec
