// The structured spatial operations the dynamics use against the 6 × 6 matrices they replace
// (the textbook forms, Featherstone ch. 2): a transform applied to a motion or a force, a body's
// inertia applied to a motion, and a composite inertia moved to the parent's frame.

#include "coulomb/math/spatial.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "coulomb/base/random.h"

namespace coulomb::math {
namespace {

Vector6d RandomVector(SplitMix64& rng) {
  Vector6d v;
  for (int i = 0; i < 6; ++i) v[i] = rng.Normal();
  return v;
}

Transform RandomTransform(SplitMix64& rng) {
  const Eigen::Vector3d axis = Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal());
  Transform X;
  X.R = Eigen::AngleAxisd(rng.Normal(), axis.normalized()).toRotationMatrix();
  X.p = Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal());
  return X;
}

Inertia RandomInertia(SplitMix64& rng) {
  Inertia I;
  I.mass = 0.5 + rng.Uniform();
  I.com = 0.3 * Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal());
  Eigen::Matrix3d A;
  for (int i = 0; i < 9; ++i) A(i / 3, i % 3) = rng.Normal();
  I.rotational = 0.1 * (A * A.transpose() + Eigen::Matrix3d::Identity());
  return I;
}

void ExpectNear(const Vector6d& a, const Vector6d& b) {
  EXPECT_LE((a - b).norm(), 1e-12 * (1 + b.norm())) << a.transpose() << "\nvs " << b.transpose();
}

void ExpectNear(const Matrix6d& a, const Matrix6d& b) {
  EXPECT_LE((a - b).norm(), 1e-12 * (1 + b.norm())) << a << "\nvs\n" << b;
}

TEST(SpatialTransform, AppliedToAVectorAsItsMatrix) {
  SplitMix64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const Transform X = RandomTransform(rng);
    const Vector6d m = RandomVector(rng), f = RandomVector(rng);
    ExpectNear(X.ApplyMotionToChild(m), X.MotionToChild() * m);
    ExpectNear(X.ApplyMotionToParent(m), X.MotionToParent() * m);
    ExpectNear(X.ApplyForceToParent(f), X.ForceToParent() * f);
    // Power is frame-independent: (X f) · m_parent = f · (X⁻¹ m_parent).
    EXPECT_NEAR(X.ApplyForceToParent(f).dot(m), f.dot(X.ApplyMotionToChild(m)),
                1e-12 * (1 + f.norm() * m.norm()));
  }
}

TEST(SpatialInertia, AppliedToAMotionAsItsMatrix) {
  SplitMix64 rng(12);
  for (int trial = 0; trial < 20; ++trial) {
    const Inertia I = RandomInertia(rng);
    const Vector6d m = RandomVector(rng);
    ExpectNear(I.Apply(m), I.Spatial() * m);
    ExpectNear(OriginInertia::Of(I).Apply(m), I.Spatial() * m);
    ExpectNear(OriginInertia::Of(I).Spatial(), I.Spatial());
  }
}

TEST(SpatialInertia, MovedToTheParentFrameAsTheCongruenceXtIX) {
  SplitMix64 rng(13);
  for (int trial = 0; trial < 20; ++trial) {
    const Inertia a = RandomInertia(rng), b = RandomInertia(rng);
    const Transform X = RandomTransform(rng);
    OriginInertia sum = OriginInertia::Of(a);
    sum += OriginInertia::Of(b);
    const Matrix6d X_up = X.MotionToChild();
    const Matrix6d expected = X_up.transpose() * (a.Spatial() + b.Spatial()) * X_up;
    const OriginInertia moved = sum.InParent(X);
    ExpectNear(moved.Spatial(), expected);
    // The centre of mass moves as a point: h / m = X applied to the child's centre.
    const Eigen::Vector3d com = (a.mass * a.com + b.mass * b.com) / (a.mass + b.mass);
    EXPECT_LE((moved.h / moved.mass - X.Apply(com)).norm(), 1e-12 * (1 + X.p.norm()));
  }
}

}  // namespace
}  // namespace coulomb::math
