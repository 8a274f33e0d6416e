#pragma once
// Pieces shared by the two interior point methods (feasible_interior_point, mehrotra).

#include <Eigen/Dense>

#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

// Largest α ≤ 1 with x + α dx ≥ 0 (paper 1's ᾱ, Appendix B Step 2, for one vector).
double StepToBoundary(const Eigen::VectorXd& x, const Eigen::VectorXd& dx);

// "Round and polish" (docs/notes/complementarity.md §2.1): an interior iterate approaches a
// solution but never reaches one. Guess the active set from z_i > w_i, re-solve that complementary
// basis exactly, and fall back to a few Fischer–Burmeister Newton steps from the iterate if the
// guess is wrong. Returns the best-certified of: the iterate itself, the rounded basis solution,
// and the Fischer–Burmeister polish of the better of those two (only when neither passes
// `tolerance`). Into `best` (not z or w), working in `workspace`: without the polish, a warm
// workspace allocates nothing.
void RoundAndPolish(const LcpProblem& problem, const Eigen::VectorXd& z, const Eigen::VectorXd& w,
                    double tolerance, bool newton_polish, ComplementaryBasisWorkspace& workspace,
                    Eigen::VectorXd& best);

}  // namespace coulomb
