// Indexing, scattering, sorting and region ops.
#include "core/exec/Kernel.h"

namespace fw::exec {

std::vector<OpEntry> indexOps() { return {}; }

}  // namespace fw::exec
