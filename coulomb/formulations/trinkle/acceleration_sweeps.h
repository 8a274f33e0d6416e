#pragma once
// Paper 1's acceleration-level contact problem (acceleration_step.h) solved contact by contact
// on the body velocities, as the velocity LCP's block Gauss–Seidel (contact_sweeps.h) is: A =
// J M⁻¹ Jᵀ is never formed, and a sweep costs the DoFs of two trees per contact. Dense Lemke
// took 0.2–10 s a step on examples/scenes/bin.yaml once 400–600 contacts pressed (2 000–3 000 LCP
// rows), and interior points factor the same dense matrix at every iteration.
//
// Scaled by the time step h, the unknowns are the step's impulses r = h c and the sweeps' u = h a,
// so that u = J v + bias with v = v₀ + M⁻¹ Jᵀ r the velocity at the end of the step
// (acceleration_step.cc derives `bias`). Per active contact:
//  * rolling (the paper's square pyramid, eq. 17–18): r_n ≥ 0 ⊥ u_n ≥ 0, and per tangent j,
//    r_j ∈ [−μ r_n, μ r_n] with u_j = 0 inside, u_j ≤ 0 at +μ r_n and u_j ≥ 0 at −μ r_n (maximum
//    dissipation on the square: −u_T in the normal cone of the square at r_T);
//  * sliding (eq. 12): r = r_n (1, κ), κ = −μ v_T / ‖v_T‖ fixed, and r_n ≥ 0 ⊥ u_n ≥ 0;
//  * frictionless (μ = 0): r = (r_n, 0, 0), r_n ≥ 0 ⊥ u_n ≥ 0.
// The certificate is these conditions' natural residual, per contact from velocities recomputed
// from r (never the sweeps' running sum), divided by h (the LCP's units: N and m/s²), relative to
// max(1, ‖b‖∞) with b the accelerations at c = 0.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/formulations/contact_sweeps.h"

namespace coulomb {

enum class AccelerationContactKind : char { kRolling, kSliding, kFrictionless };

struct AccelerationSweepProblem {
  double time_step = 0;     // h, s
  Eigen::VectorXd v0;       // velocity at r = 0: after the impacts, plus h M⁻¹ f
  std::vector<int> active;  // the problem's contacts (rows' indices) that take part
  std::vector<AccelerationContactKind> kind;  // per active contact
  std::vector<Eigen::Vector3d> bias;          // per active contact, m/s: u = J v + bias
  std::vector<Eigen::Vector2d> kappa;         // per sliding contact: r_T = κ r_n
  std::vector<Eigen::Vector2d> slip;          // per active contact: u_T at the step's start
  Eigen::VectorXd mu;                         // per active contact
  int num_active() const { return static_cast<int>(active.size()); }
};

struct AccelerationSweepParams {
  double tolerance = 1e-6;  // relative natural residual, see above
  int max_sweeps = 1000;
  int check_every = 5;  // sweeps between certificates (each costs about one sweep)
  // Anderson acceleration of the sweeps (sweep_acceleration.h) above this many active contacts.
  int acceleration_depth = kDefaultAccelerationDepth;
  int accelerated_contacts = 64;
  // At each certificate, sliding contacts whose slip the iterate would reverse within the step
  // (slip · (slip + u_T) < 0) become rolling, as acceleration_step.h re-classifies them, and the
  // sweeps go on: reversing slides are where Gauss–Seidel on eq. (12)'s non-symmetric rows
  // diverged.
  bool roll_reversing_slides = true;
};

struct AccelerationSweepResult {
  LcpStatus status = LcpStatus::kBadInput;
  std::string message;
  Eigen::VectorXd r;  // 3 per contact of the rows: impulses h c in (n, t, o), N s (0: inactive)
  Eigen::VectorXd v;  // v₀ + M⁻¹ Jᵀ r, recomputed from r: the velocity the certificate is on
  Eigen::VectorXd u;  // 3 per active contact: h a on v, m/s
  int sweeps = 0;
  double residual = 0;  // the certificate's relative natural residual
  // Storage only: the active contacts in sweep order, each contact's active index (−1: none),
  // and Anderson's history.
  std::vector<int> order, slot;
  SweepAcceleration acceleration;
  bool solved() const { return status == LcpStatus::kSolved; }
};

// One rolling contact's local problem u = W r + q on the square pyramid (above), into r. Closed
// form by cases: separation (q_n ≥ 0), then sticking, then each tangent free or at either bound,
// the first that holds (to rounding) taken, else the one that violates its conditions least.
void SolveSquarePyramidContact(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                               Eigen::Vector3d& r);

// The natural residual of one active contact's conditions at impulse r and u (m/s, N s units).
double AccelerationContactResidual(AccelerationContactKind kind, double mu,
                                   const Eigen::Vector3d& r, const Eigen::Vector3d& u);

// Gauss–Seidel from `warm_start` (3 per contact of the rows, impulses; else zero), contacts in the
// rows' order (island by island, ground up). A sliding contact whose normal does not gain
// acceleration from its own force (e_nᵀ W (1, κ) ≤ 0, a local Painlevé configuration) cannot be
// swept: the result is kNotApplicable and says which.
// `problem`'s classification changes only by roll_reversing_slides.
void SolveAccelerationSweeps(const ContactRows& rows, AccelerationSweepProblem& problem,
                             const AccelerationSweepParams& params,
                             const Eigen::VectorXd& warm_start, AccelerationSweepResult& result);

}  // namespace coulomb
