#pragma once
// Semismooth Newton on the Fischer–Burmeister reformulation of the LCP
// (docs/notes/complementarity.md §2.3):
//   Φ_i(z) = φ(z_i, w_i),  φ(a, b) = √(a² + b²) − a − b,  w = M z + q,
// globalized by an Armijo line search on Ψ = ½‖Φ‖² with a gradient fallback when the Newton
// direction is not a sufficient descent direction (De Luca–Facchinei–Kanzow).
// For P0 matrices every stationary point of Ψ solves the LCP. Used standalone, and as the
// polisher of other solvers' answers (pass their z as `start`).

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/math/dense_factorizations.h"

namespace coulomb {

struct FischerBurmeisterParams {
  int max_iterations = 100;
  double acceptance_tolerance = kLcpCertifyTolerance;  // CertifyLcp threshold
  double armijo_sigma = 1e-4;                          // sufficient-decrease constant
  double min_step = 1e-16;                             // line search gives up below this step
  double descent_rho = 1e-8;   // gradient fallback if ∇Ψᵀd > −ρ‖d‖^p ...
  double descent_power = 2.1;  // ... with this p (Siconos' defaults)
};

// What one solve works in, kept by callers that polish one answer after another: a warm
// workspace allocates nothing. Speed only: a fresh one gives the same answer.
struct FischerBurmeisterWorkspace {
  Eigen::VectorXd z, w, phi;                    // the iterate, M z + q and Φ(z)
  Eigen::VectorXd delta, m_delta, da, db;       // the generalized Jacobian's pieces
  Eigen::VectorXd gradient, d;                  // ∇Ψ and the search direction
  Eigen::VectorXd z_trial, w_trial, phi_trial;  // the line search's point
  Eigen::VectorXd w_certificate;                // CertifyLcp's M z + q
  math::DenseLu lu;                             // H = D_a + D_b M, factored
};

// Starts from `start` when given (the polishing use), else from z = max(0, −q) ∘ 0 = 0.
LcpResult SolveFischerBurmeister(const LcpProblem& problem,
                                 const FischerBurmeisterParams& params = {},
                                 const Eigen::VectorXd* start = nullptr);
// The same into `result` (its storage reused), working in `workspace`; `start` may not be
// result.z.
void SolveFischerBurmeister(const LcpProblem& problem, const FischerBurmeisterParams& params,
                            const Eigen::VectorXd* start, FischerBurmeisterWorkspace& workspace,
                            LcpResult& result);

}  // namespace coulomb
