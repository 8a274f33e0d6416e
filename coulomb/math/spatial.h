#pragma once
// Spatial (6D) algebra: rigid transforms, motion and force vectors, spatial inertia; used by
// the multibody dynamics, the geometry and the contact Jacobians. Featherstone's formulation
// with Pinocchio's ordering: motion vectors m = (v, ω) — the velocity of the frame's origin point
// and the angular velocity — and force vectors f = (force, moment about the origin), both expressed
// in a frame.

#include <Eigen/Dense>

namespace coulomb::math {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

inline Eigen::Matrix3d Skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

// A rigid transform X_AB: pose of frame B in frame A (p_A = R p_B + p).
struct Transform {
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p = Eigen::Vector3d::Zero();

  Transform operator*(const Transform& other) const { return {R * other.R, R * other.p + p}; }
  Transform Inverse() const { return {R.transpose(), -R.transpose() * p}; }
  Eigen::Vector3d Apply(const Eigen::Vector3d& x) const { return R * x + p; }
  // Motion in B → motion in A: (R v + p × R ω, R ω).
  Matrix6d MotionToParent() const {
    Matrix6d X = Matrix6d::Zero();
    X.topLeftCorner<3, 3>() = R;
    X.topRightCorner<3, 3>() = Skew(p) * R;
    X.bottomRightCorner<3, 3>() = R;
    return X;
  }
  // Motion in A → motion in B (inverse of the above).
  Matrix6d MotionToChild() const { return Inverse().MotionToParent(); }
  // Force in B → force in A: (R f, R τ + p × R f) = MotionToChild()ᵀ.
  Matrix6d ForceToParent() const { return MotionToChild().transpose(); }
};

// m ×_m n (motion cross product).
inline Vector6d CrossMotion(const Vector6d& m, const Vector6d& n) {
  Vector6d out;
  out.head<3>() = m.tail<3>().cross(n.head<3>()) + m.head<3>().cross(n.tail<3>());
  out.tail<3>() = m.tail<3>().cross(n.tail<3>());
  return out;
}

// m ×* f (force cross product), the dual of the above.
inline Vector6d CrossForce(const Vector6d& m, const Vector6d& f) {
  Vector6d out;
  out.head<3>() = m.tail<3>().cross(f.head<3>());
  out.tail<3>() = m.tail<3>().cross(f.tail<3>()) + m.head<3>().cross(f.head<3>());
  return out;
}

// Mass properties of a body in its own frame.
struct Inertia {
  double mass = 0;                                       // kg
  Eigen::Vector3d com = Eigen::Vector3d::Zero();         // m, in the body frame
  Eigen::Matrix3d rotational = Eigen::Matrix3d::Zero();  // kg m², about the COM, body axes

  // The 6 × 6 spatial inertia about the body frame's origin, acting on (v, ω).
  Matrix6d Spatial() const {
    Matrix6d I = Matrix6d::Zero();
    const Eigen::Matrix3d c = Skew(com);
    I.topLeftCorner<3, 3>() = mass * Eigen::Matrix3d::Identity();
    I.topRightCorner<3, 3>() = -mass * c;
    I.bottomLeftCorner<3, 3>() = mass * c;
    I.bottomRightCorner<3, 3>() = rotational - mass * c * c;
    return I;
  }
};

}  // namespace coulomb::math
