#pragma once
// Internal to core/exec: the runtime tensor the kernels work on, the context a kernel sees, and the
// op registry. Not part of the public API (use Executor.h).
//
// Storage classes: every floating type (float16, bfloat16, float32, float64) is computed in float32,
// every integer type in int64, bool as uint8, strings as std::string. `dtype` keeps the logical ONNX
// type so results convert back exactly where the type allows (float64 keeps float32 precision).
//
// A value is a tensor, a sequence of values (SequenceConstruct, SplitToSequence, Loop scan outputs of
// opset 13+), or an empty optional (Optional without input). An optional that holds something is the
// thing itself: OptionalHasElement is true for any tensor or sequence. `dtype` of a sequence or an
// empty optional is its element type (Undefined when not known).
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/ir/Model.h"
#include "core/util/Result.h"

namespace fw::exec {

enum class Store { F32, I64, U8, Str, None };
Store storeOf(DType t);

int64_t numelOf(const std::vector<int64_t>& dims);

class RtTensor {
 public:
  enum class Kind : uint8_t { Tensor, Sequence, None };
  DType dtype = DType::Undefined;
  std::vector<int64_t> dims;
  Kind kind = Kind::Tensor;

  RtTensor() = default;
  // Uninitialised storage for numel(dims) elements of dtype's storage class.
  static RtTensor alloc(DType dtype, std::vector<int64_t> dims);
  static RtTensor zeros(DType dtype, std::vector<int64_t> dims);
  static RtTensor fromTensor(const Tensor& t);  // shares float32/int64/bool bytes, converts others
  static RtTensor scalarF(float v);
  static RtTensor scalarI(int64_t v);
  static RtTensor vecI(const std::vector<int64_t>& v);
  Tensor toTensor() const;  // converts back to the logical dtype (an empty Tensor for a sequence or none)
  static RtTensor sequence(DType elem, std::vector<RtTensor> items);
  static RtTensor none(DType elem);  // an optional without a value

  bool defined() const { return dtype != DType::Undefined || kind != Kind::Tensor; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isSequence() const { return kind == Kind::Sequence; }
  bool isNone() const { return kind == Kind::None; }
  // The elements of a sequence (empty for anything else).
  const std::vector<RtTensor>& items() const;
  Store store() const { return storeOf(dtype); }
  int64_t numel() const { return numelOf(dims); }
  size_t rank() const { return dims.size(); }

  const float* f() const { return static_cast<const float*>(data_); }
  const int64_t* i() const { return static_cast<const int64_t*>(data_); }
  const uint8_t* b() const { return static_cast<const uint8_t*>(data_); }
  const std::string* s() const { return static_cast<const std::string*>(data_); }
  float* mf() { return static_cast<float*>(data_); }
  int64_t* mi() { return static_cast<int64_t*>(data_); }
  uint8_t* mb() { return static_cast<uint8_t*>(data_); }
  std::string* ms() { return static_cast<std::string*>(data_); }
  const void* raw() const { return data_; }
  // The storage this tensor's data lives in (shared by views and copies): while it is alive the
  // address holds the same immutable values, which lets a cache key on the address (OneDnn.h).
  std::weak_ptr<const void> owner() const { return hold_; }
  void* mraw() { return data_; }

  // Same storage, new dims (numel must match).
  RtTensor reshaped(std::vector<int64_t> newDims) const {
    RtTensor r = *this;
    r.dims = std::move(newDims);
    return r;
  }
  // Same values under another logical dtype of the same storage class.
  RtTensor retyped(DType t) const {
    RtTensor r = *this;
    r.dtype = t;
    return r;
  }
  // Element k as double / int64 regardless of storage (for small shape-like tensors).
  double getD(int64_t k) const;
  int64_t getI(int64_t k) const;
  std::vector<int64_t> toInts() const;
  std::vector<float> toFloats() const;

 private:
  std::shared_ptr<const void> hold_;
  void* data_ = nullptr;
  std::shared_ptr<const std::vector<RtTensor>> items_;  // Kind::Sequence
};

class Interpreter;

class BufferPool;  // core/exec/MemoryPlan.h

// Limits of one run (ExecOptions), in force on the thread running the interpreter. A tensor above
// the memory budget, a loop above the iteration cap, a run past its deadline: LimitExceeded, which
// the interpreter turns into a BadInput error naming the node.
struct RunLimits {
  int64_t maxTensorBytes = 0;  // 0 = no limit
  int64_t maxIterations = 0;   // 0 = no limit
  double deadline = 0;         // steady-clock seconds; 0 = none
  BufferPool* pool = nullptr;  // where numeric tensors get their storage; null = the heap
};
struct LimitExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};
class LimitScope {
 public:
  explicit LimitScope(const RunLimits& l);
  ~LimitScope();
  LimitScope(const LimitScope&) = delete;
  LimitScope& operator=(const LimitScope&) = delete;

 private:
  const RunLimits* saved_;
};
const RunLimits* currentLimits();  // null outside a run
double steadySeconds();
// numel and bytes of `dims` for elements of `elemBytes`, or nullopt when the product overflows int64
// (or a dim is negative).
std::optional<int64_t> checkedBytes(const std::vector<int64_t>& dims, int64_t elemBytes);

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
// output keeps the input's logical dtype.
template <class F>
Status unaryFloat(OpContext& c, F f, int64_t costPerItem = 4) {
  if (!c.has(0)) return c.fail("missing input");
  const RtTensor& x = c.input(0);
  if (x.store() != Store::F32) return c.fail("expects a floating-point input, got " + std::string(dtypeName(x.dtype)));
  RtTensor y = RtTensor::alloc(x.dtype, x.dims);
  const float* a = x.f();
  float* o = y.mf();
  parallelFor(x.numel(), costPerItem, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) o[i] = f(a[i]);
  });
  c.out[0] = std::move(y);
  return {};
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
