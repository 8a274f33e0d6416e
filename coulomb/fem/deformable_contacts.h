#pragma once
// Contacts of deformable bodies (paper 2 §V; docs/notes/sap-and-deformables.md §2.4), detected at
// the surface vertices: each vertex of a deformable surface against every rigid shape (analytic
// signed distance) and against the surface of every other deformable body (nearest triangle,
// barycentric weights). The contact point is the vertex; the Jacobian is that vertex's velocity
// minus the other side's velocity at the point — the rigid body's, or the triangle vertices'
// weighted by the barycentric weights. Vertex sampling misses a rigid corner that pokes into a
// face between vertices; the mesh resolution bounds that error.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/fem/deformable_model.h"
#include "coulomb/geometry/collision_world.h"

namespace coulomb::fem {

struct DeformableContact {
  int deformable = 0;  // body A: the normal points into it
  int vertex = 0;      // its surface vertex at the contact point
  // Body B: a rigid geometry of the CollisionWorld (rigid_body −1 when static), or a triangle of
  // another deformable body with the barycentric weights of the nearest point.
  int geometry = -1, rigid_body = -1;
  int other = -1;
  Eigen::Vector3i face = Eigen::Vector3i::Zero();
  Eigen::Vector3d weights = Eigen::Vector3d::Zero();
  Eigen::Vector3d point = Eigen::Vector3d::Zero();    // world, m (the vertex)
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // world, unit, from B into A
  double phi = 0;                                     // m, negative when overlapping
  double mu = 0.5;
  double compliance = 0;  // m/N of the rigid material (0: rigid)
};

// Every vertex contact within the search distance, in a deterministic order: bodies, then rigid
// geometries, then other deformables, then vertices. The search distance is `margin` (m) plus
// how far the body's fastest vertex, and the other side's fastest point (rigid bodies: from
// `body_velocities`, spatial (v, ω) in the body frame as multibody::Data keeps them), move in
// `dt`: a vertex that will meet a surface within the step is already a (speculative) contact,
// which SAP leaves inactive unless the gap would close, so impacts do not tunnel.
std::vector<DeformableContact> FindDeformableContacts(
    const DeformableModel& model, const std::vector<FemState>& states,
    const geometry::CollisionWorld& world, const std::vector<math::Transform>& X_world,
    double margin, double dt = 0, const std::vector<math::Vector6d>& body_velocities = {});

}  // namespace coulomb::fem
