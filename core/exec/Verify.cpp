#include "core/exec/Verify.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace fw {

double defaultVerifyTolerance(int optLevel) { return optLevel >= 2 ? 1e-4 : 1e-5; }

OutputDiff compareTensors(const std::string& name, const Tensor& ref, const Tensor& cand, double tolerance) {
  OutputDiff d;
  d.name = name;
  d.dims = ref.dims();
  d.dtype = std::string(dtypeName(ref.dtype()));
  if (ref.dims() != cand.dims()) {
    d.passed = false;
    std::ostringstream os;
    os << "shape differs: reference [";
    for (size_t k = 0; k < ref.dims().size(); ++k) os << (k ? "," : "") << ref.dims()[k];
    os << "], candidate [";
    for (size_t k = 0; k < cand.dims().size(); ++k) os << (k ? "," : "") << cand.dims()[k];
    os << "]";
    d.note = os.str();
    return d;
  }
  if (ref.dtype() != cand.dtype()) {
    d.passed = false;
    d.note = "type differs: " + std::string(dtypeName(ref.dtype())) + " vs " + std::string(dtypeName(cand.dtype()));
    return d;
  }
  if (ref.dtype() == DType::String) {
    if (ref.strings() != cand.strings()) {
      d.passed = false;
      d.note = "strings differ";
    }
    return d;
  }
  const int64_t n = ref.numel();
  double scale = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = std::fabs(ref.getDouble(i));
    if (std::isfinite(v)) scale = std::max(scale, v);
  }
  const double floor = std::max(1e-12, 1e-3 * scale);
  for (int64_t i = 0; i < n; ++i) {
    const double a = ref.getDouble(i), b = cand.getDouble(i);
    if (std::isnan(a) || std::isnan(b)) {
      if (std::isnan(a) != std::isnan(b)) {
        d.passed = false;
        d.note = "NaN at index " + std::to_string(i) + " on one side only";
        d.worstIndex = i;
      }
      continue;
    }
    if (std::isinf(a) || std::isinf(b)) {
      if (a != b) {
        d.passed = false;
        d.note = "infinity mismatch at index " + std::to_string(i);
        d.worstIndex = i;
      }
      continue;
    }
    const double abs = std::fabs(a - b);
    d.maxElemRel = std::max(d.maxElemRel, abs / std::max(std::fabs(a), floor));
    if (abs > d.maxAbs) {
      d.maxAbs = abs;
      d.worstIndex = i;
    }
  }
  d.maxRel = scale > 0 ? d.maxAbs / scale : d.maxAbs;
  if (d.maxRel > tolerance) d.passed = false;
  return d;
}

Result<VerifyReport> verifyModels(const Model& reference, const Model& candidate, const VerifyOptions& opts) {
  VerifyReport rep;
  rep.tolerance = opts.tolerance;
  rep.seed = opts.seed;
  std::vector<Tensor> inputs = opts.inputs;
  if (inputs.empty()) {
    auto r = randomInputs(reference, opts.seed);
    if (!r.ok()) return r.error();
    inputs = std::move(r).value();
  }
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  auto a = runGraph(reference, inputs, opts.exec);
  if (!a.ok()) return a.error().context("reference model");
  auto t1 = Clock::now();
  auto b = runGraph(candidate, inputs, opts.exec);
  if (!b.ok()) return b.error().context("candidate model");
  auto t2 = Clock::now();
  rep.referenceMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
  rep.candidateMs = std::chrono::duration<double, std::milli>(t2 - t1).count();
  if (a->size() != b->size())
    return Error::checkFailed("reference has " + std::to_string(a->size()) + " outputs, candidate " +
                              std::to_string(b->size()));
  const auto& outs = reference.graph->outputs();
  for (size_t k = 0; k < a->size(); ++k) {
    const std::string name = k < outs.size() ? reference.graph->value(outs[k]).name : "output_" + std::to_string(k);
    rep.outputs.push_back(compareTensors(name, (*a)[k], (*b)[k], opts.tolerance));
    rep.passed = rep.passed && rep.outputs.back().passed;
  }
  return rep;
}

nlohmann::json VerifyReport::toJson() const {
  nlohmann::json j;
  j["passed"] = passed;
  j["tolerance"] = tolerance;
  j["seed"] = seed;
  j["reference_ms"] = referenceMs;
  j["candidate_ms"] = candidateMs;
  j["outputs"] = nlohmann::json::array();
  for (const auto& o : outputs) {
    nlohmann::json e{{"name", o.name}, {"shape", o.dims},    {"dtype", o.dtype},
                     {"max_abs", o.maxAbs}, {"max_rel", o.maxRel}, {"max_elem_rel", o.maxElemRel}, {"passed", o.passed}};
    if (o.worstIndex >= 0) e["worst_index"] = o.worstIndex;
    if (!o.note.empty()) e["note"] = o.note;
    j["outputs"].push_back(std::move(e));
  }
  return j;
}

std::string VerifyReport::toText() const {
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "%-32s %-20s %12s %12s  %s\n", "output", "shape", "max abs", "max rel", "result");
  os << line;
  for (const auto& o : outputs) {
    std::string shape = "[";
    for (size_t k = 0; k < o.dims.size(); ++k) shape += (k ? "," : "") + std::to_string(o.dims[k]);
    shape += "]";
    std::snprintf(line, sizeof line, "%-32s %-20s %12.3e %12.3e  %s%s%s\n", o.name.c_str(), shape.c_str(), o.maxAbs,
                  o.maxRel, o.passed ? "ok" : "FAIL", o.note.empty() ? "" : ": ", o.note.c_str());
    os << line;
  }
  std::snprintf(line, sizeof line, "%s (tolerance %.1e relative, seed %llu; reference %.1f ms, candidate %.1f ms)\n",
                passed ? "PASS" : "FAIL", tolerance, static_cast<unsigned long long>(seed), referenceMs, candidateMs);
  os << line;
  return os.str();
}

}  // namespace fw
