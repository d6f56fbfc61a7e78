// Losses, dropout, normalisations and integer convolutions.
#include "core/exec/Kernel.h"

namespace fw::exec {

std::vector<OpEntry> lossOps() { return {}; }

}  // namespace fw::exec
