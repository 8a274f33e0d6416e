// Point queries against closed forms: the distance to each shape at points outside and inside,
// and the consistency every answer must have (the nearest point lies on the surface, the normal
// is unit and points from the surface to the query point when outside).
#include "coulomb/geometry/point_query.h"

#include <gtest/gtest.h>

#include <cmath>

#include "coulomb/base/random.h"

namespace coulomb::geometry {
namespace {

TEST(PointQuery, AnalyticDistances) {
  EXPECT_NEAR(QueryPoint(HalfSpace{}, {3, -2, 0.25}).phi, 0.25, 1e-15);
  EXPECT_NEAR(QueryPoint(Sphere{0.5}, {0, 0.3, 0.4}).phi, 0.0, 1e-15);
  EXPECT_NEAR(QueryPoint(Sphere{0.5}, {1, 0, 0}).phi, 0.5, 1e-15);
  EXPECT_NEAR(QueryPoint(Sphere{0.5}, {0.1, 0, 0}).phi, -0.4, 1e-15);
  const Box box{{0.5, 1.0, 2.0}};
  EXPECT_NEAR(QueryPoint(box, {0.4, 0.0, 0.0}).phi, -0.1, 1e-15);            // nearest face x
  EXPECT_NEAR(QueryPoint(box, {1.5, 2.0, 0.0}).phi, std::sqrt(2.0), 1e-15);  // nearest edge
  EXPECT_NEAR(QueryPoint(box, {1.5, 2.0, 4.0}).phi, std::sqrt(6.0), 1e-15);  // nearest corner
  EXPECT_TRUE(QueryPoint(box, {0.0, -0.9, 0.0}).normal.isApprox(Eigen::Vector3d(0, -1, 0)));
  const Capsule capsule{0.2, 0.5};
  EXPECT_NEAR(QueryPoint(capsule, {0.5, 0, 0.3}).phi, 0.3, 1e-15);
  EXPECT_NEAR(QueryPoint(capsule, {0, 0, 1.0}).phi, 0.3, 1e-15);
  EXPECT_NEAR(QueryPoint(capsule, {0, 0.05, 0}).phi, -0.15, 1e-15);
  const Cylinder cylinder{0.3, 0.5};
  EXPECT_NEAR(QueryPoint(cylinder, {0.5, 0, 0}).phi, 0.2, 1e-15);
  EXPECT_NEAR(QueryPoint(cylinder, {0, 0, -0.7}).phi, 0.2, 1e-15);
  EXPECT_NEAR(QueryPoint(cylinder, {0.6, 0, 0.9}).phi, 0.5, 1e-15);  // rim: (0.3, 0.4)
  EXPECT_NEAR(QueryPoint(cylinder, {0.25, 0, 0}).phi, -0.05, 1e-15);
  EXPECT_NEAR(QueryPoint(cylinder, {0, 0, 0.45}).phi, -0.05, 1e-15);
  EXPECT_TRUE(QueryPoint(cylinder, {0, 0, 0.45}).normal.isApprox(Eigen::Vector3d::UnitZ()));
}

TEST(PointQuery, NearestPointIsOnTheSurfaceAndNormalsAreConsistent) {
  const Shape shapes[] = {Sphere{0.4}, Box{{0.3, 0.2, 0.5}}, Capsule{0.15, 0.3},
                          Cylinder{0.25, 0.35}};
  SplitMix64 random(7);
  for (const Shape& shape : shapes) {
    for (int k = 0; k < 500; ++k) {
      const Eigen::Vector3d p(random.Uniform(-1, 1), random.Uniform(-1, 1), random.Uniform(-1, 1));
      const PointQuery q = QueryPoint(shape, p);
      SCOPED_TRACE(ShapeName(shape));
      EXPECT_NEAR(q.normal.norm(), 1.0, 1e-12);
      EXPECT_NEAR(QueryPoint(shape, q.closest).phi, 0.0, 1e-12);  // on the surface
      EXPECT_NEAR((p - q.closest).norm(), std::abs(q.phi), 1e-12);
      // Outside, p = closest + φ n exactly; inside, the same holds with φ < 0 (the normal is
      // the outward normal of the nearest face).
      EXPECT_TRUE((q.closest + q.phi * q.normal).isApprox(p, 1e-9)) << p.transpose();
    }
  }
}

}  // namespace
}  // namespace coulomb::geometry
