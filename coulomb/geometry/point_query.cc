#include "coulomb/geometry/point_query.h"

#include <algorithm>
#include <cmath>

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
};

}  // namespace

PointQuery QueryPoint(const Shape& shape, const Eigen::Vector3d& p) {
  return std::visit(Query{p}, shape);
}

}  // namespace coulomb::geometry
