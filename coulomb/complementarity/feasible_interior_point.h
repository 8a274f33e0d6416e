#pragma once
// The feasible interior point (FIP) method of paper 1, Appendix B.
//
// Iterates stay strictly feasible, (w, z) > 0 with w = M z + q kept exactly. Each step solves
// eq. (54)  [−I M; Z W] (dw, dz) = (0, −w∘z + β μ e),  μ = wᵀz / n,
// then backtracks on the merit function f(w, z) = (n + ζ) log wᵀz − Σ log w_i z_i until the
// decrease of eq. (55) holds: f(new) − f(old) ≤ −σ (1 − β) ζ ρ^m α₀, with α₀ = η ᾱ and ᾱ the
// largest step keeping (w, z) ≥ 0. The centering parameter β is non-increasing.
// Phase I (phase_one.h) finds the strictly feasible start, or reports
// kNoStrictlyFeasiblePoint, which paper 1's tables print as "NFP".

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"

namespace coulomb {

struct FeasibleInteriorPointParams {
  int max_iterations = 300;  // paper 1's cap
  // Stop when wᵀz ≤ absolute_gap (paper 1: 1e-6; 0 disables) or when
  // wᵀz / n ≤ relative_gap·(1 + ‖q‖∞) (docs/notes/complementarity.md §2.1's scale-aware test; 0
  // disables).
  double absolute_gap = 0.0;
  double relative_gap = 1e-10;
  double sigma = 1e-4;        // decrease constant of eq. (55), in (0, 1)
  double rho = 0.5;           // backtracking factor ρ, in (0, 1)
  double eta = 0.95;          // fraction η of the step to the boundary, in (0, 1)
  double zeta = 0.0;          // ζ > 0 of the merit function; 0 means √n
  double beta_initial = 0.5;  // β₀, in [0, 1)
  double beta_min = 0.1;      // β_{k+1} = max(beta_min, beta_shrink·β_k) ≤ β_k
  double beta_shrink = 0.9;
  int max_backtracks = 60;
  // Round to a complementary basis and polish with FB Newton after stopping
  // (docs/notes/complementarity.md §2.1).
  bool polish = true;
  double acceptance_tolerance = kLcpCertifyTolerance;
};

LcpResult SolveFeasibleInteriorPoint(const LcpProblem& problem,
                                     const FeasibleInteriorPointParams& params = {});

}  // namespace coulomb
