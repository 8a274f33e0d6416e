// The contact sweeps of paper 1's acceleration-level problem (acceleration_sweeps.h): the
// one-contact solve on the square pyramid, checked against its complementarity conditions
// written out here (not through the solver's own residual).

#include "coulomb/formulations/trinkle/acceleration_sweeps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace coulomb {
namespace {

// max violation of: r_n ≥ 0, u_n ≥ 0, r_n u_n = 0; |r_j| ≤ μ r_n; u_j = 0 strictly inside the
// bounds, u_j ≤ 0 at +μ r_n, u_j ≥ 0 at −μ r_n (each side within `slack` of its bound counts as
// at it).
double SquarePyramidViolation(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                              const Eigen::Vector3d& r, double slack) {
  const Eigen::Vector3d u = W * r + q;
  double worst = std::max({-r[0], -u[0], std::abs(r[0] * u[0])});
  for (int j = 1; j < 3; ++j) {
    const double bound = mu * r[0];
    worst = std::max(worst, std::abs(r[j]) - bound);
    const bool upper = r[j] >= bound - slack, lower = r[j] <= -bound + slack;
    if (upper && lower) continue;  // r_n = 0: both bounds at once, any u_j
    if (upper) {
      worst = std::max(worst, u[j]);
    } else if (lower) {
      worst = std::max(worst, -u[j]);
    } else {
      worst = std::max(worst, std::abs(u[j]));
    }
  }
  return worst;
}

TEST(AccelerationSweeps, SquarePyramidContactMeetsItsConditions) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1), friction(0.05, 1.5);
  int pressed = 0, sliding = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Eigen::Matrix3d B;
    for (int i = 0; i < 9; ++i) B(i / 3, i % 3) = unit(rng);
    const Eigen::Matrix3d W = B * B.transpose() + 0.05 * Eigen::Matrix3d::Identity();
    const Eigen::Vector3d q(unit(rng), unit(rng), unit(rng));
    const double mu = friction(rng);
    Eigen::Vector3d r;
    SolveSquarePyramidContact(W, q, mu, r);
    EXPECT_LE(SquarePyramidViolation(W, q, mu, r, 1e-12), 1e-10)
        << "trial " << trial << " r " << r.transpose() << " μ " << mu;
    pressed += r[0] > 0;
    sliding += r[0] > 0 && (std::abs(std::abs(r[1]) - mu * r[0]) < 1e-12 ||
                            std::abs(std::abs(r[2]) - mu * r[0]) < 1e-12);
  }
  // The draws reach every regime: separating, sticking and sliding on a facet or an edge.
  EXPECT_GT(pressed, 500);
  EXPECT_GT(sliding, 200);
}

// The solver's residual is zero exactly where the conditions hold, and grows with a violation.
TEST(AccelerationSweeps, ResidualMeasuresEachKindsConditions) {
  const double mu = 0.5;
  using Kind = AccelerationContactKind;
  // Rolling, sticking inside the square with zero tangential velocity: solved.
  EXPECT_EQ(AccelerationContactResidual(Kind::kRolling, mu, {2, 0.3, -0.2}, {0, 0, 0}), 0);
  // At the upper bound with the tangent pushing on: solved; pushing back in: not.
  EXPECT_EQ(AccelerationContactResidual(Kind::kRolling, mu, {2, 1, 0}, {0, -3, 0}), 0);
  EXPECT_NEAR(AccelerationContactResidual(Kind::kRolling, mu, {2, 1, 0}, {0, 0.25, 0}), 0.25,
              1e-15);
  // Sliding: only the normal pair counts (its friction is fixed by κ).
  EXPECT_EQ(AccelerationContactResidual(Kind::kSliding, mu, {2, -1, 0}, {0, 5, 5}), 0);
  EXPECT_NEAR(AccelerationContactResidual(Kind::kSliding, mu, {2, -1, 0}, {0.5, 0, 0}), 0.5, 1e-15);
  EXPECT_NEAR(AccelerationContactResidual(Kind::kFrictionless, 0, {-0.1, 0, 0}, {1, 0, 0}), 0.1,
              1e-15);
}

}  // namespace
}  // namespace coulomb
