#include "coulomb/multibody/dynamics.h"

namespace coulomb::multibody {
namespace {

Eigen::VectorXd JointSegment(const Eigen::VectorXd& x, int start, int size) {
  return x.segment(start, size);
}

}  // namespace

void CalcForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const int nq = ConfigurationSize(b.joint), nv = VelocitySize(b.joint);
    const Transform X_pc =
        b.placement * JointTransform(b.joint, b.axis, JointSegment(q, b.q_index, nq));
    data.X_world[i] = b.parent < 0 ? X_pc : data.X_world[b.parent] * X_pc;
    data.X_up[i] = X_pc.MotionToChild();
    if (b.joint == JointType::kFloating) {
      // Linear velocity ṗ in the parent frame: its body-frame image is R_jᵀ ṗ (R_j the joint
      // rotation), so S depends on q (see joint.h).
      data.S[i].topLeftCorner<3, 3>() =
          JointTransform(b.joint, b.axis, JointSegment(q, b.q_index, nq)).R.transpose();
    }
    const Vector6d v_parent = b.parent < 0 ? Vector6d::Zero() : data.velocity[b.parent];
    data.velocity[i] = data.X_up[i] * v_parent;
    if (nv > 0) data.velocity[i] += data.S[i] * v.segment(b.v_index, nv);
  }
}

Eigen::VectorXd CalcInverseDynamics(const Model& model, Data& data, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v, const Eigen::VectorXd& a) {
  CalcForwardKinematics(model, data, q, v);
  // Gravity as a fictitious upward acceleration of the world (Featherstone's trick).
  Vector6d a_world = Vector6d::Zero();
  a_world.head<3>() = -model.gravity;
  const int n = static_cast<int>(model.bodies.size());
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    const int nv = VelocitySize(b.joint);
    const Vector6d& a_parent = b.parent < 0 ? a_world : data.acceleration[b.parent];
    data.acceleration[i] = data.X_up[i] * a_parent;
    if (nv > 0) {
      const auto& S = data.S[i];
      const Vector6d joint_velocity = S * v.segment(b.v_index, nv);
      data.acceleration[i] +=
          S * a.segment(b.v_index, nv) + CrossMotion(data.velocity[i], joint_velocity);
      if (b.joint == JointType::kFloating) {
        // Ṡ q̇ = (d/dt R_jᵀ) ṗ = −ω × (R_jᵀ ṗ): the joint's own bias acceleration.
        data.acceleration[i].head<3>() -=
            v.segment<3>(b.v_index + 3).cross(joint_velocity.head<3>());
      }
    }
    const Matrix6d I = b.inertia.Spatial();
    data.force[i] = I * data.acceleration[i] + CrossForce(data.velocity[i], I * data.velocity[i]);
  }
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  for (int i = n - 1; i >= 0; --i) {
    const Body& b = model.bodies[i];
    const int nv = VelocitySize(b.joint);
    if (nv > 0) {
      tau.segment(b.v_index, nv) = data.S[i].transpose() * data.force[i];
      tau.segment(b.v_index, nv) += b.armature * a.segment(b.v_index, nv);
    }
    if (b.parent >= 0) data.force[b.parent] += data.X_up[i].transpose() * data.force[i];
  }
  return tau;
}

Eigen::VectorXd CalcBiasForces(const Model& model, Data& data, const Eigen::VectorXd& q,
                               const Eigen::VectorXd& v) {
  return CalcInverseDynamics(model, data, q, v, Eigen::VectorXd::Zero(model.nv));
}

namespace {

// CRBA (Featherstone's composite rigid body algorithm). `store(row, col, block)` receives each
// nonzero block of the lower and upper triangles; the callers store it densely or per tree.
template <class Store>
void Crba(const Model& model, Data& data, const Eigen::VectorXd& q, Store&& store) {
  CalcForwardKinematics(model, data, q, Eigen::VectorXd::Zero(model.nv));
  const int n = static_cast<int>(model.bodies.size());
  for (int i = 0; i < n; ++i) data.composite[i] = model.bodies[i].inertia.Spatial();
  for (int i = n - 1; i >= 0; --i) {
    const int p = model.bodies[i].parent;
    if (p >= 0) data.composite[p] += data.X_up[i].transpose() * data.composite[i] * data.X_up[i];
  }
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    const int nv = VelocitySize(b.joint);
    if (nv == 0) continue;
    const auto& S = data.S[i];
    Eigen::Matrix<double, 6, Eigen::Dynamic> F = data.composite[i] * S;
    Eigen::MatrixXd diagonal = S.transpose() * F;
    diagonal.diagonal().array() += b.armature;
    store(b.v_index, b.v_index, diagonal);
    // Carry F up the chain: M_ji = S_jᵀ X_upᵀ … F.
    for (int j = i; model.bodies[j].parent >= 0;) {
      F = data.X_up[j].transpose() * F;
      j = model.bodies[j].parent;
      const Body& bj = model.bodies[j];
      if (VelocitySize(bj.joint) == 0) continue;
      const Eigen::MatrixXd off = data.S[j].transpose() * F;
      store(bj.v_index, b.v_index, off);
      store(b.v_index, bj.v_index, off.transpose());
    }
  }
}

}  // namespace

const Eigen::MatrixXd& CalcMassMatrix(const Model& model, Data& data, const Eigen::VectorXd& q) {
  data.M.setZero(model.nv, model.nv);
  Crba(model, data, q, [&](int row, int col, const Eigen::MatrixXd& block) {
    data.M.block(row, col, block.rows(), block.cols()) = block;
  });
  return data.M;
}

std::vector<Eigen::MatrixXd> CalcMassMatrixBlocks(const Model& model, Data& data,
                                                  const Eigen::VectorXd& q,
                                                  const std::vector<DofBlock>& blocks) {
  std::vector<Eigen::MatrixXd> M;
  M.reserve(blocks.size());
  for (const DofBlock& b : blocks) M.push_back(Eigen::MatrixXd::Zero(b.size, b.size));
  const std::vector<int> block_of = BlockOfVelocity(model, blocks);
  Crba(model, data, q, [&](int row, int col, const Eigen::MatrixXd& block) {
    const int k = block_of[row];  // a tree never straddles blocks, so col is in k too
    M[k].block(row - blocks[k].start, col - blocks[k].start, block.rows(), block.cols()) = block;
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
  const Eigen::Vector3d p_W = data.X_world[body].Apply(p_B);
  int at = 0;
  for (int k = body; k >= 0; k = model.bodies[k].parent) {
    const Body& b = model.bodies[k];
    const int nv = VelocitySize(b.joint);
    const auto& S = data.S[k];
    const Transform& X = data.X_world[k];
    for (int c = 0; c < nv; ++c, ++at) {
      const Eigen::Vector3d w = X.R * S.block<3, 1>(3, c);
      out.columns.push_back(b.v_index + c);
      out.values.block<3, 1>(0, at) = X.R * S.block<3, 1>(0, c) + w.cross(p_W - X.p);
      out.values.block<3, 1>(3, at) = w;
    }
  }
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
    e += 0.5 * data.velocity[i].dot(model.bodies[i].inertia.Spatial() * data.velocity[i]);
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
  for (const Body& b : model.bodies) {
    const int nq = ConfigurationSize(b.joint), nv = VelocitySize(b.joint);
    if (nq == 0) continue;
    IntegrateJoint(b.joint, v.segment(b.v_index, nv), dt, out.segment(b.q_index, nq));
  }
  return out;
}

}  // namespace coulomb::multibody
