// Reader of Ascend's per-operator profiler summary (op_summary_*.csv).
//
// Columns as documented by Huawei for CANN: "op_summary (Operator Details)", CANN Commercial Edition
// 8.5.0 (hiascend.com/document/detail/en/canncommercial/850/devaids/profiling/atlasprofiling_16_0067.html)
// and the CANN Community Edition 8.0.RC3.alpha003 page of the same name (…/zh/CANNCommunityEdition/
// 80RC3alpha003/devaids/auxiliarydevtool/atlasprofiling_16_0067.html): Device_id, Model Name, Model ID,
// Task ID, Stream ID, Infer ID, Op Name, OP Type, OP State, Task Type, Task Start Time(us),
// Task Duration(us) ("the operator time consumption": dispatch to the accelerator, execution and end of
// response), Task Wait Time(us), Block Dim, Mix Block Dim, Input Shapes, Input Data Types, Input Formats,
// Output Shapes, Output Data Types, Output Formats, then PMU metrics (aicore_time(us), total_cycles, ...)
// that depend on --aic-metrics. Older releases (CANN 5.0.4, 6.0.1) write "Task Start Time" and
// "Task Duration" without the unit; both spellings are accepted. msprof pads some values with a tab
// (so spreadsheets keep them as text) and writes N/A where a field was not collected (task-time l0).
#include "simulator/OpSummary.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "core/util/FileUtil.h"

namespace fw::sim {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return s.substr(b, e - b);
}

struct Record {
  size_t line = 0;  // 1-based line where the record starts
  std::vector<std::string> fields;
};

// RFC 4180 records: fields separated by commas, quoted fields may hold commas, quotes ("") and newlines.
Result<std::vector<Record>> splitCsv(const std::string& text, const std::string& src) {
  std::vector<Record> out;
  size_t i = 0, line = 1;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) i = 3;  // UTF-8 byte-order mark
  while (i < text.size()) {
    Record rec;
    rec.line = line;
    std::string field;
    bool done = false;
    while (!done) {
      if (i < text.size() && text[i] == '"') {
        const size_t openLine = line;
        ++i;
        bool closed = false;
        while (i < text.size()) {
          const char c = text[i];
          if (c == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            closed = true;
            break;
          }
          if (c == '\n') ++line;
          field += c;
          ++i;
        }
        if (!closed)
          return Error::badInput(src + ":" + std::to_string(openLine) + ": column " +
                                 std::to_string(rec.fields.size() + 1) + ": a quoted field is never closed");
        // Text after the closing quote up to the separator (e.g. a padding tab) is kept.
        while (i < text.size() && text[i] != ',' && text[i] != '\n') field += text[i++];
      } else {
        while (i < text.size() && text[i] != ',' && text[i] != '\n') field += text[i++];
      }
      rec.fields.push_back(trim(field));
      field.clear();
      if (i >= text.size()) {
        done = true;
      } else if (text[i] == ',') {
        ++i;
      } else {  // '\n'
        ++i;
        ++line;
        done = true;
      }
    }
    const bool blank = rec.fields.size() == 1 && rec.fields[0].empty();
    if (!blank) out.push_back(std::move(rec));
  }
  return out;
}

bool parseNumber(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(v);
}

int findColumn(const std::vector<std::string>& header, std::initializer_list<const char*> names) {
  for (const char* n : names)
    for (size_t c = 0; c < header.size(); ++c)
      if (header[c] == n) return static_cast<int>(c);
  return -1;
}

}  // namespace

Result<MeasuredRun> parseOpSummaryCsv(const std::string& text, const std::string& src) {
  FW_ASSIGN_OR_RETURN(auto recs, splitCsv(text, src));
  if (recs.empty()) return Error::badInput(src + ": empty file: expected an op_summary CSV with a header line");
  const std::vector<std::string>& header = recs[0].fields;
  const size_t hl = recs[0].line;
  for (size_t c = 0; c < header.size(); ++c)
    for (size_t d = 0; d < c; ++d)
      if (!header[c].empty() && header[c] == header[d])
        return Error::badInput(src + ":" + std::to_string(hl) + ": column " + std::to_string(c + 1) + " ('" +
                               header[c] + "'): the header names this column twice");
  const int cName = findColumn(header, {"Op Name"});
  const int cDur = findColumn(header, {"Task Duration(us)", "Task Duration"});
  const int cType = findColumn(header, {"OP Type", "Op Type"});
  const int cTask = findColumn(header, {"Task Type"});
  const int cWait = findColumn(header, {"Task Wait Time(us)", "Task Wait Time"});
  const int cBlock = findColumn(header, {"Block Dim"});
  if (cName < 0 || cDur < 0) {
    std::string first = header.empty() ? "" : header[0];
    if (first.size() > 40) first = first.substr(0, 40) + "...";
    return Error::badInput(src + ":" + std::to_string(hl) + ": header has no '" +
                           std::string(cName < 0 ? "Op Name" : "Task Duration(us)") +
                           "' column (first column: '" + first +
                           "'); expected the op_summary_*.csv that msprof export writes");
  }
  MeasuredRun run;
  run.source = "msprof op_summary: " + src;
  run.byNode = true;
  run.optLevel = -1;
  std::unordered_map<std::string, size_t> index;
  size_t rows = 0;
  for (size_t r = 1; r < recs.size(); ++r) {
    const Record& rec = recs[r];
    const std::string at = src + ":" + std::to_string(rec.line) + ": ";
    if (rec.fields.size() != header.size())
      return Error::badInput(at + "row has " + std::to_string(rec.fields.size()) + " fields, the header " +
                             std::to_string(header.size()));
    auto col = [&](int c) { return "column " + std::to_string(c + 1) + " ('" + header[static_cast<size_t>(c)] + "')"; };
    const std::string& name = rec.fields[static_cast<size_t>(cName)];
    if (name.empty() || name == "N/A") return Error::badInput(at + col(cName) + ": empty operator name");
    double us = 0;
    const std::string& ds = rec.fields[static_cast<size_t>(cDur)];
    if (!parseNumber(ds, us) || us < 0)
      return Error::badInput(at + col(cDur) + ": not a non-negative number of microseconds ('" + ds + "')");
    for (int c : {cWait, cBlock}) {
      if (c < 0) continue;
      const std::string& s = rec.fields[static_cast<size_t>(c)];
      double v = 0;
      if (!s.empty() && s != "N/A" && (!parseNumber(s, v) || v < 0))
        return Error::badInput(at + col(c) + ": not a non-negative number ('" + s + "')");
    }
    // HCCL (communication) and similar tasks are not operators of the model: they stay as rows (the
    // match reports them) but keep their task type as op type when OP Type is N/A.
    std::string type = cType >= 0 ? rec.fields[static_cast<size_t>(cType)] : "";
    if ((type.empty() || type == "N/A") && cTask >= 0) type = rec.fields[static_cast<size_t>(cTask)];
    ++rows;
    auto [it, fresh] = index.emplace(name, run.kernels.size());
    if (fresh) {
      MeasuredKernel k;
      k.name = name;
      if (!type.empty() && type != "N/A") k.ops.push_back(type);
      run.kernels.push_back(std::move(k));
    }
    run.kernels[it->second].us += us;  // one row per launch: an op launched N times is their sum
    run.totalUs += us;
  }
  if (rows == 0) return Error::badInput(src + ": no operator rows after the header");
  run.source += " (" + std::to_string(rows) + " rows, " + std::to_string(run.kernels.size()) + " operators)";
  return run;
}

Result<MeasuredRun> loadOpSummaryCsv(const std::string& path) {
  auto bytes = readFileBytes(path);
  if (!bytes.ok()) return bytes.error().context("op summary");
  return parseOpSummaryCsv(*bytes, std::filesystem::path(path).filename().string());
}

OpSummaryMatch matchOpSummary(const MeasuredRun& run, const Graph& g, const std::vector<KernelTiming>& kernels) {
  OpSummaryMatch m;
  m.kernelUs.assign(kernels.size(), 0.0);
  m.kernelRows.assign(kernels.size(), 0);
  std::unordered_map<std::string, size_t> kernelOf;  // node / origin name -> kernel index
  for (size_t k = 0; k < kernels.size(); ++k) {
    for (const auto& n : kernels[k].origins) kernelOf.emplace(n, k);
    for (const auto& n : kernels[k].nodes) kernelOf.emplace(n, k);
  }
  std::unordered_map<std::string, char> isNode;
  for (NodeId n : g.liveNodes()) isNode.emplace(g.node(n).name, 1);
  auto lookup = [&](const std::string& name) -> long {
    auto it = kernelOf.find(name);
    return it == kernelOf.end() ? -1 : static_cast<long>(it->second);
  };
  // The longest '/'-separated suffix that names a kernel's node.
  auto resolve = [&](const std::string& raw) -> long {
    std::vector<std::string> tries = {raw};
    const size_t dash = raw.rfind("-op");
    if (dash != std::string::npos && dash + 3 < raw.size() &&
        std::all_of(raw.begin() + static_cast<long>(dash) + 3, raw.end(), [](char c) { return c >= '0' && c <= '9'; }))
      tries.push_back(raw.substr(0, dash));
    for (const auto& name : tries) {
      if (long k = lookup(name); k >= 0) return k;
      for (size_t p = name.find('/'); p != std::string::npos; p = name.find('/', p + 1))
        if (long k = lookup(name.substr(p + 1)); k >= 0) return k;
    }
    return -1;
  };
  for (const MeasuredKernel& row : run.kernels) {
    const long k = resolve(row.name);
    if (k < 0) {
      m.unmatchedRows.push_back(row.name + (isNode.count(row.name) ? " (a node of the model in no timed kernel)" : ""));
      continue;
    }
    m.kernelUs[static_cast<size_t>(k)] += row.us;
    m.kernelRows[static_cast<size_t>(k)] += 1;
    ++m.matchedRows;
  }
  for (size_t k = 0; k < kernels.size(); ++k)
    if (m.kernelRows[k] == 0 && kernels[k].unit != Unit::None) m.unmatchedKernels.push_back(kernels[k].name);
  return m;
}

}  // namespace fw::sim
