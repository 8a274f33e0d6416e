// GJK/EPA against closed forms: spheres (distance of centres minus radii) and boxes (the
// analytic box–box routine), separated, touching, overlapping and concentric.

#include "coulomb/geometry/gjk_epa.h"

#include <gtest/gtest.h>

#include <cmath>

#include "coulomb/base/random.h"

namespace coulomb::geometry {
namespace {

SupportFunction Ball(const Eigen::Vector3d& c, double r) {
  return [c, r](const Eigen::Vector3d& d) { return Eigen::Vector3d(c + r * d.normalized()); };
}

SupportFunction Cuboid(const Eigen::Vector3d& c, const Eigen::Matrix3d& R,
                       const Eigen::Vector3d& h) {
  return [c, R, h](const Eigen::Vector3d& d) {
    const Eigen::Vector3d local = R.transpose() * d;
    Eigen::Vector3d p;
    for (int k = 0; k < 3; ++k) p[k] = local[k] >= 0 ? h[k] : -h[k];
    return Eigen::Vector3d(c + R * p);
  };
}

TEST(GjkEpa, SpheresSeparatedAndOverlappingMatchTheClosedForm) {
  SplitMix64 rng(1);
  for (int trial = 0; trial < 300; ++trial) {
    const Eigen::Vector3d ca(rng.Uniform(-1, 1), rng.Uniform(-1, 1), rng.Uniform(-1, 1));
    const Eigen::Vector3d cb(rng.Uniform(-1, 1), rng.Uniform(-1, 1), rng.Uniform(-1, 1));
    const double ra = rng.Uniform(0.1, 0.8), rb = rng.Uniform(0.1, 0.8);
    const auto d = SignedDistance(Ball(ca, ra), Ball(cb, rb), ca - cb);
    ASSERT_TRUE(d.has_value());
    const double expected = (ca - cb).norm() - ra - rb;
    // Curved shapes: EPA's polytope approaches the sphere from inside, so depth is looser.
    EXPECT_NEAR(d->phi, expected, expected > 0 ? 1e-9 : 2e-3) << "trial " << trial;
    EXPECT_GT(d->normal.dot((ca - cb).normalized()), expected > 0 ? 1 - 1e-9 : 0.99);
    if (expected > 0) {
      EXPECT_NEAR((d->on_a - ca).norm(), ra, 1e-9);
      EXPECT_NEAR((d->on_b - cb).norm(), rb, 1e-9);
    }
  }
}

TEST(GjkEpa, BoxesRestingFlatTouchingAndConcentric) {
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  const Eigen::Vector3d h(0.5, 0.5, 0.5);
  // Resting face on face, 1 mm apart, exactly touching, 1 mm deep: φ and the normal exact.
  for (const double gap : {1e-3, 0.0, -1e-3}) {
    const Eigen::Vector3d ca(0.2, 0.1, 1 + gap);
    const auto d = SignedDistance(Cuboid(ca, I, h), Cuboid(Eigen::Vector3d::Zero(), I, h), ca);
    ASSERT_TRUE(d.has_value());
    EXPECT_NEAR(d->phi, gap, 1e-12);
    if (gap != 0) {
      EXPECT_TRUE(d->normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-9));
    }
  }
  // Concentric equal boxes: depth one full side along some face normal.
  const auto d = SignedDistance(Cuboid(Eigen::Vector3d::Zero(), I, h),
                                Cuboid(Eigen::Vector3d::Zero(), I, h), Eigen::Vector3d::Zero());
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->phi, -1.0, 1e-9);
  EXPECT_NEAR(d->normal.cwiseAbs().maxCoeff(), 1.0, 1e-9);
}

}  // namespace
}  // namespace coulomb::geometry
