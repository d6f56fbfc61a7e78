#pragma once
// The one op table: for every operator of the ai.onnx opsets 1-17 (and the few contrib ops real
// exports carry, such as com.microsoft's FusedMatMul), how the fusion engine may group it (its
// pattern kind), which unit and cost family the simulator gives it, and how its FLOPs are counted.
// fusion/OpTraits (opKind), simulator/OpFamily (opFamily) and core/ir/OpCost (nodeCost) all read it,
// so they cannot disagree. tests/core/op_info_test.cpp checks that every op the reference executor
// runs has a row.
#include <string_view>
#include <vector>

namespace fw {

// How generic grouping treats an op (after TVM's op kinds): elementwise and broadcast ops chain
// freely; injective ops (pure data movement) may be absorbed into a neighbour; reductions fuse with
// the elementwise ops around them; cube ops take elementwise epilogues; opaque ops (data-dependent
// output shapes, composite cells, host-side work) and control flow stand alone.
enum class OpPattern { ElemWise, Broadcast, Injective, Reduce, Cube, Opaque, ControlFlow };

// Which unit runs an op and how the simulator's cost model treats it.
enum class CostFamily {
  Cube,          // Conv, MatMul, Gemm, their integer/quantized forms, recurrent cells: the cube
  Elementwise,   // one pass over the output on the vector unit, FLOPs per element from the table
  Reduction,     // one pass over the input (ReduceMean, ArgMax, TopK, CumSum, losses)
  Pooling,       // one pass per window element (MaxPool, AveragePool, LpPool)
  Softmax,       // needs a whole row on chip (Softmax, LogSoftmax, Hardmax)
  Norm,          // BatchNorm, LayerNorm, InstanceNorm, LRN, MVN
  DataMovement,  // a copy through UB (Transpose, Concat, Gather, Scatter, Resize, ...)
  View,          // no kernel: Reshape, Identity, Dropout at inference, Shape, sequence bookkeeping
  ControlFlow,   // If, Loop, Scan, SequenceMap: timed as the bodies that run
  Unknown,       // not in the table
};

// How nodeCost counts FLOPs (the formulas are in OpCost.h).
enum class FlopRule {
  None,           // data movement and views: no arithmetic
  PerOut,         // perElem × numel(output 0)
  PerIn,          // perElem × numel(input 0)
  Conv,           // 2 × numel(out) × Cin/group × prod(kernel)
  ConvTranspose,  // 2 × numel(in) × Cout/group × prod(kernel)
  MatMul,         // 2 × numel(out) × K
  Gemm,           // 2 × M × N × K
  Recurrent,      // 2 × seq × dirs × batch × gates·H × (I + H) + gate math per step
  Pool,           // numel(out) × prod(kernel_shape)
  Einsum,         // 2 × numel(out) × last dim of input 0
  SortIn,         // perElem × numel(in) × log2(numel(in))
  Det,            // perElem × numel(in) × n  (an LU factorisation of each n×n matrix)
};

struct OpInfo {
  std::string_view op;
  OpPattern pattern;
  CostFamily family;
  FlopRule flops;
  double perElem;  // PerOut/PerIn/SortIn/Det factor; also the vector instructions per element
  bool standard;   // an ai.onnx op (false: a contrib op, e.g. com.microsoft)
};

// The row of an op type, or nullptr. Lookup is by op type alone; callers that care about the domain
// (fusion treats every non-default domain as opaque) check it themselves.
const OpInfo* findOpInfo(std::string_view opType);
const std::vector<OpInfo>& opInfoTable();
const char* opPatternName(OpPattern p);
const char* costFamilyName(CostFamily f);

}  // namespace fw
