#pragma once
// SAP's Newton method (Castro et al. 2022; docs/notes/sap-and-deformables.md §1.5): minimizes the
// convex ℓ(v) of SapProblem over the participating velocities with an exact (or backtracking)
// line search. The stopping test runs before each factorization, so a warm start that is
// already optimal costs no factorization. Failures are values: the result says why.

#include <Eigen/Dense>
#include <optional>
#include <string>
#include <string_view>

#include "coulomb/convex/sap_model.h"
#include "coulomb/convex/sap_newton_direction.h"
#include "coulomb/convex/sap_problem.h"
#include "coulomb/math/line_search.h"
#include "coulomb/math/sparse_cholesky.h"

namespace coulomb::convex {

struct SapSolverParams {
  // Converged when ‖D^(−½) ∇ℓ‖ ≤ abs + rel · max(‖D^(−½) A v‖, ‖D^(−½) Jᵀγ‖), D = diag(A):
  // a momentum balance residual in units of √J, relative to the momenta in play.
  double abs_tolerance = 1e-14;
  double rel_tolerance = 1e-6;
  // ... or when the cost stalls: |Δℓ| < cost_abs + cost_rel · |ℓ| with a step α > ½.
  double cost_abs_tolerance = 1e-30;
  double cost_rel_tolerance = 1e-15;
  // Most steps converge in under 15. The μ = 0.2 arch at δt = 40 ms, as it collapses, has steps
  // whose blocks switch between sticking, sliding and parting along the line: Newton zigzags
  // (full steps alternating with α ≈ 0.04) and needed 171 iterations on one machine, within
  // 100 on another (round-off of the libraries' CPU-dispatched kernels). 300 leaves room.
  int max_iterations = 300;
  enum class LineSearch { kExact, kBacktracking };
  LineSearch line_search = LineSearch::kExact;
  math::LineSearchSettings line_search_settings;
  // CHOLMOD's choice from the analysis (math::CholeskyFactor: supernodal from 120 flops per
  // entry of L). Simplicial wins on rigid clutter's small 6 × 6 blocks (the 200-sphere bin:
  // 24.7 ms/step against 27.1 supernodal); supernodal on a landing 3 000-sphere pile (272 against
  // 340 ms/step over its first 0.45 s) and on large dense cliques (deformable bodies). BLAS runs on
  // one thread (base/numerics_threads.h), so supernodal no longer spins a second core (it once
  // cost the 300-body clutter 54 s of system time).
  math::CholeskyMethod linear_solver = math::CholeskyMethod::kAuto;
  math::FillOrdering ordering = math::FillOrdering::kAmd;
  // Reuse of an earlier factorization as a CG preconditioner (sap_newton_direction.h).
  LaggedFactorizationSettings lagged;
};
std::string_view ToString(math::CholeskyMethod kind);
std::optional<math::CholeskyMethod> ParseSparseCholesky(std::string_view name);
std::string_view ToString(math::FillOrdering kind);
std::optional<math::FillOrdering> ParseFillOrdering(std::string_view name);
std::string_view ToString(SapSolverParams::LineSearch kind);
std::optional<SapSolverParams::LineSearch> ParseLineSearch(std::string_view name);

enum class SapStatus {
  kConverged,
  kIterationLimit,       // max_iterations Newton steps without meeting the tolerance
  kLineSearchFailed,     // no descent along the Newton direction (round-off, huge inputs)
  kNotPositiveDefinite,  // the Hessian factorization failed
  kBadInput,             // ValidateSapProblem rejected the problem
};
std::string_view ToString(SapStatus status);

struct SapResult {
  SapStatus status = SapStatus::kBadInput;
  std::string message;     // why it failed, naming the parameter to change
  Eigen::VectorXd v;       // next velocity, size nv (= v* outside participating cliques)
  Eigen::VectorXd gamma;   // impulses stacked in constraint order, N s
  int iterations = 0;      // Newton iterations
  int factorizations = 0;  // fresh Hessian factorizations (= iterations unless `lagged` reuses)
  int cg_iterations = 0;   // preconditioned CG iterations of the reused factorizations
  int line_search_iterations = 0;
  double residual = 0;        // ‖D^(−½) ∇ℓ‖ at the answer, √J
  double residual_bound = 0;  // abs + rel · scale: converged means residual ≤ bound
  double cost = 0;            // ℓ(v), J
  int participating_velocities = 0;
  double seconds = 0, factor_seconds = 0;
  bool converged() const { return status == SapStatus::kConverged; }
};

// ℓ, ∇ℓ and the impulses at one iterate.
struct SapIterate {
  Eigen::VectorXd v, v_c;  // participating velocities and the constraint velocities J v
  ConstraintsEvaluation constraints;
  double cost = 0;
  Eigen::VectorXd gradient;
};

// What SolveSap works in, kept from one solve to the next (speed only: a fresh workspace gives
// the same answer): a warm step's solve then allocates nothing of its own.
struct SapWorkspace {
  SapModel model;
  SapModelScratch model_scratch;
  SapHessian hessian;
  SapIterate iterate;
  NewtonDirectionWorkspace newton;
  NewtonDirection direction;
  // Scratch: v − v*, A (v − v*), a sparse product, the next iterate's v, and along the line
  // J Δv, A Δv, v_c + α J Δv and the constraints there.
  Eigen::VectorXd dv, momentum, product, next_v, dv_c, dp, line_v_c;
  ConstraintsEvaluation line_constraints;
};

// Room in `workspace` and `result` for problems up to `size`: SolveSap allocates nothing of its
// own on them (CHOLMOD allocates through its hooks).
void ReserveSapWorkspace(const SapSize& size, SapWorkspace& workspace, SapResult& result);

// v_guess: the warm start (size nv; empty → v*). factorization may be null (a fresh one is used).
SapResult SolveSap(const SapProblem& problem, const SapSolverParams& params,
                   const Eigen::VectorXd& v_guess = {},
                   math::CholeskyFactor* factorization = nullptr);
// The same into `out` (storage reused), working in `workspace`.
void SolveSap(const SapProblem& problem, const SapSolverParams& params,
              const Eigen::VectorXd& v_guess, math::CholeskyFactor* factorization,
              SapWorkspace& workspace, SapResult& out);

}  // namespace coulomb::convex
