#include "coulomb/math/contact_frame.h"

#include <Eigen/Geometry>
#include <cmath>

namespace coulomb::math {

Eigen::Vector3d ContactTangent(const Eigen::Vector3d& n) {
  const Eigen::Vector3d helper =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  return (helper - helper.dot(n) * n).normalized();
}

Eigen::Matrix3d ContactFrame(const Eigen::Vector3d& n) {
  Eigen::Matrix3d frame;
  frame.col(0) = n;
  frame.col(1) = ContactTangent(n);
  frame.col(2) = n.cross(frame.col(1));
  return frame;
}

}  // namespace coulomb::math
