#pragma once
// Errors about user input are values, never exceptions that escape the library or aborts:
// every reader returns Expected<T>, whose error names the file, line and field at fault.

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace coulomb {

struct InputError {
  std::string file;    // path as the user gave it ("" when not from a file)
  int line = 0;        // 1-based; 0 when not known
  std::string field;   // what was being read, e.g. "M[3][7]" or "q"
  std::string reason;  // why it is wrong, in words a user can act on

  // "file:line: field: reason" with the empty parts left out.
  std::string ToString() const;
};

// Reading the value of an Expected that holds an error is a bug in the caller, not bad input:
// it throws this (naming the error it ignored) instead of reading an empty optional.
class BadExpectedAccess : public std::logic_error {
 public:
  explicit BadExpectedAccess(const InputError& error)
      : std::logic_error("value() of an Expected holding an error: " + error.ToString()) {}
};

template <class T>
class Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}           // NOLINT(google-explicit-constructor)
  Expected(InputError error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return value_.has_value(); }
  const T& value() const& {
    Check();
    return *value_;
  }
  T& value() & {
    Check();
    return *value_;
  }
  T&& value() && {
    Check();
    return std::move(*value_);
  }
  const InputError& error() const { return error_; }

 private:
  void Check() const {
    if (!value_) throw BadExpectedAccess(error_);
  }
  std::optional<T> value_;
  InputError error_;
};

}  // namespace coulomb
