#pragma once
// Solving an LCP restricted to a guessed complementary basis.
//
// Given the index set α where z may be positive (and w_α = 0), the complementary solution is
//   M_αα z_α = −q_α,  z_ᾱ = 0,  w = M z + q.
// Pivoting and interior-point methods both end by guessing α; re-solving this system from the
// original data is how they turn a drifted or approximate iterate into an exact answer.

#include <Eigen/Core>
#include <vector>

#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/math/dense_factorizations.h"

namespace coulomb {

// What the re-solve works in, kept by callers that round one iterate after another: a warm
// workspace allocates nothing whatever the basis size. Speed only: a fresh one gives the same
// answer.
struct ComplementaryBasisWorkspace {
  std::vector<int> alpha;     // the basis' indices
  std::vector<char> guess;    // GuessBasis's answer
  std::vector<double> block;  // M_αα, column-major, kept for the refinement's residuals
  math::DenseLu lu;
  math::DenseMinNorm min_norm;
  Eigen::VectorXd rhs, x, residual, correction;
  Eigen::VectorXd z;  // the answer
  Eigen::VectorXd w;  // M z + q of the last answer certified (for CertifyLcp)
};

// Solves for z into workspace.z; false when the system has no solution. Uses a partial-pivoting
// LU followed by two steps of iterative refinement. When M_αα is singular (rank-deficient
// contact sets make it so) but the system is consistent, the solution set is affine; with
// `near` given we return its point closest to `near` (a minimum-norm correction), which keeps an
// interior iterate's signs. `near` may not be workspace.z.
bool SolveComplementaryBasis(const LcpProblem& problem, const std::vector<char>& in_alpha,
                             const Eigen::VectorXd* near, ComplementaryBasisWorkspace& workspace);

// The active-set guess of an interior iterate, α = {i : z_i > w_i}, into workspace.guess.
const std::vector<char>& GuessBasis(const Eigen::VectorXd& z, const Eigen::VectorXd& w,
                                    ComplementaryBasisWorkspace& workspace);

}  // namespace coulomb
