#pragma once
// The cone complementarity formulation (docs/notes/complementarity.md §3.3–4): the exact Coulomb
// cone at the velocity level, with De Saxcé's bipotential, K*_μ ∋ û ⊥ γ ∈ K_μ for the impulses γ
// and the contact velocity u = W γ + q of LocalContactProblem. Unlike the pyramid LCP there is no
// polygonal anisotropy and no relaxation (no spurious normal velocity while sliding, unlike the
// convex CCP/SAP relaxation). Solved by any cone solver (NSGS default), warm-started.

#include <Eigen/Dense>

#include "coulomb/complementarity/cone_solvers.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/contact_sweeps.h"

namespace coulomb {

struct ConeParams {
  double position_correction = 1.0;                   // κ in [0, 1], as in VelocityLcpParams
  double max_correction_speed = kMaxCorrectionSpeed;  // m/s, see contact_solution.h
  double penetration_slop = kPenetrationSlop;         // m, see contact_solution.h
  PositionCorrection correction() const {
    return {position_correction, max_correction_speed, penetration_slop};
  }
  // Anderson acceleration of the sweeps on islands above this many contacts (sweep_acceleration.h);
  // depth 0 turns it off.
  int acceleration_depth = kDefaultAccelerationDepth;
  int accelerated_island_contacts = 64;
  // Islands of at least this many contacts are swept in `island_parts` parts (sweep_parts.h),
  // whatever the thread count; island_parts ≤ 1 keeps the ground-up order everywhere. Eight:
  // even phases for 2 and 4 threads. On the 2 000-body clutter (one island of ~14 000 contacts)
  // one thread pays ~7 % for the order, two gain 1.44× over one (docs/ARCHITECTURE.md).
  int island_parts = 8;
  int partitioned_island_contacts = 4096;
  // On several threads, smaller islands are swept level by level when their levels are this wide
  // on average, else in order: the same bits either way (ContactSweepParams).
  int levelled_mean_width = ContactSweepParams{}.levelled_mean_width;
  ConeSolverKind solver = ConeSolverKind::kPortfolio;
  ConeSolverSettings settings = [] {
    ConeSolverSettings s;
    s.tolerance = 1e-6;  // ABH error of each step's problem
    // Large piles go to NSGS (tolerance 1e-6 of the ABH error, the sweep cap below).
    s.nsgs.max_sweeps = 1000;
    // Above this the Newton stages' sparse LU fills in (a 200-sphere bin, ~1 350 rows: 30 ms per
    // factorization), and NSGS alone is faster.
    s.portfolio_max_newton_rows = 600;
    s.portfolio_newton_first = true;  // warm-started PPA: ~1 ms on a 10-box stack
    s.portfolio_nsgs_sweeps = 50;
    s.portfolio_warm_sweeps = 40;  // from last step's answer: piles (pyramid: 5 sweeps)
    s.portfolio_warm_newton = 3;   // stacks, where NSGS stalls: one Newton step
    s.portfolio_cold_newton = 0;   // a step always starts from the warm start's guess
    return s;
  }();
};

ContactSolution SolveConeComplementarity(const contact::ContactProblem& problem,
                                         const ConeParams& params = {},
                                         const Eigen::VectorXd& warm_start = {});
// The same into `out`, with the contact-space problems built in `local` and `friction`, whose
// storage is reused from step to step. With `sweeps`, NSGS and the portfolio start with
// Gauss–Seidel on body velocities (contact_sweeps.h) and build W only if the portfolio hands
// a stalled problem to Newton; without, they run on the assembled W.
void SolveConeComplementarity(const contact::ContactProblem& problem, const ConeParams& params,
                              const Eigen::VectorXd& warm_start, LocalContactProblem& local,
                              FrictionContactProblem& friction, ContactSolution& out,
                              NonsmoothNewtonWorkspace* newton = nullptr,
                              ContactSweepWorkspace* sweeps = nullptr);

}  // namespace coulomb
