#pragma once
// Result<T>: the only way errors cross a library boundary. No exception escapes a library.
#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace fw {

// Exit-code aligned error classes (see ARCHITECTURE.md, CLI section).
enum class ErrorCode {
  CheckFailed = 1,  // a verification did not hold (e.g. outputs differ)
  BadInput = 2,     // the user's file, flag or model is wrong
  Internal = 3,     // our bug or an unexpected environment failure
  Cancelled = 4,    // the user (or a newer request) stopped the work: not a failure to report
};

struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;  // names the file, node and field where it can

  static Error badInput(std::string m) { return {ErrorCode::BadInput, std::move(m)}; }
  static Error internal(std::string m) { return {ErrorCode::Internal, std::move(m)}; }
  static Error checkFailed(std::string m) { return {ErrorCode::CheckFailed, std::move(m)}; }
  static Error cancelled(std::string m = "cancelled") { return {ErrorCode::Cancelled, std::move(m)}; }
  bool isCancelled() const { return code == ErrorCode::Cancelled; }

  // Prefix context ("while reading model.onnx: ...").
  Error context(const std::string& where) const { return {code, where + ": " + message}; }
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    assert(!ok());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Error> v_;
};

// Result<void> equivalent.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error e) : err_(std::move(e)) {}  // NOLINT(google-explicit-constructor)
  static Status okStatus() { return {}; }
  bool ok() const { return !err_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const {
    assert(!ok());
    return *err_;
  }

 private:
  std::optional<Error> err_;
};

}  // namespace fw

// Propagate an error from a Result/Status expression.
#define FW_TRY_STATUS(expr)                       \
  do {                                            \
    auto fw_try_s_ = (expr);                      \
    if (!fw_try_s_.ok()) return fw_try_s_.error(); \
  } while (0)

#define FW_CONCAT_INNER(a, b) a##b
#define FW_CONCAT(a, b) FW_CONCAT_INNER(a, b)
#define FW_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.error();             \
  lhs = std::move(tmp).value()
#define FW_ASSIGN_OR_RETURN(lhs, expr) FW_ASSIGN_OR_RETURN_IMPL(FW_CONCAT(fw_try_r_, __LINE__), lhs, expr)
