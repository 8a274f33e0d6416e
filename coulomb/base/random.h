#pragma once
// A small deterministic random generator. std::uniform_real_distribution is implementation
// defined, so results would differ between standard libraries; SplitMix64 plus our own
// mapping to [0, 1) gives the same stream everywhere for the same seed.

#include <cstdint>

namespace coulomb {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t Next() {
    std::uint64_t x = (state_ += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  // Standard normal by Box–Muller (one of the pair is discarded; simplicity over speed).
  double Normal();
  // Uniform integer in [0, n).
  std::uint64_t Below(std::uint64_t n) { return n == 0 ? 0 : Next() % n; }

 private:
  std::uint64_t state_;
};

}  // namespace coulomb
