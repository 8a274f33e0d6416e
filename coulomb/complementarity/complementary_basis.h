#pragma once
// Solving an LCP restricted to a guessed complementary basis.
//
// Given the index set α where z may be positive (and w_α = 0), the complementary solution is
//   M_αα z_α = −q_α,  z_ᾱ = 0,  w = M z + q.
// Pivoting and interior-point methods both end by guessing α; re-solving this system from the
// original data is how they turn a drifted or approximate iterate into an exact answer.

#include <Eigen/Dense>
#include <optional>
#include <vector>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

// Returns z, or nothing when the system has no solution. Uses a partial-pivoting LU followed by
// two steps of iterative refinement. When M_αα is singular (rank-deficient contact sets make it
// so) but the system is consistent, the solution set is affine; with `near` given we return its
// point closest to `near` (a minimum-norm correction), which keeps an interior iterate's signs.
std::optional<Eigen::VectorXd> SolveComplementaryBasis(const LcpProblem& problem,
                                                       const std::vector<char>& in_alpha,
                                                       const Eigen::VectorXd* near = nullptr);

// The active-set guess of an interior iterate: α = {i : z_i > w_i}.
std::vector<char> GuessBasis(const Eigen::VectorXd& z, const Eigen::VectorXd& w);

}  // namespace coulomb
