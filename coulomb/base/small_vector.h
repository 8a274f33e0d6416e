#pragma once
// A vector whose first N elements live inside it, for the small polygons and index lists of the
// narrow phase: a box face's 4 corners clipped by 4 side planes stay within 8, so box contacts
// never reach the heap, while a mesh face with more corners still works (its elements move to
// the heap). Only what those callers use: push_back, indexing, iteration, clear.
// Written here because the standard library has none, and Boost.Container's small_vector would
// make every user of the installed package need Boost's headers for one container.

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

namespace coulomb {

template <typename T, std::size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  SmallVector(std::initializer_list<T> values) {
    for (const T& v : values) push_back(v);
  }
  // Copies and moves touch the live elements only: the clipper copies a face's 16-corner
  // polygon to clip it, and copying (or, before, zeroing) all 384 bytes of the inline storage
  // was a visible share of a box pair's narrow phase.
  SmallVector(const SmallVector& other) { *this = other; }
  SmallVector(SmallVector&& other) noexcept { *this = std::move(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this == &other) return *this;
    size_ = other.size_;
    if (other.on_heap()) {
      heap_ = other.heap_;
    } else {
      heap_.clear();
      std::copy(other.inline_.begin(), other.inline_.begin() + size_, inline_.begin());
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this == &other) return *this;
    size_ = other.size_;
    if (other.on_heap()) {
      heap_ = std::move(other.heap_);
    } else {
      heap_.clear();
      std::move(other.inline_.begin(), other.inline_.begin() + size_, inline_.begin());
    }
    other.clear();
    return *this;
  }
  ~SmallVector() = default;

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

  // Not value-initialized: only [0, size_) is ever read, and zeroing the 16 corners of a polygon
  // at each construction cost more than the clipping that fills four of them.
  std::array<T, N> inline_;
  std::vector<T> heap_;
  std::size_t size_ = 0;
};

}  // namespace coulomb
