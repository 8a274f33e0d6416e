#pragma once
// A convex polytope given by a mesh: the convex hull of the mesh's vertices, computed once by
// Qhull when the shape is made. Engines treat collision meshes this way (MuJoCo, Drake's
// <drake:declare_convex/>) because the contact routines need convexity; a concave object is a
// body with several convex shapes. Coplanar hull triangles are merged into one polygonal face so
// that a mesh box resting on a face gives its four corners, as the analytic box does.
//
// The data is immutable and shared, so copying a Shape stays cheap.

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "coulomb/base/error.h"

namespace coulomb::geometry {

struct ConvexMeshData {
  std::string source;                     // where the points came from (for messages)
  std::vector<Eigen::Vector3d> vertices;  // hull vertices, shape frame G, m
  // Hull faces as vertex indices, counter-clockwise seen from outside, with outward unit normals.
  std::vector<std::vector<int>> faces;
  std::vector<Eigen::Vector3d> normals;
  double volume = 0;                                       // m³
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();      // G frame
  Eigen::Matrix3d unit_inertia = Eigen::Matrix3d::Zero();  // about the centroid, per kg, m²
  Eigen::AlignedBox3d bounds;                              // of the vertices, G frame
};

struct ConvexMesh {
  std::shared_ptr<const ConvexMeshData> data;
};

// The convex hull of `points` (already scaled, G frame). Fails, naming `source`, when there are
// fewer than four points, a point is not finite, or the points span no volume.
Expected<ConvexMesh> MakeConvexMesh(const std::vector<Eigen::Vector3d>& points,
                                    const std::string& source);

// The vertex of the hull farthest along `direction` (G frame).
int SupportVertex(const ConvexMeshData& mesh, const Eigen::Vector3d& direction);

}  // namespace coulomb::geometry
