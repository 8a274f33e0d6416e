// Deformable contacts against closed forms. A tet box sunk into a half-space: the polygons tile
// the part of its surface below the plane grown by the margin (total area exact), each gap is the
// plane's distance at the centroid, and the barycentric weights give the centroid back. A small
// sphere pressed into the middle of a face whose vertices are all far away: vertex sampling sees
// nothing; the polygons cover the disc where the sphere cuts the face, with the sphere's outward
// normals and signed distance at each centroid.
#include "coulomb/contact/deformable_contacts.h"

#include <gtest/gtest.h>

#include <numbers>

#include "coulomb/contact/deformable_polygon_contacts.h"

namespace coulomb::contact {
namespace {

struct World {
  fem::DeformableModel model;
  std::vector<fem::FemState> states;
  geometry::CollisionWorld world;
};

World BoxOn(const geometry::Shape& shape, const Eigen::Vector3d& at, const Eigen::Vector3i& cells) {
  World w;
  fem::LinearElasticity material;
  material.youngs_modulus = 1e5;
  material.poisson_ratio = 0.3;
  w.model.bodies.push_back(
      fem::MakeFemBody("box", fem::MakeBoxMesh({0.5, 0.5, 0.5}, cells), material, 1000));
  w.states.push_back(fem::MakeRestState(w.model.bodies[0]));
  geometry::CollisionGeometry g;
  g.name = "rigid";
  g.shape = shape;
  g.X_BG.p = at;
  w.world.geometries.push_back(g);
  w.world.margin = 1e-3;
  return w;
}

std::vector<DeformableContact> Find(const World& w) {
  return FindDeformableContacts(w.model, w.states, w.world, {}, w.world.margin);
}

Eigen::Vector3d MaterialPoint(const World& w, const DeformableContact& c) {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (int k = 0; k < 3; ++k) {
    if (c.vertex_weights[k] > 0) p += c.vertex_weights[k] * w.states[0].x.col(c.vertices[k]);
  }
  return p;
}

TEST(DeformablePolygonContacts, HalfSpaceTilesTheSunkenSurface) {
  // The ground's top at z = −0.4 covers the unit box's bottom face and 0.1 of its four sides;
  // grown by the 1 mm margin: 1 + 4 × 0.101 m² of surface.
  World w = BoxOn(geometry::HalfSpace{}, {0, 0, -0.4}, {3, 3, 2});
  w.model.rigid_contacts = fem::RigidContactSampling::kSurfacePolygons;
  const std::vector<DeformableContact> contacts = Find(w);
  ASSERT_FALSE(contacts.empty());
  double area = 0;
  for (const DeformableContact& c : contacts) {
    ASSERT_GE(c.triangle, 0);
    area += c.area;
    EXPECT_LE(c.point.z(), -0.4 + w.world.margin + 1e-12);
    EXPECT_NEAR(c.phi, c.point.z() + 0.4, 1e-12);
    EXPECT_TRUE(c.normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-12));
    EXPECT_NEAR(c.vertex_weights.sum(), 1.0, 1e-12);
    EXPECT_TRUE(MaterialPoint(w, c).isApprox(c.point, 1e-12));
  }
  EXPECT_NEAR(area, 1.0 + 4 * (0.1 + w.world.margin), 1e-12);

  World vertices = w;
  vertices.model.rigid_contacts = fem::RigidContactSampling::kVertices;
  const std::vector<DeformableContact> at_vertices = Find(vertices);
  EXPECT_EQ(at_vertices.size(), 16u);  // the 4 × 4 vertices of the bottom face
  for (const DeformableContact& c : at_vertices) EXPECT_NEAR(c.phi, -0.1, 1e-12);
}

TEST(DeformablePolygonContacts, CompliantPolygonsCoverTheOverlapOnly) {
  // Compliant: no speculative band, so exactly the sunk 1 + 4 × 0.1 m², each polygon a spring of
  // stiffness A g (compliance 1 / (A g)).
  World w = BoxOn(geometry::HalfSpace{}, {0, 0, -0.4}, {3, 3, 2});
  w.model.rigid_contacts = fem::RigidContactSampling::kSurfacePolygons;
  w.model.surface_pressure_gradient = 1e6;
  double area = 0;
  for (const DeformableContact& c : Find(w)) {
    area += c.area;
    EXPECT_LE(c.phi, 1e-12);
    EXPECT_NEAR(c.compliance * c.area * 1e6, 1.0, 1e-12);
  }
  EXPECT_NEAR(area, 1.4, 1e-12);
}

TEST(DeformablePolygonContacts, SpherePokingBetweenVerticesIsFound) {
  const double r = 0.1, depth = 0.05;
  const Eigen::Vector3d centre(0.1, 0.05, 0.5 + r - depth);
  World w = BoxOn(geometry::Sphere{r}, centre, {1, 1, 1});
  w.model.rigid_contacts = fem::RigidContactSampling::kVertices;
  EXPECT_TRUE(Find(w).empty()) << "every vertex is a corner of the box, far from the sphere";

  w.model.rigid_contacts = fem::RigidContactSampling::kSurfacePolygons;
  const std::vector<DeformableContact> contacts = Find(w);
  ASSERT_FALSE(contacts.empty());
  double area = 0, deepest = 0;
  for (const DeformableContact& c : contacts) {
    area += c.area;
    deepest = std::min(deepest, c.phi);
    EXPECT_NEAR(c.point.z(), 0.5, 1e-12);  // on the top face
    const Eigen::Vector3d out = c.point - centre;
    EXPECT_NEAR(c.phi, out.norm() - r, 1e-12);
    EXPECT_TRUE(c.normal.isApprox(out.normalized(), 1e-12));  // out of the sphere, into the box
    EXPECT_TRUE(MaterialPoint(w, c).isApprox(c.point, 1e-12));
  }
  EXPECT_LT(deepest, -0.8 * depth);
  // The sphere grown by the margin cuts the face in a disc of radius √(R² − (r − h)²); the
  // facets, which hold the sphere, cut a little more.
  const double R = r + w.world.margin;
  const double disc = std::numbers::pi * (R * R - (r - depth) * (r - depth));
  EXPECT_GT(area, disc);
  EXPECT_LT(area, 1.1 * disc);
}

}  // namespace
}  // namespace coulomb::contact
