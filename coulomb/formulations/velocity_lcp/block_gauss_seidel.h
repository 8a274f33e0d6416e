#pragma once
// Contact-block Gauss–Seidel for the Stewart–Trinkle LCP, the velocity-level formulation's
// solver for large problems (`solver: pgs`).
//
// Plain projected Gauss–Seidel cannot run on this LCP: the rows of the friction-cone slack λ
// have a zero diagonal. Sweeping contact by contact instead, each contact's own (d + 2)-row
// LCP — the other contacts' impulses frozen into its right-hand side — is solved exactly by
// Lemke, as NSGS does for the exact cone. A sweep costs O(n_c) small solves plus the sparse
// update of the local velocities, so a 200-sphere pile (3 600 LCP rows) is in reach where
// dense Lemke is not. Converged when every contact's rows meet the natural residual
// |min(z, w)| ≤ tolerance · max(1, ‖q‖∞); the answer is then a solution of the full LCP to that
// tolerance, never a certified exact one.

#include <Eigen/Dense>
#include <string>

#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/complementarity/projected_gauss_seidel.h"
#include "coulomb/formulations/contact_solution.h"

namespace coulomb {

struct BlockGaussSeidelResult {
  Eigen::VectorXd impulses;  // 3 n_c, (n, t, o) per contact, N s
  LcpStatus status = LcpStatus::kIterationLimit;
  int sweeps = 0;
  double residual = 0;  // largest natural residual, relative to max(1, ‖q‖∞)
  std::string message;
};

// `params.max_sweeps`, `check_every` and `acceptance_tolerance` (the relative residual) apply;
// `warm_start` (3 n_c impulses, e.g. the previous step's) is used when its size matches.
BlockGaussSeidelResult SolveStewartTrinkleBlockGaussSeidel(const LocalContactProblem& local,
                                                           const Eigen::VectorXd& mu,
                                                           int directions,
                                                           const ProjectedGaussSeidelParams& params,
                                                           const Eigen::VectorXd& warm_start);

// (p_n, β₁…β_d, λ) of one contact's pyramid → its (n, t, o) impulse.
Eigen::Vector3d PyramidImpulse(double normal, const double* beta, int directions);

}  // namespace coulomb
