#include "coulomb/geometry/contact_set.h"

namespace coulomb::geometry {

double CombineFriction(double mu_a, double mu_b) {
  return mu_a + mu_b > 0 ? 2 * mu_a * mu_b / (mu_a + mu_b) : 0.0;
}

}  // namespace coulomb::geometry
