// Signal processing: DFT, STFT, windows, mel weights.
#include "core/exec/Kernel.h"

namespace fw::exec {

std::vector<OpEntry> signalOps() { return {}; }

}  // namespace fw::exec
