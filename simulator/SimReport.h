#pragma once
// Outputs of a simulation: JSON (the schema the CLI documents), CSV (one row per kernel), Chrome trace
// event JSON (Perfetto / chrome://tracing), and the human table that sets a run beside the unfused one.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/HwProfile.h"
#include "simulator/Measured.h"
#include "simulator/Simulator.h"

namespace fw::sim {

// {hw {name, peak_flops, hbm_bandwidth}, mode, batch, latency_us, throughput, hbm_bytes,
//  peak_memory_bytes, launch_share, kernels [{name, ops, unit, start_us, dur_us, flops, hbm_bytes, bound, ...}]}
nlohmann::json toJson(const SimResult& r);
// With `measured` (accuracy(r, run)), measured_us and measured_on ("board" or "host") columns (empty where no
// measurement) follow dur_us.
std::string toCsv(const SimResult& r, const Accuracy* measured = nullptr);
// One "X" event per kernel (µs), one lane (tid) per unit; eager runs add a host-dispatch lane.
nlohmann::json toChromeTrace(const SimResult& r);

// Per kernel of `after`: its original ops, the time the same ops took in `before` (normally the
// unfused graph-mode run of the same graph), the time now, and the bound; then the totals. With
// `measured` (accuracy(after, run)), each kernel also shows its measured time and the error, and the
// accuracy figures close the table.
std::string formatComparisonTable(const SimResult& before, const SimResult& after, const HwProfile& hw,
                                  size_t maxRows = 0 /* 0 = all */, const Accuracy* measured = nullptr,
                                  const MeasuredRun* run = nullptr);

Status writeJson(const std::string& path, const SimResult& r);
Status writeCsv(const std::string& path, const SimResult& r, const Accuracy* measured = nullptr);
Status writeChromeTrace(const std::string& path, const SimResult& r);

}  // namespace fw::sim
