#include "apps/coulomb/trinkle/trinkle_scenes.h"

#include <cmath>

namespace coulomb::trinkle {

TrinkleObject MakeBox(const Eigen::Vector3d& h, double density, const Eigen::Vector3d& com,
                      const Eigen::Matrix3d& rotation, const Eigen::Vector3d& gravity) {
  TrinkleObject o;
  const Eigen::Vector3d e = 2 * h;
  o.mass = density * e.prod();
  const Eigen::Vector3d body(o.mass * (e.y() * e.y() + e.z() * e.z()) / 12,
                             o.mass * (e.x() * e.x() + e.z() * e.z()) / 12,
                             o.mass * (e.x() * e.x() + e.y() * e.y()) / 12);
  o.inertia = rotation * body.asDiagonal() * rotation.transpose();
  o.com = com;
  o.external_wrench.head<3>() = o.mass * gravity;
  return o;
}

TrinkleObject MakeRod(double mass, double half_length, const Eigen::Vector3d& com,
                      const Eigen::Vector3d& axis, const Eigen::Vector3d& gravity) {
  TrinkleObject o;
  o.mass = mass;
  const double bending = mass * half_length * half_length / 3.0;  // (1/12) m (2l)²
  const Eigen::Matrix3d along = axis * axis.transpose();
  o.inertia = bending * (Eigen::Matrix3d::Identity() - along) +
              1e-6 * mass * half_length * half_length * along;
  o.com = com;
  o.external_wrench.head<3>() = mass * gravity;
  return o;
}

Eigen::Vector3d TangentFor(const Eigen::Vector3d& normal, const Eigen::Vector3d& hint) {
  Eigen::Vector3d t = hint - hint.dot(normal) * normal;
  if (t.norm() < 1e-9) {
    const Eigen::Vector3d other =
        std::abs(normal.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    t = other - other.dot(normal) * normal;
  }
  return t.normalized();
}

std::vector<TrinkleContact> BoxOnPlaneContacts(const TrinkleObject& box, int object,
                                               const Eigen::Vector3d& h,
                                               const Eigen::Matrix3d& rotation,
                                               const Eigen::Vector3d& plane_normal, double mu) {
  // Body axis most aligned with −n: the face touching the plane.
  const Eigen::Vector3d local_down = rotation.transpose() * (-plane_normal);
  int axis = 0;
  local_down.cwiseAbs().maxCoeff(&axis);
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  std::vector<TrinkleContact> contacts;
  for (int corner = 0; corner < 4; ++corner) {
    Eigen::Vector3d local = Eigen::Vector3d::Zero();
    local[axis] = local_down[axis] > 0 ? h[axis] : -h[axis];
    local[u] = (corner & 1) ? h[u] : -h[u];
    local[v] = (corner & 2) ? h[v] : -h[v];
    TrinkleContact c;
    c.a = BodyRef::Object(object);
    c.b = BodyRef::Ground();
    c.point = box.com + rotation * local;
    c.normal = plane_normal;
    c.tangent = TangentFor(plane_normal, Eigen::Vector3d::UnitX());
    c.mu = mu;
    contacts.push_back(c);
  }
  return contacts;
}

}  // namespace coulomb::trinkle
