#pragma once
// Internal to core/exec: what a kernel sees (OpContext), the op tables each ops_*.cpp contributes to
// the registry (OpRegistry.cpp), and the helpers kernels share. Not part of the public API (use
// Executor.h). Values are RtTensors (RtTensor.h); a run's limits are RunLimits.h.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/RtTensor.h"
#include "core/exec/RunLimits.h"
#include "core/ir/Graph.h"
#include "core/ir/Model.h"
#include "core/util/Result.h"

namespace fw::exec {

class Interpreter;
struct SplitEpilogue;  // Epilogue.h

struct OpContext {
  const Node& node;
  const Attributes& attrs;  // function-body references already resolved
  const Model& model;
  int64_t opset = 17;       // ai.onnx opset in force
  std::vector<const RtTensor*> in;  // nullptr for an omitted optional input
  std::vector<RtTensor> out;        // one per node output; unused outputs may stay undefined
  Interpreter* interp = nullptr;    // for control flow (subgraph execution)
  const void* scope = nullptr;      // the caller's value scope (subgraph outer references)
  // Relu epilogue: the interpreter asks a Conv, BatchNormalization or Add whose only reader is a Relu
  // to apply it (max(x, 0), NaN kept) to its float output; a kernel that did sets reluApplied, else
  // the interpreter applies it after the kernel. The Relu node itself is then skipped.
  bool fuseRelu = false;
  bool reluApplied = false;
  // Split epilogue (Epilogue.h): a MatMul or Gemm whose only reader is this Split may write the Split's
  // outputs into splitParts (one per part) instead of out[0]; else the interpreter splits out[0].
  const SplitEpilogue* splitAfter = nullptr;
  std::vector<RtTensor> splitParts{};

  size_t numIn() const { return in.size(); }
  bool has(size_t k) const { return k < in.size() && in[k] != nullptr && in[k]->defined(); }
  const RtTensor& input(size_t k) const { return *in[k]; }
  bool wants(size_t k) const { return k < node.outputs.size() && node.outputs[k] != kNoId; }

  Error fail(const std::string& msg) const;
  int64_t attrInt(std::string_view n, int64_t def) const { return attrs.intOr(n, def); }
  float attrFloat(std::string_view n, float def) const { return attrs.floatOr(n, def); }
  std::string attrStr(std::string_view n, std::string def) const { return attrs.stringOr(n, std::move(def)); }
  std::vector<int64_t> attrInts(std::string_view n) const {
    return attrs.getInts(n).value_or(std::vector<int64_t>{});
  }
};

using KernelFn = Status (*)(OpContext&);

struct OpEntry {
  const char* opType;
  KernelFn fn;
};

// Each ops_*.cpp contributes one table; the registry concatenates them.
std::vector<OpEntry> elementwiseOps();
std::vector<OpEntry> nnOps();
std::vector<OpEntry> tensorOps();
std::vector<OpEntry> tensorMakeOps();
std::vector<OpEntry> reduceOps();
std::vector<OpEntry> rnnOps();
std::vector<OpEntry> controlOps();
std::vector<OpEntry> resizeOps();
std::vector<OpEntry> poolOps();
std::vector<OpEntry> quantOps();
std::vector<OpEntry> mathOps();
std::vector<OpEntry> linalgOps();
std::vector<OpEntry> gatherScatterOps();
std::vector<OpEntry> sortOps();
std::vector<OpEntry> regionOps();
std::vector<OpEntry> layoutOps();
std::vector<OpEntry> lossOps();
std::vector<OpEntry> normOps();
std::vector<OpEntry> upsampleOps();
std::vector<OpEntry> convIntegerOps();
std::vector<OpEntry> randomOps();
std::vector<OpEntry> signalOps();
std::vector<OpEntry> stringOps();
std::vector<OpEntry> sequenceOps();

KernelFn findKernel(const std::string& opType);  // OpRegistry.cpp
std::vector<std::string> registeredOps();         // sorted
bool isDefaultDomain(const std::string& domain);  // "" or "ai.onnx"

// Shared helpers ---------------------------------------------------------------------------------
// Numpy broadcasting of shapes; error text when incompatible.
Result<std::vector<int64_t>> broadcastShapes(const std::vector<std::vector<int64_t>>& shapes);
// Strides of `dims` aligned to an output of rank `outRank`, 0 where broadcast.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& out);

// Shapes of a batched, broadcast MatMul (numpy rules: a 1-D `a` is [1,K], a 1-D `b` is [K,1], and
// those unit dims are dropped from the output). Shared by MatMul and QLinearMatMul.
struct MatMulShape {
  int64_t M = 0, K = 0, N = 0;
  std::vector<int64_t> aBatch, bBatch, batch, out;
  std::vector<int64_t> aStrides, bStrides;  // per batch dim, counted in matrices
  int64_t batches() const { return numelOf(batch); }
  // Matrix index into a / b for output batch `b`.
  int64_t aMatrix(int64_t b) const { return offsetOf(b, aStrides); }
  int64_t bMatrix(int64_t b) const { return offsetOf(b, bStrides); }
  // The longest run of output matrices, over the last batch axes, whose A and B matrices each advance by a
  // fixed step (counted in matrices; 0 where that input is broadcast along the run): {run, stepA, stepB}.
  // A run starts at every multiple of its length; the executor computes each as one batched product.
  std::array<int64_t, 3> batchRun() const;

 private:
  int64_t offsetOf(int64_t b, const std::vector<int64_t>& st) const;
};
// Error text names both shapes ("inner dims differ: [2,3] x [4,5]").
Result<MatMulShape> matmulShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
int64_t normAxis(int64_t axis, int64_t rank);
// The result type of converting element storage: makes a tensor of `to` from `src`.
RtTensor castTo(const RtTensor& src, DType to);
// float32 view of a numeric tensor (converting ints), and int64 view.
RtTensor asFloat(const RtTensor& t);
RtTensor asInt(const RtTensor& t);
// Bytes per element of a numeric storage class (0 for strings and none).
inline size_t storeBytes(Store s) {
  switch (s) {
    case Store::F32: return 4;
    case Store::I64: return 8;
    case Store::U8: return 1;
    default: return 0;
  }
}
// Copies n consecutive elements of `src` from `so` to `dst` at `d0` (strings by assignment); both of
// one storage class.
inline void copyElems(const RtTensor& src, int64_t so, RtTensor& dst, int64_t d0, int64_t n) {
  if (n <= 0) return;
  if (src.store() == Store::Str) {
    for (int64_t k = 0; k < n; ++k) dst.ms()[d0 + k] = src.s()[so + k];
    return;
  }
  const auto es = static_cast<int64_t>(storeBytes(src.store()));
  std::memcpy(static_cast<char*>(dst.mraw()) + d0 * es, static_cast<const char*>(src.raw()) + so * es,
              static_cast<size_t>(n * es));
}
// Element `so` of `src` into the n elements of `dst` from `d0` (strings by assignment); both of one storage
// class. One by one through copyElems, a ConstantOfShape of [4, 256, 256] floats took 1.7 ms (session 43).
inline void fillElems(const RtTensor& src, int64_t so, RtTensor& dst, int64_t d0, int64_t n) {
  if (n <= 0) return;
  auto fill = [&](auto tag) {
    using U = decltype(tag);
    U v;
    std::memcpy(&v, static_cast<const char*>(src.raw()) + so * static_cast<int64_t>(sizeof v), sizeof v);
    std::fill_n(reinterpret_cast<U*>(dst.mraw()) + d0, n, v);
  };
  switch (src.store()) {
    case Store::Str:
      std::fill_n(dst.ms() + d0, n, src.s()[so]);
      return;
    case Store::F32:
      return fill(uint32_t{});
    case Store::I64:
      return fill(uint64_t{});
    case Store::U8:
      return fill(uint8_t{});
    default:
      return;
  }
}
// Copies `rows` rows of `rowBytes` bytes, row r from srcAt(r) to dstAt(r) (byte pointers): a row of 4 or 8
// bytes with a size the compiler knows, a short one in 16-byte moves, a longer one through memcpy. Through
// copyElems (a memcpy call of a size known at run time) a row cost about 4 ns whatever its size: a RoPE
// export's Concat of two [2, 6, 64, 16, 1] halves along the last axis, 24576 rows of one float, took 94-100
// us (session 35); a Gather's 128 picks of 16 floats 2.7 us (session 30).
template <class SrcAt, class DstAt>
inline void copyRows(int64_t rows, int64_t rowBytes, const SrcAt& srcAt, const DstAt& dstAt) {
  auto each = [&](auto copyRow) {
    for (int64_t r = 0; r < rows; ++r) copyRow(dstAt(r), srcAt(r));
  };
  if (rowBytes == 4)
    each([](char* d, const char* s) { std::memcpy(d, s, 4); });
  else if (rowBytes == 8)
    each([](char* d, const char* s) { std::memcpy(d, s, 8); });
  else if (rowBytes % 16 == 0 && rowBytes <= 256)
    each([rowBytes](char* d, const char* s) {
      for (int64_t b = 0; b < rowBytes; b += 16) std::memcpy(d + b, s + b, 16);
    });
  else
    each([rowBytes](char* d, const char* s) { std::memcpy(d, s, static_cast<size_t>(rowBytes)); });
}
// An integer of logical type `t` from its two's-complement bits: wraps like the ONNX type does
// (int64 storage holds every integer type).
inline int64_t wrapInt(DType t, uint64_t v) {
  switch (t) {
    case DType::Int8: return static_cast<int8_t>(v);
    case DType::UInt8: return static_cast<uint8_t>(v);
    case DType::Int16: return static_cast<int16_t>(v);
    case DType::UInt16: return static_cast<uint16_t>(v);
    case DType::Int32: return static_cast<int32_t>(v);
    case DType::UInt32: return static_cast<uint32_t>(v);
    default: return static_cast<int64_t>(v);
  }
}
// y = f(x) elementwise for a floating input (float32 storage), split over the thread pool; the
// output keeps the input's logical dtype. unaryFloatArray's f works on arrays, f(in, out, n), once per
// chunk of the pool (FastMath.h); unaryFloat's f on one element.
Status unaryFloatArray(OpContext& c, const std::function<void(const float*, float*, int64_t)>& f, int64_t costPerItem = 4);
template <class F>
Status unaryFloat(OpContext& c, F f, int64_t costPerItem = 4) {
  return unaryFloatArray(
      c,
      [f](const float* a, float* o, int64_t n) {
        // A local copy of the functor and restrict pointers: a store to o[i] could otherwise alias the
        // functor's captures (LeakyRelu's alpha), reloading them every element and keeping the loop
        // scalar (LeakyRelu ran at 4 ns an element).
        const F fn = f;
        const float* __restrict in = a;
        float* __restrict out = o;
        for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
      },
      costPerItem);
}

// Contiguous strides.
std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims);
std::string dimsStr(const std::vector<int64_t>& d);
// The ONNX name of a tensor's logical type, for error text (ops_math.cpp).
std::string typeName(const RtTensor& t);

// Run `fn(begin, end)` over [0, n), split into a few contiguous ranges run on the executor's thread
// pool (ThreadPool.h) when n*costPerItem is large enough to pay for waking a worker.
void parallelFor(int64_t n, int64_t costPerItem, const std::function<void(int64_t, int64_t)>& fn);

// Control flow entry: run the subgraph held by attribute `attr` of ctx.node with the given inputs,
// resolving outer references through ctx.scope. Implemented by the interpreter (Executor.cpp).
Result<std::vector<RtTensor>> runSubgraph(OpContext& ctx, const Graph& g, const std::vector<RtTensor>& inputs,
                                          const std::string& attr);
// Records what a control-flow node did in ExecOptions::trace (if any): an If's branch, a loop's trips.
void traceControlFlow(OpContext& ctx, int branch /* 1 then, 0 else, -1 n/a */, int64_t trips);

}  // namespace fw::exec
