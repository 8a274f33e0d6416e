// The math layer against closed forms: contact frames are rotations with the normal first, and
// Armijo backtracking accepts exactly the first step that meets the sufficient-decrease test.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <vector>

#include "coulomb/math/backtracking.h"
#include "coulomb/math/contact_frame.h"

namespace coulomb::math {
namespace {

TEST(ContactFrame, IsARotationWithTheNormalFirstForEveryDirection) {
  std::vector<Eigen::Vector3d> normals = {Eigen::Vector3d::UnitX(), -Eigen::Vector3d::UnitX(),
                                          Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(),
                                          -Eigen::Vector3d::UnitZ()};
  for (int k = 0; k < 50; ++k) {  // a deterministic spiral over the sphere
    const double z = -1 + (2.0 * k + 1) / 50, phi = 2.399963 * k;
    normals.emplace_back(std::sqrt(1 - z * z) * std::cos(phi), std::sqrt(1 - z * z) * std::sin(phi),
                         z);
  }
  for (const Eigen::Vector3d& n : normals) {
    const Eigen::Matrix3d F = ContactFrame(n);
    EXPECT_LT((F.col(0) - n).norm(), 1e-15);
    EXPECT_LT((F.transpose() * F - Eigen::Matrix3d::Identity()).norm(), 1e-14) << n.transpose();
    EXPECT_NEAR(F.determinant(), 1.0, 1e-14);    // right-handed: o = n × t
    EXPECT_TRUE(F.col(1) == ContactTangent(n));  // the same tangent, bit for bit
  }
  // Deterministic and continuous away from the helper switch: a small tilt moves t a little.
  const Eigen::Vector3d n(0.3, 0.4, std::sqrt(1 - 0.25));
  const Eigen::Vector3d tilted = (n + Eigen::Vector3d(1e-6, 0, 0)).normalized();
  EXPECT_LT((ContactTangent(n) - ContactTangent(tilted)).norm(), 1e-5);
}

// merit(α) = (1 − α)² on the full Newton step of f(x) = x² from x = 1: slope −2.
TEST(BacktrackArmijo, TakesTheFullStepWhenItDecreasesEnough) {
  int calls = 0;
  const auto merit = [&](double a) {
    ++calls;
    return (1 - a) * (1 - a);
  };
  const BacktrackingResult r = BacktrackArmijo(merit, 1.0, -2.0);
  EXPECT_TRUE(r.accepted);
  EXPECT_EQ(r.alpha, 1.0);
  EXPECT_EQ(r.merit, 0.0);
  EXPECT_EQ(r.trials, 1);
  EXPECT_EQ(calls, 1);
}

// A step four times too long: merit(α) = (1 − 4α)², slope −8. α = 1 and 1/2 increase the merit;
// α = 1/4 reaches the minimum. With c = 0.5 the test at α is (1 − 4α)² ≤ 1 − 4α, true for
// α ∈ [0, 1/4]: the first accepted trial is α = 1/4.
TEST(BacktrackArmijo, HalvesUntilTheSufficientDecreaseHolds) {
  std::vector<double> tried;
  const auto merit = [&](double a) {
    tried.push_back(a);
    return (1 - 4 * a) * (1 - 4 * a);
  };
  BacktrackingSettings s;
  s.armijo = 0.5;
  const BacktrackingResult r = BacktrackArmijo(merit, 1.0, -8.0, s);
  EXPECT_TRUE(r.accepted);
  EXPECT_EQ(r.alpha, 0.25);
  EXPECT_EQ(tried, (std::vector<double>{1.0, 0.5, 0.25}));
  EXPECT_EQ(r.trials, 3);
}

TEST(BacktrackArmijo, RejectsNonFiniteMeritsAndGivesUpAtItsLimits) {
  // Infinite beyond α = 1/8 (an element would invert), quadratic below it.
  const auto merit = [](double a) { return a > 0.125 ? INFINITY : (1 - a) * (1 - a); };
  const BacktrackingResult r = BacktrackArmijo(merit, 1.0, -2.0);
  EXPECT_TRUE(r.accepted);
  EXPECT_EQ(r.alpha, 0.125);
  EXPECT_EQ(r.trials, 4);
  // Ascent direction: no step is accepted, and the search stops at alpha_min…
  const auto uphill = [](double a) { return 1 + a; };
  BacktrackingSettings s;
  s.alpha_min = 1e-3;
  const BacktrackingResult none = BacktrackArmijo(uphill, 1.0, 1.0, s);
  EXPECT_FALSE(none.accepted);
  EXPECT_EQ(none.alpha, 0.0);
  EXPECT_EQ(none.trials, 10);  // 1, 1/2, …, 1/512 ≥ 1e-3 > 1/1024
  // …or at max_trials.
  s.alpha_min = 0;
  s.max_trials = 7;
  EXPECT_EQ(BacktrackArmijo(uphill, 1.0, 1.0, s).trials, 7);
}

}  // namespace
}  // namespace coulomb::math
