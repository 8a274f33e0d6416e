#pragma once
// The surface-polygon contacts of one deformable body against one convex rigid geometry
// (deformable_contacts.h says what they are and why). Internal to deformable_contacts.cc; its own
// file so the clipping is tested directly.

#include <vector>

#include "coulomb/contact/deformable_contacts.h"
#include "coulomb/geometry/broad_phase.h"

namespace coulomb::contact {

// The rigid shape as planes {x : n·x ≤ d} in the world frame: a half-space's plane, a box's or
// convex mesh's faces, a round shape's facets (geometry/shape_surface.h). Empty for a triangle
// mesh, which is not convex (its contacts stay at vertices).
struct Plane {
  Eigen::Vector3d n;
  double d = 0;
};
std::vector<Plane> ShapePlanes(const geometry::Shape& shape, const math::Transform& X_WG,
                               double reach);

struct PolygonContactInput {
  const fem::FemBody* body = nullptr;
  int deformable = 0;
  const fem::FemState* state = nullptr;
  const geometry::CollisionGeometry* geometry = nullptr;
  int geometry_index = -1;
  math::Transform X_WG;
  geometry::Aabb shape_box;  // the geometry's, inflated by `reach`
  double reach = 0;          // m: the search distance (margin and speculative travel)
  // Pa/m: a compliant surface's pressure per metre of overlap (0: rigid). fem::DeformableModel
  // says what each gives.
  double pressure_gradient = 0;
};

// Appends one contact per surface triangle of the body with a part of positive area inside the
// shape grown by `reach` (rigid: speculative within reach) or inside the shape itself
// (compliant), in triangle order. A rigid polygon's centroid lies above its deepest corner, so a
// resting body's lowest vertices sink up to about twice the reach before the centroids reach the
// surface (docs/ARCHITECTURE.md, "Deformable bodies", for the variants measured).
void AddPolygonContacts(const PolygonContactInput& in, std::vector<DeformableContact>& out);

}  // namespace coulomb::contact
