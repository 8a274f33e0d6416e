#pragma once
// A wall-clock budget for iterative solvers: they check it between iterations and, once it has
// passed, stop with status time_limit and their best iterate. A default Deadline never passes,
// so a solve without a budget stays a function of its input alone (deterministic); with one, the
// answer depends on the machine only when the status says time_limit.

#include <algorithm>
#include <chrono>
#include <cmath>

namespace coulomb {

class Deadline {
 public:
  Deadline() = default;  // none
  // `seconds` from now; +∞ (or NaN) is none.
  static Deadline After(double seconds) {
    Deadline d;
    if (std::isfinite(seconds)) {
      d.end_ = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(std::max(seconds, 0.0)));
    }
    return d;
  }
  bool IsSet() const { return end_ != std::chrono::steady_clock::time_point::max(); }
  bool Passed() const { return IsSet() && std::chrono::steady_clock::now() >= end_; }

 private:
  std::chrono::steady_clock::time_point end_ = std::chrono::steady_clock::time_point::max();
};

}  // namespace coulomb
