// The Lorentz-cone algebra of the cone interior-point method, against the defining properties:
// the Nesterov–Todd scaling maps x and y to the same point (W x = W⁻¹ y, so W² x = y), Divide
// inverts the Jordan product, and MaxStep ends exactly on the cone's boundary.

#include "coulomb/complementarity/second_order_cone.h"

#include <gtest/gtest.h>

#include "coulomb/base/random.h"

namespace coulomb {
namespace {

Eigen::Vector3d RandomInterior(SplitMix64& rng) {
  Eigen::Vector3d x(0, rng.Uniform(-3, 3), rng.Uniform(-3, 3));
  // From deep inside to 1e-9 off the boundary.
  x[0] = x.tail<2>().norm() + std::pow(10.0, rng.Uniform(-9, 1));
  return x;
}

TEST(SecondOrderCone, NesterovToddScalingMapsBothPointsToLambda) {
  SplitMix64 rng(5);
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Vector3d x = RandomInterior(rng), y = RandomInterior(rng);
    const soc::NtScaling s = soc::Scale(x, y);
    const double scale = x.norm() * y.norm();
    EXPECT_LE((s.W * s.W * x - y).norm(), 1e-9 * (y.norm() + s.W.norm() * s.W.norm() * x.norm()))
        << "trial " << trial;
    EXPECT_LE((s.W * s.W_inverse - Eigen::Matrix3d::Identity()).norm(),
              1e-9 * s.W.norm() * s.W_inverse.norm());
    EXPECT_TRUE(s.W.isApprox(s.W.transpose(), 1e-12));
    EXPECT_TRUE(soc::Interior(s.lambda));
    // λ ∘ λ carries the complementarity: its first entry is xᵀy.
    EXPECT_NEAR(soc::Product(s.lambda, s.lambda)[0], x.dot(y), 1e-9 * scale);
  }
}

TEST(SecondOrderCone, DivideInvertsTheJordanProduct) {
  SplitMix64 rng(6);
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Vector3d lambda = RandomInterior(rng);
    const Eigen::Vector3d d(rng.Uniform(-2, 2), rng.Uniform(-2, 2), rng.Uniform(-2, 2));
    const Eigen::Vector3d z = soc::Divide(lambda, d);
    EXPECT_LE((soc::Product(lambda, z) - d).norm(), 1e-6 * (1 + z.norm() * lambda.norm()));
  }
  // e = (1, 0, 0) is the identity.
  const Eigen::Vector3d v(0.3, -2, 5);
  EXPECT_EQ(soc::Product(Eigen::Vector3d::UnitX(), v), v);
}

TEST(SecondOrderCone, MaxStepEndsOnTheBoundary) {
  SplitMix64 rng(7);
  int bounded = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Vector3d x = RandomInterior(rng);
    const Eigen::Vector3d dx(rng.Uniform(-2, 2), rng.Uniform(-2, 2), rng.Uniform(-2, 2));
    const double step = soc::MaxStep(x, dx);
    ASSERT_GT(step, 0);
    EXPECT_TRUE(soc::Interior(x + 0.999 * step * dx) || !std::isfinite(step));
    if (std::isfinite(step)) {
      ++bounded;
      const Eigen::Vector3d end = x + step * dx;
      // On the boundary: ‖x̄‖ = x₀ up to rounding, and a bit further is outside.
      EXPECT_NEAR(end[0], end.tail<2>().norm(), 1e-9 * (x.norm() + step * dx.norm()));
      EXPECT_FALSE(soc::Interior(x + 1.001 * step * dx));
    } else {
      // Every step stays inside: dx itself points into the cone.
      EXPECT_GE(dx[0], dx.tail<2>().norm() - 1e-12);
    }
  }
  EXPECT_GT(bounded, 1000);
  EXPECT_EQ(soc::MaxStep(Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(1, 0.5, 0)),
            std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace coulomb
