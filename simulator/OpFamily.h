#pragma once
// Which unit runs an operator and how the cost model treats it: the cost family of the one op table
// (core/ir/OpInfo.h). An op type missing from it is Unknown, costed as a one-pass vector op and
// reported as a warning; every ai.onnx op of opsets 1-17 has a row.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/Einsum.h"
#include "core/ir/Graph.h"
#include "core/ir/OpInfo.h"

namespace fw::sim {

using OpFamily = CostFamily;

OpFamily opFamily(std::string_view opType);
// The family of this node: opFamily of its type, except a Transpose that only moves axes of size 1
// (a batch-1 [T,1,H] -> [1,T,H]; permKeepsOrder, core/ir/Shape.h): the elements keep their order, so
// it is a view, as a Reshape (the executor hands out the same buffer by the same test); and an Einsum
// that is one batched matrix product (einsumProductOf): a cube op, as the executor runs it on its GEMM
// path and a graph compiler maps it to BatchMatMul; and a Cast to the type its input already has: the
// executor hands out the input (castTo), and a graph compiler drops it as an identity; so is a Pad by
// zeros on every axis (padRows).
OpFamily nodeFamily(const Graph& g, const Node& n);
// An Einsum node's batched product (core/ir/Einsum.h) when its operands' shapes are static.
std::optional<EinsumProduct> einsumProductOf(const Graph& g, const Node& n);
// A value's data when it is constant: an initializer's, or a Constant node's (as exported); nullptr else.
const Tensor* constantValue(const Graph& g, ValueId v);
// The key of a node's measured efficiency (cpu.op_efficiency): its op type, or "Transpose/rows" for a
// Transpose that keeps the innermost axis of size > 1 innermost (a channel shuffle: whole rows move,
// several times faster per element than a transpose that swaps the innermost axis), or "<Op>/scalar"
// for an Add, Sub, Mul or Div of the whole output and one element (the executor's own loop for it), or
// "<Op>/row" for one of the whole output and a row of its trailing axes or one value a row of it (a bias,
// x - mean: one operand streamed, the other at hand), or
// "Pad/rows" for a Pad that keeps the last axis as it is (a window pad of channels-last activations), or
// "Gather/elements" for a Gather whose picks are of 4 or 8 bytes (one element of each row: each pick one
// move, not a row's copy), or "MaxPool/2x2" for a float MaxPool of a 2x2 window at stride 2 over [N, C, H, W]
// without padding or indices (the executor's own loop, not the separable passes), or "<Op>/middle" for a
// float ReduceMean, ReduceSum, ReduceMax or ReduceMin over a middle axis (the executor's column loop), or
// "<Op>/short" for a float ReduceSum or ReduceMean over its last axes in rows of 2 to 7 elements (the
// executor's loop over four rows at a time; timed for its rows only, its elements at the op type's rate).
std::string efficiencyKey(const Graph& g, const Node& n);
// Pad copies its output row by row along the last axis (core/exec/ops_tensor.cpp): a row whose last axis
// is padded takes three copies, one whose last axis is kept one. fwb calibrate times both: "Pad" on the
// spatial axes of [N,C,H,W], "Pad/rows" on those of channels-last activations (Swin's window pads;
// 0.10 ns an element there and in Swin-B's pads of rows of 128 channels, 0.44 for the [N,C,H,W] kind).
// A Pad node's output rows: their length and whether the last axis is kept (not padded); nullopt when
// the input's dims or the pads are not known (and the inferred output shape does not say).
struct PadRows {
  int64_t length = 0;
  bool keepsLastAxis = false;
  bool none = false;  // every pad is a known 0: the executor hands out the input (a view)
  // The executor's row steps: each output row (a run of whole rows in one copy where the last axis is kept),
  // and each block of the axes before the last two that lies wholly in the padding (one fill).
  int64_t rows = 0;
  // The "Pad/rows" kind (efficiencyKey): the last axis kept, or rows of 128 or more, which copy at the long
  // rows' rate, their rows in it.
  bool longRows() const { return keepsLastAxis || length >= 128; }
};
std::optional<PadRows> padRows(const Graph& g, const Node& n);
// The rows of an op that works row by row (core/exec/ops_reduce.cpp): a Softmax's or LogSoftmax's
// (every position but its axis's, the axis -1 when the attribute is absent: opset 13's default; a model
// of an older opset that leaves it out is costed with rows of its last axis; along a middle axis, the
// axis's length times the blocks of 256 columns a position before it), a LayerNormalization's
// (the positions before its axis), a Transpose's that moves whole rows ("Transpose/rows": the output's
// innermost run of axes in input order), a Gather's (its picks: the indices' elements times the
// positions before its axis), a Split's (its parts times the positions before its axis), a Slice's (the
// output's elements over its innermost run that lies in one piece in the input), a
// BatchNormalization's (its images times channels, each plane a row; of [N, C], N), a GlobalAveragePool's or
// GlobalMaxPool's (its images times channels: each plane reduced on its own, since session 71), a float
// ReduceMax's, ReduceMin's, ReduceSum's, ReduceMean's or ReduceLogSumExp's over its last axes (its output
// elements; over a middle axis, none), a TopK's (the insertions into its lines' best k: k (1 + ln(n / k)) a
// line of n, at most n), an Add's, Sub's, Mul's, Div's or comparison's through the executor's general
// broadcast loop or its tile loop (broadcastRows, below), a GridSample's (its grid's positions, N x H_out x
// W_out: each position's taps worked out once), a ScatterElements's (its indices' rows along their last axis:
// each row's place in the data worked out apart); 0 for any other op or unknown dims. cpu.op_row_s is charged
// on these, by efficiencyKey.
int64_t rowWiseRows(const Graph& g, const Node& n);
// The loops of a MaxPool without indices or an AveragePool on the executor's separable passes (core/exec/
// ops_pool.cpp: poolSeparable, poolAlong; not the 2x2 MaxPool's own loop), static dims only. A pass per
// spatial dim with a window of more than one tap, a stride or padding, first dim first, each over the plane
// the passes before it shrank: its taps (outputs times the window) read whole rows of the dims after it
// (contiguous, a loop the compiler vectorises), or, along the last dim at a stride above 1, one value a
// stride apart (strided: 2.1-2.6x a contiguous tap's time in cache; [1, 32, 1024] along the last axis: 0.16
// ns a tap at stride 1, 0.34-0.42 at strides 2-4, 1 thread, session 65); and its rows, the taps of its
// bounded loop: the outputs whose window leaves the input (a row's borders), and at a stride every output of
// a dim before the last, each tap a loop of its own with its bounds checked.
struct PoolLoops {
  double contiguousTaps = 0, stridedTaps = 0;
  int64_t rows = 0;    // the bounded loop's taps, over all passes
  int64_t planes = 0;  // images times channels
};
std::optional<PoolLoops> poolLoops(const Graph& g, const Node& n);
// The table rows a Gather's picks land on, each counted once: with constant indices, the distinct ones;
// else the expected number of distinct rows among its picks drawn uniformly, R (1 - e^(-P / R)) for P
// picks from R rows, each block of the axes before the gathered one apart. A row read once is in cache
// for the rest (a character embedding of 100 rows, 9216 picks). 0 for any other op or unknown dims.
double gatherDistinctRows(const Graph& g, const Node& n);
// The rows of an Add, Sub, Mul, Div or comparison (isComparison) through the executor's general broadcast
// loop (core/exec/Broadcast.h): the output's elements over its innermost run of axes both operands walk as
// one; through its tile loop (a short row repeated down a dense operand) its planes, the last two merged
// axes; 0 for its loops without rows (two whole operands, a single element, a trailing row, one value a row)
// or unknown dims.
int64_t broadcastRows(const Graph& g, const Node& n);
// An Equal, Less, Greater, LessOrEqual or GreaterOrEqual: a comparison into bool, through the same broadcast
// loops as an Add (core/exec/ops_elementwise.cpp: opCompare), its rows counted by broadcastRows.
bool isComparison(const Node& n);

// The value whose storage `v` is: `v` itself, or, for the output of a view (Identity, Reshape, Squeeze...:
// the executor hands out its input's buffer), the value behind its chain of views.
ValueId storageBehindViews(const Graph& g, ValueId v);

// The model weight (initializer) value `v` is, or is a view of (Identity, Reshape, Unsqueeze... hand out
// their input: a PyTorch export that shares one weight between layers reads it through an Identity a
// layer); kNoId when `v` is computed by the run or is a graph input.
ValueId weightBehindViews(const Graph& g, ValueId v);

// How many nodes other than views read weight `w` (weightBehindViews), directly or through views.
int64_t weightReaders(const Graph& g, ValueId w);

// Whether `key` names a variant efficiencyKey can return ("Transpose/rows", "Pad/rows", "Add/scalar", ...).
// Every efficiency key that is not an op type (efficiencyKey's variants), in one list.
const std::vector<std::string>& efficiencyVariants();
bool isEfficiencyVariant(std::string_view key);
const char* opFamilyName(OpFamily f);
bool isVectorFamily(OpFamily f);

}  // namespace fw::sim
