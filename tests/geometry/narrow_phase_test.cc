// Narrow-phase pairs against analytic answers.

#include "coulomb/geometry/narrow_phase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "coulomb/base/random.h"
#include "tests/support/stacked_cubes.h"

namespace coulomb::geometry {
namespace {

Transform At(const Eigen::Vector3d& p, const Eigen::Matrix3d& R = Eigen::Matrix3d::Identity()) {
  return {R, p};
}

TEST(NarrowPhase, SphereSphereDistanceAndWitnesses) {
  std::vector<ContactPoint> out;
  // Separated by 0.4: reported with a 0.5 margin (φ = 0.4), not with a zero margin.
  ASSERT_EQ(Collide(Sphere{0.5}, At({1.2, 0, 0}), Sphere{0.3}, At({0, 0, 0}), 0.5, out), 1);
  EXPECT_NEAR(out[0].phi, 0.4, 1e-15);
  out.clear();
  EXPECT_EQ(Collide(Sphere{0.5}, At({1.2, 0, 0}), Sphere{0.3}, At({0, 0, 0}), 0.0, out), 0);
  ASSERT_EQ(Collide(Sphere{0.5}, At({0.7, 0, 0}), Sphere{0.3}, At({0, 0, 0}), 0.0, out), 1);
  EXPECT_NEAR(out[0].phi, -0.1, 1e-15);
  EXPECT_TRUE(out[0].normal.isApprox(Eigen::Vector3d::UnitX()));  // from B into A
  EXPECT_TRUE(out[0].witness_a.isApprox(Eigen::Vector3d(0.2, 0, 0)));
  EXPECT_TRUE(out[0].witness_b.isApprox(Eigen::Vector3d(0.3, 0, 0)));
}

TEST(NarrowPhase, BoxRestingOnHalfSpaceGivesFourCorners) {
  std::vector<ContactPoint> out;
  const Box box{Eigen::Vector3d(0.3, 0.2, 0.1)};
  ASSERT_EQ(Collide(box, At({1, 2, 0.1}), HalfSpace{}, At({0, 0, 0}), 1e-6, out), 4);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, 0.0, 1e-15);
    EXPECT_TRUE(c.normal.isApprox(Eigen::Vector3d::UnitZ()));
    EXPECT_NEAR(std::abs(c.point.x() - 1), 0.3, 1e-15);
    EXPECT_NEAR(std::abs(c.point.y() - 2), 0.2, 1e-15);
  }
  // Lifted beyond the margin: nothing.
  out.clear();
  EXPECT_EQ(Collide(box, At({1, 2, 0.2}), HalfSpace{}, At({0, 0, 0}), 1e-3, out), 0);
}

TEST(NarrowPhase, TiltedBoxOnTiltedPlane) {
  // Box rotated 30° about y, sunk so its lowest edge is 1 cm into a plane through (0,0,0.5)
  // whose normal is tilted too: φ of each corner is its height along the plane normal.
  const Eigen::Matrix3d R_box =
      Eigen::AngleAxisd(std::numbers::pi / 6, Eigen::Vector3d::UnitY()).toRotationMatrix();
  const Eigen::Matrix3d R_plane =
      Eigen::AngleAxisd(0.2, Eigen::Vector3d::UnitX()).toRotationMatrix();
  const Box box{Eigen::Vector3d(0.3, 0.2, 0.1)};
  const Eigen::Vector3d n = R_plane.col(2);
  std::vector<ContactPoint> out;
  const Transform X_box = At({0.1, -0.2, 0.7}, R_box), X_plane = At({0, 0, 0.5}, R_plane);
  Collide(box, X_box, HalfSpace{}, X_plane, 0.05, out);
  int expected = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const Eigen::Vector3d local((corner & 1 ? 1 : -1) * 0.3, (corner & 2 ? 1 : -1) * 0.2,
                                (corner & 4 ? 1 : -1) * 0.1);
    const double height = n.dot(X_box.Apply(local) - X_plane.p);
    if (height <= 0.05) {
      ++expected;
      bool found = false;
      for (const ContactPoint& c : out) found = found || std::abs(c.phi - height) < 1e-14;
      EXPECT_TRUE(found) << "corner " << corner;
    }
  }
  EXPECT_EQ(static_cast<int>(out.size()), expected);
  EXPECT_GT(expected, 0);
}

TEST(NarrowPhase, HalfSpaceFirstFlipsTheNormal) {
  std::vector<ContactPoint> out;
  ASSERT_EQ(Collide(HalfSpace{}, At({0, 0, 0}), Sphere{0.5}, At({0, 0, 0.4}), 0.0, out), 1);
  EXPECT_TRUE(
      out[0].normal.isApprox(-Eigen::Vector3d::UnitZ()));  // from the sphere into the ground
  EXPECT_NEAR(out[0].phi, -0.1, 1e-15);
  EXPECT_NEAR(out[0].witness_a.z(), 0.0, 1e-15);   // on the ground
  EXPECT_NEAR(out[0].witness_b.z(), -0.1, 1e-15);  // deepest point of the sphere
}

TEST(NarrowPhase, CapsuleLyingFlatTouchesAtBothEnds) {
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
  std::vector<ContactPoint> out;
  ASSERT_EQ(Collide(Capsule{0.05, 0.4}, At({0, 0, 0.05}, R), HalfSpace{}, At({0, 0, 0}), 1e-9, out),
            2);
  EXPECT_NEAR(std::abs(out[0].point.y()), 0.4, 1e-12);
  EXPECT_NEAR(out[0].phi, 0.0, 1e-12);
}

TEST(NarrowPhase, CylinderStandingAndTipped) {
  std::vector<ContactPoint> out;
  EXPECT_EQ(Collide(Cylinder{0.1, 0.2}, At({0, 0, 0.2}), HalfSpace{}, At({0, 0, 0}), 1e-9, out), 4);
  out.clear();
  // Tipped by 0.3 rad about x: the lowest rim point is at z = 0.2 cos − 0.2 cos(0.3) − 0.1
  // sin(0.3).
  const double tilt = 0.3;
  const Eigen::Matrix3d R = Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitX()).toRotationMatrix();
  ASSERT_GE(Collide(Cylinder{0.1, 0.2}, At({0, 0, 0.2}, R), HalfSpace{}, At({0, 0, 0}), 0.0, out),
            1);
  EXPECT_NEAR(out[0].phi, 0.2 - 0.2 * std::cos(tilt) - 0.1 * std::sin(tilt), 1e-12);
}

TEST(NarrowPhase, SphereBoxMatchesBruteForceDistance) {
  SplitMix64 rng(5);
  const Box box{Eigen::Vector3d(0.3, 0.2, 0.4)};
  const Transform X_box =
      At({0.2, 0.1, -0.3},
         Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix());
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector3d c(rng.Uniform(-1, 1), rng.Uniform(-1, 1), rng.Uniform(-1, 1));
    const double r = 0.1;
    std::vector<ContactPoint> out;
    const int n = Collide(Sphere{r}, At(c), box, X_box, 10.0, out);
    ASSERT_EQ(n, 1);
    // Independent truth: the exact signed distance function of a box, in the box frame.
    const Eigen::Vector3d local = X_box.Inverse().Apply(c);
    const Eigen::Vector3d outside = (local.cwiseAbs() - box.half_extents).cwiseMax(0.0);
    const double inside = std::min(0.0, (local.cwiseAbs() - box.half_extents).maxCoeff());
    const double signed_distance = outside.norm() + inside;  // exact SDF of a box
    EXPECT_NEAR(out[0].phi, signed_distance - r, 1e-12) << "trial " << trial;
    // The two witnesses are φ apart along the normal.
    EXPECT_NEAR((out[0].witness_a - out[0].witness_b).dot(out[0].normal), out[0].phi, 1e-12);
  }
}

TEST(NarrowPhase, BoxOnBoxFaceContactHasFourPoints) {
  // A 0.2-wide cube resting (1 mm sunk) on a larger box: the upper cube's bottom face corners.
  const Box small{Eigen::Vector3d(0.1, 0.1, 0.1)}, big{Eigen::Vector3d(0.5, 0.5, 0.2)};
  std::vector<ContactPoint> out;
  ASSERT_EQ(Collide(small, At({0.1, -0.2, 0.299}), big, At({0, 0, 0}), 1e-6, out), 4);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, -0.001, 1e-12);
    EXPECT_TRUE(c.normal.isApprox(Eigen::Vector3d::UnitZ()));  // from B (below) into A
    EXPECT_NEAR(std::abs(c.witness_a.x() - 0.1), 0.1, 1e-12);
    EXPECT_NEAR(std::abs(c.witness_a.y() + 0.2), 0.1, 1e-12);
  }
  // Swapped roles: the same points, normal reversed.
  out.clear();
  ASSERT_EQ(Collide(big, At({0, 0, 0}), small, At({0.1, -0.2, 0.299}), 1e-6, out), 4);
  EXPECT_TRUE(out[0].normal.isApprox(-Eigen::Vector3d::UnitZ()));
  // Overhanging: the contact polygon is clipped to the lower box's top face.
  out.clear();
  ASSERT_EQ(Collide(small, At({0.45, 0, 0.3}), big, At({0, 0, 0}), 1e-6, out), 4);
  for (const ContactPoint& c : out) EXPECT_LE(c.point.x(), 0.5 + 1e-12);
}

TEST(NarrowPhase, RotatedBoxOnBoxAndSeparation) {
  const Box cube{Eigen::Vector3d(0.1, 0.1, 0.1)};
  const Eigen::Matrix3d yaw = Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  std::vector<ContactPoint> out;
  // Yawed cube resting exactly on another cube: 4 corners of the clipped octagon, which must
  // surround the centre (the support of the upper cube's weight) with a wide margin.
  const int n = Collide(cube, At({0, 0, 0.2}, yaw), cube, At({0, 0, 0}), 1e-9, out);
  ASSERT_EQ(n, 4);
  for (const ContactPoint& c : out) EXPECT_NEAR(c.phi, 0.0, 1e-12);
  std::vector<double> angle;
  for (const ContactPoint& c : out) {
    EXPECT_GT(c.point.head<2>().norm(), 0.09);  // on the octagon's rim, not near the centre
    angle.push_back(std::atan2(c.point.y(), c.point.x()));
  }
  std::sort(angle.begin(), angle.end());
  angle.push_back(angle.front() + 2 * std::numbers::pi);
  for (int k = 0; k < 4; ++k) EXPECT_LT(angle[k + 1] - angle[k], 0.75 * std::numbers::pi);
  out.clear();
  EXPECT_EQ(Collide(cube, At({0, 0, 0.25}, yaw), cube, At({0, 0, 0}), 1e-3, out), 0);
  // Edge on edge: two cubes rotated 45° about orthogonal horizontal axes, edges crossing.
  const Eigen::Matrix3d Ra =
      Eigen::AngleAxisd(std::numbers::pi / 4, Eigen::Vector3d::UnitX()).toRotationMatrix();
  const Eigen::Matrix3d Rb =
      Eigen::AngleAxisd(std::numbers::pi / 4, Eigen::Vector3d::UnitY()).toRotationMatrix();
  const double reach = 0.1 * std::sqrt(2.0);  // centre-to-edge distance of each tilted cube
  out.clear();
  ASSERT_EQ(Collide(cube, At({0, 0, 2 * reach - 0.01}, Ra), cube, At({0, 0, 0}, Rb), 0.0, out), 1);
  EXPECT_NEAR(out[0].phi, -0.01, 1e-9);
  EXPECT_NEAR(std::abs(out[0].normal.z()), 1.0, 1e-9);
}

TEST(NarrowPhase, TiltedYawedBoxOnBoxKeepsItsFaceManifold) {
  // tests/support/stacked_cubes.h: an edge axis 4 % shallower than a face axis must not win.
  const Box cube{Eigen::Vector3d::Constant(testing::kStackedCubeHalfExtent)};
  const Transform lower = testing::LowerStackedCube(), upper = testing::UpperStackedCube();
  std::vector<ContactPoint> out;
  ASSERT_EQ(Collide(cube, upper, cube, lower, 0.02, out), 4);
  testing::ExpectStackedCubeFaceManifold(out);
}

TEST(NarrowPhase, CapsulePairsAreExact) {
  const Eigen::Matrix3d along_x =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitY()).toRotationMatrix();
  const Eigen::Matrix3d along_y =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
  // Crossed capsules (axes along x and y, 0.2 apart in z): φ = 0.2 − 2 r, separated or not.
  for (const double r : {0.05, 0.12}) {
    std::vector<ContactPoint> out;
    ASSERT_EQ(Collide(Capsule{r, 0.5}, At({0, 0, 0.2}, along_x), Capsule{r, 0.5},
                      At({0, 0, 0}, along_y), 0.15, out),
              1);
    EXPECT_NEAR(out[0].phi, 0.2 - 2 * r, 1e-14) << "r " << r;
    EXPECT_TRUE(out[0].normal.isApprox(Eigen::Vector3d::UnitZ()));
    EXPECT_NEAR((out[0].witness_a - out[0].witness_b).dot(out[0].normal), out[0].phi, 1e-14);
  }
  // Parallel capsules side by side, offset along their axes: the overlap region's distance.
  std::vector<ContactPoint> out;
  ASSERT_EQ(Collide(Capsule{0.1, 0.3}, At({0.3, 0.15, 0}, along_x), Capsule{0.1, 0.3},
                    At({0, 0, 0}, along_x), 0.0, out),
            1);
  EXPECT_NEAR(out[0].phi, -0.05, 1e-14);
  // A sphere beyond the capsule's end cap: 0.85 − 0.5 − 0.2 − 0.1 = 0.05 apart, along +x.
  out.clear();
  ASSERT_EQ(
      Collide(Sphere{0.2}, At({0.85, 0, 0}), Capsule{0.1, 0.5}, At({0, 0, 0}, along_x), 0.1, out),
      1);
  EXPECT_NEAR(out[0].phi, 0.05, 1e-14);
  EXPECT_TRUE(out[0].normal.isApprox(Eigen::Vector3d::UnitX()));
}

TEST(NarrowPhase, CapsuleBoxLyingFlatAcrossAnEdgeAndStanding) {
  const Box table{Eigen::Vector3d(0.5, 0.5, 0.2)};  // top face at z = 0.2
  const Eigen::Matrix3d along_x =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitY()).toRotationMatrix();
  std::vector<ContactPoint> out;
  // Lying flat, 2 mm into the top face: both ends, φ = −0.002, normal +z (from the box into A).
  ASSERT_EQ(
      Collide(Capsule{0.05, 0.2}, At({0, 0, 0.248}, along_x), table, At({0, 0, 0}), 1e-3, out), 2);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, -0.002, 1e-12);
    EXPECT_TRUE(c.normal.isApprox(Eigen::Vector3d::UnitZ()));
  }
  // Tilted 30° from horizontal, centred over the top face: its lower end is the closest point,
  // l sin 30° below the centre; placed 1 mm into the face.
  out.clear();
  const double tilt = std::numbers::pi / 6, l = 0.2, r = 0.05;
  const Eigen::Matrix3d tilted =
      Eigen::AngleAxisd(std::numbers::pi / 2 - tilt, Eigen::Vector3d::UnitY()).toRotationMatrix();
  const Eigen::Vector3d center(0.0, 0.0, 0.2 + r + l * std::sin(tilt) - 0.001);
  ASSERT_EQ(Collide(Capsule{r, l}, At(center, tilted), table, At({0, 0, 0}), 0.0, out), 1);
  EXPECT_NEAR(out[0].phi, -0.001, 1e-9);
  EXPECT_TRUE(out[0].normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-9));
  // Resting along the +x top edge (axis parallel to it, 3 cm out and 3 cm up): a line contact,
  // so both ends, at the exact distance from the edge minus r, normal at 45°.
  out.clear();
  const Eigen::Matrix3d along_y =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
  ASSERT_EQ(Collide(Capsule{r, l}, At({0.53, 0, 0.23}, along_y), table, At({0, 0, 0}), 0.0, out),
            2);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, std::hypot(0.03, 0.03) - r, 1e-9);
    EXPECT_NEAR(c.normal.x(), std::sqrt(0.5), 1e-9);
  }
  // Crossing the edge at a right angle: one contact at the same distance; swapped order flips n.
  out.clear();
  ASSERT_EQ(Collide(Capsule{r, l}, At({0.53, 0, 0.23}, along_x), table, At({0, 0, 0}), 0.0, out),
            1);
  EXPECT_NEAR(out[0].phi, -r + 0.03, 1e-9);  // the segment passes 3 cm above the top face
  out.clear();
  ASSERT_EQ(Collide(table, At({0, 0, 0}), Capsule{r, l}, At({0.53, 0, 0.23}, along_x), 0.0, out),
            1);
  EXPECT_TRUE(out[0].normal.isApprox(-Eigen::Vector3d::UnitZ(), 1e-9));
}

TEST(NarrowPhase, UnsupportedPairsSaySo) {
  std::vector<ContactPoint> out;
  EXPECT_EQ(Collide(HalfSpace{}, At({0, 0, 0}), HalfSpace{}, At({0, 0, 0.1}), 0.0, out), -1);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace coulomb::geometry
