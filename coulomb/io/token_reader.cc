#include "coulomb/io/token_reader.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace coulomb::io {

std::string_view TokenReader::NextToken(const std::string& field) {
  while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  if (pos_ >= text_.size()) throw ParseFailure(line_, field, "unexpected end of file (truncated?)");
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  return std::string_view(text_).substr(start, pos_ - start);
}

bool TokenReader::AtEnd() {
  while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  return pos_ >= text_.size();
}

double TokenReader::NextDouble(const std::string& field) {
  const std::string token(NextToken(field));
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || *end != '\0') {
    throw ParseFailure(line_, field, "'" + token + "' is not a number");
  }
  if (std::isnan(value)) throw ParseFailure(line_, field, "value is NaN");
  if (std::isinf(value)) throw ParseFailure(line_, field, "value is infinite ('" + token + "')");
  return value;
}

std::int64_t TokenReader::NextInt(const std::string& field, std::int64_t lo, std::int64_t hi) {
  const std::string_view token = NextToken(field);
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || ptr != token.data() + token.size()) {
    throw ParseFailure(line_, field, "'" + std::string(token) + "' is not an integer");
  }
  if (value < lo || value > hi) {
    throw ParseFailure(line_, field,
                       std::to_string(value) + " is out of range [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "]");
  }
  return value;
}

}  // namespace coulomb::io
