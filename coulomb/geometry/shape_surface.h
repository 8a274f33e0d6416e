#pragma once
// A rigid shape's surface as flat convex polygons with outward normals, in the shape's frame G
// (SI units): the mesh a deformable body's tetrahedra clip to find where the rigid surface lies
// inside them (paper 2 §V; docs/notes/sap-and-deformables.md §2.4, the paper-era scheme). Boxes
// and convex meshes give their faces exactly, triangle meshes their triangles; spheres, capsules
// and cylinders are faceted with `segments` facets around (at least 8). A half-space is infinite:
// it has no polygons here, and callers slice it with a plane instead.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/geometry/shape.h"

namespace coulomb::geometry {

struct SurfacePolygon {
  std::vector<Eigen::Vector3d> corners;               // counter-clockwise seen from outside
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // outward unit normal
};

std::vector<SurfacePolygon> ShapeSurfacePolygons(const Shape& shape, int segments = 16);

// A convex polygon clipped to the half-space {x : n·x ≤ d} (Sutherland–Hodgman, one plane).
std::vector<Eigen::Vector3d> ClipPolygon(const std::vector<Eigen::Vector3d>& polygon,
                                         const Eigen::Vector3d& n, double d);

struct PolygonArea {
  double area = 0;                                     // m²
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();  // of the area, not of the corners
};
// Area and centroid of a planar polygon with corners in order (fan triangulation).
PolygonArea AreaOf(const std::vector<Eigen::Vector3d>& polygon);

}  // namespace coulomb::geometry
