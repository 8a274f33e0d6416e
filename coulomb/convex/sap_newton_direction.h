#pragma once
// The Newton direction of SAP's iteration, H Δv = −∇ℓ, either by a fresh sparse Cholesky of H or,
// when a factorization is kept from an earlier iteration or step, by conjugate gradients on H
// preconditioned with that older factor (a lagged Newton, or "chord", method made exact enough
// by CG).
//
// Why: on large piles the numeric factorization is 80–96 % of SAP's cost (bench/clutter_bench),
// yet between two Newton iterations, and between two steps of a pile at rest, only a few
// contacts change regime. Each such change perturbs H by a block of rank ≤ 3, so the old factor
// leaves few outlying eigenvalues and CG converges in a few iterations; when it does not, the
// direction falls back to a fresh factorization. CG started at zero always returns a descent
// direction (its iterates decrease the quadratic model), and the convergence test of the Newton
// loop looks at ∇ℓ only, so the answer SAP returns has the same tolerance either way; only the
// path to it changes.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

#include "coulomb/math/sparse_cholesky.h"

namespace coulomb::convex {

struct LaggedFactorizationSettings {
  // 0 disables reuse: every Newton iteration factors its own Hessian. On by default because it
  // pays on the piles where SAP is slow (bench/clutter_bench: 500 bodies settled, 522 → 268
  // ms/step; 2 000 bodies, 13.6 → 9.4 s/step) and the caps below keep it off where factoring is
  // cheap.
  int max_cg_iterations = 40;
  // CG stops when ‖D^(−½)(H Δv + ∇ℓ)‖ ≤ cg_tolerance · ‖D^(−½) ∇ℓ‖ (D = diag(A)). Loose on
  // purpose: 0.1 beat 0.01 (700 ms/step) and 0.3 (598 ms/step, 47 Newton iterations) at 500.
  double cg_tolerance = 0.1;
  // The CG budget is also capped at this share of a factorization's cost, counted in solves
  // (math::CholeskyFactor::SolvesPerFactorization), so a failed reuse wastes at most that much and
  // problems whose factorization is cheap (fewer than 4 solves' worth affordable) always factor.
  double max_factorization_share = 0.5;
  // Below this many flops (CHOLMOD's count; 2 Mflop is about a millisecond here) a
  // factorization is a small part of a Newton iteration next to evaluating the constraints,
  // assembling and the line search, and the extra Newton iterations that reuse brings cost more
  // than it saves: arm_hand_ball (factorizations ≤ 1.9 Mflop) ran 16.4 → 18.3 ms/step with
  // reuse, while the 200-sphere bin (mostly > 5 Mflop) ran 31.8 → 22.2 ms/step.
  double min_factorization_flops = 2e6;
};

struct NewtonDirection {
  Eigen::VectorXd dv;
  bool ok = false;        // false: the Hessian is not positive definite
  bool factored = false;  // a fresh factorization was made
  int cg_iterations = 0;  // spent, including those of a reuse that then fell back
  double factor_seconds = 0;
};

// `lower` is the lower triangle of H over the participating velocities, `cliques` the
// participating clique indices (the factor of an earlier problem preconditions this one only if
// they and the size are the same), `scale` = diag(A)^(−½). The match is about speed, not
// correctness: any SPD factor of the right size is a valid preconditioner (a deformable clique
// whose participating vertices changed but not their count), and a poor one only makes CG fall
// back to a fresh factorization.
// What SolveNewtonDirection works in, kept between calls (speed only).
struct NewtonDirectionWorkspace {
  Eigen::VectorXd b, r, z, p, Hp;  // −∇ℓ and the CG vectors
  std::vector<int> tag;
};
void SolveNewtonDirection(const Eigen::SparseMatrix<double>& lower, const Eigen::VectorXd& gradient,
                          const Eigen::VectorXd& scale, const std::vector<int>& cliques,
                          math::CholeskyMethod method, math::FillOrdering ordering,
                          const LaggedFactorizationSettings& lagged, math::CholeskyFactor& factor,
                          NewtonDirectionWorkspace& workspace, NewtonDirection& out);
NewtonDirection SolveNewtonDirection(const Eigen::SparseMatrix<double>& lower,
                                     const Eigen::VectorXd& gradient, const Eigen::VectorXd& scale,
                                     const std::vector<int>& cliques, math::CholeskyMethod method,
                                     math::FillOrdering ordering,
                                     const LaggedFactorizationSettings& lagged,
                                     math::CholeskyFactor& factor);

}  // namespace coulomb::convex
