// Names of the simulator's enums, as the CLI, reports and JSON write them (SimTypes.h).
#include "simulator/SimTypes.h"

namespace fw::sim {

const char* unitName(Unit u) {
  switch (u) {
    case Unit::None: return "none";
    case Unit::Cube: return "cube";
    case Unit::Vector: return "vector";
    case Unit::CubeVector: return "cube+vector";
  }
  return "none";
}

const char* boundName(Bound b) {
  switch (b) {
    case Bound::None: return "none";
    case Bound::Compute: return "compute";
    case Bound::Memory: return "memory";
    case Bound::Launch: return "launch";
    case Bound::Host: return "host";
  }
  return "none";
}

const char* simModeName(SimMode m) { return m == SimMode::Eager ? "eager" : "graph"; }

const char* controlFlowPolicyName(ControlFlowPolicy p) {
  switch (p) {
    case ControlFlowPolicy::Trace: return "trace";
    case ControlFlowPolicy::Then: return "then";
    case ControlFlowPolicy::Else: return "else";
    case ControlFlowPolicy::Max: return "max";
  }
  return "?";
}

Result<ControlFlowPolicy> parseControlFlowPolicy(const std::string& s) {
  for (auto p : {ControlFlowPolicy::Trace, ControlFlowPolicy::Then, ControlFlowPolicy::Else, ControlFlowPolicy::Max})
    if (s == controlFlowPolicyName(p)) return p;
  return Error::badInput("--control-flow '" + s + "': expected trace, then, else or max");
}

}  // namespace fw::sim
