#pragma once
// Contacts of deformable bodies (paper 2 §V; docs/notes/sap-and-deformables.md §2.4). Two kinds:
//
//  * Surface polygons (against convex rigid shapes, with `DeformableModel::rigid_contacts =
//    kSurfacePolygons`): each triangle of the deformable
//    surface clipped to the rigid shape grown by the search distance (its faces, or a round
//    shape's facets, as planes: geometry/shape_surface.h). What is left of a triangle is one
//    contact at its centroid, moving with the triangle's three vertices by the centroid's
//    barycentric weights; gap and normal are the rigid shape's exact signed distance and normal
//    there (point_query.h). The polygons tile the part of the surface that touches or is about to
//    touch the shape, so a rigid corner or edge pressed into a face between vertices is found,
//    and the contact grows with the touching area instead of a vertex at a time. (Drake's current
//    scheme clips the same triangles against a compliant rigid mesh; its 2023 one, paper 2's,
//    clips the rigid surface against the tets, with gaps that need not lie along the normal.)
//  * Vertex contacts: a surface vertex of the deformable body against a rigid shape (analytic
//    signed distance) or against the surface of another deformable body (nearest triangle,
//    barycentric weights). The default against every rigid shape (a resting body on polygons
//    sinks up to about twice the search distance: docs/ARCHITECTURE.md, "Deformable bodies"),
//    and always against triangle meshes, which are not convex, and other deformable bodies.

#include <Eigen/Dense>
#include <array>
#include <string>
#include <vector>

#include "coulomb/fem/deformable_model.h"
#include "coulomb/geometry/collision_world.h"

namespace coulomb::contact {

struct DeformableContact {
  int deformable = 0;  // body A: the normal points into it
  // A's material point: up to three of its vertices with barycentric weights summing to 1 (a
  // vertex contact: one vertex, weight 1; a polygon contact: the corners of surface triangle
  // `triangle`).
  std::array<int, 3> vertices{-1, -1, -1};
  Eigen::Vector3d vertex_weights = Eigen::Vector3d::Zero();
  int triangle = -1;  // index in FemBody::surface of a polygon contact (−1: a vertex contact)
  double area = 0;    // m², of a polygon contact's polygon (0 for a vertex contact)
  // Body B: a rigid geometry of the CollisionWorld (rigid_body −1 when static), or a triangle of
  // another deformable body with the barycentric weights of the nearest point.
  int geometry = -1, rigid_body = -1;
  int other = -1;
  Eigen::Vector3i face = Eigen::Vector3i::Zero();
  Eigen::Vector3d weights = Eigen::Vector3d::Zero();
  Eigen::Vector3d point = Eigen::Vector3d::Zero();    // world, m
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // world, unit, from B into A
  double phi = 0;                                     // m, negative when overlapping
  double mu = 0.5;
  double compliance = 0;  // m/N of the rigid material (0: rigid)
};

// "vertex 12 of 'ball'" or "surface triangle 40 of 'ball'": where on the deformable body a contact
// acts.
std::string DescribeDeformableSide(const fem::DeformableModel& model, const DeformableContact& c);

// Every contact within the search distance, in a deterministic order: bodies, then rigid
// geometries (polygons by triangle, or vertices), then other deformables, then vertices. The search
// distance is `margin` (m) plus how far the body's fastest vertex, and the other side's fastest
// point (rigid bodies: from `body_velocities`, spatial (v, ω) in the body frame as
// multibody::Data keeps them), move in `dt`: a vertex that will meet a surface within the step
// is already a (speculative) contact, which SAP leaves inactive unless the gap would close, so
// impacts do not tunnel.
std::vector<DeformableContact> FindDeformableContacts(
    const fem::DeformableModel& model, const std::vector<fem::FemState>& states,
    const geometry::CollisionWorld& world, const std::vector<math::Transform>& X_world,
    double margin, double dt = 0, const std::vector<math::Vector6d>& body_velocities = {});

}  // namespace coulomb::contact
