#pragma once
// The deformable part of a scene: FEM bodies and the attachments that tie their vertices to
// rigid bodies (paper 2's soft fingers; docs/notes/sap-and-deformables.md §2.4: holonomic, rigid,
// β = 0.1). Vertices fixed in the world are FemBody::fixed_vertices (Dirichlet) instead.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/fem/fem_model.h"

namespace coulomb::fem {

struct VertexAttachment {
  int deformable = 0;  // index in DeformableModel::bodies
  int vertex = 0;
  int body = 0;                                   // rigid body of the multibody Model
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();  // where the vertex is held, body frame, m
};

// Where a deformable body touches convex rigid shapes (contact/deformable_contacts.h): at its
// surface vertices, or at the polygons of its surface triangles clipped to the shape grown by the
// search distance (one contact per polygon).
enum class RigidContactSampling { kVertices, kSurfacePolygons };

struct DeformableModel {
  std::vector<FemBody> bodies;
  std::vector<VertexAttachment> attachments;
  RigidContactSampling rigid_contacts = RigidContactSampling::kVertices;
  // Surface polygons only, Pa/m: > 0 makes the contact compliant, a pressure g·(−φ) over the
  // overlap of the surface with the shape; 0 keeps it rigid over the shape grown by the search
  // distance.
  double surface_pressure_gradient = 0;
  bool empty() const { return bodies.empty(); }
};

// "" or the first problem (a body's mesh or material, an attachment to a vertex or rigid body
// that does not exist), named. `num_rigid_bodies` bounds attachment bodies.
std::string ValidateDeformableModel(const DeformableModel& model, int num_rigid_bodies);

// Whether deformable d is attached to rigid body b (their contacts are then skipped: a finger
// pad overlaps the link it is glued to by design).
bool IsAttached(const DeformableModel& model, int d, int b);

}  // namespace coulomb::fem
