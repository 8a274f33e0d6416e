#pragma once
// The velocity-level LCP formulation (Stewart–Trinkle / Anitescu–Potra,
// docs/notes/complementarity.md §4): ContactProblem → Stewart–Trinkle LCP → impulses → v⁺.
//
// With d friction directions per contact (an inscribed polygon), the LCP has size n_c (d + 2);
// the normal row uses the position-level form n·v⁺ + κ φ / h ≥ 0 (κ = position_correction;
// κ = 1 is Stewart–Trinkle's, which makes φ at the end of the step nonnegative to first order
// and lets contacts within the margin close exactly). Lemke processes it for every μ ≥ 0.
// `solver = pgs` runs Gauss–Seidel over contacts on body velocities instead, each contact's
// pyramid LCP solved exactly (contact_sweeps.h; large piles; to the natural residual
// `settings.pgs.acceptance_tolerance` relative to max(1, ‖q‖∞), warm-started from `warm_start`).

#include <Eigen/Dense>
#include <string>
#include <string_view>

#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/contact_sweeps.h"

namespace coulomb {

// The block Gauss–Seidel's defaults: a relative natural residual of 1e-6 within 1 000 sweeps
// (an iterative method; Lemke's exact certificate stays the default solver's).
inline LcpSolverSettings DefaultVelocityLcpSettings() {
  LcpSolverSettings s;
  s.pgs.acceptance_tolerance = 1e-6;
  s.pgs.max_sweeps = 1000;
  s.pgs.check_every = 5;
  return s;
}

struct VelocityLcpParams {
  int directions = 4;                                 // friction directions per contact, ≥ 3
  double position_correction = 1.0;                   // κ in [0, 1]
  double max_correction_speed = kMaxCorrectionSpeed;  // m/s, see contact_solution.h
  double penetration_slop = kPenetrationSlop;         // m, see contact_solution.h
  PositionCorrection correction() const {
    return {position_correction, max_correction_speed, penetration_slop};
  }
  LcpSolverKind solver = LcpSolverKind::kLemke;
  LcpSolverSettings settings = DefaultVelocityLcpSettings();
  // The dense LCP solvers (Lemke, interior points, Newton, enumeration) factor an n × n matrix,
  // n = n_c (d + 2), at every pivot or iteration: a 200-sphere bin (n ≈ 3 600) took minutes per
  // 100 steps, the pyramid's 600 rows 0.64 s per step under Lemke against 26 ms under the block
  // Gauss–Seidel. Above this many rows a step runs the block Gauss–Seidel instead and its
  // message says so; raise it (scene key solver.max_pivoting_rows) to insist.
  int max_pivoting_rows = 300;
  // Lemke only: first re-solve the complementary basis that the warm start's impulses imply
  // (GuessStewartTrinkleBasis) and take its answer if it passes Lemke's certificate — one small
  // factorization where a contact set persists, instead of a path of pivots; Lemke otherwise.
  bool warm_basis = true;
  // The block Gauss–Seidel's levelled sweeps on several threads (ContactSweepParams).
  int levelled_mean_width = ContactSweepParams{}.levelled_mean_width;
  // Anderson acceleration of the block Gauss–Seidel on islands of more than 64 contacts, as the
  // cone's (sweep_acceleration.h; 0: plain sweeps). On examples/scenes/bin.yaml over its 2 s
  // (pgs at the scene's 1e-3): 21.6 sweeps and 2.42 ms of solve a step plain, 10.5 and 1.67 at
  // depth 2.
  int acceleration_depth = kDefaultAccelerationDepth;
};

// The LCP solvers the LCP formulations (velocity-lcp, trinkle) take, for messages.
inline constexpr std::string_view kLcpSolverNames = "lemke, fip, ipm, newton, pgs, enum, portfolio";
// Sets `kind` to the LCP solver called `name`; "" or what is wrong, listing the names.
std::string SelectLcpSolver(std::string_view name, LcpSolverKind& kind);

// The dense Stewart–Trinkle LCP of a step and what its solver works in, kept from step to step
// (speed only).
struct StewartTrinkleWorkspace {
  Eigen::MatrixXd W, GW;  // the Delassus matrix, dense, and G W
  LcpProblem lcp;
  LcpSolverWorkspace solver;
  LcpResult result;
  ComplementaryBasisWorkspace warm;  // the warm start's basis, re-solved
  Eigen::VectorXd warm_z;            // the warm start as LCP unknowns
};

// Room in `workspace` for LCPs of up to `rows` rows (Lemke's path and the warm basis).
void ReservePivoting(int rows, StewartTrinkleWorkspace& workspace);

// `warm_start` (3 n_c impulses in (n, t, o), e.g. the previous step's) starts the block
// Gauss–Seidel and gives Lemke its warm basis (`warm_basis`).
ContactSolution SolveVelocityLcp(const contact::ContactProblem& problem,
                                 const VelocityLcpParams& params = {},
                                 const Eigen::VectorXd& warm_start = {});
// The same into `out`, with the contact-space problem built in `local`, the sweeps' rows in
// `sweeps` and the dense LCP in `pivoting` (storage reused; null: a fresh one).
void SolveVelocityLcp(const contact::ContactProblem& problem, const VelocityLcpParams& params,
                      const Eigen::VectorXd& warm_start, LocalContactProblem& local,
                      ContactSolution& out, ContactSweepWorkspace* sweeps = nullptr,
                      StewartTrinkleWorkspace* pivoting = nullptr);

}  // namespace coulomb
