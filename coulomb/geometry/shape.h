#pragma once
// Collision shapes, each in its own frame G (SI units):
//  * HalfSpace  — the solid z ≤ 0 (outward normal +z)
//  * Sphere     — radius r about the origin
//  * Box        — half extents h about the origin, edges along the axes
//  * Capsule    — the points within r of the segment from (0, 0, −l) to (0, 0, +l)
//  * Cylinder   — radius r, half length l, axis z
//  * ConvexMesh — the convex hull of a mesh's vertices (convex_mesh.h)
//  * TriangleMesh — any triangle surface, static geometry only (triangle_mesh.h)

#include <Eigen/Dense>
#include <string>
#include <variant>

#include "coulomb/geometry/convex_mesh.h"
#include "coulomb/geometry/triangle_mesh.h"

namespace coulomb::geometry {

struct HalfSpace {};
struct Sphere {
  double radius = 0;
};
struct Box {
  Eigen::Vector3d half_extents = Eigen::Vector3d::Zero();
};
struct Capsule {
  double radius = 0, half_length = 0;
};
struct Cylinder {
  double radius = 0, half_length = 0;
};

using Shape = std::variant<HalfSpace, Sphere, Box, Capsule, Cylinder, ConvexMesh, TriangleMesh>;

std::string ShapeName(const Shape& shape);
// "" when the dimensions are positive and finite, else why not.
std::string ValidateShape(const Shape& shape);

}  // namespace coulomb::geometry
