#pragma once
// Two 7 cm cubes from the 2 000-body clutter (bench/clutter_bench) at step 200 under the cone:
// the upper sunk 7.8 mm into the lower, both tilted a few degrees and yawed 40° apart, so that an
// edge axis (lower x × upper x, 3.5° from vertical) is 4 % shallower than the upper cube's face
// axis. Contact built on that edge axis is one point, about which the upper cube pivoted and
// sank 6 cm; on a face it is four. Shared by the box–box and the convex-mesh tests.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <vector>

#include "coulomb/geometry/contact_point.h"
#include "coulomb/geometry/shape.h"

namespace coulomb::testing {

inline constexpr double kStackedCubeHalfExtent = 0.035;  // m

inline geometry::Transform LowerStackedCube() {
  Eigen::Matrix3d R;
  R << 0.8599429382701239, -0.5101099435352512, 0.01691119232369124,  //
      0.5088854265842597, 0.8594792551768922, 0.04828076771065911,    //
      -0.03916331867324221, -0.03291284592735145, 0.9986906322998431;
  return {R, Eigen::Vector3d(0.17732057481688582, 0.38077887858981696, 0.3146538017335977)};
}

inline geometry::Transform UpperStackedCube() {
  Eigen::Matrix3d R;
  R << 0.35822516411081706, -0.9333182742841593, -0.02432551510281095,  //
      0.9314473398239889, 0.35548171168499254, 0.07770846667077322,     //
      -0.06387945626406778, -0.05049506455829923, 0.9966793182978466;
  return {R, Eigen::Vector3d(0.1767080034946657, 0.39589653011762255, 0.3782152188116591)};
}

// The contact of the upper cube (A) on the lower (B) is a face manifold: four points sharing the
// normal of one cube's face, each φ the signed distance of its incident point to that face's
// plane (closed form), all overlapping by less than the 7.8 mm the face axis gives.
inline void ExpectStackedCubeFaceManifold(const std::vector<geometry::ContactPoint>& out) {
  ASSERT_EQ(out.size(), 4u);
  const geometry::Transform lower = LowerStackedCube(), upper = UpperStackedCube();
  const bool lower_face = out[0].normal.isApprox(lower.R.col(2), 1e-12);
  const bool upper_face = out[0].normal.isApprox(upper.R.col(2), 1e-12);
  ASSERT_TRUE(lower_face || upper_face) << out[0].normal.transpose();
  const geometry::Transform& reference = upper_face ? upper : lower;
  for (const geometry::ContactPoint& c : out) {
    EXPECT_TRUE(c.normal.isApprox(out[0].normal, 1e-12));
    const Eigen::Vector3d outward = upper_face ? Eigen::Vector3d(-c.normal) : c.normal;
    const double plane = outward.dot(reference.p) + kStackedCubeHalfExtent;
    const Eigen::Vector3d& on_incident = upper_face ? c.witness_b : c.witness_a;
    EXPECT_NEAR(outward.dot(on_incident) - plane, c.phi, 1e-12);
    EXPECT_LT(c.phi, 0.0);
    EXPECT_GT(c.phi, -0.0079);
  }
}

}  // namespace coulomb::testing
