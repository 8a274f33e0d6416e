// Signed distance to a triangulated closed surface against the exact answer: the boundary of a
// tet box mesh is the box itself, so every query must agree with the analytic box distance —
// including points nearest an edge or a corner, where only the pseudo-normal gets the sign.
#include "coulomb/geometry/surface_distance.h"

#include <gtest/gtest.h>

#include "coulomb/base/random.h"
#include "coulomb/fem/tet_mesh.h"
#include "coulomb/geometry/point_query.h"

namespace coulomb::geometry {
namespace {

TEST(ClosestPointWeights, RegionsOfATriangle) {
  const Eigen::Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_TRUE(ClosestPointWeights({0.2, 0.3, 5}, a, b, c).isApprox(Eigen::Vector3d(0.5, 0.2, 0.3)));
  EXPECT_TRUE(ClosestPointWeights({-1, -1, 0}, a, b, c).isApprox(Eigen::Vector3d(1, 0, 0)));
  EXPECT_TRUE(ClosestPointWeights({0.5, -2, 1}, a, b, c).isApprox(Eigen::Vector3d(0.5, 0.5, 0)));
  EXPECT_TRUE(ClosestPointWeights({1, 1, 0}, a, b, c).isApprox(Eigen::Vector3d(0, 0.5, 0.5)));
}

TEST(SurfaceDistance, BoxMeshSurfaceMatchesTheBox) {
  const Eigen::Vector3d half(0.3, 0.2, 0.1);
  const fem::TetMesh mesh = fem::MakeBoxMesh(half, {6, 4, 2});
  const SurfaceDistance surface(mesh.vertices, fem::BoundaryFaces(mesh), 0.1);
  SplitMix64 random(3);
  int inside = 0, outside = 0;
  for (int k = 0; k < 2000; ++k) {
    const Eigen::Vector3d p(random.Uniform(-0.4, 0.4), random.Uniform(-0.3, 0.3),
                            random.Uniform(-0.2, 0.2));
    const PointQuery exact = QueryPoint(Box{half}, p);
    const auto hit = surface.Query(p, 0.15);
    if (std::abs(exact.phi) > 0.15) continue;
    ASSERT_TRUE(hit.has_value()) << p.transpose();
    EXPECT_NEAR(hit->phi, exact.phi, 1e-12) << p.transpose();
    EXPECT_TRUE(hit->closest.isApprox(exact.closest, 1e-9) ||
                std::abs((hit->closest - p).norm() - std::abs(exact.phi)) < 1e-12);
    EXPECT_NEAR(hit->weights.sum(), 1.0, 1e-12);
    (exact.phi < 0 ? inside : outside) += 1;
  }
  EXPECT_GT(inside, 100);
  EXPECT_GT(outside, 100);
  EXPECT_FALSE(surface.Query({2, 0, 0}, 0.1).has_value());  // farther than the search radius
}

}  // namespace
}  // namespace coulomb::geometry
