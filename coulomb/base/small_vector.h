#pragma once
// A vector whose first N elements live inside it, for the small polygons and index lists of the
// narrow phase: a box face's 4 corners clipped by 4 side planes stay within 8, so box contacts
// never reach the heap, while a mesh face with more corners still works (its elements move to
// the heap). Only what those callers use: push_back, indexing, iteration, clear.
// Written here because the standard library has none, and Boost.Container's small_vector would
// make every user of the installed package need Boost's headers for one container.

#include <array>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace coulomb {

template <typename T, std::size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  SmallVector(std::initializer_list<T> values) {
    for (const T& v : values) push_back(v);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return on_heap() ? heap_.data() : inline_.data(); }
  const T* data() const { return on_heap() ? heap_.data() : inline_.data(); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

  void push_back(const T& value) {
    if (!on_heap()) {
      if (size_ < N) {
        inline_[size_++] = value;
        return;
      }
      heap_.assign(inline_.begin(), inline_.end());
    }
    heap_.push_back(value);
    ++size_;
  }
  void clear() {
    size_ = 0;
    heap_.clear();  // keeps its capacity
  }

 private:
  // The elements are on the heap exactly when there are more than N of them.
  bool on_heap() const { return size_ > N; }

  std::array<T, N> inline_{};
  std::vector<T> heap_;
  std::size_t size_ = 0;
};

}  // namespace coulomb
