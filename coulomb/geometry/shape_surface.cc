#include "coulomb/geometry/shape_surface.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace coulomb::geometry {
namespace {

// Newell's normal of a polygon: exact for planar corners and robust to repeated ones.
Eigen::Vector3d NewellNormal(const std::vector<Eigen::Vector3d>& corners) {
  Eigen::Vector3d n = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < corners.size(); ++i) {
    n += corners[i].cross(corners[(i + 1) % corners.size()]);
  }
  return n;
}

// Adds the polygon with its normal, turned to face away from the origin (every revolved shape
// here is convex about its own origin). Degenerate polygons (a pole's zero-length edge leaves a
// triangle) are kept; polygons of no area are dropped.
void AddOutward(std::vector<Eigen::Vector3d> corners, std::vector<SurfacePolygon>& out) {
  corners.erase(std::unique(corners.begin(), corners.end(),
                            [](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
                              return (a - b).squaredNorm() == 0;
                            }),
                corners.end());
  if (corners.size() >= 2 && (corners.front() - corners.back()).squaredNorm() == 0) {
    corners.pop_back();
  }
  if (corners.size() < 3) return;
  Eigen::Vector3d n = NewellNormal(corners);
  if (n.norm() == 0) return;
  Eigen::Vector3d middle = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& c : corners) middle += c;
  if (n.dot(middle) < 0) {
    std::reverse(corners.begin(), corners.end());
    n = -n;
  }
  out.push_back({std::move(corners), n.normalized()});
}

// The surface of revolution about z of a profile of (radius, z) points from the bottom to the
// top: one band of `segments` planar trapezoids (triangles at a pole) per profile edge.
std::vector<SurfacePolygon> Revolve(const std::vector<Eigen::Vector2d>& profile, int segments) {
  std::vector<SurfacePolygon> out;
  auto at = [&](const Eigen::Vector2d& rz, int k) {
    const double angle = 2 * std::numbers::pi * k / segments;
    return Eigen::Vector3d(rz.x() * std::cos(angle), rz.x() * std::sin(angle), rz.y());
  };
  for (std::size_t i = 0; i + 1 < profile.size(); ++i) {
    for (int k = 0; k < segments; ++k) {
      AddOutward({at(profile[i], k), at(profile[i], k + 1), at(profile[i + 1], k + 1),
                  at(profile[i + 1], k)},
                 out);
    }
  }
  return out;
}

// A quarter or half circle of radius r about height z0, from angle `from` to `to` (0: the
// bottom pole, π: the top), in `steps` steps.
void AddArc(double r, double z0, double from, double to, int steps,
            std::vector<Eigen::Vector2d>& profile) {
  for (int i = 0; i <= steps; ++i) {
    const double theta = from + (to - from) * i / steps;
    profile.emplace_back(r * std::sin(theta), z0 - r * std::cos(theta));
  }
}

std::vector<SurfacePolygon> BoxPolygons(const Eigen::Vector3d& h) {
  std::vector<SurfacePolygon> out;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (const double side : {-1.0, 1.0}) {
      std::vector<Eigen::Vector3d> corners;
      for (const auto& [su, sv] : {std::pair{-1.0, -1.0}, {1.0, -1.0}, {1.0, 1.0}, {-1.0, 1.0}}) {
        Eigen::Vector3d p;
        p[axis] = side * h[axis];
        p[u] = su * h[u];
        p[v] = sv * h[v];
        corners.push_back(p);
      }
      AddOutward(std::move(corners), out);
    }
  }
  return out;
}

// A mesh's faces (lists of vertex indices) with their normals.
template <typename Faces>
std::vector<SurfacePolygon> IndexedFaces(const std::vector<Eigen::Vector3d>& vertices,
                                         const Faces& faces,
                                         const std::vector<Eigen::Vector3d>& normals) {
  std::vector<SurfacePolygon> out;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    SurfacePolygon p;
    for (const int i : faces[f]) p.corners.push_back(vertices[i]);
    p.normal = normals[f];
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::vector<SurfacePolygon> ShapeSurfacePolygons(const Shape& shape, int segments) {
  segments = std::max(segments, 8);
  const int quarter = std::max(2, segments / 4);
  const double half_pi = std::numbers::pi / 2;
  std::vector<Eigen::Vector2d> profile;
  if (const auto* box = std::get_if<Box>(&shape)) return BoxPolygons(box->half_extents);
  if (const auto* sphere = std::get_if<Sphere>(&shape)) {
    AddArc(sphere->radius, 0, 0, std::numbers::pi, 2 * quarter, profile);
    return Revolve(profile, segments);
  }
  if (const auto* capsule = std::get_if<Capsule>(&shape)) {
    AddArc(capsule->radius, -capsule->half_length, 0, half_pi, quarter, profile);
    AddArc(capsule->radius, capsule->half_length, half_pi, std::numbers::pi, quarter, profile);
    return Revolve(profile, segments);
  }
  if (const auto* cylinder = std::get_if<Cylinder>(&shape)) {
    const double r = cylinder->radius, l = cylinder->half_length;
    return Revolve({{0, -l}, {r, -l}, {r, l}, {0, l}}, segments);
  }
  if (const auto* mesh = std::get_if<ConvexMesh>(&shape)) {
    return IndexedFaces(mesh->data->vertices, mesh->data->faces, mesh->data->normals);
  }
  if (const auto* mesh = std::get_if<TriangleMesh>(&shape)) {
    return IndexedFaces(mesh->data->vertices, mesh->data->triangles, mesh->data->normals);
  }
  return {};  // HalfSpace: none (infinite)
}

std::vector<Eigen::Vector3d> ClipPolygon(const std::vector<Eigen::Vector3d>& polygon,
                                         const Eigen::Vector3d& n, double d) {
  std::vector<Eigen::Vector3d> out;
  const std::size_t count = polygon.size();
  for (std::size_t i = 0; i < count; ++i) {
    const Eigen::Vector3d& a = polygon[i];
    const Eigen::Vector3d& b = polygon[(i + 1) % count];
    const double da = n.dot(a) - d, db = n.dot(b) - d;
    if (da <= 0) out.push_back(a);
    if ((da < 0 && db > 0) || (da > 0 && db < 0)) out.push_back(a + (b - a) * (da / (da - db)));
  }
  return out;
}

PolygonArea AreaOf(const std::vector<Eigen::Vector3d>& polygon) {
  PolygonArea out;
  if (polygon.size() < 3) return out;
  Eigen::Vector3d weighted = Eigen::Vector3d::Zero();
  for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
    const double area = 0.5 * (polygon[i] - polygon[0]).cross(polygon[i + 1] - polygon[0]).norm();
    out.area += area;
    weighted += area * (polygon[0] + polygon[i] + polygon[i + 1]) / 3.0;
  }
  out.centroid = out.area > 0 ? Eigen::Vector3d(weighted / out.area) : polygon[0];
  return out;
}

}  // namespace coulomb::geometry
