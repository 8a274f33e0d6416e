#pragma once
// Whitespace-separated tokens of a text file, with line numbers, for the numeric readers.
// Each Next* either returns a value or fails with a ParseFailure naming the line, the field
// being read and the reason; readers catch it at their boundary and return an InputError, so
// nothing escapes the library.

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "coulomb/base/error.h"

namespace coulomb::io {

struct ParseFailure : std::runtime_error {
  ParseFailure(int line, std::string field, const std::string& reason)
      : std::runtime_error(reason), line(line), field(std::move(field)) {}
  int line;
  std::string field;
};

// Runs `parse` (which throws ParseFailure on a defect) and turns failures into InputErrors
// naming `origin`: the boundary every reader of this layer shares.
template <class T, class Parse>
Expected<T> CatchParseFailures(const std::string& origin, Parse&& parse) {
  try {
    return parse();
  } catch (const ParseFailure& e) {
    return InputError{origin, e.line, e.field, e.what()};
  } catch (const std::bad_alloc&) {
    return InputError{origin, 0, "", "out of memory while reading the file"};
  }
}

class TokenReader {
 public:
  explicit TokenReader(std::string text) : text_(std::move(text)) {}

  // A finite double; NaN, Inf, words and truncation are failures naming `field`.
  double NextDouble(const std::string& field);
  // An integer in [lo, hi].
  std::int64_t NextInt(const std::string& field, std::int64_t lo, std::int64_t hi);
  // The next whitespace-separated word (a section name, a keyword); fails at the end.
  std::string NextWord(const std::string& field) { return std::string(NextToken(field)); }
  // True when only whitespace is left.
  bool AtEnd();
  int line() const { return line_; }
  std::size_t size() const { return text_.size(); }

 private:
  std::string_view NextToken(const std::string& field);

  std::string text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace coulomb::io
