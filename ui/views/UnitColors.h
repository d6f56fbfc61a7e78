#pragma once
// One colour per execution unit, shared by the graph views, the timeline and the tables.
#include <QColor>

#include "simulator/Simulator.h"

namespace fwui {

inline QColor unitColor(fw::sim::Unit u) {
  switch (u) {
    case fw::sim::Unit::Cube: return {86, 140, 214};        // blue: matrix engine
    case fw::sim::Unit::Vector: return {236, 160, 64};      // orange: vector engine
    case fw::sim::Unit::CubeVector: return {154, 112, 200}; // purple: fused cube + vector epilogue
    default: return {200, 200, 200};                        // grey: views, no kernel
  }
}

}  // namespace fwui
