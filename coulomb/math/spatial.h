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
  // The last two applied to one vector without forming the 6 × 6 matrix (a quarter of the work;
  // the dynamics' passes do one per body): (Rᵀ (v − p × ω), Rᵀ ω) and (R f, R τ + p × R f).
  Vector6d ApplyMotionToChild(const Vector6d& m) const {
    Vector6d out;
    out.head<3>().noalias() = R.transpose() * (m.head<3>() - p.cross(m.tail<3>()));
    out.tail<3>().noalias() = R.transpose() * m.tail<3>();
    return out;
  }
  // MotionToParent() applied: (R v + p × R ω, R ω).
  Vector6d ApplyMotionToParent(const Vector6d& m) const {
    Vector6d out;
    out.tail<3>().noalias() = R * m.tail<3>();
    out.head<3>().noalias() = R * m.head<3>();
    out.head<3>() += p.cross(out.tail<3>());
    return out;
  }
  Vector6d ApplyForceToParent(const Vector6d& f) const {
    Vector6d out;
    out.head<3>().noalias() = R * f.head<3>();
    out.tail<3>().noalias() = R * f.tail<3>();
    out.tail<3>() += p.cross(out.head<3>());
    return out;
  }
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
  // Spatial() · m without forming it: with h = m (v − c × ω), the momentum (h, c × h + Ī ω).
  Vector6d Apply(const Vector6d& motion) const {
    Vector6d out;
    out.head<3>() = mass * (motion.head<3>() - com.cross(motion.tail<3>()));
    out.tail<3>() = com.cross(out.head<3>());
    out.tail<3>().noalias() += rotational * motion.tail<3>();
    return out;
  }
};

// A spatial inertia about a frame's origin in the form a sum of bodies keeps: mass, first moment
// h = m c and rotational inertia about the origin (Īc − m [c]×[c]×). CRBA's composite inertias:
// moving one to the parent's frame costs a few 3 × 3 products, where the congruence Xᵀ I X of the
// 6 × 6 form costs two 6 × 6 ones.
struct OriginInertia {
  double mass = 0;                                       // kg
  Eigen::Vector3d h = Eigen::Vector3d::Zero();           // kg m
  Eigen::Matrix3d rotational = Eigen::Matrix3d::Zero();  // kg m², about the origin

  static OriginInertia Of(const Inertia& body) {
    const Eigen::Matrix3d c = Skew(body.com);
    return {body.mass, body.mass * body.com, body.rotational - body.mass * c * c};
  }
  OriginInertia& operator+=(const OriginInertia& other) {
    mass += other.mass;
    h += other.h;
    rotational += other.rotational;
    return *this;
  }
  // This inertia of a body in frame B, expressed in frame A, X = X_AB: a point x of B sits at
  // R x + p, so h → R h + m p and (Σ −m [x]×[x]×) → R I Rᵀ − [Rh]×[p]× − [p]×[Rh]× − m [p]×[p]×.
  OriginInertia InParent(const Transform& X) const {
    const Eigen::Vector3d Rh = X.R * h;
    const Eigen::Matrix3d P = Skew(X.p), H = Skew(Rh);
    return {mass, Rh + mass * X.p,
            X.R * rotational * X.R.transpose() - H * P - P * H - mass * P * P};
  }
  // The momentum of a motion (v, ω): (m v − h × ω, h × v + I ω).
  Vector6d Apply(const Vector6d& motion) const {
    Vector6d out;
    out.head<3>() = mass * motion.head<3>() - h.cross(motion.tail<3>());
    out.tail<3>() = h.cross(motion.head<3>());
    out.tail<3>().noalias() += rotational * motion.tail<3>();
    return out;
  }
  Matrix6d Spatial() const {
    Matrix6d I;
    I.topLeftCorner<3, 3>() = mass * Eigen::Matrix3d::Identity();
    I.topRightCorner<3, 3>() = -Skew(h);
    I.bottomLeftCorner<3, 3>() = Skew(h);
    I.bottomRightCorner<3, 3>() = rotational;
    return I;
  }
};

}  // namespace coulomb::math
