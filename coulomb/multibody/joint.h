#pragma once
// Joint types of a rigid-body tree: how a child frame moves relative to its placement in the
// parent. Configuration q and velocity v live in the model's global vectors at q_index/v_index.
//  * fixed      nq 0, nv 0
//  * revolute   nq 1, nv 1: rotation by q about `axis` (unit, joint frame)
//  * prismatic  nq 1, nv 1: translation by q along `axis`
//  * ball       nq 4 (quaternion w, x, y, z), nv 3: angular velocity in the child frame
//  * floating   nq 7 (position, quaternion w, x, y, z), nv 6: (linear, angular) velocity of
//               the child frame's origin, expressed in the child frame
// Motion subspaces S (6 × nv, child frame) are constant for all of them, so the velocity-product
// term of RNEA is v ×_m (S q̇).

#include <Eigen/Dense>
#include <string_view>

#include "coulomb/multibody/spatial.h"

namespace coulomb::multibody {

enum class JointType { kFixed, kRevolute, kPrismatic, kBall, kFloating };

std::string_view ToString(JointType type);
int ConfigurationSize(JointType type);  // nq
int VelocitySize(JointType type);       // nv

// The joint's transform X_JC (child frame C in the joint frame J) for its configuration q_joint.
Transform JointTransform(JointType type, const Eigen::Vector3d& axis,
                         const Eigen::Ref<const Eigen::VectorXd>& q_joint);

// The motion subspace S (6 × nv) in the child frame.
Eigen::Matrix<double, 6, Eigen::Dynamic> MotionSubspace(JointType type,
                                                        const Eigen::Vector3d& axis);

// The neutral configuration (zero angle/offset, identity quaternion).
Eigen::VectorXd NeutralConfiguration(JointType type);

// q ← q ⊕ v dt on the joint's manifold (quaternions stay unit length).
void IntegrateJoint(JointType type, const Eigen::Ref<const Eigen::VectorXd>& v_joint, double dt,
                    Eigen::Ref<Eigen::VectorXd> q_joint);

}  // namespace coulomb::multibody
