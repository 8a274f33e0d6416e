#include "coulomb/geometry/mass_properties.h"

#include <numbers>

namespace coulomb::geometry {
namespace {

constexpr double kPi = std::numbers::pi;

struct Volume {
  double operator()(const HalfSpace&) const { return 0; }
  double operator()(const TriangleMesh&) const { return 0; }
  double operator()(const ConvexMesh& m) const { return m.data->volume; }
  double operator()(const Sphere& s) const {
    return 4.0 / 3.0 * kPi * s.radius * s.radius * s.radius;
  }
  double operator()(const Box& b) const { return 8 * b.half_extents.prod(); }
  double operator()(const Cylinder& c) const {
    return kPi * c.radius * c.radius * 2 * c.half_length;
  }
  double operator()(const Capsule& c) const {
    return kPi * c.radius * c.radius * (2 * c.half_length + 4.0 / 3.0 * c.radius);
  }
};

struct UnitInertia {
  Eigen::Matrix3d operator()(const HalfSpace&) const { return Eigen::Matrix3d::Zero(); }
  Eigen::Matrix3d operator()(const TriangleMesh&) const { return Eigen::Matrix3d::Zero(); }
  Eigen::Matrix3d operator()(const ConvexMesh& m) const { return m.data->unit_inertia; }
  Eigen::Matrix3d operator()(const Sphere& s) const {
    return 0.4 * s.radius * s.radius * Eigen::Matrix3d::Identity();
  }
  Eigen::Matrix3d operator()(const Box& b) const {
    const Eigen::Vector3d e2 = (2 * b.half_extents).cwiseAbs2();
    return (Eigen::Vector3d(e2.y() + e2.z(), e2.x() + e2.z(), e2.x() + e2.y()) / 12.0).asDiagonal();
  }
  Eigen::Matrix3d operator()(const Cylinder& c) const {
    const double r2 = c.radius * c.radius, l2 = 4 * c.half_length * c.half_length;
    return Eigen::Vector3d((3 * r2 + l2) / 12, (3 * r2 + l2) / 12, r2 / 2).asDiagonal();
  }
  // Cylinder plus two hemispheres (each hemisphere's centroid sits 3r/8 beyond the cap plane).
  Eigen::Matrix3d operator()(const Capsule& c) const {
    const double r = c.radius, h = 2 * c.half_length, r2 = r * r;
    const double m_cyl = kPi * r2 * h, m_hemi = 2.0 / 3.0 * kPi * r2 * r;
    const double m = m_cyl + 2 * m_hemi;
    const double axial = m_cyl * r2 / 2 + 2 * m_hemi * 0.4 * r2;
    const double d = h / 2 + 3 * r / 8;  // hemisphere centroid from the centre
    const double hemi_transverse = m_hemi * (0.4 * r2 - 9.0 / 64.0 * r2) + m_hemi * d * d;
    const double transverse = m_cyl * (3 * r2 + h * h) / 12 + 2 * hemi_transverse;
    return Eigen::Vector3d(transverse / m, transverse / m, axial / m).asDiagonal();
  }
};

}  // namespace

double ShapeVolume(const Shape& shape) {
  return std::visit(Volume{}, shape);
}

Eigen::Vector3d ShapeCentroid(const Shape& shape) {
  if (const auto* m = std::get_if<ConvexMesh>(&shape)) return m->data->centroid;
  return Eigen::Vector3d::Zero();
}

Eigen::Matrix3d UnitRotationalInertia(const Shape& shape) {
  return std::visit(UnitInertia{}, shape);
}

}  // namespace coulomb::geometry
