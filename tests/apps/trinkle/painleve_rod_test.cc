// The Painlevé rod map against the closed form (derived independently here, from the rod's
// Newton–Euler equations, not from the formulation's code).

#include "apps/coulomb/trinkle/painleve_rod.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace coulomb::trinkle {
namespace {

// For a uniform rod (I = m l²/3) whose contact end slides away from the upper end:
// a_n = (1/m)(1 + 3 cos²θ − 3 μ sin θ cos θ) c_n + (−g + ω² l sin θ).
struct ClosedForm {
  double k, b;
  int Solutions() const { return k > 0 ? 1 : (b > 0 ? 2 : 0); }
};

ClosedForm Expected(const RodState& r) {
  const double s = std::sin(r.angle), c = std::cos(r.angle);
  return {(1 + 3 * c * c - 3 * r.mu * s * c) / r.mass,
          -r.gravity + r.angular_speed * r.angular_speed * r.half_length * s};
}

TEST(PainleveRod, LcpMatchesTheClosedForm) {
  for (double mu : {0.3, 1.0, 2.0}) {
    for (double angle : {0.3, 0.8, 1.2}) {
      RodState rod{mu, angle, 2.0};
      const RodSolutionCount count = CountRodSolutions(rod);
      const ClosedForm truth = Expected(rod);
      EXPECT_NEAR(count.lcp_matrix, truth.k, 1e-12) << "mu " << mu << " angle " << angle;
      EXPECT_NEAR(count.lcp_vector, truth.b, 1e-12) << "mu " << mu << " angle " << angle;
    }
  }
}

TEST(PainleveRod, SolutionMapOverFrictionAndAngle) {
  int none = 0, one = 0, two = 0;
  for (int i = 1; i <= 40; ++i) {
    const double mu = 0.05 * i;  // 0.05 … 2.0
    for (int j = 1; j < 30; ++j) {
      const double angle = j * (std::numbers::pi / 2) / 30;
      for (const double omega : {0.0, 8.0}) {  // b < 0 without spin, b > 0 with fast spin
        const RodState rod{mu, angle, omega};
        const ClosedForm truth = Expected(rod);
        if (std::abs(truth.k) < 1e-9 || std::abs(truth.b) < 1e-9) continue;  // on a boundary
        const RodSolutionCount count = CountRodSolutions(rod);
        ASSERT_TRUE(count.exhaustive);
        EXPECT_EQ(count.solutions, truth.Solutions())
            << "mu " << mu << " angle " << angle << " omega " << omega;
        if (mu <= 4.0 / 3.0) {
          EXPECT_EQ(count.solutions, 1) << "trouble below mu = 4/3";
        }
        (count.solutions == 0 ? none : count.solutions == 1 ? one : two) += 1;
      }
    }
  }
  // Each region is actually visited.
  EXPECT_GT(none, 0);
  EXPECT_GT(one, 0);
  EXPECT_GT(two, 0);
}

TEST(PainleveRod, TroubleStartsJustAboveFourThirdsAtTanThetaTwo) {
  const double angle = std::atan(2.0);
  EXPECT_EQ(CountRodSolutions({4.0 / 3.0 - 1e-3, angle, 0.0}).solutions, 1);
  EXPECT_EQ(CountRodSolutions({4.0 / 3.0 + 1e-3, angle, 0.0}).solutions, 0);
}

}  // namespace
}  // namespace coulomb::trinkle
