#pragma once
// Wall-clock timing for result structs (seconds as double). Monotonic, never the system clock.

#include <chrono>

namespace coulomb {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace coulomb
