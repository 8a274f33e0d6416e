#pragma once
// Symmetric diagonal scaling of an LCP (docs/notes/complementarity.md §1.2).
//
// For a positive diagonal D, LCP(Dq, DMD) has solution ẑ exactly when z = Dẑ solves LCP(q, M)
// (and ŵ = Dw), so complementarity is preserved. We pick D_ii = 1/sqrt(|M_ii|) so that the
// scaled diagonal is ±1; rows whose diagonal is zero (the a⁻/s⁻ rows of paper 1's LCP, the
// λ rows of Stewart–Trinkle) use the geometric mean of the row and column maxima instead.
// Solvers scale a private copy and certify on the unscaled data.

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

// The diagonal of D (all entries positive and finite).
Eigen::VectorXd ComputeLcpScaling(const Eigen::MatrixXd& M);
void ComputeLcpScaling(const Eigen::MatrixXd& M, Eigen::VectorXd& d);

// (D M D, D q) for the diagonal d.
LcpProblem ScaleLcp(const LcpProblem& problem, const Eigen::VectorXd& d);
// The same into `scaled` (its storage reused; not its name).
void ScaleLcp(const LcpProblem& problem, const Eigen::VectorXd& d, LcpProblem& scaled);

}  // namespace coulomb
