#include "coulomb/geometry/point_query.h"

#include <algorithm>
#include <cmath>

#include "coulomb/geometry/triangle.h"

namespace coulomb::geometry {
namespace {

// A unit vector along d, or `fallback` when d is (nearly) zero: a point at a sphere's centre or
// on a capsule's axis has every direction as nearest, and any one is a valid answer.
Eigen::Vector3d UnitOr(const Eigen::Vector3d& d, const Eigen::Vector3d& fallback) {
  const double n = d.norm();
  return n > 1e-300 ? Eigen::Vector3d(d / n) : fallback;
}

PointQuery QueryBall(const Eigen::Vector3d& centre, double radius, const Eigen::Vector3d& p) {
  PointQuery q;
  q.normal = UnitOr(p - centre, Eigen::Vector3d::UnitZ());
  q.phi = (p - centre).norm() - radius;
  q.closest = centre + radius * q.normal;
  return q;
}

PointQuery QueryBox(const Eigen::Vector3d& h, const Eigen::Vector3d& p) {
  PointQuery q;
  const Eigen::Vector3d excess = p.cwiseAbs() - h;
  if ((excess.array() > 0).any()) {  // outside: the clamp is the nearest point
    q.closest = p.cwiseMax(-h).cwiseMin(h);
    q.phi = (p - q.closest).norm();
    q.normal = UnitOr(p - q.closest, Eigen::Vector3d::UnitZ());
    return q;
  }
  // Inside: the nearest face is the one with the largest (least negative) excess.
  Eigen::Index axis = 0;
  q.phi = excess.maxCoeff(&axis);
  const double side = p[axis] >= 0 ? 1.0 : -1.0;
  q.normal = side * Eigen::Vector3d::Unit(axis);
  q.closest = p;
  q.closest[axis] = side * h[axis];
  return q;
}

PointQuery QueryCylinder(double r, double l, const Eigen::Vector3d& p) {
  PointQuery q;
  const Eigen::Vector3d radial(p.x(), p.y(), 0);
  const Eigen::Vector3d out = UnitOr(radial, Eigen::Vector3d::UnitX());
  const double axial_side = p.z() >= 0 ? 1.0 : -1.0;
  const double dr = radial.norm() - r, dz = std::abs(p.z()) - l;
  if (dr > 0 || dz > 0) {
    q.closest =
        std::min(radial.norm(), r) * out + std::clamp(p.z(), -l, l) * Eigen::Vector3d::UnitZ();
    q.phi = (p - q.closest).norm();
    q.normal = UnitOr(p - q.closest, out);
    return q;
  }
  if (dr > dz) {  // nearer the side than the caps
    q.phi = dr;
    q.normal = out;
    q.closest = r * out + p.z() * Eigen::Vector3d::UnitZ();
  } else {
    q.phi = dz;
    q.normal = axial_side * Eigen::Vector3d::UnitZ();
    q.closest = Eigen::Vector3d(p.x(), p.y(), axial_side * l);
  }
  return q;
}

// Outside a convex mesh the nearest point lies on one of its faces (fanned into triangles);
// inside, the nearest face is the one whose plane is closest.
PointQuery QueryConvexMesh(const ConvexMeshData& m, const Eigen::Vector3d& p) {
  PointQuery q;
  q.phi = -INFINITY;
  for (std::size_t f = 0; f < m.faces.size(); ++f) {
    const double height = m.normals[f].dot(p - m.vertices[m.faces[f][0]]);
    if (height > q.phi) {
      q.phi = height;
      q.normal = m.normals[f];
    }
  }
  q.closest = p - q.phi * q.normal;
  if (q.phi <= 0) return q;
  double best = INFINITY;
  for (const std::vector<int>& face : m.faces) {
    for (std::size_t k = 1; k + 1 < face.size(); ++k) {
      const Eigen::Vector3d x =
          ClosestOnTriangle(p, m.vertices[face[0]], m.vertices[face[k]], m.vertices[face[k + 1]])
              .point;
      if ((p - x).squaredNorm() < best) {
        best = (p - x).squaredNorm();
        q.closest = x;
      }
    }
  }
  q.phi = std::sqrt(best);
  q.normal = UnitOr(p - q.closest, q.normal);
  return q;
}

// The nearest triangle, found through the tree in a box that shrinks to the distance found;
// the sign is the side of that triangle's front face (a surface need not enclose anything).
PointQuery QueryTriangleMesh(const TriangleMeshData& m, const Eigen::Vector3d& p) {
  double reach = 1e-3 * m.bounds.diagonal().norm() + m.bounds.exteriorDistance(p);
  std::vector<int> near;
  double best = INFINITY;
  int best_t = 0;
  Eigen::Vector3d closest = p;
  for (int pass = 0; pass < 64 && near.empty(); ++pass, reach *= 2) {
    TrianglesNear(m, Eigen::AlignedBox3d(p.array() - reach, p.array() + reach), near);
  }
  // Nearest among the first candidates, then among all triangles within that distance (anything
  // nearer lies within `best` of p in every axis).
  const auto nearest = [&] {
    for (const int t : near) {
      const auto& tri = m.triangles[t];
      const Eigen::Vector3d x =
          ClosestOnTriangle(p, m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]).point;
      if ((p - x).norm() < best) {
        best = (p - x).norm();
        best_t = t;
        closest = x;
      }
    }
  };
  nearest();
  near.clear();
  TrianglesNear(m, Eigen::AlignedBox3d(p.array() - best, p.array() + best), near);
  nearest();
  PointQuery q;
  const double side = m.normals[best_t].dot(p - closest) >= 0 ? 1.0 : -1.0;
  q.phi = side * best;
  q.closest = closest;
  q.normal = best > 1e-12 ? Eigen::Vector3d(side * (p - closest) / best) : m.normals[best_t];
  return q;
}

// One overload per shape (std::visit).
struct Query {
  const Eigen::Vector3d& p;
  PointQuery operator()(const HalfSpace& /*unused*/) const {
    PointQuery q;
    q.phi = p.z();
    q.closest = Eigen::Vector3d(p.x(), p.y(), 0);
    return q;
  }
  PointQuery operator()(const Sphere& s) const {
    return QueryBall(Eigen::Vector3d::Zero(), s.radius, p);
  }
  PointQuery operator()(const Box& b) const { return QueryBox(b.half_extents, p); }
  PointQuery operator()(const Capsule& c) const {
    const double z = std::clamp(p.z(), -c.half_length, c.half_length);
    return QueryBall(Eigen::Vector3d(0, 0, z), c.radius, p);
  }
  PointQuery operator()(const Cylinder& c) const {
    return QueryCylinder(c.radius, c.half_length, p);
  }
  PointQuery operator()(const ConvexMesh& m) const { return QueryConvexMesh(*m.data, p); }
  PointQuery operator()(const TriangleMesh& m) const { return QueryTriangleMesh(*m.data, p); }
};

}  // namespace

PointQuery QueryPoint(const Shape& shape, const Eigen::Vector3d& p) {
  return std::visit(Query{p}, shape);
}

}  // namespace coulomb::geometry
