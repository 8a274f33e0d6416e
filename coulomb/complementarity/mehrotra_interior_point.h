#pragma once
// Infeasible primal–dual interior point method with Mehrotra's predictor–corrector
// (docs/notes/complementarity.md §2.2b).
//
// Starts from any (w, z) > 0 without Phase I. Per iteration, one LU of M + Z⁻¹W serves two
// solves: the affine (predictor) direction for r_p = w − M z − q and r_c = w∘z, then the
// corrector with right-hand side −w∘z − dw_aff∘dz_aff + σμe, σ = (μ_aff/μ)³. Theory covers
// monotone and P*(κ) LCPs; for other matrices it is a heuristic whose answers are certified.
// Once the gap is small we try to round to the complementary basis early, which usually ends
// the run several iterations before the interior tolerance is met.

#include <Eigen/Dense>

#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"

namespace coulomb {

struct MehrotraParams {
  int max_iterations = 100;
  // Stop when ‖w − Mz − q‖∞ and wᵀz/n are both ≤ tolerance·(1 + ‖q‖∞).
  double tolerance = 1e-10;
  double step_fraction = 0.995;  // of the step to the boundary
  // Rounding is attempted once wᵀz/n ≤ round_gap·(1 + ‖q‖∞).
  double round_gap = 1e-5;
  // Iterates larger than this (relative to 1 + ‖q‖∞) are taken as divergence.
  double divergence_bound = 1e12;
  double acceptance_tolerance = kLcpCertifyTolerance;
  bool polish = true;
};

// What the method reuses from one solve to the next (speed only): its Newton matrix, LU and
// vectors, sized by the first solve of a size. The rounding and polish at the end still allocate.
struct MehrotraWorkspace {
  math::DenseLu lu;   // of K = M + Z⁻¹W, the Newton system's matrix
  Eigen::MatrixXd K;  // K itself, for one step of iterative refinement of each direction
  Eigen::VectorXd refinement;
  Eigen::VectorXd z, w, r_p, r_c, rhs, dz_aff, dw_aff, dz, dw;
  ComplementaryBasisWorkspace basis;  // rounding to a complementary basis
  Eigen::VectorXd answer;             // the rounded and polished iterate
};

LcpResult SolveMehrotra(const LcpProblem& problem, const MehrotraParams& params = {});
// The same into `result`, working in `workspace`.
void SolveMehrotra(const LcpProblem& problem, const MehrotraParams& params,
                   MehrotraWorkspace& workspace, LcpResult& result);

}  // namespace coulomb
