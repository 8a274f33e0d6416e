#pragma once
// The generalized form of paper 1's equations (2)–(6) for one problem instance.
//
// Generalized velocity u stacks the object twists q̇ (6 per object) and the joint rates θ̇.
// Contact component k (n, t, o and, for soft fingers, the torsion τ about n) has a column G_k
// such that its relative velocity is v_k = G_kᵀ u and its force c_k contributes G_k c_k to the
// generalized force: G = [W; −Jᵀ] in the paper's notation (eq. 3–6). The equations of motion are
//   M u̇ = G c + f,   a = Gᵀ u̇ + κ,
// with M = diag(M_obj, M_man), f = (g_obj + h_obj, τ − g_man − h_man) and κ the velocity-product
// part of the contact accelerations (eq. 6: Ẇᵀq̇ − J̇θ̇), which we take as the difference of the
// two material points' centripetal accelerations ω × (ω × r) (plus link J̇θ̇ terms and the
// contact's own acceleration_bias). The moving-frame/curvature terms of rolling contacts are
// not modelled; give them through acceleration_bias when they matter.

#include <Eigen/Dense>
#include <vector>

#include "apps/coulomb/trinkle/trinkle_problem.h"

namespace coulomb::trinkle {

struct TrinkleSystem {
  int num_objects = 0;
  int num_joints = 0;
  int num_dofs = 0;          // 6 num_objects + num_joints
  Eigen::MatrixXd mass;      // M
  Eigen::VectorXd velocity;  // u
  Eigen::VectorXd force;     // f (τ of acceleration-prescribed joints excluded)
  Eigen::MatrixXd G;         // num_dofs × num_components
  Eigen::VectorXd bias;      // κ, one per component
  std::vector<int> offset;   // first component of each contact (n, t, o[, τ])
  int num_components = 0;
  Eigen::VectorXd contact_velocity;  // Gᵀ u
  // §2.5: prescribed joint accelerations (dof index, value); their efforts are unknowns.
  std::vector<int> prescribed_dofs;
  Eigen::VectorXd prescribed_acceleration;
};

TrinkleSystem BuildTrinkleSystem(const TrinkleProblem& problem);

// The affine map a = A c + b from contact forces to contact accelerations (eq. 24–26), with the
// prescribed joint accelerations substituted: A = G_Fᵀ M_FF⁻¹ G_F over the free dofs F.
struct ContactDynamics {
  Eigen::MatrixXd A;
  Eigen::VectorXd b;
  bool ok = true;  // false when M_FF is not positive definite
};
ContactDynamics ComputeContactDynamics(const TrinkleSystem& system);

// Generalized accelerations and the efforts of prescribed joints for given forces c (eq. 2, 5).
struct MotionRecovery {
  Eigen::VectorXd acceleration;  // u̇
  Eigen::VectorXd joint_effort;  // τ, with the prescribed joints' efforts filled in
};
MotionRecovery RecoverMotion(const TrinkleProblem& problem, const TrinkleSystem& system,
                             const Eigen::VectorXd& forces);

}  // namespace coulomb::trinkle
