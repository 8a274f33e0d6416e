#include "coulomb/multibody/joint.h"

#include <cmath>

namespace coulomb::multibody {
namespace {

Eigen::Quaterniond Quaternion(const Eigen::Ref<const Eigen::VectorXd>& wxyz) {
  return Eigen::Quaterniond(wxyz[0], wxyz[1], wxyz[2], wxyz[3]).normalized();
}

// q ⊗ exp(ω dt / 2) for an angular velocity ω in the body frame.
Eigen::Quaterniond Rotate(const Eigen::Quaterniond& q, const Eigen::Vector3d& omega, double dt) {
  const double angle = omega.norm() * dt;  // negative dt rotates backwards
  if (std::abs(angle) < 1e-300) return q;
  return (q * Eigen::Quaterniond(Eigen::AngleAxisd(angle, omega.normalized()))).normalized();
}

}  // namespace

std::string_view ToString(JointType type) {
  switch (type) {
    case JointType::kFixed:
      return "fixed";
    case JointType::kRevolute:
      return "revolute";
    case JointType::kPrismatic:
      return "prismatic";
    case JointType::kBall:
      return "ball";
    case JointType::kFloating:
      return "floating";
  }
  return "unknown";
}

namespace {

struct JointSizes {
  int nq, nv;
};

JointSizes SizesOf(JointType type) {
  switch (type) {
    case JointType::kFixed:
      return {0, 0};
    case JointType::kRevolute:
    case JointType::kPrismatic:
      return {1, 1};
    case JointType::kBall:
      return {4, 3};
    case JointType::kFloating:
      return {7, 6};
  }
  return {0, 0};
}

}  // namespace

int ConfigurationSize(JointType type) {
  return SizesOf(type).nq;
}
int VelocitySize(JointType type) {
  return SizesOf(type).nv;
}

Transform JointTransform(JointType type, const Eigen::Vector3d& axis,
                         const Eigen::Ref<const Eigen::VectorXd>& q) {
  Transform X;
  switch (type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
      X.R = Eigen::AngleAxisd(q[0], axis).toRotationMatrix();
      break;
    case JointType::kPrismatic:
      X.p = axis * q[0];
      break;
    case JointType::kBall:
      X.R = Quaternion(q).toRotationMatrix();
      break;
    case JointType::kFloating:
      X.p = q.head<3>();
      X.R = Quaternion(q.tail<4>()).toRotationMatrix();
      break;
  }
  return X;
}

MotionSubspaceMatrix MotionSubspace(JointType type, const Eigen::Vector3d& axis) {
  MotionSubspaceMatrix S = MotionSubspaceMatrix::Zero(6, VelocitySize(type));
  switch (type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
      S.block<3, 1>(3, 0) = axis;
      break;
    case JointType::kPrismatic:
      S.block<3, 1>(0, 0) = axis;
      break;
    case JointType::kBall:
      S.block<3, 3>(3, 0).setIdentity();
      break;
    case JointType::kFloating:
      S.setIdentity();
      break;
  }
  return S;
}

Eigen::VectorXd NeutralConfiguration(JointType type) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(ConfigurationSize(type));
  if (type == JointType::kBall) q[0] = 1.0;
  if (type == JointType::kFloating) q[3] = 1.0;
  return q;
}

void IntegrateJoint(JointType type, const Eigen::Ref<const Eigen::VectorXd>& v, double dt,
                    Eigen::Ref<Eigen::VectorXd> q) {
  switch (type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
    case JointType::kPrismatic:
      q[0] += v[0] * dt;
      break;
    case JointType::kBall: {
      const Eigen::Quaterniond r = Rotate(Quaternion(q), v.head<3>(), dt);
      q << r.w(), r.x(), r.y(), r.z();
      break;
    }
    case JointType::kFloating: {
      // v = (ṗ in the parent frame, ω in the child frame): both integrate without coupling.
      const Eigen::Quaterniond rot = Quaternion(q.tail<4>());
      q.head<3>() += v.head<3>() * dt;
      const Eigen::Quaterniond r = Rotate(rot, v.tail<3>(), dt);
      q.tail<4>() << r.w(), r.x(), r.y(), r.z();
      break;
    }
  }
}

}  // namespace coulomb::multibody
