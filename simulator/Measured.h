#pragma once
// Measured times beside simulated ones (issue 22): a run measured per kernel (`fwb profile` on the
// reference executor) or per operator (a board's profiler op summary), and how far the simulation is
// from it, reported the way simulator papers do (per-kernel error, whole-model error, rank correlation).
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/util/Result.h"
#include "simulator/Simulator.h"
#include "simulator/SpeedProbe.h"

namespace fw::sim {

struct MeasuredKernel {
  std::string name;               // kernel name (fwb profile) or the op's name (a board's op summary)
  std::vector<std::string> ops;   // op types, when the source says
  double us = 0;                  // measured time, microseconds (median of the repeats where there are several)
  double minUs = -1;              // fastest repeat (-1: not known)
  double startUs = -1;            // start within the run the trace shows (-1: not known)
  // The nodes it ran, in member order (fwb profile: node names of the fused graph, as fwb simulate's
  // kernels list them); empty when the source does not say. A simulated kernel of the same name that ran
  // other nodes belongs to another fusion plan and is not matched with it.
  std::vector<std::string> nodes;
};

struct MeasuredRun {
  std::string source;   // what measured it, e.g. "fwb profile, 1 thread, AMD EPYC (AVX-512)" or "msprof op_summary: x.csv"
  std::string model;
  int optLevel = -1;    // -1: not known (a board's op summary)
  int threads = 0;
  double totalUs = 0;   // whole run as measured (sum of the rows when the source gives no total)
  bool byNode = false;  // rows name the model's original nodes (a board), not fwb's kernels
  std::vector<MeasuredKernel> kernels;
  int repeats = 0;      // timed runs the medians are over (0: not known)
  int warmup = 0;       // untimed runs before them
  // One-thread runs checked for time other tenants took (simulator/StolenTime.h): every run timed, the
  // runs left out, and the median share of a run's wall time its thread did not run. runsStolen -1: not
  // checked (several threads, or a board's summary). leastStolen: too few runs were whole, the medians
  // are over the least-stolen ones.
  int runsTimed = 0;
  int runsStolen = -1;
  double stealShare = 0;
  bool leastStolen = false;
  // The machine's speed while it was measured (simulator/SpeedProbe.h; fwb profile): the midpoint of the
  // probes before and after the runs, and the time ratio after / before (0: not probed). Of several
  // profiles set as one, per figure the median of their probes, and the drift farthest from 1.
  SpeedProbe probe;
  double probeDrift = 0;
  // Several profiles of the same model and level set as one (medianOfRuns): their files, and how many.
  std::vector<std::string> mergedFrom;
  // Of those, how alike they rank their kernels: the median over pairs of runs of the Spearman correlation of
  // the kernels' times (those above 0 us in both); NaN for one run or fewer than two such kernels. A
  // simulation's ranking cannot be judged finer than the measurement repeats its own (session 72: a DS-CNN's
  // eight separable Convs within 4 % of each other, two rounds at 0.806, the simulation at 0.602).
  double runsSpearman = std::numeric_limits<double>::quiet_NaN();
};

// Several measurements of one model at one level (fwb profile run at different times: on a shared machine
// the speed moves for minutes, past what one profile's runs span) as one: each kernel's time is the median
// of its times in the runs, the whole run's too. The runs must have the same model, level, threads and
// kernels in the same order; an error names the file (files[i]) and the field that differs.
Result<MeasuredRun> medianOfRuns(const std::vector<MeasuredRun>& runs, const std::vector<std::string>& files);

// Measured vs simulated over the rows both have. Errors are relative to the measurement:
// |sim - measured| / measured. `spearman` is the rank correlation of the matched kernel times.
struct Accuracy {
  // Where the measurement comes from: "board" (a board profiler's op summary, rows by the model's nodes)
  // or "host" (fwb profile on the CPU the executor runs on). Tables, CSV, JSON and the GUI say
  // "measured (board)" or "measured (host)".
  std::string on = "host";
  size_t matched = 0;
  std::vector<std::string> unmatchedMeasured;   // measured rows no simulated kernel matches
  std::vector<std::string> unmatchedSimulated;  // simulated kernels with no measured row
  // Measured kernels whose name a simulated kernel has, but which ran other nodes (another fusion plan:
  // fwb profile run with another --hw, level or rule switches than fwb simulate). Not matched; each
  // "name: measured OPS, simulated OPS".
  std::vector<std::string> otherPlan;
  double medianAbsErr = 0, meanAbsErr = 0;      // per kernel
  double totalErr = 0;                           // whole model: (sim total - measured total) / measured total
  double spearman = 0;
  // Whether there is a ranking to correlate: at least two scored kernels, and neither side's times all
  // equal. Without one (a run fused into one kernel) `spearman` is 0 and means nothing: the tables say
  // "n/a" and the JSON null, and `unranked` says why.
  bool ranked = false;
  std::string unranked;
  // Added for the tables, the CSV and the GUI:
  size_t scored = 0;      // matched rows the errors and the rank correlation are over
  size_t excluded = 0;    // matched rows left out of them: views the simulator runs as no kernel, or 0 us measured
  double simulatedTotalUs = 0, measuredTotalUs = 0;  // what totalErr compares
  // Per kernel of the SimResult (same index): the measured time set beside it, -1 when none. Rows of a
  // control-flow body measured as one node show -1 here; their sum is matched in `rows`.
  std::vector<double> measuredUs;
  struct Row {
    std::string name;       // the measured row's name (a kernel, a control-flow node, or a board's node)
    double simulatedUs = 0, measuredUs = 0;
    double relErr = 0;      // (simulated - measured) / measured; 0 when not scored
    bool scored = false;
  };
  std::vector<Row> rows;   // every matched pair, in simulated schedule order
  // Where the whole-model error comes from: the scored rows by what their kernel runs (its ops joined by
  // '+', "Conv+Relu"; a control-flow node measured as one: "control flow"), largest |simulated - measured|
  // first. shareOfTotal: (simulated - measured) / the measured total, so the groups' shares add up to the
  // scored rows' part of totalErr; medianRatio: the median of the rows' simulated / measured.
  struct OpsGroup {
    std::string ops;
    size_t kernels = 0;
    double simulatedUs = 0, measuredUs = 0;
    double shareOfTotal = 0, medianRatio = 0;
  };
  std::vector<OpsGroup> byOps;
  // The machine at the measured run against the machine at calibration (simulator/SpeedProbe.h): the
  // measured run's speed probe over the profile's (probeTimeRatio; >1: the measured machine was slower).
  // 0 when either has none (a board's op summary, a built-in profile, files written before session 64).
  // Off by more than kProbeTolerance, the errors above mix two machine states.
  double machineTimeRatio = 0;
  // The measured runs' own agreement on the kernels' ranking (MeasuredRun::runsSpearman; NaN: one run).
  double runsSpearman = std::numeric_limits<double>::quiet_NaN();
};

// fwb profile's JSON: {"model", "opt_level", "threads", "total_us", "kernels": [{"name", "ops", "nodes",
// "measured_us", "min_us", "start_us"}], "source", "repeats", "warmup", "by_node", "measured": true}; at
// one thread also "runs_timed", "runs_stolen", "steal_share", "least_stolen"; probed, "speed_probe_us"
// ({"call", "stream", "product"}) and "speed_probe_drift"; "merged_from" (the files)
// for the median of several profiles.
nlohmann::json toJson(const MeasuredRun& r);
Status writeMeasuredJson(const std::string& path, const MeasuredRun& r);
// Reads that JSON back; errors (BadInput) name `sourceName` and the field ("kernels[3].measured_us").
Result<MeasuredRun> measuredRunFromJson(const std::string& text, const std::string& sourceName);
Result<MeasuredRun> loadMeasuredJson(const std::string& path);
// A measured run by file type: .json (fwb profile) or .csv (a board's op summary, simulator/OpSummary.h).
Result<MeasuredRun> loadMeasuredRun(const std::string& path);

// Chrome trace event JSON of the measured kernels (one "X" event each at its start, else back to back).
nlohmann::json toChromeTrace(const MeasuredRun& r);
Status writeChromeTrace(const std::string& path, const MeasuredRun& r);
// The table `fwb profile` prints: kernel, ops, measured us (median, min), then the totals.
std::string formatMeasuredTable(const MeasuredRun& r, size_t maxRows = 0 /* 0 = all */);

// Measured vs simulated. A measured kernel matches the simulated kernel of the same name (when both list
// their nodes, the same nodes too; else it goes to `otherPlan`); a name that
// no simulated kernel has but that prefixes simulated kernels ("If_3" for "If_3/then_branch/k0_...")
// matches their sum (a control-flow node, measured as one). A byNode run (a board's ops named by the
// model's original nodes) is summed per simulated kernel whose origins contain the node (the name, else
// its last '/'-separated part). Rows the simulator runs as no kernel (views) or measured at 0 us are
// matched but not scored. totalErr compares the simulated latency with the measured total.
Accuracy accuracy(const SimResult& sim, const MeasuredRun& measured);
// The same, with machineTimeRatio from the profile the simulation ran on (its cpu.speed_probe_us).
Accuracy accuracy(const SimResult& sim, const MeasuredRun& measured, const HwProfile& hw);
// {"matched", "scored", "excluded", "median_abs_err", "mean_abs_err", "total_err", "spearman" (null when
//  not ranked, with "spearman_na" saying why), "spearman_between_runs" (null for one measured run),
//  "simulated_total_us", "measured_total_us", "unmatched_measured", "unmatched_simulated", "other_plan",
//  "kernels": [{"name", "simulated_us", "measured_us", "rel_err", "scored"}]}
nlohmann::json toJson(const Accuracy& a);
// A group's ops as the tables print them: a fused body of more than six ops by its first five and its count
// ("MatMul+Add+Add+Split+Sigmoid+... (7 ops)"); shorter ones as they are.
std::string shortOps(const std::string& ops);
// Lines for the end of a table: the errors, the rank correlation, what did not match.
std::string formatAccuracy(const Accuracy& a, const MeasuredRun& measured);
// "board" for a board's op summary (rows by node), else "host"; and the label "measured (board)".
const char* measuredOn(const MeasuredRun& r);
std::string measuredLabel(const std::string& on);
// Spearman rank correlation (ties get their average rank); 0 when fewer than two values or no spread.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace fw::sim
