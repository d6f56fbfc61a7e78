#pragma once
// A layout that never takes long: boxes in layers by longest path from the sources (edges that close a
// cycle, which folded groups can make, are ignored for layering), ordered in each layer by the mean
// position of their predecessors, edges drawn straight. It is what a view shows when Graphviz's "dot"
// exceeds its time budget (layoutWithBudget), so a huge expansion still gives a picture at once.
#include <string>

#include "core/util/Result.h"
#include "ui/diagram/Diagram.h"
#include "ui/diagram/Graphviz.h"

namespace fw::diagram {

// Box sizes follow the DOT writer's labels (Helvetica 10 pt); no clusters.
Layout layeredLayout(const Diagram& d);

struct BudgetedLayout {
  Layout layout;
  bool fallback = false;  // Graphviz did not finish within the budget: layeredLayout instead
  std::string note;       // what happened, for the user, when fallback
};
// Graphviz's layout of toDot(d) when it finishes within `budgetSeconds` (<= 0: no budget); else the
// layered layout. The Graphviz run is abandoned, not interrupted (Graphviz has no way to stop a
// layout): it finishes in the background under the Graphviz mutex and its result goes to the layout
// cache, so asking again later gets the Graphviz picture.
Result<BudgetedLayout> layoutWithBudget(const Diagram& d, double budgetSeconds);

}  // namespace fw::diagram
