#include "simulator/HwProfile.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "core/util/FileUtil.h"
#include "simulator/OpFamily.h"

namespace fw::sim {
namespace {

using nlohmann::json;

// Reads fields of one JSON object, remembering which keys were consumed so unknown keys (typos) are
// reported instead of silently ignored.
class Reader {
 public:
  Reader(const json& obj, std::string path, const std::string& source)
      : obj_(obj), path_(std::move(path)), source_(source) {}

  std::string at(const std::string& key) const { return path_ + "." + key; }
  Error err(const std::string& key, const std::string& msg) const {
    return Error::badInput(source_ + ": " + at(key) + ": " + msg);
  }

  Result<const json*> get(const std::string& key) {
    seen_.insert(key);
    auto it = obj_.find(key);
    if (it == obj_.end()) return err(key, "missing (required)");
    return &*it;
  }
  bool has(const std::string& key) const { return obj_.contains(key); }

  // An integer in [0 or 1, max]. The upper bound keeps every product the cost model forms from
  // these fields (m*n*k, 2*(m+n)*k*bytes, ...) far inside int64.
  Result<int64_t> posInt(const std::string& key, int64_t max, bool allowZero = false) {
    FW_ASSIGN_OR_RETURN(const json* v, get(key));
    const char* want = allowZero ? "must be a non-negative integer" : "must be a positive integer";
    int64_t x = -1;
    if (v->is_number_unsigned()) {
      const auto u = v->get<uint64_t>();
      x = u > static_cast<uint64_t>(max) ? max + 1 : static_cast<int64_t>(u);
    } else if (v->is_number_integer()) {
      x = v->get<int64_t>();
    } else if (v->is_number_float()) {
      const double d = v->get<double>();
      if (!std::isfinite(d) || d != std::floor(d)) return err(key, std::string(want) + " (got " + v->dump() + ")");
      x = d > static_cast<double>(max) ? max + 1 : static_cast<int64_t>(std::max(d, -1.0));
    } else {
      return err(key, std::string(want) + " (got " + v->dump() + ")");
    }
    if (x < 0 || (!allowZero && x == 0)) return err(key, std::string(want) + " (got " + v->dump() + ")");
    if (x > max) return err(key, "must be at most " + std::to_string(max) + " (got " + v->dump() + ")");
    return x;
  }
  Result<double> posNum(const std::string& key, bool allowZero = false) {
    FW_ASSIGN_OR_RETURN(const json* v, get(key));
    if (!v->is_number()) return err(key, "must be a number (got " + v->dump() + ")");
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < 0 || (!allowZero && d == 0))
      return err(key, allowZero ? "must be non-negative" : "must be positive");
    return d;
  }
  Result<std::string> str(const std::string& key, bool required = true) {
    seen_.insert(key);
    auto it = obj_.find(key);
    if (it == obj_.end()) {
      if (required) return err(key, "missing (required)");
      return std::string();
    }
    if (!it->is_string()) return err(key, "must be a string (got " + it->dump() + ")");
    return it->get<std::string>();
  }
  Status noUnknownKeys() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it)
      if (!seen_.count(it.key())) return err(it.key(), "unknown field");
    return {};
  }

 private:
  const json& obj_;
  std::string path_;
  const std::string& source_;
  std::set<std::string> seen_;
};

Result<DType> parseDType(const std::string& s, const Reader& r) {
  if (s == "float16") return DType::Float16;
  if (s == "bfloat16") return DType::BFloat16;
  if (s == "float32") return DType::Float32;
  if (s == "int8") return DType::Int8;
  return r.err("dtype", "must be one of float16, bfloat16, float32, int8 (got \"" + s + "\")");
}

}  // namespace

const char* deviceKindName(DeviceKind k) { return k == DeviceKind::Cpu ? "cpu" : "npu"; }

const std::vector<std::pair<std::string, CostFamily>>& efficiencyKeys() {
  static const std::vector<std::pair<std::string, CostFamily>> keys = {
      {"cube", CostFamily::Cube},       {"elementwise", CostFamily::Elementwise},
      {"reduction", CostFamily::Reduction}, {"pooling", CostFamily::Pooling},
      {"softmax", CostFamily::Softmax}, {"norm", CostFamily::Norm},
      {"data_movement", CostFamily::DataMovement}};
  return keys;
}

double* FamilyEfficiency::field(CostFamily f) {
  switch (f) {
    case CostFamily::Cube: return &cube;
    case CostFamily::Elementwise: return &elementwise;
    case CostFamily::Reduction: return &reduction;
    case CostFamily::Pooling: return &pooling;
    case CostFamily::Softmax: return &softmax;
    case CostFamily::Norm: return &norm;
    case CostFamily::DataMovement: return &dataMovement;
    default: return nullptr;
  }
}

double FamilyEfficiency::of(CostFamily f) const {
  if (f == CostFamily::Unknown) return elementwise;
  const double* v = const_cast<FamilyEfficiency*>(this)->field(f);
  return v ? *v : 1.0;
}

namespace {
// A curve's bandwidth at a footprint: interpolated in log size, flat beyond its ends.
double curveAt(const std::vector<std::pair<double, double>>& c, double footprint) {
  if (footprint <= c.front().first) return c.front().second;
  if (footprint >= c.back().first) return c.back().second;
  for (size_t i = 1; i < c.size(); ++i)
    if (footprint <= c[i].first) {
      const double t = std::log(footprint / c[i - 1].first) / std::log(c[i].first / c[i - 1].first);
      return c[i - 1].second + t * (c[i].second - c[i - 1].second);
    }
  return c.back().second;
}
}  // namespace

double CpuFigures::cacheBandwidthFor(double footprint) const {
  return bandwidthCurve.empty() ? cacheBandwidth : curveAt(bandwidthCurve, footprint);
}

double CpuFigures::farShareAt(double distance, bool product) const {
  const auto& curve = product || farCurveVector.empty() ? farCurve : farCurveVector;
  if (curve.empty() || distance < curve.front().first) return 0.0;
  return std::clamp(curveAt(curve, distance), 0.0, 1.0);
}

namespace {
// A cold_call_curve's column at a distance: log-interpolated, a share of the first figure below the first
// point, the last figure beyond the last.
double coldCurveAt(const std::vector<CpuFigures::ColdCallPoint>& curve, double CpuFigures::ColdCallPoint::*column,
                   double distance) {
  if (curve.empty() || distance <= 0) return 0.0;
  std::vector<std::pair<double, double>> c;
  for (const CpuFigures::ColdCallPoint& pt : curve) c.push_back({pt.bytes, pt.*column});
  if (distance < c.front().first) return c.front().second * distance / c.front().first;
  return curveAt(c, distance);
}
}  // namespace

double CpuFigures::coldCallCurveSeconds(bool product, double distance) const {
  return coldCurveAt(coldCallCurve, product ? &ColdCallPoint::productS : &ColdCallPoint::vectorS, distance);
}

double CpuFigures::coldCodeCurveSeconds(double distance) const {
  return hasColdCodeCurve() ? coldCurveAt(coldCallCurve, &ColdCallPoint::codeS, distance) : 0.0;
}

double CpuFigures::coldNodeCurveSeconds(double distance) const {
  return coldNodeCurve && !coldCallCurve.empty() ? coldCurveAt(coldCallCurve, &ColdCallPoint::nodeS, distance)
                                                 : 0.0;
}

double CpuFigures::outsideNodeSeconds(double distance) const {
  const double curve = coldOutsideCurve && !coldCallCurve.empty()
                           ? coldCurveAt(coldCallCurve, &ColdCallPoint::outsideS, distance)
                           : 0.0;
  return std::max(runOverhead.perNodeS, curve);
}

double CpuFigures::weightStreamBandwidthFor(double distance) const {
  return weightStreamCurve.empty() ? 0.0 : curveAt(weightStreamCurve, distance);
}

double CpuFigures::ProductStreamSet::shareAt(double rows) const {
  return share.empty() ? 0.0 : std::clamp(curveAt(share, rows), 0.0, 1.0);
}

double CpuFigures::productStreamShareAt(double rows, double distanceBytes) const {
  const double nearShare = productStream.shareAt(rows);
  if (productStreamFar.empty() || distanceBytes <= productStream.distance) return nearShare;
  const double farShare = productStreamFar.shareAt(rows);
  if (distanceBytes >= productStreamFar.distance) return farShare;
  const double at = std::log(distanceBytes / productStream.distance) /
                    std::log(productStreamFar.distance / productStream.distance);
  return nearShare + at * (farShare - nearShare);
}

double CpuFigures::streamBandwidthFor(double footprint) const {
  return streamCurve.empty() ? 0.0 : curveAt(streamCurve, footprint);
}

double CpuFigures::copySeconds(double bytes) const {
  const double bw = cacheBandwidthFor(2 * bytes);
  return bytes > 0 && bw > 0 ? 2 * bytes / bw : 0.0;
}

double HwProfile::peakCubeFlops() const {
  return 2.0 * static_cast<double>(cubeM * cubeN * cubeK) * static_cast<double>(cubeCores) * clockHz;
}
double HwProfile::peakVectorFlops() const {
  return static_cast<double>(vectorLanes) * static_cast<double>(vectorCores) * clockHz;
}
double HwProfile::peakFlops() const {
  if (isCpu()) return std::max(cpu.gemmFlops, cpu.convFlops);
  return std::max(peakCubeFlops(), peakVectorFlops());
}

int64_t HwProfile::usToCycles(double us) const { return std::llround(us * 1e-6 * clockHz); }

bool HwProfile::isEstimate(const std::string& field) const {
  for (const auto& n : notes)
    if ((n.field == field || n.field == "*") && n.estimate) return true;
  return false;
}

// Upper bounds of the integer fields: counts of cores, lanes and fractal sides (real chips: tens to a
// few hundred) and buffer sizes in bytes (real chips: KiB to MiB).
constexpr int64_t kMaxCount = int64_t{1} << 16;
constexpr int64_t kMaxBufferBytes = int64_t{1} << 40;

Result<HwProfile> parseHwProfile(const json& j, const std::string& sourceName) {
  if (!j.is_object()) return Error::badInput(sourceName + ": $: must be a JSON object");
  Reader r(j, "$", sourceName);
  HwProfile p;
  p.sourcePath = sourceName;
  FW_ASSIGN_OR_RETURN(p.name, r.str("name"));
  if (p.name.empty()) return r.err("name", "must not be empty");
  FW_ASSIGN_OR_RETURN(p.description, r.str("description", false));
  FW_ASSIGN_OR_RETURN(std::string kind, r.str("kind", false));
  if (kind == "cpu") p.kind = DeviceKind::Cpu;
  else if (!kind.empty() && kind != "npu") return r.err("kind", "must be \"npu\" or \"cpu\" (got \"" + kind + "\")");
  FW_ASSIGN_OR_RETURN(std::string dt, r.str("dtype"));
  FW_ASSIGN_OR_RETURN(p.dtype, parseDType(dt, r));
  FW_ASSIGN_OR_RETURN(p.clockHz, r.posNum("clock_hz"));
  FW_ASSIGN_OR_RETURN(p.cubeCores, r.posInt("cube_cores", kMaxCount));
  FW_ASSIGN_OR_RETURN(p.vectorCores, r.posInt("vector_cores", kMaxCount));

  if (!p.isCpu()) {
    FW_ASSIGN_OR_RETURN(const json* cube, r.get("cube"));
    if (!cube->is_object()) return r.err("cube", "must be an object {m, n, k, acc_bytes}");
    Reader rc(*cube, r.at("cube"), sourceName);
    FW_ASSIGN_OR_RETURN(p.cubeM, rc.posInt("m", kMaxCount));
    FW_ASSIGN_OR_RETURN(p.cubeN, rc.posInt("n", kMaxCount));
    FW_ASSIGN_OR_RETURN(p.cubeK, rc.posInt("k", kMaxCount));
    FW_ASSIGN_OR_RETURN(p.accBytes, rc.posInt("acc_bytes", kMaxCount));
    FW_TRY_STATUS(rc.noUnknownKeys());

    FW_ASSIGN_OR_RETURN(p.fractalC0, r.posInt("fractal_c0", kMaxCount));
    FW_ASSIGN_OR_RETURN(p.vectorLanes, r.posInt("vector_lanes", kMaxCount));
    FW_ASSIGN_OR_RETURN(p.l0aBytes, r.posInt("l0a_bytes", kMaxBufferBytes));
    FW_ASSIGN_OR_RETURN(p.l0bBytes, r.posInt("l0b_bytes", kMaxBufferBytes));
    FW_ASSIGN_OR_RETURN(p.l0cBytes, r.posInt("l0c_bytes", kMaxBufferBytes));
    FW_ASSIGN_OR_RETURN(p.l1Bytes, r.posInt("l1_bytes", kMaxBufferBytes));
    FW_ASSIGN_OR_RETURN(p.ubBytes, r.posInt("ub_bytes", kMaxBufferBytes));
  } else {
    // A CPU has no cube fractals, L0/L1 buffers or Unified Buffer: those fields would mean nothing.
    for (const char* k : {"cube", "fractal_c0", "vector_lanes", "l0a_bytes", "l0b_bytes", "l0c_bytes", "l1_bytes", "ub_bytes"})
      if (r.has(k)) return r.err(k, "not a field of a cpu profile (no cube fractals, no Unified Buffer)");
    FW_ASSIGN_OR_RETURN(const json* cpu, r.get("cpu"));
    if (!cpu->is_object())
      return r.err("cpu", "must be an object {gemm_flops_per_s, conv_flops_per_s, cache_bandwidth_bytes_per_s}");
    Reader rc(*cpu, r.at("cpu"), sourceName);
    FW_ASSIGN_OR_RETURN(p.cpu.gemmFlops, rc.posNum("gemm_flops_per_s"));
    FW_ASSIGN_OR_RETURN(p.cpu.convFlops, rc.posNum("conv_flops_per_s"));
    FW_ASSIGN_OR_RETURN(p.cpu.cacheBandwidth, rc.posNum("cache_bandwidth_bytes_per_s"));
    if (rc.has("grouped_conv_flops_per_s")) {
      FW_ASSIGN_OR_RETURN(p.cpu.groupedConvFlops, rc.posNum("grouped_conv_flops_per_s"));
    }
    if (rc.has("cold_bandwidth_bytes_per_s")) {
      FW_ASSIGN_OR_RETURN(p.cpu.coldBandwidth, rc.posNum("cold_bandwidth_bytes_per_s"));
    }
    if (rc.has("pointwise_position_block")) {
      FW_ASSIGN_OR_RETURN(p.cpu.pointwisePositionBlock, rc.posInt("pointwise_position_block", 1024));
    }
    if (rc.has("conv_channel_block")) {
      FW_ASSIGN_OR_RETURN(p.cpu.convChannelBlock, rc.posInt("conv_channel_block", 1024));
    }
    if (rc.has("cache_drops_bytes")) {
      FW_ASSIGN_OR_RETURN(const json* drops, rc.get("cache_drops_bytes"));
      if (!drops->is_array()) return rc.err("cache_drops_bytes", "must be an array of byte sizes");
      for (const json& d : *drops) {
        if (!d.is_number_integer() || d.get<int64_t>() <= 0 || d.get<int64_t>() > kMaxBufferBytes)
          return rc.err("cache_drops_bytes", "must hold positive integers (got " + d.dump() + ")");
        p.cpu.cacheDropsBytes.push_back(d.get<int64_t>());
      }
    }
    // Each object of the array at `key`, when present, read by `entry` (its Reader; `fields` names them in
    // errors), then checked for unknown keys.
    auto readEntries = [&](const char* key, const char* fields, auto&& entry) -> Status {
      if (!rc.has(key)) return {};
      FW_ASSIGN_OR_RETURN(const json* arr, rc.get(key));
      if (!arr->is_array()) return rc.err(key, std::string("must be an array of ") + fields);
      for (size_t i = 0; i < arr->size(); ++i) {
        const json& e = (*arr)[i];
        const std::string ep = rc.at(key) + "[" + std::to_string(i) + "]";
        if (!e.is_object()) return Error::badInput(sourceName + ": " + ep + ": must be an object " + fields);
        Reader re(e, ep, sourceName);
        FW_TRY_STATUS(entry(re));
        FW_TRY_STATUS(re.noUnknownKeys());
      }
      return {};
    };
    auto readCurve = [&](const char* key, std::vector<std::pair<double, double>>& out) -> Status {
      return readEntries(key, "{bytes, bytes_per_s}", [&](Reader& re) -> Status {
        FW_ASSIGN_OR_RETURN(double b, re.posNum("bytes"));
        FW_ASSIGN_OR_RETURN(double bw, re.posNum("bytes_per_s"));
        if (!out.empty() && b <= out.back().first)
          return re.err("bytes", "must be larger than the entry before (the curve is by ascending size)");
        out.push_back({b, bw});
        return {};
      });
    };
    FW_TRY_STATUS(readCurve("bandwidth_curve", p.cpu.bandwidthCurve));
    FW_TRY_STATUS(readCurve("stream_curve", p.cpu.streamCurve));
    FW_TRY_STATUS(readCurve("weight_stream_curve", p.cpu.weightStreamCurve));
    // {OpType: number} maps: keys from the op table (or a variant, efficiencyVariants()), values in (0, max]
    // (or [0, max]).
    auto opMap = [&](const char* key, const char* what, double max, bool allowZero, std::map<std::string, double>& out) -> Status {
      if (!rc.has(key)) return {};
      FW_ASSIGN_OR_RETURN(const json* ops, rc.get(key));
      if (!ops->is_object()) return rc.err(key, std::string("must be an object {OpType: ") + what + "}");
      Reader ro(*ops, rc.at(key), sourceName);
      for (auto it = ops->begin(); it != ops->end(); ++it) {
        if (!findOpInfo(it.key()) && !isEfficiencyVariant(it.key())) {
          std::string variants;
          for (const std::string& v : efficiencyVariants()) variants += (variants.empty() ? "" : ", ") + v;
          return ro.err(it.key(), "not an op type of the op table (nor a variant: " + variants + ")");
        }
        FW_ASSIGN_OR_RETURN(double v, ro.posNum(it.key(), allowZero));
        if (v > max) return ro.err(it.key(), max >= 1000 ? "must be at most 1000" : "must be at most 1 s");
        out[it.key()] = v;
      }
      return {};
    };
    FW_TRY_STATUS(opMap("op_efficiency", "efficiency", 1000, false, p.cpu.opEfficiency));
    FW_TRY_STATUS(opMap("op_call_s", "seconds a call", 1.0, true, p.cpu.opCallS));
    FW_TRY_STATUS(opMap("op_row_s", "seconds a row", 1.0, true, p.cpu.opRowS));
    using Curve = std::vector<std::pair<double, double>>;
    for (const auto& [key, target] :
         {std::pair<const char*, Curve*>{"far_curve", &p.cpu.farCurve},
          std::pair<const char*, Curve*>{"far_curve_vector", &p.cpu.farCurveVector}})
      FW_TRY_STATUS(readEntries(key, "{bytes, share}", [&, curve = target](Reader& re) -> Status {
        FW_ASSIGN_OR_RETURN(double b, re.posNum("bytes"));
        FW_ASSIGN_OR_RETURN(double sh, re.posNum("share", true));
        if (sh > 1) return re.err("share", "must be at most 1");
        if (!curve->empty() && b <= curve->back().first)
          return re.err("bytes", "must be larger than the entry before (the curve is by ascending distance)");
        curve->push_back({b, sh});
        return {};
      }));
    // A set of product stream shares and the distance they were measured at (HwProfile.h).
    auto readShares = [&](const char* key, const char* distanceKey,
                          CpuFigures::ProductStreamSet& set) -> Status {
      FW_TRY_STATUS(readEntries(key, "{rows, share, measured_us}", [&](Reader& re) -> Status {
        FW_ASSIGN_OR_RETURN(double rows, re.posNum("rows"));
        FW_ASSIGN_OR_RETURN(double sh, re.posNum("share", true));
        FW_ASSIGN_OR_RETURN(double us, re.posNum("measured_us"));
        if (sh > 1) return re.err("share", "must be at most 1");
        if (rows != std::floor(rows) || rows > 1e12) return re.err("rows", "must be a whole number of rows");
        if (!set.share.empty() && rows <= set.share.back().first)
          return re.err("rows", "must be larger than the entry before (the curve is by ascending rows)");
        set.share.push_back({rows, sh});
        set.us.push_back({static_cast<int64_t>(rows), us});
        return {};
      }));
      if (rc.has(distanceKey) || !set.empty()) {
        if (set.empty() || !rc.has(distanceKey))
          return rc.err(set.empty() ? distanceKey : key, std::string(key) + " and " + distanceKey +
                                                             " come together (fwb calibrate writes both)");
        FW_ASSIGN_OR_RETURN(set.distance, rc.posNum(distanceKey));
      }
      return {};
    };
    FW_TRY_STATUS(readShares("product_stream_share", "product_stream_distance_bytes", p.cpu.productStream));
    FW_TRY_STATUS(
        readShares("product_stream_share_far", "product_stream_far_distance_bytes", p.cpu.productStreamFar));
    if (!p.cpu.productStreamFar.empty() && p.cpu.productStream.empty())
      return rc.err("product_stream_share_far", "needs product_stream_share (the nearer set) beside it");
    if (!p.cpu.productStreamFar.empty() && p.cpu.productStreamFar.distance <= p.cpu.productStream.distance)
      return rc.err(
          "product_stream_far_distance_bytes",
          "must be larger than product_stream_distance_bytes (the far set is measured further apart)");
    // Entries with a "code" ("node", "outside") figure: every one or none.
    size_t withCode = 0, withNode = 0, withOutside = 0;
    FW_TRY_STATUS(readEntries(
        "cold_call_curve", "{bytes, vector, product[, code][, node][, outside]}", [&](Reader& re) -> Status {
          CpuFigures::ColdCallPoint pt;
          FW_ASSIGN_OR_RETURN(pt.bytes, re.posNum("bytes"));
          FW_ASSIGN_OR_RETURN(pt.vectorS, re.posNum("vector", true));
          FW_ASSIGN_OR_RETURN(pt.productS, re.posNum("product", true));
          const bool code = re.has("code");
          if (code) {
            FW_ASSIGN_OR_RETURN(pt.codeS, re.posNum("code", true));
          }
          const bool node = re.has("node");
          if (node) {
            FW_ASSIGN_OR_RETURN(pt.nodeS, re.posNum("node", true));
          }
          const bool outside = re.has("outside");
          if (outside) {
            FW_ASSIGN_OR_RETURN(pt.outsideS, re.posNum("outside", true));
          }
          for (const auto& [key, v] : {std::pair<const char*, double>{"vector", pt.vectorS},
                                       {"product", pt.productS},
                                       {"code", pt.codeS},
                                       {"node", pt.nodeS},
                                       {"outside", pt.outsideS}})
            if (v > 1e-3) return re.err(key, "must be at most 1 ms");
          if (!p.cpu.coldCallCurve.empty() && pt.bytes <= p.cpu.coldCallCurve.back().bytes)
            return re.err("bytes",
                          "must be larger than the entry before (the curve is by ascending distance)");
          withCode += code ? 1 : 0;
          withNode += node ? 1 : 0;
          withOutside += outside ? 1 : 0;
          p.cpu.coldCallCurve.push_back(pt);
          return {};
        }));
    if (withCode > 0 && withCode != p.cpu.coldCallCurve.size())
      return rc.err("cold_call_curve", "\"code\" must be in every entry or in none");
    if (withNode > 0 && withNode != p.cpu.coldCallCurve.size())
      return rc.err("cold_call_curve", "\"node\" must be in every entry or in none");
    if (withOutside > 0 && withOutside != p.cpu.coldCallCurve.size())
      return rc.err("cold_call_curve", "\"outside\" must be in every entry or in none");
    p.cpu.coldNodeCurve = withNode > 0;
    p.cpu.coldOutsideCurve = withOutside > 0;
    for (const char* key : {"cold_call_s", "far_s_per_byte"}) {
      if (!rc.has(key)) continue;
      FW_ASSIGN_OR_RETURN(const json* kinds, rc.get(key));
      if (!kinds->is_object()) return rc.err(key, "must be an object {\"vector\": s, \"product\": s}");
      Reader rk(*kinds, rc.at(key), sourceName);
      for (auto it = kinds->begin(); it != kinds->end(); ++it) {
        const bool call = std::string(key) == "cold_call_s";
        if (it.key() != "vector" && it.key() != "product" && !(!call && it.key() == "pointwise") &&
            !(call && (it.key() == "shape" || it.key() == "code" || it.key() == "product/primitive" ||
                       (it.key().rfind("code/", 0) == 0 && it.key().size() > 5))))
          return rk.err(it.key(),
                        call ? "not a kind of call: the keys are \"vector\", \"product\", "
                               "\"product/primitive\", \"code\", \"code/<op type>\" and \"shape\""
                             : "not a kind of call: the keys are \"vector\", \"product\" and \"pointwise\"");
        FW_ASSIGN_OR_RETURN(double v, rk.posNum(it.key(), true));
        if (v > (call ? 1e-3 : 1e-6))
          return rk.err(it.key(), call ? "must be at most 1 ms" : "must be at most 1 us a byte");
        (call ? p.cpu.coldCallS : p.cpu.farSPerByte)[it.key()] = v;
      }
    }
    if (rc.has("speed_probe_us")) {
      FW_ASSIGN_OR_RETURN(const json* probe, rc.get("speed_probe_us"));
      FW_ASSIGN_OR_RETURN(p.cpu.probe,
                          speedProbeFromJson(*probe, sourceName + ": " + rc.at("speed_probe_us")));
    }
    if (p.cpu.farCurve.empty() && !p.cpu.farCurveVector.empty())
      return rc.err("far_curve_vector", "comes with far_curve (fwb calibrate writes both)");
    if ((p.cpu.farCurve.empty()) != (p.cpu.farSPerByte.empty()))
      return rc.err(p.cpu.farCurve.empty() ? "far_s_per_byte" : "far_curve",
                    "far_curve and far_s_per_byte come together (fwb calibrate writes both)");
    for (const auto& [key, field] : {std::pair<const char*, double*>{"view_call_s", &p.cpu.viewCallS},
                                     {"fused_call_s", &p.cpu.fusedCallS}}) {
      if (!rc.has(key)) continue;
      FW_ASSIGN_OR_RETURN(*field, rc.posNum(key, true));
      if (*field > 1e-3) return rc.err(key, "must be at most 1 ms");
    }
    if (rc.has("run_overhead")) {
      FW_ASSIGN_OR_RETURN(const json* ro, rc.get("run_overhead"));
      if (!ro->is_object())
        return rc.err("run_overhead",
                      "must be an object {s_per_run, s_per_node, s_per_initializer, s_per_io_byte}");
      Reader rr(*ro, rc.at("run_overhead"), sourceName);
      auto& o = p.cpu.runOverhead;
      FW_ASSIGN_OR_RETURN(o.perRunS, rr.posNum("s_per_run", true));
      FW_ASSIGN_OR_RETURN(o.perNodeS, rr.posNum("s_per_node", true));
      FW_ASSIGN_OR_RETURN(o.perInitializerS, rr.posNum("s_per_initializer", true));
      FW_ASSIGN_OR_RETURN(o.perIoByteS, rr.posNum("s_per_io_byte", true));
      for (const auto& [key, v] : {std::pair<const char*, double>{"s_per_run", o.perRunS},
                                   {"s_per_node", o.perNodeS},
                                   {"s_per_initializer", o.perInitializerS}})
        if (v > 1e-3) return rr.err(key, "must be at most 1 ms");
      if (o.perIoByteS > 1e-6) return rr.err("s_per_io_byte", "must be at most 1 us a byte");
      FW_TRY_STATUS(rr.noUnknownKeys());
    }
    if (rc.has("weight_reorder")) {
      FW_ASSIGN_OR_RETURN(const json* wr, rc.get("weight_reorder"));
      if (!wr->is_object()) return rc.err("weight_reorder", "must be an object {s_per_call, bytes_per_s}");
      Reader rw(*wr, rc.at("weight_reorder"), sourceName);
      auto& w = p.cpu.weightReorder;
      FW_ASSIGN_OR_RETURN(w.callS, rw.posNum("s_per_call", true));
      FW_ASSIGN_OR_RETURN(w.bytesPerS, rw.posNum("bytes_per_s", true));
      if (w.callS > 1e-3) return rw.err("s_per_call", "must be at most 1 ms");
      FW_TRY_STATUS(rw.noUnknownKeys());
    }
    if (rc.has("cold_gather")) {
      FW_ASSIGN_OR_RETURN(const json* cg, rc.get("cold_gather"));
      if (!cg->is_object()) return rc.err("cold_gather", "must be an object {s_per_row, s_per_byte}");
      Reader rg(*cg, rc.at("cold_gather"), sourceName);
      auto& c = p.cpu.coldGather;
      FW_ASSIGN_OR_RETURN(c.perRowS, rg.posNum("s_per_row", true));
      FW_ASSIGN_OR_RETURN(c.perByteS, rg.posNum("s_per_byte", true));
      if (c.perRowS > 1e-5) return rg.err("s_per_row", "must be at most 10 us a row");
      if (c.perByteS > 1e-8) return rg.err("s_per_byte", "must be at most 10 ns a byte");
      if (rg.has("distance_bytes")) {
        FW_ASSIGN_OR_RETURN(c.distanceBytes, rg.posNum("distance_bytes", false));
      }
      if (rg.has("far")) {
        FW_ASSIGN_OR_RETURN(const json* fj, rg.get("far"));
        if (!fj->is_object())
          return rg.err("far", "must be an object {s_per_row, s_per_byte, distance_bytes}");
        if (c.distanceBytes <= 0) return rg.err("far", "needs the near figures' distance_bytes beside it");
        Reader rf(*fj, rg.at("far"), sourceName);
        FW_ASSIGN_OR_RETURN(c.far.perRowS, rf.posNum("s_per_row", true));
        FW_ASSIGN_OR_RETURN(c.far.perByteS, rf.posNum("s_per_byte", true));
        FW_ASSIGN_OR_RETURN(c.far.distanceBytes, rf.posNum("distance_bytes", false));
        if (c.far.perRowS > 1e-5) return rf.err("s_per_row", "must be at most 10 us a row");
        if (c.far.perByteS > 1e-8) return rf.err("s_per_byte", "must be at most 10 ns a byte");
        if (c.far.distanceBytes <= c.distanceBytes)
          return rf.err("distance_bytes", "must be further than the near figures' distance_bytes (" +
                                              std::to_string(static_cast<int64_t>(c.distanceBytes)) + ")");
        FW_TRY_STATUS(rf.noUnknownKeys());
      }
      FW_TRY_STATUS(rg.noUnknownKeys());
    }
    if (rc.has("cube_time_models")) {
      FW_ASSIGN_OR_RETURN(const json* models, rc.get("cube_time_models"));
      if (!models->is_object()) return rc.err("cube_time_models", "must be an object {kind: {s_per_flop, ...}}");
      Reader rm(*models, rc.at("cube_time_models"), sourceName);
      const auto& kinds = cubeModelKinds();
      for (auto it = models->begin(); it != models->end(); ++it) {
        std::string known;
        for (const auto& k : kinds) known += (known.empty() ? "" : ", ") + k;
        if (std::find(kinds.begin(), kinds.end(), it.key()) == kinds.end())
          return rm.err(it.key(), "not a kind of matrix op (one of " + known + ")");
        if (!it->is_object()) return rm.err(it.key(), "must be an object {s_per_flop, s_per_input_element, ...}");
        Reader rk(*it, rm.at(it.key()), sourceName);
        CubeTimeModel m;
        const auto& keys = cubeCoefficientKeys();
        for (size_t i = 0; i < keys.size(); ++i) {
          // The aliased-weight and far-activation terms came later: a profile written before them has none
          // (0).
          if (i >= kCubeLaterCoefficients && !rk.has(keys[i])) continue;
          FW_ASSIGN_OR_RETURN(m.coef[i], rk.posNum(keys[i], /*allowZero=*/true));
        }
        if (std::all_of(m.coef.begin(), m.coef.end(), [](double c) { return c == 0; }))
          return rk.err(keys[0], "at least one coefficient must be positive (a kernel cannot take no time)");
        if (rk.has("cases")) {
          FW_ASSIGN_OR_RETURN(int64_t cases, rk.posInt("cases", kMaxCount));
          m.cases = static_cast<int>(cases);
        }
        if (rk.has("rms_log_error")) {
          FW_ASSIGN_OR_RETURN(m.rmsLogError, rk.posNum("rms_log_error", true));
        }
        if (rk.has("weight_stream_efficiency")) {
          FW_ASSIGN_OR_RETURN(m.weightStreamEfficiency, rk.posNum("weight_stream_efficiency", true));
          if (m.weightStreamEfficiency > 100)
            return rk.err("weight_stream_efficiency", "must be at most 100 (a share of the copy bandwidth)");
        }
        if (rk.has("weight_stream_reads")) {
          FW_ASSIGN_OR_RETURN(const std::string reads, rk.str("weight_stream_reads"));
          if (reads != "row" && reads != "image")
            return rk.err("weight_stream_reads",
                          "must be \"row\" (the weights once an output row) or \"image\" (once an image)");
          m.weightStreamPerImage = reads == "image";
        }
        if (rk.has("weight_stream_share")) {
          FW_ASSIGN_OR_RETURN(m.weightStreamShare, rk.posNum("weight_stream_share", true));
          if (m.weightStreamShare > 1)
            return rk.err("weight_stream_share", "must be at most 1 (a share of the shorter time)");
        }
        if ((m.weightStreamPerImage || m.weightStreamShare > 0) && m.weightStreamEfficiency <= 0)
          return rk.err(m.weightStreamPerImage ? "weight_stream_reads" : "weight_stream_share",
                        "needs weight_stream_efficiency (the stream it describes)");
        if (rk.has("input_projection")) {
          FW_ASSIGN_OR_RETURN(m.projectionKind, rk.str("input_projection"));
          if (it.key() != "rnn" || m.projectionKind != "gemm")
            return rk.err("input_projection",
                          "only the rnn model may name one, and only \"gemm\" (the model that prices a "
                          "recurrent cell's input projection)");
        }
        if (rk.has("measured_us")) {
          FW_ASSIGN_OR_RETURN(const json* shapes, rk.get("measured_us"));
          if (!shapes->is_object()) return rk.err("measured_us", "must be an object {shape: us}");
          for (auto s = shapes->begin(); s != shapes->end(); ++s) {
            if (!s->is_number() || !(s->get<double>() > 0) || !std::isfinite(s->get<double>()))
              return rk.err("measured_us", "'" + s.key() + "' must be a positive number of microseconds");
            m.measuredUs.push_back({s.key(), s->get<double>()});
          }
        }
        FW_TRY_STATUS(rk.noUnknownKeys());
        p.cpu.cubeModels[it.key()] = m;
      }
      for (const auto& [kind, m] : p.cpu.cubeModels)
        if (!m.projectionKind.empty() && !p.cpu.cubeModels.count(m.projectionKind))
          return Reader(*models->find(kind), rm.at(kind), sourceName)
              .err("input_projection",
                   "names the " + m.projectionKind + " model, which the profile does not have");
    }
    FW_TRY_STATUS(rc.noUnknownKeys());
  }
  FW_ASSIGN_OR_RETURN(p.l2Bytes, r.posInt("l2_bytes", kMaxBufferBytes, /*allowZero=*/true));
  FW_ASSIGN_OR_RETURN(p.hbmBandwidth, r.posNum("hbm_bandwidth_bytes_per_s"));
  FW_ASSIGN_OR_RETURN(p.hbmCapacityBytes, r.posNum("hbm_capacity_bytes"));
  FW_ASSIGN_OR_RETURN(p.launchUs, r.posNum("launch_us", true));
  FW_ASSIGN_OR_RETURN(p.hostDispatchUs, r.posNum("host_dispatch_us", true));


  if (r.has("efficiency")) {
    FW_ASSIGN_OR_RETURN(const json* eff, r.get("efficiency"));
    if (!eff->is_object()) return r.err("efficiency", "must be an object {cube, elementwise, ...}");
    Reader re(*eff, r.at("efficiency"), sourceName);
    for (const auto& [key, fam] : efficiencyKeys()) {
      if (!re.has(key)) continue;
      FW_ASSIGN_OR_RETURN(double v, re.posNum(key));
      if (v > 1000) return re.err(key, "must be at most 1000");
      *p.efficiency.field(fam) = v;
    }
    FW_TRY_STATUS(re.noUnknownKeys());
  }

  if (!p.isCpu()) {
    // Consistency: the smallest unit of work must fit its buffers, or the cost model has no tiling.
    const auto eb = static_cast<int64_t>(dtypeSize(p.dtype));
    if (p.cubeM * p.cubeN * p.accBytes > p.l0cBytes)
      return r.err("l0c_bytes", "must hold one m×n accumulator fractal (" +
                                    std::to_string(p.cubeM * p.cubeN * p.accBytes) + " bytes)");
    if (2 * p.cubeM * p.cubeK * eb > p.l0aBytes)
      return r.err("l0a_bytes", "must hold two m×k fractals (double buffer, " +
                                    std::to_string(2 * p.cubeM * p.cubeK * eb) + " bytes)");
    if (2 * p.cubeK * p.cubeN * eb > p.l0bBytes)
      return r.err("l0b_bytes", "must hold two k×n fractals (double buffer, " +
                                    std::to_string(2 * p.cubeK * p.cubeN * eb) + " bytes)");
    if (2 * (p.cubeM + p.cubeN) * p.cubeK * eb > p.l1Bytes)
      return r.err("l1_bytes", "must hold a double-buffered m×k and k×n fractal pair");
    if (4 * p.vectorLanes * eb > p.ubBytes)
      return r.err("ub_bytes", "must hold four vector registers' worth of data (" +
                                   std::to_string(4 * p.vectorLanes * eb) + " bytes)");

  }

  FW_ASSIGN_OR_RETURN(const json* notes, r.get("notes"));
  if (!notes->is_array()) return r.err("notes", "must be an array of {field, source, estimate}");
  for (size_t i = 0; i < notes->size(); ++i) {
    const json& n = (*notes)[i];
    const std::string np = r.at("notes") + "[" + std::to_string(i) + "]";
    if (!n.is_object()) return Error::badInput(sourceName + ": " + np + ": must be an object");
    Reader rn(n, np, sourceName);
    HwNote note;
    FW_ASSIGN_OR_RETURN(note.field, rn.str("field"));
    FW_ASSIGN_OR_RETURN(note.source, rn.str("source"));
    FW_ASSIGN_OR_RETURN(const json* est, rn.get("estimate"));
    if (!est->is_boolean()) return rn.err("estimate", "must be true or false");
    note.estimate = est->get<bool>();
    FW_TRY_STATUS(rn.noUnknownKeys());
    // A note must point at a field that exists, so a renamed field cannot orphan its caveat.
    if (note.field != "*") {
      const std::string key = note.field.rfind("$.", 0) == 0 ? note.field.substr(2) : note.field;
      const std::string head = key.substr(0, key.find('.'));
      if (!j.contains(head) || head == "notes")
        return rn.err("field", "names no field of the profile (\"" + note.field + "\")");
    }
    p.notes.push_back(std::move(note));
  }
  FW_TRY_STATUS(r.noUnknownKeys());
  return p;
}

Result<HwProfile> parseHwProfileText(const std::string& text, const std::string& sourceName) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (j.is_discarded()) return Error::badInput(sourceName + ": not valid JSON");
  return parseHwProfile(j, sourceName);
}

Result<HwProfile> loadHwProfileFile(const std::string& path) {
  auto bytes = readFileBytes(path);
  if (!bytes.ok()) return bytes.error().context("hardware profile");
  const std::string base = std::filesystem::path(path).filename().string();
  auto p = parseHwProfileText(*bytes, base);
  if (p.ok()) p->sourcePath = path;
  return p;
}

nlohmann::json hwProfileToJson(const HwProfile& p) {
  json j = json::object();
  j["name"] = p.name;
  if (!p.description.empty()) j["description"] = p.description;
  if (p.isCpu()) j["kind"] = "cpu";
  j["dtype"] = p.dtype == DType::Float16    ? "float16"
               : p.dtype == DType::BFloat16 ? "bfloat16"
               : p.dtype == DType::Int8     ? "int8"
                                            : "float32";
  j["clock_hz"] = p.clockHz;
  j["cube_cores"] = p.cubeCores;
  j["vector_cores"] = p.vectorCores;
  if (!p.isCpu()) {
    j["cube"] = {{"m", p.cubeM}, {"n", p.cubeN}, {"k", p.cubeK}, {"acc_bytes", p.accBytes}};
    j["fractal_c0"] = p.fractalC0;
    j["vector_lanes"] = p.vectorLanes;
    j["l0a_bytes"] = p.l0aBytes;
    j["l0b_bytes"] = p.l0bBytes;
    j["l0c_bytes"] = p.l0cBytes;
    j["l1_bytes"] = p.l1Bytes;
    j["ub_bytes"] = p.ubBytes;
  } else {
    j["cpu"] = {{"gemm_flops_per_s", p.cpu.gemmFlops},
                {"conv_flops_per_s", p.cpu.convFlops},
                {"cache_bandwidth_bytes_per_s", p.cpu.cacheBandwidth}};
    if (p.cpu.groupedConvFlops > 0) j["cpu"]["grouped_conv_flops_per_s"] = p.cpu.groupedConvFlops;
    if (p.cpu.coldBandwidth > 0) j["cpu"]["cold_bandwidth_bytes_per_s"] = p.cpu.coldBandwidth;
    if (p.cpu.pointwisePositionBlock > 1) j["cpu"]["pointwise_position_block"] = p.cpu.pointwisePositionBlock;
    if (p.cpu.convChannelBlock > 1) j["cpu"]["conv_channel_block"] = p.cpu.convChannelBlock;
    if (!p.cpu.cacheDropsBytes.empty()) j["cpu"]["cache_drops_bytes"] = p.cpu.cacheDropsBytes;
    if (!p.cpu.opEfficiency.empty()) j["cpu"]["op_efficiency"] = p.cpu.opEfficiency;
    if (!p.cpu.opCallS.empty()) j["cpu"]["op_call_s"] = p.cpu.opCallS;
    if (!p.cpu.opRowS.empty()) j["cpu"]["op_row_s"] = p.cpu.opRowS;
    if (!p.cpu.coldCallS.empty()) j["cpu"]["cold_call_s"] = p.cpu.coldCallS;
    if (!p.cpu.coldCallCurve.empty()) {
      json c = json::array();
      for (const auto& pt : p.cpu.coldCallCurve) {
        c.push_back({{"bytes", pt.bytes}, {"vector", pt.vectorS}, {"product", pt.productS}});
        if (p.cpu.hasColdCodeCurve()) c.back()["code"] = pt.codeS;
        if (p.cpu.coldNodeCurve) c.back()["node"] = pt.nodeS;
        if (p.cpu.coldOutsideCurve) c.back()["outside"] = pt.outsideS;
      }
      j["cpu"]["cold_call_curve"] = c;
    }
    if (p.cpu.viewCallS > 0) j["cpu"]["view_call_s"] = p.cpu.viewCallS;
    if (p.cpu.fusedCallS > 0) j["cpu"]["fused_call_s"] = p.cpu.fusedCallS;
    if (p.cpu.coldGather.any())
      j["cpu"]["cold_gather"] = {{"s_per_row", p.cpu.coldGather.perRowS},
                                 {"s_per_byte", p.cpu.coldGather.perByteS}};
    if (p.cpu.coldGather.any() && p.cpu.coldGather.distanceBytes > 0)
      j["cpu"]["cold_gather"]["distance_bytes"] = p.cpu.coldGather.distanceBytes;
    if (p.cpu.coldGather.any() && p.cpu.coldGather.anyFar())
      j["cpu"]["cold_gather"]["far"] = {{"s_per_row", p.cpu.coldGather.far.perRowS},
                                        {"s_per_byte", p.cpu.coldGather.far.perByteS},
                                        {"distance_bytes", p.cpu.coldGather.far.distanceBytes}};
    if (p.cpu.weightReorder.any())
      j["cpu"]["weight_reorder"] = {{"s_per_call", p.cpu.weightReorder.callS},
                                    {"bytes_per_s", p.cpu.weightReorder.bytesPerS}};
    for (const auto& [kind, m] : p.cpu.cubeModels) {
      json jm = json::object();
      for (size_t i = 0; i < m.coef.size(); ++i) jm[cubeCoefficientKeys()[i]] = m.coef[i];
      if (m.cases > 0) jm["cases"] = m.cases;
      jm["rms_log_error"] = m.rmsLogError;
      if (m.weightStreamEfficiency > 0) jm["weight_stream_efficiency"] = m.weightStreamEfficiency;
      if (m.weightStreamPerImage) jm["weight_stream_reads"] = "image";
      if (m.weightStreamShare > 0) jm["weight_stream_share"] = m.weightStreamShare;
      if (!m.projectionKind.empty()) jm["input_projection"] = m.projectionKind;
      if (!m.measuredUs.empty()) {
        json shapes = json::object();
        for (const auto& [shape, us] : m.measuredUs) shapes[shape] = us;
        jm["measured_us"] = shapes;
      }
      j["cpu"]["cube_time_models"][kind] = jm;
    }
    if (p.cpu.runOverhead.any()) {
      const auto& o = p.cpu.runOverhead;
      j["cpu"]["run_overhead"] = {{"s_per_run", o.perRunS},
                                  {"s_per_node", o.perNodeS},
                                  {"s_per_initializer", o.perInitializerS},
                                  {"s_per_io_byte", o.perIoByteS}};
    }
    auto writeCurve = [&](const char* key, const std::vector<std::pair<double, double>>& curve) {
      if (curve.empty()) return;
      json c = json::array();
      for (const auto& [b, bw] : curve) c.push_back({{"bytes", b}, {"bytes_per_s", bw}});
      j["cpu"][key] = c;
    };
    writeCurve("bandwidth_curve", p.cpu.bandwidthCurve);
    writeCurve("stream_curve", p.cpu.streamCurve);
    writeCurve("weight_stream_curve", p.cpu.weightStreamCurve);
    auto writeShares = [&](const char* key, const char* distanceKey,
                           const CpuFigures::ProductStreamSet& set) {
      if (set.empty()) return;
      json c = json::array();
      for (const auto& [rows, sh] : set.share) {
        json e = {{"rows", rows}, {"share", sh}};
        for (const auto& [r, us] : set.us)
          if (static_cast<double>(r) == rows) e["measured_us"] = us;
        c.push_back(e);
      }
      j["cpu"][key] = c;
      j["cpu"][distanceKey] = set.distance;
    };
    writeShares("product_stream_share", "product_stream_distance_bytes", p.cpu.productStream);
    writeShares("product_stream_share_far", "product_stream_far_distance_bytes", p.cpu.productStreamFar);
    if (!p.cpu.farCurve.empty()) {
      json c = json::array();
      for (const auto& [b, sh] : p.cpu.farCurve) c.push_back({{"bytes", b}, {"share", sh}});
      j["cpu"]["far_curve"] = c;
      if (!p.cpu.farCurveVector.empty()) {
        json v = json::array();
        for (const auto& [b, sh] : p.cpu.farCurveVector) v.push_back({{"bytes", b}, {"share", sh}});
        j["cpu"]["far_curve_vector"] = v;
      }
      j["cpu"]["far_s_per_byte"] = p.cpu.farSPerByte;
    }
    if (p.cpu.probe.valid()) j["cpu"]["speed_probe_us"] = toJson(p.cpu.probe);
  }
  j["l2_bytes"] = p.l2Bytes;
  j["hbm_bandwidth_bytes_per_s"] = p.hbmBandwidth;
  j["hbm_capacity_bytes"] = p.hbmCapacityBytes;
  j["launch_us"] = p.launchUs;
  j["host_dispatch_us"] = p.hostDispatchUs;
  json eff = json::object();
  for (const auto& [key, fam] : efficiencyKeys())
    if (p.efficiency.of(fam) != 1.0) eff[key] = p.efficiency.of(fam);
  if (!eff.empty()) j["efficiency"] = eff;
  json notes = json::array();
  for (const auto& n : p.notes) notes.push_back({{"field", n.field}, {"source", n.source}, {"estimate", n.estimate}});
  j["notes"] = notes;
  return j;
}

std::string hwProfileDir() {
  if (const char* env = std::getenv("FW_HW_DIR"); env && *env) return env;
  return std::string(FW_RESOURCE_DIR) + "/hw";
}

std::vector<std::string> listHwProfiles() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(hwProfileDir(), ec))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string defaultHwProfileName() { return "ascend910b2"; }

Result<HwProfile> resolveHwProfile(const std::string& nameOrPath) {
  const std::string spec = nameOrPath.empty() ? defaultHwProfileName() : nameOrPath;
  const bool looksLikeFile = spec.find('/') != std::string::npos ||
                             (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json");
  if (looksLikeFile) return loadHwProfileFile(spec);
  const std::string path = hwProfileDir() + "/" + spec + ".json";
  if (!std::filesystem::exists(path)) {
    std::string known;
    for (const auto& n : listHwProfiles()) known += (known.empty() ? "" : ", ") + n;
    return Error::badInput("unknown hardware profile '" + spec + "' (known: " + known +
                           "; or pass a .json file)");
  }
  return loadHwProfileFile(path);
}

}  // namespace fw::sim
