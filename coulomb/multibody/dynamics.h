#pragma once
// Kinematics and dynamics of a rigid-body tree: forward kinematics, the mass matrix by the
// composite rigid body algorithm (CRBA), inverse dynamics by the recursive Newton–Euler
// algorithm (RNEA, with gravity, Coriolis and gyroscopic terms), Jacobians, energies.
// Kernels have the shape f(const Model&, Data&, ...): the Data caches what they compute.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/multibody/dof_blocks.h"
#include "coulomb/multibody/model.h"

namespace coulomb::multibody {

// Poses X_WB and body-frame spatial velocities for (q, v).
void CalcForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v);

// M(q) (with joint armature on the diagonal), by CRBA. Also stored in data.M.
const Eigen::MatrixXd& CalcMassMatrix(const Model& model, Data& data, const Eigen::VectorXd& q);

// The same M(q) as its diagonal blocks (FindDofBlocks), never forming the nv × nv matrix: a
// scene of 2 000 free bodies has nv = 12 000 and a dense M of 1.15 GB, its blocks 0.6 MB.
std::vector<Eigen::MatrixXd> CalcMassMatrixBlocks(const Model& model, Data& data,
                                                  const Eigen::VectorXd& q,
                                                  const std::vector<DofBlock>& blocks);
// The same into `M` (one matrix per data.dof_blocks entry, reusing their storage), after
// CalcForwardKinematics at q: CRBA needs only the joint transforms the kinematics left in data.
void CalcMassMatrixBlocksAtPoses(const Model& model, Data& data, std::vector<Eigen::MatrixXd>& M);

// τ = M(q) a + C(q, v) v + g(q) − (external body forces, body frame, one per body or empty).
Eigen::VectorXd CalcInverseDynamics(const Model& model, Data& data, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v, const Eigen::VectorXd& a);

// The bias C(q, v) v + g(q): inverse dynamics at zero acceleration. The reference is to
// data.bias_forces (valid until the next call), and leaves the kinematics at (q, v) in data.
const Eigen::VectorXd& CalcBiasForces(const Model& model, Data& data, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& v);
// The same after CalcForwardKinematics at (q, v), which it reads instead of repeating: a time
// step has just computed them to find its contacts.
const Eigen::VectorXd& CalcBiasForcesAtPoses(const Model& model, Data& data,
                                             const Eigen::VectorXd& v);

// a = M⁻¹ (τ − bias − damping·v).
Eigen::VectorXd CalcForwardDynamics(const Model& model, Data& data, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v, const Eigen::VectorXd& tau);

// After CalcForwardKinematics: the 3 × nv Jacobian of the world-frame velocity of the point with
// body-frame coordinates p_B, and the 6 × nv (linear at that point, angular) frame Jacobian.
Eigen::MatrixXd CalcPointJacobian(const Model& model, const Data& data, int body,
                                  const Eigen::Vector3d& p_B);
Eigen::MatrixXd CalcFrameJacobian(const Model& model, const Data& data, int body,
                                  const Eigen::Vector3d& p_B);

// After CalcForwardKinematics: visit(column, linear, angular) for each nonzero column of the
// frame Jacobian (the velocities on the path from body to root), linear at the point p_B.
template <class Visit>
void ForEachFrameJacobianColumn(const Model& model, const Data& data, int body,
                                const Eigen::Vector3d& p_B, Visit&& visit) {
  const Eigen::Vector3d p_W = data.X_world[body].Apply(p_B);
  for (int k = body; k >= 0; k = model.bodies[k].parent) {
    const Body& b = model.bodies[k];
    const int nv = VelocitySize(b.joint);
    const auto& S = data.S[k];
    const Transform& X = data.X_world[k];
    for (int c = 0; c < nv; ++c) {
      const Eigen::Vector3d w = X.R * S.template block<3, 1>(3, c);
      const Eigen::Vector3d linear = X.R * S.template block<3, 1>(0, c) + w.cross(p_W - X.p);
      visit(b.v_index + c, linear, w);
    }
  }
}

// The frame Jacobian's nonzero columns only (the velocities on the path from body to root).
struct FrameJacobianColumns {
  std::vector<int> columns;
  Eigen::Matrix<double, 6, Eigen::Dynamic> values;  // 6 × columns.size()
};
FrameJacobianColumns CalcFrameJacobianColumns(const Model& model, const Data& data, int body,
                                              const Eigen::Vector3d& p_B);

// After CalcForwardKinematics: ½ vᵀ M v and the gravitational potential −Σ m_i g·p_com,i.
double CalcKineticEnergy(const Model& model, const Data& data);
double CalcPotentialEnergy(const Model& model, const Data& data);

// q ⊕ v dt on each joint's manifold.
Eigen::VectorXd IntegrateConfiguration(const Model& model, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v, double dt);
// q ← q ⊕ v dt.
void IntegrateConfigurationInPlace(const Model& model, const Eigen::VectorXd& v, double dt,
                                   Eigen::VectorXd& q);

}  // namespace coulomb::multibody
