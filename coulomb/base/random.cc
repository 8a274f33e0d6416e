#include "coulomb/base/random.h"

#include <cmath>
#include <numbers>

namespace coulomb {

double SplitMix64::Normal() {
  double u1 = Uniform();
  while (u1 <= 0.0) u1 = Uniform();
  const double u2 = Uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace coulomb
