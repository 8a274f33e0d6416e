#pragma once
// Mass properties of solid shapes of uniform density, for bodies whose inertia a scene does not
// give: volume (m³) and the rotational inertia per unit mass about the centre (m²), shape axes.

#include <Eigen/Dense>

#include "coulomb/geometry/shape.h"

namespace coulomb::geometry {

// 0 for the half-space and the triangle mesh (no finite volume: static geometry only).
double ShapeVolume(const Shape& shape);
// The centre of volume in the shape frame: the origin, except for convex meshes.
Eigen::Vector3d ShapeCentroid(const Shape& shape);
// About the centroid.
Eigen::Matrix3d UnitRotationalInertia(const Shape& shape);

}  // namespace coulomb::geometry
