#pragma once
// ContactSet → ContactProblem: the only input the formulations get (docs/DESIGN.md step 2).
//
// For one time step h from state (q, v) with applied generalized forces τ:
//   M v⁺ = M v* + Jᵀ γ,   v* = v + h M⁻¹ (τ − c(q, v) − D v)   (explicit free motion),
// where γ stacks contact impulses in normal-first frames (n, t, o) with o = n × t, and the rows
// of J give the velocity of A's material point relative to B's in that frame. Everything is in
// SI units; J, φ, μ are per contact.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "coulomb/geometry/contact_set.h"
#include "coulomb/math/sparse_assembly.h"
#include "coulomb/multibody/dof_blocks.h"
#include "coulomb/multibody/model.h"

namespace coulomb::contact {

using geometry::CombineFriction;
using geometry::Contact;
using geometry::ContactSet;

using multibody::DofBlock;
using multibody::FindDofBlocks;

// Per-block Cholesky factors of a block-diagonal SPD matrix given by its diagonal blocks.
class BlockCholesky {
 public:
  BlockCholesky() = default;
  BlockCholesky(const std::vector<Eigen::MatrixXd>& M_blocks, const std::vector<DofBlock>& blocks);
  // Factors M_blocks again, reusing the factors' storage (no allocation for the same sizes). A
  // block equal, bit for bit, to the one last factored keeps its factors and its inverse (a free
  // body's constant mass, multibody/dynamics.cc). `reductions` (per block, size × r, or empty)
  // restrict a block's velocities to v_b = T z: "M⁻¹" is then T (Tᵀ M T)⁻¹ Tᵀ, the inverse mass of
  // the constrained block (mimic joints).
  void Factor(const std::vector<Eigen::MatrixXd>& M_blocks, const std::vector<DofBlock>& blocks,
              const std::vector<Eigen::MatrixXd>* reductions = nullptr);
  bool ok() const { return ok_; }
  Eigen::VectorXd Solve(const Eigen::VectorXd& b) const;
  // x ← M⁻¹ x in place.
  void SolveInPlace(Eigen::VectorXd& x) const;
  // With (Tᵀ) M_bb (T) = L Lᵀ: X ← L⁻¹ (Tᵀ) X and X ← (T) L⁻ᵀ X in place, for the rows of block
  // `index`; with a reduction the first leaves r rows and the second takes r rows back to size.
  void SolveLowerBlockInPlace(int index, Eigen::MatrixXd& X) const;
  void SolveUpperBlockInPlace(int index, Eigen::MatrixXd& X) const;
  const std::vector<DofBlock>& blocks() const { return blocks_; }
  // Block `index`'s dense inverse M_bb⁻¹ (T (Tᵀ M_bb T)⁻¹ Tᵀ with a reduction) into Minv,
  // size × size: for the solvers that keep M⁻¹ Jᵀ per contact.
  void InvertBlock(int index, Eigen::Map<Eigen::MatrixXd> Minv) const;

 private:
  void CalcInverse(int index, Eigen::Map<Eigen::MatrixXd> Minv) const;
  std::vector<DofBlock> blocks_;
  std::vector<Eigen::LLT<Eigen::MatrixXd>> factors_;
  std::vector<Eigen::MatrixXd> reductions_;
  std::vector<Eigen::MatrixXd> factored_;  // per block, what factors_ factored (no reduction)
  // InvertBlock's answers, valid until the block is factored again: a cache behind a const
  // query, written only for the block asked for.
  mutable std::vector<Eigen::MatrixXd> inverses_;
  mutable std::vector<char> inverse_valid_;
  bool ok_ = true;
};

// Joint limits, holonomic constraints and PD drives, which the SAP formulation enforces
// implicitly (docs/notes/sap-and-deformables.md §1.3). The complementarity formulations see a
// limit the joint can reach within the step as a frictionless contact (LimitContact below);
// holonomic constraints are SAP-only, and PD drives are explicit torques there (sim/actuator.h).
struct JointLimit {
  std::string joint;
  int dof = 0;   // velocity index
  int body = 0;  // the body the joint moves
  double q = 0;  // position at the start of the step, rad or m
  double lower = -INFINITY, upper = INFINITY;
};
// Coulomb friction of a 1-dof joint: |τ| ≤ friction, opposing its motion (URDF <dynamics
// friction>).
struct JointFriction {
  std::string joint;
  int dof = 0;          // velocity index
  double friction = 0;  // N m or N, > 0
};
// A joint limit posed as a contact row: normal row side·e_dofᵀ (side +1 for a lower bound, −1
// for an upper), zero tangent rows, μ = 0, φ = side·(q_dof − bound) ≥ 0 inside the range. Its
// normal impulse is the limit's generalized impulse on `dof` (N m s or N s). A mimic follower's
// limit is a bound on its leader (q_f = m q_l + o), so it lands on the leader's row.
struct LimitContact {
  int limit = 0;     // the JointLimit (ContactProblem::limits) it comes from, for names
  int dof = 0;       // velocity index of the row: the limit's joint, or its leader's
  int body = 0;      // the body that joint moves
  int side = 1;      // +1 lower, −1 upper
  double bound = 0;  // on q_dof, rad or m
};
// Whether BuildContactProblem poses the joint limits as contacts (for the formulations that have
// no constraint rows of their own) or leaves them to `limits` alone (SAP).
enum class LimitRows { kConstraintsOnly, kAsContacts };
// A holonomic constraint g(q) = 0 linearized at the start of the step: ġ = J v. Couplers, welds
// and distance constraints of the Model.
struct BilateralConstraint {
  std::string name;
  Eigen::MatrixXd J;   // rows × nv
  Eigen::VectorXd g0;  // g at the start of the step (m or rad)
};
struct JointDrive {  // τ = clamp(kp (q_ref − q) + kd (v_ref − v), ±effort) at the end of the step
  std::string joint;
  int dof = 0;
  double q = 0, q_ref = 0, v_ref = 0, kp = 0, kd = 0, effort = INFINITY;
};

struct ContactProblem {
  double time_step = 0;  // h, s
  // The mass of the step, M + h D (joint damping D implicit), block diagonal over trees: its
  // diagonal blocks, one per mass.blocks() entry. Never formed as an nv × nv matrix
  // (MassMatrix() does, for small models and tests).
  std::vector<Eigen::MatrixXd> M_blocks;
  Eigen::VectorXd v;       // current generalized velocity
  Eigen::VectorXd v_star;  // free-motion velocity
  // 3 nc × nv, rows (n, t, o) per contact; sparse: a contact touches at most two trees.
  Eigen::SparseMatrix<double, Eigen::RowMajor> J;
  std::vector<Eigen::Matrix3d> frames;  // columns (n, t, o) of each contact, world
  std::vector<Eigen::Vector3d> points;  // each contact's point, world, m (limit contacts: 0)
  Eigen::VectorXd phi, mu, restitution;
  Eigen::VectorXd compliance;  // m/N per contact (0: rigid)
  // Factors of M, block by block, with mimic joints as a change of variables: M⁻¹ is the
  // inverse mass of the coupled system, so every formulation's v = v* + M⁻¹ Jᵀ γ keeps
  // v_follower = m v_leader exactly (SAP also gets the coupler as a constraint in `bilateral`).
  BlockCholesky mass;
  std::vector<Eigen::MatrixXd> mimic_reductions;  // per block: T, or empty (no follower)
  // Per contact, the DofBlock (index into mass.blocks()) of side A and of side B; −1 for a side
  // without velocities (the world, a fixed body). Both equal when one tree touches itself.
  std::vector<std::array<int, 2>> contact_blocks;
  // Per mass block, 1 when it holds a deformable body's participating velocities (its mass the
  // Schur complement Â of the body's step, formulations/mixed_step.h), 0 for a rigid tree; empty
  // when every block is a tree. SAP reads it to treat deformable contacts as paper 2 does.
  std::vector<char> deformable_blocks;
  bool IsDeformableBlock(int block) const {
    return block >= 0 && static_cast<std::size_t>(block) < deformable_blocks.size() &&
           deformable_blocks[static_cast<std::size_t>(block)] != 0;
  }
  // Joint damping per velocity (N m s/rad or N s/m), already in M_blocks (h D) and v*; folded
  // PD drives add their kd + h kp here too.
  Eigen::VectorXd damping;
  Eigen::VectorXd applied;  // the generalized force of v* before the mass solve (workspace)
  std::vector<char> saturated_drives;  // per folded drive: at its effort limit (workspace)
  // Coulomb friction of 1-dof joints that have it. SAP enforces it; the other formulations
  // ignore it (sim::ConstraintsIgnoredBy says so).
  std::vector<JointFriction> joint_friction;
  std::vector<JointLimit> limits;  // finite limits of 1-dof joints
  // With LimitRows::kAsContacts, the contacts after the geometric ones: limits the joint can
  // reach within the step (2 h max(|v|, |v*|) of its bound, SAP's window), one per joint and
  // side (the tightest), in that order.
  std::vector<LimitContact> limit_contacts;
  std::vector<BilateralConstraint> bilateral;  // couplers, welds, distance constraints
  std::vector<JointDrive> drives;  // filled by sim::Step when the formulation wants them
  // d/dt (J v) at fixed v (3 n_c): the velocity-product term of contact accelerations, which
  // acceleration-level formulations need (paper 1's κ). Filled by sim::Step only for them;
  // empty means zero.
  Eigen::VectorXd contact_velocity_rate;
  // Assembly scratch, kept so a problem rebuilt in place (BuildContactProblem's second form)
  // reuses its capacity.
  math::TripletBuffer jacobian_entries;
  // One contact's Jacobian columns (column, its three rows) before they go in row order.
  std::vector<std::pair<int, Eigen::Vector3d>> contact_columns;
  Eigen::VectorXd force;
  int num_contacts() const { return static_cast<int>(phi.size()); }
  // The contacts that come from geometry, 0 … n_g − 1; the limit contacts follow them.
  int num_geometric_contacts() const {
    return num_contacts() - static_cast<int>(limit_contacts.size());
  }
  int nv() const { return static_cast<int>(v.size()); }
  // The dense M, M x, and the Delassus operator W = J M⁻¹ Jᵀ (dense: small problems and tests).
  Eigen::MatrixXd MassMatrix() const;
  Eigen::VectorXd MultiplyMass(const Eigen::VectorXd& x) const;
  void MultiplyMass(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;  // into y's storage
  Eigen::MatrixXd Delassus() const;
  Eigen::VectorXd FreeContactVelocity() const { return J * v_star; }
};

ContactProblem BuildContactProblem(const multibody::Model& model, multibody::Data& data,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& tau, const ContactSet& contacts,
                                   double time_step);
// The same, rebuilt into `problem`, whose storage is reused: once a scene's sizes have been seen,
// this allocates nothing (for models without couplers, welds and distance constraints, whose
// rows carry names). Leaves data's kinematics at (q, v).
void BuildContactProblem(const multibody::Model& model, multibody::Data& data,
                         const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                         const Eigen::VectorXd& tau, const ContactSet& contacts, double time_step,
                         ContactProblem& problem,
                         LimitRows limit_rows = LimitRows::kConstraintsOnly);
// The same when data's kinematics are already at (q, v) (the time step computed them to find
// the contacts): they are read, not recomputed.
// `folded_drives` (formulations without drive constraints of their own: the cone and the
// velocity LCP) are PD drives taken implicitly into the step's mass and free motion, as joint
// damping is: the drive's torque at the step's end, kp (q_ref − q − h v⁺) + kd (v_ref − v⁺),
// is a damping kd + h kp and a force kp (q_ref − q) + kd v_ref, stable for any gains. A drive
// whose torque at the free motion exceeds its effort limit applies the limit instead, and v* is
// solved again (the limit is held at the free motion; contacts may still move v⁺).
void BuildContactProblemAtPoses(const multibody::Model& model, multibody::Data& data,
                                const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const Eigen::VectorXd& tau, const ContactSet& contacts,
                                double time_step, ContactProblem& problem, LimitRows limit_rows,
                                const std::vector<JointDrive>* folded_drives = nullptr);

// How much room a Data makes up front, so that steps with up to that many contacts allocate
// nothing (sim::ReserveContacts): the contact count and the model's sizes each buffer scales by.
struct ContactCapacity {
  int contacts = 0;
  int columns = 0;       // the most velocities one contact row touches: the two largest blocks'
  int nv = 0;            // velocities
  int blocks = 0;        // mass blocks (trees)
  int block_values = 0;  // Σ size² over the blocks: all their dense inverses
};

// The capacity of `contacts` contacts on the blocks of `data` (multibody::MakeData's).
ContactCapacity MakeContactCapacity(int contacts, const multibody::Model& model,
                                    const multibody::Data& data);

// Room in `problem` for `capacity`: building a problem of up to that many contacts allocates
// nothing.
void ReserveContacts(const ContactCapacity& capacity, ContactProblem& problem);

}  // namespace coulomb::contact
