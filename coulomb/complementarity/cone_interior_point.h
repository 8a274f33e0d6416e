#pragma once
// A primal-dual interior-point method for FC(W, q, μ) (issue 27, item 4), after De Saxcé's
// convex relaxation as Acary et al. (2024) use it: with s_i = μ_i ‖u_T,i‖ held fixed, Coulomb's
// law K*_μ ∋ û ⊥ r ∈ K_μ is the optimality condition of the convex second-order cone program
//   min ½ rᵀ W r + (q + s)ᵀ r  subject to r_i ∈ K_μi,
// and the solution of FC is its fixed point in s. Scaled to the Lorentz cone L by
// r = S x, S_i = diag(1, μ_i, μ_i) (μ_i = 0 included: its tangential x is then free in L and
// meaningless), with y = S û:
//   x ∈ L, y = M x + S (q + s(x)) ∈ L, x ∘ y = 0,  M = S W S.
// Each iteration is a Mehrotra predictor–corrector step on the Nesterov–Todd scaled system
// (second_order_cone.h), s linearized in x (its Jacobian is tᵀ M_T per contact, t = u_T/‖u_T‖),
// from an infeasible start. The system matrix M + ∂c/∂x + W_NT² has W's block pattern: dense LU
// while small, sparse LU (Eigen's, pattern analysed once) above.
//
// Why it is in the portfolio's toolbox: it needs no nonsingular Jacobian (W may be rank
// deficient: hyperstatic stacks) and its iteration count hardly grows with the problem. Its
// weakness is the end: an interior iterate aligns a sliding contact's force with its slip only
// as well as the iterates stay central, so the ABH error can stall near 1e-8 while the gap goes
// to 1e-13. The last interior iterate is then handed to plain semismooth Newton for at most
// `polish_iterations` (the crossover interior-point LP solvers do; the LCP side rounds to a
// basis). The result says which did the last step.

#include <Eigen/Dense>

#include "coulomb/base/deadline.h"
#include "coulomb/complementarity/friction_contact_result.h"
#include "coulomb/complementarity/nonsmooth_newton.h"

namespace coulomb {

struct ConeInteriorPointParams {
  double tolerance = 1e-8;     // on FrictionContactCertificate::error
  int max_iterations = 60;     // interior-point iterations
  int polish_iterations = 20;  // semismooth Newton from the best interior iterate; 0: none
  int max_dense_rows = 150;    // dense LU up to this many rows (3 n_c), sparse LU above
  Deadline deadline;           // checked every iteration: time_limit with the best iterate
};

// `workspace` serves the Newton polish only.
FrictionContactResult SolveConeInteriorPoint(const FrictionContactProblem& problem,
                                             const ConeInteriorPointParams& params = {},
                                             NonsmoothNewtonWorkspace* workspace = nullptr);

}  // namespace coulomb
