#pragma once
// The signed distance from a point to a shape, with the nearest surface point and the outward
// normal there, all in the shape's frame G (SI units). Deformable bodies touch rigid shapes at
// their surface vertices (paper 2 §V; docs/notes/sap-and-deformables.md §2.4), so this is the only
// query a vertex contact needs. Analytic for every primitive: these closed forms are exact and
// cheaper than a general convex routine; meshes by their faces.

#include <Eigen/Dense>

#include "coulomb/geometry/shape.h"

namespace coulomb::geometry {

struct PointQuery {
  double phi = 0;                                     // m, negative inside the shape
  Eigen::Vector3d closest = Eigen::Vector3d::Zero();  // nearest surface point, G frame
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // outward unit normal at `closest`
};

PointQuery QueryPoint(const Shape& shape, const Eigen::Vector3d& p_G);

}  // namespace coulomb::geometry
