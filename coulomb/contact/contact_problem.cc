#include "coulomb/contact/contact_problem.h"

#include <algorithm>
#include <cmath>

#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::contact {

BlockCholesky::BlockCholesky(const std::vector<Eigen::MatrixXd>& M_blocks,
                             std::vector<DofBlock> blocks)
    : blocks_(std::move(blocks)) {
  factors_.reserve(M_blocks.size());
  for (const Eigen::MatrixXd& M : M_blocks) {
    factors_.emplace_back(M);
    ok_ = ok_ && factors_.back().info() == Eigen::Success;
  }
}

Eigen::VectorXd BlockCholesky::Solve(const Eigen::VectorXd& rhs) const {
  Eigen::VectorXd x(rhs.size());
  for (std::size_t k = 0; k < blocks_.size(); ++k) {
    x.segment(blocks_[k].start, blocks_[k].size) =
        factors_[k].solve(rhs.segment(blocks_[k].start, blocks_[k].size));
  }
  return x;
}

Eigen::MatrixXd BlockCholesky::SolveBlock(int index, const Eigen::MatrixXd& X) const {
  return factors_[index].solve(X);
}

Eigen::MatrixXd BlockCholesky::SolveLowerBlock(int index, const Eigen::MatrixXd& X) const {
  return factors_[index].matrixL().solve(X);
}

Eigen::MatrixXd BlockCholesky::SolveUpperBlock(int index, const Eigen::MatrixXd& X) const {
  return factors_[index].matrixU().solve(X);
}

Eigen::MatrixXd ContactProblem::MassMatrix() const {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(nv(), nv());
  for (std::size_t k = 0; k < M_blocks.size(); ++k) {
    const DofBlock& b = mass.blocks()[k];
    M.block(b.start, b.start, b.size, b.size) = M_blocks[k];
  }
  return M;
}

Eigen::VectorXd ContactProblem::MultiplyMass(const Eigen::VectorXd& x) const {
  Eigen::VectorXd y(x.size());
  for (std::size_t k = 0; k < M_blocks.size(); ++k) {
    const DofBlock& b = mass.blocks()[k];
    y.segment(b.start, b.size) = M_blocks[k] * x.segment(b.start, b.size);
  }
  return y;
}

Eigen::MatrixXd ContactProblem::Delassus() const {
  const Eigen::MatrixXd Jd(J);
  return Jd * MassMatrix().llt().solve(Jd.transpose());
}

namespace {

// The DofBlock of each body's velocities (−1 for bodies of the world's tree without any).
std::vector<int> BlockOfBodies(const multibody::Model& model, const std::vector<DofBlock>& blocks) {
  std::vector<int> block(model.bodies.size(), -1);
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const multibody::Body& body = model.bodies[b];
    if (multibody::VelocitySize(body.joint) > 0) {
      for (std::size_t k = 0; k < blocks.size(); ++k) {
        if (body.v_index >= blocks[k].start && body.v_index < blocks[k].start + blocks[k].size) {
          block[b] = static_cast<int>(k);
        }
      }
    } else if (body.parent >= 0) {
      block[b] = block[body.parent];  // welded to its parent: moves with the parent's block
    }
  }
  return block;
}

void AddJointConstraints(const multibody::Model& model, const Eigen::VectorXd& q,
                         ContactProblem& p) {
  p.damping = Eigen::VectorXd::Zero(model.nv);
  for (const multibody::Body& b : model.bodies) {
    if (multibody::VelocitySize(b.joint) != 1) continue;
    p.damping[b.v_index] = b.damping;
    if (std::isfinite(b.position_lower) || std::isfinite(b.position_upper)) {
      p.limits.push_back(
          {b.joint_name, b.v_index, q[b.q_index], b.position_lower, b.position_upper});
    }
  }
  for (const multibody::JointCoupler& c : model.couplers) {
    const multibody::Body& follower = model.bodies[c.body];
    const multibody::Body& leader = model.bodies[c.mimicked_body];
    BilateralConstraint coupler{"coupler of joint '" + follower.joint_name + "'",
                                Eigen::MatrixXd::Zero(1, model.nv), Eigen::VectorXd(1)};
    coupler.J(0, follower.v_index) = 1;
    coupler.J(0, leader.v_index) -= c.multiplier;
    coupler.g0[0] = q[follower.q_index] - c.multiplier * q[leader.q_index] - c.offset;
    p.bilateral.push_back(std::move(coupler));
  }
}

// World pose and 6 × nv frame Jacobian (linear at point p_B, angular) of a body, or of the world.
std::pair<multibody::Transform, Eigen::MatrixXd> FrameOf(const multibody::Model& model,
                                                         const multibody::Data& data, int body,
                                                         const Eigen::Vector3d& p_B) {
  if (body < 0) return {multibody::Transform{}, Eigen::MatrixXd::Zero(6, model.nv)};
  return {data.X_world[body], multibody::CalcFrameJacobian(model, data, body, p_B)};
}

// Welds: B's origin held at X_AB's position in A, and B's orientation at A's times R_AB. The
// errors are world vectors (position, and the rotation vector of R_B R_targetᵀ), whose rates are
// the relative linear velocity at B's origin and the relative angular velocity.
// Distance constraints: ‖p_B − p_A‖ − d, whose rate is the relative velocity along the line.
void AddHolonomicConstraints(const multibody::Model& model, const multibody::Data& data,
                             ContactProblem& p) {
  for (const multibody::WeldConstraint& w : model.welds) {
    const auto [X_B, J_B] = FrameOf(model, data, w.body_b, Eigen::Vector3d::Zero());
    const Eigen::Vector3d p_on_A =
        w.body_a < 0 ? Eigen::Vector3d(X_B.p) : data.X_world[w.body_a].Inverse().Apply(X_B.p);
    const auto [X_A, J_A] = FrameOf(model, data, w.body_a, p_on_A);
    const multibody::Transform target = X_A * w.X_AB;
    const Eigen::AngleAxisd error(X_B.R * target.R.transpose());
    BilateralConstraint weld{"weld '" + w.name + "'", J_B - J_A, Eigen::VectorXd(6)};
    weld.g0 << X_B.p - target.p, error.angle() * error.axis();
    p.bilateral.push_back(std::move(weld));
  }
  for (const multibody::DistanceConstraint& d : model.distances) {
    const auto [X_A, J_A] = FrameOf(model, data, d.body_a, d.p_A);
    const auto [X_B, J_B] = FrameOf(model, data, d.body_b, d.p_B);
    const Eigen::Vector3d delta = X_B.Apply(d.p_B) - X_A.Apply(d.p_A);
    const double length = delta.norm();
    const Eigen::Vector3d direction =
        length > 0 ? Eigen::Vector3d(delta / length) : Eigen::Vector3d::UnitZ();
    BilateralConstraint rod{"distance constraint '" + d.name + "'",
                            direction.transpose() * (J_B - J_A).topRows<3>(),
                            Eigen::VectorXd::Constant(1, length - d.distance)};
    p.bilateral.push_back(std::move(rod));
  }
}

}  // namespace

ContactProblem BuildContactProblem(const multibody::Model& model, multibody::Data& data,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& tau, const ContactSet& set, double h) {
  ContactProblem p;
  p.time_step = h;
  p.v = v;
  const std::vector<DofBlock> blocks = FindDofBlocks(model);
  p.M_blocks = multibody::CalcMassMatrixBlocks(model, data, q, blocks);
  Eigen::VectorXd force = tau - multibody::CalcBiasForces(model, data, q, v);
  AddJointConstraints(model, q, p);
  force -= p.damping.cwiseProduct(v);
  p.mass = BlockCholesky(p.M_blocks, blocks);
  const std::vector<int> block_of_body = BlockOfBodies(model, p.mass.blocks());
  p.v_star = v + h * p.mass.Solve(force);
  multibody::CalcForwardKinematics(model, data, q, v);  // poses for the Jacobians
  AddHolonomicConstraints(model, data, p);
  const int nc = static_cast<int>(set.contacts.size());
  std::vector<Eigen::Triplet<double>> triplets;
  p.phi.resize(nc);
  p.mu.resize(nc);
  p.restitution.resize(nc);
  p.compliance.resize(nc);
  for (int k = 0; k < nc; ++k) {
    const Contact& c = set.contacts[k];
    const Eigen::Matrix3d frame = math::ContactFrame(c.normal);
    p.frames.push_back(frame);
    // Velocity of the material point of A at the contact minus that of B, in (n, t, o): only the
    // velocities on the two bodies' paths to their roots (duplicates, in one tree, are summed).
    const auto add = [&](int body, double sign) {
      if (body < 0) return;
      const Eigen::Vector3d p_B = data.X_world[body].Inverse().Apply(c.point);
      const multibody::FrameJacobianColumns Jb =
          multibody::CalcFrameJacobianColumns(model, data, body, p_B);
      const Eigen::Matrix<double, 3, Eigen::Dynamic> rows =
          sign * frame.transpose() * Jb.values.topRows<3>();
      for (std::size_t col = 0; col < Jb.columns.size(); ++col) {
        for (int r = 0; r < 3; ++r) {
          triplets.emplace_back(3 * k + r, Jb.columns[col],
                                rows(r, static_cast<Eigen::Index>(col)));
        }
      }
    };
    add(c.body_a, 1.0);
    add(c.body_b, -1.0);
    p.contact_blocks.push_back(
        {c.body_a < 0 ? -1 : block_of_body[c.body_a], c.body_b < 0 ? -1 : block_of_body[c.body_b]});
    p.phi[k] = c.phi;
    p.mu[k] = c.mu;
    p.restitution[k] = c.restitution;
    p.compliance[k] = c.compliance;
  }
  p.J.resize(3 * nc, model.nv);
  p.J.setFromTriplets(triplets.begin(), triplets.end());
  return p;
}

}  // namespace coulomb::contact
