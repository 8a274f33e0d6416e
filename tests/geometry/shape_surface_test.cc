// A shape's surface polygons against closed forms: the divergence theorem turns the polygons into
// the volume they enclose (exact for a box, within the faceting error for round shapes), every
// normal is unit and outward, and clipping and areas agree with hand-computed cases.
#include "coulomb/geometry/shape_surface.h"

#include <gtest/gtest.h>

#include <numbers>

namespace coulomb::geometry {
namespace {

// V = (1/3) Σ A_f (n_f · c_f): the volume a closed, outward-oriented surface encloses.
double EnclosedVolume(const std::vector<SurfacePolygon>& polygons) {
  double volume = 0;
  for (const SurfacePolygon& p : polygons) {
    const PolygonArea a = AreaOf(p.corners);
    volume += a.area * p.normal.dot(a.centroid) / 3;
  }
  return volume;
}

void ExpectOutward(const std::vector<SurfacePolygon>& polygons) {
  for (const SurfacePolygon& p : polygons) {
    EXPECT_NEAR(p.normal.norm(), 1.0, 1e-12);
    EXPECT_GT(p.normal.dot(AreaOf(p.corners).centroid), 0);  // convex about the origin
    // Planar: every corner in the plane of the first, with the stated normal.
    for (const Eigen::Vector3d& c : p.corners) {
      EXPECT_NEAR(p.normal.dot(c - p.corners[0]), 0, 1e-12);
    }
  }
}

TEST(ShapeSurface, BoxFacesEncloseTheBox) {
  const auto polygons = ShapeSurfacePolygons(Box{{0.3, 0.2, 0.1}});
  ASSERT_EQ(polygons.size(), 6u);
  ExpectOutward(polygons);
  EXPECT_NEAR(EnclosedVolume(polygons), 0.6 * 0.4 * 0.2, 1e-15);
}

TEST(ShapeSurface, RoundShapesEncloseTheirVolumeToTheFaceting) {
  const double r = 0.05, l = 0.1, pi = std::numbers::pi;
  struct Case {
    Shape shape;
    double volume;
  };
  for (const Case& c : {Case{Sphere{r}, 4.0 / 3 * pi * r * r * r},
                        Case{Capsule{r, l}, 4.0 / 3 * pi * r * r * r + pi * r * r * 2 * l},
                        Case{Cylinder{r, l}, pi * r * r * 2 * l}}) {
    const auto coarse = ShapeSurfacePolygons(c.shape, 8);
    const auto fine = ShapeSurfacePolygons(c.shape, 32);
    ExpectOutward(fine);
    // Inscribed facets: below the true volume, and closer with more facets.
    const double coarse_error = c.volume - EnclosedVolume(coarse);
    const double fine_error = c.volume - EnclosedVolume(fine);
    EXPECT_GT(fine_error, 0) << ShapeName(c.shape);
    EXPECT_LT(fine_error, 0.03 * c.volume) << ShapeName(c.shape);
    EXPECT_LT(fine_error, 0.3 * coarse_error) << ShapeName(c.shape);
  }
}

TEST(ShapeSurface, HalfSpaceHasNoPolygons) {
  EXPECT_TRUE(ShapeSurfacePolygons(HalfSpace{}).empty());
}

TEST(ClipPolygon, HalvesASquareAndKeepsTheRightSide) {
  const std::vector<Eigen::Vector3d> square{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  // Keep x + y ≤ 1: the lower-left triangle, area 1/2, centroid (1/3, 1/3).
  const PolygonArea half = AreaOf(ClipPolygon(square, {1, 1, 0}, 1));
  EXPECT_NEAR(half.area, 0.5, 1e-15);
  EXPECT_TRUE(half.centroid.isApprox(Eigen::Vector3d(1.0 / 3, 1.0 / 3, 0), 1e-14));
  // Keep x ≤ 0.25: a strip of area 1/4 centred at x = 1/8.
  const PolygonArea strip = AreaOf(ClipPolygon(square, {1, 0, 0}, 0.25));
  EXPECT_NEAR(strip.area, 0.25, 1e-15);
  EXPECT_NEAR(strip.centroid.x(), 0.125, 1e-15);
  EXPECT_TRUE(ClipPolygon(square, {1, 0, 0}, -0.1).empty());
  EXPECT_NEAR(AreaOf(ClipPolygon(square, {0, 0, 1}, 0)).area, 1.0, 1e-15);  // on the plane
}

}  // namespace
}  // namespace coulomb::geometry
