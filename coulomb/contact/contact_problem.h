#pragma once
// ContactSet → ContactProblem: the only input the formulations get (DESIGN.md step 2).
//
// For one time step h from state (q, v) with applied generalized forces τ:
//   M v⁺ = M v* + Jᵀ γ,   v* = v + h M⁻¹ (τ − c(q, v) − D v)   (explicit free motion),
// where γ stacks contact impulses in normal-first frames (n, t, o) with o = n × t, and the rows
// of J give the velocity of A's material point relative to B's in that frame. Everything is in
// SI units; J, φ, μ are per contact.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/geometry/contact_set.h"
#include "coulomb/multibody/model.h"

namespace coulomb::contact {

using geometry::CombineFriction;
using geometry::Contact;
using geometry::ContactSet;

// A diagonal block of the mass matrix: the velocities [start, start + size) of one or more
// trees. M is block diagonal over these (DESIGN.md: dense per tree), so it is factored and
// solved per block, and W = J M⁻¹ Jᵀ only couples contacts that share a block.
struct DofBlock {
  int start = 0, size = 0;
};

// The smallest contiguous blocks such that no tree straddles two of them.
std::vector<DofBlock> FindDofBlocks(const multibody::Model& model);

// Per-block Cholesky factors of a block-diagonal SPD matrix.
class BlockCholesky {
 public:
  BlockCholesky() = default;
  BlockCholesky(const Eigen::MatrixXd& M, std::vector<DofBlock> blocks);
  bool ok() const { return ok_; }
  Eigen::VectorXd Solve(const Eigen::VectorXd& b) const;
  // M_bb⁻¹ X for the rows of block `index` (X has blocks[index].size rows).
  Eigen::MatrixXd SolveBlock(int index, const Eigen::MatrixXd& X) const;
  const std::vector<DofBlock>& blocks() const { return blocks_; }

 private:
  std::vector<DofBlock> blocks_;
  std::vector<Eigen::LLT<Eigen::MatrixXd>> factors_;
  bool ok_ = true;
};

struct ContactProblem {
  double time_step = 0;                 // h, s
  Eigen::MatrixXd M;                    // nv × nv mass matrix (block diagonal over trees)
  Eigen::VectorXd v;                    // current generalized velocity
  Eigen::VectorXd v_star;               // free-motion velocity
  Eigen::MatrixXd J;                    // 3 nc × nv, rows (n, t, o) per contact
  std::vector<Eigen::Matrix3d> frames;  // columns (n, t, o) of each contact, world
  Eigen::VectorXd phi, mu, restitution;
  Eigen::VectorXd compliance;  // m/N per contact (0: rigid)
  BlockCholesky mass;          // factors of M, block by block
  // d/dt (J v) at fixed v (3 n_c): the velocity-product term of contact accelerations, which
  // acceleration-level formulations need (paper 1's κ). Filled by sim::Step only for them;
  // empty means zero.
  Eigen::VectorXd contact_velocity_rate;
  int num_contacts() const { return static_cast<int>(phi.size()); }
  // The Delassus operator W = J M⁻¹ Jᵀ and free contact velocity J v* (local problem form).
  Eigen::MatrixXd Delassus() const;
  Eigen::VectorXd FreeContactVelocity() const { return J * v_star; }
};

// A tangent t for normal n: deterministic (depends only on n), so frames persist across steps.
Eigen::Vector3d ContactTangent(const Eigen::Vector3d& normal);

ContactProblem BuildContactProblem(const multibody::Model& model, multibody::Data& data,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& tau, const ContactSet& contacts,
                                   double time_step);

}  // namespace coulomb::contact
