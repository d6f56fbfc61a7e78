#pragma once
// Internal to core/exec: the runtime tensor (RtTensor) the interpreter and the kernels work on.
// Not part of the public API (use Executor.h).
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
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/ir/Graph.h"
#include "core/ir/Tensor.h"

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
  // A dtype whose run-time store is its own bytes (float32, int64, bool): fromTensor shares a graph input's
  // bytes, toTensor copies a graph output's once; others are converted element by element.
  static bool storedAsIs(DType dt) { return dt == DType::Float32 || dt == DType::Int64 || dt == DType::Bool; }
  static RtTensor fromTensor(const Tensor& t);  // shares float32/int64/bool bytes, converts others
  // The same for a model's own tensors (initializers, Constant values): a converted copy (float16, int8,
  // int32... weights) is kept per tensor storage while the tensor lives, so a model's weights are
  // converted once, not on every run.
  static RtTensor fromModelTensor(const Tensor& t);
  static RtTensor scalarF(float v);
  static RtTensor scalarI(int64_t v);
  static RtTensor vecI(const std::vector<int64_t>& v);
  Tensor toTensor() const;  // converts back to the logical dtype (an empty Tensor for a sequence or none)
  static RtTensor sequence(DType elem, std::vector<RtTensor> items);
  // `seq` with `t` appended: the new value shares seq's element storage when seq is the longest value on
  // it (the storage grows by one; every value on it sees only its own first elements), else it copies
  // seq's elements once. A decoder's Loop that collects a step's output in a list appended to it by copying
  // every element handle on each trip (session 80: 0.81-0.95 us a trip at 12-64 elements).
  static RtTensor appended(const RtTensor& seq, RtTensor t);
  static RtTensor none(DType elem);  // an optional without a value

  bool defined() const { return dtype != DType::Undefined || kind != Kind::Tensor; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isSequence() const { return kind == Kind::Sequence; }
  bool isNone() const { return kind == Kind::None; }
  // The elements of a sequence (empty for anything else): valid while the value lives and nothing is
  // appended to it.
  std::span<const RtTensor> items() const;
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
  // The owner when the data are a model's own tensor (an initializer or a Constant's value, as stored
  // or as the converted copy kept while it lives; fromModelTensor): the same owner in every run, so a
  // copy in another layout pays off over runs (Gemm.h). Empty for a run's buffers and a caller's inputs.
  std::weak_ptr<const void> constantOwner() const { return stable_ ? hold_ : std::shared_ptr<const void>(); }
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
  bool stable_ = false;                                 // hold_ outlives the run (constantOwner)
  // Kind::Sequence: its first itemCount_ elements of items_, which values appended to it may share
  // (appended): elements are never changed or removed, only added after the longest value's last.
  std::shared_ptr<std::vector<RtTensor>> items_;
  size_t itemCount_ = 0;
};

}  // namespace fw::exec
