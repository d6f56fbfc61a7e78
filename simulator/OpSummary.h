#pragma once
// A board's numbers (issue 22, item 4): the per-operator summary that Ascend's profiler writes
// (msprof / MindSpore / torch_npu: op_summary_*.csv), read as a MeasuredRun whose rows name the model's
// original operators (byNode = true), and matched against a model's nodes and kernels.
//
// Column names follow the CANN documentation of the op_summary file (see OpSummary.cpp for the version
// followed). Only "Op Name" and "Task Duration(us)" are required; the other documented columns are read
// when present ("OP Type", "Task Type", "Task Start Time(us)", "Task Wait Time(us)", "Block Dim",
// "Input Shapes", ...). An op launched several times (one row per launch) is one row whose time is the
// sum of its launches.
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/util/Result.h"
#include "simulator/Measured.h"
#include "simulator/Simulator.h"

namespace fw::sim {

// Reads an op_summary CSV. A malformed file (no header, a missing required column, a row with the
// wrong number of fields, a duration that is not a non-negative number) is refused with BadInput naming
// the file, the line and the column.
Result<MeasuredRun> loadOpSummaryCsv(const std::string& path);
// The same from text; `sourceName` stands for the file in messages.
Result<MeasuredRun> parseOpSummaryCsv(const std::string& text, const std::string& sourceName);

// How the rows of a board's op summary line up with a model.
struct OpSummaryMatch {
  // Per kernel (in `kernels` order): the summed measured time of the rows that name one of its
  // members/origins, and how many rows matched it (0: no measurement for that kernel).
  std::vector<double> kernelUs;
  std::vector<int> kernelRows;
  std::vector<std::string> unmatchedRows;     // op-summary rows that name no node of the model
  std::vector<std::string> unmatchedKernels;  // kernels (with a device unit) no row names
  size_t matchedRows = 0;
};

// Matches rows by name against the graph's node names and the kernels' origins. A row name may be the
// node name itself or carry a framework scope prefix ("Default/network/Conv_0" or "model/Conv_0-op12"):
// the longest node name that is the row's name or a '/'-separated suffix of it, ignoring a trailing
// "-opN" / "_N" launch suffix only when the exact name is not a node, is taken.
OpSummaryMatch matchOpSummary(const MeasuredRun& run, const Graph& g, const std::vector<KernelTiming>& kernels);

}  // namespace fw::sim
