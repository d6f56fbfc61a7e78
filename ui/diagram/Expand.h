#pragma once
// Expanding a folded group in place: only the group's contents are laid out (Graphviz, under the view's
// budget, cached by DOT text like every layout), and they are put where the group's box was. The rest of
// the picture keeps its shape: boxes right of the group move right, boxes left of it move left and boxes
// below it move down, each by just the room the contents need, so nothing overlaps and nothing else is
// rearranged. Edges keep their routes (their points follow the same shift); edges that now end inside
// the group are drawn as fresh curves to the box they reach.
#include <optional>
#include <string>

#include "core/util/Result.h"
#include "ui/diagram/Diagram.h"
#include "ui/diagram/Layered.h"

namespace fw::diagram {

// The boxes of `d` that `scope` shows when expanded: their scope is `scope` or lies below it.
bool insideScope(const DiagramBox& b, const std::string& scope);

// `next` must be `prev` with the scope box `scope` opened: every box of `next` outside the scope is a box
// of `prev` (same id) that `prevLayout` placed, and `prev` has the scope box. Then the layout of `next`
// built as described above (fallback/note say whether the contents needed the layered layout);
// nullopt when `next` is not such an expansion (the caller lays out in full). Errors come from Graphviz.
std::optional<Result<BudgetedLayout>> expandInPlace(const Diagram& prev, const Layout& prevLayout, const Diagram& next,
                                                    const std::string& scope, double budgetSeconds);

}  // namespace fw::diagram
