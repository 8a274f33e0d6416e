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
#include "coulomb/complementarity/lcp_result.h"
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

// Room for bases of up to n unknowns: re-solving them allocates nothing.
void ReserveComplementaryBasis(int n, ComplementaryBasisWorkspace& workspace);

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

// A stepper's warm start: the basis `in_alpha` guessed from last step's answer, re-solved as
// SolveComplementaryBasis does. A singular one (a box sticking on four corners: 12 unknowns on 6
// DoFs) is re-solved as its point nearest `near` (the guess as LCP unknowns) only while it has
// at most kNearestWarmBasisSize unknowns: the complete orthogonal decomposition saved 3 µs of 11
// on the sticking box, but cost the 10-cube stack's 60-unknown bases more than Lemke's path, and
// its non-vertex answers sent later paths into 80-pivot restarts (12.8 ms/step against 0.49).
inline constexpr int kNearestWarmBasisSize = 24;
bool SolveWarmBasis(const LcpProblem& problem, const std::vector<char>& in_alpha,
                    const Eigen::VectorXd& near, ComplementaryBasisWorkspace& workspace);

// A stepper's warm start: `z` (e.g. workspace.z after SolveComplementaryBasis on the basis last
// step's answer implies) taken as `solver`'s answer with 0 iterations if it passes the LCP
// certificate at `tolerance`; false (and `result` to be overwritten by the solver) otherwise.
bool TakeWarmBasisAnswer(const LcpProblem& problem, const Eigen::VectorXd& z, double tolerance,
                         const char* solver, LcpResult& result);

// The fraction of Lemke's acceptance tolerance a warm basis' answer is taken at: Lemke's own
// answers certify near 1e-13 on the examples, and warm answers taken at its 1e-10 let the
// 10-cube stack creep by the tangential rounding they leave out, after which Lemke's paths needed
// their polish (27 ms a step).
inline constexpr double kWarmBasisAccuracy = 1e-3;

}  // namespace coulomb
