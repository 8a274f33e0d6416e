#pragma once
// The bytes a child of RunIsolated (isolated_call.h) answers with: plain values, length-prefixed
// text and arrays, written by the child with Put* and read back by the parent with a
// bounds-checked AnswerCursor, so that a truncated or garbled answer is a failed read, never an
// out-of-range access.

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace coulomb::io {

template <typename T>
void Put(std::string& out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

inline void PutText(std::string& out, const std::string& text) {
  Put(out, static_cast<std::uint32_t>(text.size()));
  out += text;
}

template <typename T>
void PutArray(std::string& out, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  Put(out, static_cast<std::uint64_t>(values.size()));
  if (!values.empty()) {
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }
}

class AnswerCursor {
 public:
  explicit AnswerCursor(const std::string& data) : data_(data) {}
  template <typename T>
  bool Get(T& value) {
    if (data_.size() - at_ < sizeof(T)) return false;
    std::memcpy(&value, data_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool GetText(std::string& text) {
    std::uint32_t size = 0;
    if (!Get(size) || data_.size() - at_ < size) return false;
    text.assign(data_, at_, size);
    at_ += size;
    return true;
  }
  template <typename T>
  bool GetArray(std::vector<T>& values) {
    std::uint64_t size = 0;
    if (!Get(size) || (data_.size() - at_) / sizeof(T) < size) return false;
    values.resize(size);
    if (size > 0) std::memcpy(values.data(), data_.data() + at_, size * sizeof(T));
    at_ += size * sizeof(T);
    return true;
  }

 private:
  const std::string& data_;
  std::size_t at_ = 0;
};

}  // namespace coulomb::io
