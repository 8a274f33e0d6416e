#pragma once
// Joint types of a rigid-body tree: how a child frame moves relative to its placement in the
// parent. Configuration q and velocity v live in the model's global vectors at q_index/v_index.
//  * fixed      nq 0, nv 0
//  * revolute   nq 1, nv 1: rotation by q about `axis` (unit, joint frame)
//  * prismatic  nq 1, nv 1: translation by q along `axis`
//  * ball       nq 4 (quaternion w, x, y, z), nv 3: angular velocity in the child frame
//  * floating   nq 7 (position p, quaternion w, x, y, z), nv 6: (ṗ in the joint frame — the
//               world for a free body —, ω in the child frame), MuJoCo's free-joint convention
// Motion subspaces S (6 × nv, child frame) are constant except the floating joint's, whose
// linear block is R_jᵀ (set by CalcForwardKinematics); its bias Ṡ q̇ = (−ω × R_jᵀ ṗ, 0) is added
// by RNEA. Why not the body-frame linear velocity: its −ω × v term, integrated explicitly,
// inflates the speed of a spinning body by (1 + h²ω²)^(1/2) per step (a rolling ball at
// 15 rad/s gained 7 % in 1 s at h = 1 ms); with ṗ there is no such term.

#include <Eigen/Dense>
#include <string_view>

#include "coulomb/math/spatial.h"

namespace coulomb::multibody {

// The spatial algebra's vocabulary, as the dynamics kernels name it (math/spatial.h).
using math::CrossForce;
using math::CrossMotion;
using math::Inertia;
using math::Matrix6d;
using math::Skew;
using math::Transform;
using math::Vector6d;

enum class JointType { kFixed, kRevolute, kPrismatic, kBall, kFloating };

std::string_view ToString(JointType type);
int ConfigurationSize(JointType type);  // nq
int VelocitySize(JointType type);       // nv

// The joint's transform X_JC (child frame C in the joint frame J) for its configuration q_joint.
Transform JointTransform(JointType type, const Eigen::Vector3d& axis,
                         const Eigen::Ref<const Eigen::VectorXd>& q_joint);

// A motion subspace: 6 × nv with nv ≤ 6, stored in place (no heap: the dynamics kernels
// multiply by it for every body at every step).
using MotionSubspaceMatrix = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;

// The motion subspace S (6 × nv) in the child frame at the neutral configuration.
MotionSubspaceMatrix MotionSubspace(JointType type, const Eigen::Vector3d& axis);

// The neutral configuration (zero angle/offset, identity quaternion).
Eigen::VectorXd NeutralConfiguration(JointType type);

// q ← q ⊕ v dt on the joint's manifold (quaternions stay unit length).
void IntegrateJoint(JointType type, const Eigen::Ref<const Eigen::VectorXd>& v_joint, double dt,
                    Eigen::Ref<Eigen::VectorXd> q_joint);

}  // namespace coulomb::multibody
