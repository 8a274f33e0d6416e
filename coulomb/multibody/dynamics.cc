#include "coulomb/multibody/dynamics.h"

namespace coulomb::multibody {

namespace {

// S q̇ for a joint's nv velocities from index `at` of `qd`. Most joints have one velocity; with it
// S is one fixed-size column, where the general product would go through Eigen's run-time-sized
// kernels (the dynamics below do this once or twice per body and per pass).
Vector6d JointMotion(const MotionSubspaceMatrix& S, const Eigen::VectorXd& qd, int at, int nv) {
  if (nv == 1) return S.col(0) * qd[at];
  if (nv == 6) {  // a floating joint's, in fixed size
    return Eigen::Map<const Eigen::Matrix<double, 6, 6>>(S.data()) * qd.segment<6>(at);
  }
  return S * qd.segment(at, nv);
}

// A free body alone in its tree with its centre of mass at its origin: its mass block is
// diag(m I, I_c) at every pose and its bias forces are (−m R_pᵀ g, ω × I_c ω) (R_p its
// placement: ṗ is in the joint frame), written in closed form by CRBA and RNEA. The most common
// body of a scene (every box, sphere and capsule), and the closed form keeps the mass block the
// same bits from step to step, so that its factors are kept (BlockCholesky::Factor).
bool IsLoneCentredFreeBody(const Body& b, const Data& data, int i) {
  return b.joint == JointType::kFloating && b.parent < 0 && data.has_children[i] == 0 &&
         b.inertia.com.isZero(0);
}

}  // namespace

void CalcForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const int nq = ConfigurationSize(b.joint), nv = VelocitySize(b.joint);
    const Transform X_joint = JointTransform(b.joint, b.axis, q.segment(b.q_index, nq));
    const Transform X_pc = b.placement * X_joint;
    data.X_world[i] = b.parent < 0 ? X_pc : data.X_world[b.parent] * X_pc;
    data.X_parent[i] = X_pc;
    if (b.joint == JointType::kFloating) {
      // Linear velocity ṗ in the parent frame: its body-frame image is R_jᵀ ṗ (R_j the joint
      // rotation), so S depends on q (see joint.h).
      data.S[i].topLeftCorner<3, 3>() = X_joint.R.transpose();
    }
    if (b.parent < 0) {
      data.velocity[i].setZero();
    } else {
      data.velocity[i] = X_pc.ApplyMotionToChild(data.velocity[b.parent]);
    }
    if (nv > 0) data.velocity[i] += JointMotion(data.S[i], v, b.v_index, nv);
  }
}

namespace {

// RNEA into tau (resized to nv) on the kinematics of the last CalcForwardKinematics at (q, v);
// a == nullptr is zero acceleration, without forming the zeros.
void RneaAtPoses(const Model& model, Data& data, const Eigen::VectorXd& v, const Eigen::VectorXd* a,
                 Eigen::VectorXd& tau) {
  // Gravity as a fictitious upward acceleration of the world (Featherstone's trick).
  Vector6d a_world = Vector6d::Zero();
  a_world.head<3>() = -model.gravity;
  const int n = static_cast<int>(model.bodies.size());
  tau.setZero(model.nv);
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    const int nv = VelocitySize(b.joint);
    if (a == nullptr && IsLoneCentredFreeBody(b, data, i)) {
      const Eigen::Vector3d omega = v.segment<3>(b.v_index + 3);
      tau.segment<3>(b.v_index).noalias() =
          -b.inertia.mass * (b.placement.R.transpose() * model.gravity);
      tau.segment<3>(b.v_index + 3) = omega.cross(b.inertia.rotational * omega);
      continue;  // nothing to pass to a parent
    }
    const Vector6d& a_parent = b.parent < 0 ? a_world : data.acceleration[b.parent];
    data.acceleration[i] = data.X_parent[i].ApplyMotionToChild(a_parent);
    if (nv > 0) {
      const auto& S = data.S[i];
      const Vector6d joint_velocity = JointMotion(S, v, b.v_index, nv);
      data.acceleration[i] += CrossMotion(data.velocity[i], joint_velocity);
      if (a != nullptr) data.acceleration[i] += JointMotion(S, *a, b.v_index, nv);
      if (b.joint == JointType::kFloating) {
        // Ṡ q̇ = (d/dt R_jᵀ) ṗ = −ω × (R_jᵀ ṗ): the joint's own bias acceleration.
        data.acceleration[i].head<3>() -=
            v.segment<3>(b.v_index + 3).cross(joint_velocity.head<3>());
      }
    }
    data.force[i] = b.inertia.Apply(data.acceleration[i]) +
                    CrossForce(data.velocity[i], b.inertia.Apply(data.velocity[i]));
  }
  for (int i = n - 1; i >= 0; --i) {
    const Body& b = model.bodies[i];
    const int nv = VelocitySize(b.joint);
    if (a == nullptr && IsLoneCentredFreeBody(b, data, i)) continue;  // written above
    if (nv == 1) {
      tau[b.v_index] = data.S[i].col(0).dot(data.force[i]);
      if (a != nullptr) tau[b.v_index] += b.armature * (*a)[b.v_index];
    } else if (nv > 0) {
      tau.segment(b.v_index, nv) = data.S[i].transpose() * data.force[i];
      if (a != nullptr) tau.segment(b.v_index, nv) += b.armature * a->segment(b.v_index, nv);
    }
    if (b.parent >= 0) data.force[b.parent] += data.X_parent[i].ApplyForceToParent(data.force[i]);
  }
}

}  // namespace

Eigen::VectorXd CalcInverseDynamics(const Model& model, Data& data, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v, const Eigen::VectorXd& a) {
  Eigen::VectorXd tau;
  CalcForwardKinematics(model, data, q, v);
  RneaAtPoses(model, data, v, &a, tau);
  return tau;
}

const Eigen::VectorXd& CalcBiasForces(const Model& model, Data& data, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& v) {
  CalcForwardKinematics(model, data, q, v);
  return CalcBiasForcesAtPoses(model, data, v);
}

const Eigen::VectorXd& CalcBiasForcesAtPoses(const Model& model, Data& data,
                                             const Eigen::VectorXd& v) {
  RneaAtPoses(model, data, v, nullptr, data.bias_forces);
  return data.bias_forces;
}

namespace {

// CRBA (Featherstone's composite rigid body algorithm), on the kinematics of the last
// CalcForwardKinematics. `store(row, col, block)` receives each nonzero block of the lower and
// upper triangles (a double for a 1 × 1 block); the callers store it densely or per tree. The
// composite inertias are summed from the leaves in body frames; then each joint's S and its
// composite momentum F = I_c S are expressed once in the world frame, where an ancestor j's block
// is M_ji = S_jᵀ F_i (power does not depend on the frame): the part that grows with the square of
// a tree's depth is dot products, with no transform carried up the chain (MuJoCo's choice; its
// frames sit at subtree centres of mass, ours at the world origin).
template <class Store>
void Crba(const Model& model, Data& data, Store&& store) {
  using JointBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
  const int n = static_cast<int>(model.bodies.size());
  // (A lone centred free body's composite inertia is never read: its block is written below.)
  for (int i = 0; i < n; ++i) {
    if (IsLoneCentredFreeBody(model.bodies[i], data, i)) continue;
    data.composite[i] = math::OriginInertia::Of(model.bodies[i].inertia);
  }
  for (int i = n - 1; i >= 0; --i) {
    const int p = model.bodies[i].parent;
    if (p >= 0) data.composite[p] += data.composite[i].InParent(data.X_parent[i]);
  }
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    const int nv = VelocitySize(b.joint);
    if (nv == 0) continue;
    const MotionSubspaceMatrix& S = data.S[i];
    MotionSubspaceMatrix& S_world = data.S_world[i];
    MotionSubspaceMatrix& F_world = data.F_world[i];
    // In the world frame only what an off-diagonal block reads: F for a body below another,
    // S for a body above one (a free body, alone in its tree, needs neither).
    const bool below = b.parent >= 0, above = data.has_children[i] != 0;
    if (IsLoneCentredFreeBody(b, data, i)) {
      // M = diag(m I, I_c) (S's linear block R_jᵀ is orthogonal), exactly rather than as
      // m R_jᵀᵀ R_jᵀ with a rounding that changes with the pose.
      Eigen::Matrix<double, 6, 6> lone = Eigen::Matrix<double, 6, 6>::Zero();  // fixed size
      lone.topLeftCorner<3, 3>().diagonal().setConstant(b.inertia.mass);
      lone.bottomRightCorner<3, 3>() = b.inertia.rotational;
      lone.diagonal().array() += b.armature;
      store(b.v_index, b.v_index, lone);
      continue;
    }
    JointBlock diagonal(nv, nv);
    for (int c = 0; c < nv; ++c) {
      const Vector6d F = data.composite[i].Apply(S.col(c));
      diagonal.col(c).noalias() = S.transpose() * F;  // in the body frame, as before
      if (above) S_world.col(c) = data.X_world[i].ApplyMotionToParent(S.col(c));
      if (below) F_world.col(c) = data.X_world[i].ApplyForceToParent(F);
    }
    diagonal.diagonal().array() += b.armature;
    if (nv == 1) {
      store(b.v_index, b.v_index, diagonal(0, 0));
    } else {
      store(b.v_index, b.v_index, diagonal);
    }
  }
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    const int nv = VelocitySize(b.joint);
    if (nv == 0) continue;
    for (int j = b.parent; j >= 0; j = model.bodies[j].parent) {
      const Body& bj = model.bodies[j];
      const int nv_j = VelocitySize(bj.joint);
      if (nv_j == 0) continue;
      if (nv == 1 && nv_j == 1) {
        const double m = data.S_world[j].col(0).dot(data.F_world[i].col(0));
        store(bj.v_index, b.v_index, m);
        store(b.v_index, bj.v_index, m);
        continue;
      }
      const JointBlock off = data.S_world[j].transpose() * data.F_world[i];
      store(bj.v_index, b.v_index, off);
      const JointBlock off_transposed = off.transpose();
      store(b.v_index, bj.v_index, off_transposed);
    }
  }
}

// M's entry at (row, col) ← value.
void StoreBlock(double value, int row, int col, Eigen::MatrixXd& M) {
  M(row, col) = value;
}

// M's block at (row, col) ← block. Most blocks are 1 × 1 (two one-velocity joints), where a
// run-time-sized block copy costs several times the entry.
template <class Block>
void StoreBlock(const Block& block, int row, int col, Eigen::MatrixXd& M) {
  if (block.rows() == 1 && block.cols() == 1) {
    M(row, col) = block(0, 0);
  } else if (block.rows() == 6 && block.cols() == 6) {  // a free body's, in fixed size
    M.block<6, 6>(row, col) = block;
  } else {
    M.block(row, col, block.rows(), block.cols()) = block;
  }
}

}  // namespace

const Eigen::MatrixXd& CalcMassMatrix(const Model& model, Data& data, const Eigen::VectorXd& q) {
  data.M.setZero(model.nv, model.nv);
  CalcForwardKinematics(model, data, q, data.zero_velocity);
  Crba(model, data,
       [&](int row, int col, const auto& block) { StoreBlock(block, row, col, data.M); });
  return data.M;
}

void CalcMassMatrixBlocksAtPoses(const Model& model, Data& data, std::vector<Eigen::MatrixXd>& M) {
  const std::vector<DofBlock>& blocks = data.dof_blocks;
  M.resize(blocks.size());
  for (std::size_t k = 0; k < blocks.size(); ++k) M[k].setZero(blocks[k].size, blocks[k].size);
  Crba(model, data, [&](int row, int col, const auto& block) {
    const int k = data.block_of_velocity[row];  // a tree never straddles blocks: col is in k too
    StoreBlock(block, row - blocks[k].start, col - blocks[k].start, M[k]);
  });
}

std::vector<Eigen::MatrixXd> CalcMassMatrixBlocks(const Model& model, Data& data,
                                                  const Eigen::VectorXd& q,
                                                  const std::vector<DofBlock>& blocks) {
  std::vector<Eigen::MatrixXd> M;
  M.reserve(blocks.size());
  for (const DofBlock& b : blocks) M.push_back(Eigen::MatrixXd::Zero(b.size, b.size));
  const std::vector<int> block_of = BlockOfVelocity(model, blocks);
  CalcForwardKinematics(model, data, q, data.zero_velocity);
  Crba(model, data, [&](int row, int col, const auto& block) {
    const int k = block_of[row];  // a tree never straddles blocks, so col is in k too
    StoreBlock(block, row - blocks[k].start, col - blocks[k].start, M[k]);
  });
  return M;
}

Eigen::VectorXd CalcForwardDynamics(const Model& model, Data& data, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v, const Eigen::VectorXd& tau) {
  Eigen::VectorXd rhs = tau - CalcBiasForces(model, data, q, v);
  for (const Body& b : model.bodies) {
    if (VelocitySize(b.joint) == 1) rhs[b.v_index] -= b.damping * v[b.v_index];
  }
  return CalcMassMatrix(model, data, q).llt().solve(rhs);
}

FrameJacobianColumns CalcFrameJacobianColumns(const Model& model, const Data& data, int body,
                                              const Eigen::Vector3d& p_B) {
  FrameJacobianColumns out;
  int count = 0;
  for (int k = body; k >= 0; k = model.bodies[k].parent)
    count += VelocitySize(model.bodies[k].joint);
  out.columns.reserve(count);
  out.values.resize(6, count);
  ForEachFrameJacobianColumn(
      model, data, body, p_B,
      [&](int column, const Eigen::Vector3d& linear, const Eigen::Vector3d& angular) {
        const auto at = static_cast<Eigen::Index>(out.columns.size());
        out.columns.push_back(column);
        out.values.block<3, 1>(0, at) = linear;
        out.values.block<3, 1>(3, at) = angular;
      });
  return out;
}

Eigen::MatrixXd CalcFrameJacobian(const Model& model, const Data& data, int body,
                                  const Eigen::Vector3d& p_B) {
  const FrameJacobianColumns sparse = CalcFrameJacobianColumns(model, data, body, p_B);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(6, model.nv);
  for (std::size_t c = 0; c < sparse.columns.size(); ++c) {
    J.col(sparse.columns[c]) = sparse.values.col(static_cast<Eigen::Index>(c));
  }
  return J;
}

Eigen::MatrixXd CalcPointJacobian(const Model& model, const Data& data, int body,
                                  const Eigen::Vector3d& p_B) {
  return CalcFrameJacobian(model, data, body, p_B).topRows<3>();
}

double CalcKineticEnergy(const Model& model, const Data& data) {
  double e = 0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    e += 0.5 * data.velocity[i].dot(model.bodies[i].inertia.Apply(data.velocity[i]));
  }
  return e;
}

double CalcPotentialEnergy(const Model& model, const Data& data) {
  double e = 0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Inertia& I = model.bodies[i].inertia;
    e -= I.mass * model.gravity.dot(data.X_world[i].Apply(I.com));
  }
  return e;
}

Eigen::VectorXd IntegrateConfiguration(const Model& model, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v, double dt) {
  Eigen::VectorXd out = q;
  IntegrateConfigurationInPlace(model, v, dt, out);
  return out;
}

void IntegrateConfigurationInPlace(const Model& model, const Eigen::VectorXd& v, double dt,
                                   Eigen::VectorXd& q) {
  for (const Body& b : model.bodies) {
    const int nq = ConfigurationSize(b.joint), nv = VelocitySize(b.joint);
    if (nq == 0) continue;
    IntegrateJoint(b.joint, v.segment(b.v_index, nv), dt, q.segment(b.q_index, nq));
  }
}

}  // namespace coulomb::multibody
