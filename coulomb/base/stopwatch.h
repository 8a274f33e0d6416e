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
  // Seconds since construction or the previous Lap, and restarts (for stage profiles).
  double Lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace coulomb
