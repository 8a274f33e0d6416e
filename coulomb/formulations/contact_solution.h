#pragma once
// What every formulation returns for one step (docs/DESIGN.md: ContactSolution), and the local
// (contact-space) form of a ContactProblem that the velocity-level formulations share.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <string>

#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/math/sparse_assembly.h"

namespace coulomb {

struct ContactSolution {
  LcpStatus status = LcpStatus::kBadInput;
  std::string message;
  // Non-empty when the formulation ran another solver than the settings name (and why): a
  // problem too large for the one asked for. Said once per run by `coulomb run`.
  std::string solver_switch;
  Eigen::VectorXd v_next;    // v⁺
  Eigen::VectorXd impulses;  // 3 n_c, (n, t, o) per contact, N s
  int iterations = 0;
  double residual = 0;  // the solver's certificate (LCP worst measure, or the cone's ABH error)
  // The solve's own time is the step's (StepReport::profile): no second clock here.
  double factor_seconds = 0;  // time in sparse factorizations (SAP's Newton Hessians), s
  int factorizations = 0;     // SAP: fresh Hessian factorizations (fewer than iterations when
                              // a factor is reused as a CG preconditioner)
  bool ok() const { return status == LcpStatus::kSolved; }
  // Back to a fresh solution's fields, keeping the vectors' and strings' storage for reuse.
  void Reset() {
    status = LcpStatus::kBadInput;
    message.clear();
    solver_switch.clear();
    iterations = 0;
    residual = factor_seconds = 0;
    factorizations = 0;
  }
};

// The contact-space problem: u = W γ + q with W = J M⁻¹ Jᵀ and, on the normal rows,
//   q_n = (J v*)_n − r,   r = −κ φ / h, or max(−κ φ / h, −e v⁻_n) for a contact that closes
// during the step (φ + h v⁻_n ≤ 0) with restitution e > 0 (Newton's law as an LCP,
// docs/notes/complementarity.md §4). κ = position_correction is Stewart–Trinkle's φ/h term:
// contacts inside the margin close exactly and penetration is removed within one step. M⁻¹ Jᵀ maps
// impulses back: v⁺ = v* + M⁻¹ Jᵀ γ. Both matrices are sparse: built block by block of M, W only
// couples contacts that share a block.
struct LocalContactProblem {
  Eigen::SparseMatrix<double> MinvJt;  // nv × 3 n_c
  Eigen::SparseMatrix<double> W;       // 3 n_c × 3 n_c
  Eigen::VectorXd q;                   // 3 n_c
  // W = G Gᵀ + diag(W_diagonal): G = J L⁻ᵀ (M = L Lᵀ per block), W_diagonal the compliance.
  Eigen::SparseMatrix<double, Eigen::RowMajor> G;
  Eigen::VectorXd W_diagonal;
  // Assembly scratch, kept so a problem rebuilt in place reuses its capacity.
  struct Scratch {
    // Per mass block b, the contacts on it: touching[touching_start[b] .. touching_start[b + 1])
    // (flat, so that a block gaining contacts allocates nothing).
    std::vector<int> touching_start, touching, next;
    math::TripletBuffer W, MinvJt, G;
    // Per mass block: its Jᵀ (then L⁻¹ Jᵀ), M⁻¹ Jᵀ and Zᵀ Z. Kept per block, so that they are
    // reallocated only when the number of contacts on that block changes.
    struct Block {
      Eigen::MatrixXd Jt, Y, Wb;
    };
    std::vector<Block> blocks;
    Eigen::VectorXd v_before;  // J v
  } scratch;
};

// The separation speed position correction may give a rigid contact, m/s. The φ/h term turns an
// overlap into a separation speed: a box spawned 0.6 m inside the ground left it at 59 m/s at
// δt = 10 ms. Capped, an overlap is pushed out at most this fast and its energy gain is at most
// ½ m (this)². Compliant contacts are not capped: their overlap is the material's deflection.
inline constexpr double kMaxCorrectionSpeed = 0.2;

// The gap, m, inside which a rigid contact counts as touching: a penetration or separation smaller
// than this is neither pushed out nor closed by the position correction. Without it the rounding
// of φ (~1e-12 m on a resting stack, changing sign from step to step) gave each corner of a box a
// different target velocity; four corners cannot all meet targets a rigid face does not fit, so
// one of them let go, a different one each step, and last step's impulses were no longer an
// answer (10 cubes at δt = 1 ms: 686 of 2 000 steps went to Newton, 1 with the slop). 20 nm
// is far below what a scene of millimetre parts can show; a scene of smaller things sets less.
inline constexpr double kPenetrationSlop = 2e-8;

// How a step corrects the overlap it starts with: a contact's normal velocity must reach
// −κ φ̃ / h, φ̃ = φ moved `slop` towards 0 (0 inside ±slop), at most `max_speed` where φ < 0
// and the contact is rigid.
struct PositionCorrection {
  double fraction = 1.0;                   // κ in [0, 1]
  double max_speed = kMaxCorrectionSpeed;  // m/s
  double slop = kPenetrationSlop;          // m
};

LocalContactProblem MakeLocalContactProblem(const contact::ContactProblem& problem,
                                            const PositionCorrection& correction);
// The same into `local`, reusing its storage: no allocation once the sizes have been seen.
void MakeLocalContactProblem(const contact::ContactProblem& problem,
                             const PositionCorrection& correction, LocalContactProblem& local);

// Room in `local` for `capacity` (contact_problem.h), with up to kCoupledContacts contacts sharing
// a body with any one of them (a box's four corners below and four above): W, M⁻¹Jᵀ and G of a
// problem that size assemble without allocating.
inline constexpr int kCoupledContacts = 8;
void ReserveContacts(const contact::ContactCapacity& capacity, LocalContactProblem& local);

// The normal velocity contact k must reach by the end of the step (n·v⁺ ≥ this, the r above),
// given its normal velocity n·v at the start of the step.
double RequiredNormalVelocity(const contact::ContactProblem& problem, int k, double normal_velocity,
                              const PositionCorrection& correction);

}  // namespace coulomb
