#include "simulator/ProfileFit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <sstream>
#include <unordered_map>

namespace fw::sim {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Solves A x = b (n×n, row-major) by Gaussian elimination with partial pivoting; false when singular.
bool solve(std::vector<double> a, std::vector<double> b, size_t n, std::vector<double>& x) {
  for (size_t c = 0; c < n; ++c) {
    size_t piv = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::fabs(a[r * n + c]) > std::fabs(a[piv * n + c])) piv = r;
    if (std::fabs(a[piv * n + c]) < 1e-300) return false;
    if (piv != c) {
      for (size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[piv * n + k]);
      std::swap(b[c], b[piv]);
    }
    for (size_t r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      for (size_t k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      b[r] -= f * b[c];
    }
  }
  x.assign(n, 0);
  for (size_t c = n; c-- > 0;) {
    double s = b[c];
    for (size_t k = c + 1; k < n; ++k) s -= a[c * n + k] * x[k];
    x[c] = s / a[c * n + c];
  }
  return true;
}

// Valid range of a field during the fit (in its own units).
std::pair<double, double> bounds(const std::string& field) {
  if (field == "launch_us") return {1e-4, 1e5};
  if (field == "hbm_bandwidth_bytes_per_s") return {1e6, 1e16};
  return {1e-3, 999.0};  // efficiencies (validation allows (0, 1000])
}

}  // namespace

const std::vector<std::string>& fittableFields() {
  static const std::vector<std::string> f = [] {
    std::vector<std::string> v = {"launch_us", "hbm_bandwidth_bytes_per_s"};
    for (const auto& [key, fam] : efficiencyKeys()) v.push_back("efficiency." + key);
    return v;
  }();
  return f;
}

Result<double> profileField(const HwProfile& hw, const std::string& field) {
  if (field == "launch_us") return hw.launchUs;
  if (field == "hbm_bandwidth_bytes_per_s") return hw.hbmBandwidth;
  for (const auto& [key, fam] : efficiencyKeys())
    if (field == "efficiency." + key) return hw.efficiency.of(fam);
  std::string known;
  for (const auto& f : fittableFields()) known += (known.empty() ? "" : ", ") + f;
  return Error::badInput("'" + field + "' is not a field the fit can change (fields: " + known + ")");
}

Status setProfileField(HwProfile& hw, const std::string& field, double value) {
  if (!std::isfinite(value) || value < 0 || (value == 0 && field != "launch_us"))
    return Error::badInput("field '" + field + "': value must be " + (field == "launch_us" ? "non-negative" : "positive"));
  if (field == "launch_us") {
    hw.launchUs = value;
    return {};
  }
  if (field == "hbm_bandwidth_bytes_per_s") {
    hw.hbmBandwidth = value;
    return {};
  }
  for (const auto& [key, fam] : efficiencyKeys())
    if (field == "efficiency." + key) {
      if (value > 1000) return Error::badInput("field '" + field + "': must be at most 1000");
      *hw.efficiency.field(fam) = value;
      return {};
    }
  return profileField(hw, field).ok() ? Status{} : Status{profileField(hw, field).error()};
}

Result<FitResult> fitProfile(const Graph& g, const std::vector<KernelGroup>& groups, const HwProfile& start,
                             const MeasuredRun& measured, const SimOptions& opts, const FitOptions& fo) {
  FitResult res;
  const std::vector<std::string> fields = fo.fields.empty() ? fittableFields() : fo.fields;
  std::vector<double> x0;  // ln of each field
  for (const auto& f : fields) {
    FW_ASSIGN_OR_RETURN(double v, profileField(start, f));
    if (v <= 0) return Error::badInput("field '" + f + "' is 0 in profile '" + start.name + "': the fit works on its logarithm; give it a positive start value");
    x0.push_back(std::log(v));
  }
  FW_ASSIGN_OR_RETURN(SimResult base, simulate(g, groups, start, opts));
  res.match = matchOpSummary(measured, g, base.kernels);
  std::vector<std::string> names;  // kernels used, by name
  std::vector<double> lnMeas;
  for (size_t k = 0; k < base.kernels.size(); ++k)
    if (res.match.kernelRows[k] > 0 && res.match.kernelUs[k] > 0 && base.kernels[k].unit != Unit::None) {
      names.push_back(base.kernels[k].name);
      lnMeas.push_back(std::log(res.match.kernelUs[k]));
    }
  res.kernelsUsed = names.size();
  if (names.empty())
    return Error::badInput(measured.source + ": no row matches a timed kernel of graph '" + g.name + "' (" +
                           std::to_string(res.match.unmatchedRows.size()) + " rows unmatched" +
                           (res.match.unmatchedRows.empty() ? "" : ", e.g. '" + res.match.unmatchedRows.front() + "'") + ")");
  if (names.size() < fields.size())
    return Error::badInput(measured.source + ": only " + std::to_string(names.size()) + " kernels matched; the fit of " +
                           std::to_string(fields.size()) + " fields needs at least as many");
  const size_t nr = names.size(), np = fields.size();

  auto profileAt = [&](const std::vector<double>& x) -> Result<HwProfile> {
    HwProfile hw = start;
    for (size_t i = 0; i < np; ++i) FW_TRY_STATUS(setProfileField(hw, fields[i], std::exp(x[i])));
    return hw;
  };
  // ln(simulated) - ln(measured) per used kernel.
  auto residuals = [&](const std::vector<double>& x) -> Result<std::vector<double>> {
    FW_ASSIGN_OR_RETURN(HwProfile hw, profileAt(x));
    FW_ASSIGN_OR_RETURN(SimResult r, simulate(g, groups, hw, opts));
    std::unordered_map<std::string, double> us;
    for (const auto& t : r.kernels) us[t.name] = t.durUs;
    std::vector<double> out(nr);
    for (size_t k = 0; k < nr; ++k) out[k] = std::log(std::max(us[names[k]], 1e-9)) - lnMeas[k];
    return out;
  };
  auto sumSq = [](const std::vector<double>& r) {
    double s = 0;
    for (double v : r) s += v * v;
    return s;
  };
  auto clampX = [&](std::vector<double>& x) {
    for (size_t i = 0; i < np; ++i) {
      const auto [lo, hi] = bounds(fields[i]);
      x[i] = std::clamp(x[i], std::log(lo), std::log(hi));
    }
  };
  // Jacobian by forward differences in ln(field); returns column RMS sensitivities too.
  const double h = 0.02;
  auto jacobian = [&](const std::vector<double>& x, const std::vector<double>& r0, std::vector<double>& jac,
                      std::vector<double>& sens) -> Status {
    jac.assign(nr * np, 0);
    sens.assign(np, 0);
    for (size_t i = 0; i < np; ++i) {
      std::vector<double> xp = x;
      const double hi = x[i] + h > std::log(bounds(fields[i]).second) ? -h : h;  // at the upper bound: step down
      xp[i] += hi;
      FW_ASSIGN_OR_RETURN(auto rp, residuals(xp));
      double s = 0;
      for (size_t k = 0; k < nr; ++k) {
        jac[k * np + i] = (rp[k] - r0[k]) / hi;
        s += jac[k * np + i] * jac[k * np + i];
      }
      sens[i] = std::sqrt(s / static_cast<double>(nr));
    }
    return {};
  };

  std::vector<double> x = x0;
  FW_ASSIGN_OR_RETURN(auto r, residuals(x));
  auto relErrs = [&](const std::vector<double>& rr) {
    std::vector<double> e;
    for (double v : rr) e.push_back(std::fabs(std::exp(v) - 1.0));
    return e;
  };
  res.rmsLogBefore = std::sqrt(sumSq(r) / static_cast<double>(nr));
  res.medianAbsErrBefore = median(relErrs(r));
  double cost = sumSq(r), lambda = 1e-2;
  // The times are maxima of stage times, so a field can have no effect near its start value and a
  // large one further away (a vector efficiency at 1 leaves every op memory-bound; at 0.25 some become
  // vector-bound). Before the local steps, two sweeps of a coarse scan per field over factors
  // 1/16 ... 16 of its current value move each field into the basin its data point to.
  for (int sweep = 0; sweep < 2; ++sweep)
    for (size_t i = 0; i < np; ++i) {
      for (int step = -8; step <= 8; ++step) {
        if (step == 0) continue;
        std::vector<double> xn = x;
        xn[i] += 0.3466 * step;  // factors of 2^(1/2)
        clampX(xn);
        if (xn[i] == x[i]) continue;
        FW_ASSIGN_OR_RETURN(auto rn, residuals(xn));
        const double cn = sumSq(rn);
        if (cn < cost * (1 - 1e-9)) {
          x = xn;
          r = rn;
          cost = cn;
        }
      }
    }
  std::vector<double> jac, sens;
  int it = 0;
  for (; it < fo.maxIterations; ++it) {
    FW_TRY_STATUS(jacobian(x, r, jac, sens));
    std::vector<size_t> active;
    for (size_t i = 0; i < np; ++i)
      if (sens[i] >= fo.minSensitivity) active.push_back(i);
    if (active.empty()) break;
    const size_t na = active.size();
    std::vector<double> jtj(na * na, 0), jtr(na, 0);
    for (size_t a = 0; a < na; ++a) {
      for (size_t b = 0; b < na; ++b) {
        double s = 0;
        for (size_t k = 0; k < nr; ++k) s += jac[k * np + active[a]] * jac[k * np + active[b]];
        jtj[a * na + b] = s;
      }
      double s = 0;
      for (size_t k = 0; k < nr; ++k) s += jac[k * np + active[a]] * r[k];
      jtr[a] = -s;
    }
    bool improved = false;
    for (int tries = 0; tries < 12 && !improved; ++tries) {
      std::vector<double> m = jtj, step;
      for (size_t a = 0; a < na; ++a) m[a * na + a] += lambda * (jtj[a * na + a] + 1e-9);
      if (!solve(m, jtr, na, step)) {
        lambda *= 10;
        continue;
      }
      std::vector<double> xn = x;
      for (size_t a = 0; a < na; ++a) xn[active[a]] += std::clamp(step[a], -2.0, 2.0);
      clampX(xn);
      FW_ASSIGN_OR_RETURN(auto rn, residuals(xn));
      const double cn = sumSq(rn);
      if (cn < cost) {
        const double gain = cost - cn;
        x = xn;
        r = rn;
        cost = cn;
        lambda = std::max(lambda / 3, 1e-7);
        improved = true;
        if (gain < 1e-10 * static_cast<double>(nr)) it = fo.maxIterations;  // converged
      } else {
        lambda *= 4;
      }
    }
    if (!improved) break;
  }
  res.iterations = std::min(it, fo.maxIterations);
  FW_TRY_STATUS(jacobian(x, r, jac, sens));
  FW_ASSIGN_OR_RETURN(res.fitted, profileAt(x));
  // Standard errors: s² (JᵀJ)⁻¹ over the fields the data constrain at all.
  std::vector<double> stdErr(np, std::numeric_limits<double>::infinity());
  {
    std::vector<size_t> active;
    for (size_t i = 0; i < np; ++i)
      if (sens[i] >= fo.minSensitivity) active.push_back(i);
    const size_t na = active.size();
    if (na > 0 && nr > na) {
      std::vector<double> jtj(na * na, 0);
      for (size_t a = 0; a < na; ++a)
        for (size_t b = 0; b < na; ++b)
          for (size_t k = 0; k < nr; ++k) jtj[a * na + b] += jac[k * np + active[a]] * jac[k * np + active[b]];
      const double s2 = sumSq(r) / static_cast<double>(nr - na);
      for (size_t a = 0; a < na; ++a) {
        std::vector<double> e(na, 0), col;
        e[a] = 1;
        if (solve(jtj, e, na, col) && col[a] >= 0) stdErr[active[a]] = std::sqrt(s2 * col[a]);
      }
    }
  }
  for (size_t i = 0; i < np; ++i) {
    FittedField ff;
    ff.field = fields[i];
    ff.before = std::exp(x0[i]);
    ff.sensitivity = sens[i];
    ff.stdErr = stdErr[i];
    ff.determined = sens[i] >= fo.minSensitivity && stdErr[i] <= fo.maxStdErr;
    ff.after = ff.determined ? std::exp(x[i]) : ff.before;
    if (!ff.determined) FW_TRY_STATUS(setProfileField(res.fitted, ff.field, ff.before));
    res.fields.push_back(ff);
  }
  FW_ASSIGN_OR_RETURN(r, residuals([&] {
                        std::vector<double> xf(np);
                        for (size_t i = 0; i < np; ++i) xf[i] = std::log(res.fields[i].after);
                        return xf;
                      }()));
  res.rmsLogAfter = std::sqrt(sumSq(r) / static_cast<double>(nr));
  res.medianAbsErrAfter = median(relErrs(r));
  return res;
}

namespace {

std::string csvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string shapesOf(const Graph& g, const std::vector<ValueId>& vs) {
  std::string s;
  bool first = true;
  for (ValueId v : vs) {
    if (v == kNoId) continue;
    if (!first) s += ';';
    first = false;
    const Value& val = g.value(v);
    std::optional<std::vector<int64_t>> d = val.initializer ? std::optional(val.initializer->dims()) : val.shape.ints();
    if (!d) continue;
    for (size_t i = 0; i < d->size(); ++i) s += (i ? "," : "") + std::to_string((*d)[i]);
  }
  return s;
}

std::string dtypesOf(const Graph& g, const std::vector<ValueId>& vs, const HwProfile& hw) {
  std::string s;
  bool first = true;
  for (ValueId v : vs) {
    if (v == kNoId) continue;
    if (!first) s += ';';
    first = false;
    const Value& val = g.value(v);
    const DType dt = val.initializer ? val.initializer->dtype() : val.dtype;
    s += isFloating(dt) ? (hw.dtype == DType::Float32 ? "FLOAT" : hw.dtype == DType::BFloat16 ? "DT_BF16" : "FLOAT16")
                        : dt == DType::Int64 ? "INT64" : dt == DType::Int32 ? "INT32" : "DT_UNDEFINED";
  }
  return s;
}

}  // namespace

std::string synthesizeOpSummaryCsv(const Graph& g, const SimResult& sim, const HwProfile& hw, const SynthOptions& so) {
  std::mt19937_64 rng(so.seed);
  std::uniform_real_distribution<double> u(1.0 - so.noise, 1.0 + so.noise);
  std::ostringstream os;
  os << "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
        "Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,Input Shapes,Input Data Types,"
        "Input Formats,Output Shapes,Output Data Types,Output Formats\n";
  const double t0 = 1.7e15;  // msprof's start times are absolute (µs since the epoch); any base will do
  double prevEnd = t0;
  int taskId = 0;
  char buf[64];
  for (const KernelTiming& t : sim.kernels) {
    if (t.unit == Unit::None) continue;  // views: no device task
    const double dur = t.durUs * u(rng);
    const double start = t0 + t.startUs;
    const NodeId first = t.members.front();
    const Node& n = g.node(first);
    const std::string taskType = t.unit == Unit::Cube ? "AI_CORE" : t.unit == Unit::Vector ? "AI_VECTOR_CORE" : "MIX_AIC";
    const int64_t block = t.unit == Unit::Vector ? hw.vectorCores : hw.cubeCores;
    os << 0 << ',' << 1 << ',' << taskId++ << ',' << 2 << ',' << csvQuote(t.origins.empty() ? n.name : t.origins.front())
       << ',' << csvQuote(t.ops.front()) << ",static," << taskType << ',';
    std::snprintf(buf, sizeof buf, "%.3f", start);
    os << buf << "\t,";  // msprof pads the start time with a tab
    std::snprintf(buf, sizeof buf, "%.3f", dur);
    os << buf << ',';
    std::snprintf(buf, sizeof buf, "%.3f", std::max(0.0, start - prevEnd));
    os << buf << ',' << block << ',' << (t.unit == Unit::CubeVector ? hw.vectorCores : 0) << ','
       << csvQuote(shapesOf(g, n.inputs)) << ',' << csvQuote(dtypesOf(g, n.inputs, hw)) << ",ND,"
       << csvQuote(shapesOf(g, n.outputs)) << ',' << csvQuote(dtypesOf(g, n.outputs, hw)) << ",ND\n";
    prevEnd = start + dur;
  }
  return os.str();
}

}  // namespace fw::sim
